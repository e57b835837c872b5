//! Each rule fires on an input made for it, and the term it gives evaluates like the
//! application it replaced, under assignments that include the extreme values.

use super::super::{value, Evaluator, Op, Sort, TermId, TermManager};
use super::Rule;

/// The variables the inputs are built from: `x, y, z` of 8 bits, `b, c` Booleans.
struct Vars {
    x: TermId,
    y: TermId,
    z: TermId,
    b: TermId,
    c: TermId,
}

/// An application on which `rule` is the first rule of its operator that applies.
fn input(tm: &mut TermManager, v: &Vars, rule: Rule) -> (Op, Vec<TermId>) {
    use Rule::*;
    let k = |tm: &mut TermManager, n: u128| tm.bv_const(n, 8);
    let (zero, one, ones) = (k(tm, 0), k(tm, 1), k(tm, 0xff));
    let (t, f) = (tm.tru(), tm.fals());
    let not_x = tm.app(Op::Not, &[v.x]);
    let not_b = tm.app(Op::Not, &[v.b]);
    let x_plus_3 = {
        let three = k(tm, 3);
        tm.app(Op::Add, &[v.x, three])
    };
    let (x, y) = (v.x, v.y);
    let ext = |tm: &mut TermManager, op: fn(u32) -> Op, t: TermId, to: u32| tm.app(op(to), &[t]);
    match rule {
        NotNot => (Op::Not, vec![not_x]),
        AndOrAbsorbing => (Op::And, vec![x, zero]),
        AndOrNeutral => (Op::Or, vec![x, zero]),
        AndOrIdempotent => (Op::And, vec![x, x]),
        AndOrComplement => (Op::Or, vec![x, not_x]),
        Absorption => (Op::And, vec![x, tm.app(Op::Or, &[x, y])]),
        Factoring => {
            let (xy, xz) = (tm.app(Op::And, &[x, y]), tm.app(Op::And, &[x, v.z]));
            (Op::Or, vec![xy, xz])
        }
        XorSelf => (Op::Xor, vec![x, x]),
        XorZero => (Op::Xor, vec![x, zero]),
        XorOnes => (Op::Xor, vec![x, ones]),
        XorComplement => (Op::Xor, vec![x, not_x]),
        IteConstant => (Op::Ite, vec![t, x, y]),
        IteSameBranches => (Op::Ite, vec![v.b, x, x]),
        IteNotCondition => (Op::Ite, vec![not_b, x, y]),
        IteBoolIdentity => (Op::Ite, vec![v.b, t, f]),
        IteBoolNegation => (Op::Ite, vec![v.b, f, t]),
        IteThenTrue => (Op::Ite, vec![v.b, t, v.c]),
        IteThenFalse => (Op::Ite, vec![v.b, f, v.c]),
        IteElseFalse => (Op::Ite, vec![v.b, v.c, f]),
        IteElseTrue => (Op::Ite, vec![v.b, v.c, t]),
        NegNeg => (Op::Neg, vec![tm.app(Op::Neg, &[x])]),
        AddZero => (Op::Add, vec![x, zero]),
        AddConstants => (Op::Add, vec![x_plus_3, k(tm, 5)]),
        SubZero => (Op::Sub, vec![x, zero]),
        SubSelf => (Op::Sub, vec![x, x]),
        ZeroSub => (Op::Sub, vec![zero, x]),
        MulZero => (Op::Mul, vec![x, zero]),
        MulOne => (Op::Mul, vec![x, one]),
        DivOne => (Op::Sdiv, vec![x, one]),
        RemOne => (Op::Urem, vec![x, one]),
        ShiftByZero => (Op::Shl, vec![x, zero]),
        ShiftOfZero => (Op::Lshr, vec![zero, x]),
        ShiftOverwide => (Op::Shl, vec![x, k(tm, 9)]),
        ExtractWhole => (Op::Extract { hi: 7, lo: 0 }, vec![x]),
        ExtractExtract => {
            let inner = tm.app(Op::Extract { hi: 6, lo: 2 }, &[x]);
            (Op::Extract { hi: 2, lo: 1 }, vec![inner])
        }
        ExtractConcatLow => (
            Op::Extract { hi: 3, lo: 0 },
            vec![tm.app(Op::Concat, &[x, y])],
        ),
        ExtractConcatHigh => (
            Op::Extract { hi: 12, lo: 9 },
            vec![tm.app(Op::Concat, &[x, y])],
        ),
        ExtractExtended => (Op::Extract { hi: 5, lo: 0 }, vec![ext(tm, Op::Zext, x, 16)]),
        NarrowExtract => (
            Op::Extract { hi: 11, lo: 4 },
            vec![ext(tm, Op::Sext, x, 16)],
        ),
        ExtendSameWidth => (Op::Zext(8), vec![x]),
        NarrowExtension => (Op::Zext(32), vec![ext(tm, Op::Zext, x, 16)]),
        EqSelf => (Op::Eq, vec![x, x]),
        EqBoolTrue => (Op::Eq, vec![v.b, t]),
        EqBoolFalse => (Op::Eq, vec![v.b, f]),
        EqComplement => (Op::Eq, vec![x, not_x]),
        EqAddConstant => (Op::Eq, vec![x_plus_3, k(tm, 5)]),
        NarrowComparison => {
            let (zx, zy) = (ext(tm, Op::Zext, x, 16), ext(tm, Op::Zext, y, 16));
            (Op::Ult, vec![zx, zy])
        }
        LtSelf => (Op::Slt, vec![x, x]),
        UltZero => (Op::Ult, vec![x, zero]),
        LeSelf => (Op::Sle, vec![x, x]),
        UleTrivial => (Op::Ule, vec![zero, x]),
    }
}

#[test]
fn every_rule_fires_on_its_input_and_keeps_its_value() {
    let mut tm = TermManager::new();
    let bv = |tm: &mut TermManager, n: &str| tm.var(n, Sort::Bv(8));
    let v = Vars {
        x: bv(&mut tm, "x"),
        y: bv(&mut tm, "y"),
        z: bv(&mut tm, "z"),
        b: tm.var("b", Sort::Bool),
        c: tm.var("c", Sort::Bool),
    };
    let values: Vec<u128> = vec![0, 1, 2, 3, 0x7f, 0x80, 0x81, 0xa5, 0xfe, 0xff];
    for &rule in Rule::ALL {
        let (op, args) = input(&mut tm, &v, rule);
        assert!(super::rules(op).contains(&rule), "{}", rule.name());
        let before = tm.rewrites().get(rule);
        let t = tm.app(op, &args);
        assert_eq!(
            tm.rewrites().get(rule),
            before + 1,
            "{} did not fire",
            rule.name()
        );
        let sorts: Vec<Sort> = args.iter().map(|&a| tm.sort(a)).collect();
        for (i, &xv) in values.iter().enumerate() {
            let yv = values[(i * 3 + 1) % values.len()];
            let zv = values[(i * 7 + 2) % values.len()];
            let mut ev = Evaluator::new(&tm);
            for (var, val) in [
                (v.x, xv),
                (v.y, yv),
                (v.z, zv),
                (v.b, xv & 1),
                (v.c, yv & 1),
            ] {
                ev.set(tm.as_var(var).expect("a variable"), val);
            }
            let vals: Vec<u128> = args.iter().map(|&a| ev.eval(a)).collect();
            let expected = value::apply(op, &vals, &sorts, tm.sort(t));
            assert_eq!(
                ev.eval(t),
                expected,
                "{} at x = {xv}, y = {yv}",
                rule.name()
            );
        }
    }
    let fired: Vec<&str> = tm.rewrites().fired().map(|(r, _)| r.name()).collect();
    assert_eq!(fired.len(), Rule::ALL.len(), "{fired:?}");
}

#[test]
fn rule_names_are_distinct_and_every_rule_belongs_to_an_operator() {
    let ops = [
        Op::Not,
        Op::And,
        Op::Xor,
        Op::Ite,
        Op::Neg,
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Sdiv,
        Op::Urem,
        Op::Shl,
        Op::Extract { hi: 0, lo: 0 },
        Op::Zext(8),
        Op::Eq,
        Op::Ult,
        Op::Ule,
    ];
    for (i, r) in Rule::ALL.iter().enumerate() {
        assert_eq!(*r as usize, i);
        assert!(Rule::ALL[..i].iter().all(|q| q.name() != r.name()));
        assert!(
            ops.iter().any(|&op| super::rules(op).contains(r)),
            "{}",
            r.name()
        );
    }
}
