//! Witnesses in YAML, format 2.0 (Ayaziová, Beyer, Lingsch-Rosenfeld, Spiessl, Strejček,
//! "Software Verification Witnesses 2.0"): one entry, a `violation_sequence` or an
//! `invariant_set`, with its metadata. A violation sequence has one segment per waypoint, each
//! ending in that waypoint with action `follow`; nondet values are `function_return`
//! waypoints at the call's closing parenthesis with the ACSL constraint `\result == V`, values
//! of uninitialised variables `assumption` waypoints at the start of the statement that reads
//! them, with the C expression `x == V`.

use super::{Content, LoopInvariant, Metadata, SrcPos, Waypoint, WaypointKind, Witness};
use yaml_rust2::yaml::{Array, Hash};
use yaml_rust2::{Yaml, YamlEmitter};

fn s(v: &str) -> Yaml {
    Yaml::String(v.to_string())
}

fn map(entries: Vec<(&str, Yaml)>) -> Yaml {
    let mut h = Hash::new();
    for (k, v) in entries {
        h.insert(s(k), v);
    }
    Yaml::Hash(h)
}

fn metadata(m: &Metadata) -> Yaml {
    let mut hashes = Hash::new();
    hashes.insert(s(&m.program), s(&m.program_hash));
    map(vec![
        ("format_version", s("2.0")),
        ("uuid", s(&m.uuid)),
        ("creation_time", s(&m.creation_time)),
        (
            "producer",
            map(vec![
                ("name", s("bitmc")),
                ("version", s(&m.version)),
                ("configuration", s(&m.configuration)),
            ]),
        ),
        (
            "task",
            map(vec![
                ("input_files", Yaml::Array(vec![s(&m.program)])),
                ("input_file_hashes", Yaml::Hash(hashes)),
                ("specification", s(&m.specification)),
                ("data_model", s(m.data_model_name())),
                ("language", s("C")),
            ]),
        ),
    ])
}

fn location(m: &Metadata, pos: &SrcPos, function: Option<&str>) -> Yaml {
    let (line, col) = (pos.line, pos.col);
    let mut entries = vec![
        ("file_name", s(m.file_of(pos))),
        ("line", Yaml::Integer(line as i64)),
        ("column", Yaml::Integer(col as i64)),
    ];
    if let Some(f) = function {
        entries.push(("function", s(f)));
    }
    map(entries)
}

fn waypoint(m: &Metadata, w: &Waypoint) -> Yaml {
    let loc = location(m, &w.pos, w.function.as_deref());
    let mut entries = vec![];
    match &w.kind {
        WaypointKind::Return { value, .. } => {
            entries.push(("type", s("function_return")));
            entries.push(("action", s("follow")));
            entries.push((
                "constraint",
                map(vec![
                    ("value", s(&format!("\\result == {value}"))),
                    ("format", s("acsl_expression")),
                ]),
            ));
            entries.push(("location", loc));
        }
        WaypointKind::Assumption { constraint, .. } => {
            entries.push(("type", s("assumption")));
            entries.push(("action", s("follow")));
            entries.push((
                "constraint",
                map(vec![
                    ("value", s(constraint)),
                    ("format", s("c_expression")),
                ]),
            ));
            entries.push(("location", loc));
        }
        WaypointKind::Target => {
            entries.push(("type", s("target")));
            entries.push(("action", s("follow")));
            entries.push(("location", loc));
        }
    }
    map(vec![("waypoint", map(entries))])
}

fn invariant(m: &Metadata, inv: &LoopInvariant) -> Yaml {
    map(vec![(
        "invariant",
        map(vec![
            ("type", s("loop_invariant")),
            ("location", location(m, &inv.pos, Some(&inv.function))),
            ("value", s(&inv.value)),
            ("format", s("c_expression")),
        ]),
    )])
}

/// The witness as a YAML 2.0 document.
pub fn write(w: &Witness) -> String {
    let (kind, content): (&str, Array) = match &w.content {
        Content::Violation(points) => (
            "violation_sequence",
            points
                .iter()
                .map(|p| map(vec![("segment", Yaml::Array(vec![waypoint(&w.meta, p)]))]))
                .collect(),
        ),
        Content::Correctness(invs) => (
            "invariant_set",
            invs.iter().map(|i| invariant(&w.meta, i)).collect(),
        ),
    };
    let doc = Yaml::Array(vec![map(vec![
        ("entry_type", s(kind)),
        ("metadata", metadata(&w.meta)),
        ("content", Yaml::Array(content)),
    ])]);
    let mut out = String::new();
    if let Some(note) = &w.note {
        for line in note.lines() {
            out.push_str(&format!("# {line}\n"));
        }
    }
    let mut emitter = YamlEmitter::new(&mut out);
    // Writing into a String cannot fail.
    let _ = emitter.dump(&doc);
    out.push('\n');
    out
}
