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
fn narrowing_of_extensions() {
    let mut tm = TermManager::new();
    let i = tm.var("i", Sort::Bv(32));
    let j = tm.var("j", Sort::Bv(16));
    let x = tm.var("x", Sort::Bv(8));
    // The front end's array bounds check and index: 128-bit extensions of a 32-bit index.
    let wide = tm.sext(i, 128);
    let zero128 = tm.bv_const(0, 128);
    let zero32 = tm.bv_const(0, 32);
    let slt_i_0 = tm.slt(i, zero32);
    assert_eq!(tm.slt(wide, zero128), slt_i_0);
    let four128 = tm.bv_const(4, 128);
    let four32 = tm.bv_const(4, 32);
    let sle_4_i = tm.sle(four32, i);
    assert_eq!(tm.sle(four128, wide), sle_4_i);
    let i64 = tm.sext(i, 64);
    assert_eq!(tm.extract(wide, 63, 0), i64);
    let three = tm.bv_const(3, 64);
    let three32 = tm.bv_const(3, 32);
    let eq3 = tm.eq(i, three32);
    assert_eq!(tm.eq(i64, three), eq3);
    // Two extensions of one kind compare at the larger inner width.
    let zi = tm.zext(i, 64);
    let zj = tm.zext(j, 64);
    let zj32 = tm.zext(j, 32);
    let ult = tm.ult(i, zj32);
    assert_eq!(tm.slt(zi, zj), ult, "slt of zero-extensions is ult");
    let si = tm.sext(i, 64);
    let sj = tm.sext(j, 64);
    let sj32 = tm.sext(j, 32);
    let ult = tm.ult(i, sj32);
    assert_eq!(tm.ult(si, sj), ult, "ult of sign-extensions is ult");
    // Constants out of the range of the extension.
    let zx = tm.zext(x, 16);
    let c300 = tm.bv_const(300, 16);
    let e = tm.eq(zx, c300);
    assert!(tm.is_false(e));
    let l = tm.ult(zx, c300);
    assert!(tm.is_true(l));
    let sx = tm.sext(x, 16);
    let zero8 = tm.bv_const(0, 8);
    let neg = tm.slt(x, zero8);
    assert_eq!(tm.ult(c300, sx), neg);
    // Extensions compose; a sign-extension of a zero-extension is a zero-extension.
    let zz = tm.zext(zx, 32);
    let zx32 = tm.zext(x, 32);
    assert_eq!(zz, zx32);
    let sz = tm.sext(zx, 32);
    assert_eq!(sz, zx32);
    let ss = tm.sext(sx, 32);
    let sx32 = tm.sext(x, 32);
    assert_eq!(ss, sx32);
    // Extractions across the extended bits.
    let hi = tm.extract(sx32, 31, 4);
    let x74 = tm.extract(x, 7, 4);
    let s28 = tm.sext(x74, 28);
    assert_eq!(hi, s28);
    let top = tm.extract(zx32, 31, 8);
    assert_eq!(tm.const_value(top), Some(0));
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

/// A term program: operations over pools of previously built terms, one pool per width (and
/// one of `bool` terms). Building it with the normalising constructors and evaluating it
/// directly with [`value::apply`] must agree. Extensions, extractions and constants near the
/// range boundaries of extensions make the pools of many widths meet in comparisons, which
/// exercises the narrowing rewrites.
#[derive(Clone, Debug)]
enum Step {
    Un(u8, usize),
    Bin(u8, usize, usize),
    Cmp(u8, usize, usize),
    Ite(usize, usize, usize),
    Ext(u8, usize, u32, u32),
    Const(u128),
    /// Zero- (0) or sign-extension (1) of a term by at least one bit.
    Extend(u8, usize, u32),
    /// An extraction from a term (`lo = 0` every other time).
    Extract(usize, u32, u32),
    /// `±2^k + d` at the width of a chosen term: a boundary of the range of its extensions.
    Near(usize, u32, i8, bool),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => (0u8..2, any::<usize>()).prop_map(|(o, a)| Step::Un(o, a)),
        3 => (0u8..13, any::<usize>(), any::<usize>()).prop_map(|(o, a, b)| Step::Bin(o, a, b)),
        4 => (0u8..5, any::<usize>(), any::<usize>()).prop_map(|(o, a, b)| Step::Cmp(o, a, b)),
        2 => (any::<usize>(), any::<usize>(), any::<usize>()).prop_map(|(c, a, b)| Step::Ite(c, a, b)),
        2 => (0u8..4, any::<usize>(), any::<u32>(), any::<u32>())
            .prop_map(|(o, a, x, y)| Step::Ext(o, a, x, y)),
        2 => prop_oneof![Just(0u128), Just(1), Just(u128::MAX), any::<u128>()].prop_map(Step::Const),
        4 => (0u8..2, any::<usize>(), prop_oneof![0u32..4, any::<u32>()])
            .prop_map(|(o, a, by)| Step::Extend(o, a, by)),
        3 => (any::<usize>(), any::<u32>(), any::<u32>()).prop_map(|(a, x, y)| Step::Extract(a, x, y)),
        3 => (any::<usize>(), any::<u32>(), -2i8..=2, any::<bool>())
            .prop_map(|(a, k, d, neg)| Step::Near(a, k, d, neg)),
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

/// Terms with their directly computed values: bit-vectors by width, and `bool`s.
struct Pools {
    bvs: std::collections::BTreeMap<u32, Vec<(TermId, u128)>>,
    bools: Vec<(TermId, u128)>,
}

impl Pools {
    /// A bit-vector term chosen by `i`: first a width, then a term of that width.
    fn pick(&self, i: usize) -> (u32, TermId, u128) {
        let n = self.bvs.len();
        let (&w, pool) = self.bvs.iter().nth(i % n).expect("a width");
        let (t, v) = pool[(i / n) % pool.len()];
        (w, t, v)
    }

    /// A bit-vector term of width `w` (which has a pool) chosen by `i`.
    fn pick_at(&self, w: u32, i: usize) -> (TermId, u128) {
        let pool = &self.bvs[&w];
        pool[i % pool.len()]
    }

    fn push(&mut self, w: u32, t: TermId, v: u128) {
        self.bvs.entry(w).or_default().push((t, v));
    }

    fn pick_bool(&self, i: usize) -> (TermId, u128) {
        self.bools[i % self.bools.len()]
    }
}

/// `op` applied to terms and, directly, to their values.
fn apply_both(tm: &mut TermManager, op: Op, args: &[(TermId, u128)]) -> (TermId, u128) {
    let ts: Vec<TermId> = args.iter().map(|a| a.0).collect();
    let vs: Vec<u128> = args.iter().map(|a| a.1).collect();
    let sorts: Vec<Sort> = ts.iter().map(|&t| tm.sort(t)).collect();
    let t = tm.app(op, &ts);
    let v = value::apply(op, &vs, &sorts, tm.sort(t));
    (t, v)
}

fn run_program(width: u32, steps: &[Step], inputs: &[u128]) -> Result<(), TestCaseError> {
    let mut tm = TermManager::new();
    let mut p = Pools {
        bvs: Default::default(),
        bools: Vec::new(),
    };
    let mut ev_vars = Vec::new();
    for (i, &v) in inputs.iter().enumerate() {
        let t = tm.var(format!("v{i}"), Sort::Bv(width));
        let v = value::truncate(v, width);
        ev_vars.push((tm.as_var(t).unwrap(), v));
        p.push(width, t, v);
        // Duplicates make the x-op-x rewrites fire.
        p.push(width, t, v);
    }
    let b = tm.var("b", Sort::Bool);
    ev_vars.push((tm.as_var(b).unwrap(), inputs[0] & 1));
    p.bools.push((b, inputs[0] & 1));
    for s in steps {
        match *s {
            Step::Un(o, a) => {
                let (w, ta, va) = p.pick(a);
                let op = [Op::Not, Op::Neg][o as usize];
                let (t, v) = apply_both(&mut tm, op, &[(ta, va)]);
                p.push(w, t, v);
                let nb = apply_both(&mut tm, Op::Not, &[p.pick_bool(a)]);
                p.bools.push(nb);
            }
            Step::Bin(o, a, b) => {
                let op = BINOPS[o as usize];
                let (w, ta, va) = p.pick(a);
                let y = p.pick_at(w, b);
                let (t, v) = apply_both(&mut tm, op, &[(ta, va), y]);
                p.push(w, t, v);
                if o < 3 {
                    let r = apply_both(&mut tm, op, &[p.pick_bool(a), p.pick_bool(b)]);
                    p.bools.push(r);
                }
            }
            Step::Cmp(o, a, b) => {
                let op = CMPS[o as usize];
                let (w, ta, va) = p.pick(a);
                let y = p.pick_at(w, b);
                let r = apply_both(&mut tm, op, &[(ta, va), y]);
                p.bools.push(r);
            }
            Step::Ite(c, a, b) => {
                let (tc, vc) = p.pick_bool(c);
                let (w, ta, va) = p.pick(a);
                let (tb, vb) = p.pick_at(w, b);
                let t = tm.ite(tc, ta, tb);
                p.push(w, t, if vc != 0 { va } else { vb });
                let (ta, va) = p.pick_bool(a);
                let (tb, vb) = p.pick_bool(b);
                let t = tm.ite(tc, ta, tb);
                p.bools.push((t, if vc != 0 { va } else { vb }));
            }
            Step::Ext(o, a, x, y) => {
                // Round trips through other widths, so that the result keeps its width.
                let (width, ta, va) = p.pick(a);
                let (t, v) = match o {
                    0 | 1 => {
                        let to = (width + x % 8).min(128);
                        let op = if o == 0 { Op::Zext(to) } else { Op::Sext(to) };
                        let e = apply_both(&mut tm, op, &[(ta, va)]);
                        let lo = if to > width { y % (to - width + 1) } else { 0 };
                        let ex = Op::Extract {
                            hi: lo + width - 1,
                            lo,
                        };
                        apply_both(&mut tm, ex, &[e])
                    }
                    _ => {
                        if width < 2 {
                            continue;
                        }
                        let cut = 1 + x % (width - 1);
                        let hi = Op::Extract {
                            hi: width - 1,
                            lo: cut,
                        };
                        let hi = apply_both(&mut tm, hi, &[(ta, va)]);
                        let lo =
                            apply_both(&mut tm, Op::Extract { hi: cut - 1, lo: 0 }, &[(ta, va)]);
                        let (h, l) = if o == 2 { (hi, lo) } else { (lo, hi) };
                        apply_both(&mut tm, Op::Concat, &[h, l])
                    }
                };
                p.push(width, t, v);
            }
            Step::Const(c) => {
                let (w, _, _) = p.pick(c as usize);
                let t = tm.bv_const(c, w);
                p.push(w, t, value::truncate(c, w));
            }
            Step::Extend(o, a, by) => {
                let (w, ta, va) = p.pick(a);
                if w == 128 {
                    continue;
                }
                let to = w + 1 + by % (128 - w);
                let op = if o == 0 { Op::Zext(to) } else { Op::Sext(to) };
                let (t, v) = apply_both(&mut tm, op, &[(ta, va)]);
                p.push(to, t, v);
            }
            Step::Extract(a, x, y) => {
                let (w, ta, va) = p.pick(a);
                let hi = x % w;
                let lo = if y % 2 == 0 { 0 } else { (y / 2) % (hi + 1) };
                let (t, v) = apply_both(&mut tm, Op::Extract { hi, lo }, &[(ta, va)]);
                p.push(hi - lo + 1, t, v);
            }
            Step::Near(a, k, d, neg) => {
                let (w, _, _) = p.pick(a);
                let k = k % w;
                let pow = 1i128 << k;
                let pow = if neg { pow.wrapping_neg() } else { pow };
                let c = value::from_signed(pow.wrapping_add(i128::from(d)), w);
                let t = tm.bv_const(c, w);
                p.push(w, t, c);
            }
        }
    }
    let mut ev = Evaluator::new(&tm);
    for &(v, x) in &ev_vars {
        ev.set(v, x);
    }
    let all = p.bvs.values().flatten().chain(p.bools.iter());
    for &(t, v) in all {
        prop_assert_eq!(ev.eval(t), v, "term {}", tm.display(t));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn normalisation_preserves_values(
        width in prop_oneof![Just(1u32), Just(2), Just(3), Just(8), Just(31), Just(32), Just(33), Just(64), Just(127), Just(128)],
        steps in proptest::collection::vec(step(), 1..60),
        inputs in proptest::collection::vec(prop_oneof![Just(0u128), Just(1), Just(u128::MAX), any::<u128>()], 1..4),
    ) {
        run_program(width, &steps, &inputs)?;
    }
}
