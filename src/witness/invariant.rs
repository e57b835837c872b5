//! Writing inductive invariants for users: as DIMACS clauses over the system's variables, and,
//! for C programs, as one C expression per location over the program variables.
//!
//! The invariant of a program's system is a set of clauses over the program-counter bits and
//! the bits of the state variables. For a location `l`, fixing the program counter to `l`'s code
//! leaves clauses over program-variable bits; each bit literal is written as
//! `((x >> i) & 1) == v` (with the variable's C name), so the expression is side-effect free
//! and, read as C, means exactly the clause set.

use crate::cfa::{Cfa, Loc, LocKind};
use crate::cnf::Cnf;
use crate::engine::Conjunct;
use crate::sat::{Lit, Var};
use crate::ts::invariants::c_name;
use crate::ts::program::{PcEncoding, ProgramSystem};
use std::collections::HashMap;
use std::fmt::Write;

/// The clauses in DIMACS form (variable `v` is `v + 1`), one per line ending in `0`, after a
/// header line `p inv <vars> <clauses>` and comment lines.
pub fn to_dimacs(inv: &Cnf, num_vars: u32, comments: &[String]) -> String {
    let mut s = String::new();
    for c in comments {
        let _ = writeln!(s, "c {c}");
    }
    let _ = writeln!(s, "p inv {num_vars} {}", inv.len());
    for clause in inv.iter() {
        for l in clause {
            let _ = write!(s, "{} ", l.to_dimacs());
        }
        s.push_str("0\n");
    }
    s
}

/// The invariant at each location of a program (locations where it is `0`, i.e. unreachable,
/// and the target locations are left out), as C expressions.
pub fn c_invariants(cfa: &Cfa, ps: &ProgramSystem, inv: &Cnf) -> Vec<(Loc, Vec<Conjunct>)> {
    // What each system variable stands for: a pc bit, or bit `i` of a program variable.
    let mut pc_bit: HashMap<Var, usize> = HashMap::new();
    for (k, &j) in ps.pc_latches.iter().enumerate() {
        if let Some(v) = ps.latch_var[j] {
            pc_bit.insert(v, k);
        }
    }
    let mut var_bit: HashMap<Var, (&str, usize)> = HashMap::new();
    for (pv, latches) in &ps.state {
        for (i, &j) in latches.iter().enumerate() {
            if let Some(v) = ps.latch_var[j] {
                var_bit.insert(v, (cfa.var(*pv).name.as_str(), i));
            }
        }
    }
    let mut out = Vec::new();
    for (l, info) in cfa.locations.iter().enumerate() {
        if matches!(info.kind, LocKind::Error | LocKind::Sink(_)) {
            continue;
        }
        // The value of each pc bit at this location.
        let pc_value = |k: usize| match ps.pc {
            PcEncoding::Binary => (l >> k) & 1 == 1,
            PcEncoding::OneHot => k == l,
        };
        let mut conj: Vec<Conjunct> = Vec::new();
        let mut unreachable = false;
        'clauses: for clause in inv.iter() {
            let mut disj: Vec<String> = Vec::new();
            let mut vars: Vec<String> = Vec::new();
            for &lit in clause {
                match lit_at(lit, &pc_bit, pc_value) {
                    Some(true) => continue 'clauses,
                    Some(false) => {}
                    None => match var_bit.get(&lit.var()) {
                        Some((name, i)) => {
                            let v = !lit.is_negated() as u8;
                            disj.push(format!("(({} >> {i}) & 1) == {v}", c_name(name)));
                            vars.push(name.to_string());
                        }
                        // A literal of a variable that is neither: the clause is not expressible.
                        None => continue 'clauses,
                    },
                }
            }
            if disj.is_empty() {
                unreachable = true;
                break;
            }
            disj.sort();
            disj.dedup();
            vars.sort();
            vars.dedup();
            let text = disj.join(" || ");
            if !conj.iter().any(|c| c.text == text) {
                conj.push(Conjunct { text, vars });
            }
        }
        if unreachable {
            continue;
        }
        out.push((Loc(l as u32), conj));
    }
    out
}

/// The value of a pc-bit literal at a location, `None` for other literals.
fn lit_at(
    lit: Lit,
    pc_bit: &HashMap<Var, usize>,
    pc_value: impl Fn(usize) -> bool,
) -> Option<bool> {
    pc_bit
        .get(&lit.var())
        .map(|&k| pc_value(k) != lit.is_negated())
}
