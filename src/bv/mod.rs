//! Bit-vector terms: sorts `bool` and `bv<w>` (1 ≤ w ≤ 128), a hash-consed DAG in an arena
//! ([`TermId`]), constructors that fold constants and apply local, bit-precise normalisations
//! (`simplify.rs`; comparisons, extractions and extensions of extended terms are narrowed to
//! the inner width in `narrow.rs`), and concrete evaluation.
//!
//! Invariants:
//! - Structurally equal terms have the same [`TermId`] (hash-consing), so `a == b` on ids is
//!   syntactic equality after normalisation.
//! - Every argument of a term has a smaller id than the term itself (the arena is in
//!   topological order), so passes may walk ids upwards without recursion.
//! - Constructors check sorts; an ill-sorted construction is a bug in the caller and panics.
//! - Normalisations are valid over bit-vectors (no rewriting that assumes unbounded integers).

pub mod cprint;
mod eval;
mod narrow;
pub mod poly;
mod print;
mod simplify;
pub mod value;

pub use eval::{Evaluator, Valuation};
pub use simplify::{rules, Rewrites, Rule};

use std::collections::HashMap;
use std::fmt;

/// The sort of a term.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sort {
    Bool,
    Bv(u32),
}

impl Sort {
    /// The number of bits of a value of this sort (1 for `bool`).
    pub fn width(self) -> u32 {
        match self {
            Sort::Bool => 1,
            Sort::Bv(w) => w,
        }
    }
    /// Whether this is `bool`.
    pub fn is_bool(self) -> bool {
        self == Sort::Bool
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => write!(f, "bool"),
            Sort::Bv(w) => write!(f, "bv{w}"),
        }
    }
}

/// The id of a term in its [`TermManager`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct TermId(u32);

impl TermId {
    /// The index of this term in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The id of a free variable (a leaf that is not a constant).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct VarId(pub u32);

impl VarId {
    /// The index of this variable.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Operators. `Not`, `And`, `Or`, `Xor`, `Eq` and `Ite` work on `bool` and on bit-vectors
/// (bitwise); the others on bit-vectors only.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    Not,
    And,
    Or,
    Xor,
    Neg,
    Add,
    Sub,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Shl,
    Lshr,
    Ashr,
    /// `concat(hi, lo)`: the first argument gives the high bits.
    Concat,
    /// Bits `lo..=hi` of the argument.
    Extract {
        hi: u32,
        lo: u32,
    },
    /// Zero-extension to the given width.
    Zext(u32),
    /// Sign-extension to the given width.
    Sext(u32),
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
    /// `ite(cond, then, else)` with a `bool` condition.
    Ite,
}

impl Op {
    /// Whether the operator is commutative (its arguments are kept sorted by id).
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            Op::And | Op::Or | Op::Xor | Op::Add | Op::Mul | Op::Eq
        )
    }
    /// The SMT-LIB name of the operator.
    pub fn smt_name(self) -> &'static str {
        match self {
            Op::Not => "bvnot",
            Op::And => "bvand",
            Op::Or => "bvor",
            Op::Xor => "bvxor",
            Op::Neg => "bvneg",
            Op::Add => "bvadd",
            Op::Sub => "bvsub",
            Op::Mul => "bvmul",
            Op::Udiv => "bvudiv",
            Op::Urem => "bvurem",
            Op::Sdiv => "bvsdiv",
            Op::Srem => "bvsrem",
            Op::Shl => "bvshl",
            Op::Lshr => "bvlshr",
            Op::Ashr => "bvashr",
            Op::Concat => "concat",
            Op::Extract { .. } => "extract",
            Op::Zext(_) => "zero_extend",
            Op::Sext(_) => "sign_extend",
            Op::Eq => "=",
            Op::Ult => "bvult",
            Op::Ule => "bvule",
            Op::Slt => "bvslt",
            Op::Sle => "bvsle",
            Op::Ite => "ite",
        }
    }
}

/// A node of the term DAG.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    /// A constant; its bits above the width are zero (`bool`: 0 or 1).
    Const(u128),
    /// A free variable.
    Var(VarId),
    /// An operator applied to its arguments; unused argument slots hold the first argument.
    App(Op, [TermId; 3]),
}

/// Information about a free variable.
#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub sort: Sort,
    pub term: TermId,
}

/// The arena of terms with hash-consing.
#[derive(Clone, Debug, Default)]
pub struct TermManager {
    nodes: Vec<Node>,
    sorts: Vec<Sort>,
    table: HashMap<(Node, Sort), TermId>,
    vars: Vec<VarInfo>,
    /// How often each rewrite rule fired.
    rewrites: Rewrites,
}

/// The number of arguments of an application of `op`.
pub fn arity(op: Op) -> usize {
    match op {
        Op::Not | Op::Neg | Op::Extract { .. } | Op::Zext(_) | Op::Sext(_) => 1,
        Op::Ite => 3,
        _ => 2,
    }
}

impl TermManager {
    /// An empty manager.
    pub fn new() -> TermManager {
        TermManager::default()
    }

    /// The bytes the arena and its hash-consing table hold (their capacities), for memory
    /// budgets: growing either allocates up to twice as much again.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node>()
            + self.sorts.capacity() * size_of::<Sort>()
            + self.table.capacity() * (size_of::<((Node, Sort), TermId)>() + 1)
    }

    /// Every term of the arena, in creation order.
    pub fn ids(&self) -> impl Iterator<Item = TermId> {
        (0..self.nodes.len() as u32).map(TermId)
    }

    /// The number of terms in the arena.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the arena is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of a term.
    pub fn node(&self, t: TermId) -> Node {
        self.nodes[t.index()]
    }

    /// The sort of a term.
    pub fn sort(&self, t: TermId) -> Sort {
        self.sorts[t.index()]
    }

    /// The width of a term (1 for `bool`).
    pub fn width(&self, t: TermId) -> u32 {
        self.sort(t).width()
    }

    /// The arguments of a term (empty for leaves).
    pub fn args(&self, t: TermId) -> &[TermId] {
        match &self.nodes[t.index()] {
            Node::App(op, args) => &args[..arity(*op)],
            _ => &[],
        }
    }

    /// The value of a constant term.
    pub fn const_value(&self, t: TermId) -> Option<u128> {
        match self.node(t) {
            Node::Const(v) => Some(v),
            _ => None,
        }
    }

    /// Whether `t` is the constant `true`.
    pub fn is_true(&self, t: TermId) -> bool {
        self.sort(t) == Sort::Bool && self.const_value(t) == Some(1)
    }

    /// Whether `t` is the constant `false`.
    pub fn is_false(&self, t: TermId) -> bool {
        self.sort(t) == Sort::Bool && self.const_value(t) == Some(0)
    }

    /// All free variables created so far.
    pub fn vars(&self) -> &[VarInfo] {
        &self.vars
    }

    /// Information about a free variable.
    pub fn var_info(&self, v: VarId) -> &VarInfo {
        &self.vars[v.index()]
    }

    /// The variable of a term that is a free variable.
    pub fn as_var(&self, t: TermId) -> Option<VarId> {
        match self.node(t) {
            Node::Var(v) => Some(v),
            _ => None,
        }
    }

    fn intern(&mut self, node: Node, sort: Sort) -> TermId {
        if let Some(&id) = self.table.get(&(node, sort)) {
            return id;
        }
        let id = TermId(u32::try_from(self.nodes.len()).expect("more than 2^32 terms"));
        self.nodes.push(node);
        self.sorts.push(sort);
        self.table.insert((node, sort), id);
        id
    }

    // ----- leaves -------------------------------------------------------------------------

    /// A fresh free variable. Names need not be unique; each call makes a distinct variable.
    pub fn var(&mut self, name: impl Into<String>, sort: Sort) -> TermId {
        check_sort(sort);
        let v = VarId(self.vars.len() as u32);
        let t = self.intern(Node::Var(v), sort);
        self.vars.push(VarInfo {
            name: name.into(),
            sort,
            term: t,
        });
        t
    }

    /// The constant of `sort` with the given bits (truncated to the width).
    pub fn constant(&mut self, value: u128, sort: Sort) -> TermId {
        check_sort(sort);
        self.intern(Node::Const(value::truncate(value, sort.width())), sort)
    }

    /// A bit-vector constant of `width` bits.
    pub fn bv_const(&mut self, value: u128, width: u32) -> TermId {
        self.constant(value, Sort::Bv(width))
    }

    /// A bit-vector constant from a signed value (two's complement, wrapping).
    pub fn bv_const_signed(&mut self, value: i128, width: u32) -> TermId {
        self.constant(value::from_signed(value, width), Sort::Bv(width))
    }

    /// The boolean constant `b`.
    pub fn bool_const(&mut self, b: bool) -> TermId {
        self.constant(b as u128, Sort::Bool)
    }

    /// `true`.
    pub fn tru(&mut self) -> TermId {
        self.bool_const(true)
    }

    /// `false`.
    pub fn fals(&mut self) -> TermId {
        self.bool_const(false)
    }

    // ----- generic application -------------------------------------------------------------

    /// Apply `op` to `args`, with sort checking, constant folding and normalisation.
    pub fn app(&mut self, op: Op, args: &[TermId]) -> TermId {
        assert_eq!(
            args.len(),
            arity(op),
            "wrong number of arguments for {op:?}"
        );
        let sort = self.result_sort(op, args);
        // Constant folding.
        if args.iter().all(|&a| self.const_value(a).is_some()) {
            let vals: Vec<u128> = args
                .iter()
                .map(|&a| self.const_value(a).unwrap_or(0))
                .collect();
            let sorts: Vec<Sort> = args.iter().map(|&a| self.sort(a)).collect();
            let v = value::apply(op, &vals, &sorts, sort);
            return self.constant(v, sort);
        }
        let mut a = [args[0]; 3];
        a[..args.len()].copy_from_slice(args);
        if op.is_commutative() && a[1] < a[0] {
            a.swap(0, 1);
        }
        for i in args.len()..3 {
            a[i] = a[0];
        }
        if let Some(t) = self.simplify(op, a, sort) {
            return t;
        }
        self.intern(Node::App(op, a), sort)
    }

    fn result_sort(&self, op: Op, args: &[TermId]) -> Sort {
        let s0 = self.sort(args[0]);
        let same = |i: usize| {
            assert_eq!(self.sort(args[i]), s0, "{op:?}: argument sorts differ");
        };
        match op {
            Op::Not => s0,
            Op::And | Op::Or | Op::Xor => {
                same(1);
                s0
            }
            Op::Neg => {
                assert!(!s0.is_bool(), "{op:?} on bool");
                s0
            }
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Udiv
            | Op::Urem
            | Op::Sdiv
            | Op::Srem
            | Op::Shl
            | Op::Lshr
            | Op::Ashr => {
                assert!(!s0.is_bool(), "{op:?} on bool");
                same(1);
                s0
            }
            Op::Concat => {
                let s1 = self.sort(args[1]);
                assert!(!s0.is_bool() && !s1.is_bool(), "concat on bool");
                Sort::Bv(s0.width() + s1.width())
            }
            Op::Extract { hi, lo } => {
                assert!(!s0.is_bool() && lo <= hi && hi < s0.width(), "bad extract");
                Sort::Bv(hi - lo + 1)
            }
            Op::Zext(w) | Op::Sext(w) => {
                assert!(
                    !s0.is_bool() && w >= s0.width() && w <= 128,
                    "bad extension"
                );
                Sort::Bv(w)
            }
            Op::Eq => {
                same(1);
                Sort::Bool
            }
            Op::Ult | Op::Ule | Op::Slt | Op::Sle => {
                assert!(!s0.is_bool(), "{op:?} on bool");
                same(1);
                Sort::Bool
            }
            Op::Ite => {
                assert!(s0.is_bool(), "ite condition must be bool");
                let s1 = self.sort(args[1]);
                assert_eq!(self.sort(args[2]), s1, "ite branches differ");
                s1
            }
        }
    }

    // ----- named constructors ----------------------------------------------------------------

    pub fn not(&mut self, a: TermId) -> TermId {
        self.app(Op::Not, &[a])
    }
    pub fn and(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::And, &[a, b])
    }
    pub fn or(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Or, &[a, b])
    }
    pub fn xor(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Xor, &[a, b])
    }
    /// `a ⇒ b` on booleans.
    pub fn implies(&mut self, a: TermId, b: TermId) -> TermId {
        let na = self.not(a);
        self.or(na, b)
    }
    /// The conjunction of all terms (`true` when empty).
    pub fn and_all(&mut self, ts: impl IntoIterator<Item = TermId>) -> TermId {
        let mut acc = self.tru();
        for t in ts {
            acc = self.and(acc, t);
        }
        acc
    }
    /// The disjunction of all terms (`false` when empty).
    pub fn or_all(&mut self, ts: impl IntoIterator<Item = TermId>) -> TermId {
        let mut acc = self.fals();
        for t in ts {
            acc = self.or(acc, t);
        }
        acc
    }
    pub fn neg(&mut self, a: TermId) -> TermId {
        self.app(Op::Neg, &[a])
    }
    pub fn add(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Add, &[a, b])
    }
    pub fn sub(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Sub, &[a, b])
    }
    pub fn mul(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Mul, &[a, b])
    }
    pub fn udiv(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Udiv, &[a, b])
    }
    pub fn urem(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Urem, &[a, b])
    }
    pub fn sdiv(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Sdiv, &[a, b])
    }
    pub fn srem(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Srem, &[a, b])
    }
    pub fn shl(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Shl, &[a, b])
    }
    pub fn lshr(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Lshr, &[a, b])
    }
    pub fn ashr(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Ashr, &[a, b])
    }
    /// `concat(hi, lo)`.
    pub fn concat(&mut self, hi: TermId, lo: TermId) -> TermId {
        self.app(Op::Concat, &[hi, lo])
    }
    /// Bits `lo..=hi` of `a`.
    pub fn extract(&mut self, a: TermId, hi: u32, lo: u32) -> TermId {
        self.app(Op::Extract { hi, lo }, &[a])
    }
    /// Zero-extend `a` to `width` bits.
    pub fn zext(&mut self, a: TermId, width: u32) -> TermId {
        self.app(Op::Zext(width), &[a])
    }
    /// Sign-extend `a` to `width` bits.
    pub fn sext(&mut self, a: TermId, width: u32) -> TermId {
        self.app(Op::Sext(width), &[a])
    }
    /// Resize `a` to `width` bits: truncate, or extend (sign-extend when `signed`).
    pub fn resize(&mut self, a: TermId, width: u32, signed: bool) -> TermId {
        let w = self.width(a);
        if width < w {
            self.extract(a, width - 1, 0)
        } else if signed {
            self.sext(a, width)
        } else {
            self.zext(a, width)
        }
    }
    pub fn eq(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Eq, &[a, b])
    }
    pub fn ne(&mut self, a: TermId, b: TermId) -> TermId {
        let e = self.eq(a, b);
        self.not(e)
    }
    pub fn ult(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Ult, &[a, b])
    }
    pub fn ule(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Ule, &[a, b])
    }
    pub fn ugt(&mut self, a: TermId, b: TermId) -> TermId {
        self.ult(b, a)
    }
    pub fn uge(&mut self, a: TermId, b: TermId) -> TermId {
        self.ule(b, a)
    }
    pub fn slt(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Slt, &[a, b])
    }
    pub fn sle(&mut self, a: TermId, b: TermId) -> TermId {
        self.app(Op::Sle, &[a, b])
    }
    pub fn sgt(&mut self, a: TermId, b: TermId) -> TermId {
        self.slt(b, a)
    }
    pub fn sge(&mut self, a: TermId, b: TermId) -> TermId {
        self.sle(b, a)
    }
    pub fn ite(&mut self, c: TermId, t: TermId, e: TermId) -> TermId {
        self.app(Op::Ite, &[c, t, e])
    }
    /// A `bool` as a 1-bit vector.
    pub fn bool_to_bv(&mut self, b: TermId) -> TermId {
        let one = self.bv_const(1, 1);
        let zero = self.bv_const(0, 1);
        self.ite(b, one, zero)
    }
    /// `a != 0` for a bit-vector, `a` itself for a `bool`.
    pub fn is_nonzero(&mut self, a: TermId) -> TermId {
        match self.sort(a) {
            Sort::Bool => a,
            Sort::Bv(w) => {
                let z = self.bv_const(0, w);
                self.ne(a, z)
            }
        }
    }

    // ----- traversals ------------------------------------------------------------------------

    /// Rebuild `t` with every term in `map` replaced by its image (images must have the same
    /// sort). Iterative; shares work across the DAG.
    pub fn substitute(&mut self, t: TermId, map: &HashMap<TermId, TermId>) -> TermId {
        let mut cache: HashMap<TermId, TermId> = HashMap::new();
        self.substitute_cached(t, map, &mut cache)
    }

    /// [`TermManager::substitute`] with a caller-owned cache, for many roots under one map.
    pub fn substitute_cached(
        &mut self,
        t: TermId,
        map: &HashMap<TermId, TermId>,
        cache: &mut HashMap<TermId, TermId>,
    ) -> TermId {
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if cache.contains_key(&u) {
                continue;
            }
            if let Some(&img) = map.get(&u) {
                debug_assert_eq!(self.sort(img), self.sort(u));
                cache.insert(u, img);
                continue;
            }
            let node = self.node(u);
            match node {
                Node::Const(_) | Node::Var(_) => {
                    cache.insert(u, u);
                }
                Node::App(op, args) => {
                    let n = arity(op);
                    if expanded {
                        let new: Vec<TermId> = args[..n].iter().map(|a| cache[a]).collect();
                        let r = if new[..] == args[..n] {
                            u
                        } else {
                            self.app(op, &new)
                        };
                        cache.insert(u, r);
                    } else {
                        stack.push((u, true));
                        for &a in args[..n].iter() {
                            if !cache.contains_key(&a) {
                                stack.push((a, false));
                            }
                        }
                    }
                }
            }
        }
        cache[&t]
    }

    /// The free variables occurring in `t`, in increasing order.
    pub fn free_vars(&self, t: TermId) -> Vec<VarId> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut stack = vec![t];
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            match self.node(u) {
                Node::Var(v) => out.push(v),
                Node::Const(_) => {}
                Node::App(op, args) => stack.extend_from_slice(&args[..arity(op)]),
            }
        }
        out.sort();
        out
    }

    /// The number of distinct terms in the DAG below `t` (including `t`).
    pub fn dag_size(&self, t: TermId) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![t];
        while let Some(u) = stack.pop() {
            if seen.insert(u) {
                stack.extend_from_slice(self.args(u));
            }
        }
        seen.len()
    }
}

fn check_sort(sort: Sort) {
    if let Sort::Bv(w) = sort {
        assert!(
            (1..=128).contains(&w),
            "bit-vector width {w} out of 1..=128"
        );
    }
}

#[cfg(test)]
mod tests;
