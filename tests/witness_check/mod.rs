//! An independent validator of SV-COMP verification witnesses, for the tests.
//!
//! It reads only a witness file (YAML format 2.0 or GraphML format 1.0) and the C program the
//! witness names, never bitmc's own witness code, and judges the witness in three stages:
//!
//! 1. **Format** ([`yaml`], [`graphml`]): a YAML witness is converted to JSON and checked against
//!    the JSON Schema `tests/data/witness-2.0.schema.json` (written from the published format
//!    description) by the `jsonschema` crate, then against the rules a schema cannot state
//!    (the `follow` waypoint ends its segment, the `target` ends the last one); a GraphML witness
//!    is checked for declared keys, the required graph data, one entry node, a violation node in
//!    a violation witness, and edges between existing nodes. Both formats must give the SHA-256
//!    of the program file (checked with the `sha2` crate).
//! 2. **Violation witnesses** ([`replay`]): the locations must point at `__VERIFIER_nondet_*`
//!    calls, the values must lie in the range of the called function's type, and the program,
//!    compiled with gcc against a harness whose nondet functions return the witness's values
//!    in order, must reach the error (`unreach-call`) or make UBSan report a signed overflow at
//!    the target line (`no-overflow`), using all the values and no more (in the spirit of
//!    witness2test). Uninitialised automatic variables are 0 in that run; when a run with them
//!    filled with a pattern ends otherwise, the witness must state the values it relies on as
//!    assumptions, which are checked in the run where the witness puts them.
//! 3. **Correctness witnesses** ([`invariants`]): every invariant must sit at a loop keyword.
//!    First a check that shares no code with bitmc ([`induction`]): the program, compiled by
//!    gcc with every loop condition instrumented, must keep the invariants on random runs from
//!    the initial state (else the witness is rejected), and the invariants must carry the
//!    proof themselves: from sampled states that satisfy a loop head's invariant (every
//!    variable in scope given arbitrary values, [`scope`]), one step to the next loop head
//!    keeps that head's invariant and never violates the property (else it is unconfirmed).
//!    Then the program, instrumented so that each invariant is checked every time its loop
//!    head is reached, must be proved by `bitmc verify` with an engine other than the one that
//!    produced the witness. [`mutants`] makes false variants of the invariants and requires
//!    that they are rejected.
//!
//! [`validate`] runs all stages and answers [`Outcome::Confirmed`], [`Outcome::Rejected`] (with
//! the stage and the reason) or [`Outcome::Unconfirmed`] (the checker ran out of time, or a
//! tool is missing).

#![allow(dead_code)]

pub mod graphml;
pub mod induction;
pub mod invariants;
pub mod mutants;
pub mod replay;
pub mod scope;
pub mod source;
pub mod yaml;

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The two witness formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// YAML, format 2.0.
    Yaml,
    /// GraphML, format 1.0.
    GraphMl,
}

/// What a witness claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Violation,
    Correctness,
}

/// The properties a witness may be about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    UnreachCall,
    NoOverflow,
}

impl Property {
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::NoOverflow => "no-overflow",
        }
    }

    /// The property of an SV-COMP specification text (`G ! call(reach_error())`, the whole
    /// `CHECK( init(main()), LTL(G ! overflow) )`, ...).
    pub fn from_specification(spec: &str) -> Option<Property> {
        let s: String = spec.chars().filter(|c| !c.is_whitespace()).collect();
        if s.contains("G!call(reach_error())") || s.contains("G!call(__VERIFIER_error())") {
            Some(Property::UnreachCall)
        } else if s.contains("G!overflow") {
            Some(Property::NoOverflow)
        } else {
            None
        }
    }
}

/// The data models of SV-COMP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModel {
    Ilp32,
    Lp64,
}

impl DataModel {
    /// bitmc's spelling on the command line.
    pub fn arg(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ilp32",
            DataModel::Lp64 => "lp64",
        }
    }
}

/// A place in the program (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub line: usize,
    pub column: Option<usize>,
    pub function: Option<String>,
}

impl Location {
    pub fn at_line(line: usize) -> Location {
        Location {
            line,
            column: None,
            function: None,
        }
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}", self.line)?;
        if let Some(c) = self.column {
            write!(f, ", column {c}")?;
        }
        Ok(())
    }
}

/// One value returned by a nondet function on the witness's path.
#[derive(Clone, Debug)]
pub struct NondetValue {
    /// The value as the witness writes it (`\result == V`).
    pub value: i128,
    /// The function, when the witness names it (GraphML's `assumption.resultfunction`).
    pub function: Option<String>,
    /// Where the witness puts the call (YAML: the call's closing parenthesis; GraphML: the
    /// edge's `startline`).
    pub location: Option<Location>,
}

/// A C expression a violation witness says holds on its path: an `assumption` waypoint (YAML:
/// before the statement at its location), or the assumption of a GraphML edge that is not
/// about a function's result (after the statement on its `startline`).
#[derive(Clone, Debug)]
pub struct Assumption {
    pub expr: String,
    pub location: Location,
    /// How many of the witness's nondet values come before it on the path.
    pub after_values: usize,
}

/// A loop invariant of a correctness witness.
#[derive(Clone, Debug)]
pub struct Invariant {
    pub location: Location,
    pub expr: String,
}

/// What a witness says, in a form common to both formats.
#[derive(Clone, Debug)]
pub struct Witness {
    pub format: Format,
    pub kind: Kind,
    /// The witness file.
    pub path: PathBuf,
    /// The program file, resolved against the witness's directory and the current directory.
    pub program: PathBuf,
    pub property: Property,
    pub data_model: DataModel,
    /// The producer's name, version and configuration, as one text.
    pub producer: String,
    /// Violation witnesses: the nondet values in execution order.
    pub values: Vec<NondetValue>,
    /// Violation witnesses: where the violation happens, when the witness says.
    pub target: Option<Location>,
    /// Violation witnesses: what else they say holds on the path, in order.
    pub assumptions: Vec<Assumption>,
    /// Correctness witnesses: the loop invariants.
    pub invariants: Vec<Invariant>,
}

/// The stage of the validation that rejected a witness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The file cannot be read or parsed, or its program cannot be found.
    Read,
    /// The YAML witness does not satisfy the JSON Schema.
    Schema,
    /// The witness breaks a rule of its format, or points at the wrong place in the program.
    Structure,
    /// The program hash is not the SHA-256 of the program.
    Hash,
    /// The violation does not replay under gcc.
    Replay,
    /// An invariant is not confirmed.
    Invariant,
}

/// Why a witness is rejected.
#[derive(Clone, Debug)]
pub struct Rejection {
    pub check: Check,
    pub reason: String,
}

impl Rejection {
    pub fn new(check: Check, reason: impl Into<String>) -> Rejection {
        Rejection {
            check,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.check, self.reason)
    }
}

/// The verdict of the validator on one witness.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The witness is confirmed; the text says how.
    Confirmed(String),
    /// The witness is wrong.
    Rejected(Rejection),
    /// Neither: the text says why (a time limit, a missing tool).
    Unconfirmed(String),
}

/// How hard the validator tries.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seconds for each `bitmc verify` run of the correctness check.
    pub bitmc_secs: f64,
    /// Seconds for each run of a compiled program.
    pub run_secs: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bitmc_secs: 30.0,
            run_secs: 10.0,
        }
    }
}

/// Read a witness (format from the extension: `.yml`/`.yaml` or `.graphml`) and check its
/// format, its structure and its program hash.
pub fn read(path: &Path) -> Result<Witness, Rejection> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Rejection::new(Check::Read, format!("{}: {e}", path.display())))?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("yml" | "yaml") => yaml::read(path, &text),
        Some("graphml") => graphml::read(path, &text),
        _ => Err(Rejection::new(
            Check::Read,
            format!("{}: not a .yml or .graphml file", path.display()),
        )),
    }
}

/// Validate a witness completely: format, structure, hash, then the replay of a violation or
/// the check of the invariants.
pub fn validate(path: &Path, opts: &Options) -> Outcome {
    let w = match read(path) {
        Ok(w) => w,
        Err(r) => return Outcome::Rejected(r),
    };
    match w.kind {
        Kind::Violation => replay::validate(&w, opts),
        Kind::Correctness => invariants::validate(&w, opts),
    }
}

/// The SHA-256 of some bytes, in lowercase hexadecimal.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Check a program hash given by a witness against the program file.
pub fn check_hash(program: &Path, given: &str) -> Result<(), Rejection> {
    let bytes = std::fs::read(program)
        .map_err(|e| Rejection::new(Check::Read, format!("{}: {e}", program.display())))?;
    let actual = sha256_hex(&bytes);
    if given.trim().eq_ignore_ascii_case(&actual) {
        Ok(())
    } else {
        Err(Rejection::new(
            Check::Hash,
            format!(
                "the witness gives hash {given} for {}, whose SHA-256 is {actual}",
                program.display()
            ),
        ))
    }
}

/// The program a witness names: absolute, or relative to the witness's directory, or to the
/// current directory (in that order).
pub fn resolve_program(witness: &Path, name: &str) -> Result<PathBuf, Rejection> {
    let p = Path::new(name);
    let mut candidates = Vec::new();
    if p.is_absolute() {
        candidates.push(p.to_path_buf());
    } else {
        if let Some(dir) = witness.parent() {
            candidates.push(dir.join(p));
        }
        candidates.push(p.to_path_buf());
    }
    candidates.into_iter().find(|c| c.is_file()).ok_or_else(|| {
        Rejection::new(
            Check::Read,
            format!(
                "the program `{name}` named by {} is not found (relative to the witness or the current directory)",
                witness.display()
            ),
        )
    })
}

/// The data model of SV-COMP's spelling in either format.
pub fn data_model(s: &str) -> Option<DataModel> {
    match s {
        "ILP32" | "32bit" => Some(DataModel::Ilp32),
        "LP64" | "64bit" => Some(DataModel::Lp64),
        _ => None,
    }
}

/// Parse a constraint `\result == V` (GraphML writes a `;` after it; parentheses and integer
/// suffixes are allowed) into V.
pub fn result_value(text: &str) -> Option<i128> {
    let t = text.trim().trim_end_matches(';').trim();
    let t = strip_parens(t);
    let rest = t.strip_prefix("\\result")?.trim_start();
    let rest = rest.strip_prefix("==")?.trim();
    let rest = strip_parens(rest);
    let digits = rest.trim_end_matches(['u', 'U', 'l', 'L']);
    let (neg, digits) = match digits.strip_prefix('-') {
        Some(d) => (true, strip_parens(d.trim())),
        None => (false, digits),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i128 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

fn strip_parens(mut t: &str) -> &str {
    while let Some(inner) = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        // Only when the outer parentheses enclose everything.
        let mut depth = 0i32;
        let balanced = inner.chars().all(|c| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            depth >= 0
        });
        if !balanced {
            break;
        }
        t = inner.trim();
    }
    t
}

/// A fresh scratch directory.
pub fn scratch_dir(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!(
        "bitmc-witness-check-{}-{n}-{what}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch directory");
    d
}

/// The result of a command run with a time limit.
pub struct Ran {
    /// The exit code (`None`: killed by a signal or by the time limit).
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Run a command with a time limit; its output goes through files in `dir`.
pub fn run_limited(cmd: &mut Command, limit: Duration, dir: &Path) -> std::io::Result<Ran> {
    let out = dir.join("stdout.txt");
    let err = dir.join("stderr.txt");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out)?)
        .stderr(std::fs::File::create(&err)?)
        .spawn()?;
    let start = Instant::now();
    let (code, timed_out) = loop {
        if let Some(status) = child.try_wait()? {
            break (status.code(), false);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Ok(Ran {
        code,
        timed_out,
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: String::from_utf8_lossy(&std::fs::read(&err).unwrap_or_default()).into_owned(),
    })
}

/// Whether gcc builds and runs programs under a data model (with `-m32` for ILP32), and with
/// UBSan when `ubsan`; the error says what is missing.
pub fn gcc_works(dm: DataModel, ubsan: bool) -> Result<(), String> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    type Probes = HashMap<(bool, bool), Result<(), String>>;
    static CACHE: Mutex<Option<Probes>> = Mutex::new(None);
    let key = (dm == DataModel::Ilp32, ubsan);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    cache
        .entry(key)
        .or_insert_with(|| {
            let dir = scratch_dir("gcc-probe");
            let src = dir.join("probe.c");
            std::fs::write(
                &src,
                "int main(void) { volatile int x = 1; return x - 1; }\n",
            )
            .map_err(|e| e.to_string())?;
            let mut cmd = Command::new("gcc");
            if dm == DataModel::Ilp32 {
                cmd.arg("-m32");
            }
            if ubsan {
                cmd.arg("-fsanitize=signed-integer-overflow");
            }
            cmd.arg(&src).arg("-o").arg(dir.join("probe"));
            let what = format!(
                "gcc{}{}",
                if dm == DataModel::Ilp32 { " -m32" } else { "" },
                if ubsan { " with UBSan" } else { "" }
            );
            let built = cmd
                .output()
                .map_err(|e| format!("{what} does not run: {e}"))?;
            if !built.status.success() {
                return Err(format!("{what} does not build a program"));
            }
            let ran = Command::new(dir.join("probe"))
                .status()
                .map_err(|e| format!("a program built by {what} does not run: {e}"))?;
            let _ = std::fs::remove_dir_all(&dir);
            if ran.success() {
                Ok(())
            } else {
                Err(format!("a program built by {what} does not run"))
            }
        })
        .clone()
}
