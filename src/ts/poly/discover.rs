//! Candidate polynomial equalities from sampled states, after DIG (Nguyen et al., "Using
//! Dynamic Analysis to Discover Polynomial and Array Invariants").
//!
//! At a location, the live state variables of one width are the unknowns; every monomial of
//! them up to a degree bound (chosen so that there are at most [`MAX_MONOMIALS`]) is a column,
//! every sampled state a row holding the monomials' values as integers (the variables read as
//! their C type reads them). Every vector of the matrix' null space is an equality
//! `Σ c_m · m = 0` that all those states satisfy. The null space is computed exactly: Gaussian
//! elimination modulo the prime `2^61 - 1`, then each coefficient of the basis read back as a
//! rational of small numerator and denominator (rational reconstruction), the vector scaled to
//! coprime integers and checked over the integers on the rows. A vector that does not read
//! back, or fails the check, is dropped; a wrong vector costs nothing but a failed proof.
//!
//! The rows are states of small magnitude (sampled values of a wrapped computation satisfy
//! the identity only modulo `2^w`, not over the integers; see [`equalities`]). Each equality
//! is then tested on *every* sampled state in the program's arithmetic (modulo `2^w`), and
//! kept only if all satisfy it.

use super::Poly;
use crate::bv::TermId;
use crate::cfa::{Cfa, Loc};
use crate::ts::invariants::Samples;
use std::collections::{BTreeMap, BTreeSet};

/// The most columns (monomials) of one matrix; the degree is lowered until they fit.
pub const MAX_MONOMIALS: usize = 64;

/// The highest degree tried.
pub const MAX_DEGREE: usize = 3;

/// The most variables of one width that one location's candidates range over.
pub const MAX_VARS: usize = 10;

/// The prime of the elimination.
const P: u64 = (1 << 61) - 1;

/// The exponent vectors of the monomials of `k` variables of degree at most `degree`, by
/// degree, then lexicographically (the constant monomial first).
pub fn monomials(k: usize, degree: usize) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vec![vec![0; k]];
    let mut last: Vec<Vec<u8>> = vec![vec![0; k]];
    for _ in 0..degree {
        let mut next: Vec<Vec<u8>> = Vec::new();
        for e in &last {
            // Raise only variables at or after the last raised one: each monomial once.
            let from = e.iter().rposition(|&x| x > 0).unwrap_or(0);
            for i in from..k {
                let mut f = e.clone();
                f[i] += 1;
                next.push(f);
            }
        }
        out.extend(next.iter().cloned());
        last = next;
    }
    out
}

/// The highest degree up to [`MAX_DEGREE`] whose monomials of `k` variables number at most
/// [`MAX_MONOMIALS`] and at most `rows`, so that the null space is not mostly an artefact of
/// too few samples; `None` when even degree 1 has more.
pub fn degree_for(k: usize, rows: usize) -> Option<usize> {
    (1..=MAX_DEGREE)
        .rev()
        .find(|&d| monomials(k, d).len() <= MAX_MONOMIALS.min(rows))
}

fn mulmod(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) % P as u128) as u64
}

fn powmod(mut a: u64, mut e: u64) -> u64 {
    let mut r = 1u64;
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod(r, a);
        }
        a = mulmod(a, a);
        e >>= 1;
    }
    r
}

fn modp(v: i128) -> u64 {
    v.rem_euclid(P as i128) as u64
}

/// The value of monomial `e` at `vals`, modulo `P`.
fn mono_mod(e: &[u8], vals: &[i128]) -> u64 {
    e.iter()
        .zip(vals)
        .fold(1u64, |acc, (&k, &v)| mulmod(acc, powmod(modp(v), k as u64)))
}

/// The value of monomial `e` at `vals` over the integers, if it fits in an `i128`.
fn mono_exact(e: &[u8], vals: &[i128]) -> Option<i128> {
    let mut acc: i128 = 1;
    for (&k, &v) in e.iter().zip(vals) {
        for _ in 0..k {
            acc = acc.checked_mul(v)?;
        }
    }
    Some(acc)
}

/// `a` (mod `P`) as `n / d` with `|n|, d < 2^30`, if there is such a fraction.
fn rational(a: u64) -> Option<(i128, i128)> {
    let bound: i128 = 1 << 30;
    let (mut r0, mut r1) = (P as i128, a as i128);
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 >= bound {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    if t1 == 0 || t1.abs() >= bound {
        return None;
    }
    let (n, d) = if t1 < 0 { (-r1, -t1) } else { (r1, t1) };
    // n ≡ a·d (mod P) by construction; check it, as the reading must be exact.
    (modp(n) == mulmod(a, modp(d))).then_some((n, d))
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The integer vectors spanning the null space of the matrix whose rows are the monomials
/// `monos` evaluated at each of `rows` (values of the variables), as far as they read back
/// exactly (see the module doc). Each vector is primitive, its last nonzero entry positive.
pub fn null_space(rows: &[Vec<i128>], monos: &[Vec<u8>]) -> Vec<Vec<i128>> {
    let n = monos.len();
    let mut m: Vec<Vec<u64>> = rows
        .iter()
        .map(|r| monos.iter().map(|e| mono_mod(e, r)).collect())
        .collect();
    // Reduced row echelon form modulo P.
    let mut pivots: Vec<usize> = Vec::new();
    let mut rank = 0;
    for col in 0..n {
        let Some(pr) = (rank..m.len()).find(|&r| m[r][col] != 0) else {
            continue;
        };
        m.swap(rank, pr);
        let inv = powmod(m[rank][col], P - 2);
        for x in m[rank].iter_mut() {
            *x = mulmod(*x, inv);
        }
        let pivot_row = m[rank].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != rank && row[col] != 0 {
                let f = row[col];
                for (x, &p) in row.iter_mut().zip(&pivot_row) {
                    *x = (*x + P - mulmod(f, p)) % P;
                }
            }
        }
        pivots.push(col);
        rank += 1;
        if rank == m.len() {
            break;
        }
    }
    let mut out = Vec::new();
    for free in (0..n).filter(|c| !pivots.contains(c)) {
        // x_free = 1, x_pivot(i) = -m[i][free].
        let mut fracs: Vec<(i128, i128)> = vec![(0, 1); n];
        fracs[free] = (1, 1);
        let mut ok = true;
        for (i, &pc) in pivots.iter().enumerate() {
            match rational((P - m[i][free]) % P) {
                Some(f) => fracs[pc] = f,
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        if let Some(v) = integer_vector(&fracs) {
            if rows
                .iter()
                .all(|r| holds_exactly(&v, monos, r) != Some(false))
            {
                out.push(v);
            }
        }
    }
    out
}

/// The fractions scaled by their common denominator and divided by the gcd of the results.
fn integer_vector(fracs: &[(i128, i128)]) -> Option<Vec<i128>> {
    let mut lcm: i128 = 1;
    for &(_, d) in fracs {
        lcm = lcm.checked_mul(d / gcd(lcm, d))?;
    }
    let mut v: Vec<i128> = fracs
        .iter()
        .map(|&(n, d)| n.checked_mul(lcm / d))
        .collect::<Option<_>>()?;
    let g = v.iter().fold(0, |g, &x| gcd(g, x));
    if g == 0 {
        return None;
    }
    let sign = v.iter().rev().find(|&&x| x != 0).map_or(1, |x| x.signum());
    for x in &mut v {
        *x = *x / g * sign;
    }
    Some(v)
}

/// Whether `Σ v_m · m(vals) = 0` over the integers; `None` when a value does not fit.
fn holds_exactly(v: &[i128], monos: &[Vec<u8>], vals: &[i128]) -> Option<bool> {
    let mut acc: i128 = 0;
    for (c, e) in v.iter().zip(monos) {
        if *c != 0 {
            acc = acc.checked_add(c.checked_mul(mono_exact(e, vals)?)?)?;
        }
    }
    Some(acc == 0)
}

/// The equalities over `terms` (the variables' terms, all of width `width`) that the sampled
/// states `states` (the variables' values as their C types read them, one row per state)
/// satisfy, as polynomials over the terms.
///
/// A state whose computation wrapped around satisfies an identity only modulo `2^width`, and
/// one such row among the rows of the elimination hides the identity from the null space over
/// the rationals. The magnitude of a state hints at whether it wrapped, so the null space is
/// computed on the states of smallest magnitude below each of the thresholds
/// `2^(width/3)`, `2^(width/2)`, `2^(2·width/3)` and without one (at most twice as many
/// states as columns each time, the degree lowered to fit the states there are), and the
/// equalities of all of them are kept when every sampled state satisfies them modulo
/// `2^width`.
pub fn equalities(terms: &[TermId], width: u32, states: &[Vec<i128>]) -> Vec<Poly> {
    let k = terms.len();
    if k == 0 {
        return Vec::new();
    }
    let magnitude = |r: &Vec<i128>| r.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
    let mut sorted: Vec<&Vec<i128>> = states.iter().collect();
    sorted.sort_by_key(|r| magnitude(r));
    let most = 2 * MAX_MONOMIALS + 8;
    let mut out: Vec<Poly> = Vec::new();
    let mut last = usize::MAX;
    for bits in [width / 3, width / 2, 2 * width / 3, 128] {
        let below = |r: &&&Vec<i128>| bits >= 127 || magnitude(r) < 1u128 << bits;
        let rows: Vec<Vec<i128>> = (sorted.iter().take_while(below).take(most))
            .map(|r| (*r).clone())
            .collect();
        if rows.len() == last {
            continue;
        }
        last = rows.len();
        let Some(degree) = degree_for(k, rows.len()) else {
            continue;
        };
        let monos = monomials(k, degree);
        for v in null_space(&rows, &monos) {
            let p = polynomial(terms, width, &v, &monos);
            let all = states.iter().all(|s| {
                p.eval(&mut |a| {
                    let i = terms
                        .iter()
                        .position(|&t| t == a)
                        .expect("an atom is a variable");
                    s[i] as u128
                }) == 0
            });
            if !p.is_zero() && all && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// `Σ v_m · m` over `terms`.
fn polynomial(terms: &[TermId], width: u32, v: &[i128], monos: &[Vec<u8>]) -> Poly {
    let mut p = Poly::zero(width);
    for (c, e) in v.iter().zip(monos) {
        if *c == 0 {
            continue;
        }
        let m: Vec<TermId> = e
            .iter()
            .enumerate()
            .flat_map(|(i, &x)| std::iter::repeat_n(terms[i], x as usize))
            .collect();
        p = p.add(&Poly::monomial(m, *c as u128, width));
    }
    p
}

/// The most candidates of a program.
pub const MAX_CANDIDATES: usize = 2000;

/// The candidates of every sampled location: for the live variables of each width (at most
/// [`MAX_VARS`] of them), the [`equalities`] their sampled states satisfy, over the
/// variables' terms; at most [`MAX_CANDIDATES`], and those found until `stop` says so (it is
/// polled between locations).
pub fn candidates(cfa: &Cfa, samples: &Samples, stop: &dyn Fn() -> bool) -> Vec<(Loc, Poly)> {
    let vars = samples.vars();
    let mut out = Vec::new();
    for (loc, here, states) in samples.per_location() {
        if stop() || out.len() >= MAX_CANDIDATES {
            break;
        }
        let mut by_width: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for i in here {
            by_width.entry(vars[i].bits.len()).or_default().push(i);
        }
        for (w, group) in by_width {
            if group.len() > MAX_VARS {
                continue;
            }
            let rows: BTreeSet<Vec<i128>> = states
                .iter()
                .map(|s| group.iter().map(|&i| vars[i].value(s[i])).collect())
                .collect();
            let rows: Vec<Vec<i128>> = rows.into_iter().collect();
            let terms: Vec<TermId> = group.iter().map(|&i| cfa.var(vars[i].pvar).term).collect();
            for p in equalities(&terms, w as u32, &rows) {
                out.push((loc, p));
            }
        }
    }
    out
}
