//! Tests of the term manager: hash-consing, and a differential property test showing that the
//! normalising constructors never change the value of a term.

use super::*;
use proptest::prelude::*;

#[test]
fn hash_consing_and_commutativity() {
    let mut tm = TermManager::new();
    let x = tm.var("x", Sort::Bv(8));
    let y = tm.var("y", Sort::Bv(8));
    let a = tm.add(x, y);
    let b = tm.add(y, x);
    assert_eq!(a, b);
    let c = tm.sub(x, y);
    let d = tm.sub(y, x);
    assert_ne!(c, d);
    let x2 = tm.var("x", Sort::Bv(8));
    assert_ne!(x, x2, "each var() call is a fresh variable");
}

#[test]
fn local_rewrites() {
    let mut tm = TermManager::new();
    let x = tm.var("x", Sort::Bv(8));
    let b = tm.var("b", Sort::Bool);
    let zero = tm.bv_const(0, 8);
    let ones = tm.bv_const(0xff, 8);
    assert_eq!(tm.and(x, zero), zero);
    assert_eq!(tm.and(x, ones), x);
    assert_eq!(tm.xor(x, x), zero);
    let nx = tm.not(x);
    assert_eq!(tm.not(nx), x);
    assert_eq!(tm.or(x, nx), ones);
    let e = tm.eq(x, x);
    assert!(tm.is_true(e));
    let t = tm.tru();
    let f = tm.fals();
    assert_eq!(tm.ite(b, t, f), b);
    assert_eq!(tm.eq(b, t), b);
    let w = tm.zext(x, 32);
    assert_eq!(tm.extract(w, 7, 0), x);
    let hi = tm.extract(w, 31, 8);
    assert_eq!(tm.width(hi), 24);
}

#[test]
fn deep_terms_do_not_overflow_the_stack() {
    let mut tm = TermManager::new();
    let x = tm.var("x", Sort::Bv(32));
    let one = tm.bv_const(1, 32);
    let mut t = x;
    for _ in 0..200_000 {
        t = tm.add(t, one);
        t = tm.xor(t, x);
    }
    let mut ev = Evaluator::new(&tm);
    ev.set(tm.as_var(x).unwrap(), 7);
    let _ = ev.eval(t);
    let s = format!("{}", tm.display(t));
    assert!(s.len() > 1000);
    let mut map = HashMap::new();
    let z = tm.bv_const(0, 32);
    map.insert(x, z);
    let _ = tm.substitute(t, &map);
}

/// A term program: operations over a small pool of previously built terms. Building it with
/// the normalising constructors and evaluating it directly with [`value::apply`] must agree.
#[derive(Clone, Debug)]
enum Step {
    Un(u8, usize),
    Bin(u8, usize, usize),
    Cmp(u8, usize, usize),
    Ite(usize, usize, usize),
    Ext(u8, usize, u32, u32),
    Const(u128),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0u8..2, any::<usize>()).prop_map(|(o, a)| Step::Un(o, a)),
        (0u8..13, any::<usize>(), any::<usize>()).prop_map(|(o, a, b)| Step::Bin(o, a, b)),
        (0u8..5, any::<usize>(), any::<usize>()).prop_map(|(o, a, b)| Step::Cmp(o, a, b)),
        (any::<usize>(), any::<usize>(), any::<usize>()).prop_map(|(c, a, b)| Step::Ite(c, a, b)),
        (0u8..4, any::<usize>(), any::<u32>(), any::<u32>())
            .prop_map(|(o, a, x, y)| Step::Ext(o, a, x, y)),
        prop_oneof![Just(0u128), Just(1), Just(u128::MAX), any::<u128>()].prop_map(Step::Const),
    ]
}

const BINOPS: [Op; 13] = [
    Op::And,
    Op::Or,
    Op::Xor,
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Udiv,
    Op::Urem,
    Op::Sdiv,
    Op::Srem,
    Op::Shl,
    Op::Lshr,
    Op::Ashr,
];
const CMPS: [Op; 5] = [Op::Eq, Op::Ult, Op::Ule, Op::Slt, Op::Sle];

fn run_program(width: u32, steps: &[Step], inputs: &[u128]) -> Result<(), TestCaseError> {
    let mut tm = TermManager::new();
    let sort = Sort::Bv(width);
    // Pools of (term, directly computed value), by sort.
    let mut bvs: Vec<(TermId, u128)> = Vec::new();
    let mut bools: Vec<(TermId, u128)> = Vec::new();
    let mut ev_vars = Vec::new();
    for (i, &v) in inputs.iter().enumerate() {
        let t = tm.var(format!("v{i}"), sort);
        let v = value::truncate(v, width);
        ev_vars.push((tm.as_var(t).unwrap(), v));
        bvs.push((t, v));
        // Duplicates make the x-op-x rewrites fire.
        bvs.push((t, v));
    }
    let b = tm.var("b", Sort::Bool);
    ev_vars.push((tm.as_var(b).unwrap(), inputs[0] & 1));
    bools.push((b, inputs[0] & 1));
    for s in steps {
        match *s {
            Step::Un(o, a) => {
                let (ta, va) = bvs[a % bvs.len()];
                let op = [Op::Not, Op::Neg][o as usize];
                let t = tm.app(op, &[ta]);
                bvs.push((t, value::apply(op, &[va], &[sort], sort)));
                let (tb, vb) = bools[a % bools.len()];
                let t = tm.not(tb);
                bools.push((t, value::apply(Op::Not, &[vb], &[Sort::Bool], Sort::Bool)));
            }
            Step::Bin(o, a, b) => {
                let op = BINOPS[o as usize];
                let (ta, va) = bvs[a % bvs.len()];
                let (tb, vb) = bvs[b % bvs.len()];
                let t = tm.app(op, &[ta, tb]);
                bvs.push((t, value::apply(op, &[va, vb], &[sort, sort], sort)));
                if o < 3 {
                    let (ta, va) = bools[a % bools.len()];
                    let (tb, vb) = bools[b % bools.len()];
                    let t = tm.app(op, &[ta, tb]);
                    let s = [Sort::Bool, Sort::Bool];
                    bools.push((t, value::apply(op, &[va, vb], &s, Sort::Bool)));
                }
            }
            Step::Cmp(o, a, b) => {
                let op = CMPS[o as usize];
                let (ta, va) = bvs[a % bvs.len()];
                let (tb, vb) = bvs[b % bvs.len()];
                let t = tm.app(op, &[ta, tb]);
                bools.push((t, value::apply(op, &[va, vb], &[sort, sort], Sort::Bool)));
            }
            Step::Ite(c, a, b) => {
                let (tc, vc) = bools[c % bools.len()];
                let (ta, va) = bvs[a % bvs.len()];
                let (tb, vb) = bvs[b % bvs.len()];
                let t = tm.ite(tc, ta, tb);
                bvs.push((t, if vc != 0 { va } else { vb }));
                let (ta, va) = bools[a % bools.len()];
                let (tb, vb) = bools[b % bools.len()];
                let t = tm.ite(tc, ta, tb);
                bools.push((t, if vc != 0 { va } else { vb }));
            }
            Step::Ext(o, a, x, y) => {
                // Round trips through other widths, so that the result stays at `width`.
                let (ta, va) = bvs[a % bvs.len()];
                let (t, v) = match o {
                    0 | 1 => {
                        let to = (width + x % 8).min(128);
                        let op = if o == 0 { Op::Zext(to) } else { Op::Sext(to) };
                        let e = tm.app(op, &[ta]);
                        let ve = value::apply(op, &[va], &[sort], Sort::Bv(to));
                        let lo = if to > width { y % (to - width + 1) } else { 0 };
                        let ex = Op::Extract {
                            hi: lo + width - 1,
                            lo,
                        };
                        (
                            tm.app(ex, &[e]),
                            value::apply(ex, &[ve], &[Sort::Bv(to)], sort),
                        )
                    }
                    _ => {
                        if width < 2 {
                            continue;
                        }
                        let cut = 1 + x % (width - 1);
                        let hi = tm.extract(ta, width - 1, cut);
                        let lo = tm.extract(ta, cut - 1, 0);
                        let (h, l) = if o == 2 { (hi, lo) } else { (lo, hi) };
                        let c = tm.concat(h, l);
                        let vh = value::apply(
                            Op::Extract {
                                hi: width - 1,
                                lo: cut,
                            },
                            &[va],
                            &[sort],
                            Sort::Bv(width - cut),
                        );
                        let vl = value::apply(
                            Op::Extract { hi: cut - 1, lo: 0 },
                            &[va],
                            &[sort],
                            Sort::Bv(cut),
                        );
                        let (vh, vl, sh, sl) = if o == 2 {
                            (vh, vl, Sort::Bv(width - cut), Sort::Bv(cut))
                        } else {
                            (vl, vh, Sort::Bv(cut), Sort::Bv(width - cut))
                        };
                        (c, value::apply(Op::Concat, &[vh, vl], &[sh, sl], sort))
                    }
                };
                bvs.push((t, v));
            }
            Step::Const(c) => {
                let t = tm.bv_const(c, width);
                bvs.push((t, value::truncate(c, width)));
            }
        }
    }
    let mut ev = Evaluator::new(&tm);
    for &(v, x) in &ev_vars {
        ev.set(v, x);
    }
    for &(t, v) in bvs.iter().chain(bools.iter()) {
        prop_assert_eq!(ev.eval(t), v, "term {}", tm.display(t));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn normalisation_preserves_values(
        width in prop_oneof![Just(1u32), Just(2), Just(3), Just(8), Just(31), Just(32), Just(33), Just(64), Just(127), Just(128)],
        steps in proptest::collection::vec(step(), 1..40),
        inputs in proptest::collection::vec(prop_oneof![Just(0u128), Just(1), Just(u128::MAX), any::<u128>()], 1..4),
    ) {
        run_program(width, &steps, &inputs)?;
    }
}
