//! Printing a replayed counterexample of a C program: per step the source lines executed, the
//! program variables written with their values, and the nondet values taken.

use crate::cfa::{interp, Cfa, Gcl, HavocKind, PVar, VarKind};
use std::fmt::Write;

/// `value` of a variable of the given type: decimal (signed when the type is), and hex too for
/// unsigned types wider than one bit.
pub fn format_value(cfa: &Cfa, v: PVar, value: u128) -> String {
    let ty = cfa.var(v).ty;
    if ty.signed {
        crate::bv::value::to_signed(value, ty.width).to_string()
    } else if ty.width > 1 && value > 9 {
        format!("{value} (0x{value:x})")
    } else {
        value.to_string()
    }
}

/// The atoms of a command that assign or havoc, in execution order.
fn writing_atoms(g: &Gcl) -> Vec<&Gcl> {
    let mut out = Vec::new();
    g.for_each_atom(&mut |a| {
        if matches!(a, Gcl::Assign(..) | Gcl::Havoc(..)) {
            out.push(a);
        }
    });
    out
}

/// A readable trace of a replayed execution.
pub fn format_trace(cfa: &Cfa, steps: &[interp::Step], outcome: &interp::Outcome) -> String {
    let mut s = String::new();
    let mut last_line: Option<(String, u32)> = None;
    let mut known: std::collections::HashMap<PVar, u128> = std::collections::HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        let edge = cfa.edge(step.edge);
        let atoms = writing_atoms(&edge.cmd);
        let _ = writeln!(
            s,
            "step {}: {} -> {}",
            i + 1,
            cfa.loc_label(edge.from),
            cfa.loc_label(edge.to)
        );
        // Match each write to the next atom writing the same variable (atoms execute in order).
        let mut next_atom = 0;
        for &(v, value) in &step.writes {
            let mut origin = None;
            let mut nondet = None;
            while next_atom < atoms.len() {
                let a = atoms[next_atom];
                next_atom += 1;
                match a {
                    Gcl::Assign(w, _, o) if *w == v => {
                        origin = cfa.origin(*o);
                        break;
                    }
                    Gcl::Havoc(w, kind, o) if *w == v => {
                        origin = cfa.origin(*o);
                        nondet = Some(kind);
                        break;
                    }
                    _ => {}
                }
            }
            // Assignments that leave a value unchanged (e.g. the untouched elements of an
            // array written at a symbolic index) are not shown.
            let unchanged = nondet.is_none() && known.get(&v) == Some(&value);
            known.insert(v, value);
            if unchanged {
                continue;
            }
            if let Some(o) = origin {
                if let Some(pos) = &o.pos {
                    let key = (pos.file.to_string(), pos.line);
                    if last_line.as_ref() != Some(&key) {
                        let _ = writeln!(s, "  line {}: {}", pos.line, o.text);
                        last_line = Some(key);
                    }
                }
            }
            let info = cfa.var(v);
            let val = format_value(cfa, v, value);
            // The variable a nondet value goes to, unless it is the call's own result variable.
            let target = if matches!(info.kind, VarKind::Temporary | VarKind::Nondet) {
                String::new()
            } else {
                format!("  -> {}", info.name)
            };
            match nondet {
                Some(HavocKind::NondetCall { function, .. }) => {
                    let _ = writeln!(s, "    {function}() = {val}{target}");
                }
                Some(HavocKind::UndefinedCall { function, .. }) => {
                    let _ = writeln!(s, "    {function}() (undefined, nondet) = {val}{target}");
                }
                Some(HavocKind::Iterations) => {
                    let _ = writeln!(s, "    {val} more iterations");
                }
                Some(HavocKind::Uninitialized) => {
                    let _ = writeln!(s, "    {} = {val}  (uninitialised, nondet)", info.name);
                }
                None if info.kind == VarKind::Temporary => {}
                None => {
                    let _ = writeln!(s, "    {} = {val}", info.name);
                }
            }
        }
    }
    match outcome {
        interp::Outcome::Error { property, loc } => {
            let where_ = cfa.locations[loc.index()]
                .pos
                .as_ref()
                .map(|p| format!(" at line {}", p.line))
                .unwrap_or_default();
            let _ = writeln!(s, "violation of {property}{where_}");
        }
        other => {
            let _ = writeln!(s, "end: {other:?}");
        }
    }
    s
}
