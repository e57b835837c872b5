//! Polynomials against the term evaluator, the echelon basis, discovery from samples, and the
//! proof on small programs (sound facts, dropped candidates).

use super::discover::{self, monomials, null_space};
use super::prove::prove;
use super::*;
use crate::bv::value::mask;
use crate::bv::{Evaluator, Op, Sort, TermId, TermManager};
use crate::cfa::{Cfa, Loc};
use crate::frontend::{lower_source, FrontendOptions};
use crate::ts::program::{encode, EncodeOptions, Goal, PcEncoding, ProgramSystem};
use proptest::prelude::*;

/// A random term of width `w` over `vars`, from a recipe of operator choices.
fn term(
    tm: &mut TermManager,
    vars: &[TermId],
    recipe: &mut impl Iterator<Item = u8>,
    depth: u32,
) -> TermId {
    let w = tm.width(vars[0]);
    let pick = recipe.next().unwrap_or(0);
    if depth == 0 || pick < 40 {
        return match pick % 3 {
            0 => tm.bv_const(recipe.next().unwrap_or(3) as u128, w),
            _ => vars[pick as usize % vars.len()],
        };
    }
    let a = term(tm, vars, recipe, depth - 1);
    let b = term(tm, vars, recipe, depth - 1);
    match pick % 11 {
        0 | 1 => tm.add(a, b),
        2 => tm.sub(a, b),
        3 | 4 => tm.mul(a, b),
        5 => tm.neg(a),
        6 => {
            let k = tm.bv_const((recipe.next().unwrap_or(1) % (w as u8 + 2)) as u128, w);
            tm.shl(a, k)
        }
        7 => {
            let c = tm.ult(a, b);
            tm.ite(c, a, b)
        }
        8 => tm.udiv(a, b),
        9 => {
            // Widened and truncated back: the low bits are the argument's.
            let wide = tm.app(Op::Sext(w + 8), &[a]);
            tm.extract(wide, w - 1, 0)
        }
        _ => tm.and(a, b),
    }
}

proptest! {
    /// The polynomial of a term has the term's value (modulo 2^w, and modulo a smaller power
    /// of two) for every value of the variables, the atoms taking their values.
    #[test]
    fn polynomials_have_the_values_of_their_terms(
        recipe in proptest::collection::vec(any::<u8>(), 64),
        values in proptest::collection::vec(any::<u64>(), 3),
        narrow in 1u32..16,
    ) {
        let mut tm = TermManager::new();
        let vars: Vec<TermId> = (0..3).map(|i| tm.var(format!("v{i}"), Sort::Bv(16))).collect();
        let t = term(&mut tm, &vars, &mut recipe.into_iter(), 5);
        let mut ev = Evaluator::new(&tm);
        for (v, x) in vars.iter().zip(&values) {
            ev.set(tm.as_var(*v).expect("a variable"), *x as u128);
        }
        let mut conv = Converter::new(&tm);
        for w in [16, narrow] {
            let p = conv.poly(t, w);
            let got = p.eval(&mut |a| ev.eval(a));
            prop_assert_eq!(got, ev.eval(t) & mask(w), "{} at width {}", p.text(&|a| format!("t{}", a.index())), w);
        }
        // Written back as a term, the polynomial has the same value.
        let p = conv.poly(t, narrow);
        let mut tm2 = tm.clone();
        let back = p.term(&mut tm2);
        let mut ev2 = Evaluator::new(&tm2);
        for (v, x) in vars.iter().zip(&values) {
            ev2.set(tm2.as_var(*v).expect("a variable"), *x as u128);
        }
        prop_assert_eq!(tm2.width(back), narrow);
        prop_assert_eq!(ev2.eval(back), ev2.eval(t) & mask(narrow));
    }

    /// Odd numbers have inverses modulo every power of two up to 2^128.
    #[test]
    fn odd_numbers_have_inverses(a in any::<u128>(), width in 1u32..=128) {
        let a = a | 1;
        let x = crate::bv::poly::inverse(a, width);
        prop_assert_eq!(crate::bv::value::truncate(a.wrapping_mul(x), width), 1);
    }

    /// The null space of states on the line `d·x = n·y` is that line, read back exactly
    /// from the fraction `n/d` that the elimination modulo a prime produces.
    #[test]
    fn fractions_read_back(n in -100_000i128..100_000, d in 1i128..100_000) {
        let rows: Vec<Vec<i128>> = (1..6).map(|t| vec![n * t, d * t]).collect();
        let monos = monomials(2, 1);
        let g = {
            let (mut a, mut b) = (n.abs(), d);
            while b != 0 { (a, b) = (b, a % b); }
            a
        };
        let space = null_space(&rows, &monos);
        // Columns 1, x, y; the vector is primitive with its last nonzero entry positive.
        let expected = if n == 0 { vec![0, 1, 0] } else {
            let v = [0, d / g, -n / g];
            let s = v[2].signum();
            vec![0, v[1] * s, v[2] * s]
        };
        prop_assert_eq!(space, vec![expected]);
    }
}

#[test]
fn monomials_are_counted_once() {
    // C(k + d, d) monomials of degree at most d in k variables.
    assert_eq!(monomials(3, 2).len(), 10);
    assert_eq!(monomials(5, 3).len(), 56);
    let mut m = monomials(4, 3);
    m.sort();
    m.dedup();
    assert_eq!(m.len(), 35);
}

#[test]
fn a_basis_reduces_its_combinations_and_nothing_else() {
    let mut tm = TermManager::new();
    let v: Vec<TermId> = (0..4)
        .map(|i| tm.var(format!("v{i}"), Sort::Bv(32)))
        .collect();
    let at = |i: usize| Poly::atom(v[i], 32);
    let r1 = at(0).mul(&at(1)).unwrap().sub(&at(2).scale(3)); // v0·v1 - 3·v2
    let r2 = at(2).mul(&at(2)).unwrap().add(&Poly::constant(7, 32)); // v2² + 7
    let r3 = at(0).scale(2).sub(&at(1).scale(6)); // 2·v0 - 6·v1: no odd coefficient
    let mut b = Basis::new(32);
    assert!(b.insert(&r1));
    assert!(b.insert(&r2));
    assert!(
        !b.insert(&r3),
        "a polynomial without a unit coefficient is set aside"
    );
    let combo = r1
        .scale(5)
        .sub(&r2.mul(&at(3)).unwrap().scale(0))
        .add(&r2.scale(u32::MAX as u128));
    assert!(b.implies_zero(&combo));
    assert!(b.implies_zero(&r1.sub(&r2)));
    assert!(!b.implies_zero(&r1.add(&at(3))));
    assert!(!b.implies_zero(&at(2).sub(&Poly::constant(1, 32))));
}

/// States `(n, x, y, z)` of the consecutive-cubes loop.
fn cubes(up_to: i128) -> Vec<Vec<i128>> {
    (0..up_to)
        .map(|n| vec![n, n * n * n, 3 * n * n + 3 * n + 1, 6 * n + 6])
        .collect()
}

#[test]
fn the_equalities_of_consecutive_cubes_are_found() {
    let mut tm = TermManager::new();
    let v: Vec<TermId> = ["n", "x", "y", "z"]
        .iter()
        .map(|s| tm.var(*s, Sort::Bv(32)))
        .collect();
    let found = discover::equalities(&v, 32, &cubes(40));
    let mut b = Basis::new(32);
    for p in &found {
        b.insert(p);
    }
    let at = |i: usize| Poly::atom(v[i], 32);
    let n2 = at(0).mul(&at(0)).unwrap();
    let n3 = n2.mul(&at(0)).unwrap();
    let expected = [
        at(3).sub(&at(0).scale(6)).sub(&Poly::constant(6, 32)),
        at(2)
            .sub(&n2.scale(3))
            .sub(&at(0).scale(3))
            .sub(&Poly::constant(1, 32)),
        at(1).sub(&n3),
    ];
    for e in &expected {
        assert!(
            b.implies_zero(e),
            "{} not found",
            e.text(&|t| format!("t{}", t.index()))
        );
    }
    // Every equality found holds on the states, wrapped to 32 bits beyond the rows used.
    for p in &found {
        for s in cubes(3000) {
            let val = p.eval(&mut |a| s[v.iter().position(|&t| t == a).unwrap()] as u128);
            assert_eq!(val, 0);
        }
    }
}

const DECLS: &str = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);\n";

fn system(src: &str) -> (Cfa, ProgramSystem) {
    let l = lower_source(
        &format!("{DECLS}{src}"),
        "test.c",
        &FrontendOptions::default(),
    )
    .expect("lowers");
    let cfa = crate::cfa::prepare(&l.cfa, true);
    let ps = encode(
        &cfa,
        EncodeOptions {
            pc: PcEncoding::Binary,
            goal: Goal::Error,
        },
    );
    (cfa, ps)
}

/// The loop head (the location with an edge to itself or the one the initial edge enters).
fn loop_head(cfa: &Cfa) -> Loc {
    cfa.edges
        .iter()
        .find(|e| e.from == cfa.init)
        .expect("an initial edge")
        .to
}

/// The term of the variable named `name` (`main::name`).
fn var(cfa: &Cfa, name: &str) -> TermId {
    cfa.vars
        .iter()
        .find(|v| v.name == format!("main::{name}"))
        .expect("a variable")
        .term
}

const SQUARES: &str = "int main(void) { int k = __VERIFIER_nondet_int(); int y = 0, x = 0, c = 0;
  while (1) { if (!(y * y - 2 * x + y == 0)) reach_error(); if (!(c < k)) break;
    c = c + 1; y = y + 1; x = y + x; }
  return 0; }";

#[test]
fn a_true_identity_is_proved_and_gives_the_assertion() {
    let (cfa, ps) = system(SQUARES);
    let head = loop_head(&cfa);
    let (x, y, c) = (var(&cfa, "x"), var(&cfa, "y"), var(&cfa, "c"));
    let at = |t: TermId| Poly::atom(t, 32);
    // 2x = y² + y, and c = y; and a wrong one, x = y².
    let good = at(y).mul(&at(y)).unwrap().add(&at(y)).sub(&at(x).scale(2));
    let counter = at(c).sub(&at(y));
    let wrong = at(x).sub(&at(y).mul(&at(y)).unwrap());
    let proved = prove(
        &cfa,
        &ps,
        vec![(head, good.clone()), (head, counter.clone()), (head, wrong)],
        &|| false,
    );
    let kept: Vec<&Poly> = proved.invariants.iter().map(|(_, q)| q).collect();
    assert_eq!(kept, vec![&good, &counter]);
    assert_eq!(proved.facts.len(), 1, "the assertion's equality follows");
    assert_eq!(proved.facts[0].loc, head);
}

#[test]
fn an_update_through_a_division_is_not_read_as_its_integer_value() {
    let (cfa, ps) = system(SQUARES);
    let head = loop_head(&cfa);
    let (x, y) = (var(&cfa, "x"), var(&cfa, "y"));
    let at = |t: TermId| Poly::atom(t, 32);
    // `x = y(y+1)/2` is inductive alone; with the update read through a division it is not.
    let good = at(y).mul(&at(y)).unwrap().add(&at(y)).sub(&at(x).scale(2));
    let alone = prove(&cfa, &ps, vec![(head, good.clone())], &|| false);
    assert_eq!(alone.invariants.len(), 1);
    let (cfa2, ps2) = system(
        "int main(void) { int k = __VERIFIER_nondet_int(); int y = 0, x = 0, c = 0;
  while (1) { if (!(y * y - 2 * x + y == 0)) reach_error(); if (!(c < k)) break;
    c = c + 1; y = y + 1; x = (2 * y + 2 * x) / 2; }
  return 0; }",
    );
    let head2 = loop_head(&cfa2);
    let (x2, y2) = (var(&cfa2, "x"), var(&cfa2, "y"));
    let good2 = Poly::atom(y2, 32)
        .mul(&Poly::atom(y2, 32))
        .unwrap()
        .add(&Poly::atom(y2, 32))
        .sub(&Poly::atom(x2, 32).scale(2));
    // Over the integers (2y + 2x) / 2 = y + x, but not in 32-bit arithmetic, where the sum
    // can wrap: the proof must not accept it.
    let proved = prove(&cfa2, &ps2, vec![(head2, good2)], &|| false);
    assert!(proved.invariants.is_empty());
    assert!(proved.facts.is_empty());
}

/// On every fixture of `fixtures/c`, the program equalities proved from the polynomial
/// candidates hold in every state that a random simulation of the program's system (longer,
/// and with another seed than the sampling's) reaches. The candidates come from a dozen
/// simulation steps only, so that many hold on the samples and not beyond: a proof that
/// accepted them would show here (accepting every obligation fails this test). Some fixtures
/// must give facts, or the test would check nothing.
#[test]
fn facts_hold_on_the_simulated_states_of_every_fixture() {
    use crate::ts::invariants;
    use crate::ts::simulate::{self, Simulation};
    let root = format!("{}/fixtures/c", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures")
        .flatten()
        .filter(|d| d.file_name() != "errors")
        .flat_map(|d| std::fs::read_dir(d.path()).expect("a group").flatten())
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let (mut with_facts, mut checked) = (0, 0);
    for f in &files {
        let src = std::fs::read_to_string(f).expect("a fixture");
        let Ok(l) = lower_source(&src, "fixture.c", &FrontendOptions::default()) else {
            continue;
        };
        let cfa = crate::cfa::prepare(&l.cfa, true);
        let ps = encode(
            &cfa,
            EncodeOptions {
                pc: PcEncoding::Binary,
                goal: Goal::Error,
            },
        );
        let mut scratch = ps.model.clone();
        let samples = invariants::sample(&cfa, &ps, &mut scratch, 12, &|| false);
        let candidates = discover::candidates(&cfa, &samples, &|| false);
        let proved = prove(&cfa, &ps, candidates, &|| false);
        if proved.facts.is_empty() {
            continue;
        }
        with_facts += 1;
        let mut model = super::prove::constrained(&cfa, &ps, &proved.facts)
            .unwrap_or_else(|| panic!("{}: the constrained model has other latches", f.display()));
        let facts = model.constraints.split_off(ps.model.constraints.len());
        let mut sim = Simulation::new(&model, &ps.words(), 0xfac7);
        simulate::run(&mut sim, 2000, &|| false, |sim, valid| {
            for (lit, fact) in facts.iter().zip(&proved.facts) {
                let wrong = !sim.lit(*lit) & valid;
                assert!(
                    wrong == 0,
                    "{}: the equality {:?} at L{} is false in a reachable state",
                    f.display(),
                    fact.eq,
                    fact.loc.index()
                );
            }
            checked += valid.count_ones() as usize;
        });
    }
    assert!(with_facts >= 5, "only {with_facts} fixtures gave facts");
    assert!(checked > 0);
}
