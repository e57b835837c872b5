//! Witnesses in GraphML, format 1.0 (Beyer et al., "Verification Witnesses"): a witness
//! automaton over the program's source lines.
//!
//! - Violation: a path from the entry node through one edge per nondet value (its line, the
//!   assumption `\result == V;` with the function as `assumption.resultfunction`) and one per
//!   value of an uninitialised variable the run reads (the line of the reading statement, the
//!   assumption `x == V;`, when the statement does not change `x`) to the violation node,
//!   entered at the line of the failing statement.
//! - Correctness: the entry node and one node per loop invariant, entered from every node at
//!   the loop's line with `enterLoopHead`; with no invariant, the entry node alone (the trivial
//!   witness).

use super::{Content, LoopInvariant, Metadata, Waypoint, WaypointKind, Witness};
use std::fmt::Write;

/// The keys the witnesses use: (id, domain, type, default).
const KEYS: &[(&str, &str, &str, Option<&str>)] = &[
    ("witness-type", "graph", "string", None),
    ("sourcecodelang", "graph", "string", None),
    ("producer", "graph", "string", None),
    ("specification", "graph", "string", None),
    ("programfile", "graph", "string", None),
    ("programhash", "graph", "string", None),
    ("architecture", "graph", "string", None),
    ("creationtime", "graph", "string", None),
    ("entry", "node", "boolean", Some("false")),
    ("violation", "node", "boolean", Some("false")),
    ("invariant", "node", "string", None),
    ("invariant.scope", "node", "string", None),
    ("startline", "edge", "int", None),
    ("assumption", "edge", "string", None),
    ("assumption.scope", "edge", "string", None),
    ("assumption.resultfunction", "edge", "string", None),
    ("enterLoopHead", "edge", "boolean", Some("false")),
];

/// XML text with `&`, `<`, `>` and `"` escaped.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn data(out: &mut String, indent: &str, key: &str, value: &str) {
    let _ = writeln!(out, "{indent}<data key=\"{key}\">{}</data>", esc(value));
}

fn header(out: &mut String, m: &Metadata, note: Option<&str>, kind: &str) {
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    if let Some(note) = note {
        // `--` may not appear inside an XML comment.
        let _ = writeln!(out, "<!-- {} -->", note.replace("--", "- -"));
    }
    out.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (id, domain, ty, default) in KEYS {
        match default {
            Some(d) => {
                let _ = writeln!(
                    out,
                    " <key attr.name=\"{id}\" attr.type=\"{ty}\" for=\"{domain}\" id=\"{id}\">\n  <default>{d}</default>\n </key>"
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    " <key attr.name=\"{id}\" attr.type=\"{ty}\" for=\"{domain}\" id=\"{id}\"/>"
                );
            }
        }
    }
    out.push_str(" <graph edgedefault=\"directed\">\n");
    let i = "  ";
    data(out, i, "witness-type", kind);
    data(out, i, "sourcecodelang", "C");
    data(
        out,
        i,
        "producer",
        &format!("bitmc {} ({})", m.version, m.configuration),
    );
    data(out, i, "specification", &m.specification);
    data(out, i, "programfile", &m.program);
    data(out, i, "programhash", &m.program_hash);
    data(out, i, "architecture", m.architecture());
    data(out, i, "creationtime", &m.creation_time);
}

fn node(out: &mut String, id: &str, data_items: &[(&str, &str)]) {
    if data_items.is_empty() {
        let _ = writeln!(out, "  <node id=\"{id}\"/>");
        return;
    }
    let _ = writeln!(out, "  <node id=\"{id}\">");
    for (k, v) in data_items {
        data(out, "   ", k, v);
    }
    out.push_str("  </node>\n");
}

fn edge(out: &mut String, from: &str, to: &str, data_items: &[(&str, &str)]) {
    let _ = writeln!(out, "  <edge source=\"{from}\" target=\"{to}\">");
    for (k, v) in data_items {
        data(out, "   ", k, v);
    }
    out.push_str("  </edge>\n");
}

/// The witness as a GraphML document.
pub fn write(w: &Witness) -> String {
    let mut out = String::new();
    let kind = match &w.content {
        Content::Violation(_) => "violation_witness",
        Content::Correctness(_) => "correctness_witness",
    };
    header(&mut out, &w.meta, w.note.as_deref(), kind);
    node(&mut out, "N0", &[("entry", "true")]);
    match &w.content {
        Content::Violation(points) => violation_path(&mut out, points),
        Content::Correctness(invs) => loop_head_nodes(&mut out, invs),
    }
    out.push_str(" </graph>\n</graphml>\n");
    out
}

/// The path of a violation witness after its entry node `N0`: an edge into a node of its own
/// per waypoint it states, the last one into the violation node.
fn violation_path(out: &mut String, points: &[Waypoint]) {
    let mut prev = "N0".to_string();
    for (i, p) in points.iter().enumerate() {
        let id = format!("N{}", i + 1);
        let line = p.pos.line.to_string();
        let (assumption, result_function) = match &p.kind {
            WaypointKind::Return { function, value } => {
                (format!("\\result == {value};"), Some(function.as_str()))
            }
            WaypointKind::Assumption {
                constraint,
                holds_after,
            } => {
                // An edge's assumption holds after its statement: only where that statement
                // leaves it true.
                if !holds_after {
                    continue;
                }
                (format!("{constraint};"), None)
            }
            WaypointKind::Target => {
                node(out, &id, &[("violation", "true")]);
                edge(out, &prev, &id, &[("startline", line.as_str())]);
                prev = id;
                continue;
            }
        };
        node(out, &id, &[]);
        let mut items = vec![
            ("startline", line.as_str()),
            ("assumption", assumption.as_str()),
        ];
        if let Some(f) = result_function {
            items.push(("assumption.resultfunction", f));
        }
        if let Some(f) = &p.function {
            items.push(("assumption.scope", f.as_str()));
        }
        edge(out, &prev, &id, &items);
        prev = id;
    }
}

/// The nodes after the entry node `N0` of a correctness witness, one per loop invariant, and
/// their edges: each entered from every node at the loop's line.
fn loop_head_nodes(out: &mut String, invs: &[LoopInvariant]) {
    let ids: Vec<String> = (1..=invs.len()).map(|i| format!("N{i}")).collect();
    for (id, inv) in ids.iter().zip(invs) {
        node(
            out,
            id,
            &[
                ("invariant", inv.value.as_str()),
                ("invariant.scope", inv.function.as_str()),
            ],
        );
    }
    let sources: Vec<&str> = std::iter::once("N0")
        .chain(ids.iter().map(String::as_str))
        .collect();
    for (id, inv) in ids.iter().zip(invs) {
        let line = inv.pos.line.to_string();
        for from in &sources {
            edge(
                out,
                from,
                id,
                &[("startline", line.as_str()), ("enterLoopHead", "true")],
            );
        }
    }
}
