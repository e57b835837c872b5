//! Judging runs against their expectations, and the reports: `results.csv` (one row per run)
//! and `summary.md` (per configuration: counts, the wrong answers by name, PAR-2, SV-COMP score).
//!
//! Definitions, also written into `summary.md`:
//! - *solved*: a correct answer, or a verdict for a task without an expectation;
//! - PAR-2: the sum over runs of the wall time when solved, and of twice the time limit otherwise
//!   (wrong answers, unknown, timeout, out of memory, errors);
//! - score: SV-COMP's — correct true +2, correct false +1, wrong false −16, wrong true −32, else 0
//!   (`SAFE` counts as true, `UNSAFE` as false; an expected error exit, and UNKNOWN where a
//!   violation comes only after undefined behaviour, are correct and score 0).

use super::run::{Measured, Outcome};
use super::tasks::{Expected, Task};
use super::Config;
use std::fmt::Write as _;

/// How a run compares with its expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Correct,
    Wrong,
    Unknown,
    Timeout,
    Memout,
    Error,
    /// A verdict for a task whose expected verdict nobody gave.
    NoExpectation,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Wrong => "wrong",
            Status::Unknown => "unknown",
            Status::Timeout => "timeout",
            Status::Memout => "memout",
            Status::Error => "error",
            Status::NoExpectation => "no-expectation",
        }
    }
}

/// One judged run: a row of `results.csv`.
#[derive(Clone, Debug)]
pub struct Row {
    pub task: String,
    pub property: String,
    pub config: String,
    pub expected: String,
    /// What was expected, for the true/false split of the correct answers.
    pub expected_kind: Expected,
    pub verdict: String,
    pub status: Status,
    pub wall: f64,
    pub cpu: f64,
    pub peak_mb: f64,
    pub note: String,
    /// The SV-COMP score of the run.
    pub score: i32,
}

impl Row {
    /// Counts for PAR-2 and the cactus plot.
    pub fn solved(&self) -> bool {
        matches!(self.status, Status::Correct | Status::NoExpectation)
    }
}

/// Judge one run of `task` under a configuration whose expectation is `expected`.
pub fn judge(task: &Task, expected: Expected, config: &Config, m: &Measured) -> Row {
    use Expected as E;
    let mut note = m.note.clone();
    let (status, score) = match &m.outcome {
        Outcome::Timeout => (Status::Timeout, 0),
        Outcome::Memout => (Status::Memout, 0),
        Outcome::Unknown if expected == E::Undefined => (Status::Correct, 0),
        Outcome::Unknown => (Status::Unknown, 0),
        Outcome::Error | Outcome::Cancelled => (Status::Error, 0),
        Outcome::InputError if expected == E::Error => (Status::Correct, 0),
        Outcome::InputError => (Status::Error, 0),
        Outcome::Holds(_) => match expected {
            E::Holds => (Status::Correct, 2),
            E::Violated | E::Error | E::Undefined => (Status::Wrong, -32),
            E::Unknown => (Status::NoExpectation, 0),
        },
        Outcome::Violated(_, reported) => {
            let other = match (reported, &task.property) {
                (Some(r), Some(p)) if r != p => Some(r),
                _ => None,
            };
            match (expected, other) {
                (E::Unknown, _) => (Status::NoExpectation, 0),
                (E::Violated, None) => (Status::Correct, 1),
                (E::Violated, Some(r)) => {
                    note = format!(
                        "a violation of {r} was reported for the property {}",
                        task.property.as_deref().unwrap_or("")
                    );
                    (Status::Wrong, -16)
                }
                (E::Holds | E::Error | E::Undefined, _) => (Status::Wrong, -16),
            }
        }
    };
    Row {
        task: task.name.clone(),
        property: task.property.clone().unwrap_or_default(),
        config: config.name.clone(),
        expected: task.spell(expected),
        expected_kind: expected,
        verdict: m.outcome.verdict(),
        status,
        wall: m.wall,
        cpu: m.cpu,
        peak_mb: m.peak_mb,
        note,
        score,
    }
}

/// The header of `results.csv`.
pub const CSV_HEADER: &str =
    "task,property,config,expected,verdict,status,wall_s,cpu_s,peak_mb,note";

/// `results.csv`: the header and one line per row.
pub fn csv(rows: &[Row]) -> String {
    let mut s = String::from(CSV_HEADER);
    s.push('\n');
    for r in rows {
        let fields = [
            csv_field(&r.task),
            csv_field(&r.property),
            csv_field(&r.config),
            csv_field(&r.expected),
            csv_field(&r.verdict),
            r.status.as_str().to_string(),
            format!("{:.3}", r.wall),
            format!("{:.3}", r.cpu),
            format!("{:.1}", r.peak_mb),
            csv_field(&r.note),
        ];
        s.push_str(&fields.join(","));
        s.push('\n');
    }
    s
}

/// A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The totals of one configuration.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub config: String,
    pub tasks: usize,
    pub correct: usize,
    pub correct_true: usize,
    pub correct_false: usize,
    pub wrong: Vec<Row>,
    pub unknown: usize,
    pub timeout: usize,
    pub memout: usize,
    pub error: usize,
    pub no_expectation: usize,
    pub par2: f64,
    pub score: i64,
    pub cpu: f64,
}

/// The totals of every configuration, in the order of `configs`.
pub fn summarize(rows: &[Row], configs: &[Config], timeout: f64) -> Vec<Summary> {
    configs
        .iter()
        .map(|c| {
            let mut s = Summary {
                config: c.name.clone(),
                ..Default::default()
            };
            for r in rows.iter().filter(|r| r.config == c.name) {
                s.tasks += 1;
                match r.status {
                    Status::Correct => {
                        s.correct += 1;
                        match r.expected_kind {
                            Expected::Holds => s.correct_true += 1,
                            Expected::Violated => s.correct_false += 1,
                            _ => {}
                        }
                    }
                    Status::Wrong => s.wrong.push(r.clone()),
                    Status::Unknown => s.unknown += 1,
                    Status::Timeout => s.timeout += 1,
                    Status::Memout => s.memout += 1,
                    Status::Error => s.error += 1,
                    Status::NoExpectation => s.no_expectation += 1,
                }
                s.par2 += if r.solved() { r.wall } else { 2.0 * timeout };
                s.score += i64::from(r.score);
                s.cpu += r.cpu;
            }
            s
        })
        .collect()
}

/// The table of totals (markdown).
pub fn table(sums: &[Summary]) -> String {
    let mut s = String::from(
        "| config | tasks | correct | correct true | correct false | **wrong** | unknown | timeout | memout | error | no expectation | PAR-2 (s) | score | CPU (s) |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for m in sums {
        let wrong = if m.wrong.is_empty() {
            "0".to_string()
        } else {
            format!("**{}**", m.wrong.len())
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {:.1} |",
            m.config,
            m.tasks,
            m.correct,
            m.correct_true,
            m.correct_false,
            wrong,
            m.unknown,
            m.timeout,
            m.memout,
            m.error,
            m.no_expectation,
            m.par2,
            m.score,
            m.cpu
        );
    }
    s
}

/// The section that lists the wrong answers by name (or says there were none).
pub fn wrong_section(sums: &[Summary]) -> String {
    let total: usize = sums.iter().map(|m| m.wrong.len()).sum();
    if total == 0 {
        return "No wrong answers.\n".into();
    }
    let mut s = format!(
        "## !!! {total} WRONG ANSWER{} !!!\n\n",
        if total == 1 { "" } else { "S" }
    );
    for m in sums.iter().filter(|m| !m.wrong.is_empty()) {
        let _ = writeln!(s, "**{}** — {} wrong:\n", m.config, m.wrong.len());
        for r in &m.wrong {
            let prop = if r.property.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.property)
            };
            let note = if r.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", r.note)
            };
            let _ = writeln!(
                s,
                "- **WRONG** `{}`{prop}: expected {}, got **{}**{note}",
                r.task, r.expected, r.verdict
            );
        }
        s.push('\n');
    }
    s
}

/// Everything `summary.md` says about a bench.
pub struct SummaryDoc<'a> {
    pub sums: &'a [Summary],
    pub rows: &'a [Row],
    pub configs: &'a [Config],
    pub timeout: f64,
    pub memory_mb: u64,
    pub jobs: usize,
    pub notes: &'a [String],
    pub interrupted: bool,
}

/// An argument as a shell would need it written: as it is when that is safe, else in single
/// quotes.
fn shell_quote(a: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_=./:,+@%".contains(c);
    if !a.is_empty() && a.chars().all(plain) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// The text of `summary.md`.
pub fn summary_md(d: &SummaryDoc) -> String {
    let mut s = String::from("# bitmc bench\n\n");
    if d.interrupted {
        s.push_str("**Interrupted: the runs below are only those that finished.**\n\n");
    }
    let memory = if d.memory_mb == 0 {
        "none".to_string()
    } else {
        format!("{} MiB of address space", d.memory_mb)
    };
    let _ = writeln!(
        s,
        "Time limit {} s wall clock per run (then SIGTERM, SIGKILL 1 s later); memory limit {memory}; {} parallel run{}.\n",
        d.timeout,
        d.jobs,
        if d.jobs == 1 { "" } else { "s" }
    );
    s.push_str("Configurations:\n\n");
    for c in d.configs {
        let args = if let Some(p) = &c.peer {
            let quoted: Vec<String> = p.argv.iter().map(|a| shell_quote(a)).collect();
            format!(
                "peer `{}` (SAFE on `{}`, UNSAFE on `{}` in its output)",
                quoted.join(" "),
                p.safe,
                p.unsafe_text
            )
        } else if c.args.is_empty() {
            "no extra arguments".to_string()
        } else {
            let quoted: Vec<String> = c.args.iter().map(|a| shell_quote(a)).collect();
            format!("`{}`", quoted.join(" "))
        };
        let _ = writeln!(s, "- `{}`: {args}", c.name);
    }
    s.push('\n');
    s.push_str(&table(d.sums));
    let _ = write!(
        s,
        "\n*correct true / false*: correct answers where the property holds (TRUE, SAFE) / is violated \
         (FALSE, UNSAFE); *correct* also counts expected error exits. *no expectation*: a verdict for a \
         task whose expected verdict is not known.\n\
         *PAR-2*: the sum over runs of the wall time when solved (a correct answer, or a verdict without \
         an expectation) and of 2 × the time limit ({} s) otherwise — wrong answers included.\n\
         *score*: SV-COMP's: correct true +2, correct false +1, wrong false −16, wrong true −32, \
         anything else 0 (SAFE counts as true, UNSAFE as false).\n\
         *CPU*: the sum of user + system time of the runs.\n\n",
        2.0 * d.timeout
    );
    s.push_str(&wrong_section(d.sums));
    let errors: Vec<&Row> = d
        .rows
        .iter()
        .filter(|r| matches!(r.status, Status::Error | Status::Memout))
        .collect();
    if !errors.is_empty() {
        s.push_str("\n## Errors and out-of-memory runs\n\n");
        for r in errors {
            let prop = if r.property.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.property)
            };
            let _ = writeln!(
                s,
                "- `{}` `{}`{prop}: {} — {}",
                r.config, r.task, r.verdict, r.note
            );
        }
    }
    if !d.notes.is_empty() {
        s.push_str("\n## Skipped\n\n");
        for n in d.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::tasks::Kind;

    fn task(prop: Option<&str>, e: Expected) -> Task {
        Task {
            name: "t".into(),
            path: "t".into(),
            kind: if prop.is_some() {
                Kind::Verify
            } else {
                Kind::Solve
            },
            property: prop.map(String::from),
            expected: e,
            expected_lp64: e,
        }
    }

    fn measured(outcome: Outcome) -> Measured {
        Measured {
            outcome,
            wall: 1.0,
            cpu: 1.0,
            peak_mb: 1.0,
            note: String::new(),
        }
    }

    fn status(prop: Option<&str>, e: Expected, o: Outcome) -> (Status, i32) {
        let c = Config {
            name: "c".into(),
            args: vec![],
            lp64: false,
            peer: None,
        };
        let r = judge(&task(prop, e), e, &c, &measured(o));
        (r.status, r.score)
    }

    #[test]
    fn judging() {
        use Expected as E;
        let holds = || Outcome::Holds("TRUE".into());
        let viol = |p: Option<&str>| Outcome::Violated("FALSE".into(), p.map(String::from));
        let u = Some("unreach-call");
        assert_eq!(status(u, E::Holds, holds()), (Status::Correct, 2));
        assert_eq!(status(u, E::Violated, holds()), (Status::Wrong, -32));
        assert_eq!(status(u, E::Violated, viol(u)), (Status::Correct, 1));
        assert_eq!(status(u, E::Violated, viol(None)), (Status::Correct, 1));
        assert_eq!(
            status(u, E::Violated, viol(Some("no-overflow"))),
            (Status::Wrong, -16)
        );
        assert_eq!(status(u, E::Holds, viol(u)), (Status::Wrong, -16));
        assert_eq!(
            status(u, E::Error, Outcome::InputError),
            (Status::Correct, 0)
        );
        assert_eq!(status(u, E::Error, holds()), (Status::Wrong, -32));
        assert_eq!(status(u, E::Holds, Outcome::InputError), (Status::Error, 0));
        assert_eq!(
            status(None, E::Unknown, viol(None)),
            (Status::NoExpectation, 0)
        );
        assert_eq!(
            status(None, E::Holds, Outcome::Timeout),
            (Status::Timeout, 0)
        );
        assert_eq!(status(None, E::Holds, Outcome::Memout), (Status::Memout, 0));
        // A violation only after undefined behaviour: UNKNOWN is the right answer.
        let o = Some("no-overflow");
        assert_eq!(
            status(o, E::Undefined, Outcome::Unknown),
            (Status::Correct, 0)
        );
        assert_eq!(status(o, E::Undefined, viol(o)), (Status::Wrong, -16));
        assert_eq!(status(o, E::Undefined, holds()), (Status::Wrong, -32));
        assert_eq!(status(o, E::Holds, Outcome::Unknown), (Status::Unknown, 0));
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("--engine=bmc"), "--engine=bmc");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn csv_quoting() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
