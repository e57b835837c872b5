//! VMT (Cimatti, Griggio et al.; the input format of ic3ia and EUForia): a C program's system
//! before bit-blasting as SMT-LIB 2 text, the same system and names the BTOR2 export writes
//! ([`super::word_export`]), for model checkers that read SMT-LIB rather than BTOR2.
//!
//! What is written: per state word `x` (sort `Bool` or `(_ BitVec w)`) the declared variables
//! `x` and `x.next` and `(define-fun .x () S (! x :next x.next))`; per input (slot) a declared
//! variable without `:next`; every term of the system once, as `(define-fun t<i> () S ...)`,
//! in the arena's order (arguments first; constants inline); the initial condition (the
//! program counter at the initial location, and the constraint) as a definition annotated
//! `:init true`; the transition relation (`x.next` equal to each next-state term, and the
//! constraint over the current and over the next state) annotated `:trans true`; the property
//! "not bad" annotated `:invar-property 0`.
//!
//! Operators are SMT-LIB's QF_BV ones with the same semantics as [`crate::bv::value`]
//! (`bvudiv`/`bvurem`/`bvsdiv`/`bvsrem` by zero and over-wide shifts are defined alike);
//! bitmc's `not`/`and`/`or`/`xor` are the core ones on `Bool` and `bvnot`/`bvand`/... on
//! bit-vectors, its extensions to a width are `(_ zero_extend k)`/`(_ sign_extend k)` by the
//! difference `k`, its extraction `(_ extract hi lo)`.
//!
//! Symbols: every name is unique in the file (a name met before, or one of SMT-LIB's reserved
//! words and QF_BV's function names, gets the first free suffix `~2`, `~3`, ...); `|` and `\`,
//! which a quoted symbol cannot hold, become `_`; a name that is not a simple symbol (`pc:L3`,
//! `nondet[0]`, `main::x`) is written quoted, `|nondet[0]|`.

use super::program::ProgramSystem;
use super::word_export::{cone_in_order, exported_system, variable_name, ExportedState};
use crate::bv::{Node, Op, Sort, TermId, TermManager};
use crate::cfa::Cfa;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// The VMT text of a program's system, with `comments` first (`;` lines).
pub fn write(cfa: &Cfa, ps: &ProgramSystem, comments: &[String]) -> String {
    let mut w = Writer::new(&ps.tm);
    for c in comments {
        for line in c.lines() {
            let _ = writeln!(w.out, "; {line}");
        }
    }
    let sys = exported_system(cfa, ps);
    let [init, trans, prop] = [".init", ".trans", ".prop"].map(|n| w.names.fresh(n));
    let nexts: Vec<String> = (sys.states.iter())
        .map(|s| w.state(s.term, &s.name))
        .collect();
    for i in &sys.inputs {
        let name = w.names.fresh(&i.name);
        w.declare(i.term, name);
    }
    let mut roots: Vec<TermId> = sys.states.iter().map(|s| s.next).collect();
    roots.extend(sys.constraint);
    roots.push(sys.bad);
    w.terms(&roots);
    let constraint = sys.constraint.map(|c| w.expr(c));
    let constraint_next = sys.constraint.map(|c| w.next_frame(c, &sys.states, &nexts));
    let mut at_init: Vec<String> = (sys.states.iter())
        .filter_map(|s| {
            let v = s.init?;
            Some(format!("(= {} {})", w.expr(s.term), w.constant(v, s.term)))
        })
        .collect();
    at_init.extend(constraint.clone());
    let mut step: Vec<String> = (sys.states.iter().zip(&nexts))
        .map(|(s, n)| format!("(= {} {})", symbol(n), w.expr(s.next)))
        .collect();
    step.extend(constraint);
    step.extend(constraint_next);
    let bad = w.expr(sys.bad);
    w.define(
        &init,
        "Bool",
        &format!("(! {} :init true)", conjunction(&at_init)),
    );
    w.define(
        &trans,
        "Bool",
        &format!("(! {} :trans true)", conjunction(&step)),
    );
    w.define(&prop, "Bool", &format!("(! (not {bad}) :invar-property 0)"));
    w.out
}

/// `true`, the one conjunct, or their `and`.
fn conjunction(items: &[String]) -> String {
    match items {
        [] => "true".to_string(),
        [one] => one.clone(),
        _ => format!("(and {})", items.join(" ")),
    }
}

/// The unique names given so far.
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
}

impl Names {
    /// `base` made legal inside `|...|` and unique: the first of `base`, `base~2`, `base~3`,
    /// ... that is neither given nor reserved.
    fn fresh(&mut self, base: &str) -> String {
        let base: String = (base.chars())
            .map(|c| if c == '|' || c == '\\' { '_' } else { c })
            .collect();
        let mut name = base.clone();
        let mut k = 2;
        while self.taken.contains(&name) || reserved(&name) {
            name = format!("{base}~{k}");
            k += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

/// Whether `name` is one of SMT-LIB's reserved words, a sort or a function of the core or
/// bit-vector theory, or a literal `bv<N>` (a quoted symbol is the same symbol as the simple one,
/// so quoting does not set them apart).
fn reserved(name: &str) -> bool {
    const WORDS: [&str; 66] = [
        "!",
        "_",
        "as",
        "let",
        "exists",
        "forall",
        "match",
        "par",
        "NUMERAL",
        "DECIMAL",
        "STRING",
        "BINARY",
        "HEXADECIMAL",
        "Bool",
        "BitVec",
        "true",
        "false",
        "not",
        "and",
        "or",
        "xor",
        "=>",
        "=",
        "distinct",
        "ite",
        "concat",
        "extract",
        "zero_extend",
        "sign_extend",
        "repeat",
        "rotate_left",
        "rotate_right",
        "bvnot",
        "bvand",
        "bvor",
        "bvxor",
        "bvneg",
        "bvadd",
        "bvsub",
        "bvmul",
        "bvudiv",
        "bvurem",
        "bvsdiv",
        "bvsrem",
        "bvsmod",
        "bvshl",
        "bvlshr",
        "bvashr",
        "bvult",
        "bvule",
        "bvugt",
        "bvuge",
        "bvslt",
        "bvsle",
        "bvsgt",
        "bvsge",
        "bvnand",
        "bvnor",
        "bvxnor",
        "bvcomp",
        "assert",
        "check-sat",
        "declare-fun",
        "define-fun",
        "declare-const",
        "set-logic",
    ];
    let literal = name
        .strip_prefix("bv")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    name.is_empty() || literal || WORDS.contains(&name)
}

/// `name` as an SMT-LIB symbol: as it is when it is a simple symbol, else quoted.
fn symbol(name: &str) -> String {
    let simple_char = |c: char| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c);
    let simple = name.chars().all(simple_char) && !name.starts_with(|c: char| c.is_ascii_digit());
    if simple {
        name.to_string()
    } else {
        format!("|{name}|")
    }
}

/// The text being written and the names given so far.
struct Writer<'a> {
    tm: &'a TermManager,
    out: String,
    names: Names,
    /// The name of each variable and defined term.
    terms: HashMap<TermId, String>,
}

impl<'a> Writer<'a> {
    fn new(tm: &'a TermManager) -> Self {
        Writer {
            tm,
            out: String::new(),
            names: Names::default(),
            terms: HashMap::new(),
        }
    }

    fn sort(&self, t: TermId) -> String {
        match self.tm.sort(t) {
            Sort::Bool => "Bool".to_string(),
            Sort::Bv(w) => format!("(_ BitVec {w})"),
        }
    }

    /// `(declare-fun name () S)` for the variable `t`.
    fn declare(&mut self, t: TermId, name: String) {
        let _ = writeln!(
            self.out,
            "(declare-fun {} () {})",
            symbol(&name),
            self.sort(t)
        );
        self.terms.insert(t, name);
    }

    /// `(define-fun name () sort body)`.
    fn define(&mut self, name: &str, sort: &str, body: &str) {
        let _ = writeln!(self.out, "(define-fun {} () {sort} {body})", symbol(name));
    }

    /// The state variable `t` named `name`, its next-state variable and the `:next`
    /// annotation; the name of the next-state variable.
    fn state(&mut self, t: TermId, name: &str) -> String {
        let cur = self.names.fresh(name);
        let next = self.names.fresh(&format!("{cur}.next"));
        let annotation = self.names.fresh(&format!(".{cur}"));
        let sort = self.sort(t);
        self.declare(t, cur.clone());
        let _ = writeln!(self.out, "(declare-fun {} () {sort})", symbol(&next));
        let body = format!("(! {} :next {})", symbol(&cur), symbol(&next));
        self.define(&annotation, &sort, &body);
        next
    }

    /// The constant `v` of the sort of `t`.
    fn constant(&self, v: u128, t: TermId) -> String {
        match self.tm.sort(t) {
            Sort::Bool => (if v & 1 == 1 { "true" } else { "false" }).to_string(),
            Sort::Bv(w) => {
                let bits: String = (0..w)
                    .rev()
                    .map(|b| if (v >> b) & 1 == 1 { '1' } else { '0' })
                    .collect();
                format!("#b{bits}")
            }
        }
    }

    /// The text standing for the written term `t`: its name, or the constant.
    fn expr(&self, t: TermId) -> String {
        match self.tm.node(t) {
            Node::Const(v) => self.constant(v, t),
            _ => symbol(&self.terms[&t]),
        }
    }

    /// Defines every term of the cones of `roots` not defined yet, in the arena's order. A
    /// variable that is neither a state nor a slot is declared, an input of its own.
    fn terms(&mut self, roots: &[TermId]) {
        let tm = self.tm;
        let written = |x: TermId| self.terms.contains_key(&x) || is_const(tm, x);
        for x in cone_in_order(tm, roots, written) {
            match tm.node(x) {
                Node::Const(_) => {}
                Node::Var(_) => {
                    let name = self.names.fresh(&variable_name(tm, x));
                    self.declare(x, name);
                }
                Node::App(op, _) => self.define_app(x, op, ""),
            }
        }
    }

    /// Defines the application term `x`, whose arguments are written, as `t<index><suffix>`.
    fn define_app(&mut self, x: TermId, op: Op, suffix: &str) {
        let args: Vec<String> = self.tm.args(x).iter().map(|&a| self.expr(a)).collect();
        let body = format!("({} {})", self.operator(op, x), args.join(" "));
        let name = self.names.fresh(&format!("t{}{suffix}", x.index()));
        let sort = self.sort(x);
        self.define(&name, &sort, &body);
        self.terms.insert(x, name);
    }

    /// SMT-LIB's spelling of `op` applied at the term `x`.
    fn operator(&self, op: Op, x: TermId) -> String {
        let tm = self.tm;
        let a0 = tm.args(x)[0];
        let on_bool = tm.sort(a0) == Sort::Bool;
        match op {
            Op::Extract { hi, lo } => format!("(_ extract {hi} {lo})"),
            Op::Zext(w) => format!("(_ zero_extend {})", w - tm.width(a0)),
            Op::Sext(w) => format!("(_ sign_extend {})", w - tm.width(a0)),
            Op::Not | Op::And | Op::Or | Op::Xor if on_bool => op.smt_name()[2..].to_string(),
            op => op.smt_name().to_string(),
        }
    }

    /// The constraint `c` over the next state: its cone defined again (as `t<index>.next`)
    /// with every state variable read as its next-state variable (`nexts`, in the order of
    /// `states`).
    fn next_frame(&mut self, c: TermId, states: &[ExportedState], nexts: &[String]) -> String {
        let tm = self.tm;
        let current = std::mem::take(&mut self.terms);
        for (s, n) in states.iter().zip(nexts) {
            self.terms.insert(s.term, n.clone());
        }
        let written = |x: TermId| self.terms.contains_key(&x) || is_const(tm, x);
        for x in cone_in_order(tm, &[c], written) {
            match tm.node(x) {
                Node::App(op, _) => self.define_app(x, op, ".next"),
                _ => panic!("the constraint reads an input, which has no next-state variable"),
            }
        }
        let e = self.expr(c);
        self.terms = current;
        e
    }
}

fn is_const(tm: &TermManager, t: TermId) -> bool {
    matches!(tm.node(t), Node::Const(_))
}

#[cfg(test)]
mod tests {
    use super::{symbol, Names};

    #[test]
    fn names_are_unique_legal_and_quoted_when_not_simple() {
        let mut n = Names::default();
        assert_eq!(n.fresh("x"), "x");
        assert_eq!(n.fresh("x"), "x~2");
        assert_eq!(n.fresh("and"), "and~2");
        assert_eq!(n.fresh("bv12"), "bv12~2");
        assert_eq!(n.fresh("bvx"), "bvx");
        assert_eq!(n.fresh("a|b\\c"), "a_b_c");
        assert_eq!(symbol("pc.next"), "pc.next");
        assert_eq!(symbol("x~2"), "x~2");
        assert_eq!(symbol("nondet[0]"), "|nondet[0]|");
        assert_eq!(symbol("pc:L3"), "|pc:L3|");
        assert_eq!(symbol("1x"), "|1x|");
    }
}
