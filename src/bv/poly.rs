//! Polynomials over `Z/2^w` whose variables are terms, and terms read as such polynomials.
//!
//! A [`Poly`] is a polynomial with coefficients in `Z/2^w` whose variables ("atoms") are
//! terms: its value for an assignment of the atoms is computed with every atom's value taken
//! modulo `2^w`. Addition, subtraction, negation and multiplication of bit-vectors of width
//! `w` are exactly the ring operations of `Z/2^w`, and truncation from a wider width is a ring
//! homomorphism, so a term built from them *is* a polynomial of its leaves ([`Converter`]);
//! any other operator's application becomes an atom of its own. An identity of polynomials
//! therefore holds for every value of the atoms, in wrap-around arithmetic, whatever the
//! values: no overflow can break it. A SAT solver cannot show that `(n+1)·(n+1)` and
//! `n·n + 2n + 1` agree on 32 bits in reasonable time, while the normal forms are equal; and a
//! polynomial written back as a term ([`Poly::term`]) is the sum of its monomials, without the
//! differences of equal subterms that symbolic execution leaves behind.
//!
//! [`Basis`] keeps polynomials in echelon form, to tell whether one follows from others.

use super::value::mask;
use super::{Node, Op, TermId, TermManager};
use std::collections::{BTreeMap, HashMap};

/// A monomial: the atoms multiplied, sorted, with repetition.
pub type Monomial = Vec<TermId>;

/// The most monomials a polynomial may have; a larger product becomes an atom.
const MAX_TERMS: usize = 2048;

/// The highest degree of a monomial; a product above it becomes an atom.
const MAX_DEGREE: usize = 8;

/// A polynomial over `Z/2^width` in atoms (terms).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Poly {
    width: u32,
    /// The nonzero coefficients (below `2^width`) of the monomials.
    terms: BTreeMap<Monomial, u128>,
}

impl Poly {
    /// The zero polynomial.
    pub fn zero(width: u32) -> Poly {
        Poly {
            width,
            terms: BTreeMap::new(),
        }
    }

    /// The constant `c` (taken modulo `2^width`).
    pub fn constant(c: u128, width: u32) -> Poly {
        Poly::monomial(Vec::new(), c, width)
    }

    /// The atom `t`.
    pub fn atom(t: TermId, width: u32) -> Poly {
        Poly::monomial(vec![t], 1, width)
    }

    /// `c · m`.
    pub fn monomial(m: Monomial, c: u128, width: u32) -> Poly {
        let mut p = Poly::zero(width);
        p.add_term(m, c);
        p
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The monomials with their coefficients, in increasing order.
    pub fn terms(&self) -> impl Iterator<Item = (&Monomial, u128)> {
        self.terms.iter().map(|(m, &c)| (m, c))
    }

    /// The coefficient of `m`.
    pub fn coefficient(&self, m: &Monomial) -> u128 {
        self.terms.get(m).copied().unwrap_or(0)
    }

    /// The atoms the polynomial reads.
    pub fn atoms(&self) -> Vec<TermId> {
        let mut out: Vec<TermId> = self.terms.keys().flatten().copied().collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The polynomial as a term of its width: the sum of its monomials, each the product of
    /// its atoms (their low `width` bits) times its coefficient, a coefficient above `2^(w-1)`
    /// written as the subtraction of its negation (a product with a small constant is a few
    /// adders, one with its two's complement a full multiplier).
    pub fn term(&self, tm: &mut TermManager) -> TermId {
        let w = self.width;
        let mut sum = tm.bv_const(0, w);
        for (m, &c) in &self.terms {
            let mut product = None;
            for &a in m {
                let a = match tm.width(a) {
                    aw if aw > w => tm.extract(a, w - 1, 0),
                    _ => a,
                };
                product = Some(match product {
                    None => a,
                    Some(p) => tm.mul(p, a),
                });
            }
            let negative = w > 1 && c > mask(w - 1);
            let magnitude = if negative {
                c.wrapping_neg() & mask(w)
            } else {
                c
            };
            let k = tm.bv_const(magnitude, w);
            let x = match product {
                None => k,
                Some(p) => tm.mul(p, k),
            };
            sum = if negative {
                tm.sub(sum, x)
            } else {
                tm.add(sum, x)
            };
        }
        sum
    }

    /// The highest degree of a monomial (0 for constants and zero).
    pub fn degree(&self) -> usize {
        self.terms.keys().map(Vec::len).max().unwrap_or(0)
    }

    fn add_term(&mut self, m: Monomial, c: u128) {
        let k = mask(self.width);
        let e = self.terms.entry(m).or_insert(0);
        *e = e.wrapping_add(c) & k;
        if *e == 0 {
            self.terms.retain(|_, c| *c != 0);
        }
    }

    /// `self + c · other`.
    pub fn add_scaled(&self, other: &Poly, c: u128) -> Poly {
        let mut out = self.clone();
        let k = mask(self.width);
        for (m, &d) in &other.terms {
            let e = out.terms.entry(m.clone()).or_insert(0);
            *e = e.wrapping_add(d.wrapping_mul(c)) & k;
        }
        out.terms.retain(|_, c| *c != 0);
        out
    }

    pub fn add(&self, other: &Poly) -> Poly {
        self.add_scaled(other, 1)
    }

    pub fn sub(&self, other: &Poly) -> Poly {
        self.add_scaled(other, mask(self.width))
    }

    /// `c · self`.
    pub fn scale(&self, c: u128) -> Poly {
        Poly::zero(self.width).add_scaled(self, c)
    }

    /// The product, or `None` when it would exceed [`MAX_TERMS`] monomials or degree
    /// [`MAX_DEGREE`].
    pub fn mul(&self, other: &Poly) -> Option<Poly> {
        if self.terms.len() * other.terms.len() > 4 * MAX_TERMS
            || self.degree() + other.degree() > MAX_DEGREE
        {
            return None;
        }
        let k = mask(self.width);
        let mut out = Poly::zero(self.width);
        for (m, &c) in &self.terms {
            for (n, &d) in &other.terms {
                let mut mn = m.clone();
                mn.extend_from_slice(n);
                mn.sort_unstable();
                let e = out.terms.entry(mn).or_insert(0);
                *e = e.wrapping_add(c.wrapping_mul(d)) & k;
            }
        }
        out.terms.retain(|_, c| *c != 0);
        (out.terms.len() <= MAX_TERMS).then_some(out)
    }

    /// The polynomial with each atom `a` replaced by `sub(a)` where that is `Some` (a
    /// polynomial of the same width), or `None` when a product grows too large.
    pub fn substitute(&self, sub: &mut dyn FnMut(TermId) -> Option<Poly>) -> Option<Poly> {
        let mut cache: HashMap<TermId, Poly> = HashMap::new();
        let mut out = Poly::zero(self.width);
        for (m, &c) in &self.terms {
            let mut prod = Poly::constant(c, self.width);
            for &a in m {
                let pa = cache
                    .entry(a)
                    .or_insert_with(|| sub(a).unwrap_or_else(|| Poly::atom(a, self.width)));
                prod = prod.mul(pa)?;
            }
            out = out.add(&prod);
            if out.terms.len() > MAX_TERMS {
                return None;
            }
        }
        Some(out)
    }

    /// The value for atom values `value(a)` (taken modulo `2^width`).
    pub fn eval(&self, value: &mut dyn FnMut(TermId) -> u128) -> u128 {
        let k = mask(self.width);
        let mut acc = 0u128;
        for (m, &c) in &self.terms {
            let mut prod = c;
            for &a in m {
                prod = prod.wrapping_mul(value(a) & k) & k;
            }
            acc = acc.wrapping_add(prod) & k;
        }
        acc
    }

    /// The polynomial as text, atoms named by `name`, coefficients as signed values.
    pub fn text(&self, name: &dyn Fn(TermId) -> String) -> String {
        if self.terms.is_empty() {
            return "0".into();
        }
        let mut out = String::new();
        for (m, &c) in self.terms.iter().rev() {
            let s = signed(c, self.width);
            let (neg, mag) = (s < 0, s.unsigned_abs());
            if out.is_empty() {
                if neg {
                    out.push('-');
                }
            } else {
                out.push_str(if neg { " - " } else { " + " });
            }
            let factors: Vec<String> = m.iter().map(|&a| name(a)).collect();
            match (mag, factors.is_empty()) {
                (_, true) => out.push_str(&mag.to_string()),
                (1, false) => out.push_str(&factors.join("*")),
                _ => out.push_str(&format!("{mag}*{}", factors.join("*"))),
            }
        }
        out
    }
}

/// `c` (below `2^w`) as a signed value of `w` bits.
pub fn signed(c: u128, w: u32) -> i128 {
    if w < 128 && w > 0 && (c >> (w - 1)) & 1 == 1 {
        c as i128 - (1i128 << w)
    } else {
        c as i128
    }
}

/// The inverse of an odd `a` modulo `2^w` (Newton's iteration doubles the correct low bits).
pub fn inverse(a: u128, w: u32) -> u128 {
    debug_assert!(a & 1 == 1);
    let mut x = a;
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(a.wrapping_mul(x)));
    }
    x & mask(w)
}

/// Terms as polynomials of their leaves (see the module doc), memoised.
pub struct Converter<'a> {
    tm: &'a TermManager,
    /// The branch taken at an `ite` whose condition is a key: `ite(c, a, b)` is `a` or `b`.
    pub choice: HashMap<TermId, bool>,
    memo: HashMap<(TermId, u32), Poly>,
}

impl<'a> Converter<'a> {
    pub fn new(tm: &'a TermManager) -> Converter<'a> {
        Converter {
            tm,
            choice: HashMap::new(),
            memo: HashMap::new(),
        }
    }

    /// The polynomial over `Z/2^w` whose value is `t`'s modulo `2^w` (`t` a bit-vector of at
    /// least `w` bits).
    pub fn poly(&mut self, t: TermId, w: u32) -> Poly {
        if let Some(p) = self.memo.get(&(t, w)) {
            return p.clone();
        }
        let p = self.convert(t, w);
        self.memo.insert((t, w), p.clone());
        p
    }

    fn convert(&mut self, t: TermId, w: u32) -> Poly {
        let tm = self.tm;
        let atom = || Poly::atom(t, w);
        let args = match tm.node(t) {
            Node::Const(c) => return Poly::constant(c, w),
            Node::Var(_) => return atom(),
            Node::App(_, _) => tm.args(t).to_vec(),
        };
        let Node::App(op, _) = tm.node(t) else {
            unreachable!("an application")
        };
        let arg_w = |k: usize| tm.width(args[k]);
        match op {
            Op::Add => self.poly(args[0], w).add(&self.poly(args[1], w)),
            Op::Sub => self.poly(args[0], w).sub(&self.poly(args[1], w)),
            Op::Neg => Poly::zero(w).sub(&self.poly(args[0], w)),
            Op::Mul => {
                let (a, b) = (self.poly(args[0], w), self.poly(args[1], w));
                a.mul(&b).unwrap_or_else(atom)
            }
            Op::Shl => match tm.const_value(args[1]) {
                Some(k) if k < tm.width(t) as u128 => {
                    let p = self.poly(args[0], w);
                    if k >= w as u128 {
                        Poly::zero(w)
                    } else {
                        p.scale(1u128 << k)
                    }
                }
                Some(_) => Poly::zero(w),
                None => atom(),
            },
            Op::Extract { hi, lo: 0 } if hi + 1 >= w => self.poly(args[0], w),
            Op::Zext(_) | Op::Sext(_) if arg_w(0) >= w => self.poly(args[0], w),
            Op::Concat if arg_w(1) >= w => self.poly(args[1], w),
            Op::Ite if !tm.sort(t).is_bool() => match self.choice.get(&args[0]) {
                Some(true) => self.poly(args[1], w),
                Some(false) => self.poly(args[2], w),
                None => atom(),
            },
            _ => atom(),
        }
    }
}

/// Polynomials in echelon form over `Z/2^w`: each row has a pivot monomial with coefficient 1
/// that no later row contains. Only polynomials with an odd coefficient (a unit of `Z/2^w`) at
/// some monomial left after reduction become rows; the others are set aside, which can only
/// make [`Basis::reduce`] miss an implication, never claim a false one.
#[derive(Clone, Debug)]
pub struct Basis {
    width: u32,
    rows: Vec<(Monomial, Poly)>,
}

impl Basis {
    pub fn new(width: u32) -> Basis {
        Basis {
            width,
            rows: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Adds `p` (of the basis' width); whether it became a row.
    pub fn insert(&mut self, p: &Poly) -> bool {
        debug_assert_eq!(p.width, self.width);
        let r = self.reduce(p);
        let Some((m, c)) = r.terms.iter().rev().find(|(_, &c)| c & 1 == 1) else {
            return false;
        };
        let (m, inv) = (m.clone(), inverse(*c, self.width));
        self.rows.push((m, r.scale(inv)));
        true
    }

    /// `p` minus the multiples of the rows that cancel its pivot monomials: zero when `p` is
    /// a combination of the rows, so that `p = 0` wherever every row is 0.
    pub fn reduce(&self, p: &Poly) -> Poly {
        let mut r = p.clone();
        for (m, row) in &self.rows {
            let c = r.coefficient(m);
            if c != 0 {
                r = r.add_scaled(row, mask(self.width).wrapping_mul(c) & mask(self.width));
            }
        }
        r
    }

    /// Whether `p = 0` follows from the rows being 0.
    pub fn implies_zero(&self, p: &Poly) -> bool {
        self.reduce(p).is_zero()
    }
}
