//! The local rewrites applied by [`TermManager::app`] after constant folding, one function per
//! rule (as in Bitwuzla's rewriter): identities, absorbing and neutral elements, double
//! negations, `ite` with constant or equal branches, extractions through concatenations and
//! extensions, and (in [`super::narrow`]) comparisons and extensions narrowed to the width of
//! the extended terms.
//!
//! Each operator has an ordered list of rules ([`rules`]); the first that applies gives the
//! term, and the manager counts how often each rule fired ([`Rewrites`], shown by
//! `verify -v`). A rule may build its result with [`TermManager::app`], which rewrites that
//! result in turn. Every rule is valid over bit-vectors of the given widths; the property test
//! in `tests.rs` checks them against direct evaluation, and a test there makes each rule fire
//! on an input of its own.

mod arith;
mod logic;
mod words;

use super::{value, Node, Op, Sort, TermId, TermManager};
use arith::*;
use logic::*;
use words::*;

/// An application about to be built: the operator, its arguments (commutative ones sorted by
/// id, unused slots repeating the first), the result's sort, and the values of the first two
/// arguments when constant. Not every argument is constant (constants are folded first), so a
/// binary application has at most one constant argument.
pub(super) struct Redex {
    pub op: Op,
    pub a: [TermId; 3],
    pub sort: Sort,
    pub c0: Option<u128>,
    pub c1: Option<u128>,
}

impl Redex {
    /// The result's width (1 for `bool`).
    fn width(&self) -> u32 {
        self.sort.width()
    }

    /// The result's all-ones value.
    fn ones(&self) -> u128 {
        value::mask(self.width())
    }

    /// The constant argument of a binary application and the other argument.
    fn constant_and_other(&self) -> Option<(u128, TermId)> {
        match (self.c0, self.c1) {
            (Some(c), _) => Some((c, self.a[1])),
            (None, Some(c)) => Some((c, self.a[0])),
            (None, None) => None,
        }
    }
}

/// A rule: `Some(term)` equal to the redex, or `None` when it does not apply.
type Apply = fn(&mut TermManager, &Redex) -> Option<TermId>;

/// Declares the rules once: their names, their functions, and their numbers for the counters.
macro_rules! rules {
    ($($rule:ident $name:literal $apply:ident,)*) => {
        /// The rewrite rules, each with a name (see [`Rule::name`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Rule {
            $($rule,)*
        }

        impl Rule {
            /// Every rule, in the order the counters are kept.
            pub const ALL: &'static [Rule] = &[$(Rule::$rule,)*];

            /// The rule's name, as `verify -v` prints it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Rule::$rule => $name,)*
                }
            }

            fn apply(self) -> Apply {
                match self {
                    $(Rule::$rule => $apply,)*
                }
            }
        }
    };
}

rules! {
    NotNot "not-not" not_not,
    AndOrAbsorbing "and-or-absorbing" and_or_absorbing,
    AndOrNeutral "and-or-neutral" and_or_neutral,
    AndOrIdempotent "and-or-idempotent" and_or_idempotent,
    AndOrComplement "and-or-complement" and_or_complement,
    Absorption "absorption" absorption,
    Factoring "factoring" factoring,
    XorSelf "xor-self" xor_self,
    XorZero "xor-zero" xor_zero,
    XorOnes "xor-ones" xor_ones,
    XorComplement "xor-complement" xor_complement,
    IteConstant "ite-constant" ite_constant,
    IteSameBranches "ite-same-branches" ite_same_branches,
    IteNotCondition "ite-not-condition" ite_not_condition,
    IteBoolIdentity "ite-bool-identity" ite_bool_identity,
    IteBoolNegation "ite-bool-negation" ite_bool_negation,
    IteThenTrue "ite-then-true" ite_then_true,
    IteThenFalse "ite-then-false" ite_then_false,
    IteElseFalse "ite-else-false" ite_else_false,
    IteElseTrue "ite-else-true" ite_else_true,
    NegNeg "neg-neg" neg_neg,
    AddZero "add-zero" add_zero,
    AddConstants "add-constants" add_constants,
    SubZero "sub-zero" sub_zero,
    SubSelf "sub-self" sub_self,
    ZeroSub "zero-sub" zero_sub,
    MulZero "mul-zero" mul_zero,
    MulOne "mul-one" mul_one,
    DivOne "div-one" div_one,
    RemOne "rem-one" rem_one,
    ShiftByZero "shift-by-zero" shift_by_zero,
    ShiftOfZero "shift-of-zero" shift_of_zero,
    ShiftOverwide "shift-overwide" shift_overwide,
    ExtractWhole "extract-whole" extract_whole,
    ExtractExtract "extract-extract" extract_extract,
    ExtractConcatLow "extract-concat-low" extract_concat_low,
    ExtractConcatHigh "extract-concat-high" extract_concat_high,
    ExtractExtended "extract-extended" extract_extended,
    NarrowExtract "narrow-extract" narrow_extract,
    ExtendSameWidth "extend-same-width" extend_same_width,
    NarrowExtension "narrow-extension" narrow_extension,
    EqSelf "eq-self" eq_self,
    EqBoolTrue "eq-bool-true" eq_bool_true,
    EqBoolFalse "eq-bool-false" eq_bool_false,
    EqComplement "eq-complement" eq_complement,
    EqAddConstant "eq-add-constant" eq_add_constant,
    NarrowComparison "narrow-comparison" narrow_comparison,
    LtSelf "lt-self" lt_self,
    UltZero "ult-zero" ult_zero,
    LeSelf "le-self" le_self,
    UleTrivial "ule-trivial" ule_trivial,
}

/// The rules of `op`, in the order they are tried.
pub fn rules(op: Op) -> &'static [Rule] {
    use Rule::*;
    match op {
        Op::Not => &[NotNot],
        Op::And | Op::Or => &[
            AndOrAbsorbing,
            AndOrNeutral,
            AndOrIdempotent,
            AndOrComplement,
            Absorption,
            Factoring,
        ],
        Op::Xor => &[XorSelf, XorZero, XorOnes, XorComplement],
        Op::Ite => &[
            IteConstant,
            IteSameBranches,
            IteNotCondition,
            IteBoolIdentity,
            IteBoolNegation,
            IteThenTrue,
            IteThenFalse,
            IteElseFalse,
            IteElseTrue,
        ],
        Op::Neg => &[NegNeg],
        Op::Add => &[AddZero, AddConstants],
        Op::Sub => &[SubZero, SubSelf, ZeroSub],
        Op::Mul => &[MulZero, MulOne],
        Op::Udiv | Op::Sdiv => &[DivOne],
        Op::Urem | Op::Srem => &[RemOne],
        Op::Shl | Op::Lshr | Op::Ashr => &[ShiftByZero, ShiftOfZero, ShiftOverwide],
        Op::Extract { .. } => &[
            ExtractWhole,
            ExtractExtract,
            ExtractConcatLow,
            ExtractConcatHigh,
            ExtractExtended,
            NarrowExtract,
        ],
        Op::Zext(_) | Op::Sext(_) => &[ExtendSameWidth, NarrowExtension],
        Op::Eq => &[
            EqSelf,
            EqBoolTrue,
            EqBoolFalse,
            EqComplement,
            EqAddConstant,
            NarrowComparison,
        ],
        Op::Ult | Op::Slt => &[LtSelf, NarrowComparison, UltZero],
        Op::Ule | Op::Sle => &[LeSelf, NarrowComparison, UleTrivial],
        Op::Concat => &[],
    }
}

/// How often each rule fired in one term manager.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rewrites {
    /// By rule number; empty until a rule fires.
    counts: Vec<u64>,
}

impl Rewrites {
    fn count(&mut self, rule: Rule) {
        if self.counts.is_empty() {
            self.counts = vec![0; Rule::ALL.len()];
        }
        self.counts[rule as usize] += 1;
    }

    /// How often `rule` fired.
    pub fn get(&self, rule: Rule) -> u64 {
        self.counts.get(rule as usize).copied().unwrap_or(0)
    }

    /// The rules that fired, with their counts, in the order of [`Rule::ALL`].
    pub fn fired(&self) -> impl Iterator<Item = (Rule, u64)> + '_ {
        Rule::ALL
            .iter()
            .map(|&r| (r, self.get(r)))
            .filter(|&(_, n)| n > 0)
    }

    /// All rewrites.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

impl TermManager {
    /// The term the first rule of `op` that applies gives, counting it.
    pub(super) fn simplify(&mut self, op: Op, a: [TermId; 3], sort: Sort) -> Option<TermId> {
        let redex = Redex {
            op,
            a,
            sort,
            c0: self.const_value(a[0]),
            c1: self.const_value(a[1]),
        };
        for &rule in rules(op) {
            if let Some(t) = rule.apply()(self, &redex) {
                self.rewrites.count(rule);
                return Some(t);
            }
        }
        None
    }

    /// How often each rewrite rule fired in this manager (and in the one it was cloned from,
    /// before the clone).
    pub fn rewrites(&self) -> &Rewrites {
        &self.rewrites
    }

    /// `(t, c)` when `x` is `t + c` with a constant `c`.
    fn plus_constant(&self, x: TermId) -> Option<(TermId, u128)> {
        match self.node(x) {
            Node::App(Op::Add, [p, q, _]) => match (self.const_value(p), self.const_value(q)) {
                (Some(c), None) => Some((q, c)),
                (None, Some(c)) => Some((p, c)),
                _ => None,
            },
            _ => None,
        }
    }

    fn is_negation_of(&self, x: TermId, y: TermId) -> bool {
        matches!(self.node(x), Node::App(Op::Not, i) if i[0] == y)
            || matches!(self.node(y), Node::App(Op::Not, i) if i[0] == x)
    }
}

#[cfg(test)]
mod tests;
