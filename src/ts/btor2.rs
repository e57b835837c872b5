//! BTOR2 (Niemetz, Preiner, Wolf and Biere, "BTOR2, BtorMC and Boolector 3.0"), the word-level
//! format of the hardware model-checking competition: a C program's system before
//! bit-blasting ([`WordLevel`]), so that word-level checkers (BtorMC, pono, AVR) run on
//! exactly the encoding bitmc's engines see bit-blasted.
//!
//! What is written: one `sort bitvec w` per width used (`bool` is `bitvec 1`); a `state` per
//! program-counter term, with an `init` to the initial location, and per state variable
//! (uninitialised: every initial value; the bit-level system starts them at 0, the same runs
//! since the CFA writes every variable before reading it); an `input` per slot; a `next`
//! per state; the program counter's range as a `constraint`; the error location as the one
//! `bad` property. Terms are written once each, in the arena's order (arguments first).
//! The operators are BTOR2's own with the same semantics (SMT-LIB's division by zero and
//! shifts by the width or more, as [`crate::bv::value`]).
//!
//! The system and its names are [`super::word_export`]'s, shared with the VMT export:
//! the program counter is `pc` (or `pc:L<l>` and `pc:done` one-hot), a state variable has its
//! CFA name, a slot is `nondet[k]`; characters BTOR2 does not allow in a symbol (blanks)
//! become `_`.

use super::program::ProgramSystem;
use super::word_export::{cone_in_order, exported_system, variable_name};
use crate::bv::{Node, Op, Sort, TermId, TermManager};
use crate::cfa::Cfa;
use std::collections::HashMap;
use std::fmt::Write;

/// The BTOR2 text of a program's system, with `comments` first (`;` lines).
pub fn write(cfa: &Cfa, ps: &ProgramSystem, comments: &[String]) -> String {
    let mut w = Writer::new(&ps.tm);
    for c in comments {
        for line in c.lines() {
            let _ = writeln!(w.out, "; {line}");
        }
    }
    let sys = exported_system(cfa, ps);
    // The initial values first (BTOR2 readers want an `init`'s value defined before its
    // state), then the states and inputs, so that the terms over them can name them.
    let inits: Vec<Option<u64>> = (sys.states.iter())
        .map(|s| s.init.map(|v| w.constant(v, ps.tm.width(s.term))))
        .collect();
    let ids: Vec<u64> = (sys.states.iter())
        .map(|s| w.leaf(s.term, "state", &s.name))
        .collect();
    for i in &sys.inputs {
        w.leaf(i.term, "input", &i.name);
    }
    for ((s, &id), init) in sys.states.iter().zip(&ids).zip(&inits) {
        if let Some(c) = init {
            let sort = w.sort(ps.tm.sort(s.term));
            w.line(&format!("init {sort} {id} {c}"));
        }
    }
    for (s, &id) in sys.states.iter().zip(&ids) {
        let n = w.term(s.next);
        let sort = w.sort(ps.tm.sort(s.term));
        w.line(&format!("next {sort} {id} {n}"));
    }
    if let Some(r) = sys.constraint {
        let c = w.term(r);
        w.line(&format!("constraint {c}"));
    }
    let b = w.term(sys.bad);
    w.line(&format!("bad {b} error"));
    w.out
}

/// The text being written and the ids given so far.
struct Writer<'a> {
    tm: &'a TermManager,
    out: String,
    last: u64,
    sorts: HashMap<u32, u64>,
    terms: HashMap<TermId, u64>,
    consts: HashMap<(u128, u32), u64>,
}

impl<'a> Writer<'a> {
    fn new(tm: &'a TermManager) -> Self {
        Writer {
            tm,
            out: String::new(),
            last: 0,
            sorts: HashMap::new(),
            terms: HashMap::new(),
            consts: HashMap::new(),
        }
    }

    fn fresh(&mut self) -> u64 {
        self.last += 1;
        self.last
    }

    /// A line with a fresh id: `<id> <text>`.
    fn line(&mut self, text: &str) -> u64 {
        let id = self.fresh();
        let _ = writeln!(self.out, "{id} {text}");
        id
    }

    /// The id of the sort of `s`, declared on first use.
    fn sort(&mut self, s: Sort) -> u64 {
        let w = s.width();
        if let Some(&id) = self.sorts.get(&w) {
            return id;
        }
        let id = self.fresh();
        let _ = writeln!(self.out, "{id} sort bitvec {w}");
        self.sorts.insert(w, id);
        id
    }

    /// A `state` or `input` for the variable term `t`.
    fn leaf(&mut self, t: TermId, kind: &str, name: &str) -> u64 {
        let sort = self.sort(self.tm.sort(t));
        let id = self.fresh();
        let name: String = name
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        let _ = writeln!(self.out, "{id} {kind} {sort} {name}");
        self.terms.insert(t, id);
        id
    }

    /// The constant `v` of `width` bits.
    fn constant(&mut self, v: u128, width: u32) -> u64 {
        if let Some(&id) = self.consts.get(&(v, width)) {
            return id;
        }
        let sort = self.sort(Sort::Bv(width));
        let id = self.fresh();
        let bits: String = (0..width)
            .rev()
            .map(|b| if (v >> b) & 1 == 1 { '1' } else { '0' })
            .collect();
        let _ = writeln!(self.out, "{id} const {sort} {bits}");
        self.consts.insert((v, width), id);
        id
    }

    /// The id of term `t`, its cone written first (in the arena's order, so arguments come
    /// before the terms that use them). A variable that is neither a state nor a slot is an
    /// input of its own.
    fn term(&mut self, t: TermId) -> u64 {
        for x in cone_in_order(self.tm, &[t], |x| self.terms.contains_key(&x)) {
            let id = self.node(x);
            self.terms.insert(x, id);
        }
        self.terms[&t]
    }

    /// Writes one term whose arguments have ids.
    fn node(&mut self, x: TermId) -> u64 {
        let tm = self.tm;
        match tm.node(x) {
            Node::Const(v) => self.constant(v, tm.width(x)),
            Node::Var(_) => self.leaf(x, "input", &variable_name(tm, x)),
            Node::App(op, _) => {
                let args: Vec<u64> = tm.args(x).iter().map(|a| self.terms[a]).collect();
                let sort = self.sort(tm.sort(x));
                let a0 = tm.args(x)[0];
                let (name, extra) = match op {
                    Op::Extract { hi, lo } => ("slice", format!(" {hi} {lo}")),
                    Op::Zext(w) => ("uext", format!(" {}", w - tm.width(a0))),
                    Op::Sext(w) => ("sext", format!(" {}", w - tm.width(a0))),
                    op => (btor2_name(op), String::new()),
                };
                let id = self.fresh();
                let list: Vec<String> = args.iter().map(u64::to_string).collect();
                let _ = writeln!(self.out, "{id} {name} {sort} {}{extra}", list.join(" "));
                id
            }
        }
    }
}

/// BTOR2's name of an operator (the extraction and extensions take parameters and are
/// written by the caller).
fn btor2_name(op: Op) -> &'static str {
    match op {
        Op::Not => "not",
        Op::And => "and",
        Op::Or => "or",
        Op::Xor => "xor",
        Op::Neg => "neg",
        Op::Add => "add",
        Op::Sub => "sub",
        Op::Mul => "mul",
        Op::Udiv => "udiv",
        Op::Urem => "urem",
        Op::Sdiv => "sdiv",
        Op::Srem => "srem",
        Op::Shl => "sll",
        Op::Lshr => "srl",
        Op::Ashr => "sra",
        Op::Concat => "concat",
        Op::Eq => "eq",
        Op::Ult => "ult",
        Op::Ule => "ulte",
        Op::Slt => "slt",
        Op::Sle => "slte",
        Op::Ite => "ite",
        Op::Extract { .. } => "slice",
        Op::Zext(_) => "uext",
        Op::Sext(_) => "sext",
    }
}
