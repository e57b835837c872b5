//! YAML witnesses, format 2.0: the file is parsed with `yaml-rust2`, converted to JSON and
//! validated against `tests/data/witness-2.0.schema.json` by the `jsonschema` crate (formats
//! such as `uuid` and `date-time` checked too); then the rules the schema cannot express are
//! checked here:
//!
//! - the file holds one entry (bitmc writes one per file);
//! - every input file has a hash, the program is the one input file, and its SHA-256 is the
//!   hash given;
//! - every location names an input file;
//! - in a `violation_sequence`, the one `follow` waypoint of each segment is its last
//!   waypoint, no `avoid` waypoint is a `target`, and the `target` waypoint ends the last
//!   segment and appears nowhere else (rendered schema: "zero or more waypoints with action
//!   avoid and exactly one waypoint of action follow at the end"; "exactly one final segment
//!   at the end");
//! - every `function_return` constraint reads `\result == <integer>`.
//!
//! The nondet values are those of the `follow` waypoints of type `function_return`, in order;
//! the `follow` waypoints of type `assumption` are what else the witness says holds on its path.

use super::{
    check_hash, data_model, resolve_program, result_value, Assumption, Check, Format, Invariant,
    Kind, Location, NondetValue, Property, Rejection, Witness,
};
use serde_json::{Map, Value};
use std::path::Path;
use std::sync::OnceLock;
use yaml_rust2::{Yaml, YamlLoader};

/// The schema, compiled once.
fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let text = include_str!("../data/witness-2.0.schema.json");
        let schema: Value = serde_json::from_str(text).expect("the witness schema is JSON");
        jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the witness schema is a valid JSON Schema")
    })
}

/// A YAML document as JSON (mapping keys become strings).
pub fn to_json(y: &Yaml) -> Result<Value, String> {
    Ok(match y {
        Yaml::Real(s) => s
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("the number `{s}` is not finite"))?,
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Null => Value::Null,
        Yaml::Array(a) => Value::Array(a.iter().map(to_json).collect::<Result<_, _>>()?),
        Yaml::Hash(h) => {
            let mut m = Map::new();
            for (k, v) in h {
                let key = match k {
                    Yaml::String(s) | Yaml::Real(s) => s.clone(),
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    _ => return Err(format!("a mapping key that is not a scalar: {k:?}")),
                };
                if m.insert(key.clone(), to_json(v)?).is_some() {
                    return Err(format!("the key `{key}` appears twice in one mapping"));
                }
            }
            Value::Object(m)
        }
        Yaml::Alias(_) => return Err("YAML aliases are not supported".into()),
        Yaml::BadValue => return Err("an unreadable YAML value".into()),
    })
}

/// Parse a YAML witness text into JSON (exactly one YAML document).
pub fn parse(text: &str) -> Result<Value, Rejection> {
    let docs = YamlLoader::load_from_str(text)
        .map_err(|e| Rejection::new(Check::Read, format!("not YAML: {e}")))?;
    let [doc] = docs.as_slice() else {
        return Err(Rejection::new(
            Check::Read,
            format!("{} YAML documents, expected one", docs.len()),
        ));
    };
    to_json(doc).map_err(|e| Rejection::new(Check::Read, e))
}

/// Validate JSON against the witness schema; the rejection lists the first few errors, each
/// with the path of the offending value.
pub fn check_schema(v: &Value) -> Result<(), Rejection> {
    let errors: Vec<String> = validator()
        .iter_errors(v)
        .take(8)
        .map(|e| format!("at `{}`: {e}", e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Rejection::new(Check::Schema, errors.join("; ")))
    }
}

fn structure(msg: impl Into<String>) -> Rejection {
    Rejection::new(Check::Structure, msg)
}

fn location(v: &Value) -> Location {
    Location {
        line: v["line"].as_u64().unwrap_or(0) as usize,
        column: v["column"].as_u64().map(|c| c as usize),
        function: v["function"].as_str().map(String::from),
    }
}

/// Read a YAML witness: parse, schema, structure, hash; `path` is the witness file.
pub fn read(path: &Path, text: &str) -> Result<Witness, Rejection> {
    let doc = parse(text)?;
    check_schema(&doc)?;
    let entries = doc.as_array().map(Vec::as_slice).unwrap_or(&[]);
    let [entry] = entries else {
        return Err(structure(format!(
            "{} entries in the file, expected one",
            entries.len()
        )));
    };
    let meta = &entry["metadata"];
    let task = &meta["task"];
    let files: Vec<&str> = task["input_files"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let [program_name] = files.as_slice() else {
        return Err(structure(format!(
            "{} input files; this validator handles programs of one file",
            files.len()
        )));
    };
    let hashes = task["input_file_hashes"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let Some(hash) = hashes.get(*program_name).and_then(Value::as_str) else {
        return Err(structure(format!(
            "input_file_hashes has no hash for the input file `{program_name}`"
        )));
    };
    if let Some(other) = hashes.keys().find(|k| k.as_str() != *program_name) {
        return Err(structure(format!(
            "input_file_hashes names `{other}`, which is not an input file"
        )));
    }
    let program = resolve_program(path, program_name)?;
    check_hash(&program, hash)?;
    let spec = task["specification"].as_str().unwrap_or("");
    let property = Property::from_specification(spec).ok_or_else(|| {
        structure(format!(
            "the specification `{spec}` is neither unreach-call nor no-overflow"
        ))
    })?;
    let dm = data_model(task["data_model"].as_str().unwrap_or("")).expect("checked by the schema");
    let producer = &meta["producer"];
    let mut producer_text = format!(
        "{} {}",
        producer["name"].as_str().unwrap_or(""),
        producer["version"].as_str().unwrap_or("")
    );
    if let Some(c) = producer["configuration"].as_str() {
        producer_text.push_str(&format!(" ({c})"));
    }
    let mut w = Witness {
        format: Format::Yaml,
        kind: Kind::Violation,
        path: path.to_path_buf(),
        program,
        property,
        data_model: dm,
        producer: producer_text,
        values: Vec::new(),
        target: None,
        assumptions: Vec::new(),
        invariants: Vec::new(),
    };
    let check_file = |loc: &Value| -> Result<(), Rejection> {
        let f = loc["file_name"].as_str().unwrap_or("");
        if f == *program_name {
            Ok(())
        } else {
            Err(structure(format!(
                "a location names the file `{f}`, which is not the input file `{program_name}`"
            )))
        }
    };
    let content = entry["content"].as_array().cloned().unwrap_or_default();
    match entry["entry_type"].as_str() {
        Some("violation_sequence") => {
            let n = content.len();
            for (i, seg) in content.iter().enumerate() {
                let wps = seg["segment"].as_array().cloned().unwrap_or_default();
                let last = i + 1 == n;
                for (j, wp) in wps.iter().enumerate() {
                    let wp = &wp["waypoint"];
                    check_file(&wp["location"])?;
                    let ty = wp["type"].as_str().unwrap_or("");
                    let follow = wp["action"].as_str() == Some("follow");
                    let at_end = j + 1 == wps.len();
                    let loc = location(&wp["location"]);
                    if follow != at_end {
                        return Err(structure(format!(
                            "segment {} has its follow waypoint at position {} of {}: it must be the last",
                            i + 1,
                            j + 1,
                            wps.len()
                        )));
                    }
                    if ty == "target" && !(last && at_end) {
                        return Err(structure(format!(
                            "a target waypoint ({loc}) in segment {} of {}: only the last waypoint of the last segment may be the target",
                            i + 1,
                            n
                        )));
                    }
                    if last && at_end && ty != "target" {
                        return Err(structure(format!(
                            "the last segment ends with a `{ty}` waypoint, not the target"
                        )));
                    }
                    match (ty, follow) {
                        ("target", _) => w.target = Some(loc),
                        ("function_return", true) => {
                            let c = wp["constraint"]["value"].as_str().unwrap_or("");
                            let value = result_value(c).ok_or_else(|| {
                                structure(format!(
                                    "the function_return constraint `{c}` ({loc}) is not `\\result == <integer>`"
                                ))
                            })?;
                            w.values.push(NondetValue {
                                value,
                                function: None,
                                location: Some(loc),
                            });
                        }
                        ("assumption", true) => {
                            let c = wp["constraint"]["value"].as_str().unwrap_or("");
                            w.assumptions.push(Assumption {
                                expr: c.to_string(),
                                location: loc,
                                after_values: w.values.len(),
                            });
                        }
                        _ => {}
                    }
                }
            }
        }
        Some("invariant_set") => {
            w.kind = Kind::Correctness;
            for item in &content {
                let inv = &item["invariant"];
                check_file(&inv["location"])?;
                if inv["type"].as_str() != Some("loop_invariant") {
                    return Err(structure(format!(
                        "an invariant of type `{}`: this validator checks loop invariants only",
                        inv["type"].as_str().unwrap_or("")
                    )));
                }
                w.invariants.push(Invariant {
                    location: location(&inv["location"]),
                    expr: inv["value"].as_str().unwrap_or("").to_string(),
                });
            }
        }
        other => {
            return Err(structure(format!("entry type {other:?}")));
        }
    }
    Ok(w)
}
