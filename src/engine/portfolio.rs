//! The portfolio: several (engine, SAT backend, options) members race on threads; the first
//! checked conclusive verdict wins and the others are cancelled through their solvers'
//! interrupts.
//!
//! - A member is written as a string, `ENGINE[:BACKEND][:OPTION…]`, e.g. `pdr:cadical`,
//!   `kind:batsat`, `bmc`, `pdr:cadical:no-ctg:ctg-max=5` (see [`Member::from_str`]), its
//!   options those of the engine's option table ([`optable`]); the same string selects the
//!   same engine when run alone.
//! - Each member checks its own verdict (with the caller's checker, e.g. plan re-simulation and
//!   certificate re-checking) before reporting it, so only checked verdicts can win.
//! - Two conflicting checked verdicts (SAFE and UNSAFE) are an internal error, reported as
//!   UNKNOWN, never as a verdict. Without a winner, a member's internal error is the answer
//!   (see [`no_winner`]).
//! - The members poll their own interrupter; the caller's interrupter (a time limit) is
//!   forwarded to it, and a win raises it. Members run on at most `jobs` threads; with fewer
//!   threads than members, the first `jobs` members run.

use super::optable::OptionError;
use super::preprocess::Preprocessed;
use super::problem::Problem;
pub use super::problem::Program;
use super::registry::Derived;
pub use super::registry::EngineOptions;
use super::{
    Cause, Certificate, EngineKind, Options, Progress, ProgressFn, Stats, Unknown, Verdict,
};
use crate::sat::{Backend, Interrupter};
use crate::ts::System;
use crossbeam_channel::{unbounded, RecvTimeoutError};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One member of a portfolio: an engine with its options, and the SAT backend.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub backend: Backend,
    pub options: EngineOptions,
}

/// The members of an ablation of `engine`'s options on `backend`, each with the option that
/// sets it apart (`default` for none): the defaults, each switch turned the other way alone,
/// then each preset.
pub fn ablation(engine: EngineKind, backend: Backend) -> Vec<(String, Member)> {
    let mut out = Vec::new();
    for tail in engine.ablation() {
        let mut m = Member::new(engine, backend);
        if tail.is_empty() {
            out.push(("default".to_string(), m));
        } else if m.options.set(&tail).is_ok() {
            out.push((tail, m));
        }
    }
    out
}

/// The default members, chosen for a machine with two cores: BMC for deep counterexamples,
/// k-induction for bounded programs and simple invariants, IC3CFA for programs that are mostly
/// control, PDR for the rest (measured on SV-COMP and control-heavy tasks at 60 s: with IC3CFA
/// the same SV-COMP tasks and one more control task are solved, PAR-2 0.86 × without it), and
/// `euf` only on programs with a product, quotient, remainder or shift by a variable to
/// abstract (elsewhere it would be PDR, and stays out of the race): on programs whose control
/// properties read such arithmetic it proves in a fraction of a second what the others need
/// 20 s for (`benches/euf`; with the SV-COMP programs that have such arithmetic, the same
/// tasks solved, PAR-2 0.89 × without it).
pub const DEFAULT_MEMBERS: [&str; 5] = [
    "bmc:cadical",
    "kind:cadical",
    "pdr:cadical",
    "ic3cfa:cadical",
    "euf:cadical:only-abstract",
];

/// A member string that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemberError {
    #[error("unknown engine `{engine}` in portfolio member `{member}` (engines: {known})")]
    Engine {
        engine: String,
        member: String,
        /// The engines there are, separated by commas.
        known: String,
    },
    #[error("{error} in portfolio member `{member}`")]
    Option { error: OptionError, member: String },
}

impl FromStr for Member {
    type Err = MemberError;

    /// Parses `ENGINE[:BACKEND][:OPTION…]`. Engines: `bmc`, `kind`, `pdr`, `ic3cfa`; backends:
    /// `cadical` (default), `batsat`, `varisat`, `splr`; options: the engine's table
    /// ([`OptionTable`](optable::OptionTable)), `NAME` or `no-NAME` for a switch, `NAME=N` for a number.
    fn from_str(s: &str) -> Result<Member, MemberError> {
        let mut parts = s.split(':');
        let e = parts.next().unwrap_or("");
        let engine = EngineKind::from_name(e).ok_or_else(|| MemberError::Engine {
            engine: e.to_string(),
            member: s.to_string(),
            known: EngineKind::names(),
        })?;
        let mut m = Member::new(engine, Backend::Cadical);
        for p in parts {
            match Backend::from_name(p) {
                Some(b) => m.backend = b,
                None => m.options.set(p).map_err(|error| MemberError::Option {
                    error,
                    member: s.to_string(),
                })?,
            }
        }
        Ok(m)
    }
}

impl fmt::Display for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.engine().name();
        write!(f, "{name}:{}{}", self.backend, self.options.changes())
    }
}

impl Member {
    /// `engine` with its default options on `backend`.
    pub fn new(engine: EngineKind, backend: Backend) -> Member {
        Member {
            backend,
            options: EngineOptions::defaults(engine),
        }
    }

    /// The member's engine.
    pub fn engine(&self) -> EngineKind {
        self.options.engine()
    }

    /// Run this member alone on `problem`.
    pub fn run(
        &self,
        problem: &Problem<'_>,
        opts: &Options,
        progress: ProgressFn<'_>,
    ) -> (Verdict, Stats) {
        let opts = Options {
            backend: self.backend,
            ..opts.clone()
        };
        self.options.as_engine().run(problem, &opts, progress)
    }

    /// Why this member would add nothing on the problem of `systems` ([`Engine::idle`]); a
    /// race leaves it out.
    pub fn idle(&self, systems: &Systems<'_>) -> Option<String> {
        let problem = Problem::of(systems.plain, systems.program);
        self.options.as_engine().idle(&problem)
    }

    /// Run this member alone on `sys`, the system [`Systems::for_member`] chose for it (with
    /// the program of `systems` when `sys` is that program's system).
    pub fn run_on(
        &self,
        systems: &Systems<'_>,
        sys: &System,
        opts: &Options,
        progress: ProgressFn<'_>,
    ) -> (Verdict, Stats) {
        self.run(&Problem::of(sys, systems.program), opts, progress)
    }
}

/// The systems members run on: k-induction on the one constrained by proved invariants when
/// there is one (the constraints strengthen its induction step), the other engines on the plain
/// one (for BMC constraints only add work, and PDR finds its own lemmas; measured on SV-COMP,
/// where a constrained system made PDR lose a task it proves in 1 s); BMC on the accelerated
/// one when there is one; PDR, and BMC without an accelerated system, on the preprocessed one
/// when there is one (their verdicts are carried back to the plain system and checked there).
///
/// The constrained system is made on demand, in the thread of the first k-induction member
/// that asks for it (later ones wait for the same result), so that the search for invariants
/// runs beside the other members instead of before them, and stops when one of them wins.
#[derive(Clone, Copy)]
pub struct Systems<'a> {
    pub plain: &'a System,
    pub constrained: Option<&'a Constrain<'a>>,
    /// Makes the system of the program with accelerated loops, for BMC (its steps may jump
    /// over many iterations, so counterexamples millions of iterations deep become short).
    pub accelerated: Option<&'a Constrain<'a>>,
    /// The program `plain` encodes, for engines that work on its control-flow automaton.
    pub program: Option<Program<'a>>,
    /// Makes the preprocessed system (the first member that asks for it makes it; the others
    /// wait for the same result).
    pub preprocessed: Option<&'a Prepare<'a>>,
}

/// Makes the preprocessed system, given the member's interrupter; `None` when there is none.
pub type Prepare<'a> = dyn Fn(&Interrupter) -> Option<&'a Preprocessed> + Sync + 'a;

/// The system a member runs on, the preprocessing its verdicts come back through, and the
/// system they are about once they have come back.
#[derive(Clone, Copy)]
pub struct Chosen<'a> {
    pub sys: &'a System,
    pub preprocessed: Option<&'a Preprocessed>,
    pub about: About,
}

/// Which of the [`Systems`] a settled verdict is about: the caller decodes its plan or
/// certificate with that system's maps (a preprocessed system's verdicts are carried back to
/// the plain system first, so they are about the plain one). The portfolio reports it with the
/// verdict, so that nobody decodes a verdict by asking which member won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum About {
    /// [`Systems::plain`].
    #[default]
    Plain,
    /// The system [`Systems::constrained`] made: its certificate holds only together with the
    /// constraints (the proved invariants), its plans are plans of the plain system.
    Constrained,
    /// The system [`Systems::accelerated`] made: its plans are paths of the program with
    /// accelerated loops, to be replayed there and expanded.
    Accelerated,
}

/// Makes the constrained (or accelerated) system, given the member's interrupter; `None` when
/// there is none (the member then runs on the plain system).
pub type Constrain<'a> = dyn Fn(&Interrupter) -> Option<&'a System> + Sync + 'a;

impl<'a> Systems<'a> {
    /// One system for every member.
    pub fn plain(sys: &'a System) -> Systems<'a> {
        Systems {
            plain: sys,
            constrained: None,
            accelerated: None,
            program: None,
            preprocessed: None,
        }
    }

    /// The system `m` runs on: the first of its engine's derived systems
    /// ([`EngineKind::runs_on`]) that there is, made now if it is not yet, else the plain one.
    pub fn for_member(&self, m: &Member, intr: &Interrupter) -> Chosen<'a> {
        let plain = Chosen {
            sys: self.plain,
            preprocessed: None,
            about: About::Plain,
        };
        let made = |make: Option<&'a Constrain<'a>>, about| {
            let sys = make.and_then(|f| f(intr))?;
            Some(Chosen {
                sys,
                about,
                ..plain
            })
        };
        let preprocessed = || {
            let p = self.preprocessed.and_then(|p| p(intr))?;
            Some(Chosen {
                sys: &p.sys,
                preprocessed: Some(p),
                about: About::Plain,
            })
        };
        // The first system the engine prefers that there is (each made only when asked).
        let derive = |d: &Derived| match d {
            Derived::Constrained => made(self.constrained, About::Constrained),
            Derived::Accelerated => made(self.accelerated, About::Accelerated),
            Derived::Preprocessed => preprocessed(),
        };
        m.engine()
            .runs_on()
            .iter()
            .find_map(derive)
            .unwrap_or(plain)
    }

    /// BMC's proof that every path of the preprocessed system comes to rest within `k` steps
    /// says nothing about the plain system (a latch the preprocessed system left out may still
    /// move), so BMC run alone runs again on the plain system, up to the depth at which its
    /// doubling rest checks must have asked about `k` steps: for a program whose paths all end,
    /// that is a proof of its own (checked on the plain system). Not in a portfolio, where the
    /// other members prove such programs and the re-check of a diameter on the plain system
    /// (seconds for a few hundred state bits) would hold a core.
    fn at_rest_on_plain(
        &self,
        chosen: Chosen<'a>,
        v: Verdict,
        m: &Member,
        mopts: &Options,
        stats: &mut Stats,
        progress: ProgressFn<'_>,
    ) -> (Chosen<'a>, Verdict) {
        let (Some(_), Verdict::Safe(Certificate::Diameter { k }), EngineKind::Bmc) =
            (chosen.preprocessed, &v, m.engine())
        else {
            return (chosen, v);
        };
        let depth = (2 * k + 2).min(mopts.max_depth.unwrap_or(usize::MAX));
        let o = Options {
            max_depth: Some(depth),
            ..mopts.clone()
        };
        let plain = self.plain;
        let (again, more) = m.run_on(self, plain, &o, progress);
        stats.text("bmc on the plain system", again.word().to_string());
        stats.extend(more);
        match again {
            Verdict::Safe(_) | Verdict::Unsafe(_) => (
                Chosen {
                    sys: plain,
                    preprocessed: None,
                    about: About::Plain,
                },
                again,
            ),
            _ => (chosen, v),
        }
    }

    /// `v`, which `m` found on `chosen`, carried back to the plain system if it came from the
    /// preprocessed one, and checked by `check` on the system it is now about; with that
    /// system.
    fn settle(
        &self,
        chosen: Chosen<'_>,
        v: Verdict,
        m: &Member,
        opts: &Options,
        check: &Checker<'_>,
    ) -> (Verdict, About) {
        if !conclusive(&v) {
            return (v, chosen.about);
        }
        let v = match chosen.preprocessed {
            Some(p) => match p.carry_back(self.plain, v) {
                v if conclusive(&v) => check(self.plain, v, m.backend, opts),
                v => v,
            },
            None => check(chosen.sys, v, m.backend, opts),
        };
        (v, chosen.about)
    }
}

/// How long PDR runs before it waits for the invariant search when the members outnumber the
/// cores (PDR's wins in the SV-COMP runs took at most 0.53 s).
const PDR_HEAD_START: Duration = Duration::from_secs(1);

/// Run PDR member `m` for [`PDR_HEAD_START`]; if that is not enough, wait until the invariant
/// search is over (`search_over`) and run it again from the start. With more threads than
/// cores the search is slowed down far more than by its share (sendmail-close-angle: search and
/// re-check 11 s beside one other member, 31 s beside two), and every proof it is for waits for
/// it.
fn run_deferred(
    m: &Member,
    systems: &Systems<'_>,
    sys: &System,
    opts: &Options,
    search_over: &AtomicBool,
    progress: ProgressFn<'_>,
) -> Verdict {
    let stop = &opts.interrupter;
    let first = crate::sat::with_deadline(stop, Instant::now() + PDR_HEAD_START, |intr| {
        let o = Options {
            interrupter: intr.clone(),
            ..opts.clone()
        };
        m.run_on(systems, sys, &o, &mut *progress).0
    });
    if conclusive(&first) || stop.is_interrupted() {
        return first;
    }
    while !search_over.load(Ordering::SeqCst) {
        if stop.is_interrupted() {
            return first;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    m.run_on(systems, sys, opts, progress).0
}

/// The default members.
pub fn default_members() -> Vec<Member> {
    DEFAULT_MEMBERS
        .iter()
        .map(|s| s.parse().expect("default members parse"))
        .collect()
}

/// The default members that can run on a bit-level system alone (for DimSpec and AIGER
/// inputs, which have no control-flow automaton).
pub fn default_system_members() -> Vec<Member> {
    default_members()
        .into_iter()
        .filter(|m| !m.engine().needs_program())
        .collect()
}

/// Checks a member's verdict (e.g. [`crate::witness::check_bit_level`]); returns the verdict to
/// report (UNKNOWN when the evidence does not hold).
pub type Checker<'a> = dyn Fn(&System, Verdict, Backend, &Options) -> Verdict + Sync + 'a;

/// What a portfolio run (or a member run alone) produced.
pub struct PortfolioResult {
    pub verdict: Verdict,
    /// The member whose verdict won.
    pub winner: Option<Member>,
    /// The system the verdict is about.
    pub about: About,
    pub stats: Stats,
    /// The time from the win until every member had stopped and reported (for the
    /// cancellation test).
    pub stop_latency: Option<Duration>,
}

fn conclusive(v: &Verdict) -> bool {
    matches!(v, Verdict::Safe(_) | Verdict::Unsafe(_))
}

/// What the members of a race have answered so far: their verdicts and times, their
/// statistics, the first conclusive answer and a conflicting one.
struct Race {
    results: Vec<Option<(Verdict, Duration)>>,
    about: Vec<About>,
    stats: Vec<Stats>,
    winner: Option<usize>,
    conflict: Option<(usize, usize)>,
    won_at: Option<Instant>,
    last_report: Instant,
}

impl Race {
    fn new(members: usize) -> Race {
        Race {
            results: vec![None; members],
            about: vec![About::Plain; members],
            stats: vec![Stats::new(); members],
            winner: None,
            conflict: None,
            won_at: None,
            last_report: Instant::now(),
        }
    }

    /// Member `i` answered `v` after `t`; the first conclusive answer wins and stops the others
    /// (through `stop`), a later conclusive one that contradicts it is a conflict.
    fn record(
        &mut self,
        i: usize,
        (v, about): (Verdict, About),
        t: Duration,
        stats: Stats,
        stop: &Interrupter,
    ) {
        self.stats[i] = stats;
        self.about[i] = about;
        self.last_report = Instant::now();
        if conclusive(&v) {
            match self.winner {
                None => {
                    self.winner = Some(i);
                    self.won_at = Some(Instant::now());
                    stop.interrupt();
                }
                Some(w) => {
                    let same = matches!(
                        (&v, &self.results[w].as_ref().map(|r| &r.0)),
                        (Verdict::Safe(_), Some(Verdict::Safe(_)))
                            | (Verdict::Unsafe(_), Some(Verdict::Unsafe(_)))
                    );
                    if !same {
                        self.conflict = Some((w, i));
                    }
                }
            }
        }
        self.results[i] = Some((v, t));
    }

    /// The portfolio's answer: the winner's verdict, an internal error for a conflict, or the
    /// UNKNOWN of the members' answers ([`no_winner`]); the statistics list every member's
    /// answer and the members `left_out` with the reason, then those of the winner (or of the
    /// only member).
    fn finish(
        mut self,
        active: &[Member],
        left_out: &[(Member, String)],
        start: Instant,
        interrupted: bool,
    ) -> PortfolioResult {
        // From the win to the last member's report (the members free their memory afterwards).
        let stop_latency = self
            .won_at
            .map(|t| self.last_report.saturating_duration_since(t));
        let mut stats = Stats::new();
        for (m, r) in active.iter().zip(&self.results) {
            let desc = match r {
                Some((v, t)) => format!("{} after {:.3} s", v.word(), t.as_secs_f64()),
                None => "no answer".into(),
            };
            stats.text(format!("member {m}"), desc);
        }
        for (m, why) in left_out {
            stats.text(format!("member {m}"), format!("left out: {why}"));
        }
        stats.time("portfolio time", start.elapsed());
        if let Some(i) = self.winner.or((active.len() == 1).then_some(0)) {
            stats.extend(std::mem::take(&mut self.stats[i]));
        }
        let about = self.winner.map_or(About::Plain, |w| self.about[w]);
        let (verdict, winner) = match (self.conflict, self.winner) {
            (Some((a, b)), _) => (
                Verdict::Unknown(Unknown::internal(format!(
                    "conflicting checked verdicts from {} and {}",
                    active[a], active[b]
                ))),
                None,
            ),
            (None, Some(w)) => {
                stats.text("winner", active[w].to_string());
                let verdict = self.results[w]
                    .take()
                    .map(|r| r.0)
                    .unwrap_or(Verdict::Unknown(Unknown::internal(
                        "the winner's verdict is lost",
                    )));
                (verdict, Some(active[w].clone()))
            }
            (None, None) => {
                let unknowns: Vec<(&Member, &Unknown)> = active
                    .iter()
                    .zip(&self.results)
                    .filter_map(|(m, r)| match r {
                        Some((Verdict::Unknown(why), _)) => Some((m, why)),
                        _ => None,
                    })
                    .collect();
                let why = match active {
                    [] if !left_out.is_empty() => {
                        let each: Vec<String> = left_out
                            .iter()
                            .map(|(m, why)| format!("{m}: {why}"))
                            .collect();
                        Unknown::incomplete(format!("every member left out: {}", each.join("; ")))
                    }
                    _ => no_winner(&unknowns, interrupted),
                };
                (Verdict::Unknown(why), None)
            }
        };
        PortfolioResult {
            verdict,
            winner,
            about,
            stats,
            stop_latency,
        }
    }
}

/// How a member thread runs: the shared systems and checker, the race's stop signal, whether
/// PDR waits for the invariant search ([`run_deferred`]) and the flag that says it is over.
struct Lane<'s, 'a> {
    systems: &'s Systems<'a>,
    check: &'s Checker<'s>,
    stop: &'s Interrupter,
    defer: bool,
    search_over: &'s AtomicBool,
}

impl Lane<'_, '_> {
    /// Runs member `m` on its system, forwarding its progress to `ptx`; a panic (a bug) is its
    /// UNKNOWN (internal error), and the verdict is settled (carried back and checked).
    fn run(
        &self,
        m: &Member,
        mopts: &Options,
        ptx: &crossbeam_channel::Sender<Progress>,
    ) -> ((Verdict, About), Stats) {
        let chosen = self.systems.for_member(m, self.stop);
        let sys = chosen.sys;
        if m.engine() == EngineKind::Kind {
            self.search_over.store(true, Ordering::SeqCst);
        }
        let label = m.to_string();
        let mut forward = |p: &Progress| {
            let mut p = p.clone();
            p.member = Some(label.clone());
            let _ = ptx.send(p);
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if self.defer && m.engine() == EngineKind::Pdr {
                let v = run_deferred(m, self.systems, sys, mopts, self.search_over, &mut forward);
                (v, Stats::new())
            } else {
                m.run_on(self.systems, sys, mopts, &mut forward)
            }
        }));
        let (v, stats) = run.unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let why = Unknown::internal(format!("{m} failed: {what}"));
            (Verdict::Unknown(why), Stats::new())
        });
        (self.systems.settle(chosen, v, m, mopts, self.check), stats)
    }
}

/// The first `jobs` of `members` that are not idle on the problem of `systems`
/// ([`Member::idle`]), and the idle ones met before them with the reason.
fn entrants(
    systems: &Systems<'_>,
    members: &[Member],
    jobs: usize,
) -> (Vec<Member>, Vec<(Member, String)>) {
    let mut left_out = Vec::new();
    let active = (members.iter())
        .filter(|m| match m.idle(systems) {
            Some(why) => {
                left_out.push(((*m).clone(), why));
                false
            }
            None => true,
        })
        .take(jobs.max(1))
        .cloned()
        .collect();
    (active, left_out)
}

/// Race `members` on their systems on at most `jobs` threads.
pub fn run(
    systems: &Systems<'_>,
    members: &[Member],
    jobs: usize,
    opts: &Options,
    check: &Checker<'_>,
    progress: ProgressFn<'_>,
) -> PortfolioResult {
    let start = Instant::now();
    let (active, left_out) = entrants(systems, members, jobs);
    let stop = Interrupter::new();
    let (tx, rx) = unbounded::<(usize, (Verdict, About), Duration, Stats)>();
    let (ptx, prx) = unbounded::<Progress>();
    let mut race = Race::new(active.len());
    let search_over = AtomicBool::new(false);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let lane = Lane {
        systems,
        check,
        stop: &stop,
        defer: systems.constrained.is_some()
            && active.len() > cores
            && active.iter().any(|m| m.engine() == EngineKind::Kind),
        search_over: &search_over,
    };
    std::thread::scope(|s| {
        for (i, m) in active.iter().enumerate() {
            let (tx, ptx, lane) = (tx.clone(), ptx.clone(), &lane);
            let mopts = Options {
                backend: m.backend,
                max_depth: opts.max_depth,
                interrupter: stop.clone(),
            };
            s.spawn(move || {
                // Registers the thread's graveyard (a thread-local with a destructor, whose
                // registration allocates) now, not when the member ends out of memory.
                super::graveyard::release();
                let t = Instant::now();
                let (v, stats) = lane.run(m, &mopts, &ptx);
                let _ = tx.send((i, v, t.elapsed(), stats));
                // Free the member's solvers only after it has reported, and not at all when
                // the run has been stopped: the portfolio waits for its threads to end.
                if opts.interrupter.is_interrupted() {
                    super::graveyard::abandon();
                } else {
                    super::graveyard::release();
                }
            });
        }
        drop(tx);
        drop(ptx);
        let mut done = 0;
        while done < active.len() {
            for p in prx.try_iter() {
                progress(&p);
            }
            match rx.recv_timeout(Duration::from_millis(5)) {
                Ok((i, v, t, st)) => {
                    done += 1;
                    race.record(i, v, t, st, &stop);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if opts.interrupter.is_interrupted() {
                        stop.interrupt();
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    race.finish(&active, &left_out, start, opts.interrupter.is_interrupted())
}

/// The UNKNOWN of a portfolio without a winner, from its members' answers: an internal error
/// when a member had one (it must not hide behind the others' answers), otherwise `interrupted`
/// when the caller stopped the run, otherwise the gravest cause of the members' (memory before
/// an incomplete method before a bound), with the reasons of the members of that cause.
fn no_winner(unknowns: &[(&Member, &Unknown)], interrupted: bool) -> Unknown {
    let gravest = unknowns.iter().map(|(_, u)| u.cause).max();
    let cause = match gravest {
        Some(Cause::Internal) => Cause::Internal,
        _ if interrupted => return Unknown::interrupted(),
        Some(c) => c,
        None => return Unknown::incomplete("no member ran"),
    };
    let reasons: Vec<String> = unknowns
        .iter()
        .filter(|(_, u)| u.cause == cause)
        .map(|(m, u)| match &u.context {
            Some(c) => format!("{m}: {c}; {}", u.reason),
            None => format!("{m}: {}", u.reason),
        })
        .collect();
    Unknown::new(cause, reasons.join("; "))
}

/// How a run uses the engines: one member alone, or a portfolio.
#[derive(Clone, Debug)]
pub enum Strategy {
    Single(Member),
    Portfolio { members: Vec<Member>, jobs: usize },
}

impl Strategy {
    /// The members it runs (one for a single engine).
    pub fn members(&self) -> &[Member] {
        match self {
            Strategy::Single(m) => std::slice::from_ref(m),
            Strategy::Portfolio { members, .. } => members,
        }
    }

    /// A short description (the member, or `portfolio`).
    pub fn name(&self) -> String {
        match self {
            Strategy::Single(m) => m.to_string(),
            Strategy::Portfolio { .. } => "portfolio".into(),
        }
    }

    /// Run on `systems` and check the verdict; returns the checked verdict, the system it is
    /// about, statistics, and the member that produced the verdict.
    pub fn run(
        &self,
        systems: &Systems<'_>,
        opts: &Options,
        check: &Checker<'_>,
        progress: ProgressFn<'_>,
    ) -> PortfolioResult {
        match self {
            Strategy::Single(m) => {
                let mopts = Options {
                    backend: m.backend,
                    ..opts.clone()
                };
                let chosen = systems.for_member(m, &opts.interrupter);
                let (v, mut stats) = m.run_on(systems, chosen.sys, &mopts, progress);
                let (chosen, v) =
                    systems.at_rest_on_plain(chosen, v, m, &mopts, &mut stats, progress);
                let (verdict, about) = systems.settle(chosen, v, m, &mopts, check);
                PortfolioResult {
                    verdict,
                    winner: Some(m.clone()),
                    about,
                    stats,
                    stop_latency: None,
                }
            }
            Strategy::Portfolio { members, jobs } => {
                run(systems, members, *jobs, opts, check, progress)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(s: &str) -> Member {
        s.parse().expect("member")
    }

    #[test]
    fn an_internal_error_of_a_member_is_the_portfolios_answer() {
        let (b, k, p) = (member("bmc"), member("kind"), member("pdr"));
        let bound = Unknown::bound("no goal state within the bound");
        let memory = Unknown::memory("the unrolling would exceed the memory budget");
        let internal = Unknown::internal("the certificate was rejected").after("a sink");
        let stopped = Unknown::interrupted();
        let u = no_winner(&[(&b, &stopped), (&k, &internal), (&p, &memory)], true);
        assert_eq!(u.cause, Cause::Internal);
        assert_eq!(
            u.to_string(),
            "internal error: kind:cadical: a sink; the certificate was rejected"
        );
        // Without an internal error, a stopped run is interrupted, whatever else happened.
        let u = no_winner(&[(&b, &stopped), (&p, &memory)], true);
        assert_eq!(u.cause, Cause::Interrupted);
        // Members that ended by themselves: memory before a bound.
        let u = no_winner(&[(&b, &bound), (&p, &memory)], false);
        assert_eq!(u.cause, Cause::Memory);
        assert_eq!(
            u.reason,
            "pdr:cadical: the unrolling would exceed the memory budget"
        );
        let u = no_winner(&[(&b, &bound), (&k, &bound)], false);
        assert_eq!(u.cause, Cause::Bound);
        assert_eq!(u.reason.matches("no goal state").count(), 2);
    }
}
