//! A counterexample as `bitmc verify` prints it, read back: the lines of the statements of
//! the trace in the main file (the rest of a statement after a call returned, `(continued)`,
//! left out: it is not a new execution), the nondet values, the uninitialised values in the
//! order their declarations ran, and the line of the `error:` line.

/// What a printed counterexample says.
#[derive(Debug, Default)]
pub struct Printed {
    pub lines: Vec<u32>,
    pub nondet: Vec<u64>,
    pub uninit: Vec<u64>,
    /// Uninitialised values read before their declaration ran (no declaration gives them).
    pub uninit_early: usize,
    pub error_line: Option<u32>,
}

/// The line of `FILE:LINE:COL: ...` when it starts with `file`.
fn line_of(s: &str, file: &str) -> Option<u32> {
    s.strip_prefix(file)?
        .strip_prefix(':')?
        .split(':')
        .next()?
        .parse()
        .ok()
}

/// Reads the output of `bitmc verify` on `file` (as given on its command line).
pub fn parse(stdout: &str, file: &str) -> Result<Printed, String> {
    let mut p = Printed::default();
    let mut section = "";
    let mut saw_trace = false;
    for l in stdout.lines() {
        if let Some(list) = l
            .strip_prefix("nondet values: [")
            .and_then(|r| r.strip_suffix(']'))
        {
            p.nondet = list
                .split(", ")
                .filter(|x| !x.is_empty())
                .map(|x| x.parse().map_err(|_| format!("nondet value {x}")))
                .collect::<Result<_, _>>()?;
            continue;
        }
        if !l.starts_with(' ') {
            section = if l.starts_with("trace (") {
                saw_trace = true;
                "trace"
            } else if l.starts_with("uninitialised values") {
                "uninit"
            } else {
                ""
            };
            if l.contains(": error: ") {
                p.error_line = line_of(l, file);
            }
            continue;
        }
        let Some(entry) = l.strip_prefix("  ").filter(|e| !e.starts_with(' ')) else {
            continue;
        };
        match section {
            "trace" => {
                let Some(line) = line_of(entry, file) else {
                    continue;
                };
                let rest = entry.split_once(": ").map_or("", |(_, r)| r);
                if !rest.starts_with("(continued) ") {
                    p.lines.push(line);
                }
            }
            "uninit" => {
                let value = entry
                    .rsplit(" = ")
                    .next()
                    .and_then(|v| v.split(' ').next())
                    .and_then(|v| v.parse::<i128>().ok())
                    .ok_or_else(|| format!("uninitialised value in `{entry}`"))?;
                if entry.ends_with("(read before its declaration ran)") {
                    p.uninit_early += 1;
                } else {
                    p.uninit.push(value as u64);
                }
            }
            _ => {}
        }
    }
    if !saw_trace {
        return Err("no trace printed".into());
    }
    Ok(p)
}

/// `v` without consecutive repetitions.
pub fn collapsed(v: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for &x in v {
        if out.last() != Some(&x) {
            out.push(x);
        }
    }
    out
}
