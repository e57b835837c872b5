//! The portfolio: its verdicts agree with the members', a win stops every member (and the search
//! for k-induction's constrained system) quickly, and member strings parse as documented.

use bitmc::engine::portfolio::{self, EngineOptions, Member};
use bitmc::engine::{EngineKind, Options, Verdict};
use bitmc::sat::{Backend, Lit, Var};
use bitmc::ts::System;
use bitmc::witness;

/// A 16-bit counter that reaches the goal (all ones) after 2^16 - 1 steps from 0: hard for
/// every engine, so the members are still busy when one of them is given an easy win.
fn slow_counter(width: u32) -> System {
    let mut s = System {
        num_vars: 2 * width,
        ..System::default()
    };
    let n = s.num_vars;
    // Variables 0..w: the counter; w..2w: carries.
    for i in 0..width {
        s.init.push(&[Var(i).neg()]);
    }
    // Goal: every bit set.
    for i in 0..width {
        s.bad.push(&[Var(i).pos()]);
    }
    // carry_0 = 1; carry_{i+1} = x_i ∧ carry_i (defined in U); x'_i = x_i ⊕ carry_i.
    let c = |i: u32| Var(width + i);
    s.constraints.push(&[c(0).pos()]);
    for i in 0..width - 1 {
        let (x, ci, cn) = (Var(i), c(i), c(i + 1));
        s.constraints.push(&[!cn.pos(), x.pos()]);
        s.constraints.push(&[!cn.pos(), ci.pos()]);
        s.constraints.push(&[cn.pos(), !x.pos(), !ci.pos()]);
    }
    for i in 0..width {
        let (x, ci, x1) = (Var(i).pos(), c(i).pos(), Var(n + i).pos());
        for (a, b, y) in [
            (false, false, false),
            (false, true, true),
            (true, false, true),
            (true, true, false),
        ] {
            let lits: Vec<Lit> = vec![x.xor_sign(a), ci.xor_sign(b), x1.xor_sign(!y)];
            s.trans.push(&lits);
        }
    }
    s.init.reserve_vars(n);
    s.bad.reserve_vars(n);
    s.constraints.reserve_vars(n);
    s.trans.reserve_vars(2 * n);
    s.names = vec![None; n as usize];
    s
}

/// The tests that race members take turns: a test of how fast the members stop measures the
/// portfolio, not how long its threads wait for a core that the other tests' members hold
/// (on two cores, five racing tests at once delayed a stop past 100 ms).
static RACES: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes this test's turn among the racing tests (a test that failed does not block the others).
fn turn() -> std::sync::MutexGuard<'static, ()> {
    RACES.lock().unwrap_or_else(|e| e.into_inner())
}

fn check(sys: &System, v: Verdict, b: Backend, o: &Options) -> Verdict {
    witness::check_bit_level(sys, v, b, o).verdict
}

#[test]
fn members_parse_and_print() {
    let m: Member = "pdr:batsat:no-ctg:ctg-max=5".parse().unwrap();
    assert_eq!(m.engine(), EngineKind::Pdr);
    assert_eq!(m.backend, Backend::Batsat);
    let EngineOptions::Pdr(pdr) = &m.options else {
        panic!("{m:?}");
    };
    assert!(!pdr.ctg);
    assert_eq!(pdr.ctg_max, 5);
    assert_eq!(m.to_string(), "pdr:batsat:no-ctg:ctg-max=5");
    assert_eq!("kind".parse::<Member>().unwrap().backend, Backend::Cadical);
    assert!("ic3:cadical".parse::<Member>().is_err());
    assert!("pdr:cadical:ctg-max=x".parse::<Member>().is_err());
    assert!("pdr:fast".parse::<Member>().is_err());
    let m: Member = "ic3cfa:cadical:no-push-filter:stable=4".parse().unwrap();
    let EngineOptions::Ic3cfa(ic3cfa) = &m.options else {
        panic!("{m:?}");
    };
    assert!(!ic3cfa.push_filter);
    assert_eq!(ic3cfa.stable, 4);
    assert_eq!(m.to_string(), "ic3cfa:cadical:no-push-filter:stable=4");
    assert!("ic3cfa:cadical:stable".parse::<Member>().is_err());
    assert_eq!(
        portfolio::default_members().len(),
        portfolio::DEFAULT_MEMBERS.len()
    );
}

#[test]
fn verdicts_agree_with_the_members() {
    let _turn = turn();
    let sys = slow_counter(3); // goal after 7 steps
    let opts = Options::default();
    let r = portfolio::run(
        &portfolio::Systems::plain(&sys),
        &portfolio::default_system_members(),
        3,
        &opts,
        &check,
        &mut |_| {},
    );
    match r.verdict {
        Verdict::Unsafe(plan) => assert_eq!(plan.states.len(), 8),
        v => panic!("portfolio: {v:?}"),
    }
    assert!(r.winner.is_some());
}

#[test]
fn a_win_stops_every_member_within_100_ms() {
    let _turn = turn();
    // A 12-bit counter that starts anywhere, with an extra latch `y` that starts and stays 0;
    // the goal needs the counter at all ones and `y = 1`. PDR's first generalisation needs `y`
    // (the counter alone is not excluded initially), so it learns `¬y` and wins within its
    // first frames, while BMC (never finishes on a safe system) and k-induction (the counter
    // makes every path of fewer than 4096 steps non-inductive) keep searching. The check of
    // PDR's answer takes half a second more, so the others are deep in their search when the
    // win is recorded. (With the counter starting at 0, the unsat cores name counter bits, PDR
    // needs hundreds of frames, and after 15 s BMC's unrolling is so large that CaDiCaL's
    // inprocessing, which polls the interrupter only between its phases, can take longer than
    // the bound to stop: see `sat::cadical`.)
    let mut sys = slow_counter(12);
    let (n, y) = (sys.num_vars, Var(sys.num_vars));
    let mut grown = System {
        num_vars: n + 1,
        ..System::default()
    };
    let remap = |l: Lit, n: u32| {
        if l.var().0 >= n {
            Lit::new(Var(l.var().0 + 1), l.is_negated())
        } else {
            l
        }
    };
    for (src, dst) in [
        (&sys.constraints, &mut grown.constraints),
        (&sys.bad, &mut grown.bad),
    ] {
        for c in src.iter() {
            dst.push(c);
        }
    }
    for c in sys.trans.iter() {
        let lits: Vec<Lit> = c.iter().map(|&l| remap(l, n)).collect();
        grown.trans.push(&lits);
    }
    grown.init.push(&[y.neg()]);
    grown.bad.push(&[y.pos()]);
    let y1 = Var(2 * (n + 1) - 1);
    grown.trans.push(&[y1.neg(), y.pos()]);
    grown.trans.push(&[y1.pos(), y.neg()]);
    grown.names = vec![None; (n + 1) as usize];
    sys = grown;
    let members: Vec<Member> = ["bmc:cadical", "kind:cadical", "pdr:cadical", "bmc:batsat"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let opts = Options::default();
    let slow_check = |sys: &System, v: Verdict, b: Backend, o: &Options| {
        if matches!(v, Verdict::Safe(_)) {
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
        check(sys, v, b, o)
    };
    let r = portfolio::run(
        &portfolio::Systems::plain(&sys),
        &members,
        4,
        &opts,
        &slow_check,
        &mut |_| {},
    );
    assert!(matches!(r.verdict, Verdict::Safe(_)), "{:?}", r.verdict);
    assert_eq!(r.winner.map(|m| m.engine()), Some(EngineKind::Pdr));
    for s in &r.stats {
        if s.name.starts_with("member ") && !s.name.contains("pdr") {
            // "UNKNOWN after 0.503 s": the member searched until the win.
            let answer = s.value.to_string();
            let secs: f64 = answer
                .split(' ')
                .nth(2)
                .and_then(|t| t.parse().ok())
                .unwrap();
            assert!(secs >= 0.4, "{}: {answer}", s.name);
        }
    }
    for s in &r.stats {
        eprintln!("{}: {}", s.name, s.value);
    }
    // Measured 4–27 ms (22 runs, two cores): three searching members share two cores, and a
    // CaDiCaL inprocessing phase (hyper-ternary resolution, watch lists rebuilt) does not
    // poll while it runs over the whole unrolling; the bound leaves room for a loaded machine.
    let latency = r.stop_latency.expect("a member won");
    eprintln!("all members stopped {latency:?} after the win");
    assert!(
        latency.as_millis() <= 100,
        "members took {latency:?} to stop after the win"
    );
}

/// The constrained system for k-induction is made in the k-induction member's thread, so the
/// other members run meanwhile, and a win by one of them cancels it: here the "search" waits
/// until it is interrupted, and BMC's win must stop it within 50 ms.
#[test]
fn a_win_cancels_the_search_for_the_constrained_system() {
    let _turn = turn();
    use std::sync::atomic::{AtomicBool, Ordering};
    let sys = slow_counter(3); // goal after 7 steps: BMC finds it at once
    let started = AtomicBool::new(false);
    let cancelled = AtomicBool::new(false);
    let search = |intr: &bitmc::sat::Interrupter| -> Option<&System> {
        started.store(true, Ordering::SeqCst);
        // Gives up after 10 s, so that a portfolio that never cancels it fails instead of
        // hanging.
        let t = std::time::Instant::now();
        while !intr.is_interrupted() && t.elapsed().as_secs() < 10 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        cancelled.store(intr.is_interrupted(), Ordering::SeqCst);
        None
    };
    let systems = portfolio::Systems {
        plain: &sys,
        constrained: Some(&search),
        accelerated: None,
        program: None,
        preprocessed: None,
    };
    let members: Vec<Member> = ["bmc:cadical", "kind:cadical"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let opts = Options::default();
    let r = portfolio::run(&systems, &members, 2, &opts, &check, &mut |_| {});
    assert!(matches!(r.verdict, Verdict::Unsafe(_)), "{:?}", r.verdict);
    assert_eq!(r.winner.map(|m| m.engine()), Some(EngineKind::Bmc));
    assert!(
        started.load(Ordering::SeqCst),
        "k-induction never asked for its system"
    );
    assert!(
        cancelled.load(Ordering::SeqCst),
        "the search was not cancelled"
    );
    let latency = r.stop_latency.expect("a member won");
    assert!(
        latency.as_millis() <= 50,
        "the search took {latency:?} to stop after the win"
    );
}

/// PDR and BMC run on the preprocessed system; their verdicts reach the checker carried back
/// to the plain system (never about the system they were found on), and agree with the
/// verdicts found on the plain system.
#[test]
fn verdicts_on_the_preprocessed_system_are_checked_on_the_plain_one() {
    let _turn = turn();
    use bitmc::aig::Aig;
    use bitmc::engine::preprocess::Preprocessed;
    use bitmc::ts::model::{Model, ModelInput, ModelLatch};
    // A 5-bit counter that adds 2 when the input is set (bit 0 stays 0), its carries built in
    // two shapes of the same function (so sweeping merges something); bad once it reaches
    // `target`, which only even targets do.
    for (target, expect_safe) in [(10u32, false), (9, true)] {
        let mut aig = Aig::new();
        let bits: Vec<_> = (0..5).map(|_| aig.input()).collect();
        let inc = aig.input();
        let mut carry = inc;
        let mut next = vec![bits[0]];
        for &b in &bits[1..] {
            next.push(aig.xor(b, carry));
            let c1 = aig.and(b, carry);
            // (b ∨ carry) ∧ (b ↔ carry): the same function in a shape of its own, which
            // sweeping merges with `c1` (and `c1 ∨ c2` with it).
            let either = aig.or(b, carry);
            let same = aig.xnor(b, carry);
            let c2 = aig.and(either, same);
            carry = aig.or(c1, c2);
        }
        let hit: Vec<_> = bits
            .iter()
            .enumerate()
            .map(|(k, &b)| b.xor_sign(target >> k & 1 == 0))
            .collect();
        let bad = aig.and_all(hit);
        let model = Model {
            latches: bits
                .iter()
                .zip(&next)
                .map(|(&node, &next)| ModelLatch {
                    node,
                    next,
                    reset: Some(false),
                    name: None,
                })
                .collect(),
            inputs: vec![ModelInput {
                node: inc,
                name: None,
            }],
            constraints: Vec::new(),
            bad,
            aig,
        };
        let ms = model.to_system();
        let orig = bitmc::ts::model::Original {
            model: &model,
            sys: &ms.sys,
            latch_var: &ms.latch_var,
            input_var: &ms.input_var,
            words: Default::default(),
        };
        let sweep = bitmc::engine::preprocess::Preprocess::Sweep;
        let pre = Preprocessed::new(
            orig,
            sweep,
            Backend::Cadical,
            &bitmc::sat::Interrupter::new(),
        )
        .expect("sweeping merges the second shape of each carry");
        assert!(pre.sweep.merged > 0, "nothing merged");
        assert!(pre.sys.num_vars < ms.sys.num_vars);
        let prepare = |_: &bitmc::sat::Interrupter| Some(&pre);
        let systems = portfolio::Systems {
            preprocessed: Some(&prepare),
            ..portfolio::Systems::plain(&ms.sys)
        };
        let plain_vars = ms.sys.num_vars;
        let checked_on = std::sync::Mutex::new(Vec::new());
        let recording = |sys: &System, v: Verdict, b: Backend, o: &Options| {
            checked_on.lock().unwrap().push(sys.num_vars);
            check(sys, v, b, o)
        };
        for engine in ["pdr:cadical", "bmc:cadical"] {
            let m: Member = engine.parse().unwrap();
            let opts = Options {
                max_depth: Some(40),
                ..Options::default()
            };
            let r = portfolio::run(
                &systems,
                std::slice::from_ref(&m),
                1,
                &opts,
                &recording,
                &mut |_| {},
            );
            let plain = portfolio::run(
                &portfolio::Systems::plain(&ms.sys),
                &[m],
                1,
                &opts,
                &check,
                &mut |_| {},
            );
            match (&r.verdict, expect_safe, engine) {
                (Verdict::Safe(_), true, _) | (Verdict::Unsafe(_), false, _) => {}
                (Verdict::Unknown(_), true, "bmc:cadical") => continue,
                (v, _, _) => panic!("{engine}, target {target}: {v:?}"),
            }
            assert_eq!(
                std::mem::discriminant(&r.verdict),
                std::mem::discriminant(&plain.verdict),
                "{engine}, target {target}"
            );
        }
        let seen = checked_on.lock().unwrap();
        assert!(!seen.is_empty());
        assert!(
            seen.iter().all(|&n| n == plain_vars),
            "a verdict was checked on the preprocessed system ({} variables, plain {plain_vars}): {seen:?}",
            pre.sys.num_vars
        );
    }
}
