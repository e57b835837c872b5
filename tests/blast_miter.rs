//! The bit-blaster against the concrete semantics (`bv::value::apply` and `bv::Evaluator`):
//! every operator at many widths on random and edge operands, constant folding, random term
//! DAGs, and a very deep DAG.

use bitmc::aig::blast::{bits_value, Blaster};
use bitmc::aig::{Aig, AigLit};
use bitmc::bv::{value, Evaluator, Op, Sort, TermId, TermManager, VarId};

mod aig_support;
use aig_support::Rng;

const WIDTHS: [u32; 10] = [1, 2, 3, 7, 8, 16, 31, 32, 33, 64];
const RANDOM_PAIRS: usize = 1000;

fn edges(w: u32) -> Vec<u128> {
    let m = value::mask(w);
    let mut e = vec![
        0,
        1,
        m,
        value::signed_min(w),
        value::signed_max(w),
        2 & m,
        (w as u128 - 1) & m,
        w as u128 & m,
        (w as u128 + 1) & m,
    ];
    e.sort();
    e.dedup();
    e
}

/// A blasted term over variables, ready to be evaluated many times.
struct Circuit {
    aig: Aig,
    inputs: Vec<Vec<AigLit>>,
    out: Vec<AigLit>,
}

impl Circuit {
    fn new(tm: &TermManager, t: TermId, vars: &[TermId]) -> Circuit {
        let mut aig = Aig::new();
        let mut bl = Blaster::new();
        let out = bl.blast(tm, &mut aig, t);
        let inputs = vars.iter().map(|&v| var_bits(&bl, tm, v)).collect();
        Circuit { aig, inputs, out }
    }

    fn eval(&self, args: &[u128]) -> u128 {
        let mut inp = vec![false; self.aig.num_vars() as usize];
        for (bits, &x) in self.inputs.iter().zip(args) {
            for (i, l) in bits.iter().enumerate() {
                assert!(!l.is_negated());
                inp[l.var() as usize] = (x >> i) & 1 == 1;
            }
        }
        bits_value(&self.aig.eval_all(&inp), &self.out)
    }
}

fn var_bits(bl: &Blaster, tm: &TermManager, v: TermId) -> Vec<AigLit> {
    let id: VarId = tm.as_var(v).expect("a variable");
    // A variable that does not occur in the blasted term has no bits: it cannot matter.
    bl.var_bits(id).map(|b| b.to_vec()).unwrap_or_default()
}

const BINARY: [Op; 18] = [
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
    Op::Eq,
    Op::Ult,
    Op::Ule,
    Op::Slt,
    Op::Sle,
];

/// Checks `op` applied to variables of `sorts`, on the edge values (all combinations) and on
/// `random` random argument tuples.
fn check_op(op: Op, sorts: &[Sort], random: usize, rng: &mut Rng) {
    let mut tm = TermManager::new();
    let vars: Vec<TermId> = sorts
        .iter()
        .enumerate()
        .map(|(i, &s)| tm.var(format!("v{i}"), s))
        .collect();
    let t = tm.app(op, &vars);
    let rs = tm.sort(t);
    let c = Circuit::new(&tm, t, &vars);
    let check = |args: &[u128]| {
        let want = value::apply(op, args, sorts, rs);
        let got = c.eval(args);
        assert_eq!(got, want, "{op:?} on {sorts:?} with arguments {args:x?}");
    };
    // All combinations of edge values.
    let edge_sets: Vec<Vec<u128>> = sorts.iter().map(|s| edges(s.width())).collect();
    let mut idx = vec![0usize; sorts.len()];
    'outer: loop {
        let args: Vec<u128> = idx.iter().zip(&edge_sets).map(|(&i, e)| e[i]).collect();
        check(&args);
        for k in 0..idx.len() {
            idx[k] += 1;
            if idx[k] < edge_sets[k].len() {
                continue 'outer;
            }
            idx[k] = 0;
        }
        break;
    }
    for _ in 0..random {
        let args: Vec<u128> = sorts.iter().map(|s| rng.operand(s.width())).collect();
        check(&args);
    }
}

#[test]
fn binary_operators_all_widths() {
    let mut rng = Rng(1);
    for &w in &WIDTHS {
        for &op in &BINARY {
            check_op(op, &[Sort::Bv(w), Sort::Bv(w)], RANDOM_PAIRS, &mut rng);
        }
    }
}

#[test]
fn binary_operators_width_128() {
    let mut rng = Rng(2);
    for &op in &BINARY {
        check_op(op, &[Sort::Bv(128), Sort::Bv(128)], 300, &mut rng);
    }
}

#[test]
fn unary_and_structural_operators() {
    let mut rng = Rng(3);
    for &w in WIDTHS.iter().chain(&[127, 128]) {
        let s = Sort::Bv(w);
        check_op(Op::Not, &[s], RANDOM_PAIRS, &mut rng);
        check_op(Op::Neg, &[s], RANDOM_PAIRS, &mut rng);
        check_op(Op::Ite, &[Sort::Bool, s, s], RANDOM_PAIRS, &mut rng);
        // Extensions to a few target widths.
        let mut tos = vec![
            w,
            (w + 1).min(128),
            128,
            w + rng.below(129 - w as u64) as u32,
        ];
        tos.dedup();
        for &to in &tos {
            check_op(Op::Zext(to), &[s], 300, &mut rng);
            check_op(Op::Sext(to), &[s], 300, &mut rng);
        }
        // Extractions: every range for small widths, edges and random ranges otherwise.
        let mut ranges = Vec::new();
        if w <= 8 {
            for lo in 0..w {
                for hi in lo..w {
                    ranges.push((hi, lo));
                }
            }
        } else {
            ranges.extend([(w - 1, 0), (0, 0), (w - 1, w - 1), (w - 2, 1)]);
            for _ in 0..6 {
                let lo = rng.below(w as u64) as u32;
                let hi = lo + rng.below((w - lo) as u64) as u32;
                ranges.push((hi, lo));
            }
        }
        for (hi, lo) in ranges {
            check_op(Op::Extract { hi, lo }, &[s], 100, &mut rng);
        }
        // Concatenations with a few other widths.
        for w2 in [1, 3, 8, 64, 127] {
            if w + w2 <= 128 {
                check_op(Op::Concat, &[s, Sort::Bv(w2)], 200, &mut rng);
                check_op(Op::Concat, &[Sort::Bv(w2), s], 200, &mut rng);
            }
        }
    }
}

#[test]
fn boolean_operators_exhaustive() {
    let mut rng = Rng(4);
    let b = Sort::Bool;
    check_op(Op::Not, &[b], 0, &mut rng);
    for op in [Op::And, Op::Or, Op::Xor, Op::Eq] {
        check_op(op, &[b, b], 0, &mut rng);
    }
    check_op(Op::Ite, &[b, b, b], 0, &mut rng);
}

/// With every operand bound to constant literals, each operator blasts to constants and no
/// AND node: the circuits fold through the AIG's constant propagation.
#[test]
fn constant_operands_fold_away() {
    let mut rng = Rng(5);
    for w in [1, 5, 8, 33, 64, 128] {
        for &op in &BINARY {
            for _ in 0..4 {
                let mut tm = TermManager::new();
                let s = Sort::Bv(w);
                let x = tm.var("x", s);
                let y = tm.var("y", s);
                let t = tm.app(op, &[x, y]);
                let (a, b) = (rng.operand(w), rng.operand(w));
                let mut bl = Blaster::new();
                let consts = |v: u128| {
                    (0..w)
                        .map(|i| AigLit::constant((v >> i) & 1 == 1))
                        .collect()
                };
                bl.bind_var(tm.as_var(x).unwrap(), consts(a));
                bl.bind_var(tm.as_var(y).unwrap(), consts(b));
                let mut aig = Aig::new();
                let out = bl.blast(&tm, &mut aig, t);
                assert_eq!(
                    aig.num_ands(),
                    0,
                    "{op:?} at width {w} built AND nodes on constants"
                );
                let got = bits_value(&[false], &out);
                assert_eq!(
                    got,
                    value::apply(op, &[a, b], &[s, s], tm.sort(t)),
                    "{op:?} {a:x} {b:x}"
                );
            }
        }
    }
}

#[test]
fn division_and_remainder_share_one_divider() {
    for (div, rem) in [(Op::Udiv, Op::Urem), (Op::Sdiv, Op::Srem)] {
        let mut tm = TermManager::new();
        let x = tm.var("x", Sort::Bv(16));
        let y = tm.var("y", Sort::Bv(16));
        let q = tm.app(div, &[x, y]);
        let r = tm.app(rem, &[x, y]);
        let mut aig = Aig::new();
        let mut bl = Blaster::new();
        bl.blast(&tm, &mut aig, q);
        let after_div = aig.num_ands();
        bl.blast(&tm, &mut aig, r);
        let extra = aig.num_ands() - after_div;
        assert!(
            extra * 10 < after_div,
            "{rem:?} after {div:?} added {extra} of {after_div} ANDs"
        );
    }
}

/// Random term DAGs over a few variables of mixed widths, blasted into one AIG; every term's
/// bits must agree with the evaluator under random assignments.
#[test]
fn random_term_dags() {
    let mut rng = Rng(6);
    for round in 0..40 {
        let mut tm = TermManager::new();
        let widths = [1u32, 3, 8, 13, 32];
        let mut pool: Vec<TermId> = Vec::new();
        let mut vars = Vec::new();
        for (i, &w) in widths.iter().enumerate() {
            for j in 0..2 {
                let v = tm.var(format!("x{i}_{j}"), Sort::Bv(w));
                vars.push(v);
                pool.push(v);
            }
            let c = rng.operand(w);
            pool.push(tm.bv_const(c, w));
        }
        let b = tm.var("b", Sort::Bool);
        vars.push(b);
        pool.push(b);
        for _ in 0..150 {
            if let Some(t) = random_step(&mut tm, &pool, &mut rng) {
                pool.push(t);
            }
        }
        let mut aig = Aig::new();
        let mut bl = Blaster::new();
        let outs: Vec<Vec<AigLit>> = pool.iter().map(|&t| bl.blast(&tm, &mut aig, t)).collect();
        for _ in 0..60 {
            let mut ev = Evaluator::new(&tm);
            let mut inp = vec![false; aig.num_vars() as usize];
            for &v in &vars {
                let id = tm.as_var(v).unwrap();
                let x = rng.operand(tm.width(v));
                ev.set(id, x);
                for (i, l) in bl.var_bits(id).unwrap_or(&[]).iter().enumerate() {
                    inp[l.var() as usize] = (x >> i) & 1 == 1;
                }
            }
            let vals = aig.eval_all(&inp);
            for (&t, bits) in pool.iter().zip(&outs) {
                assert_eq!(
                    bits_value(&vals, bits),
                    ev.eval(t),
                    "round {round}: {}",
                    tm.display(t)
                );
            }
        }
    }
}

/// One random operator application over terms of the pool (None if no operand fits).
fn random_step(tm: &mut TermManager, pool: &[TermId], rng: &mut Rng) -> Option<TermId> {
    let pick = |rng: &mut Rng| pool[pool.len() - 1 - rng.below(pool.len().min(30) as u64) as usize];
    let a = pick(rng);
    let sa = tm.sort(a);
    let same: Vec<TermId> = pool.iter().copied().filter(|&t| tm.sort(t) == sa).collect();
    let b = same[rng.below(same.len() as u64) as usize];
    let w = sa.width();
    let t = match rng.below(8) {
        0 if !sa.is_bool() => tm.app(BINARY[rng.below(13) as usize], &[a, b]),
        1 if !sa.is_bool() => tm.app(BINARY[13 + rng.below(5) as usize], &[a, b]),
        2 => tm.app(
            [Op::And, Op::Or, Op::Xor, Op::Eq][rng.below(4) as usize],
            &[a, b],
        ),
        3 => {
            let conds: Vec<TermId> = pool
                .iter()
                .copied()
                .filter(|&t| tm.sort(t).is_bool())
                .collect();
            let c = conds[rng.below(conds.len() as u64) as usize];
            tm.ite(c, a, b)
        }
        4 if !sa.is_bool() => {
            let lo = rng.below(w as u64) as u32;
            let hi = lo + rng.below((w - lo) as u64) as u32;
            let e = tm.extract(a, hi, lo);
            // Back to one of the pool's widths.
            let to = [3u32, 8, 13, 32][rng.below(4) as usize];
            tm.resize(e, to, rng.below(2) == 0)
        }
        5 if !sa.is_bool() => {
            let others: Vec<TermId> = pool
                .iter()
                .copied()
                .filter(|&t| !tm.sort(t).is_bool() && tm.width(t) + w <= 32)
                .collect();
            let o = *others.get(rng.below(others.len().max(1) as u64) as usize)?;
            let c = tm.concat(a, o);
            let cw = tm.width(c);
            tm.extract(c, cw - 1, cw - w)
        }
        6 if !sa.is_bool() => tm.app([Op::Not, Op::Neg][rng.below(2) as usize], &[a]),
        7 => tm.not(a),
        _ => return None,
    };
    Some(t)
}

/// A chain of 200k operators blasts without overflowing the stack.
#[test]
fn deep_dag_does_not_overflow() {
    let mut tm = TermManager::new();
    let x = tm.var("x", Sort::Bv(2));
    let mut t = x;
    for i in 0..200_000u32 {
        t = if i % 2 == 0 {
            tm.add(t, x)
        } else {
            tm.xor(t, x)
        };
    }
    let mut aig = Aig::new();
    let mut bl = Blaster::new();
    let out = bl.blast(&tm, &mut aig, t);
    for xv in 0..4u128 {
        let mut ev = Evaluator::new(&tm);
        ev.set(tm.as_var(x).unwrap(), xv);
        let mut inp = vec![false; aig.num_vars() as usize];
        for (i, l) in bl
            .var_bits(tm.as_var(x).unwrap())
            .unwrap()
            .iter()
            .enumerate()
        {
            inp[l.var() as usize] = (xv >> i) & 1 == 1;
        }
        assert_eq!(bits_value(&aig.eval_all(&inp), &out), ev.eval(t));
    }
}
