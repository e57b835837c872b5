//! `bitmc verify --json FILE`: the result of a run as one JSON document, for tools that read
//! verdicts rather than logs. Its shape is `docs/verify-result.schema.json` (JSON Schema
//! 2020-12); `tests/cli_json.rs` validates the output of every fixture against it and checks
//! that it says what the text output says.
//!
//! The document: the input, the data model, the run's verdict (`TRUE`, `FALSE(PROPERTY)` or
//! `UNKNOWN`, as the last line of the text output), its exit code and time; one entry per
//! property checked (its verdict, the engine that gave it, its time, why it is UNKNOWN, the
//! statistics of `-v` as numbers where they are numbers, and for a violation the
//! counterexample: where the property fails, the inputs with their call sites and types, and
//! the statements executed in order with the values they assigned); the properties of the task
//! that bitmc does not check.

use bitmc::cfa::{Cfa, SrcPos};
use bitmc::engine::stats::Value as Stat;
use bitmc::engine::Stats;
use bitmc::witness::trace::{c_name, c_type, format_value, Effect, Executed, Trace};
use serde_json::{json, Map, Value};

/// The version of the document's shape, raised when a field changes meaning or goes away.
pub const FORMAT: u64 = 1;

/// A position as `{file, line, column}`, or null.
pub fn position(p: Option<&SrcPos>) -> Value {
    match p {
        Some(p) => json!({"file": &*p.file, "line": p.line, "column": p.col}),
        None => Value::Null,
    }
}

/// A value of an integer type of at most 64 bits as a JSON number (signed when the type is),
/// else as its decimal text.
fn number(value: u128, width: u32, signed: bool) -> Value {
    if width > 64 {
        return Value::String(value.to_string());
    }
    if signed {
        let shift = 128 - width;
        Value::from(((value << shift) as i128 >> shift) as i64)
    } else {
        Value::from(value as u64)
    }
}

/// The counterexample of a violation read as statements.
pub fn counterexample(cfa: &Cfa, t: &Trace) -> Value {
    let (pos, what) = t.failure.clone().unwrap_or_default();
    let inputs: Vec<Value> = t
        .inputs()
        .iter()
        .map(|i| {
            json!({
                "function": i.function,
                "type": c_type(cfa, i.ty),
                "value": number(i.value, i.ty.width, i.ty.signed),
                "position": position(i.pos.as_ref()),
            })
        })
        .collect();
    let uninitialised: Vec<Value> = t
        .uninitialised()
        .iter()
        .map(
            |&(v, value)| json!({"variable": c_name(cfa, v), "value": format_value(cfa, v, value)}),
        )
        .collect();
    json!({
        "violation": {"position": position(pos.as_ref()), "message": what},
        "inputs": inputs,
        "uninitialised": uninitialised,
        "before_main": t.before_main.iter().map(|e| executed(cfa, e)).collect::<Vec<_>>(),
        "steps": t.statements.iter().map(|e| executed(cfa, e)).collect::<Vec<_>>(),
    })
}

/// A counterexample that cannot be read as statements: the nondet values the engine's CFA
/// took, and why.
pub fn raw_counterexample(nondet: &[u128], why: &str) -> Value {
    json!({
        "nondet": nondet.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        "no_trace": why,
    })
}

/// One executed statement.
fn executed(cfa: &Cfa, e: &Executed) -> Value {
    let mut assignments = Vec::new();
    let mut conditions = Vec::new();
    let mut iterations = None;
    for eff in &e.effects {
        match eff {
            Effect::Assign { var, value } | Effect::Uninitialised { var, value }
                if cfa.var(*var).kind != bitmc::cfa::VarKind::Temporary =>
            {
                assignments.push(json!({
                    "variable": c_name(cfa, *var),
                    "value": format_value(cfa, *var, *value),
                }));
            }
            Effect::Condition(c) => conditions.push(Value::String(c.clone())),
            Effect::Iterations(n) => iterations = Some(n.to_string()),
            _ => {}
        }
    }
    json!({
        "position": position(e.pos.as_ref()),
        "statement": e.text,
        "function": e.function,
        "resumed": e.resumed,
        "assignments": assignments,
        "conditions": conditions,
        "iterations": iterations,
    })
}

/// The statistics of `-v` as an object: counters and reals as numbers (an undefined mean as
/// `null`), times as seconds, before/after pairs as `{"before": …, "after": …}`, flags as
/// booleans and texts as strings.
pub fn statistics(stats: &Stats) -> Value {
    let mut out = Map::new();
    for s in stats {
        let value = match &s.value {
            Stat::Count(n) => Value::from(*n),
            Stat::Real { value, .. } => value
                .and_then(serde_json::Number::from_f64)
                .map_or(Value::Null, Value::Number),
            Stat::Time(d) => Value::from(d.as_secs_f64()),
            Stat::Change { before, after } => json!({ "before": before, "after": after }),
            Stat::Flag(b) => Value::Bool(*b),
            Stat::Text(t) => Value::String(t.clone()),
        };
        out.insert(s.name.to_string(), value);
    }
    Value::Object(out)
}

/// What a `verify --json` run checks, for the document the watchdog writes when the run does
/// not stop in time.
#[derive(Clone)]
pub struct Pending {
    pub path: std::path::PathBuf,
    pub input: String,
    pub data_model: &'static str,
    pub properties: Vec<&'static str>,
    pub skipped: Vec<String>,
}

impl Pending {
    /// The document of a run stopped after `secs` seconds (`why`: the UNKNOWN's text): every
    /// property UNKNOWN.
    pub fn unanswered(&self, why: &str, engine: &str, secs: f64) -> Value {
        let properties: Vec<Value> = self
            .properties
            .iter()
            .map(|p| {
                json!({
                    "property": p,
                    "result": "unknown",
                    "verdict": "UNKNOWN",
                    "reason": why,
                    "engine": engine,
                    "time_s": secs,
                    "counterexample": Value::Null,
                    "statistics": {},
                })
            })
            .collect();
        self.document("UNKNOWN", super::EXIT_UNKNOWN, secs, properties)
    }

    /// The document of a run whose verdict line is `verdict`, with the properties' entries.
    pub fn document(&self, verdict: &str, exit: u8, secs: f64, properties: Vec<Value>) -> Value {
        json!({
            "format": FORMAT,
            "input": self.input,
            "data_model": self.data_model,
            "verdict": verdict,
            "exit_code": exit,
            "time_s": secs,
            "properties": properties,
            "skipped": self.skipped,
        })
    }
}

/// Writes the document to `path`, or to stdout for `-`.
pub fn write(path: &std::path::Path, doc: &Value) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(doc)? + "\n";
    if path.as_os_str() == "-" {
        print!("{text}");
        Ok(())
    } else {
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
    }
}
