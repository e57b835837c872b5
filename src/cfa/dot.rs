//! Graphviz DOT form of a CFA: one node per location (the error location a red double octagon,
//! sinks orange, exit a double circle, loop heads bold), one edge per CFA edge labelled with its
//! commands (long labels are shortened).

use super::{Cfa, LocKind};
use std::fmt::Write;

/// Escapes a string for a double-quoted DOT label (lines end with `\l`, left-aligned).
fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\l"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

const MAX_LABEL_LINES: usize = 30;
const MAX_LINE_CHARS: usize = 120;

impl Cfa {
    /// The CFA in Graphviz DOT syntax.
    pub fn to_dot(&self) -> String {
        let mut s = String::new();
        let heads = self.loop_heads();
        let _ = writeln!(s, "digraph cfa {{");
        let _ = writeln!(
            s,
            "  node [shape=box, fontname=\"monospace\", fontsize=10];"
        );
        let _ = writeln!(s, "  edge [fontname=\"monospace\", fontsize=9];");
        for (i, info) in self.locations.iter().enumerate() {
            let l = super::Loc(i as u32);
            let style = match &info.kind {
                LocKind::Init => ", shape=invhouse",
                LocKind::Error => ", shape=doubleoctagon, color=red, fontcolor=red",
                LocKind::Exit => ", shape=doublecircle",
                LocKind::Sink(_) => ", shape=octagon, color=orange",
                LocKind::Normal if heads[i] => ", shape=ellipse, style=bold",
                LocKind::Normal => ", shape=ellipse",
            };
            let _ = writeln!(
                s,
                "  n{i} [label=\"{}\"{style}];",
                escape(&self.loc_label(l))
            );
        }
        for e in &self.edges {
            let mut text = String::new();
            let _ = self.write_gcl(&e.cmd, 0, &mut text);
            let mut lines: Vec<String> = text
                .lines()
                .map(|l| {
                    if l.chars().count() > MAX_LINE_CHARS {
                        let mut t: String = l.chars().take(MAX_LINE_CHARS).collect();
                        t.push_str(" ...");
                        t
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            if lines.len() > MAX_LABEL_LINES {
                let more = lines.len() - MAX_LABEL_LINES;
                lines.truncate(MAX_LABEL_LINES);
                lines.push(format!("... ({more} more lines)"));
            }
            let mut label = String::new();
            for l in lines {
                label.push_str(&escape(&l));
                label.push_str("\\l");
            }
            let _ = writeln!(
                s,
                "  n{} -> n{} [label=\"{label}\"];",
                e.from.index(),
                e.to.index()
            );
        }
        let _ = writeln!(s, "}}");
        s
    }
}
