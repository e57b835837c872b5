//! DimSpec in and out: a [`dimspec::Problem`] is a [`System`] with DIMACS numbering
//! (DimSpec variable `v` is `Var(v - 1)`, and `n + k` is the next-state copy of `k`).

use super::System;
use crate::cnf::Cnf;
use crate::sat::Lit;

fn to_cnf(c: &dimspec::Cnf, num_vars: u32) -> Cnf {
    let mut out = Cnf::new();
    out.reserve_vars(num_vars);
    let mut buf = Vec::new();
    for clause in c.iter() {
        buf.clear();
        buf.extend(clause.iter().map(|&d| Lit::from_dimacs(d)));
        out.push(&buf);
    }
    out
}

fn from_cnf(c: &Cnf) -> dimspec::Cnf {
    let mut out = dimspec::Cnf::with_capacity(c.len(), c.num_lits());
    for clause in c.iter() {
        out.push_clause_iter(clause.iter().map(|l| l.to_dimacs()));
    }
    out
}

/// The system of a DimSpec problem. The reader has checked every literal's range.
pub fn from_problem(p: &dimspec::Problem) -> System {
    let n = p.num_vars;
    System {
        num_vars: n,
        init: to_cnf(&p.init, n),
        constraints: to_cnf(&p.universal, n),
        bad: to_cnf(&p.goal, n),
        trans: to_cnf(&p.trans, 2 * n),
        names: vec![None; n as usize],
        lifting: None,
        u_total: false,
    }
}

/// The DimSpec problem of a system, with `comments` written before the first header.
pub fn to_problem(sys: &System, comments: Vec<String>) -> dimspec::Problem {
    dimspec::Problem {
        num_vars: sys.num_vars,
        comments,
        init: from_cnf(&sys.init),
        universal: from_cnf(&sys.constraints),
        goal: from_cnf(&sys.bad),
        trans: from_cnf(&sys.trans),
    }
}
