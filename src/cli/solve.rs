//! `bitmc solve`: model checking of DimSpec and AIGER transition systems.

use super::common::{self, EngineArg, EngineArgs};
use super::limits;
use super::plan_map::VarMap;
use super::{EXIT_SAFE, EXIT_UNSAFE};
use anyhow::Context;
use bitmc::aig::aiger;
use bitmc::engine::portfolio::{Member, PortfolioResult, Strategy, Systems};
use bitmc::engine::preprocess::Preprocessed;
use bitmc::engine::{Options, Stats, Unknown, Verdict};
use bitmc::ts::aiger::{from_aiger, AigerSystem, AigerTrace};
use bitmc::ts::{dimspec as ts_dimspec, Plan, System};
use bitmc::witness;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The DimSpec (.cnf, .spec, .dimspec) or AIGER (.aag, .aig) file.
    pub file: PathBuf,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// How to print a plan to the goal: `states` lists the true variables of each state (or,
    /// for a file `bitmc dimspec` wrote, the program's variables its header names);
    /// `incplan` prints IncPlan's `solution n k` form.
    #[arg(long, value_enum, default_value_t = PlanFormat::States)]
    pub plan_format: PlanFormat,
    /// For AIGER input: also write the counterexample in the AIGER witness format to FILE.
    #[arg(long, value_name = "FILE")]
    pub witness: Option<PathBuf>,
    /// On SAFE, write the inductive invariant to FILE as DIMACS clauses over the system's
    /// variables (DimSpec numbering; for AIGER input see the comment lines for the latches).
    /// Only PDR proofs have one.
    #[arg(long, value_name = "FILE")]
    pub invariant: Option<PathBuf>,
    /// Print statistics and what was checked to stderr.
    #[arg(short, long)]
    pub verbose: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum PlanFormat {
    States,
    Incplan,
}

enum Input {
    Dimspec(Box<System>),
    /// An AIGER system and the map of its latches in its comment section, if it has one.
    Aiger(Box<AigerSystem>, Option<VarMap>),
}

fn load(path: &Path) -> anyhow::Result<Input> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "aag" | "aig" => {
            let file = aiger::read_path(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let sys = from_aiger(&file).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let map = VarMap::parse(file.comments.iter().map(String::as_str));
            Ok(Input::Aiger(Box::new(sys), map))
        }
        "cnf" | "spec" | "dimspec" => {
            let p = dimspec::read_file(path).map_err(|e| anyhow::anyhow!("{e}"))?;
            Ok(Input::Dimspec(Box::new(ts_dimspec::from_problem(&p))))
        }
        _ => anyhow::bail!(
            "{}: unknown file type (expected .cnf, .spec or .dimspec for DimSpec, .aag or .aig for AIGER)",
            path.display()
        ),
    }
}

/// The system of the input.
fn system_of(input: &Input) -> &System {
    match input {
        Input::Dimspec(s) => s,
        Input::Aiger(a, _) => &a.sys,
    }
}

/// `bitmc solve`: read the system, run the engines under the time limit, print the answer.
pub fn run(args: &SolveArgs) -> anyhow::Result<u8> {
    let start = Instant::now();
    // The time limit covers the whole run, reading the input included.
    let interrupter = bitmc::sat::Interrupter::new();
    let timeout = args.engine.timeout;
    if let Err(e) = limits::start(limits::Command::Solve, start, timeout, &interrupter) {
        limits::claim_or_wait();
        eprintln!("unknown: memory (cannot start the watchdog thread: {e})");
        println!("UNKNOWN");
        return Ok(super::EXIT_UNKNOWN);
    }
    let input = load(&args.file)?;
    if let Input::Aiger(a, _) = &input {
        if a.ignored_liveness > 0 {
            let n = a.ignored_liveness;
            eprintln!("warning: {n} justice/fairness properties are not checked");
        }
    }
    let strategy = args.engine.strategy(false, EngineArg::PORTFOLIO)?;
    let members = strategy.members();
    if let Some(m) = members.iter().find(|m| m.engine().needs_program()) {
        anyhow::bail!("{}", bitmc::engine::no_program_reason(m.engine().name()));
    }
    let opts = Options {
        backend: bitmc::sat::Backend::Cadical,
        max_depth: args.engine.max_depth,
        interrupter,
    };
    let (r, notes) = search(args, &input, &strategy, &opts, start);
    let PortfolioResult {
        mut verdict,
        stats,
        winner,
        ..
    } = r;
    // For AIGER input the plan must also replay on the circuit itself.
    let mut aiger_trace = None;
    if let (Verdict::Unsafe(plan), Input::Aiger(a, _)) = (&verdict, &input) {
        match a.replay(plan) {
            Ok(t) => aiger_trace = Some(t),
            Err(e) => {
                verdict = Verdict::Unknown(Unknown::internal(format!(
                    "the plan does not replay on the circuit: {e}"
                )))
            }
        }
    }
    if args.verbose {
        print_statistics(&strategy, winner.as_ref(), &stats, &notes, start);
    }
    // Once claimed, the answer is printed in full (a plan may be long).
    limits::claim_or_wait();
    print_answer(args, &input, &verdict, aiger_trace.as_ref(), start)
}

/// The engines run on the input's system (a circuit preprocessed for PDR and BMC unless asked
/// not to), their progress on stderr; the result, with the preprocessing's statistics, and the
/// notes of the checks.
fn search(
    args: &SolveArgs,
    input: &Input,
    strategy: &Strategy,
    opts: &Options,
    start: Instant,
) -> (PortfolioResult, Vec<String>) {
    let sys = system_of(input);
    let mut printer = common::ProgressPrinter::new(start);
    let mut progress = |p: &bitmc::engine::Progress| printer.report(p);
    let notes = std::sync::Mutex::new(Vec::new());
    let check = |s: &System, v: Verdict, b: bitmc::sat::Backend, o: &Options| {
        let c = witness::check_bit_level(s, v, b, o);
        if let Ok(mut n) = notes.lock() {
            n.push(c.note);
        }
        c.verdict
    };
    let preprocessed: std::sync::OnceLock<Option<Preprocessed>> = std::sync::OnceLock::new();
    let prepare = |intr: &bitmc::sat::Interrupter| {
        preprocessed
            .get_or_init(|| match (input, args.engine.preprocess.preprocess()) {
                (Input::Dimspec(_), _) => None,
                (Input::Aiger(a, _), mode) => {
                    Preprocessed::new(a.original(), mode, bitmc::sat::Backend::Cadical, intr)
                }
            })
            .as_ref()
    };
    let systems = Systems {
        preprocessed: Some(&prepare),
        ..Systems::plain(sys)
    };
    let mut r = strategy.run(&systems, opts, &check, &mut progress);
    if let Some(p) = preprocessed.get().and_then(|p| p.as_ref()) {
        r.stats.extend(p.stats(sys));
    }
    (r, notes.into_inner().unwrap_or_default())
}

/// The answer on stdout (with the counterexample or the invariant file), the reason of an
/// UNKNOWN on stderr; the exit code.
fn print_answer(
    args: &SolveArgs,
    input: &Input,
    verdict: &Verdict,
    aiger_trace: Option<&AigerTrace>,
    start: Instant,
) -> anyhow::Result<u8> {
    let sys = system_of(input);
    match verdict {
        Verdict::Unsafe(plan) => {
            print_counterexample(args, input, sys, plan, aiger_trace)?;
            println!("UNSAFE");
            Ok(EXIT_UNSAFE)
        }
        Verdict::Safe(cert) => {
            if let Some(path) = &args.invariant {
                write_invariant(path, args, input, sys, cert)?;
            }
            println!("SAFE");
            Ok(EXIT_SAFE)
        }
        Verdict::Unknown(u) => {
            let secs = start.elapsed().as_secs_f64();
            let report = common::report_unknown(u, secs);
            match &report.detail {
                Some(detail) => eprintln!("unknown: {} ({detail})", report.text),
                None => eprintln!("unknown: {}", report.text),
            }
            println!("UNKNOWN");
            Ok(report.exit)
        }
    }
}

/// `-v`: the engine, the winner, the statistics, the checks' notes and the time, on stderr.
fn print_statistics(
    strategy: &Strategy,
    winner: Option<&Member>,
    stats: &Stats,
    notes: &[String],
    start: Instant,
) {
    eprintln!("engine: {}", strategy.name());
    if let Some(w) = winner {
        eprintln!("verdict by: {w}");
    }
    for s in stats {
        eprintln!("{}: {}", s.name, s.value);
    }
    for n in notes {
        if !n.is_empty() {
            eprintln!("check: {n}");
        }
    }
    eprintln!("total time: {:.3} s", start.elapsed().as_secs_f64());
}

/// An UNSAFE answer's counterexample: the AIGER trace (and `--witness`) of a circuit, the plan
/// of a DimSpec system.
fn print_counterexample(
    args: &SolveArgs,
    input: &Input,
    sys: &System,
    plan: &Plan,
    aiger_trace: Option<&AigerTrace>,
) -> anyhow::Result<()> {
    match (input, aiger_trace) {
        (Input::Aiger(a, map), Some(t)) => {
            print_aiger_trace(a.as_ref(), t, map.as_ref());
            if let Some(w) = &args.witness {
                std::fs::write(w, t.witness())
                    .with_context(|| format!("cannot write {}", w.display()))?;
            }
        }
        _ => {
            let map = match args.plan_format {
                PlanFormat::States => VarMap::of_dimspec(&args.file),
                PlanFormat::Incplan => None,
            };
            print_plan(sys, plan, args.plan_format, map.as_ref())
        }
    }
    Ok(())
}

/// `--invariant`: a SAFE answer's inductive invariant as DIMACS (with the latch of each
/// variable for AIGER input), or a note when the proof has none.
fn write_invariant(
    path: &Path,
    args: &SolveArgs,
    input: &Input,
    sys: &System,
    cert: &bitmc::engine::Certificate,
) -> anyhow::Result<()> {
    let bitmc::engine::Certificate::Invariant(inv) = cert else {
        eprintln!(
            "note: the proof has no inductive invariant (it is not by PDR); {} not written",
            path.display()
        );
        return Ok(());
    };
    let mut comments = vec![format!("inductive invariant of {}", args.file.display())];
    if let Input::Aiger(a, _) = input {
        for (j, v) in a.latch_var.iter().enumerate() {
            if let Some(v) = v {
                comments.push(format!("variable {} is latch {j}", v.0 + 1));
            }
        }
    }
    let text = bitmc::witness::invariant::to_dimacs(inv, sys.num_vars, &comments);
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn print_plan(sys: &System, plan: &Plan, format: PlanFormat, map: Option<&VarMap>) {
    let k = plan.states.len();
    match format {
        PlanFormat::Incplan => {
            println!("solution {} {}", sys.num_vars, k);
            for s in &plan.states {
                let lits: Vec<String> = s
                    .iter()
                    .enumerate()
                    .map(|(v, &b)| {
                        if b {
                            format!("{}", v + 1)
                        } else {
                            format!("-{}", v + 1)
                        }
                    })
                    .collect();
                println!("{}", lits.join(" "));
            }
        }
        PlanFormat::States if let Some(map) = map => {
            println!(
                "plan of {k} states ({} steps); the program's variables, as the file's header names them (all in state 0, then those that change):",
                k - 1
            );
            let lines = map.lines(k, |i, n| {
                let v = n.checked_sub(1)?;
                plan.states[i].get(v).copied()
            });
            for l in lines {
                println!("{l}");
            }
        }
        PlanFormat::States => {
            println!(
                "plan of {k} states ({} steps); each line lists the true variables:",
                k - 1
            );
            for (i, s) in plan.states.iter().enumerate() {
                let vars: Vec<String> = s
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| b)
                    .map(|(v, _)| (v + 1).to_string())
                    .collect();
                println!("state {i}: {}", vars.join(" "));
            }
        }
    }
}

fn print_aiger_trace(a: &AigerSystem, t: &AigerTrace, map: Option<&VarMap>) {
    let bits = |v: &[bool]| {
        v.iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect::<String>()
    };
    let kind = if a.props_are_outputs { "output" } else { "bad" };
    println!(
        "c counterexample of {} steps to {kind} property {}",
        t.latches.len() - 1,
        t.prop
    );
    for (i, l) in t.latches.iter().enumerate() {
        println!(
            "c state {i}: latches {} inputs {}",
            bits(l),
            bits(&t.inputs[i])
        );
    }
    if let Some(map) = map {
        println!("c the program's variables, as the file's comments name them:");
        for line in map.lines(t.latches.len(), |i, n| t.latches[i].get(n).copied()) {
            println!("c {line}");
        }
    }
    print!("{}", t.witness());
}
