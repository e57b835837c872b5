//! False variants of a correctness witness's invariants, which the check must reject.
//!
//! Each invariant is split into its top-level `&&` conjuncts; a variant negates one conjunct,
//! or moves a bound against a constant by one in the strengthening direction (`x <= 10` ->
//! `x <= 9`, `10 > x` -> `9 > x`). A variant is *known false* when a gcc run of the program
//! instrumented with it fails its check: on one of 48 nondet sequences (zeros, ones, small and
//! boundary values, the program's literals and their neighbours, random values), or on the
//! counterexample with which the checker rejected it, or on the gcc run of the independent check
//! ([`super::induction`]) that rejected it. Every known-false variant must be
//! rejected; the others may be true (a negated conjunct that is implied by the rest) and are
//! only reported. Dropping a conjunct, the other weakening the issue names, gives an invariant
//! that is still true, so it is no rejection test.

use super::invariants::{exec_build, validate};
use super::source::Source;
use super::{replay, Check, Invariant, Options, Outcome, Witness};
use std::time::Duration;

/// The first of `inputs` on which the program instrumented (for execution) with `invs` fails a
/// check; `Err` when it cannot be built.
fn fails_check(
    w: &Witness,
    src: &Source,
    invs: &[Invariant],
    inputs: &[Vec<String>],
    opts: &Options,
) -> Result<Option<Vec<String>>, String> {
    let built = exec_build(w, src, invs)?;
    let limit = Duration::from_secs_f64(opts.run_secs.min(3.0));
    Ok(inputs
        .iter()
        .find(|v| replay::run(&built, v, limit).code == Some(105))
        .cloned())
}

/// The top-level `&&` conjuncts of an expression.
pub fn conjuncts(expr: &str) -> Vec<String> {
    let e = strip_outer(expr.trim());
    let b = e.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0, 0);
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'&' if depth == 0 && b.get(i + 1) == Some(&b'&') => {
                out.push(e[start..i].trim().to_string());
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(e[start..].trim().to_string());
    out
}

/// An expression without parentheses that enclose all of it.
fn strip_outer(mut e: &str) -> &str {
    while e.starts_with('(') && e.ends_with(')') {
        let inner = &e[1..e.len() - 1];
        let mut depth = 0i32;
        if inner.bytes().any(|c| {
            match c {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            depth < 0
        }) {
            break;
        }
        e = inner.trim();
    }
    e
}

/// An integer literal (decimal, optional sign and suffix): (value, suffix).
fn literal(t: &str) -> Option<(i128, &str)> {
    let t = strip_outer(t.trim());
    let body = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let suffix = &t[body.len()..];
    let (neg, digits) = match body.strip_prefix('-') {
        Some(d) => (true, d.trim()),
        None => (false, body),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i128 = digits.parse().ok()?;
    Some((if neg { -v } else { v }, suffix))
}

/// The first top-level comparison of an expression: (offset, operator).
fn comparison(e: &str) -> Option<(usize, &'static str)> {
    let b = e.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'<' | b'>' if depth == 0 => {
                let next = b.get(i + 1).copied();
                if next == Some(b[i]) {
                    i += 2; // a shift
                    continue;
                }
                if i > 0 && b[i] == b'>' && b[i - 1] == b'-' {
                    i += 1;
                    continue;
                }
                let op = match (b[i], next) {
                    (b'<', Some(b'=')) => "<=",
                    (b'>', Some(b'=')) => ">=",
                    (b'<', _) => "<",
                    _ => ">",
                };
                return Some((i, op));
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// False variants of an invariant: (description, expression).
pub fn mutants(expr: &str) -> Vec<(String, String)> {
    let cs = conjuncts(expr);
    let join = |cs: &[String]| {
        cs.iter()
            .map(|c| format!("({c})"))
            .collect::<Vec<_>>()
            .join(" && ")
    };
    let mut out = Vec::new();
    for (i, c) in cs.iter().enumerate() {
        let mut neg = cs.clone();
        neg[i] = format!("!({c})");
        out.push((format!("conjunct `{c}` negated"), join(&neg)));
        let inner = strip_outer(c);
        let Some((at, op)) = comparison(inner) else {
            continue;
        };
        let (lhs, rhs) = (&inner[..at], &inner[at + op.len()..]);
        // Strengthen: `e <= k` -> `e <= k-1`, `e >= k` -> `e >= k+1`, and mirrored.
        let moved = if let Some((k, sfx)) = literal(rhs) {
            let k2 = if op.starts_with('<') { k - 1 } else { k + 1 };
            render(k2, sfx).map(|k| format!("{} {op} {k}", lhs.trim()))
        } else if let Some((k, sfx)) = literal(lhs) {
            let k2 = if op.starts_with('<') { k + 1 } else { k - 1 };
            render(k2, sfx).map(|k| format!("{k} {op} {}", rhs.trim()))
        } else {
            None
        };
        if let Some(m) = moved {
            let mut bound = cs.clone();
            bound[i] = m.clone();
            out.push((format!("bound of `{c}` moved by one: `{m}`"), join(&bound)));
        }
    }
    out
}

fn render(k: i128, suffix: &str) -> Option<String> {
    if k < 0 && suffix.contains(['u', 'U']) {
        return None;
    }
    Some(if k < 0 {
        format!("({k}{suffix})")
    } else {
        format!("{k}{suffix}")
    })
}

/// The outcome of checking the false variants of a witness's invariants.
#[derive(Clone, Debug, Default)]
pub struct MutantReport {
    /// Variants tried.
    pub tried: usize,
    /// Variants shown false by a gcc run.
    pub known_false: usize,
    /// Known-false variants the validator rejected.
    pub rejected: usize,
    /// Known-false variants the validator did not reject, with its answer.
    pub missed: Vec<String>,
    /// Variants not shown false (they may be true), with the validator's answer.
    pub kept: Vec<String>,
}

/// Nondet sequences for looking for a failing run: zeros, ones, small and boundary values,
/// the program's literals, and random ones.
fn samples(text: &str, runs: usize) -> Vec<Vec<String>> {
    let mut pool: Vec<i64> = vec![
        0,
        1,
        2,
        3,
        -1,
        -2,
        7,
        10,
        100,
        255,
        256,
        1000,
        i32::MAX as i64,
        i32::MIN as i64,
    ];
    for tok in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if let Ok(v) = tok.trim_end_matches(['u', 'U', 'l', 'L']).parse::<i64>() {
            pool.extend([v, v + 1, v - 1, -v]);
        }
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = vec![vec!["0".to_string(); 64], vec!["1".to_string(); 64]];
    while out.len() < runs {
        let seq = (0..64)
            .map(|_| {
                let r = next();
                match r % 4 {
                    0 => ((r >> 8) % 8).to_string(),
                    1 | 2 => pool[((r >> 8) as usize) % pool.len()].to_string(),
                    _ => ((r >> 16) as i32).to_string(),
                }
            })
            .collect();
        out.push(seq);
    }
    out
}

/// Make false variants of the witness's invariants (at most `max`), decide which are known
/// false by execution, and validate each.
pub fn check_mutants(w: &Witness, opts: &Options, max: usize) -> MutantReport {
    let mut report = MutantReport::default();
    let Ok(text) = std::fs::read_to_string(&w.program) else {
        return report;
    };
    let src = Source::new(&text);
    let inputs = samples(&text, 48);
    for (i, inv) in w.invariants.iter().enumerate() {
        for (desc, expr) in mutants(&inv.expr) {
            if report.tried == max {
                return report;
            }
            report.tried += 1;
            let mut m = w.clone();
            m.invariants[i].expr = expr;
            let label = format!("{} at {}: {desc}", inv.expr, inv.location);
            let by_run = fails_check(&m, &src, &m.invariants, &inputs, opts);
            let outcome = validate(&m, opts);
            let rejected = matches!(&outcome, Outcome::Rejected(r) if r.check == Check::Invariant);
            let confirmed_by_checker = matches!(&outcome, Outcome::Rejected(r) if r.reason.contains("fails the check of invariant") || r.reason.contains("a gcc run from the initial state finds the invariants FALSE"));
            let known_false = matches!(by_run, Ok(Some(_))) || confirmed_by_checker;
            if known_false {
                report.known_false += 1;
                if rejected {
                    report.rejected += 1;
                } else {
                    report.missed.push(format!("{label}: {outcome:?}"));
                }
            } else {
                report.kept.push(format!("{label}: {outcome:?}"));
            }
        }
    }
    report
}
