//! Pieces shared by the subcommands: engine and solver names, how an UNKNOWN is reported,
//! progress.

use super::flags::{member_help, Flags};
use bitmc::engine::bmc::BmcOptions;
use bitmc::engine::ic3cfa::Ic3cfaOptions;
use bitmc::engine::kind::KindOptions;
use bitmc::engine::pdr::PdrOptions;
use bitmc::engine::portfolio::{
    default_members, default_system_members, EngineOptions, Member, Strategy, DEFAULT_MEMBERS,
};
use bitmc::engine::{Cause, EngineKind, Progress, Unknown};
use bitmc::sat::Backend;
use clap::{Args, ValueEnum};
use std::time::{Duration, Instant};

/// An engine selectable on the command line: one of the engines (`bitmc::engine::registry`),
/// or the portfolio (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineArg(pub Option<EngineKind>);

impl EngineArg {
    pub const PORTFOLIO: EngineArg = EngineArg(None);

    pub fn kind(self) -> Option<EngineKind> {
        self.0
    }
}

impl ValueEnum for EngineArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::OnceLock<Vec<EngineArg>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| {
            let engines = EngineKind::ALL.iter().map(|&k| EngineArg(Some(k)));
            std::iter::once(EngineArg::PORTFOLIO)
                .chain(engines)
                .collect()
        })
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue;
        Some(match self.0 {
            None => PossibleValue::new("portfolio")
                .help("Race several engines and SAT solvers on threads (see --member, --jobs)"),
            Some(k) => PossibleValue::new(k.name()).help(k.about()),
        })
    }
}

/// SAT solvers selectable on the command line.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SolverArg {
    /// CaDiCaL 1.9.5 (incremental, interruptible).
    Cadical,
    /// batsat, a MiniSat-style solver in Rust (incremental, interruptible).
    Batsat,
    /// varisat (incremental; cannot be interrupted: --timeout takes effect between SAT calls).
    Varisat,
    /// splr (one-shot: every query is solved from scratch; cannot be interrupted).
    Splr,
}

impl SolverArg {
    pub fn backend(self) -> Backend {
        match self {
            SolverArg::Cadical => Backend::Cadical,
            SolverArg::Batsat => Backend::Batsat,
            SolverArg::Varisat => Backend::Varisat,
            SolverArg::Splr => Backend::Splr,
        }
    }
}

/// How an UNKNOWN answer is reported: the text in parentheses after `UNKNOWN`, the full
/// reason when that text is only a summary, and the exit code.
pub struct UnknownReport {
    pub text: String,
    pub detail: Option<String>,
    pub exit: u8,
}

/// The report of `u` after `secs` seconds (an interrupted run says whether the time limit or
/// a signal stopped it, see [`super::limits`]). The exit code follows the cause, never the
/// wording: an internal error exits with [`super::EXIT_INTERNAL`], every other UNKNOWN with
/// [`super::EXIT_UNKNOWN`].
pub fn report_unknown(u: &Unknown, secs: f64) -> UnknownReport {
    let (text, detail) = match u.cause {
        Cause::Interrupted => (super::limits::stop_text(secs), None),
        Cause::Memory => ("memory".to_string(), Some(u.to_string())),
        _ => (u.to_string(), None),
    };
    let exit = if u.is_internal() {
        super::EXIT_INTERNAL
    } else {
        super::EXIT_UNKNOWN
    };
    UnknownReport { text, detail, exit }
}

/// The progress of a run on stderr, on one clock (the run's): once the run is older than a
/// second, a line with the last report of every engine (or portfolio member), e.g.
/// `[12.0 s] bmc:cadical depth 552 (63 SAT calls) · pdr:cadical frame 9 (1204 lemmas)`. On a
/// terminal the line is redrawn in place, at most once a second, and cleared when the run ends;
/// otherwise a plain line is written at most every five seconds.
pub struct ProgressPrinter {
    start: Instant,
    /// The last report of each engine, by name, in the order they first reported.
    last: Vec<(String, String)>,
    printed: Option<Instant>,
    /// The line drawn in place on a terminal (`None` when stderr is not one).
    bar: Option<indicatif::ProgressBar>,
}

impl ProgressPrinter {
    pub fn new(start: Instant) -> ProgressPrinter {
        let bar = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            if let Ok(style) = indicatif::ProgressStyle::with_template("{wide_msg}") {
                bar.set_style(style);
            }
            bar
        });
        ProgressPrinter {
            start,
            last: Vec::new(),
            printed: None,
            bar,
        }
    }

    /// The word for an engine's depth.
    fn depth_word(engine: &str) -> &'static str {
        match engine {
            "pdr" => "frame",
            "ic3cfa" => "level",
            "kind" => "k",
            _ => "depth",
        }
    }

    pub fn report(&mut self, p: &Progress) {
        let name = p.member.clone().unwrap_or_else(|| p.engine.to_string());
        let mut text = format!("{} {}", Self::depth_word(p.engine), p.depth);
        if !p.detail.is_empty() {
            text += &format!(" ({})", p.detail);
        }
        match self.last.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = text,
            None => self.last.push((name, text)),
        }
        let every = if self.bar.is_some() { 1 } else { 5 };
        if self.start.elapsed() < Duration::from_secs(1)
            || self
                .printed
                .is_some_and(|t| t.elapsed() < Duration::from_secs(every))
        {
            return;
        }
        self.printed = Some(Instant::now());
        let members: Vec<String> = self.last.iter().map(|(n, t)| format!("{n} {t}")).collect();
        let line = format!(
            "[{:.1} s] {}",
            self.start.elapsed().as_secs_f64(),
            members.join(" · ")
        );
        match &self.bar {
            Some(bar) => bar.set_message(line),
            None => eprintln!("{line}"),
        }
    }
}

impl Drop for ProgressPrinter {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// How to choose the engines (shared by `verify` and `solve`).
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// The engine (portfolio: race the members) [default: portfolio; bmc with --unwind].
    ///
    /// Portfolio races the members below; bmc finds counterexamples, and proves a program safe
    /// only once every run has ended (e.g. with --unwind); kind (k-induction), pdr (IC3) and
    /// ic3cfa (IC3 over the control-flow automaton, C programs only) also prove.
    #[arg(long, value_enum, help_heading = "Engines")]
    pub engine: Option<EngineArg>,
    /// The SAT solver of a single engine (portfolio members name their own).
    #[arg(long, value_enum, default_value_t = SolverArg::Cadical, help_heading = "Engines")]
    pub solver: SolverArg,
    /// A portfolio member, ENGINE[:SOLVER][:OPTION...]; repeat for several.
    #[arg(long = "member", value_name = "MEMBER", help_heading = "Engines", long_help = member_help())]
    pub members: Vec<String>,
    /// The most threads the portfolio uses (the first members run when there are fewer
    /// threads than members) [default: one per member].
    #[arg(long, value_name = "N", help_heading = "Engines")]
    pub jobs: Option<usize>,
    /// Stop searching after this many seconds of wall-clock time and answer UNKNOWN.
    ///
    /// A counterexample found just before is still replayed on the interpreter (at most
    /// 2,000,000 steps), which may take a few seconds more; certificate checks stop with the
    /// search.
    #[arg(long, value_name = "SECONDS", help_heading = "Engines")]
    pub timeout: Option<f64>,
    /// The largest depth to explore (unrolling bound of bmc/kind, frame count of pdr).
    #[arg(long, value_name = "K", help_heading = "Engines")]
    pub max_depth: Option<usize>,
    /// How the bit-level system is simplified before PDR and BMC run on it: lcorr merges
    /// latches that are equal, complementary or constant in every reachable state (latch
    /// correspondence, proved by induction, at most 1 s), then sweeps for the rest of 2 s; sweep only merges AND
    /// gates that compute the same function of the latches and inputs (SAT sweeping, at most
    /// 2 s); none runs them on the system as built.
    ///
    /// Their verdicts are carried back to the
    /// system as built and checked there.
    #[arg(long, value_enum, default_value_t = PreprocessArg::Lcorr, help_heading = "Tuning")]
    pub preprocess: PreprocessArg,
    #[command(flatten)]
    pub bmc: Flags<BmcOptions>,
    #[command(flatten)]
    pub kind: Flags<KindOptions>,
    #[command(flatten)]
    pub pdr: Flags<PdrOptions>,
    #[command(flatten)]
    pub ic3cfa: Flags<Ic3cfaOptions>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum PreprocessArg {
    /// The engines run on the system as it was built.
    None,
    /// SAT sweeping: gates equal as functions of the latches and inputs are merged.
    Sweep,
    /// Latch correspondence (latches equal, complementary or constant in every reachable
    /// state, proved by induction, are merged), then SAT sweeping.
    Lcorr,
}

impl PreprocessArg {
    pub fn preprocess(self) -> bitmc::engine::preprocess::Preprocess {
        match self {
            PreprocessArg::None => bitmc::engine::preprocess::Preprocess::None,
            PreprocessArg::Sweep => bitmc::engine::preprocess::Preprocess::Sweep,
            PreprocessArg::Lcorr => bitmc::engine::preprocess::Preprocess::Correspond,
        }
    }
}

impl EngineArgs {
    /// The strategy these arguments describe; without a `program` (DimSpec and AIGER inputs)
    /// the default portfolio leaves out the members that need one.
    /// The engines to run: `--engine`, or else `default`.
    pub fn strategy(&self, program: bool, default: EngineArg) -> anyhow::Result<Strategy> {
        match self.engine.unwrap_or(default).kind() {
            Some(kind) => Ok(Strategy::Single(Member {
                backend: self.solver.backend(),
                options: self.options(kind),
            })),
            None => {
                let members: Vec<Member> = if self.members.is_empty() && program {
                    default_members()
                } else if self.members.is_empty() {
                    default_system_members()
                } else {
                    self.members
                        .iter()
                        .map(|m| m.parse::<Member>().map_err(anyhow::Error::msg))
                        .collect::<Result<_, _>>()?
                };
                let jobs = self.jobs.unwrap_or(members.len()).max(1);
                Ok(Strategy::Portfolio { members, jobs })
            }
        }
    }
}

impl EngineArgs {
    /// The options of `engine` that the flags give.
    fn options(&self, engine: EngineKind) -> EngineOptions {
        match engine {
            EngineKind::Bmc => EngineOptions::Bmc(self.bmc.0.clone()),
            EngineKind::Kind => EngineOptions::Kind(self.kind.0.clone()),
            EngineKind::Pdr => EngineOptions::Pdr(self.pdr.0.clone()),
            EngineKind::Ic3cfa => EngineOptions::Ic3cfa(self.ic3cfa.0.clone()),
            // An engine without flags of its own runs with its defaults.
            #[allow(unreachable_patterns)]
            _ => EngineOptions::defaults(engine),
        }
    }
}

/// The default members, for help texts.
#[allow(dead_code)]
pub fn default_members_text() -> String {
    DEFAULT_MEMBERS.join(", ")
}
