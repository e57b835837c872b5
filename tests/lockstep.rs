//! Lock-step differential test of everything between the lowered CFA and the bit-level system:
//! on every fixture (every property its header names, both data models) and, in the long
//! version, every task of `../shared/bench`, random runs are compared step by step
//! - between each pass of `verify::prepare` and its input, between the prepared CFA and its
//!   folded and accelerated copies (jumps expanded into iterations), on the interpreter
//!   (`cfa::lockstep`);
//! - between the interpreter of the prepared, folded and accelerated CFAs and the bit-level
//!   systems encoded from them, in both directions (`ts::lockstep`): nondet sequences fed to
//!   both, and random system paths decoded and replayed;
//! - between each system and its DimSpec and AIGER (binary and ASCII) exports read back, bit for
//!   bit (`ts::step::compare_systems`).
//!
//! The default version takes a few runs per fixture (one data model each); `BITMC_LONG=1` runs
//! more, on both data models, and adds the public benchmark tasks. Both print their figures
//! and assert that none differs and that the amount compared is not trivial.
//! `tests/lockstep_mutants.rs` shows that the comparison catches an encoding of a changed CFA
//! in both directions.

mod common;

use bitmc::cfa::lockstep::{compare_runs, Derived, Ends};
use bitmc::cfa::{fold_fixed_loops, Cfa, DataModel, LocKind, Property, RunOptions, PREPARE_PASSES};
use bitmc::frontend::{lower_file, FrontendOptions};
use bitmc::sat::{Interrupter, Var};
use bitmc::ts::lockstep::{read_back_exports, ProgramLockstep, ReadBack, SystemRun};
use bitmc::ts::program::{encode, EncodeOptions, Goal, PcEncoding, ProgramSystem};
use bitmc::ts::step::{compare_systems, Stepper};
use bitmc::verify::accelerate_for_bmc;
use common::Rng;
use std::path::{Path, PathBuf};

/// How much to compare.
#[derive(Clone, Copy)]
struct Config {
    /// Runs per comparison and direction.
    runs: usize,
    /// Nondet values per run.
    values: usize,
    /// Steps per run.
    steps: usize,
    /// Both data models for every fixture (otherwise one, alternating).
    both_models: bool,
    /// The tasks of `../shared/bench` too.
    bench: bool,
}

fn config() -> Config {
    if std::env::var("BITMC_LONG").is_ok_and(|v| v == "1") {
        Config {
            runs: 40,
            values: 400,
            steps: 400,
            both_models: true,
            bench: true,
        }
    } else {
        Config {
            runs: 6,
            values: 96,
            steps: 96,
            both_models: false,
            bench: false,
        }
    }
}

/// A program to check under one property and data model.
struct Program {
    path: PathBuf,
    property: Property,
    data_model: DataModel,
}

fn fixture_programs(cfg: &Config) -> Vec<Program> {
    let mut out = Vec::new();
    for (i, f) in common::fixture_files().into_iter().enumerate() {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let h = common::header(&text);
        if h.unsupported {
            continue;
        }
        let models = if cfg.both_models {
            vec![DataModel::Ilp32, DataModel::Lp64]
        } else if i % 2 == 0 {
            vec![DataModel::Ilp32]
        } else {
            vec![DataModel::Lp64]
        };
        for dm in models {
            for p in Property::ALL {
                if h.expect.is_empty() || h.verdict(p, dm).is_some() {
                    out.push(Program {
                        path: f.clone(),
                        property: p,
                        data_model: dm,
                    });
                }
            }
        }
    }
    out
}

/// The tasks under `../shared/bench/{svcomp,control}`, one program per property checked.
fn bench_programs() -> Vec<Program> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    let mut files = Vec::new();
    for dir in ["svcomp", "control"] {
        let d = root.join(dir);
        if !d.is_dir() {
            common::bench_missing(&format!(
                "{} is absent: its tasks are not compared",
                d.display()
            ));
            continue;
        }
        common::collect(&d, "yml", &mut files);
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let Ok(task) = bitmc::task::read_task(&f) else {
            continue;
        };
        for p in task.properties.iter().filter_map(|p| p.property) {
            out.push(Program {
                path: task.input.clone(),
                property: p,
                data_model: task.data_model.unwrap_or_default(),
            });
        }
    }
    out
}

/// What was compared, and every difference found.
#[derive(Default)]
struct Figures {
    programs: usize,
    not_lowered: usize,
    /// Interpreter against interpreter (passes, folding, acceleration): runs and points.
    cfa_runs: usize,
    cfa_points: usize,
    /// Interpreter → system: runs and states.
    to_system_runs: usize,
    to_system_states: usize,
    /// System → interpreter: runs, states with the per-step slots and with the flat sequence.
    to_cfa_runs: usize,
    to_cfa_states: usize,
    to_cfa_flat_states: usize,
    /// System against its exports read back: comparisons and states.
    export_runs: usize,
    export_states: usize,
    folded: usize,
    accelerated: usize,
    mismatches: Vec<String>,
}

impl Figures {
    fn add(&mut self, o: Figures) {
        self.programs += o.programs;
        self.not_lowered += o.not_lowered;
        self.cfa_runs += o.cfa_runs;
        self.cfa_points += o.cfa_points;
        self.to_system_runs += o.to_system_runs;
        self.to_system_states += o.to_system_states;
        self.to_cfa_runs += o.to_cfa_runs;
        self.to_cfa_states += o.to_cfa_states;
        self.to_cfa_flat_states += o.to_cfa_flat_states;
        self.export_runs += o.export_runs;
        self.export_states += o.export_states;
        self.folded += o.folded;
        self.accelerated += o.accelerated;
        self.mismatches.extend(o.mismatches);
    }

    fn print(&self, what: &str) {
        eprintln!(
            "lock-step ({what}): {} programs ({} not lowered, {} folded, {} accelerated); \
             interpreter vs interpreter {} runs, {} points; interpreter → system {} runs, {} states; \
             system → interpreter {} runs, {} states per step, {} with the flat sequence; \
             exports {} comparisons, {} states; {} mismatches",
            self.programs,
            self.not_lowered,
            self.folded,
            self.accelerated,
            self.cfa_runs,
            self.cfa_points,
            self.to_system_runs,
            self.to_system_states,
            self.to_cfa_runs,
            self.to_cfa_states,
            self.to_cfa_flat_states,
            self.export_runs,
            self.export_states,
            self.mismatches.len()
        );
    }
}

/// A sequence for a message: its first values and its length.
fn short(seq: &[u128]) -> String {
    format!("{:?}… ({} values)", &seq[..seq.len().min(12)], seq.len())
}

fn goal_of(cfa: &Cfa) -> Goal {
    if cfa
        .locations
        .iter()
        .any(|l| matches!(l.kind, LocKind::Sink(_)))
    {
        Goal::Any
    } else {
        Goal::Error
    }
}

/// One program's comparisons: what to compare, the random source, and the figures.
struct Checker<'c> {
    cfg: &'c Config,
    rng: Rng,
    fig: Figures,
}

impl Checker<'_> {
    /// Interpreter against interpreter: `derived` against `original` on `cfg.runs` sequences;
    /// `uninit_zero` for passes that may remove havocs of uninitialised declarations.
    fn compare_cfas(
        &mut self,
        name: &str,
        original: &Cfa,
        derived: Derived<'_>,
        ends: Ends,
        uninit_zero: bool,
    ) {
        if let Err(e) = derived.cfa().check() {
            self.fig
                .mismatches
                .push(format!("{name}: invalid CFA: {e}"));
            return;
        }
        let opts = RunOptions {
            step_limit: self.cfg.steps,
            uninit_zero,
            record: true,
        };
        for _ in 0..self.cfg.runs {
            let seq = self.rng.values(self.cfg.values);
            match compare_runs(original, derived, &seq, opts, ends) {
                Ok(points) => {
                    self.fig.cfa_runs += 1;
                    self.fig.cfa_points += points;
                }
                Err(e) => {
                    self.fig
                        .mismatches
                        .push(format!("{name}: nondet {}: {e}", short(&seq)));
                    return;
                }
            }
        }
    }

    /// A drawing function for initial values and slots.
    fn draw(rng: &mut Rng) -> impl FnMut(u32) -> u128 + '_ {
        |w: u32| bitmc::bv::value::truncate(rng.interesting() as u128, w)
    }

    /// Interpreter against the system of `cfa`, both directions, and the system against its
    /// exports read back.
    fn compare_system(&mut self, name: &str, cfa: &Cfa, pc: PcEncoding) {
        let ps = encode(
            cfa,
            EncodeOptions {
                pc,
                goal: goal_of(cfa),
            },
        );
        let ls = ProgramLockstep::new(cfa, &ps);
        let mut runs = Vec::new();
        for _ in 0..self.cfg.runs {
            let seq = self.rng.values(self.cfg.values);
            let mut init = Rng(self.rng.next(), Vec::new());
            let mut draw = Self::draw(&mut init);
            let result = ls.follow_interpreter(&seq, self.cfg.steps, &mut draw);
            match result {
                Ok((states, run)) => {
                    self.fig.to_system_runs += 1;
                    self.fig.to_system_states += states;
                    runs.push(run);
                }
                Err(e) => {
                    self.fig.mismatches.push(format!(
                        "{name} ({pc:?}) interpreter → system: nondet {}: {e}",
                        short(&seq)
                    ));
                    return;
                }
            }
        }
        for _ in 0..self.cfg.runs {
            let result = ls
                .simulate(&mut Self::draw(&mut self.rng), self.cfg.steps)
                .and_then(|run| ls.replay(&run).map(|r| (r, run)));
            match result {
                Ok(((per_step, flat), run)) => {
                    self.fig.to_cfa_runs += 1;
                    self.fig.to_cfa_states += per_step;
                    self.fig.to_cfa_flat_states += flat;
                    runs.push(run);
                }
                Err(e) => {
                    self.fig
                        .mismatches
                        .push(format!("{name} ({pc:?}) system → interpreter: {e}"));
                    return;
                }
            }
        }
        // Bit for bit on a few runs: the exports are the same clauses in other forms.
        let first = runs.len().min(1);
        let last = runs.len().saturating_sub(1);
        let few: Vec<SystemRun> = runs
            .drain(..)
            .enumerate()
            .filter(|(i, _)| *i < first || *i == last)
            .map(|(_, r)| r)
            .collect();
        self.compare_exports(name, &ps, ls.stepper(), &few);
    }

    /// The system of `ps` against its DimSpec and AIGER exports read back, on `runs`.
    fn compare_exports(
        &mut self,
        name: &str,
        ps: &ProgramSystem,
        stepper: &Stepper<'_>,
        runs: &[SystemRun],
    ) {
        let inputs: Vec<Var> = ps.input_var.iter().flatten().copied().collect();
        let exports = match read_back_exports(ps) {
            Ok(x) => x,
            Err(e) => {
                self.fig.mismatches.push(format!("{name}: {e}"));
                return;
            }
        };
        for ReadBack { format, sys, map } in &exports {
            let other = Stepper::new(sys);
            for run in runs {
                let init = run.initial_latches(stepper);
                match compare_systems(stepper, &other, map, &init, &run.inputs(&inputs)) {
                    Ok(n) => {
                        self.fig.export_runs += 1;
                        self.fig.export_states += n;
                    }
                    Err(e) => {
                        self.fig
                            .mismatches
                            .push(format!("{name}: {format} export read back: {e}"));
                        return;
                    }
                }
            }
        }
    }
}

/// Every comparison on one program.
fn check_program(p: &Program, cfg: &Config) -> Figures {
    let fig = Figures {
        programs: 1,
        ..Figures::default()
    };
    let name = format!("{} [{}, {}]", p.path.display(), p.property, p.data_model);
    let opts = FrontendOptions {
        property: p.property,
        data_model: p.data_model,
        lbe: false,
        ..FrontendOptions::default()
    };
    let Ok(lowered) = lower_file(&p.path, &opts) else {
        return Figures {
            not_lowered: 1,
            ..fig
        };
    };
    let text = std::fs::read_to_string(&p.path).unwrap_or_default();
    // The seed and the program counter's encoding follow from the program alone, so that a
    // run with BITMC_LOCKSTEP_ONLY repeats it.
    let seed = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut c = Checker {
        cfg,
        rng: Rng(seed, common::literal_pool(&text)),
        fig,
    };
    let mut cur = lowered.cfa.clone();
    for pass in &PREPARE_PASSES {
        let next = (pass.run)(&cur);
        c.compare_cfas(
            &format!("{name} {}", pass.name),
            &cur,
            Derived::Passes(&next),
            pass.ends,
            true,
        );
        cur = next;
    }
    let prepared = cur;
    let what = format!("{name} prepare");
    c.compare_cfas(
        &what,
        &lowered.cfa,
        Derived::Passes(&prepared),
        Ends::SameTargets,
        true,
    );
    // Both encodings of the program counter in the long version, one in three one-hot in the
    // short one.
    let encodings = if cfg.both_models {
        vec![PcEncoding::Binary, PcEncoding::OneHot]
    } else if seed % 3 == 2 {
        vec![PcEncoding::OneHot]
    } else {
        vec![PcEncoding::Binary]
    };
    for pc in encodings {
        c.compare_system(&name, &prepared, pc);
    }
    if let Some((folded, _)) = fold_fixed_loops(&prepared) {
        c.fig.folded += 1;
        let what = format!("{name} folded");
        c.compare_cfas(
            &what,
            &prepared,
            Derived::Passes(&folded),
            Ends::Same,
            false,
        );
        c.compare_system(&what, &folded, PcEncoding::Binary);
    }
    if let Some(a) = accelerate_for_bmc(&prepared, &Interrupter::new()) {
        c.fig.accelerated += usize::from(!a.loops.is_empty());
        let what = format!("{name} accelerated");
        c.compare_cfas(
            &what,
            &prepared,
            Derived::Accelerated(&a),
            Ends::UnlessBlocked,
            false,
        );
        c.compare_system(&what, &a.cfa, PcEncoding::Binary);
    }
    c.fig
}

/// Checks `programs` on two threads.
fn check_all(programs: &[Program], cfg: &Config) -> Figures {
    let threads = 2;
    let parts: Vec<Figures> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut fig = Figures::default();
                    for (i, p) in programs.iter().enumerate().skip(t).step_by(threads) {
                        let start = std::time::Instant::now();
                        let f = check_program(p, cfg);
                        if cfg.bench {
                            eprintln!(
                                "[{}/{}] {} [{}]: {:.1} s, {} mismatches",
                                i + 1,
                                programs.len(),
                                p.path.display(),
                                p.property,
                                start.elapsed().as_secs_f64(),
                                f.mismatches.len()
                            );
                        }
                        fig.add(f);
                    }
                    fig
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    assert_eq!(parts.len(), threads, "a worker panicked");
    let mut fig = Figures::default();
    for p in parts {
        fig.add(p);
    }
    fig
}

#[test]
fn encoding_runs_in_lock_step_with_the_interpreter() {
    let cfg = config();
    let mut programs = fixture_programs(&cfg);
    let fixtures = programs.len();
    if cfg.bench {
        programs.extend(bench_programs());
    }
    // `BITMC_LOCKSTEP_ONLY=TEXT`: only the programs whose path contains TEXT (to look into
    // one), without the checks of the amount compared.
    if let Ok(only) = std::env::var("BITMC_LOCKSTEP_ONLY") {
        programs.retain(|p| p.path.to_string_lossy().contains(&only));
        let fig = check_all(&programs, &cfg);
        fig.print(&format!("programs matching {only}"));
        assert!(fig.mismatches.is_empty(), "{}", fig.mismatches.join("\n"));
        return;
    }
    let fig = check_all(&programs, &cfg);
    fig.print(if cfg.bench { "long" } else { "short" });
    assert!(
        fig.mismatches.is_empty(),
        "{} mismatches:\n{}",
        fig.mismatches.len(),
        fig.mismatches.join("\n")
    );
    // Every fixture lowers (843 programs in the short run: 27 folded CFAs, 58 accelerated;
    // per run 5.1 states of the system compared in each direction); benchmark tasks may be
    // unsupported.
    let lowered = fig.programs - fig.not_lowered;
    assert_eq!(
        fig.programs,
        programs.len(),
        "not every program was checked"
    );
    assert!(
        lowered >= fixtures && fixtures > 800,
        "only {lowered} programs lowered ({fixtures} fixture programs)"
    );
    assert!(
        fig.folded >= 20 && fig.accelerated >= 45,
        "too few folded ({}) or accelerated ({}) CFAs",
        fig.folded,
        fig.accelerated
    );
    let per = cfg.runs * lowered;
    assert!(fig.to_system_runs >= per && fig.to_cfa_runs >= per);
    assert!(fig.cfa_runs >= 6 * per);
    assert!(
        fig.to_system_states >= 5 * per && fig.to_cfa_states >= 5 * per,
        "too few states compared: {} and {} in {per} runs",
        fig.to_system_states,
        fig.to_cfa_states
    );
    assert!(fig.export_runs >= 3 * 2 * lowered);
}
