//! One run of one task: a child process under a wall-clock and a memory limit, measured by
//! `wait4`, and what its exit says.
//!
//! The child gets its own process group (so that a timeout kills whatever it started too), an
//! address-space limit (`RLIMIT_AS`) set between `fork` and `exec`, no standard input, and its
//! standard output and error written to log files. At the time limit the group gets `SIGTERM`,
//! and `SIGKILL` after a grace period; the run is then a TIMEOUT whatever it printed. CPU time and
//! peak resident memory come from the child's `rusage`.
//!
//! The verdict of a bitmc run is the last line of standard output, which must agree with the
//! exit code (0 `TRUE`/`SAFE`, 10 `FALSE(p)`/`UNSAFE`, 20 `UNKNOWN`); anything else is an error
//! whose note is the first line of standard error. A peer's verdict is read from its declared
//! texts ([`super::peer`]).

use std::ffi::OsString;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::peer::Peer;

/// The limits of one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock time after which the child is stopped.
    pub timeout: Duration,
    /// Time between `SIGTERM` and `SIGKILL`.
    pub grace: Duration,
    /// Address-space limit in MiB (0: none).
    pub memory_mb: u64,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `TRUE` or `SAFE` with exit code 0 (the line as printed).
    Holds(String),
    /// `FALSE`, `FALSE(p)` or `UNSAFE` with exit code 10 (the line, and `p` if given).
    Violated(String, Option<String>),
    /// `UNKNOWN` with exit code 20.
    Unknown,
    /// Stopped at the time limit.
    Timeout,
    /// Ran out of memory under the memory limit.
    Memout,
    /// Exit code 1: an error in the input (the expected end of unsupported inputs).
    InputError,
    /// Any other end: usage or internal error, a signal, a verdict that contradicts the exit code.
    Error,
    /// Stopped because bench itself was interrupted; the run is not reported.
    Cancelled,
}

impl Outcome {
    /// The verdict column of the reports.
    pub fn verdict(&self) -> String {
        match self {
            Outcome::Holds(l) | Outcome::Violated(l, _) => l.clone(),
            Outcome::Unknown => "UNKNOWN".into(),
            Outcome::Timeout => "TIMEOUT".into(),
            Outcome::Memout => "OUT OF MEMORY".into(),
            Outcome::InputError | Outcome::Error => "ERROR".into(),
            Outcome::Cancelled => "CANCELLED".into(),
        }
    }
}

/// The measurements of one run.
#[derive(Clone, Debug)]
pub struct Measured {
    pub outcome: Outcome,
    /// Wall-clock seconds from spawn to exit.
    pub wall: f64,
    /// User + system CPU seconds of the child (and the children it waited for).
    pub cpu: f64,
    /// Peak resident set size in MiB.
    pub peak_mb: f64,
    /// The first line of standard error on errors, the reason on UNKNOWN, or what went wrong.
    pub note: String,
}

/// Messages by which programs (Rust, C++, glibc, coreutils, bash) report a failed allocation.
const MEMORY_MARKERS: &[&str] = &[
    "memory allocation of",
    "bad_alloc",
    "out of memory",
    "cannot allocate",
    "memory exhausted",
    "memoryerror",
    // A C++ exception (std::bad_alloc from a SAT solver) unwinding into Rust code.
    "cannot catch foreign exceptions",
];

/// An abnormal end with a peak resident set above this share of the memory limit is taken to
/// be out of memory even without a message saying so.
const MEMORY_NEAR_LIMIT: f64 = 0.9;

/// How a run's verdict is read.
#[derive(Clone, Copy, Debug)]
pub enum Reading<'a> {
    /// bitmc's convention: the last line of stdout and the exit code (see the module doc).
    Bitmc,
    /// A peer's declared texts in stdout ([`Peer::verdict`]).
    Peer(&'a Peer),
}

/// Run `program args` with its output in `log.out` / `log.err`, under `limits`, its verdict
/// read as `reading` says; stop early (with [`Outcome::Cancelled`]) when `cancel` is raised.
pub fn run(
    program: &Path,
    args: &[OsString],
    log: &Path,
    limits: &Limits,
    cancel: &AtomicBool,
    reading: Reading<'_>,
) -> Measured {
    let failed = |note: String| Measured {
        outcome: Outcome::Error,
        wall: 0.0,
        cpu: 0.0,
        peak_mb: 0.0,
        note,
    };
    let out_path = with_suffix(log, "out");
    let err_path = with_suffix(log, "err");
    let (out, err) = match (File::create(&out_path), File::create(&err_path)) {
        (Ok(o), Ok(e)) => (o, e),
        (Err(e), _) | (_, Err(e)) => {
            return failed(format!("cannot create the log {}: {e}", log.display()))
        }
    };
    let mut cmd = command(program, args, out, err, limits.memory_mb);
    let start = Instant::now();
    let child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return failed(format!("cannot run {}: {e}", program.display())),
    };
    let pid = child.id() as libc::pid_t;
    let waited = wait(pid, start, limits, cancel);
    let wall = start.elapsed().as_secs_f64();
    let (status, ru, stopped) = match waited {
        Ok(w) => w,
        Err(e) => return failed(format!("waiting for the child failed: {e}")),
    };
    let cpu = timeval(ru.ru_utime) + timeval(ru.ru_stime);
    let peak_mb = max_rss_mb(ru.ru_maxrss);
    let (outcome, note) = match stopped {
        Some(Stop::Cancel) => (Outcome::Cancelled, String::new()),
        Some(Stop::Timeout) => (Outcome::Timeout, format!("stopped after {wall:.1} s")),
        None => {
            let near_limit =
                limits.memory_mb > 0 && peak_mb >= MEMORY_NEAR_LIMIT * limits.memory_mb as f64;
            match reading {
                Reading::Bitmc => classify(status, &out_path, &err_path, near_limit),
                Reading::Peer(p) => classify_peer(p, status, &out_path, &err_path, near_limit),
            }
        }
    };
    Measured {
        outcome,
        wall,
        cpu,
        peak_mb,
        note,
    }
}

/// The command that runs `program` with `args` in a process group of its own, its output to
/// `out` and `err`, its address space limited to `memory_mb` (0: no limit), killed when bench
/// exits.
fn command(program: &Path, args: &[OsString], out: File, err: File, memory_mb: u64) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .process_group(0);
    let memory = memory_mb.saturating_mul(1024 * 1024) as libc::rlim_t;
    // SAFETY: the closure runs between fork and exec and calls only async-signal-safe functions.
    unsafe {
        cmd.pre_exec(move || {
            if memory > 0 {
                let lim = libc::rlimit {
                    rlim_cur: memory,
                    rlim_max: memory,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Do not outlive bench (the thread that started the child lives until it is reaped).
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    cmd
}

/// Why bench stopped a child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Timeout,
    Cancel,
}

/// Wait for `pid`, stopping its process group at the time limit or on cancellation; returns the
/// wait status, the rusage and whether (and why) it was stopped.
fn wait(
    pid: libc::pid_t,
    start: Instant,
    limits: &Limits,
    cancel: &AtomicBool,
) -> std::io::Result<(libc::c_int, libc::rusage, Option<Stop>)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; all-zero is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let mut stopped: Option<(Stop, Instant)> = None;
    let mut killed = false;
    let mut pause = Duration::from_millis(1);
    loop {
        // SAFETY: plain system call on our own child, with valid pointers.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut ru) };
        if r == pid {
            break;
        }
        if r < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        // Still running (not reaped, so the pid and its group cannot have been reused).
        if stopped.is_none() {
            if cancel.load(Ordering::Relaxed) {
                signal_group(pid, libc::SIGKILL);
                killed = true;
                stopped = Some((Stop::Cancel, Instant::now()));
            } else if start.elapsed() >= limits.timeout {
                signal_group(pid, libc::SIGTERM);
                stopped = Some((Stop::Timeout, Instant::now()));
            }
        }
        if let Some((_, at)) = stopped {
            if !killed && at.elapsed() >= limits.grace {
                signal_group(pid, libc::SIGKILL);
                killed = true;
            }
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
    if stopped.is_some() {
        // Whatever the child started and left behind in its group.
        signal_group(pid, libc::SIGKILL);
    }
    Ok((status, ru, stopped.map(|(s, _)| s)))
}

fn signal_group(pgid: libc::pid_t, sig: libc::c_int) {
    // SAFETY: sending a signal has no memory-safety preconditions.
    unsafe {
        libc::killpg(pgid, sig);
    }
}

/// What a child that ended by itself said; `near_limit`: its peak memory was close to the limit.
fn classify(status: libc::c_int, out: &Path, err: &Path, near_limit: bool) -> (Outcome, String) {
    let last = last_line(out);
    let (first_err, err_tail) = stderr_summary(err);
    let said = |text: &str| {
        let text = text.to_ascii_lowercase();
        MEMORY_MARKERS.iter().any(|m| text.contains(m))
    };
    let memout = near_limit || said(&err_tail) || said(&first_err);
    let wrong_line =
        |code: i32| format!("exit code {code} but the last line of stdout is `{last}`");
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        if memout {
            return (Outcome::Memout, first_err);
        }
        let note = format!("killed by signal {sig} ({})", signal_name(sig));
        return (Outcome::Error, join_note(note, &first_err));
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    match code {
        0 => match last.as_str() {
            "TRUE" | "SAFE" => (Outcome::Holds(last), String::new()),
            _ => (Outcome::Error, join_note(wrong_line(code), &first_err)),
        },
        10 => match parse_violation(&last) {
            Some(p) => (Outcome::Violated(last, p), String::new()),
            None => (Outcome::Error, join_note(wrong_line(code), &first_err)),
        },
        20 if last == "UNKNOWN" => (Outcome::Unknown, unknown_reason(&err_tail)),
        20 => (Outcome::Error, join_note(wrong_line(code), &first_err)),
        _ if memout => (Outcome::Memout, first_err),
        1 => (Outcome::InputError, first_err),
        2 => (
            Outcome::Error,
            join_note("usage error (exit code 2)".into(), &first_err),
        ),
        3 => (
            Outcome::Error,
            join_note("internal error (exit code 3)".into(), &first_err),
        ),
        _ => (
            Outcome::Error,
            join_note(format!("exit code {code}"), &first_err),
        ),
    }
}

/// The most of a peer's standard output searched for its verdict texts.
const PEER_OUTPUT: u64 = 16 << 20;

/// A peer's end: its verdict text, or UNKNOWN after exit code 0, or why it failed.
fn classify_peer(
    peer: &Peer,
    status: libc::c_int,
    out: &Path,
    err: &Path,
    near_limit: bool,
) -> (Outcome, String) {
    let (first_err, err_tail) = stderr_summary(err);
    let said = MEMORY_MARKERS
        .iter()
        .any(|m| err_tail.to_ascii_lowercase().contains(m));
    let text = read_tail(out, PEER_OUTPUT);
    match peer.verdict(&text) {
        Some(true) => return (Outcome::Holds("SAFE".into()), String::new()),
        Some(false) => return (Outcome::Violated("UNSAFE".into(), None), String::new()),
        None => {}
    }
    if near_limit || said {
        return (Outcome::Memout, first_err);
    }
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        let note = format!("killed by signal {sig} ({})", signal_name(sig));
        return (Outcome::Error, join_note(note, &first_err));
    }
    match libc::WEXITSTATUS(status) {
        0 => (Outcome::Unknown, "no verdict text in its output".into()),
        code => (
            Outcome::Error,
            join_note(format!("exit code {code}"), &first_err),
        ),
    }
}

/// `FALSE`, `UNSAFE` → `Some(None)`; `FALSE(p)` → `Some(Some(p))`; anything else `None`.
fn parse_violation(line: &str) -> Option<Option<String>> {
    match line {
        "FALSE" | "UNSAFE" => Some(None),
        _ => {
            let p = line.strip_prefix("FALSE(")?.strip_suffix(')')?;
            Some(Some(p.to_string()))
        }
    }
}

fn join_note(a: String, b: &str) -> String {
    if b.is_empty() {
        a
    } else {
        format!("{a}: {b}")
    }
}

/// The reason of an UNKNOWN answer: the last `unknown: …` line of standard error.
fn unknown_reason(err_tail: &str) -> String {
    err_tail
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("unknown:"))
        .map(|r| clip(r.trim()))
        .unwrap_or_default()
}

/// The last non-empty line of a file (read from its last 4 KiB).
fn last_line(path: &Path) -> String {
    let tail = read_tail(path, 4096);
    tail.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string()
}

/// The first error line of standard error (the first line starting with `error`, else the first
/// non-empty line), clipped, and the last 4 KiB of it.
fn stderr_summary(path: &Path) -> (String, String) {
    let mut head = String::new();
    if let Ok(f) = File::open(path) {
        let mut buf = Vec::new();
        let _ = f.take(4096).read_to_end(&mut buf);
        head = String::from_utf8_lossy(&buf).into_owned();
    }
    (clip(&first_error(&head)), read_tail(path, 4096))
}

/// The line of standard error that says what went wrong: the first line that mentions an error
/// or a panic (with the panic's message, which is on the next line), else the first line.
fn first_error(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("thread '") && l.contains("panicked") {
            return match lines.get(i + 1) {
                Some(msg) => format!("{l} {msg}"),
                None => l.to_string(),
            };
        }
        if l.contains("error") {
            return l.to_string();
        }
    }
    lines.first().map(|l| l.to_string()).unwrap_or_default()
}

fn read_tail(path: &Path, n: u64) -> String {
    let Ok(mut f) = File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if f.seek(SeekFrom::Start(len.saturating_sub(n))).is_err() {
        return String::new();
    }
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// At most 200 characters of a line.
fn clip(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(200).collect::<String>())
    }
}

fn with_suffix(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_os_string();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

fn timeval(t: libc::timeval) -> f64 {
    t.tv_sec as f64 + t.tv_usec as f64 / 1e6
}

fn max_rss_mb(maxrss: libc::c_long) -> f64 {
    // Linux reports KiB, macOS bytes.
    if cfg!(target_os = "macos") {
        maxrss as f64 / (1024.0 * 1024.0)
    } else {
        maxrss as f64 / 1024.0
    }
}

fn signal_name(sig: libc::c_int) -> &'static str {
    match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGXCPU => "SIGXCPU",
        _ => "signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn violations() {
        assert_eq!(parse_violation("UNSAFE"), Some(None));
        assert_eq!(parse_violation("FALSE"), Some(None));
        assert_eq!(
            parse_violation("FALSE(no-overflow)"),
            Some(Some("no-overflow".into()))
        );
        assert_eq!(parse_violation("FALSE(x"), None);
        assert_eq!(parse_violation("TRUE"), None);
    }

    #[test]
    fn first_error_lines() {
        assert_eq!(
            first_error("[pdr] depth 1\nerror: x.c:1:2: bad\nmore\n"),
            "error: x.c:1:2: bad"
        );
        assert_eq!(
            first_error("thread 'main' panicked at src/a.rs:1:2:\nindex out of bounds\n"),
            "thread 'main' panicked at src/a.rs:1:2: index out of bounds"
        );
        assert_eq!(
            first_error("[pdr] depth 1\nunknown: internal error: bad plan\n"),
            "unknown: internal error: bad plan"
        );
        assert_eq!(first_error("\nwarning: w\n"), "warning: w");
        assert_eq!(
            first_error(
                "[bmc] depth 49\nfatal runtime error: Rust cannot catch foreign exceptions\n"
            ),
            "fatal runtime error: Rust cannot catch foreign exceptions"
        );
        assert_eq!(first_error(""), "");
    }

    #[test]
    fn unknown_reasons() {
        assert_eq!(
            unknown_reason("[pdr] depth 3\nunknown: timeout after 1.0 s\n"),
            "timeout after 1.0 s"
        );
        assert_eq!(unknown_reason("nothing\n"), "");
    }
}
