//! Ternary simulation: agreement with binary evaluation, soundness of X propagation (checked
//! by enumerating every completion of the Xs), and the incremental update/rollback used for
//! predecessor lifting against full re-simulation.

mod aig_support;

use aig_support::Rng;
use bitmc::aig::sim::{Ternary, TernarySim};
use bitmc::aig::{Aig, AigLit, AigNode};

/// A random AIG over `n` inputs with `gates` AND attempts; returns the graph and its inputs.
fn random_aig(rng: &mut Rng, n: usize, gates: usize) -> (Aig, Vec<u32>) {
    let mut aig = Aig::new();
    let mut lits: Vec<AigLit> = vec![AigLit::FALSE];
    let inputs: Vec<u32> = (0..n).map(|_| aig.input().var()).collect();
    lits.extend(inputs.iter().map(|&v| AigLit::new(v, false)));
    for _ in 0..gates {
        // Prefer recent literals so that the graph gets deep.
        let pick = |rng: &mut Rng| {
            let k = lits.len() - 1 - rng.below(lits.len().min(8) as u64) as usize;
            let k = if rng.below(4) == 0 {
                rng.below(lits.len() as u64) as usize
            } else {
                k
            };
            lits[k].xor_sign(rng.bool())
        };
        let (a, b) = (pick(rng), pick(rng));
        let g = aig.and(a, b);
        lits.push(g);
    }
    (aig, inputs)
}

fn random_ternary(rng: &mut Rng) -> Ternary {
    [Ternary::Zero, Ternary::One, Ternary::X][rng.below(3) as usize]
}

#[test]
fn binary_inputs_agree_with_eval_all() {
    let mut rng = Rng(21);
    for _ in 0..200 {
        let n = 1 + rng.below(10) as usize;
        let (aig, inputs) = random_aig(&mut rng, n, 60);
        let mut sim = TernarySim::new(&aig);
        let mut vals = vec![false; aig.num_vars() as usize];
        for &v in &inputs {
            let b = rng.bool();
            vals[v as usize] = b;
            sim.set_input(v, Ternary::from_bool(b));
        }
        sim.simulate();
        let want = aig.eval_all(&vals);
        for v in 0..aig.num_vars() {
            assert_eq!(
                sim.value(AigLit::new(v, false)),
                Ternary::from_bool(want[v as usize]),
                "variable {v}"
            );
            assert_eq!(
                sim.value(AigLit::new(v, true)),
                Ternary::from_bool(!want[v as usize])
            );
        }
    }
}

/// Every binary ternary result is the value under every completion of the X inputs, and a
/// node that is constant over all completions but computed as X is allowed (not exact).
#[test]
fn x_propagation_is_sound() {
    let mut rng = Rng(22);
    let mut binary_checked = 0u64;
    for _ in 0..400 {
        let n = 1 + rng.below(6) as usize;
        let (aig, inputs) = random_aig(&mut rng, n, 40);
        let assign: Vec<Ternary> = inputs.iter().map(|_| random_ternary(&mut rng)).collect();
        let mut sim = TernarySim::new(&aig);
        for (&v, &t) in inputs.iter().zip(&assign) {
            sim.set_input(v, t);
        }
        sim.simulate();
        let xs: Vec<usize> = (0..n).filter(|&k| assign[k] == Ternary::X).collect();
        for completion in 0..1u32 << xs.len() {
            let mut vals = vec![false; aig.num_vars() as usize];
            for (k, &v) in inputs.iter().enumerate() {
                vals[v as usize] = assign[k].to_bool().unwrap_or(false);
            }
            for (j, &k) in xs.iter().enumerate() {
                vals[inputs[k] as usize] = (completion >> j) & 1 == 1;
            }
            let full = aig.eval_all(&vals);
            for v in 0..aig.num_vars() {
                if let Some(b) = sim.value(AigLit::new(v, false)).to_bool() {
                    assert_eq!(
                        b, full[v as usize],
                        "variable {v} under completion {completion:b}"
                    );
                    binary_checked += 1;
                }
            }
        }
        // Inputs keep their assigned values.
        for (&v, &t) in inputs.iter().zip(&assign) {
            assert_eq!(sim.value(AigLit::new(v, false)), t);
        }
    }
    assert!(
        binary_checked > 10_000,
        "too few binary values checked: {binary_checked}"
    );
}

/// `update`, `try_set_x` and `rollback` leave exactly the values a full simulation gives.
#[test]
fn incremental_updates_match_full_simulation() {
    let mut rng = Rng(23);
    for _ in 0..200 {
        let n = 2 + rng.below(12) as usize;
        let (aig, inputs) = random_aig(&mut rng, n, 120);
        let mut cur: Vec<Ternary> = inputs
            .iter()
            .map(|_| Ternary::from_bool(rng.bool()))
            .collect();
        let mut sim = TernarySim::new(&aig);
        for (&v, &t) in inputs.iter().zip(&cur) {
            sim.set_input(v, t);
        }
        sim.simulate();
        let full = |cur: &[Ternary]| {
            let mut s = TernarySim::new(&aig);
            for (&v, &t) in inputs.iter().zip(cur) {
                s.set_input(v, t);
            }
            s.simulate();
            s.values().to_vec()
        };
        // Outputs to keep binary: a few random AND nodes.
        let ands: Vec<u32> = (0..aig.num_vars())
            .filter(|&v| matches!(aig.node(v), AigNode::And(..)))
            .collect();
        let mut keep: Vec<AigLit> = Vec::new();
        for _ in 0..3 {
            if let Some(&v) = ands.get(rng.below(ands.len().max(1) as u64) as usize) {
                keep.push(AigLit::new(v, rng.bool()));
            }
        }
        for _ in 0..20 {
            let k = rng.below(n as u64) as usize;
            let mark = sim.checkpoint();
            match rng.below(3) {
                0 => {
                    let t = random_ternary(&mut rng);
                    sim.update(inputs[k], t);
                    let mut next = cur.clone();
                    next[k] = t;
                    assert_eq!(sim.values(), &full(&next)[..]);
                    if rng.bool() {
                        sim.rollback(mark);
                        assert_eq!(sim.values(), &full(&cur)[..]);
                    } else {
                        cur = next;
                    }
                }
                _ => {
                    let lifted = sim.try_set_x(inputs[k], &keep);
                    let mut next = cur.clone();
                    next[k] = Ternary::X;
                    let would = full(&next);
                    let stays = keep.iter().all(|&l| would[l.var() as usize].is_binary());
                    assert_eq!(lifted, stays);
                    if lifted {
                        cur = next;
                    }
                    assert_eq!(sim.values(), &full(&cur)[..]);
                }
            }
        }
        sim.commit();
    }
}

#[test]
fn ternary_algebra() {
    use Ternary::*;
    for a in [Zero, One, X] {
        assert_eq!(a.and(Zero), Zero);
        assert_eq!(a.and(One), a);
        assert_eq!(a.negate().negate(), a);
    }
    assert_eq!(X.and(X), X);
    assert_eq!(X.negate(), X);
    assert_eq!(format!("{Zero}{One}{X}"), "01x");
}
