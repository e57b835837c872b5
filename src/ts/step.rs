//! Concrete steps of a [`System`], for lock-step comparisons with the programs and circuits it
//! comes from (see [`super::lockstep`]).
//!
//! A state is completed from the values of its latches and inputs by unit propagation over `U`
//! (for a system made from a circuit, `U` holds the Tseitin definitions of the gates, which
//! propagate from the latches and inputs to every gate), and the next state's latches follow
//! by unit propagation over `T` from the completed state. A conflict is a constraint (or a
//! transition) that the state violates; a variable that propagation leaves open is reported,
//! since a system whose states are not functions of their latches and inputs cannot be stepped
//! this way. Nothing here calls a SAT solver: what is compared is what the clauses say.
//!
//! [`compare_systems`] steps two systems side by side (e.g. a system and its DimSpec or AIGER
//! export read back) and compares their latches and goal bit for bit.

use super::System;
use crate::cnf::Cnf;
use crate::sat::{Lit, Var};
use std::collections::HashMap;

/// Why a state cannot be completed or stepped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("the state violates constraint clause {0}")]
    Constraint(usize),
    #[error("the step violates transition clause {0}")]
    Transition(usize),
    #[error("variable {0} is not determined by the latches and inputs")]
    Undetermined(u32),
}

/// Steps a system concretely (see the module doc).
pub struct Stepper<'s> {
    sys: &'s System,
    latches: Vec<Var>,
    /// For each variable of a state, the clauses of `U` it occurs in.
    u_occ: Vec<Vec<u32>>,
    /// For each variable of two states, the clauses of `T` it occurs in.
    t_occ: Vec<Vec<u32>>,
}

fn occurrences(cnf: &Cnf, vars: usize) -> Vec<Vec<u32>> {
    let mut occ = vec![Vec::new(); vars];
    for (i, c) in cnf.iter().enumerate() {
        for l in c {
            if let Some(o) = occ.get_mut(l.var().index()) {
                o.push(i as u32);
            }
        }
    }
    occ
}

/// Unit propagation of `cnf` from `val` to a fixpoint; the index of a violated clause on
/// conflict.
fn propagate(cnf: &Cnf, occ: &[Vec<u32>], val: &mut [Option<bool>]) -> Result<(), usize> {
    let value = |val: &[Option<bool>], l: Lit| val[l.var().index()].map(|b| b != l.is_negated());
    let mut queued = vec![true; cnf.len()];
    let mut work: Vec<u32> = (0..cnf.len() as u32).rev().collect();
    while let Some(c) = work.pop() {
        queued[c as usize] = false;
        let mut open = None;
        let mut open_count = 0;
        let mut satisfied = false;
        for &l in cnf.clause(c as usize) {
            match value(val, l) {
                Some(true) => {
                    satisfied = true;
                    break;
                }
                Some(false) => {}
                None => {
                    open_count += 1;
                    open = Some(l);
                }
            }
        }
        if satisfied || open_count > 1 {
            continue;
        }
        let Some(l) = open else {
            return Err(c as usize);
        };
        val[l.var().index()] = Some(!l.is_negated());
        for &d in &occ[l.var().index()] {
            if !queued[d as usize] {
                queued[d as usize] = true;
                work.push(d);
            }
        }
    }
    Ok(())
}

impl<'s> Stepper<'s> {
    pub fn new(sys: &'s System) -> Stepper<'s> {
        let n = sys.n();
        Stepper {
            sys,
            latches: sys.latch_vars(),
            u_occ: occurrences(&sys.constraints, n),
            t_occ: occurrences(&sys.trans, 2 * n),
        }
    }

    /// The system stepped.
    pub fn system(&self) -> &'s System {
        self.sys
    }

    /// The latches: the variables whose next-state copy occurs in `T`.
    pub fn latches(&self) -> &[Var] {
        &self.latches
    }

    /// The full state with the given values (latches and inputs): every other variable by
    /// propagation over `U`. Variables that no clause of `U` or `T` mentions and that are not
    /// given take `false`.
    pub fn complete(&self, given: &[(Var, bool)]) -> Result<Vec<bool>, StepError> {
        let n = self.sys.n();
        let mut val: Vec<Option<bool>> = vec![None; n];
        for &(v, b) in given {
            val[v.index()] = Some(b);
        }
        propagate(&self.sys.constraints, &self.u_occ, &mut val).map_err(StepError::Constraint)?;
        val.iter()
            .enumerate()
            .map(|(i, x)| match x {
                Some(b) => Ok(*b),
                None if self.u_occ[i].is_empty() && self.t_occ[i].is_empty() => Ok(false),
                None => Err(StepError::Undetermined(i as u32)),
            })
            .collect()
    }

    /// The values of the latches in the state after `state` (a complete state).
    pub fn next(&self, state: &[bool]) -> Result<Vec<(Var, bool)>, StepError> {
        let n = self.sys.n();
        let mut val: Vec<Option<bool>> = state.iter().map(|&b| Some(b)).collect();
        val.resize(2 * n, None);
        propagate(&self.sys.trans, &self.t_occ, &mut val).map_err(StepError::Transition)?;
        self.latches
            .iter()
            .map(|&v| {
                val[n + v.index()]
                    .map(|b| (v, b))
                    .ok_or(StepError::Undetermined(v.0))
            })
            .collect()
    }

    /// Whether `state` satisfies `I` (on the variables `I` mentions).
    pub fn is_initial(&self, state: &[bool]) -> bool {
        self.sys.init.satisfied_by(|v| state[v.index()])
    }

    /// Whether `state` is a goal (bad) state.
    pub fn is_bad(&self, state: &[bool]) -> bool {
        self.sys.bad.satisfied_by(|v| state[v.index()])
    }

    /// The values that the unit clauses of `I` give to latches: the reset values.
    pub fn reset_values(&self) -> Vec<(Var, bool)> {
        self.sys
            .init
            .iter()
            .filter_map(|c| match c {
                [l] => Some((l.var(), !l.is_negated())),
                _ => None,
            })
            .collect()
    }
}

/// How two systems correspond: pairs of variables that must have equal values, latches of
/// both and inputs of both (an input of the first is given to the second through this map).
#[derive(Clone, Debug, Default)]
pub struct Correspondence {
    pub latches: Vec<(Var, Var)>,
    pub inputs: Vec<(Var, Var)>,
}

impl Correspondence {
    /// Latches and inputs that are numbered alike in two circuits (e.g. a model and its AIGER
    /// export read back): `latches_a[j]` with `latches_b[j]`, inputs likewise; those outside
    /// either system are left out.
    pub fn by_index(
        latches_a: &[Option<Var>],
        inputs_a: &[Option<Var>],
        latches_b: &[Option<Var>],
        inputs_b: &[Option<Var>],
    ) -> Correspondence {
        let pairs = |a: &[Option<Var>], b: &[Option<Var>]| {
            a.iter()
                .zip(b)
                .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
                .collect()
        };
        Correspondence {
            latches: pairs(latches_a, latches_b),
            inputs: pairs(inputs_a, inputs_b),
        }
    }
}

/// Steps `a` and `b` side by side from initial latch values of `a` (mapped to `b`) with the
/// given input values of `a` per state (mapped to `b`), comparing the mapped latches and
/// whether the state is a goal in every state, and whether both accept the same states.
/// Returns the number of states compared, or the first difference.
pub fn compare_systems(
    a: &Stepper<'_>,
    b: &Stepper<'_>,
    map: &Correspondence,
    init: &[(Var, bool)],
    inputs: &[Vec<(Var, bool)>],
) -> Result<usize, String> {
    let latches: HashMap<Var, Var> = map.latches.iter().copied().collect();
    let input_map: HashMap<Var, Var> = map.inputs.iter().copied().collect();
    let to_b = |given: &[(Var, bool)], pairs: &HashMap<Var, Var>| -> Vec<(Var, bool)> {
        given
            .iter()
            .filter_map(|&(v, x)| pairs.get(&v).map(|&w| (w, x)))
            .collect()
    };
    let mut la: Vec<(Var, bool)> = init.to_vec();
    let mut lb: Vec<(Var, bool)> = to_b(init, &latches);
    for (i, ins) in inputs.iter().enumerate() {
        let mut ga = la.clone();
        ga.extend(ins);
        let mut gb = lb.clone();
        gb.extend(to_b(ins, &input_map));
        let (sa, sb) = match (a.complete(&ga), b.complete(&gb)) {
            (Ok(sa), Ok(sb)) => (sa, sb),
            (Err(_), Err(_)) => return Ok(i),
            (ra, rb) => {
                return Err(format!(
                    "state {i}: one system accepts the state, the other does not ({:?} / {:?})",
                    ra.err(),
                    rb.err()
                ))
            }
        };
        for &(va, vb) in &map.latches {
            if sa[va.index()] != sb[vb.index()] {
                return Err(format!(
                    "state {i}: latch {} is {} but {} is {}",
                    va.0,
                    sa[va.index()],
                    vb.0,
                    sb[vb.index()]
                ));
            }
        }
        if a.is_bad(&sa) != b.is_bad(&sb) {
            return Err(format!("state {i}: only one system is in a goal state"));
        }
        if i == 0 && a.is_initial(&sa) != b.is_initial(&sb) {
            return Err("only one system's initial clauses hold in the first state".into());
        }
        la = a.next(&sa).map_err(|e| format!("state {i}: {e}"))?;
        lb = b.next(&sb).map_err(|e| format!("state {i}: {e}"))?;
    }
    Ok(inputs.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ts::tests::counter;

    #[test]
    fn the_counter_counts_and_its_copy_agrees() {
        let sys = counter();
        let st = Stepper::new(&sys);
        assert_eq!(st.latches(), &[Var(0), Var(1)]);
        let mut latches = st.reset_values();
        let mut seen = Vec::new();
        for _ in 0..5 {
            let s = st.complete(&latches).expect("a state");
            seen.push((s[0] as u8) | (s[1] as u8) << 1);
            latches = st.next(&s).expect("a step");
        }
        assert_eq!(seen, vec![0, 1, 2, 3, 0]);
        assert!(st.is_initial(&[false, false]) && !st.is_initial(&[true, false]));
        assert!(st.is_bad(&[true, true]) && !st.is_bad(&[true, false]));
        // A copy with the bits swapped: the same when the map swaps them, not otherwise.
        let mut swapped = System {
            num_vars: 2,
            ..System::default()
        };
        let swap = |l: Lit| Lit::new(Var([1, 0, 3, 2][l.var().index()]), l.is_negated());
        for (from, to) in [
            (&sys.init, &mut swapped.init),
            (&sys.bad, &mut swapped.bad),
            (&sys.trans, &mut swapped.trans),
        ] {
            for c in from.iter() {
                to.push(&c.iter().map(|&l| swap(l)).collect::<Vec<_>>());
            }
        }
        let other = Stepper::new(&swapped);
        let init = st.reset_values();
        let inputs = vec![Vec::new(); 6];
        let map = Correspondence {
            latches: vec![(Var(0), Var(1)), (Var(1), Var(0))],
            inputs: Vec::new(),
        };
        assert_eq!(compare_systems(&st, &other, &map, &init, &inputs), Ok(6));
        let wrong = Correspondence {
            latches: vec![(Var(0), Var(0)), (Var(1), Var(1))],
            inputs: Vec::new(),
        };
        assert!(compare_systems(&st, &other, &wrong, &init, &inputs).is_err());
    }
}
