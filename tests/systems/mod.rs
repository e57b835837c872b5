//! Random small transition systems and explicit-state search over all their states, shared by
//! the differential tests of the engines and of the certificate checks.
#![allow(dead_code)]

use bitmc::cnf::Cnf;
use bitmc::sat::{Lit, Var};
use bitmc::ts::System;

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub fn random_clause(rng: &mut Rng, vars: u32, len: usize) -> Vec<Lit> {
    (0..len)
        .map(|_| Lit::new(Var(rng.below(vars as u64) as u32), rng.below(2) == 0))
        .collect()
}

pub fn random_cnf(rng: &mut Rng, vars: u32, clauses: usize, max_len: usize) -> Cnf {
    let mut c = Cnf::new();
    for _ in 0..clauses {
        let len = 1 + rng.below(max_len as u64) as usize;
        c.push(&random_clause(rng, vars, len));
    }
    c
}

/// A random system with `n` variables whose transition relation tends to be functional in
/// part of the variables (so that paths are long enough to be interesting).
pub fn random_system(rng: &mut Rng, n: u32) -> System {
    let mut sys = System {
        num_vars: n,
        ..System::default()
    };
    let ni = rng.below(n as u64 + 1) as usize;
    sys.init = random_cnf(rng, n, ni, 2);
    let nu = rng.below(2) as usize;
    sys.constraints = random_cnf(rng, n, nu, 3);
    let ng = 1 + rng.below(n as u64) as usize;
    sys.bad = random_cnf(rng, n, ng, 2);
    let mut t = Cnf::new();
    let nt = n as usize + rng.below(2 * n as u64) as usize;
    for _ in 0..nt {
        let len = 2 + rng.below(2) as usize;
        let mut c = random_clause(rng, 2 * n, len);
        // Make sure most clauses mention a next-state variable.
        let k = rng.below(n as u64) as u32;
        c.push(Lit::new(Var(n + k), rng.below(2) == 0));
        t.push(&c);
    }
    sys.trans = t;
    sys.init.reserve_vars(n);
    sys.constraints.reserve_vars(n);
    sys.bad.reserve_vars(n);
    sys.trans.reserve_vars(2 * n);
    sys.names = vec![None; n as usize];
    sys
}

/// The length (in steps) of a shortest path to the goal, by breadth-first search over all
/// `2^n` states.
pub fn explicit_search(sys: &System) -> Option<usize> {
    let states = 1u32 << sys.num_vars;
    let ok = |s: u32| holds(&sys.constraints, s);
    let mut dist = vec![usize::MAX; states as usize];
    let mut frontier: Vec<u32> = (0..states)
        .filter(|&s| ok(s) && holds(&sys.init, s))
        .collect();
    for &s in &frontier {
        dist[s as usize] = 0;
    }
    let mut d = 0;
    while !frontier.is_empty() {
        if frontier.iter().any(|&s| holds(&sys.bad, s)) {
            return Some(d);
        }
        let mut next = Vec::new();
        for &s in &frontier {
            for t in 0..states {
                if dist[t as usize] == usize::MAX && ok(t) && steps(sys, s, t) {
                    dist[t as usize] = d + 1;
                    next.push(t);
                }
            }
        }
        frontier = next;
        d += 1;
    }
    None
}

/// Whether state `s` (bit `v` is variable `v`) satisfies `cnf`.
pub fn holds(cnf: &Cnf, s: u32) -> bool {
    cnf.satisfied_by(|v| (s >> v.0) & 1 == 1)
}

/// Whether `T(s, t)` holds.
pub fn steps(sys: &System, s: u32, t: u32) -> bool {
    let n = sys.num_vars;
    sys.trans.satisfied_by(|v| {
        if v.0 < n {
            (s >> v.0) & 1 == 1
        } else {
            (t >> (v.0 - n)) & 1 == 1
        }
    })
}
