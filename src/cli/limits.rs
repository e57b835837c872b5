//! The limits of a command that gives a verdict (`verify`, `solve`): its time limit
//! (`--timeout`), the signals that stop it (`SIGINT`, `SIGTERM`), and the rule that it prints
//! exactly one answer.
//!
//! The time limit, or the first signal, raises the run's interrupter: the engines and the
//! phases before them poll it, and the run ends with its `UNKNOWN` answer (and, under `-v`, its
//! statistics). A watchdog thread makes this a guarantee: if the run has not started printing
//! its answer [`GRACE`] after the limit or the signal (a step that does not poll the
//! interrupter often enough), the watchdog prints `UNKNOWN` itself and ends the process with
//! the UNKNOWN exit code, without waiting for the run. A second signal ends the process at once
//! (the handler restores the default action).
//!
//! Whoever prints the answer first [`claim`]s it; the other then prints nothing. Once the run
//! has claimed its answer, printing it (and writing the files it was asked for) is not cut
//! short.

use bitmc::sat::Interrupter;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How long after the time limit or a signal the run may take to print its answer before the
/// watchdog answers for it. CaDiCaL does not poll its terminate callback inside an
/// inprocessing round (subsumption, variable elimination): on a BMC unrolling of 900 steps such
/// a round took 0.6–0.75 s to end after the flag was raised, more on a loaded machine.
pub const GRACE: Duration = Duration::from_millis(2000);

/// How often the watchdog looks at the clock and the signal flag.
const TICK: Duration = Duration::from_millis(10);

/// The watchdog's stack: it only compares times and writes a few lines.
const WATCHDOG_STACK: usize = 256 << 10;

/// The flag of the run's interrupter, which the signal handler raises.
static INTERRUPT: OnceLock<Arc<AtomicBool>> = OnceLock::new();
/// Whether a `SIGINT` or `SIGTERM` arrived.
static SIGNALLED: AtomicBool = AtomicBool::new(false);
/// Whether the time limit passed (before any signal).
static TIMED_OUT: AtomicBool = AtomicBool::new(false);
/// Whether the answer has been claimed.
static ANSWERED: AtomicBool = AtomicBool::new(false);
/// What the run calls its engine, for the watchdog's answer line of `verify`.
static ENGINE: OnceLock<String> = OnceLock::new();

/// For `verify --json`: where the watchdog's answer goes as a document, and what the run
/// checks (see [`super::json::unanswered`]).
static JSON: OnceLock<super::json::Pending> = OnceLock::new();

/// Say where `verify --json` writes its document, so that the watchdog writes one too.
pub fn set_json(pending: super::json::Pending) {
    let _ = JSON.set(pending);
}

/// The command whose answer the watchdog may have to give, in that command's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Verify,
    Solve,
}

/// Why a run was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time limit passed.
    Timeout,
    /// A `SIGINT` or `SIGTERM` arrived.
    Signal,
}

/// Why the run was stopped, if it was: a signal wins over the time limit only when it came
/// first.
pub fn stopped() -> Option<Stop> {
    if TIMED_OUT.load(Ordering::SeqCst) {
        Some(Stop::Timeout)
    } else if SIGNALLED.load(Ordering::SeqCst) {
        Some(Stop::Signal)
    } else {
        None
    }
}

/// The text in parentheses of an interrupted run's `UNKNOWN` after `secs` seconds.
pub fn stop_text(secs: f64) -> String {
    match stopped() {
        Some(Stop::Timeout) => format!("timeout after {secs:.1} s"),
        _ => "interrupted".to_string(),
    }
}

/// Say what the run's engine is called (the portfolio or a member), for the watchdog's line.
pub fn set_engine(name: String) {
    let _ = ENGINE.set(name);
}

/// Claim the answer: true for the first caller, who must then print it; false when the
/// watchdog has already answered (the process is about to end).
pub fn claim() -> bool {
    !ANSWERED.swap(true, Ordering::SeqCst)
}

/// Claim the answer, or, when the watchdog has it, wait for the watchdog to end the process.
pub fn claim_or_wait() {
    if !claim() {
        loop {
            std::thread::park();
        }
    }
}

extern "C" fn on_signal(sig: libc::c_int) {
    SIGNALLED.store(true, Ordering::SeqCst);
    if let Some(flag) = INTERRUPT.get() {
        flag.store(true, Ordering::SeqCst);
    }
    // SAFETY: `signal` is async-signal-safe; a second signal then ends the process at once.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
    }
}

/// Enforce the limits of a run of `command` that started at `start` and stops through `intr`:
/// the handler of `SIGINT` and `SIGTERM` raises `intr` (it only stores to atomics), and the
/// watchdog thread raises it when `timeout` seconds have passed and answers for the run
/// [`GRACE`] after either. `Err` when the watchdog thread cannot start (the process has no
/// memory left for its stack).
pub fn start(
    command: Command,
    start: Instant,
    timeout: Option<f64>,
    intr: &Interrupter,
) -> std::io::Result<()> {
    if INTERRUPT.set(intr.flag().clone()).is_ok() {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only stores to atomics and restores the default disposition.
        unsafe {
            libc::signal(libc::SIGINT, handler);
            libc::signal(libc::SIGTERM, handler);
        }
    }
    let deadline = timeout.map(|t| start + Duration::from_secs_f64(t.max(0.0)));
    let intr = intr.clone();
    std::thread::Builder::new()
        .name("bitmc-watchdog".into())
        .stack_size(WATCHDOG_STACK)
        .spawn(move || watch(command, start, deadline, &intr))
        .map(|_| ())
}

/// The watchdog's loop (it never returns while the run goes on).
fn watch(command: Command, start: Instant, deadline: Option<Instant>, intr: &Interrupter) {
    let mut since: Option<Instant> = None;
    loop {
        std::thread::sleep(TICK);
        if ANSWERED.load(Ordering::SeqCst) {
            return;
        }
        let now = Instant::now();
        if since.is_none() {
            if SIGNALLED.load(Ordering::SeqCst) {
                since = Some(now);
            } else if deadline.is_some_and(|d| now >= d) {
                TIMED_OUT.store(true, Ordering::SeqCst);
                intr.interrupt();
                since = Some(now);
            }
        }
        if since.is_some_and(|t| now >= t + GRACE) && claim() {
            answer(command, start.elapsed().as_secs_f64());
        }
    }
}

/// Print the `UNKNOWN` answer of a run stopped `secs` seconds after it started, and exit with
/// the UNKNOWN code without waiting for the run's threads.
fn answer(command: Command, secs: f64) -> ! {
    let why = stop_text(secs);
    let what = match stopped() {
        Some(Stop::Timeout) => "the time limit",
        _ => "the signal",
    };
    eprintln!(
        "note: the run did not stop within {:.1} s of {what}; answering without waiting for it",
        GRACE.as_secs_f64()
    );
    let mut out = std::io::stdout().lock();
    let _ = match command {
        Command::Verify => {
            let engine = ENGINE.get().map_or("bitmc", String::as_str);
            let to_stdout = match JSON.get() {
                Some(p) => {
                    if let Err(e) = super::json::write(&p.path, &p.unanswered(&why, engine, secs)) {
                        eprintln!("error: {e}");
                    }
                    p.path.as_os_str() == "-"
                }
                None => false,
            };
            if to_stdout {
                Ok(())
            } else {
                write!(out, "UNKNOWN ({why}) ({engine}, {secs:.2} s)\nUNKNOWN\n")
            }
        }
        Command::Solve => {
            eprintln!("unknown: {why}");
            writeln!(out, "UNKNOWN")
        }
    };
    let _ = out.flush();
    // SAFETY: `_exit` ends the process at once, without running destructors or `atexit`
    // handlers while the run's threads still use what they would free.
    unsafe { libc::_exit(super::EXIT_UNKNOWN as libc::c_int) }
}
