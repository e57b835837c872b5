//! Templates of candidate invariants over the state variables of a program system, evaluated
//! on concrete states (to refute them by simulation) and built as AIG literals (to prove them).
//!
//! An instance is a [`Shape`] over state variables (indices into a [`StateVar`] list):
//! - `x ⋈ c` for a constant `c`, and `x ⋈ y`, with `⋈` one of `==`, `<`, `<=`, `>`, `>=`,
//!   comparing the values as the C type reads them (signed or unsigned);
//! - `x - y ⋈ c`, the *exact* difference (no wrap-around: both are widened by two bits before
//!   subtracting), so `i - k <= 999999` means what it says for any values;
//! - `x + y ⋈ z` and `x - a·y ⋈ c` (a > 1; [`linear`] makes `a` = 2, 3 against 0), also exact;
//! - `x + y == z` and `x + y == z + w` in the type's wrapping arithmetic.
//!
//! [`Shape::holds`] and [`Shape::build`] define the same predicate, one on integers and one on
//! AIG bits; a disagreement could only lose a candidate (a wrong refutation) or waste a SAT
//! call, never make one unsound, since every candidate used is proved on its AIG literal.

use crate::aig::blast::{add, eq, less, less_signed, sub};
use crate::aig::{Aig, AigLit};
use crate::cfa::PVar;

/// A state variable: its C name, signedness, latch nodes (least significant first) and
/// program variable.
#[derive(Clone, Debug)]
pub struct StateVar {
    pub name: String,
    pub signed: bool,
    pub bits: Vec<AigLit>,
    pub pvar: PVar,
}

impl StateVar {
    /// The value of raw bits `v` as the C type reads them (widths up to 64 bits).
    pub fn value(&self, v: u128) -> i128 {
        let w = self.bits.len() as u32;
        if self.signed && w < 128 && (v >> (w - 1)) & 1 == 1 {
            (v as i128) - (1i128 << w)
        } else {
            v as i128
        }
    }

    /// The smallest and largest values of the type.
    pub fn range(&self) -> (i128, i128) {
        let w = self.bits.len() as u32;
        if self.signed {
            (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
        } else {
            (0, (1i128 << w) - 1)
        }
    }
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }

    /// `a ⋈ b` on bit vectors of one width.
    fn build(self, aig: &mut Aig, a: &[AigLit], b: &[AigLit], signed: bool) -> AigLit {
        let lt = |aig: &mut Aig, p: &[AigLit], q: &[AigLit], or_equal: bool| {
            if signed {
                less_signed(aig, p, q, or_equal)
            } else {
                less(aig, p, q, or_equal)
            }
        };
        match self {
            Cmp::Eq => eq(aig, a, b),
            Cmp::Lt => lt(aig, a, b, false),
            Cmp::Le => lt(aig, a, b, true),
            Cmp::Gt => lt(aig, b, a, false),
            Cmp::Ge => lt(aig, b, a, true),
        }
    }
}

/// A template instance over state variables (indices into the [`StateVar`] list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `x ⋈ c`.
    Const(usize, Cmp, i128),
    /// `x ⋈ y` (same width and signedness).
    Pair(usize, Cmp, usize),
    /// `x - y ⋈ c`, exactly.
    Diff(usize, usize, Cmp, i128),
    /// `x + y ⋈ z`, exactly.
    SumCmp(usize, usize, Cmp, usize),
    /// `x - a·y ⋈ c`, exactly.
    Scaled(usize, i128, usize, Cmp, i128),
    /// `x + y == z`, wrapping (same width and signedness).
    Sum3(usize, usize, usize),
    /// `x + y == z + w`, wrapping (same width and signedness).
    Sum4(usize, usize, usize, usize),
}

impl Shape {
    /// The variables the instance reads.
    pub fn vars(&self) -> Vec<usize> {
        match *self {
            Shape::Const(x, _, _) => vec![x],
            Shape::Pair(x, _, y) | Shape::Diff(x, y, _, _) => vec![x, y],
            Shape::Scaled(x, _, y, _, _) => vec![x, y],
            Shape::Sum3(x, y, z) | Shape::SumCmp(x, y, _, z) => vec![x, y, z],
            Shape::Sum4(x, y, z, w) => vec![x, y, z, w],
        }
    }

    /// Whether the instance holds when the variables have the raw values `vals`.
    pub fn holds(&self, vars: &[StateVar], vals: &[u128]) -> bool {
        let v = |i: usize| vars[i].value(vals[i]);
        let wrap = |i: usize, x: u128| {
            let w = vars[i].bits.len();
            if w >= 128 {
                x
            } else {
                x & ((1u128 << w) - 1)
            }
        };
        match *self {
            Shape::Const(x, op, c) => op.holds(v(x), c),
            Shape::Pair(x, op, y) => op.holds(v(x), v(y)),
            Shape::Diff(x, y, op, c) => op.holds(v(x) - v(y), c),
            Shape::SumCmp(x, y, op, z) => op.holds(v(x) + v(y), v(z)),
            Shape::Scaled(x, a, y, op, c) => op.holds(v(x) - a * v(y), c),
            Shape::Sum3(x, y, z) => wrap(x, vals[x].wrapping_add(vals[y])) == vals[z],
            Shape::Sum4(x, y, z, w) => {
                wrap(x, vals[x].wrapping_add(vals[y])) == wrap(x, vals[z].wrapping_add(vals[w]))
            }
        }
    }

    /// The instance as a C-like expression.
    pub fn text(&self, vars: &[StateVar]) -> String {
        let n = |i: usize| vars[i].name.as_str();
        match *self {
            Shape::Const(x, op, c) => format!("{} {} {c}", n(x), op.text()),
            Shape::Pair(x, op, y) => format!("{} {} {}", n(x), op.text(), n(y)),
            Shape::Diff(x, y, op, c) => format!("{} - {} {} {c}", n(x), n(y), op.text()),
            Shape::SumCmp(x, y, op, z) => format!("{} + {} {} {}", n(x), n(y), op.text(), n(z)),
            Shape::Scaled(x, a, y, op, c) => {
                format!("{} - {a} * {} {} {c}", n(x), n(y), op.text())
            }
            Shape::Sum3(x, y, z) => format!("{} + {} == {}", n(x), n(y), n(z)),
            Shape::Sum4(x, y, z, w) => format!("{} + {} == {} + {}", n(x), n(y), n(z), n(w)),
        }
    }

    /// The instance as a C expression with the same meaning for the C types of the variables
    /// (no undefined behaviour, no wrap-around where the instance is exact), or `None` where C
    /// has no such expression within `long long`: exact instances are computed in `long long`
    /// over variables of at most 32 bits, wrapping ones in the unsigned type of their width.
    pub fn c_text(&self, vars: &[StateVar]) -> Option<String> {
        let exact = |xs: &[usize]| xs.iter().all(|&i| vars[i].bits.len() <= 32);
        let small = |c: i128| c.abs() < (1i128 << 62);
        let ll = |i: usize| format!("(long long){}", vars[i].name);
        let wrap_ty = |i: usize| match vars[i].bits.len() {
            8 => Some("unsigned char"),
            16 => Some("unsigned short"),
            32 => Some("unsigned int"),
            64 => Some("unsigned long long"),
            _ => None,
        };
        let u = |t: &str, i: usize| format!("({t}){}", vars[i].name);
        Some(match *self {
            Shape::Const(x, op, c) if exact(&[x]) && small(c) => {
                format!("{} {} {c}LL", ll(x), op.text())
            }
            Shape::Pair(x, op, y) if exact(&[x, y]) => format!("{} {} {}", ll(x), op.text(), ll(y)),
            Shape::Diff(x, y, op, c) if exact(&[x, y]) && small(c) => {
                format!("{} - {} {} {c}LL", ll(x), ll(y), op.text())
            }
            Shape::SumCmp(x, y, op, z) if exact(&[x, y, z]) => {
                format!("{} + {} {} {}", ll(x), ll(y), op.text(), ll(z))
            }
            Shape::Scaled(x, a, y, op, c) if exact(&[x, y]) && a.abs() < (1 << 28) && small(c) => {
                format!("{} - {a}LL * {} {} {c}LL", ll(x), ll(y), op.text())
            }
            Shape::Sum3(x, y, z) => {
                let t = wrap_ty(x)?;
                format!("({t})({} + {}) == {}", u(t, x), u(t, y), u(t, z))
            }
            Shape::Sum4(x, y, z, w) => {
                let t = wrap_ty(x)?;
                format!(
                    "({t})({} + {}) == ({t})({} + {})",
                    u(t, x),
                    u(t, y),
                    u(t, z),
                    u(t, w)
                )
            }
            _ => return None,
        })
    }

    /// The instance as an AIG literal over the variables' latches.
    pub fn build(&self, vars: &[StateVar], aig: &mut Aig) -> AigLit {
        let b = |i: usize| vars[i].bits.clone();
        match *self {
            Shape::Const(x, op, c) => {
                let k = constant(c, vars[x].bits.len());
                op.build(aig, &b(x), &k, vars[x].signed)
            }
            Shape::Pair(x, op, y) => op.build(aig, &b(x), &b(y), vars[x].signed),
            Shape::Diff(x, y, op, c) => {
                let w = vars[x].bits.len().max(vars[y].bits.len()) + 2;
                let d = sub(aig, &widen(&vars[x], w), &widen(&vars[y], w));
                op.build(aig, &d, &constant(c, w), true)
            }
            Shape::SumCmp(x, y, op, z) => {
                let w = [x, y, z]
                    .iter()
                    .map(|&i| vars[i].bits.len())
                    .max()
                    .unwrap_or(0)
                    + 2;
                let s = add(aig, &widen(&vars[x], w), &widen(&vars[y], w));
                op.build(aig, &s, &widen(&vars[z], w), true)
            }
            Shape::Scaled(x, a, y, op, c) => {
                // a·y as a sum of shifted copies of y (a is a small positive constant).
                let w = vars[x].bits.len().max(vars[y].bits.len())
                    + 2
                    + (128 - a.leading_zeros()) as usize;
                let wy = widen(&vars[y], w);
                let mut ay = constant(0, w);
                for k in 0..(128 - a.leading_zeros()) as usize {
                    if (a >> k) & 1 == 1 {
                        let mut shifted = vec![AigLit::FALSE; k];
                        shifted.extend_from_slice(&wy[..w - k]);
                        ay = add(aig, &ay, &shifted);
                    }
                }
                let d = sub(aig, &widen(&vars[x], w), &ay);
                op.build(aig, &d, &constant(c, w), true)
            }
            Shape::Sum3(x, y, z) => {
                let s = add(aig, &b(x), &b(y));
                eq(aig, &s, &b(z))
            }
            Shape::Sum4(x, y, z, w) => {
                let s = add(aig, &b(x), &b(y));
                let t = add(aig, &b(z), &b(w));
                eq(aig, &s, &t)
            }
        }
    }
}

/// The bits of `v` extended to `w` bits as its type says.
fn widen(v: &StateVar, w: usize) -> Vec<AigLit> {
    let mut bits = v.bits.clone();
    let fill = if v.signed {
        *bits.last().expect("variables have bits")
    } else {
        AigLit::FALSE
    };
    bits.resize(w, fill);
    bits
}

/// The two's-complement bits of `c` in `w` bits.
fn constant(c: i128, w: usize) -> Vec<AigLit> {
    (0..w)
        .map(|i| AigLit::constant(if i >= 127 { c < 0 } else { (c >> i) & 1 == 1 }))
        .collect()
}

/// Sums are tried among at most this many variables (of one type, for wrapping sums).
pub const MAX_SUM_VARS: usize = 8;

/// The factors `a` of the scaled differences `x - a·y`.
const SCALES: [i128; 2] = [2, 3];

/// Comparisons among the variables `here` (indices into `vars`, ascending), in chunks: for
/// each variable, its comparisons with 0 and with the constants `consts` that its type can
/// hold (`==`, `<=`, `>=`; and `> 0`); then for each pair of variables of one type, `==`,
/// `<`, `<=`, `>`, `>=`. The chunks come one at a time, so that a caller that needs only the
/// first few never holds (or makes) the quadratically many pairs of a large program.
pub fn comparisons<'a>(
    vars: &'a [StateVar],
    here: &'a [usize],
    consts: &'a [i128],
) -> impl Iterator<Item = Vec<Shape>> + 'a {
    let singles = here.iter().map(move |&x| {
        let v = &vars[x];
        let (lo, hi) = v.range();
        let mut out = vec![Shape::Const(x, Cmp::Eq, 0), Shape::Const(x, Cmp::Gt, 0)];
        if v.signed {
            out.push(Shape::Const(x, Cmp::Ge, 0));
        }
        for &c in consts.iter().filter(|&&c| c != 0 && lo < c && c < hi) {
            out.extend([Cmp::Eq, Cmp::Le, Cmp::Ge].map(|op| Shape::Const(x, op, c)));
        }
        out
    });
    let pairs = pairs(here)
        .filter(move |&(x, y)| same_type(vars, x, y))
        .map(|(x, y)| {
            [Cmp::Eq, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge]
                .map(|op| Shape::Pair(x, op, y))
                .to_vec()
        });
    singles.chain(pairs)
}

/// The pairs `(x, y)` of `here` with `x` before `y`, lazily.
fn pairs(here: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    here.iter()
        .enumerate()
        .flat_map(move |(k, &x)| here[k + 1..].iter().map(move |&y| (x, y)))
}

/// Whether two variables have one width and signedness.
fn same_type(vars: &[StateVar], x: usize, y: usize) -> bool {
    vars[x].signed == vars[y].signed && vars[x].bits.len() == vars[y].bits.len()
}

/// Linear relations among the variables `here` (indices into `vars`, ascending), in chunks
/// as [`comparisons`] gives them: for each pair, exact differences against the constants
/// `consts` and their negations (`==`, `<=`, `>=`; and against 0 for variables of different
/// types); for each ordered pair, `x - 2y` and `x - 3y` against 0 (`<=`, `>=`); and, when the
/// program has at most [`MAX_SUM_VARS`] variables, the exact comparisons `x + y <= z` and
/// `x + y >= z`, and among the variables of a type that has at most [`MAX_SUM_VARS`], the
/// wrapping sums `x + y == z` and `x + y == z + w` (the counts are over all of `vars`, and
/// only instances over `here` are made).
pub fn linear<'a>(
    vars: &'a [StateVar],
    here: &'a [usize],
    consts: &'a [i128],
) -> impl Iterator<Item = Vec<Shape>> + 'a {
    let mut cs: Vec<i128> = consts.iter().flat_map(|&c| [c, -c]).collect();
    cs.sort_unstable();
    cs.dedup();
    let diffs = pairs(here).map(move |(x, y)| {
        let w = vars[x].bits.len().max(vars[y].bits.len()) as u32;
        // Variables of different types have no `Pair` comparison: `x - y ⋈ 0` stands in.
        let zero = (!same_type(vars, x, y)).then_some(0);
        let bounded = cs
            .iter()
            .copied()
            .filter(|&c| c.unsigned_abs() < 1u128 << w)
            .collect::<Vec<_>>();
        zero.into_iter()
            .chain(bounded)
            .flat_map(|c| [Cmp::Eq, Cmp::Le, Cmp::Ge].map(|op| Shape::Diff(x, y, op, c)))
            .collect::<Vec<_>>()
    });
    let scaled = here.iter().flat_map(move |&x| {
        here.iter().filter(move |&&y| y != x).map(move |&y| {
            SCALES
                .iter()
                .flat_map(|&a| [Cmp::Le, Cmp::Ge].map(|op| Shape::Scaled(x, a, y, op, 0)))
                .collect::<Vec<_>>()
        })
    });
    let sums = (vars.len() <= MAX_SUM_VARS)
        .then(|| {
            pairs(here).map(move |(x, y)| {
                here.iter()
                    .filter(|&&z| z != x && z != y)
                    .flat_map(|&z| [Cmp::Le, Cmp::Ge].map(|op| Shape::SumCmp(x, y, op, z)))
                    .collect::<Vec<_>>()
            })
        })
        .into_iter()
        .flatten();
    diffs
        .chain(scaled)
        .chain(sums)
        .chain(std::iter::once_with(move || wrapping_sums(vars, here)))
}

/// The wrapping sums `x + y == z` and `x + y == z + w` over the variables `here` among the
/// variables of a type that `vars` has 3 to [`MAX_SUM_VARS`] of.
fn wrapping_sums(vars: &[StateVar], here: &[usize]) -> Vec<Shape> {
    let mut out = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..vars.len() {
        match groups.iter_mut().find(|g| same_type(vars, g[0], i)) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    let live = |xs: &[usize]| xs.iter().all(|x| here.binary_search(x).is_ok());
    for g in groups
        .iter()
        .filter(|g| g.len() >= 3 && g.len() <= MAX_SUM_VARS)
    {
        let pairs: Vec<(usize, usize)> = pairs(g).collect();
        for (p, &(i, j)) in pairs.iter().enumerate() {
            for &z in g.iter().filter(|&&z| z != i && z != j) {
                out.push(Shape::Sum3(i, j, z));
            }
            for &(k, l) in &pairs[p + 1..] {
                if k != i && k != j && l != i && l != j {
                    out.push(Shape::Sum4(i, j, k, l));
                }
            }
        }
    }
    out.retain(|s| live(&s.vars()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Five variables: signed and unsigned 8-bit ones and a signed 12-bit one.
    fn vars(aig: &mut Aig) -> Vec<StateVar> {
        [(8, true), (8, true), (8, false), (12, true), (8, true)]
            .iter()
            .enumerate()
            .map(|(i, &(w, signed))| StateVar {
                name: format!("v{i}"),
                signed,
                bits: (0..w).map(|_| aig.input()).collect(),
                pvar: PVar(i as u32),
            })
            .collect()
    }

    proptest! {
        /// The integer reading of every template and its AIG agree on random values.
        #[test]
        fn holds_agrees_with_the_aig(vals in proptest::collection::vec(any::<u16>(), 5)) {
            let mut aig = Aig::new();
            let vars = vars(&mut aig);
            let consts = [1, 2, 3, 100, 127, 128, 255, 2047, -5, -128];
            let all: Vec<usize> = (0..vars.len()).collect();
            let mut shapes: Vec<Shape> = comparisons(&vars, &all, &consts).flatten().collect();
            shapes.extend(linear(&vars, &all, &consts).flatten());
            // Factors and bounds as the samples give them (see `invariants::scaled_bounds`).
            for (a, c) in [(255, -3), (1000, 7000), (65535, 0), (999_983, -1_000_000)] {
                for op in [Cmp::Le, Cmp::Ge] {
                    shapes.push(Shape::Scaled(0, a, 2, op, c));
                    shapes.push(Shape::Scaled(3, a, 1, op, c));
                }
            }
            let lits: Vec<AigLit> = shapes.iter().map(|s| s.build(&vars, &mut aig)).collect();
            let raw: Vec<u128> = vars
                .iter()
                .zip(&vals)
                .map(|(v, &x)| x as u128 & ((1u128 << v.bits.len()) - 1))
                .collect();
            let mut inputs = vec![false; aig.num_vars() as usize];
            for (v, &x) in vars.iter().zip(&raw) {
                for (b, l) in v.bits.iter().enumerate() {
                    inputs[l.var() as usize] = (x >> b) & 1 == 1;
                }
            }
            let values = aig.eval_all(&inputs);
            for (s, &l) in shapes.iter().zip(&lits) {
                prop_assert_eq!(
                    Aig::lit_value(&values, l),
                    s.holds(&vars, &raw),
                    "{} at {:?}",
                    s.text(&vars),
                    raw
                );
            }
        }
    }
}
