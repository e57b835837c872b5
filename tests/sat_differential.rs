//! Differential tests of the SAT backends: every backend runs the same scripts (clauses, solves
//! under assumptions, more clauses, more solves); every model is checked against the clauses,
//! every core is re-solved by a fresh solver of another backend, and all backends must give the
//! same SAT/UNSAT sequence. Where an independent oracle exists (brute force, Gaussian
//! elimination, the pigeonhole principle, arithmetic) the answers are also checked against it.

mod sat_common;

use bitmc::sat::{Lit, Var};
use sat_common::{brute_force, differential, pigeonhole, Circuit, Cnf, Rng, Script, Step};

/// Up to three random assumption sets of 1–4 literals over variables `0..n`.
fn assumption_sets(rng: &mut Rng, n: u32) -> Vec<Vec<Lit>> {
    (0..3)
        .map(|_| {
            let k = rng.range(1, 4.min(n));
            rng.distinct_lits(n, k)
        })
        .collect()
}

/// An independent answer: is the formula satisfiable under these assumptions?
type Oracle<'a> = &'a dyn Fn(&[Lit]) -> bool;

/// A script that adds `cnf` and solves it without and then under random assumptions, with the
/// oracle `oracle(assumptions)` when given.
fn one_shot(name: String, cnf: &Cnf, rng: &mut Rng, oracle: Option<Oracle>) -> Script {
    let mut script = Script::new(name);
    script.add_all(&cnf.clauses);
    script.solve(Vec::new(), oracle.map(|o| o(&[])));
    for a in assumption_sets(rng, cnf.num_vars) {
        let expect = oracle.map(|o| o(&a));
        script.solve(a, expect);
    }
    script
}

fn random_ksat(rng: &mut Rng, n: u32, m: u32, k: u32) -> Cnf {
    let mut cnf = Cnf {
        num_vars: n,
        ..Cnf::default()
    };
    for _ in 0..m {
        let clause = rng.distinct_lits(n, k);
        cnf.add(clause);
    }
    cnf
}

#[test]
fn random_3sat_near_the_threshold() {
    let mut rng = Rng::new(1);
    let scripts: Vec<Script> = (0..60)
        .map(|i| {
            let n = rng.range(20, 60);
            let m = (n as f64 * 4.26).round() as u32;
            let cnf = random_ksat(&mut rng, n, m, 3);
            one_shot(format!("r3sat#{i} n={n} m={m}"), &cnf, &mut rng, None)
        })
        .collect();
    let (sat, unsat) = differential(&scripts);
    assert!(
        sat > 20 && unsat > 20,
        "degenerate mix: {sat} SAT, {unsat} UNSAT"
    );
}

#[test]
fn tiny_random_cnfs_agree_with_brute_force() {
    let mut rng = Rng::new(2);
    let scripts: Vec<Script> = (0..40)
        .map(|i| {
            let n = rng.range(3, 12);
            let mut cnf = Cnf {
                num_vars: n,
                ..Cnf::default()
            };
            for _ in 0..rng.range(n, 3 * n) {
                let k = rng.range(1, 4.min(n));
                cnf.add(rng.distinct_lits(n, k));
            }
            let oracle = |a: &[Lit]| brute_force(cnf.num_vars, &cnf.clauses, a);
            one_shot(format!("tiny#{i} n={n}"), &cnf, &mut rng, Some(&oracle))
        })
        .collect();
    let (sat, unsat) = differential(&scripts);
    assert!(
        sat > 10 && unsat > 10,
        "degenerate mix: {sat} SAT, {unsat} UNSAT"
    );
}

#[test]
fn pigeonhole_principle() {
    let mut scripts = Vec::new();
    for pigeons in 2..=6 {
        for holes in [pigeons - 1, pigeons] {
            let cnf = pigeonhole(pigeons, holes);
            let mut script = Script::new(format!("php {pigeons}/{holes}"));
            script.add_all(&cnf.clauses);
            script.solve(Vec::new(), Some(pigeons <= holes));
            // Pigeon 0 in hole 0 and pigeon 1 in hole 0: never possible.
            script.solve(vec![Var(0).pos(), Var(holes).pos()], Some(false));
            // Pigeon 0 kept out of every hole but the last.
            let out: Vec<Lit> = (0..holes - 1).map(|h| Var(h).neg()).collect();
            script.solve(out, Some(pigeons <= holes));
            scripts.push(script);
        }
    }
    differential(&scripts);
}

/// Gaussian elimination over GF(2): is the system of `(variable mask, parity)` rows solvable?
fn gf2_solvable(rows: &[(u64, bool)]) -> bool {
    let mut basis: Vec<(u64, bool)> = Vec::new();
    for &(mut mask, mut rhs) in rows {
        for &(b, r) in &basis {
            let pivot = 1u64 << (63 - b.leading_zeros());
            if mask & pivot != 0 {
                mask ^= b;
                rhs ^= r;
            }
        }
        if mask == 0 {
            if rhs {
                return false;
            }
        } else {
            basis.push((mask, rhs));
            basis.sort_by_key(|&(mask, _)| std::cmp::Reverse(mask));
        }
    }
    true
}

#[test]
fn xor_chains_agree_with_gaussian_elimination() {
    let mut rng = Rng::new(3);
    let mut scripts = Vec::new();
    for i in 0..40 {
        let n = rng.range(8, 30);
        let mut circuit = Circuit::default();
        let vars = circuit.word(n as usize);
        let mut rows = Vec::new();
        for _ in 0..rng.range(n / 2, n + 4) {
            let width = rng.range(1, 5);
            let lits = rng.distinct_lits(n, width);
            let parity = rng.coin();
            let mut chain = vars[lits[0].var().index()];
            for l in &lits[1..] {
                chain = circuit.xor(chain, vars[l.var().index()]);
            }
            circuit.cnf.add(vec![chain.xor_sign(!parity)]);
            let mask = lits.iter().fold(0u64, |m, l| m | 1 << l.var().0);
            rows.push((mask, parity));
        }
        let oracle = |a: &[Lit]| {
            let mut all = rows.clone();
            all.extend(a.iter().map(|l| (1u64 << l.var().0, !l.is_negated())));
            gf2_solvable(&all)
        };
        let mut script = Script::new(format!("xor#{i} n={n}"));
        script.add_all(&circuit.cnf.clauses);
        script.solve(Vec::new(), Some(oracle(&[])));
        for a in assumption_sets(&mut rng, n) {
            let expect = oracle(&a);
            script.solve(a, Some(expect));
        }
        scripts.push(script);
    }
    let (sat, unsat) = differential(&scripts);
    assert!(
        sat > 10 && unsat > 10,
        "degenerate mix: {sat} SAT, {unsat} UNSAT"
    );
}

/// `a op b != b op a` as an assumable literal `d`: UNSAT under `d`, SAT under `!d`.
fn commutativity_miter(k: usize, multiply: bool) -> Script {
    let mut c = Circuit::default();
    let a = c.word(k);
    let b = c.word(k);
    let (ab, ba) = if multiply {
        (c.mul_words(&a, &b), c.mul_words(&b, &a))
    } else {
        (c.add_words(&a, &b), c.add_words(&b, &a))
    };
    let d = c.differs(&ab, &ba);
    let op = if multiply { "mul" } else { "add" };
    let mut script = Script::new(format!("{op}-commute k={k}"));
    script.add_all(&c.cnf.clauses);
    script.solve(vec![d], Some(false));
    script.solve(vec![!d], Some(true));
    script.solve(vec![!d, a[0], !b[0]], Some(true));
    // Asserted for good: no assumption is needed for UNSAT any more.
    script.add(vec![d]);
    script.solve(Vec::new(), Some(false));
    script.solve(vec![a[0]], Some(false));
    script
}

/// `a * b == c (mod 2^k)` with `a, b >= 2`, checked against enumeration; assumptions fix the
/// lowest bits of `a` and `b`.
fn factoring(k: usize, c_value: u64) -> Script {
    let mut c = Circuit::default();
    let a = c.word(k);
    let b = c.word(k);
    let p = c.mul_words(&a, &b);
    for (j, &bit) in p.iter().enumerate() {
        c.cnf.add(vec![bit.xor_sign(c_value >> j & 1 == 0)]);
    }
    c.cnf.add(a[1..].to_vec());
    c.cnf.add(b[1..].to_vec());
    let modulus = 1u64 << k;
    let oracle = |a0: Option<bool>, b0: Option<bool>| {
        (2..modulus).any(|x| {
            (2..modulus).any(|y| {
                x * y % modulus == c_value
                    && a0.is_none_or(|v| (x & 1 == 1) == v)
                    && b0.is_none_or(|v| (y & 1 == 1) == v)
            })
        })
    };
    let mut script = Script::new(format!("factor k={k} c={c_value}"));
    script.add_all(&c.cnf.clauses);
    script.solve(Vec::new(), Some(oracle(None, None)));
    script.solve(vec![a[0]], Some(oracle(Some(true), None)));
    script.solve(vec![!a[0], b[0]], Some(oracle(Some(false), Some(true))));
    script.solve(vec![a[0], b[0]], Some(oracle(Some(true), Some(true))));
    script
}

#[test]
fn adder_and_multiplier_circuits() {
    let mut rng = Rng::new(4);
    let mut scripts = Vec::new();
    for k in 2..=7 {
        scripts.push(commutativity_miter(k, false));
    }
    for k in 2..=5 {
        scripts.push(commutativity_miter(k, true));
    }
    for _ in 0..14 {
        let k = rng.range(3, 6) as usize;
        let c_value = rng.next_u64() % (1 << k);
        scripts.push(factoring(k, c_value));
    }
    let (sat, unsat) = differential(&scripts);
    assert!(
        sat > 10 && unsat > 10,
        "degenerate mix: {sat} SAT, {unsat} UNSAT"
    );
}

/// An IC3-like session: a base formula over state variables, frames of guarded lemmas switched
/// on by activation literals, queries under "frames from k on plus a cube", retired frames,
/// unguarded clauses added between the queries, and variables frozen and melted (more melts than
/// freezes, too) in between.
fn frame_session(rng: &mut Rng, i: usize) -> Script {
    let n = rng.range(12, 30);
    let frames = rng.range(3, 6);
    let mut script = Script::new(format!("frames#{i} n={n} frames={frames}"));
    for _ in 0..2 * n {
        script.add(rng.distinct_lits(n, 3));
    }
    let act: Vec<Lit> = (n..n + frames).map(|v| Var(v).pos()).collect();
    let mut solves = 0;
    while solves < 10 {
        match rng.below(10) {
            0..=2 => {
                let f = rng.below(frames) as usize;
                for _ in 0..rng.range(2, 2 + n / 4) {
                    let width = rng.range(1, 3);
                    let mut lemma = rng.distinct_lits(n, width);
                    lemma.push(!act[f]);
                    script.add(lemma);
                }
            }
            3 => script.add(rng.distinct_lits(n, 3)),
            8 | 9 => {
                let v = Var(rng.below(n + frames));
                script.steps.push(Step::Freeze(v, rng.coin()));
            }
            4 => {
                let f = rng.below(frames) as usize;
                script.add(vec![!act[f]]);
            }
            _ => {
                let from = rng.below(frames) as usize;
                let mut assumptions: Vec<Lit> = act[from..].to_vec();
                let cube = rng.range(1, 4);
                assumptions.extend(rng.distinct_lits(n, cube));
                // Shuffle so activation literals are not always first.
                for j in (1..assumptions.len()).rev() {
                    let k = rng.below(j as u32 + 1) as usize;
                    assumptions.swap(j, k);
                }
                script.solve(assumptions, None);
                solves += 1;
            }
        }
    }
    script
}

#[test]
fn incremental_frame_sessions() {
    let mut rng = Rng::new(5);
    let scripts: Vec<Script> = (0..60).map(|i| frame_session(&mut rng, i)).collect();
    let (sat, unsat) = differential(&scripts);
    assert!(
        sat > 50 && unsat > 50,
        "degenerate mix: {sat} SAT, {unsat} UNSAT"
    );
}
