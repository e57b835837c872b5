//! Unit tests of the CFA module on hand-built automata.

use super::*;

struct B {
    cfa: Cfa,
}

impl B {
    fn new() -> B {
        B {
            cfa: Cfa::new(Property::UnreachCall, DataModel::Ilp32),
        }
    }
    fn var(&mut self, n: &str) -> (PVar, TermId) {
        let v = self.cfa.add_var(
            n.into(),
            IntType {
                width: 8,
                signed: false,
            },
            VarKind::Local,
            None,
        );
        (v, self.cfa.var(v).term)
    }
    fn o(&mut self) -> OriginId {
        self.cfa.add_origin(None, String::new())
    }
    fn loc(&mut self) -> Loc {
        self.cfa.add_loc(LocKind::Normal, None, "")
    }
    fn c(&mut self, v: u128) -> TermId {
        self.cfa.tm.bv_const(v, 8)
    }
    fn nondet(&mut self, v: PVar) -> Gcl {
        let o = self.o();
        Gcl::Havoc(
            v,
            HavocKind::NondetCall {
                function: "n".into(),
                ty: IntType {
                    width: 8,
                    signed: false,
                },
            },
            o,
        )
    }
}

/// `x := nondet; if (x == 3) error; y := x + 1; if (y == 9) sink; exit`
fn sample() -> (Cfa, PVar, PVar) {
    let mut b = B::new();
    let (x, xt) = b.var("x");
    let (y, yt) = b.var("y");
    let (l1, l2, l3) = (b.loc(), b.loc(), b.loc());
    let h = b.nondet(x);
    b.cfa.add_edge(b.cfa.init, h, l1);
    let three = b.c(3);
    let is3 = b.cfa.tm.eq(xt, three);
    let not3 = b.cfa.tm.not(is3);
    let (o1, o2) = (b.o(), b.o());
    let err = b.cfa.error;
    b.cfa.add_edge(l1, Gcl::Assume(is3, o1), err);
    let one = b.c(1);
    let sum = b.cfa.tm.add(xt, one);
    let o3 = b.o();
    b.cfa.add_edge(
        l1,
        Gcl::Seq(vec![Gcl::Assume(not3, o2), Gcl::Assign(y, sum, o3)]),
        l2,
    );
    let nine = b.c(9);
    let is9 = b.cfa.tm.eq(yt, nine);
    let not9 = b.cfa.tm.not(is9);
    let sink = b.cfa.sink("test");
    let (o4, o5) = (b.o(), b.o());
    b.cfa.add_edge(l2, Gcl::Assume(is9, o4), sink);
    b.cfa.add_edge(l2, Gcl::Assume(not9, o5), l3);
    let exit = b.cfa.exit;
    b.cfa.add_edge(l3, Gcl::skip(), exit);
    (b.cfa, x, y)
}

#[test]
fn interpreter_outcomes_and_steps() {
    let (cfa, x, y) = sample();
    assert!(cfa.check().is_ok());
    let (o, steps) = run(&cfa, &[3], 100);
    assert!(
        matches!(
            o,
            Outcome::Error {
                property: Property::UnreachCall,
                ..
            }
        ),
        "{o:?}"
    );
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].nondet, vec![(x, 3)]);
    let (o, _) = run(&cfa, &[8], 100);
    assert_eq!(
        o,
        Outcome::Sink {
            reason: "test".into(),
            loc: cfa.sink_of("test")
        }
    );
    let (o, steps) = run(&cfa, &[0x105], 100);
    assert_eq!(o, Outcome::Exit);
    assert_eq!(
        steps[0].nondet,
        vec![(x, 5)],
        "values are truncated to the width"
    );
    assert_eq!(steps[1].writes, vec![(y, 6)]);
    let (o, _) = run(&cfa, &[], 100);
    assert!(matches!(o, Outcome::NondetExhausted { .. }));
    let (o, _) = run(&cfa, &[1], 2);
    assert!(matches!(o, Outcome::StepLimit { .. }));
}

impl Cfa {
    fn sink_of(&self, r: &str) -> Loc {
        self.sinks()
            .into_iter()
            .find(|&l| matches!(self.kind(l), LocKind::Sink(s) if s == r))
            .unwrap_or(self.error)
    }
}

#[test]
fn failed_choice_alternative_returns_its_nondet_value() {
    let mut b = B::new();
    let (x, xt) = b.var("x");
    let (z, _) = b.var("z");
    let l = b.loc();
    let h = b.nondet(x);
    b.cfa.add_edge(b.cfa.init, h, l);
    let zero = b.c(0);
    let c = b.cfa.tm.eq(xt, zero);
    let nc = b.cfa.tm.not(c);
    let (o1, o2) = (b.o(), b.o());
    let hz = b.nondet(z);
    let hz2 = b.nondet(z);
    // Alternative 1 takes a value and then blocks; alternative 2 must see the same value.
    let alt1 = Gcl::Seq(vec![hz, Gcl::Assume(c, o1)]);
    let alt2 = Gcl::Seq(vec![Gcl::Assume(nc, o2), hz2]);
    let exit = b.cfa.exit;
    b.cfa.add_edge(l, Gcl::Choice(vec![alt1, alt2]), exit);
    let (o, steps) = run(&b.cfa, &[1, 42], 10);
    assert_eq!(o, Outcome::Exit);
    assert_eq!(steps[1].nondet, vec![(z, 42)]);
}

#[test]
fn lbe_merges_chains_and_diamonds_but_keeps_loop_heads() {
    let (cfa, _, _) = sample();
    let l = large_block_encoding(&cfa);
    assert!(l.check().is_ok());
    // l1 and l2 have one incoming edge each: it is copied into each of their two outgoing
    // edges (the havoc included), which leaves no location but init, error, sink and exit.
    assert!(
        l.locations.iter().all(|loc| loc.kind != LocKind::Normal),
        "{l}"
    );
    assert_eq!(l.edges.len(), 3, "{l}");
    for seq in [[3u128], [8], [5]] {
        let ((a, sa), (b, sb)) = (run(&cfa, &seq, 100), run(&l, &seq, 100));
        assert_eq!(
            std::mem::discriminant(&a),
            std::mem::discriminant(&b),
            "{seq:?}"
        );
        let taken = |steps: &[super::interp::Step]| -> Vec<(PVar, u128)> {
            steps.iter().flat_map(|s| s.nondet.clone()).collect()
        };
        assert_eq!(taken(&sa), taken(&sb), "{seq:?}");
    }
    // A loop: head -> body -> head; the head survives.
    let mut b = B::new();
    let (i, it) = b.var("i");
    let (head, body) = (b.loc(), b.loc());
    let z = b.c(0);
    let o = b.o();
    b.cfa.add_edge(b.cfa.init, Gcl::Assign(i, z, o), head);
    let ten = b.c(10);
    let lt = b.cfa.tm.ult(it, ten);
    let ge = b.cfa.tm.not(lt);
    let (o1, o2, o3) = (b.o(), b.o(), b.o());
    b.cfa.add_edge(head, Gcl::Assume(lt, o1), body);
    let one = b.c(1);
    let inc = b.cfa.tm.add(it, one);
    b.cfa.add_edge(body, Gcl::Assign(i, inc, o2), head);
    let exit = b.cfa.exit;
    b.cfa.add_edge(head, Gcl::Assume(ge, o3), exit);
    let l = large_block_encoding(&b.cfa);
    assert_eq!(l.edges.len(), 3, "{l}");
    assert!(l.loop_heads().iter().any(|&h| h));
    assert_eq!(run(&l, &[], 100).0, Outcome::Exit);
}

/// Large-block encoding copies a location's incoming edge into each outgoing one only within
/// its limits: at most four outgoing edges and 64 copied atomic commands.
#[test]
fn lbe_copies_only_within_its_limits() {
    // init --(n assignments)--> mid --(one of `fan` guards)--> t_k --> exit, each t_k a loop
    // head; is `mid` removed?
    let removed = |n: usize, fan: u128| {
        let mut b = B::new();
        let (x, xt) = b.var("x");
        let mid = b.loc();
        let one = b.c(1);
        let mut inc = Vec::new();
        for _ in 0..n {
            let o = b.o();
            let t = b.cfa.tm.add(xt, one);
            inc.push(Gcl::Assign(x, t, o));
        }
        b.cfa.add_edge(b.cfa.init, Gcl::Seq(inc), mid);
        let exit = b.cfa.exit;
        for k in 0..fan {
            let c = b.c(k);
            let eq = b.cfa.tm.eq(xt, c);
            let (o, t) = (b.o(), b.loc());
            b.cfa.add_edge(mid, Gcl::Assume(eq, o), t);
            b.cfa.add_edge(t, Gcl::skip(), exit);
            // A self-loop keeps `t` (a loop head), so `mid` keeps `fan` outgoing edges.
            let (f, o) = (b.cfa.tm.fals(), b.o());
            b.cfa.add_edge(t, Gcl::Assume(f, o), t);
        }
        let key = b.cfa.locations[mid.index()].key;
        let l = large_block_encoding(&b.cfa);
        assert_eq!(l.check(), b.cfa.check());
        l.locations.iter().all(|loc| loc.key != key)
    };
    assert!(removed(1, 4));
    assert!(!removed(1, 5), "more than four outgoing edges");
    assert!(removed(64, 2));
    assert!(!removed(65, 2), "more than 64 copied commands");
    assert!(removed(500, 1), "nothing is copied for one outgoing edge");
}

#[test]
fn propagation_and_dead_variables() {
    let mut b = B::new();
    let (x, xt) = b.var("x");
    let (y, yt) = b.var("y");
    let (w, _) = b.var("w");
    let l1 = b.loc();
    let five = b.c(5);
    let (o1, o2, o3, o4) = (b.o(), b.o(), b.o(), b.o());
    let hw = b.nondet(w);
    let seq = Gcl::Seq(vec![Gcl::Assign(x, five, o1), Gcl::Assign(y, xt, o2), hw]);
    b.cfa.add_edge(b.cfa.init, seq, l1);
    let three = b.c(3);
    let gt = b.cfa.tm.ugt(yt, three);
    let le = b.cfa.tm.not(gt);
    let (err, exit) = (b.cfa.error, b.cfa.exit);
    b.cfa.add_edge(l1, Gcl::Assume(gt, o3), err);
    b.cfa.add_edge(l1, Gcl::Assume(le, o4), exit);
    let p = propagate_constants_and_copies(&b.cfa);
    // `y > 3` folds to true: the edge to exit is gone, the one to error is unguarded.
    assert_eq!(p.edges.len(), 2, "{p}");
    let d = eliminate_dead_variables(&p);
    // x and y are dead; the nondet havoc of w is kept.
    let atoms: usize = d.edges.iter().map(|e| e.cmd.atom_count()).sum();
    assert_eq!(atoms, 1, "{d}");
    assert!(matches!(run(&d, &[0], 10).0, Outcome::Error { .. }));
}

#[test]
fn cone_of_influence_drops_irrelevant_writes() {
    let (mut cfa, x, _) = sample();
    let (u, _) = {
        let v = cfa.add_var(
            "u".into(),
            IntType {
                width: 8,
                signed: false,
            },
            VarKind::Local,
            None,
        );
        (v, cfa.var(v).term)
    };
    let xt = cfa.var(x).term;
    let o = cfa.add_origin(None, String::new());
    // Add `u := x` on the first edge: u is never read.
    if let Some(e) = cfa.edges.first_mut() {
        let cmd = std::mem::replace(&mut e.cmd, Gcl::skip());
        e.cmd = cmd.then(Gcl::Assign(u, xt, o));
    }
    let c = cone_of_influence(&cfa);
    let mut writes_u = false;
    for e in &c.edges {
        e.cmd
            .for_each_atom(&mut |g| writes_u |= matches!(g, Gcl::Assign(v, _, _) if *v == u));
    }
    assert!(!writes_u, "{c}");
    for seq in [[3u128], [8], [5]] {
        assert_eq!(
            run(&cfa, &seq, 100).0.is_target(),
            run(&c, &seq, 100).0.is_target()
        );
    }
}

#[test]
fn dot_output_is_well_formed() {
    let (cfa, _, _) = sample();
    let d = cfa.to_dot();
    assert!(d.starts_with("digraph cfa {") && d.trim_end().ends_with('}'));
    assert_eq!(d.matches(" -> ").count(), cfa.edges.len());
    assert!(d.contains("doubleoctagon"));
}

#[test]
fn split_removes_every_choice() {
    let mut b = B::new();
    let (x, xt) = b.var("x");
    let l = b.loc();
    let h = b.nondet(x);
    b.cfa.add_edge(b.cfa.init, h, l);
    let one = b.c(1);
    let is1 = b.cfa.tm.eq(xt, one);
    let not1 = b.cfa.tm.not(is1);
    let (o1, o2, o3) = (b.o(), b.o(), b.o());
    let two = b.c(2);
    let choice = Gcl::Choice(vec![
        Gcl::Assume(is1, o1),
        Gcl::Seq(vec![Gcl::Assume(not1, o2), Gcl::Assign(x, two, o3)]),
    ]);
    let err = b.cfa.error;
    b.cfa.add_edge(l, choice.clone().then(choice), err);
    let s = split_choices(&b.cfa).unwrap_or_else(|| b.cfa.clone());
    assert_eq!(s.edges.len(), 5);
    for e in &s.edges {
        e.cmd.for_each_atom(&mut |_| {});
        assert!(!format!("{:?}", e.cmd).contains("Choice"));
    }
    for v in [1u128, 3] {
        assert_eq!(
            run(&b.cfa, &[v], 10).0.is_target(),
            run(&s, &[v], 10).0.is_target()
        );
    }
}

#[test]
fn symbolic_execution_reads_positions_like_the_interpreter() {
    // either x := nondet; y := nondet; assume x == 0  or  x := nondet; assume x != 0  end;
    // z := nondet: z takes position 2 after the first alternative, 1 after the second.
    let mut b = B::new();
    let (x, xt) = b.var("x");
    let (y, _) = b.var("y");
    let (z, _) = b.var("z");
    let zero = b.c(0);
    let c = b.cfa.tm.eq(xt, zero);
    let nc = b.cfa.tm.not(c);
    let (o1, o2) = (b.o(), b.o());
    let alt1 = Gcl::Seq(vec![b.nondet(x), b.nondet(y), Gcl::Assume(c, o1)]);
    let alt2 = Gcl::Seq(vec![b.nondet(x), Gcl::Assume(nc, o2)]);
    let cmd = Gcl::Seq(vec![Gcl::Choice(vec![alt1, alt2]), b.nondet(z)]);
    let exit = b.cfa.exit;
    b.cfa.add_edge(b.cfa.init, cmd.clone(), exit);
    let mut widths = Vec::new();
    symex::havoc_widths(&b.cfa.vars, &cmd, &mut widths);
    assert_eq!(widths, vec![8, 8, 8]);
    let mut tm = b.cfa.tm.clone();
    let slots: Vec<TermId> = (0..3)
        .map(|k| tm.var(format!("s{k}"), Sort::Bv(8)))
        .collect();
    let r = symex::exec(
        &b.cfa.vars,
        &mut tm,
        &cmd,
        symex::Env::new(),
        &mut |_, _, k| slots[k],
    );
    for s in [[0u128, 7, 9], [5, 7, 9], [0, 0, 0], [1, 2, 3]] {
        let mut ev = crate::bv::Evaluator::new(&tm);
        for (k, &t) in slots.iter().enumerate() {
            ev.set(tm.as_var(t).expect("a slot"), s[k]);
        }
        let per_step = [s.to_vec()];
        let opts = RunOptions::default();
        let (o, steps) = run_nondet(&b.cfa, Nondet::PerStep(&per_step), opts);
        assert_eq!(o, Outcome::Exit, "{s:?}");
        assert!(ev.eval_bool(r.guard));
        let count = r
            .consumed
            .iter()
            .find(|&&(_, c)| ev.eval_bool(c))
            .map(|&(k, _)| k);
        assert_eq!(count, Some(steps[0].nondet.len()), "{s:?}");
        for &(v, val) in &steps[0].writes {
            assert_eq!(ev.eval(symex::value(&b.cfa.vars, &r.env, v)), val, "{s:?}");
        }
        // The flat sequence of the consumed values runs the same way.
        let flat: Vec<u128> = steps[0].nondet.iter().map(|&(_, v)| v).collect();
        let (o2, steps2) = run(&b.cfa, &flat, 10);
        assert_eq!((o2, &steps2), (Outcome::Exit, &steps), "{s:?}");
    }
}

#[test]
fn positions_after_a_choice_that_never_completes_stay_where_havoc_widths_says() {
    // either y := nondet; assume false  or  y := nondet; assume false  end;  w := nondet (32 bits):
    // no alternative completes, and `w` must be read at a position that `havoc_widths` gives
    // 32 bits (position 1), not at the position before the choice (an 8-bit slot).
    let mut b = B::new();
    let (y, _) = b.var("y");
    let w = b.cfa.add_var(
        "w".into(),
        IntType {
            width: 32,
            signed: false,
        },
        VarKind::Local,
        None,
    );
    let fals = b.cfa.tm.fals();
    let (o1, o2, o3) = (b.o(), b.o(), b.o());
    let alt = |b: &mut B, o| Gcl::Seq(vec![b.nondet(y), Gcl::Assume(fals, o)]);
    let (a1, a2) = (alt(&mut b, o1), alt(&mut b, o2));
    let wide = Gcl::Havoc(
        w,
        HavocKind::NondetCall {
            function: "n".into(),
            ty: b.cfa.var(w).ty,
        },
        o3,
    );
    let cmd = Gcl::Seq(vec![Gcl::Choice(vec![a1, a2]), wide]);
    let mut widths = Vec::new();
    symex::havoc_widths(&b.cfa.vars, &cmd, &mut widths);
    let mut tm = b.cfa.tm.clone();
    let vars = b.cfa.vars.clone();
    let r = symex::exec(&vars, &mut tm, &cmd, symex::Env::new(), &mut |tm, v, k| {
        let width = vars[v.index()].ty.width;
        assert!(
            widths.get(k).is_some_and(|&s| s >= width),
            "a havoc of {width} bits at position {k}, slots {widths:?}"
        );
        tm.var(format!("s{k}"), Sort::Bv(width))
    });
    assert!(tm.is_false(r.guard));
}
