//! Control-flow automata (CFA): locations, edges labelled with guarded commands (GCL), the
//! passes that transform them, a concrete interpreter and printers (text and Graphviz DOT).
//!
//! A [`Cfa`] owns its [`TermManager`]. Program variables ([`PVar`]) are exactly the free
//! variables of that manager, in the same order (`PVar(i)` is `VarId(i)`), each a bit-vector of
//! its C type's width (`_Bool` is one bit). Conditions of `Assume` are `bool` terms.
//!
//! Invariants kept by the front end and by every pass:
//! - the initial location has no incoming edge; the error location and the UNKNOWN sinks have no
//!   outgoing edge; the exit location (normal termination) has no outgoing edge;
//! - every program variable is written (`Assign` or `Havoc`) before it can be read, so the
//!   behaviour never depends on the initial valuation;
//! - the edges leaving a location are mutually exclusive, and so are the alternatives of every
//!   `Choice`, for the same nondet values (the CFA is deterministic given the nondet values; see
//!   [`interp`] for which value a `Havoc` takes): in particular an edge or alternative that
//!   fails does so whatever the values beyond those that the one taken consumes;
//! - every atomic command keeps its [`Origin`] (source position, C text, nondet call).
//!
//! `Seq` is sequential composition (each command sees the effect of the previous ones);
//! `Choice` tries its alternatives in order and takes the first that completes (by the
//! invariant above, at most one can). An empty `Seq` is `skip`.
//!
//! Reaching the error location is a violation of [`Cfa::property`]; reaching a sink gives
//! UNKNOWN with the sink's reason (e.g. an out-of-bounds array access under a property other
//! than `valid-index`); reaching the exit location, or a location none of whose edges can be
//! taken (a failed assume), ends the execution without a violation.

pub mod accel;
pub mod closed;
mod dot;
pub mod fold;
pub mod interp;
mod lbe;
pub mod lockstep;
mod nest;
mod print;
mod simplify;
mod slice;
pub mod symex;
pub mod taint;
pub mod unwind;

#[cfg(test)]
mod tests;

pub use accel::{accelerate, Accelerated};
pub use fold::fold_fixed_loops;
pub use interp::{run, run_nondet, run_with, Nondet, Outcome, RunOptions, Step};
pub use lbe::{large_block_encoding, split_choices, MAX_SPLIT_PATHS};
pub use simplify::propagate_constants_and_copies;
pub use slice::{
    cone_of_influence, eliminate_dead_variables, live_variables, remove_unreachable,
    uninitialized_reads,
};

use crate::bv::{Sort, TermId, TermManager, VarId};

/// A pass that keeps the program's behaviour, with how far ([`lockstep::Ends`]).
#[derive(Clone, Copy)]
pub struct Pass {
    pub name: &'static str,
    pub run: fn(&Cfa) -> Cfa,
    pub ends: lockstep::Ends,
}

/// The passes that prepare a lowered CFA for encoding, in order: slicing, propagation,
/// dead-variable elimination, removal of unreachable locations, and last large-block encoding.
pub const PREPARE_PASSES: [Pass; 5] = [
    Pass {
        name: "cone of influence",
        run: cone_of_influence,
        ends: lockstep::Ends::SameTargets,
    },
    Pass {
        name: "constant and copy propagation",
        run: propagate_constants_and_copies,
        ends: lockstep::Ends::Same,
    },
    Pass {
        name: "dead-variable elimination",
        run: eliminate_dead_variables,
        ends: lockstep::Ends::Same,
    },
    Pass {
        name: "removal of unreachable locations",
        run: remove_unreachable,
        ends: lockstep::Ends::Same,
    },
    Pass {
        name: "large-block encoding",
        run: large_block_encoding,
        ends: lockstep::Ends::Same,
    },
];

/// Prepares a lowered CFA for encoding: [`PREPARE_PASSES`], large-block encoding only with
/// `lbe`.
pub fn prepare(cfa: &Cfa, lbe: bool) -> Cfa {
    let n = PREPARE_PASSES.len() - usize::from(!lbe);
    PREPARE_PASSES[..n]
        .iter()
        .fold(cfa.clone(), |c, p| (p.run)(&c))
}

/// The passes in their useful order: constant and copy propagation, dead-variable elimination,
/// cone of influence, large-block encoding. Keeps the reachability of the error location and
/// of each sink (see [`cone_of_influence`]).
pub fn optimize(cfa: &Cfa) -> Cfa {
    let c = propagate_constants_and_copies(cfa);
    let c = eliminate_dead_variables(&c);
    let c = cone_of_influence(&c);
    large_block_encoding(&c)
}
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

/// The property checked by a CFA; each is built alone (the others' checks are absent).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Property {
    /// `unreach-call`: no call of `reach_error()` (or another error function) is reachable.
    UnreachCall,
    /// `no-overflow`: no signed arithmetic result is outside its type's range.
    NoOverflow,
    /// `div-by-zero`: no integer division or remainder by zero.
    DivByZero,
    /// `valid-index`: no array access out of bounds.
    ValidIndex,
}

impl Property {
    /// Every property, in a fixed order.
    pub const ALL: [Property; 4] = [
        Property::UnreachCall,
        Property::NoOverflow,
        Property::DivByZero,
        Property::ValidIndex,
    ];

    /// The SV-COMP-style name (`unreach-call`, `no-overflow`, `div-by-zero`, `valid-index`).
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::NoOverflow => "no-overflow",
            Property::DivByZero => "div-by-zero",
            Property::ValidIndex => "valid-index",
        }
    }

    /// The property of a name as printed by [`Property::name`].
    pub fn from_name(s: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == s)
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The data model: the widths of the C integer types.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum DataModel {
    /// `int`, `long`, pointers 32 bits; `long long` 64 (the SV-COMP default).
    #[default]
    Ilp32,
    /// `int` 32 bits; `long`, `long long`, pointers 64.
    Lp64,
}

impl DataModel {
    /// `ILP32` or `LP64`.
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }

    /// Parses `ILP32`/`LP64` (any case).
    pub fn from_name(s: &str) -> Option<DataModel> {
        match s.to_ascii_uppercase().as_str() {
            "ILP32" => Some(DataModel::Ilp32),
            "LP64" => Some(DataModel::Lp64),
            _ => None,
        }
    }
}

impl fmt::Display for DataModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A location of a CFA.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Loc(pub u32);

impl Loc {
    /// The index of the location.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.0)
    }
}

/// An edge of a CFA.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct EdgeId(pub u32);

impl EdgeId {
    /// The index of the edge.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A program variable; `PVar(i)` is the term manager's `VarId(i)`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PVar(pub u32);

impl PVar {
    /// The index of the variable.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The term manager's variable.
    pub fn var_id(self) -> VarId {
        VarId(self.0)
    }
}

/// The C integer type of a program variable: its width in bits and its signedness.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct IntType {
    pub width: u32,
    pub signed: bool,
}

impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", if self.signed { "i" } else { "u" }, self.width)
    }
}

/// What a program variable stands for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum VarKind {
    Global,
    Local,
    Parameter,
    /// The return value of one inlined call.
    Return,
    /// A temporary introduced by the front end (side effects, short-circuit results, indices).
    Temporary,
    /// The result of a nondet call (`__VERIFIER_nondet_*` or an undefined function).
    Nondet,
}

impl VarKind {
    /// A lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            VarKind::Global => "global",
            VarKind::Local => "local",
            VarKind::Parameter => "parameter",
            VarKind::Return => "return",
            VarKind::Temporary => "temporary",
            VarKind::Nondet => "nondet",
        }
    }
}

/// A position in the original source file (1-based line and column).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SrcPos {
    pub file: Arc<str>,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for SrcPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A program variable.
#[derive(Clone, Debug)]
pub struct VarInfo {
    /// The C name, disambiguated per scope and inlined call (`main::x`, `f::y#2`, `g`).
    pub name: String,
    pub ty: IntType,
    pub kind: VarKind,
    /// The position of the declaration (or of the expression a temporary stands for; for the
    /// result of a nondet call, the call's closing parenthesis).
    pub pos: Option<SrcPos>,
    /// Where the declaration's scope ends (the end of the enclosing block), for locals and
    /// parameters; `None` for globals and for what the front end introduces.
    pub scope_end: Option<SrcPos>,
    /// The variable as a term of the CFA's manager.
    pub term: TermId,
}

/// Where a havocked value comes from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum HavocKind {
    /// A call of `__VERIFIER_nondet_<T>()` (the name of the function, the C type).
    NondetCall { function: String, ty: IntType },
    /// The return value of a call to a function without a definition.
    UndefinedCall { function: String, ty: IntType },
    /// A local variable declared without an initialiser (its value is indeterminate).
    Uninitialized,
    /// How many more iterations an accelerated loop runs at once (see [`accelerate`]).
    Iterations,
}

impl HavocKind {
    /// Whether the value comes from a call (a nondet input of the program) rather than from an
    /// uninitialised declaration.
    pub fn is_call(&self) -> bool {
        !matches!(self, HavocKind::Uninitialized)
    }
}

/// The origin of an atomic command: source position and C text.
#[derive(Clone, Debug)]
pub struct Origin {
    pub pos: Option<SrcPos>,
    /// The C text of the statement or expression (one line, possibly shortened).
    pub text: String,
    /// The start of the C statement or declaration the command belongs to (for a condition,
    /// the `if`, loop or `switch` it is part of): where a witness can state what holds before
    /// it.
    pub statement: Option<SrcPos>,
    /// Where that statement starts in the preprocessed text: tells apart the statements that
    /// share a position (those of one macro's expansion, such as `assert`'s inner `if`).
    pub statement_at: Option<u32>,
    /// Whether the command checks a property or undefined behaviour (the edge to the error
    /// location or a sink, or the assumption that execution continues past the check) rather
    /// than being one of the program's.
    pub check: bool,
}

/// An index into [`Cfa::origins`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct OriginId(pub u32);

/// A guarded command.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Gcl {
    /// Blocks unless the `bool` term holds.
    Assume(TermId, OriginId),
    /// Assigns the value of a term (of the variable's width) to a variable.
    Assign(PVar, TermId, OriginId),
    /// Gives a variable an arbitrary value.
    Havoc(PVar, HavocKind, OriginId),
    /// Sequential composition; `Seq(vec![])` is `skip`.
    Seq(Vec<Gcl>),
    /// Choice among alternatives: the first that completes is taken (at most one can, see the
    /// module doc).
    Choice(Vec<Gcl>),
}

impl Gcl {
    /// `skip`.
    pub fn skip() -> Gcl {
        Gcl::Seq(Vec::new())
    }

    /// Whether this is an empty `Seq`.
    pub fn is_skip(&self) -> bool {
        matches!(self, Gcl::Seq(v) if v.is_empty())
    }

    /// The sequence `self; other`, flattening nested sequences.
    pub fn then(self, other: Gcl) -> Gcl {
        let mut v = match self {
            Gcl::Seq(v) => v,
            g => vec![g],
        };
        match other {
            Gcl::Seq(w) => v.extend(w),
            g => v.push(g),
        }
        if v.len() == 1 {
            v.pop().unwrap_or_else(Gcl::skip)
        } else {
            Gcl::Seq(v)
        }
    }

    /// Calls `f` on every atomic command (`Assume`, `Assign`, `Havoc`) in order.
    pub fn for_each_atom<'a>(&'a self, f: &mut impl FnMut(&'a Gcl)) {
        match self {
            Gcl::Seq(v) | Gcl::Choice(v) => v.iter().for_each(|g| g.for_each_atom(f)),
            g => f(g),
        }
    }

    /// The number of atomic commands.
    pub fn atom_count(&self) -> usize {
        let mut n = 0;
        self.for_each_atom(&mut |_| n += 1);
        n
    }
}

/// An edge `from --cmd--> to`.
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: Loc,
    pub to: Loc,
    pub cmd: Gcl,
}

/// What a location is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LocKind {
    Normal,
    /// The initial location (no incoming edge).
    Init,
    /// The error location: reaching it violates the property.
    Error,
    /// Normal termination of the program.
    Exit,
    /// A target that prevents a TRUE verdict: reaching it gives UNKNOWN with this reason.
    Sink(String),
}

/// The identity of a location across the CFAs that passes derive from the one it was created
/// in: its number there. Passes remove locations and renumber the others, but never change a
/// location's key, so a location of a derived CFA is the location of the original with the same
/// key (see [`Cfa::loc_by_key`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct LocKey(pub u32);

/// A location with its description.
#[derive(Clone, Debug)]
pub struct LocInfo {
    /// The location's identity across passes.
    pub key: LocKey,
    pub kind: LocKind,
    /// The source position the location belongs to, if any.
    pub pos: Option<SrcPos>,
    /// A short description (e.g. `while head`, `label ERROR`), possibly empty.
    pub note: String,
    /// The C function the location is in (the innermost one of an inlined call), if any.
    pub function: Option<Arc<str>>,
    /// How many calls are active at the location (1 in `main`, 0 outside every function):
    /// with [`LocInfo::function`], which activation it belongs to when a function is
    /// recursive.
    pub call_depth: u32,
    /// For the head of a loop (where its condition is evaluated, which for `do` is after the
    /// body): the position of the loop's keyword (`while`, `for`, `do`).
    pub loop_keyword: Option<SrcPos>,
}

/// A control-flow automaton.
#[derive(Clone, Debug)]
pub struct Cfa {
    pub tm: TermManager,
    pub vars: Vec<VarInfo>,
    pub locations: Vec<LocInfo>,
    pub edges: Vec<Edge>,
    pub init: Loc,
    pub error: Loc,
    pub exit: Loc,
    pub origins: Vec<Origin>,
    pub property: Property,
    pub data_model: DataModel,
    /// The objects a general pointer can designate, numbered from 1: each one's cells (byte
    /// offset and variable), for printing pointer values (see [`Cfa::pointer_value`]).
    pub objects: Vec<Vec<(u64, PVar)>>,
    /// The variables that hold function pointers (a function's number, see
    /// [`Cfa::functions`]), for printing their values by name.
    pub function_pointers: HashSet<PVar>,
    /// The functions a function pointer can hold: number `k` is `functions[k - 1]` (0 is
    /// null).
    pub functions: Vec<String>,
}

/// The bits above the address in a general pointer that number its object (the front end's
/// memory model: a pointer is an object number and a byte offset in one bit-vector).
pub const POINTER_OBJECT_BITS: u32 = 16;

impl Cfa {
    /// The object number and byte offset in a value of the general pointer `v`, or `None` if
    /// `v` is not a general pointer (its width is the address width plus the object bits).
    pub fn pointer_value(&self, v: PVar, value: u128) -> Option<(usize, u128)> {
        let aw = match self.data_model {
            DataModel::Ilp32 => 32,
            DataModel::Lp64 => 64,
        };
        let ty = self.var(v).ty;
        (ty.width == aw + POINTER_OBJECT_BITS && !ty.signed)
            .then(|| ((value >> aw) as usize, value & ((1u128 << aw) - 1)))
    }

    /// An empty CFA with its init, error and exit locations.
    pub fn new(property: Property, data_model: DataModel) -> Cfa {
        let mut cfa = Cfa {
            tm: TermManager::new(),
            vars: Vec::new(),
            locations: Vec::new(),
            edges: Vec::new(),
            init: Loc(0),
            error: Loc(0),
            exit: Loc(0),
            origins: Vec::new(),
            property,
            data_model,
            objects: Vec::new(),
            function_pointers: HashSet::new(),
            functions: Vec::new(),
        };
        cfa.init = cfa.add_loc(LocKind::Init, None, "init");
        cfa.error = cfa.add_loc(LocKind::Error, None, "error");
        cfa.exit = cfa.add_loc(LocKind::Exit, None, "exit");
        cfa
    }

    /// Adds a location.
    pub fn add_loc(&mut self, kind: LocKind, pos: Option<SrcPos>, note: &str) -> Loc {
        let l = Loc(self.locations.len() as u32);
        self.locations.push(LocInfo {
            key: LocKey(l.0),
            kind,
            pos,
            note: note.to_string(),
            function: None,
            call_depth: 0,
            loop_keyword: None,
        });
        l
    }

    /// The sink location with this reason, created on first use.
    pub fn sink(&mut self, reason: &str) -> Loc {
        for (i, l) in self.locations.iter().enumerate() {
            if matches!(&l.kind, LocKind::Sink(r) if r == reason) {
                return Loc(i as u32);
            }
        }
        self.add_loc(LocKind::Sink(reason.to_string()), None, "sink")
    }

    /// Adds an edge.
    pub fn add_edge(&mut self, from: Loc, cmd: Gcl, to: Loc) -> EdgeId {
        let e = EdgeId(self.edges.len() as u32);
        self.edges.push(Edge { from, to, cmd });
        e
    }

    /// Adds a program variable (a fresh bit-vector variable of the manager).
    pub fn add_var(
        &mut self,
        name: String,
        ty: IntType,
        kind: VarKind,
        pos: Option<SrcPos>,
    ) -> PVar {
        let term = self.tm.var(name.clone(), Sort::Bv(ty.width));
        let v = PVar(self.vars.len() as u32);
        debug_assert_eq!(self.tm.as_var(term).map(|x| x.0), Some(v.0));
        self.vars.push(VarInfo {
            name,
            ty,
            kind,
            pos,
            scope_end: None,
            term,
        });
        v
    }

    /// Records the origin of a command.
    pub fn add_origin(&mut self, pos: Option<SrcPos>, text: String) -> OriginId {
        self.add_statement_origin(pos, text, None, None)
    }

    /// Records the origin of a command that belongs to the statement starting at `statement`,
    /// offset `statement_at` of the preprocessed text.
    pub fn add_statement_origin(
        &mut self,
        pos: Option<SrcPos>,
        text: String,
        statement: Option<SrcPos>,
        statement_at: Option<u32>,
    ) -> OriginId {
        let o = OriginId(self.origins.len() as u32);
        self.origins.push(Origin {
            pos,
            text,
            statement,
            statement_at,
            check: false,
        });
        o
    }

    /// The origin of a command.
    pub fn origin(&self, o: OriginId) -> Option<&Origin> {
        self.origins.get(o.0 as usize)
    }

    /// A program variable.
    pub fn var(&self, v: PVar) -> &VarInfo {
        &self.vars[v.index()]
    }

    /// The program variable of a free variable of the manager.
    pub fn pvar(&self, v: VarId) -> PVar {
        PVar(v.0)
    }

    /// The kind of a location.
    pub fn kind(&self, l: Loc) -> &LocKind {
        &self.locations[l.index()].kind
    }

    /// Whether `l` is the error location or a sink.
    pub fn is_target(&self, l: Loc) -> bool {
        matches!(self.kind(l), LocKind::Error | LocKind::Sink(_))
    }

    /// The sink locations.
    pub fn sinks(&self) -> Vec<Loc> {
        (0..self.locations.len() as u32)
            .map(Loc)
            .filter(|&l| matches!(self.kind(l), LocKind::Sink(_)))
            .collect()
    }

    /// For each location, its outgoing edges in order.
    pub fn out_edges(&self) -> Vec<Vec<EdgeId>> {
        let mut out = vec![Vec::new(); self.locations.len()];
        for (i, e) in self.edges.iter().enumerate() {
            out[e.from.index()].push(EdgeId(i as u32));
        }
        out
    }

    /// For each location, its incoming edges in order.
    pub fn in_edges(&self) -> Vec<Vec<EdgeId>> {
        let mut inc = vec![Vec::new(); self.locations.len()];
        for (i, e) in self.edges.iter().enumerate() {
            inc[e.to.index()].push(EdgeId(i as u32));
        }
        inc
    }

    /// An edge.
    pub fn edge(&self, e: EdgeId) -> &Edge {
        &self.edges[e.index()]
    }

    /// The number of atomic commands over all edges.
    pub fn atom_count(&self) -> usize {
        self.edges.iter().map(|e| e.cmd.atom_count()).sum()
    }

    /// The locations that are the targets of back edges of a depth-first search from the
    /// initial location (every cycle contains one). Indexed by location.
    pub fn loop_heads(&self) -> Vec<bool> {
        let mut heads = vec![false; self.locations.len()];
        for (e, &b) in self.back_edges().iter().enumerate() {
            if b {
                heads[self.edges[e].to.index()] = true;
            }
        }
        heads
    }

    /// The back edges of a depth-first search from the initial location, which takes the
    /// edges leaving a location in order: those whose target is on the search's stack. Every
    /// cycle reachable from the initial location contains one. Indexed by edge.
    pub fn back_edges(&self) -> Vec<bool> {
        let out = self.out_edges();
        let n = self.locations.len();
        let mut back = vec![false; self.edges.len()];
        // 0 = unvisited, 1 = on stack, 2 = done.
        let mut state = vec![0u8; n];
        let mut stack: Vec<(Loc, usize)> = vec![(self.init, 0)];
        state[self.init.index()] = 1;
        while let Some((l, i)) = stack.pop() {
            if let Some(&e) = out[l.index()].get(i) {
                stack.push((l, i + 1));
                let t = self.edge(e).to;
                match state[t.index()] {
                    0 => {
                        state[t.index()] = 1;
                        stack.push((t, 0));
                    }
                    1 => back[e.index()] = true,
                    _ => {}
                }
            } else {
                state[l.index()] = 2;
            }
        }
        back
    }

    /// Checks the invariants (see the module doc; not the determinism of guards); returns a
    /// description of the first violation.
    pub fn check(&self) -> Result<(), String> {
        let n = self.locations.len();
        for (i, e) in self.edges.iter().enumerate() {
            if e.from.index() >= n || e.to.index() >= n {
                return Err(format!("edge {i} has an unknown location"));
            }
            if e.to == self.init {
                return Err(format!("edge {i} enters the initial location"));
            }
            if e.from == self.error || e.from == self.exit || self.is_target(e.from) {
                return Err(format!("edge {i} leaves a final location {}", e.from));
            }
            let mut bad = None;
            e.cmd.for_each_atom(&mut |g| match g {
                Gcl::Assume(t, _) if !self.tm.sort(*t).is_bool() => {
                    bad = Some("assume of a non-bool")
                }
                Gcl::Assign(v, t, _) if self.tm.sort(*t) != Sort::Bv(self.var(*v).ty.width) => {
                    bad = Some("assignment of a wrong width")
                }
                _ => {}
            });
            if let Some(b) = bad {
                return Err(format!("edge {i}: {b}"));
            }
        }
        if let Some(v) = uninitialized_reads(self).first() {
            return Err(format!(
                "`{}` may be read before it is written",
                self.var(*v).name
            ));
        }
        Ok(())
    }

    /// For each key of the locations of `original` (a CFA this one derives from by passes),
    /// the location of this CFA with that key, if it has one. Indexed by `original`'s
    /// locations.
    pub fn loc_by_key(&self, original: &Cfa) -> Vec<Option<Loc>> {
        let mine: std::collections::HashMap<LocKey, Loc> = self
            .locations
            .iter()
            .enumerate()
            .map(|(i, l)| (l.key, Loc(i as u32)))
            .collect();
        original
            .locations
            .iter()
            .map(|l| mine.get(&l.key).copied())
            .collect()
    }

    /// A copy of this CFA with the given edges (locations, variables and origins are kept).
    pub fn with_edges(&self, edges: Vec<Edge>) -> Cfa {
        let mut c = self.clone();
        c.edges = edges;
        c
    }
}
