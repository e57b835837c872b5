//! `bitmc verify`: verify a C program or an SV-COMP task.

use super::common::{self, EngineArgs};
use super::limits;
use super::program::{lower_keeping_original, ProgramArgs};
use super::{EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use bitmc::cfa::Property;
use bitmc::frontend::FrontendError;
use bitmc::verify::{verify_cfa, Fault, ProgramVerdict, VerifyOptions};
use bitmc::witness::trace::{format_trace, Trace};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub program: ProgramArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// On TRUE, write the inductive invariant to FILE: one line per location with a C
    /// expression over the program variables (only when the winning engine proved the program
    /// with an invariant, i.e. PDR or IC3CFA; k-induction proofs have none).
    #[arg(long, value_name = "FILE")]
    pub invariant: Option<PathBuf>,
    /// Write an SV-COMP witness of a TRUE or FALSE verdict to FILE: YAML format 2.0 for .yml
    /// or .yaml, GraphML format 1.0 for .graphml; repeat for both. FALSE gives a violation
    /// witness (the nondet values of the counterexample at their calls, and the failing
    /// statement); TRUE a correctness witness (an invariant at each loop head, from PDR's or
    /// IC3CFA's inductive invariant, keeping the conjuncts over variables in scope there; a
    /// k-induction proof has none, so its witness is the trivial one, and stderr says so).
    /// Only unreach-call and no-overflow have SV-COMP specifications to write.
    #[arg(long, value_name = "FILE")]
    pub witness: Vec<PathBuf>,
    /// SV-COMP conventions: write witness.yml and witness.graphml in the working directory
    /// (unless --witness names files). The verdict is always the last line of the output:
    /// TRUE, FALSE(PROPERTY) or UNKNOWN.
    #[arg(long)]
    pub svcomp: bool,
    /// k-induction first searches this many seconds at most for candidate invariants per
    /// location (comparisons of program variables with each other and with the program's
    /// constants, exact differences against constants, sums, scaled differences against the
    /// bounds the samples show; those that random simulation refutes are dropped, the rest
    /// proved inductive by Houdini and re-checked by a second SAT solver), then runs on the
    /// system constrained by the proved ones; the other portfolio members run meanwhile (with
    /// more members than cores, PDR runs 1 s and then waits until the search is over). The
    /// search stops early when Houdini is done; the re-check may take up to this time more.
    /// 0 turns it off. Default: a third of --timeout, at most 20 s.
    #[arg(long, value_name = "SECONDS")]
    pub invariant_time: Option<f64>,
    /// What a counterexample is whose path depends on what a function without a definition
    /// returns or writes: `unknown` (UNKNOWN, as the program does not state it) or `nondet`
    /// (a violation: such a function may return any value and write any global it can see, as
    /// SV-COMP's environment model has it).
    #[arg(long, value_enum, default_value_t = UndefinedCallsArg::Unknown)]
    pub undefined_calls: UndefinedCallsArg,
    /// Print statistics and what was checked to stderr.
    #[arg(short, long)]
    pub verbose: bool,
    /// A fault to inject, for the tests of how internal errors are reported:
    /// `reject-evidence:PHASE` (PHASE 1 or 2) makes the check of every conclusive verdict of
    /// that phase fail.
    #[arg(long, hide = true, value_name = "FAULT", value_parser = parse_fault)]
    pub inject_fault: Option<Fault>,
}

/// `--undefined-calls`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum UndefinedCallsArg {
    Unknown,
    Nondet,
}

fn parse_fault(s: &str) -> Result<Fault, String> {
    match s.split_once(':') {
        Some(("reject-evidence", p @ ("1" | "2"))) => Ok(Fault::RejectEvidence {
            phase: if p == "1" { 1 } else { 2 },
        }),
        _ => Err(format!(
            "unknown fault `{s}` (reject-evidence:1, reject-evidence:2)"
        )),
    }
}

/// The time for the candidate-invariant search (see [`VerifyArgs::invariant_time`]).
fn invariant_budget(args: &VerifyArgs) -> Option<Duration> {
    let secs = match (args.invariant_time, args.engine.timeout) {
        (Some(s), _) => s,
        (None, Some(t)) => (t / 3.0).min(20.0),
        (None, None) => 20.0,
    };
    (secs > 0.0).then(|| Duration::from_secs_f64(secs))
}

pub fn run(args: &VerifyArgs) -> anyhow::Result<u8> {
    let start = Instant::now();
    // The time limit covers the whole run, parsing and encoding included.
    let interrupter = bitmc::sat::Interrupter::new();
    let timeout = args.engine.timeout;
    if let Err(e) = limits::start(limits::Command::Verify, start, timeout, &interrupter) {
        return Ok(no_room(
            &format!("cannot start the watchdog thread: {e}"),
            start,
        ));
    }
    let witnesses = super::witness::requested(&args.witness, args.svcomp)?;
    let (r, original, cfa) = match lower_keeping_original(&args.program) {
        Ok(lowered) => lowered,
        Err(e) => match e.downcast_ref::<FrontendError>() {
            Some(FrontendError::OutOfMemory(why)) => return Ok(no_room(why, start)),
            _ => return Err(e),
        },
    };
    let property = r.options.property;
    let strategy = args.engine.strategy(true)?;
    limits::set_engine(strategy.name());
    let opts = VerifyOptions {
        strategy: strategy.clone(),
        max_depth: args.engine.max_depth,
        pc: args.program.pc.encoding(),
        interrupter,
        invariant_budget: invariant_budget(args),
        preprocess: args.engine.preprocess.preprocess(),
        undefined_calls: match args.undefined_calls {
            UndefinedCallsArg::Unknown => bitmc::verify::UndefinedCalls::Unknown,
            UndefinedCallsArg::Nondet => bitmc::verify::UndefinedCalls::Nondet,
        },
        fault: args.inject_fault,
    };
    let mut progress = common::progress_printer();
    let result = verify_cfa(&cfa, &opts, &mut progress);
    let secs = start.elapsed().as_secs_f64();
    let engine = result.winner.clone().unwrap_or_else(|| strategy.name());
    if args.verbose {
        eprintln!(
            "program: {} ({}, {})",
            r.input.display(),
            property,
            r.options.data_model
        );
        eprintln!(
            "CFA: {} locations, {} edges, {} variables",
            cfa.locations.len(),
            cfa.edges.len(),
            cfa.vars.len()
        );
        eprintln!("engine: {}", strategy.name());
        for (k, v) in &result.stats {
            eprintln!("{k}: {v}");
        }
        for n in &result.notes {
            eprintln!("check: {n}");
        }
        eprintln!("total time: {secs:.3} s");
    }
    // The answer is made before it is claimed, so that the watchdog can still answer for a
    // run that is late; once claimed, it is printed and its files written in full.
    let mut out = String::new();
    let mut note = None;
    let code = match &result.verdict {
        ProgramVerdict::True => {
            out += &format!("TRUE ({property}) ({engine}, {secs:.2} s)\nTRUE\n");
            EXIT_SAFE
        }
        ProgramVerdict::False(p, trace) => {
            out += &format!("FALSE ({p}) ({engine}, {secs:.2} s)\n");
            out += &counterexample_text(&original, &cfa, *p, trace);
            out += &format!("FALSE({p})\n");
            EXIT_UNSAFE
        }
        ProgramVerdict::Unknown(u) => {
            let report = common::report_unknown(u, secs);
            note = report.detail;
            out += &format!(
                "UNKNOWN ({}) ({engine}, {secs:.2} s)\nUNKNOWN\n",
                report.text
            );
            report.exit
        }
    };
    limits::claim_or_wait();
    super::witness::write(&witnesses, &r, &original, &cfa, &result, &engine);
    if let (ProgramVerdict::True, Some(path)) = (&result.verdict, &args.invariant) {
        write_invariant(path, &cfa, result.invariant.as_deref())?;
    }
    if let Some(detail) = note {
        eprintln!("note: {detail}");
    }
    print!("{out}");
    Ok(code)
}

/// The answer of a run that has no room to start: `UNKNOWN (memory)`, with the reason.
fn no_room(why: &str, start: Instant) -> u8 {
    limits::claim_or_wait();
    eprintln!("note: memory: {why}");
    println!(
        "UNKNOWN (memory) (bitmc, {:.2} s)\nUNKNOWN",
        start.elapsed().as_secs_f64()
    );
    EXIT_UNKNOWN
}

/// The most steps of a counterexample's run on the program as written that are printed.
const TRACE_STEPS: usize = 1_000_000;

/// A counterexample: the statements executed on the program as written, its inputs, and where
/// the property fails (gcc's form), or, when that run cannot be shown, the nondet values as
/// the engine's CFA took them and why.
fn counterexample_text(
    original: &bitmc::cfa::Cfa,
    cfa: &bitmc::cfa::Cfa,
    property: Property,
    trace: &bitmc::verify::ProgramTrace,
) -> String {
    let run = trace
        .source_run(original, cfa, TRACE_STEPS)
        .and_then(|steps| Trace::of_run(original, &steps).map_err(|e| e.to_string()));
    let mut out = String::new();
    match run {
        Ok(t) => {
            let calls: Vec<String> = t.inputs().iter().map(|i| i.value.to_string()).collect();
            out += &format!("nondet values: [{}]\n", calls.join(", "));
            out += &format_trace(original, &t);
            let (pos, what) = t.failure.unwrap_or_default();
            let at = pos.map(|p| format!("{p}: ")).unwrap_or_default();
            out += &format!("{at}error: {what} ({property})\n");
        }
        Err(why) => {
            let seq: Vec<String> = trace.nondet.iter().map(|v| v.to_string()).collect();
            let whose = if trace.expanded {
                "of the program's nondet calls and uninitialised declarations"
            } else {
                "of the accelerated CFA (with the iteration counts of its jumps)"
            };
            out += &format!("nondet values {whose}: [{}]\n", seq.join(", "));
            out += &format!("no trace: {why}\n");
            out += &format!("error: {property} is violated\n");
        }
    }
    out
}

fn write_invariant(
    path: &Path,
    cfa: &bitmc::cfa::Cfa,
    inv: Option<&[(bitmc::cfa::Loc, Vec<bitmc::engine::Conjunct>)]>,
) -> anyhow::Result<()> {
    let Some(inv) = inv else {
        eprintln!(
            "note: the proof has no inductive invariant (it is not by PDR or IC3CFA); {} not written",
            path.display()
        );
        return Ok(());
    };
    let mut s = String::from(
        "# inductive invariant per location (C expressions over the program variables)\n",
    );
    for (l, conjuncts) in inv {
        let expr = bitmc::engine::Conjunct::join(conjuncts);
        s.push_str(&format!("{}: {expr}\n", cfa.loc_label(*l)));
    }
    std::fs::write(path, s).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
