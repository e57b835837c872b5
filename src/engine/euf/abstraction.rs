//! The abstract system: a program's word-level system with its costly data operations replaced
//! by the outputs of uninterpreted functions, and the constraints that refinement learned.
//!
//! An *application* is one term `f(a_1, …, a_n)` of the word-level system whose operator is
//! abstracted ([`Abstraction::new`] says which). While it is abstract, its term is replaced
//! everywhere by a fresh input variable of its width, its *output*: one per application and
//! step, so that two applications of the same function to equal arguments in one step must be
//! made to agree by a constraint (Ackermann's reduction). Every constraint — functional
//! consistency and the lemmas of refinement — is kept as a term over the **precise** terms,
//! where it is valid (`a = b → f(a) = f(b)`; a lemma `args agree with v on bits S → bit j of
//! f(args) is r`), and is abstracted with the same substitution as the system each time the
//! system is built. So an application made precise simply leaves the substitution: its
//! constraints become facts about its circuit, and those over other applications stay as they
//! were.
//!
//! Soundness: every constraint holds when each output is its application's value, so every
//! step of the precise system is a step of the abstract one (with those outputs), and the
//! latches are the same ([`crate::ts::program::Layout`]): an invariant of the abstract system
//! over its latches is one of the precise system, and an unreachable goal stays unreachable.

use crate::bv::{Node, Op, Sort, TermId, TermManager};
use crate::cfa::Cfa;
use crate::ts::model::ModelSystem;
use crate::ts::program::{Blasted, ProgramSystem, WordLevel};
use std::collections::{HashMap, HashSet};

/// One abstracted operator application.
pub struct App {
    /// The precise term and its operator and arguments.
    pub term: TermId,
    pub op: Op,
    pub args: Vec<TermId>,
    /// The output variable that stands for it while it is abstract.
    pub output: TermId,
    /// Made precise (left out of the substitution).
    pub precise: bool,
    /// Its arguments, read in the abstract system, mention a program variable with a bit
    /// outside the precise system's cone of influence (see [`outside_cone`]).
    pub outside: bool,
    /// How many refinements learned lemmas about it.
    pub refinements: usize,
}

/// A built abstract system with what reading its paths needs.
pub struct Built {
    pub blasted: Blasted,
    pub ms: ModelSystem,
    /// The abstract applications, by index into [`Abstraction::apps`], in the order of
    /// `blasted.extra`.
    pub outputs: Vec<usize>,
    /// The arguments of every application with the abstract ones substituted (what they are
    /// computed from in an abstract state), by application.
    pub args: Vec<Vec<TermId>>,
    /// The number of constraints it has beyond the program counter's range.
    pub constraints: usize,
}

/// The abstraction of one program's system, refined as the engine runs.
pub struct Abstraction<'a> {
    cfa: &'a Cfa,
    ps: &'a ProgramSystem,
    /// The precise terms extended with outputs, constraints and lemmas.
    pub tm: TermManager,
    pub apps: Vec<App>,
    /// Lemmas over precise terms, each with the application it is about.
    pub lemmas: Vec<(usize, TermId)>,
    /// Functional-consistency constraints over precise terms, with the two applications.
    consistency: Vec<(usize, usize, TermId)>,
}

/// Which applications are abstracted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mode {
    /// Products, quotients, remainders and shifts with a constant operand too.
    pub constants: bool,
    /// EUForia's full mode: every operation on bit-vectors but equality and `ite`.
    pub full: bool,
}

/// Whether `op` is abstracted: multiplication, division and remainder, and shifts; with a
/// constant operand only under [`Mode::constants`] (a product with a constant is a few
/// additions, a shift by a constant a wiring). Under [`Mode::full`], every operator with a
/// bit-vector argument but `=` and `ite`: arithmetic, bitwise operations, comparisons,
/// extraction, concatenation and extension, with constant operands or not; the Boolean
/// connectives, equality and `ite` stay precise.
fn abstracted(tm: &TermManager, op: Op, args: &[TermId], mode: Mode) -> bool {
    let constants = mode.constants || mode.full;
    let has_constant = args.iter().any(|&a| tm.const_value(a).is_some());
    match op {
        Op::Mul | Op::Udiv | Op::Urem | Op::Sdiv | Op::Srem => constants || !has_constant,
        Op::Shl | Op::Lshr | Op::Ashr => constants || tm.const_value(args[1]).is_none(),
        Op::Eq | Op::Ite => false,
        _ => mode.full && args.iter().any(|&a| matches!(tm.sort(a), Sort::Bv(_))),
    }
}

/// The most consistency constraints kept (pairs of applications of one function); leaving
/// some out only makes the abstraction coarser.
const MAX_CONSISTENCY: usize = 2000;

/// The terms of the system: the next-state functions of the program counter and the
/// variables, the goal and the program counter's range.
fn roots(ps: &ProgramSystem) -> Vec<TermId> {
    let wl = &ps.word_level;
    (wl.pc_next.iter().chain(&wl.next).copied())
        .chain([wl.bad])
        .chain(wl.pc_range)
        .collect()
}

/// The applications in the system of `ps` that `mode` abstracts, with their operators, in
/// post order.
fn abstracted_apps(ps: &ProgramSystem, mode: Mode) -> Vec<(TermId, Op)> {
    let tm = &ps.tm;
    (post_order(tm, &roots(ps)).into_iter())
        .filter_map(|t| match tm.node(t) {
            Node::App(op, _) if abstracted(tm, op, tm.args(t), mode) => Some((t, op)),
            _ => None,
        })
        .collect()
}

/// How many applications in the system of `ps` `mode` abstracts (without building anything).
pub fn count(ps: &ProgramSystem, mode: Mode) -> usize {
    abstracted_apps(ps, mode).len()
}

impl<'a> Abstraction<'a> {
    /// The abstraction of `ps` (the system of `cfa`) with every application of an abstracted
    /// operator in the system abstract.
    pub fn new(cfa: &'a Cfa, ps: &'a ProgramSystem, mode: Mode) -> Abstraction<'a> {
        let mut tm = ps.tm.clone();
        let mut apps = Vec::new();
        for (t, op) in abstracted_apps(ps, mode) {
            let args = tm.args(t).to_vec();
            let name = format!("euf:{}#{}", op.smt_name(), apps.len());
            let output = tm.var(name, tm.sort(t));
            apps.push(App {
                term: t,
                op,
                args,
                output,
                precise: false,
                outside: false,
                refinements: 0,
            });
        }
        outside_cone(&tm, cfa, ps, &mut apps);
        let consistency = consistency(&mut tm, &apps);
        Abstraction {
            cfa,
            ps,
            tm,
            apps,
            lemmas: Vec::new(),
            consistency,
        }
    }

    /// Whether bit `b` of `t` is a latch the precise system leaves out (outside its cone of
    /// influence): `t` is a program variable and that bit's latch has no system variable.
    pub fn outside_bit(&self, t: TermId, b: u32) -> bool {
        let ps = self.ps;
        (ps.state.iter())
            .find(|(v, _)| self.cfa.vars[v.index()].term == t)
            .and_then(|(_, bits)| bits.get(b as usize))
            .is_some_and(|&j| ps.latch_var[j].is_none())
    }

    /// The number of applications still abstract.
    pub fn abstract_apps(&self) -> usize {
        self.apps.iter().filter(|a| !a.precise).count()
    }

    /// Builds the abstract system as the abstraction stands.
    pub fn build(&mut self) -> Built {
        let map: HashMap<TermId, TermId> = (self.apps.iter())
            .filter(|a| !a.precise)
            .map(|a| (a.term, a.output))
            .collect();
        let tm = &mut self.tm;
        let mut cache = HashMap::new();
        let mut sub = |tm: &mut TermManager, t: TermId| tm.substitute_cached(t, &map, &mut cache);
        let wl = &self.ps.word_level;
        let awl = WordLevel {
            pc_next: wl.pc_next.iter().map(|&t| sub(tm, t)).collect(),
            next: wl.next.iter().map(|&t| sub(tm, t)).collect(),
            pc_range: wl.pc_range.map(|t| sub(tm, t)),
            bad: sub(tm, wl.bad),
        };
        let live = |i: usize| !self.apps[i].precise;
        let mut constraints = Vec::new();
        let facts = (self.consistency.iter())
            .filter(|&&(i, j, _)| live(i) || live(j))
            .map(|&(_, _, c)| c)
            .chain(self.lemmas.iter().map(|&(_, c)| c));
        for c in facts {
            let a = sub(tm, c);
            if !tm.is_true(a) {
                constraints.push(a);
            }
        }
        let args: Vec<Vec<TermId>> = (self.apps.iter())
            .map(|a| a.args.iter().map(|&x| sub(tm, x)).collect())
            .collect();
        let outputs: Vec<usize> = (0..self.apps.len()).filter(|&i| live(i)).collect();
        let extra: Vec<TermId> = outputs.iter().map(|&i| self.apps[i].output).collect();
        let blasted = self.ps.blast(self.cfa, tm, &awl, &extra, &constraints);
        let ms = blasted.model.to_system();
        Built {
            blasted,
            ms,
            outputs,
            args,
            constraints: constraints.len(),
        }
    }
}

/// The terms reachable from `roots`, arguments before the terms over them, each once.
fn post_order(tm: &TermManager, roots: &[TermId]) -> Vec<TermId> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack: Vec<(TermId, bool)> = roots.iter().map(|&r| (r, false)).collect();
    while let Some((t, expanded)) = stack.pop() {
        if expanded {
            out.push(t);
            continue;
        }
        if !seen.insert(t) {
            continue;
        }
        stack.push((t, true));
        for &a in tm.args(t) {
            if !seen.contains(&a) {
                stack.push((a, false));
            }
        }
    }
    out
}

/// Marks the applications whose arguments, with the abstract applications in them read as
/// outputs, mention a program variable of which some bit is outside the precise system's cone
/// of influence (a latch the precise system leaves out). A constraint over such arguments
/// would bring that latch into the abstract system, and an invariant mentioning it would have
/// no meaning in the precise system; so these applications get no consistency constraints
/// (which only makes the abstraction coarser), and refinement leaves out lemmas whose premise
/// names such a bit ([`Abstraction::outside_bit`]).
fn outside_cone(tm: &TermManager, cfa: &Cfa, ps: &ProgramSystem, apps: &mut [App]) {
    let partial: HashSet<TermId> = (ps.state.iter())
        .filter(|(_, bits)| bits.iter().any(|&j| ps.latch_var[j].is_none()))
        .map(|(v, _)| cfa.vars[v.index()].term)
        .collect();
    if partial.is_empty() {
        return;
    }
    let abstracted: HashSet<TermId> = apps.iter().map(|a| a.term).collect();
    for app in apps.iter_mut() {
        let mut seen = HashSet::new();
        let mut stack = app.args.clone();
        while let Some(t) = stack.pop() {
            if partial.contains(&t) {
                app.outside = true;
                break;
            }
            if seen.insert(t) && !abstracted.contains(&t) {
                stack.extend_from_slice(tm.args(t));
            }
        }
    }
}

/// `args_i = args_j → f(args_i) = f(args_j)` for the pairs of applications of one operator
/// to arguments of the same sorts (at most [`MAX_CONSISTENCY`]), neither of them outside the
/// precise system's cone ([`outside_cone`]).
fn consistency(tm: &mut TermManager, apps: &[App]) -> Vec<(usize, usize, TermId)> {
    let mut by_function: HashMap<(Op, Vec<Sort>), Vec<usize>> = HashMap::new();
    for (i, a) in apps.iter().enumerate().filter(|(_, a)| !a.outside) {
        let sorts = a.args.iter().map(|&x| tm.sort(x)).collect();
        by_function.entry((a.op, sorts)).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = by_function.into_values().collect();
    groups.sort();
    let mut out = Vec::new();
    for g in groups {
        for (x, &i) in g.iter().enumerate() {
            for &j in &g[x + 1..] {
                if out.len() == MAX_CONSISTENCY {
                    return out;
                }
                let eqs: Vec<TermId> = (apps[i].args.iter().zip(&apps[j].args))
                    .map(|(&p, &q)| tm.eq(p, q))
                    .collect();
                let same_args = tm.and_all(eqs);
                let same = tm.eq(apps[i].term, apps[j].term);
                out.push((i, j, tm.implies(same_args, same)));
            }
        }
    }
    out
}
