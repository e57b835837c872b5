//! Each generated program checked several ways, and the figures of a whole run.
//!
//! [`check_program`] lowers the program (an `unsupported` error is counted: the generator must
//! only write supported C) and runs each check on the same [`Subject`], one call each:
//!
//! 1. [`against_gcc`]: the gcc binary on random nondet sequences; the interpreter of the
//!    lowered CFA must end every run as the binary does, and the interpreter of the prepared
//!    CFA (what the engines see) must reach the error exactly when the binary does.
//! 2. [`engines`]: bmc, kind, pdr, ic3cfa, euf and euf's full mode alone (CaDiCaL) and the
//!    portfolio, each with a time limit:
//!    no TRUE where a gcc run reached the error; every FALSE's nondet sequence (jumps of
//!    accelerated loops expanded into their iterations) makes the binary reach the error; no
//!    two conclusive verdicts differ; no internal error, and no undefined behaviour reported
//!    (the programs have none). UNKNOWN is allowed and counted.
//!
//! 3. [`lockstep`]: on the same sequences, the prepared CFA against the lowered one on the
//!    interpreter (`cfa::lockstep`), and the bit-level system of the prepared CFA against its
//!    interpreter, state by state (`ts::lockstep`).
//!
//! A further check of the same program is one more call in [`check_program`] taking the
//! `Subject` and the `Figures`.

use super::oracle::{self, Gcc, EXIT_ERROR};
use super::program::{generate, Program};
use crate::common::{literal_pool, Rng};
use bitmc::cfa::lockstep::{compare_runs, Derived, Ends};
use bitmc::cfa::{run_with, Cfa, DataModel, Gcl, Outcome, RunOptions};
use bitmc::engine::portfolio::{default_members, Member, Strategy};
use bitmc::engine::EngineKind;
use bitmc::frontend::{lower_source, FrontendError, FrontendOptions};
use bitmc::sat::{Backend, Interrupter};
use bitmc::ts::lockstep::ProgramLockstep;
use bitmc::ts::program::{encode, EncodeOptions, Goal, PcEncoding};
use bitmc::verify::{prepare, verify_cfa, ProgramVerdict, VerifyOptions};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// How a run is done.
#[derive(Clone, Debug)]
pub struct Config {
    /// gcc runs (random nondet sequences) per program.
    pub runs: usize,
    /// The time limit of each engine run, in seconds.
    pub engine_secs: f64,
    /// The length of each random nondet sequence.
    pub sequence: usize,
    /// No program is started after this time.
    pub deadline: Option<std::time::Instant>,
}

/// One program and what the checks share.
pub struct Subject<'a> {
    pub name: String,
    pub program: &'a Program,
    pub bin: PathBuf,
    /// The front end's CFA (without large-block encoding).
    pub lowered: Cfa,
    /// What the engines verify: `prepare(lowered, true)`.
    pub prepared: Cfa,
}

/// Counts of a run; failures carry the program's text.
#[derive(Default, Debug)]
pub struct Figures {
    /// Programs generated, and those lowered and checked.
    pub attempted: usize,
    pub programs: usize,
    pub by_model: BTreeMap<&'static str, usize>,
    pub gcc_runs: usize,
    pub gcc_runs_reaching: usize,
    pub programs_gcc_reaching: usize,
    pub engine_runs: usize,
    /// (engine, TRUE/FALSE/UNKNOWN) → runs.
    pub verdicts: BTreeMap<(String, &'static str), usize>,
    /// Why runs were UNKNOWN (the reason's first words) → runs.
    pub unknown_reasons: BTreeMap<String, usize>,
    /// Programs some engine proved TRUE, FALSE, and neither.
    pub programs_true: usize,
    pub programs_false: usize,
    pub programs_undecided: usize,
    /// FALSE verdicts whose nondet sequence made the gcc binary reach the error.
    pub false_confirmed: usize,
    /// FALSE verdicts found on an accelerated CFA.
    pub false_accelerated: usize,
    /// FALSE verdicts whose `trace.nondet` as it is (what the command line prints) does not
    /// make the binary reach the error: it holds the jump counts of accelerated loops and the
    /// values of uninitialised declarations, which the compiled program does not consume.
    pub raw_not_replaying: usize,
    /// Lock-step runs (passes and system), and the system states compared.
    pub lockstep_runs: usize,
    pub lockstep_states: usize,
    pub unsupported: usize,
    pub failures: Vec<String>,
}

impl Figures {
    fn merge(&mut self, o: Figures) {
        self.attempted += o.attempted;
        self.programs += o.programs;
        for (k, v) in o.by_model {
            *self.by_model.entry(k).or_default() += v;
        }
        self.gcc_runs += o.gcc_runs;
        self.gcc_runs_reaching += o.gcc_runs_reaching;
        self.programs_gcc_reaching += o.programs_gcc_reaching;
        self.engine_runs += o.engine_runs;
        for (k, v) in o.verdicts {
            *self.verdicts.entry(k).or_default() += v;
        }
        for (k, v) in o.unknown_reasons {
            *self.unknown_reasons.entry(k).or_default() += v;
        }
        self.programs_true += o.programs_true;
        self.programs_false += o.programs_false;
        self.programs_undecided += o.programs_undecided;
        self.false_confirmed += o.false_confirmed;
        self.false_accelerated += o.false_accelerated;
        self.raw_not_replaying += o.raw_not_replaying;
        self.lockstep_runs += o.lockstep_runs;
        self.lockstep_states += o.lockstep_states;
        self.unsupported += o.unsupported;
        self.failures.extend(o.failures);
    }

    pub fn print(&self) {
        eprintln!(
            "random programs: {} programs ({:?}), {} gcc runs ({} reaching the error, in {} programs), \
             {} engine runs",
            self.programs, self.by_model, self.gcc_runs, self.gcc_runs_reaching, self.programs_gcc_reaching, self.engine_runs
        );
        eprintln!(
            "  programs: {} TRUE, {} FALSE, {} undecided; FALSE confirmed by gcc: {} ({} on accelerated CFAs; \
             {} whose trace.nondet as printed does not replay); unsupported: {}; failures: {}",
            self.programs_true,
            self.programs_false,
            self.programs_undecided,
            self.false_confirmed,
            self.false_accelerated,
            self.raw_not_replaying,
            self.unsupported,
            self.failures.len()
        );
        eprintln!(
            "  lock-step: {} runs, {} system states compared",
            self.lockstep_runs, self.lockstep_states
        );
        for ((e, k), n) in &self.verdicts {
            eprintln!("  {e}: {k} {n}");
        }
        for (r, n) in &self.unknown_reasons {
            eprintln!("  UNKNOWN ({r}): {n}");
        }
    }
}

/// The engines alone (CaDiCaL) and the portfolio.
pub fn strategies() -> Vec<Strategy> {
    let mut s: Vec<Strategy> = [
        EngineKind::Bmc,
        EngineKind::Kind,
        EngineKind::Pdr,
        EngineKind::Ic3cfa,
        EngineKind::Euf,
    ]
    .into_iter()
    .map(|engine| Strategy::Single(Member::new(engine, Backend::Cadical)))
    .collect();
    let full: Member = "euf:cadical:full".parse().expect("a member");
    s.push(Strategy::Single(full));
    s.push(Strategy::Portfolio {
        members: default_members(),
        jobs: 2,
    });
    s
}

/// The program of index `i`: its data model alternates between those gcc works for.
pub fn program(gen: Generator, i: u64, models: &[DataModel]) -> Program {
    gen(i, models[(i % models.len() as u64) as usize])
}

/// A program generator: the program of a seed for a data model.
pub type Generator = fn(u64, DataModel) -> Program;

/// Generates (with `gen`), lowers and checks program `i`.
pub fn check_program(gen: Generator, i: u64, gcc: &Gcc, cfg: &Config) -> Figures {
    let mut f = Figures {
        attempted: 1,
        ..Figures::default()
    };
    let program = program(gen, i, &gcc.models());
    let name = format!("p{i}");
    let header = format!("program {i} ({})", program.dm);
    if let Ok(keep) = std::env::var("BITMC_RANDOM_KEEP") {
        let _ = std::fs::create_dir_all(&keep);
        let _ = std::fs::write(
            format!("{keep}/{name}-{}.c", program.dm.name()),
            &program.src,
        );
    }
    let bin = match gcc.build(&name, &program.src, program.dm) {
        Ok(b) => b,
        Err(e) => {
            f.failures
                .push(format!("{header}: gcc rejects it: {e}\n{}", program.src));
            return f;
        }
    };
    let opts = FrontendOptions {
        data_model: program.dm,
        lbe: false,
        ..FrontendOptions::default()
    };
    let lowered = match lower_source(&program.src, "p.c", &opts) {
        Ok(l) => l.cfa,
        Err(e) => {
            if matches!(e, FrontendError::Unsupported { .. }) {
                f.unsupported += 1;
            }
            f.failures.push(format!("{header}: {e}\n{}", program.src));
            gcc.clean(&name);
            return f;
        }
    };
    let prepared = prepare(&lowered, true);
    let s = Subject {
        name: name.clone(),
        program: &program,
        bin,
        lowered,
        prepared,
    };
    f.programs += 1;
    *f.by_model.entry(program.dm.name()).or_default() += 1;
    let reaching = against_gcc(&s, i, cfg, &mut f);
    engines(&s, reaching.as_deref(), cfg, &mut f);
    lockstep(&s, i, cfg, &mut f);
    gcc.clean(&name);
    f
}

/// The ending of an interpreter run as the harness's exit code.
fn exit_code(o: &Outcome) -> Option<i32> {
    match o {
        Outcome::Error { .. } => Some(EXIT_ERROR),
        Outcome::Exit => Some(oracle::EXIT_NORMAL),
        Outcome::AssumeFailed { .. } => Some(102),
        Outcome::NondetExhausted { .. } => Some(103),
        Outcome::Sink { .. } | Outcome::StepLimit { .. } => None,
    }
}

fn interpret(cfa: &Cfa, seq: &[u64]) -> Outcome {
    let vals: Vec<u128> = seq.iter().map(|&v| u128::from(v)).collect();
    let opts = RunOptions {
        step_limit: 1_000_000,
        uninit_zero: true,
        record: false,
    };
    run_with(cfa, &vals, opts).0
}

/// Check 1a: gcc against the interpreter on random sequences; a sequence on which the
/// binary reaches the error, if one was found.
pub fn against_gcc(s: &Subject, seed: u64, cfg: &Config, f: &mut Figures) -> Option<Vec<u64>> {
    let mut rng = Rng(seed.wrapping_mul(31) + 7, literal_pool(&s.program.src));
    let mut reaching = None;
    for _ in 0..cfg.runs {
        let seq: Vec<u64> = (0..cfg.sequence).map(|_| rng.interesting()).collect();
        let got = oracle::run(&s.bin, &seq);
        f.gcc_runs += 1;
        let want = interpret(&s.lowered, &seq);
        if got.is_none() || got != exit_code(&want) {
            f.failures.push(format!(
                "{} ({}) on {seq:?}: gcc exits {got:?}, the interpreter ends with {want:?}\n{}",
                s.name, s.program.dm, s.program.src
            ));
            return reaching;
        }
        let prepared = interpret(&s.prepared, &seq);
        if matches!(prepared, Outcome::Error { .. }) != (got == Some(EXIT_ERROR)) {
            f.failures.push(format!(
                "{} ({}) on {seq:?}: gcc exits {got:?}, the prepared CFA's interpreter ends with {prepared:?}\n{}",
                s.name, s.program.dm, s.program.src
            ));
        }
        if got == Some(EXIT_ERROR) {
            f.gcc_runs_reaching += 1;
            reaching.get_or_insert(seq);
        }
    }
    if reaching.is_some() {
        f.programs_gcc_reaching += 1;
    }
    reaching
}

/// Check 3: the prepared CFA against the lowered one, and the system of the prepared CFA
/// against its interpreter, on random sequences drawn as in [`against_gcc`].
pub fn lockstep(s: &Subject, seed: u64, cfg: &Config, f: &mut Figures) {
    let mut rng = Rng(seed.wrapping_mul(31) + 7, literal_pool(&s.program.src));
    let ps = encode(
        &s.prepared,
        EncodeOptions {
            pc: PcEncoding::Binary,
            goal: Goal::Any,
        },
    );
    let ls = ProgramLockstep::new(&s.prepared, &ps);
    let opts = RunOptions {
        step_limit: 10_000,
        uninit_zero: true,
        record: true,
    };
    for _ in 0..cfg.runs {
        let seq: Vec<u128> = (0..cfg.sequence)
            .map(|_| u128::from(rng.interesting()))
            .collect();
        let passes = compare_runs(
            &s.lowered,
            Derived::Passes(&s.prepared),
            &seq,
            opts,
            Ends::SameTargets,
        );
        let mut init = Rng(rng.next(), Vec::new());
        let mut draw = |w: u32| bitmc::bv::value::truncate(init.interesting() as u128, w);
        let system = ls.follow_interpreter(&seq, opts.step_limit, &mut draw);
        f.lockstep_runs += 1;
        let what = match (passes, system) {
            (Err(e), _) => format!("the prepared CFA differs from the lowered one: {e}"),
            (_, Err(e)) => format!("the system differs from the interpreter: {e}"),
            (Ok(_), Ok((states, _))) => {
                f.lockstep_states += states;
                continue;
            }
        };
        f.failures.push(format!(
            "{} ({}) on {seq:?}: {what}\n{}",
            s.name, s.program.dm, s.program.src
        ));
        return;
    }
}

/// The deepest BMC goes alone: far beyond the longest path of a generated program, so that
/// it stops on safe programs instead of running out of time.
const BMC_DEPTH: usize = 200;

/// `verify` with a time limit (BMC alone also with [`BMC_DEPTH`]).
pub fn verify(cfa: &Cfa, strategy: Strategy, limit: f64) -> ProgramVerdict {
    let intr = Interrupter::new();
    let bmc_alone = matches!(&strategy, Strategy::Single(m) if m.engine() == EngineKind::Bmc);
    let opts = VerifyOptions {
        invariant_budget: Some(Duration::from_secs_f64(limit / 4.0)),
        strategy,
        max_depth: bmc_alone.then_some(BMC_DEPTH),
        pc: PcEncoding::Binary,
        interrupter: intr.clone(),
        preprocess: Default::default(),
        undefined_calls: Default::default(),
        fault: None,
    };
    crate::common::interrupt_after(&intr, limit, || verify_cfa(cfa, &opts, &mut |_| {}).verdict)
}

/// The nondet sequence of a FALSE verdict's trace as the compiled program consumes it: the
/// printed values without those of uninitialised declarations (the compiled program consumes
/// none there); `None` when a value does not fit 64 bits, or when the trace's values are those
/// of the accelerated CFA (not expanded).
pub fn program_sequence(prepared: &Cfa, trace: &bitmc::verify::ProgramTrace) -> Option<Vec<u64>> {
    if !trace.expanded {
        return None;
    }
    let seq: Vec<u128> = match &trace.accelerated {
        // The expanded values come from the program's run; its uninitialised declarations
        // are dead (the generator never reads them before writing them).
        Some(_) => trace.nondet.clone(),
        None => {
            let mut uninitialised = HashSet::new();
            for e in &prepared.edges {
                e.cmd.for_each_atom(&mut |g| {
                    if let Gcl::Havoc(v, kind, _) = g {
                        if !kind.is_call() {
                            uninitialised.insert(*v);
                        }
                    }
                });
            }
            trace
                .steps
                .iter()
                .flat_map(|st| st.nondet.iter())
                .filter(|(v, _)| !uninitialised.contains(v))
                .map(|&(_, x)| x)
                .collect()
        }
    };
    seq.into_iter().map(|v| u64::try_from(v).ok()).collect()
}

/// Check 1b and 2: every engine's verdict against gcc, and the engines against each other.
pub fn engines(s: &Subject, reaching: Option<&[u64]>, cfg: &Config, f: &mut Figures) {
    let mut conclusive: Vec<(String, bool)> = Vec::new();
    let fail = |f: &mut Figures, what: String| {
        f.failures.push(format!(
            "{} ({}): {what}\n{}",
            s.name, s.program.dm, s.program.src
        ));
    };
    for strategy in strategies() {
        let name = strategy.name();
        let v = verify(&s.prepared, strategy, cfg.engine_secs);
        f.engine_runs += 1;
        let kind = match &v {
            ProgramVerdict::True => "TRUE",
            ProgramVerdict::False(..) => "FALSE",
            ProgramVerdict::Unknown(_) => "UNKNOWN",
        };
        *f.verdicts.entry((name.clone(), kind)).or_default() += 1;
        match v {
            ProgramVerdict::True => {
                if let Some(seq) = reaching {
                    fail(
                        f,
                        format!("{name} answers TRUE, but gcc reaches the error on {seq:?}"),
                    );
                }
                conclusive.push((name, true));
            }
            ProgramVerdict::False(_, trace) => {
                if trace.accelerated.is_some() {
                    f.false_accelerated += 1;
                }
                let raw: Option<Vec<u64>> = trace
                    .nondet
                    .iter()
                    .map(|&v| u64::try_from(v).ok())
                    .collect();
                if raw.is_none_or(|r| oracle::run(&s.bin, &r) != Some(EXIT_ERROR)) {
                    f.raw_not_replaying += 1;
                }
                match program_sequence(&s.prepared, &trace) {
                    Some(seq) if oracle::run(&s.bin, &seq) == Some(EXIT_ERROR) => {
                        f.false_confirmed += 1
                    }
                    seq => {
                        let got = seq.as_ref().map(|q| oracle::run(&s.bin, q));
                        fail(f, format!("{name} answers FALSE, but its nondet sequence {seq:?} makes gcc exit {got:?}"));
                    }
                }
                conclusive.push((name, false));
            }
            ProgramVerdict::Unknown(reason) => {
                let reason = reason.to_string();
                if reason.starts_with("internal error") || reason.contains("undefined behaviour") {
                    fail(f, format!("{name}: UNKNOWN ({reason})"));
                }
                let short: String = reason
                    .split([':', '('])
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string();
                *f.unknown_reasons.entry(short).or_default() += 1;
            }
        }
    }
    let (t, fa) = (
        conclusive.iter().any(|c| c.1),
        conclusive.iter().any(|c| !c.1),
    );
    if t && fa {
        fail(f, format!("the engines disagree: {conclusive:?}"));
    }
    match (t, fa) {
        (true, _) => f.programs_true += 1,
        (_, true) => f.programs_false += 1,
        _ => f.programs_undecided += 1,
    }
}

/// Checks programs `first..first + count` on two threads (until the deadline, if any);
/// failures, panics included, are printed as they come.
pub fn check_programs(first: u64, count: u64, gcc: &Gcc, cfg: &Config) -> Figures {
    check_programs_of(generate, first, count, gcc, cfg)
}

/// Checks programs `first..first + count` of the generator `gen`, as [`check_programs`].
pub fn check_programs_of(
    gen: Generator,
    first: u64,
    count: u64,
    gcc: &Gcc,
    cfg: &Config,
) -> Figures {
    let next = Mutex::new(first);
    let all = Mutex::new(Figures::default());
    let start = std::time::Instant::now();
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                if i >= first + count
                    || cfg.deadline.is_some_and(|d| std::time::Instant::now() >= d)
                {
                    break;
                }
                // A panic in bitmc is a failure of that program, reported with its text; the
                // run goes on with the next.
                let f = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    check_program(gen, i, gcc, cfg)
                }))
                .unwrap_or_else(|e| {
                    let what = e
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| e.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    let p = program(gen, i, &gcc.models());
                    Figures {
                        attempted: 1,
                        programs: 1,
                        failures: vec![format!("program {i} ({}): panic: {what}\n{}", p.dm, p.src)],
                        ..Figures::default()
                    }
                });
                for m in &f.failures {
                    eprintln!("FAILURE: {m}");
                }
                let mut a = all.lock().unwrap();
                a.merge(f);
                if count >= 200 && a.attempted % 100 == 0 {
                    eprintln!(
                        "  … {} of {count} programs after {:.0} s ({} failures)",
                        a.attempted,
                        start.elapsed().as_secs_f64(),
                        a.failures.len()
                    );
                }
            });
        }
    });
    all.into_inner().unwrap()
}
