//! PDR on random circuit models (latches, inputs, invariant constraints over both, a bad
//! literal), as C programs and AIGER files reach it: every combination of predecessor lifting
//! (which must force the constraints under constraints over inputs) and on-demand loading of
//! the transition relation (with state variables made lazily), solvers rebuilt every few
//! queries, and each way of generalising must agree with explicit-state search, and every
//! verdict must pass the independent checks. Models with redundant gates are swept
//! ([`bitmc::ts::sweep`]): every function must stay the same, and PDR and BMC on the swept
//! system, carried back to the original one, must agree with explicit search there too, and
//! gate elimination must keep every step.

use bitmc::aig::{Aig, AigLit};
use bitmc::cnf::Cnf;
use bitmc::engine::pdr::PdrOptions;
use bitmc::engine::preprocess::{Preprocess, Preprocessed};
use bitmc::engine::{Cause, EngineKind, Options, Problem, SystemEngine, Verdict};
use bitmc::sat::{Backend, Interrupter, Lit, SolveResult, Var};
use bitmc::ts::model::{Model, ModelInput, ModelLatch, Original};
use bitmc::ts::sweep;
use bitmc::ts::System;
use bitmc::witness;
use common::Rng;
use std::time::Duration;

mod common;

/// A random function of `leaves` built from 1 to `max_gates` AND gates.
fn random_fn(rng: &mut Rng, aig: &mut Aig, leaves: &[AigLit], max_gates: u64) -> AigLit {
    let gates = 1 + rng.below(max_gates);
    let mut pool: Vec<AigLit> = leaves.to_vec();
    for _ in 0..gates {
        let a = pool[rng.below(pool.len() as u64) as usize].xor_sign(rng.below(2) == 0);
        let b = pool[rng.below(pool.len() as u64) as usize].xor_sign(rng.below(2) == 0);
        let g = aig.and(a, b);
        pool.push(g);
    }
    pool[pool.len() - 1 - rng.below(pool.len().min(3) as u64) as usize].xor_sign(rng.below(2) == 0)
}

/// Like [`random_fn`], but many gates are built twice, as structures that structural hashing
/// does not identify (associativity, absorption, contradictions, XOR in two forms), the way
/// bit-blasting a program gives equal functions in different shapes.
fn redundant_fn(rng: &mut Rng, aig: &mut Aig, leaves: &[AigLit], max_gates: u64) -> AigLit {
    let gates = 1 + rng.below(max_gates);
    let mut pool: Vec<AigLit> = leaves.to_vec();
    for _ in 0..gates {
        let pick =
            |rng: &mut Rng| pool[rng.below(pool.len() as u64) as usize].xor_sign(rng.below(2) == 0);
        let (x, y, z) = (pick(rng), pick(rng), pick(rng));
        let new: Vec<AigLit> = match rng.below(5) {
            0 => vec![aig.and(x, y)],
            1 => {
                let l = aig.and(x, y);
                let r = aig.and(y, z);
                vec![aig.and(l, z), aig.and(x, r)]
            }
            2 => {
                let o = aig.or(x, y);
                vec![aig.and(x, o)]
            }
            3 => {
                let a = aig.and(x, y);
                let b = aig.and(!x, z);
                vec![aig.and(a, b), aig.or(a, b)]
            }
            _ => {
                let p = aig.and(x, !y);
                let q = aig.and(!x, y);
                let o = aig.or(x, y);
                let n = aig.and(x, y);
                vec![aig.or(p, q), aig.and(o, !n)]
            }
        };
        pool.extend(new);
    }
    pool[pool.len() - 1 - rng.below(pool.len().min(3) as u64) as usize].xor_sign(rng.below(2) == 0)
}

fn random_model(rng: &mut Rng) -> Model {
    random_model_with(rng, random_fn)
}

type Build = fn(&mut Rng, &mut Aig, &[AigLit], u64) -> AigLit;

fn random_model_with(rng: &mut Rng, random_fn: Build) -> Model {
    let mut aig = Aig::new();
    let nl = 2 + rng.below(4) as usize;
    let ni = rng.below(4) as usize;
    let latch_nodes: Vec<AigLit> = (0..nl).map(|_| aig.input()).collect();
    let input_nodes: Vec<AigLit> = (0..ni).map(|_| aig.input()).collect();
    let leaves: Vec<AigLit> = latch_nodes.iter().chain(&input_nodes).copied().collect();
    let latches = latch_nodes
        .iter()
        .map(|&node| ModelLatch {
            node,
            next: random_fn(rng, &mut aig, &leaves, 4),
            reset: (rng.below(5) != 0).then(|| rng.below(3) == 0),
            name: None,
        })
        .collect();
    // Constraints over latches and inputs, or over inputs alone (like a program's guards).
    let constraints = (0..rng.below(3))
        .map(|_| random_fn(rng, &mut aig, &leaves, 3))
        .collect();
    let bad = random_fn(rng, &mut aig, &latch_nodes, 3);
    Model {
        aig,
        latches,
        inputs: input_nodes
            .into_iter()
            .map(|node| ModelInput { node, name: None })
            .collect(),
        constraints,
        bad,
    }
}

/// Whether a bad state is reachable (AIGER semantics: constraints hold in every state of the
/// path, the bad one included), by breadth-first search over latch valuations.
fn reachable(m: &Model) -> bool {
    let nl = m.latches.len();
    let ni = m.inputs.len();
    let mut seen = vec![false; 1 << nl];
    let mut frontier = Vec::new();
    for s in 0..1u32 << nl {
        let ok = m
            .latches
            .iter()
            .enumerate()
            .all(|(j, l)| l.reset.is_none_or(|r| r == (s >> j & 1 == 1)));
        if ok {
            seen[s as usize] = true;
            frontier.push(s);
        }
    }
    while let Some(s) = frontier.pop() {
        for i in 0..1u32 << ni {
            let mut vals = vec![false; m.aig.num_vars() as usize];
            for (j, l) in m.latches.iter().enumerate() {
                vals[l.node.var() as usize] = s >> j & 1 == 1;
            }
            for (k, x) in m.inputs.iter().enumerate() {
                vals[x.node.var() as usize] = i >> k & 1 == 1;
            }
            let all = m.aig.eval_all(&vals);
            if !m.constraints.iter().all(|&c| Aig::lit_value(&all, c)) {
                continue;
            }
            if Aig::lit_value(&all, m.bad) {
                return true;
            }
            let t: u32 = m
                .latches
                .iter()
                .enumerate()
                .map(|(j, l)| (Aig::lit_value(&all, l.next) as u32) << j)
                .sum();
            if !seen[t as usize] {
                seen[t as usize] = true;
                frontier.push(t);
            }
        }
    }
    false
}

#[test]
fn every_configuration_agrees_with_explicit_search() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d, Vec::new());
    let d = PdrOptions::default;
    let variants: Vec<(&str, PdrOptions)> = vec![
        ("default", d()),
        (
            "whole",
            PdrOptions {
                cones: false,
                ..d()
            },
        ),
        ("no lifting", PdrOptions { lift: false, ..d() }),
        (
            "no lifting, whole",
            PdrOptions {
                lift: false,
                cones: false,
                ..d()
            },
        ),
        (
            "solvers rebuilt every 3 queries",
            PdrOptions { recycle: 3, ..d() },
        ),
        ("down always", PdrOptions { dynamic: 0, ..d() }),
        ("no down", PdrOptions { down: false, ..d() }),
        (
            "one query per literal",
            PdrOptions {
                down: false,
                ctg: false,
                ..d()
            },
        ),
        (
            "at most one literal kept",
            PdrOptions {
                mic_attempts: 1,
                ..d()
            },
        ),
    ];
    let (mut safe, mut unsafe_, mut constrained) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in 0..400 {
        let m = random_model(&mut rng);
        let expected = reachable(&m);
        let sys = m.to_system().sys;
        constrained += usize::from(!m.constraints.is_empty());
        for (name, popts) in &variants {
            let opts = Options {
                backend: Backend::Cadical,
                ..Options::default()
            };
            let (v, _) = popts.run_on(&sys, &opts, &mut |_| {});
            let checked = witness::check_bit_level(&sys, v, Backend::Batsat, &opts);
            match (&checked.verdict, expected) {
                (Verdict::Unsafe(_), true) => unsafe_ += 1,
                (Verdict::Safe(_), false) => safe += 1,
                (got, _) => failures.push(format!(
                    "case {case} ({name}): {got:?}, explicit search says \
                     reachable = {expected}\n{m:?}"
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("pdr on models: {safe} SAFE, {unsafe_} UNSAFE agreed ({constrained} of 400 models constrained)");
    assert!(safe > 100 && unsafe_ > 100 && constrained > 100);
}

/// Every next-state function, constraint and the bad literal of `m`, under every valuation of
/// its latches and inputs (at most 2^12 of them).
fn truth_tables(m: &Model) -> Vec<Vec<bool>> {
    let leaves: Vec<u32> = m
        .latches
        .iter()
        .map(|l| l.node.var())
        .chain(m.inputs.iter().map(|i| i.node.var()))
        .collect();
    let mut roots: Vec<AigLit> = m.latches.iter().map(|l| l.next).collect();
    roots.extend(m.constraints.iter().copied());
    roots.push(m.bad);
    (0..1u32 << leaves.len())
        .map(|a| {
            let mut vals = vec![false; m.aig.num_vars() as usize];
            for (b, &v) in leaves.iter().enumerate() {
                vals[v as usize] = a >> b & 1 == 1;
            }
            let all = m.aig.eval_all(&vals);
            roots.iter().map(|&r| Aig::lit_value(&all, r)).collect()
        })
        .collect()
}

/// PDR and BMC on a preprocessed system, their verdicts carried back to the original system
/// and checked there, against explicit search: how many SAFE and UNSAFE answers agreed, each
/// disagreement pushed onto `failures`.
fn agree_after_preprocessing(
    m: &Model,
    orig: &System,
    p: &Preprocessed,
    what: &str,
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let opts = Options {
        backend: Backend::Cadical,
        ..Options::default()
    };
    let (mut safe, mut unsafe_) = (0, 0);
    let expected = reachable(m);
    for engine in [EngineKind::Pdr, EngineKind::Bmc] {
        let o = Options {
            max_depth: Some(40),
            ..opts.clone()
        };
        let (v, _) = engine.run(&Problem::system(&p.sys), &o, &mut |_| {});
        let v = p.carry_back(orig, v);
        let checked = witness::check_bit_level(orig, v, Backend::Cadical, &opts);
        match (&checked.verdict, expected, engine) {
            (Verdict::Unsafe(_), true, _) => unsafe_ += 1,
            (Verdict::Safe(_), false, _) => safe += 1,
            (Verdict::Unknown(u), false, EngineKind::Bmc)
                if u.cause == Cause::Bound || u.cause == Cause::Incomplete => {}
            (got, _, _) => failures.push(format!(
                "{what} ({}): {got:?}, explicit search says reachable = {expected}\n{m:?}",
                engine.name()
            )),
        }
    }
    (safe, unsafe_)
}

/// SAT sweeping keeps every function of the model, merges the redundant gates, and PDR and BMC
/// on the swept system, with their verdicts carried back to the original system and checked
/// there, agree with explicit search.
#[test]
fn preprocessed_systems_keep_functions_and_verdicts() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15, Vec::new());
    let (mut merged, mut before, mut after) = (0, 0, 0);
    let (mut safe, mut unsafe_) = (0, 0);
    let mut failures = Vec::new();
    for case in 0..300 {
        let m = random_model_with(&mut rng, redundant_fn);
        let ms = m.to_system();
        let orig = Original {
            model: &m,
            sys: &ms.sys,
            latch_var: &ms.latch_var,
            input_var: &ms.input_var,
            words: Default::default(),
        };
        let intr = Interrupter::new();
        let swept = sweep::sweep(
            &m,
            &Default::default(),
            Backend::Batsat,
            Duration::from_secs(10),
            &intr,
        )
        .0;
        assert_eq!(
            truth_tables(&m),
            truth_tables(&swept),
            "case {case}: a function changed\n{m:?}"
        );
        // Nothing merged: the engines run on the original system itself.
        let Some(p) = Preprocessed::new(orig, Preprocess::Sweep, Backend::Cadical, &intr) else {
            continue;
        };
        assert!(!p.sweep.stopped);
        merged += p.sweep.merged;
        before += p.sweep.ands_before;
        after += p.sweep.ands_after;
        let (s, u) =
            agree_after_preprocessing(&m, &ms.sys, &p, &format!("case {case}"), &mut failures);
        safe += s;
        unsafe_ += u;
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("sweeping: {before} -> {after} AND gates ({merged} merged); {safe} SAFE, {unsafe_} UNSAFE agreed");
    assert!(
        merged > 300 && after < before,
        "sweeping merged too little to be tested"
    );
    assert!(safe > 50 && unsafe_ > 50);
}

/// `m` with latches that mirror others (the same next-state function, complemented or not,
/// and the reset value to match, or on purpose not), a latch that can never leave 0 (or, on
/// purpose, starts at 1), and a bad literal that reads them.
fn with_mirrors(rng: &mut Rng, mut m: Model) -> Model {
    let mut added = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let j = rng.below(m.latches.len() as u64) as usize;
        let (next, reset) = (m.latches[j].next, m.latches[j].reset);
        let flip = rng.below(2) == 0;
        let decoy = rng.below(4) == 0;
        let node = m.aig.input();
        m.latches.push(ModelLatch {
            node,
            next: next.xor_sign(flip),
            reset: Some(reset.unwrap_or(false) ^ flip ^ decoy),
            name: None,
        });
        added.push(node);
    }
    let node = m.aig.input();
    let other = m.latches[rng.below(m.latches.len() as u64) as usize].node;
    m.latches.push(ModelLatch {
        node,
        next: m.aig.and(node, other),
        reset: Some(rng.below(4) == 0),
        name: None,
    });
    added.push(node);
    for n in added {
        let other = m.latches[rng.below(m.latches.len() as u64) as usize].node;
        let g = m.aig.and(n.xor_sign(rng.below(2) == 0), other);
        m.bad = m.aig.or(m.bad, g);
    }
    m
}

/// Latch correspondence merges only latches equal (or complementary, or constant) in every
/// reachable state: PDR and BMC on the merged system, carried back to the original one (an
/// invariant with the equivalences added, a plan re-stepped) and checked there, agree with
/// explicit search on models with mirrored latches, decoys and latches stuck at 0.
#[test]
fn latch_correspondence_keeps_verdicts() {
    let mut rng = Rng(0x6a09_e667_f3bc_c908, Vec::new());
    let (mut merged, mut constants, mut runs) = (0, 0, 0);
    let (mut safe, mut unsafe_) = (0, 0);
    let mut failures = Vec::new();
    for case in 0..300 {
        let m = random_model(&mut rng);
        let m = with_mirrors(&mut rng, m);
        let ms = m.to_system();
        let orig = Original {
            model: &m,
            sys: &ms.sys,
            latch_var: &ms.latch_var,
            input_var: &ms.input_var,
            words: Default::default(),
        };
        let intr = Interrupter::new();
        let mode = Preprocess::Correspond;
        let Some(p) = Preprocessed::new(orig, mode, Backend::Cadical, &intr) else {
            continue;
        };
        if let Some(c) = &p.correspond {
            assert!(!c.stopped, "case {case}: correspondence stopped");
            merged += c.merged;
            constants += c.constants;
            runs += usize::from(c.merged + c.constants > 0);
        }
        let (s, u) =
            agree_after_preprocessing(&m, &ms.sys, &p, &format!("case {case}"), &mut failures);
        safe += s;
        unsafe_ += u;
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("latch correspondence: {merged} latches merged, {constants} constant in {runs} models; {safe} SAFE, {unsafe_} UNSAFE agreed");
    assert!(merged > 100 && constants > 50 && runs > 150);
    assert!(safe > 50 && unsafe_ > 50);
}

/// Whether `cnf ∧ assumptions` is satisfiable.
fn satisfiable(cnf: &Cnf, assumptions: &[Lit]) -> bool {
    let mut s = Backend::Cadical.create(&Interrupter::new());
    for c in cnf.iter() {
        s.add_clause(c);
    }
    s.solve(assumptions) == SolveResult::Sat
}

/// `U ∧ T` of a system, the clauses of one step.
fn step_clauses(sys: &System) -> Cnf {
    let mut c = sys.constraints.clone();
    c.extend(&sys.trans);
    c
}

/// Gate elimination ([`bitmc::ts::eliminate`]) on random models with constraints: for random
/// valuations of the latches and inputs, each next-state latch is forced to the same value
/// (both polarities asked) and the goal and the constraints hold alike before and after, PDR
/// still loads the transition relation cone by cone (the structure it checks is kept), and
/// most models lose gates. The verdicts after elimination are checked against explicit search
/// by `preprocessed_systems_keep_functions_and_verdicts`, whose preprocessing includes it.
#[test]
fn gate_elimination_keeps_each_step() {
    const CASES: usize = 200;
    let mut rng = Rng(0x5851_f42d_4c95_7f2d, Vec::new());
    let (mut with_gates_eliminated, mut on_demand) = (0, 0);
    for case in 0..CASES {
        let m = random_model(&mut rng);
        let sys = m.to_system().sys;
        let (out, stats) = bitmc::ts::eliminate::eliminate(&sys).expect("a circuit's system");
        assert!(stats.clauses_after <= stats.clauses_before, "case {case}");
        with_gates_eliminated += (stats.gates > 0) as usize;
        let n = sys.n() as u32;
        let latches = sys.latch_vars();
        let inputs = sys.lifting.as_ref().unwrap().inputs.clone();
        let (before, after) = (step_clauses(&sys), step_clauses(&out));
        let goal = |s: &System| {
            let mut c = s.bad.clone();
            c.extend(&s.constraints);
            c
        };
        let (goal_before, goal_after) = (goal(&sys), goal(&out));
        for _ in 0..8 {
            let assume: Vec<Lit> = latches
                .iter()
                .chain(&inputs)
                .map(|&v| Lit::new(v, rng.below(2) == 1))
                .collect();
            for &l in &latches {
                for next in [Var(l.0 + n).pos(), Var(l.0 + n).neg()] {
                    let with: Vec<Lit> = assume.iter().copied().chain([next]).collect();
                    assert_eq!(
                        satisfiable(&before, &with),
                        satisfiable(&after, &with),
                        "case {case}: next state of {l:?} under {assume:?}\n{m:?}"
                    );
                }
            }
            assert_eq!(
                satisfiable(&goal_before, &assume),
                satisfiable(&goal_after, &assume),
                "case {case}: the goal under {assume:?}\n{m:?}"
            );
        }
        let loading = |s: &System| {
            let opts = Options {
                max_depth: Some(2),
                ..Options::default()
            };
            let (_, stats) = PdrOptions::default().run_on(s, &opts, &mut |_| {});
            stats
                .get("transition relation in the solvers")
                .map(|v| v.to_string())
        };
        let loaded = loading(&out);
        assert_eq!(loading(&sys), loaded, "case {case}\n{m:?}");
        on_demand += usize::from(loaded.as_deref() == Some("cones loaded on demand"));
    }
    assert!(
        with_gates_eliminated * 2 > CASES && on_demand * 2 > CASES,
        "gates eliminated in {with_gates_eliminated} and cones loaded on demand in {on_demand} \
         of {CASES} models"
    );
}
