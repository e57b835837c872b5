//! What an IC3CFA run hands its caller: the invariant at the fixpoint as a circuit over the
//! system's variables (with its text in C per location), and a counterexample as a plan of
//! the system.

use super::Ic3cfa;
use crate::bv::{TermId, TermManager};
use crate::cfa::{Loc, LocKind};
use crate::engine::{CircuitInvariant, Conjunct};
use crate::ts::invariants::c_name;
use crate::ts::lockstep::ProgramLockstep;
use crate::ts::program::PcEncoding;
use crate::ts::Plan;

/// The most nodes a location's condition may have, written out as a tree, to be printed as C.
const MAX_TEXT: usize = 100_000;

impl Ic3cfa<'_> {
    /// Clauses as conjuncts in C, with the variables each reads.
    fn conjuncts(&self, clauses: &[TermId]) -> Vec<Conjunct> {
        let tm = &self.tm;
        let name = |v: crate::bv::VarId| c_name(&tm.var_info(v).name);
        clauses
            .iter()
            .map(|&c| Conjunct {
                text: crate::bv::cprint::c_expr(tm, c, &name),
                vars: tm
                    .free_vars(c)
                    .into_iter()
                    .map(|v| tm.var_info(v).name.clone())
                    .collect(),
            })
            .collect()
    }

    /// The invariant `F(level + 1)` as a circuit over the system's variables.
    pub(super) fn certificate(&mut self, level: usize) -> Result<CircuitInvariant, String> {
        self.certificate_of(level, &|_, _| true)
    }

    /// [`Ic3cfa::certificate`] with only the lemmas that `keep` keeps (for the tests that
    /// weaken an invariant and see the check reject it).
    pub(super) fn certificate_of(
        &mut self,
        level: usize,
        keep: &dyn Fn(Loc, &[TermId]) -> bool,
    ) -> Result<CircuitInvariant, String> {
        if !self.ps.keeps_pc() {
            return Err("the system leaves out part of the program counter".into());
        }
        let mut parts = Vec::new();
        let mut text = Vec::new();
        let cfa = self.cfa;
        for (l, info) in cfa.locations.iter().enumerate() {
            let (inv, clauses) = self.location_invariant(l, level, keep);
            if self.tm.is_true(inv) {
                continue;
            }
            // A condition whose C text would be too large to read (shared sub-terms written
            // out as a tree) is left out of the text; the circuit keeps it.
            let printable = crate::bv::cprint::tree_size(&self.tm, inv, MAX_TEXT) < MAX_TEXT;
            if printable && !matches!(info.kind, LocKind::Error | LocKind::Sink(_)) {
                let parts = if clauses.is_empty() {
                    vec![inv]
                } else {
                    clauses
                };
                text.push((l as u32, self.conjuncts(&parts)));
            }
            let at = self.pc_at(l);
            parts.push(self.tm.implies(at, inv));
        }
        let root = self.tm.and_all(parts);
        self.circuit(root, text)
    }

    /// The invariant `F(level + 1)` at location `l` with only the lemmas that `keep` keeps,
    /// and its clauses (false and none at a location unreachable from the initial one).
    fn location_invariant(
        &mut self,
        l: usize,
        level: usize,
        keep: &dyn Fn(Loc, &[TermId]) -> bool,
    ) -> (TermId, Vec<TermId>) {
        if self.dist[l] == usize::MAX {
            return (self.tm.fals(), Vec::new());
        }
        let cubes: Vec<&[TermId]> = self
            .lemmas
            .from(l, level + 1)
            .map(|(_, cube)| cube)
            .filter(|cube| keep(Loc(l as u32), cube))
            .collect();
        let clauses: Vec<TermId> = cubes
            .into_iter()
            .map(|cube| {
                let c = self.tm.and_all(cube.iter().copied());
                self.tm.not(c)
            })
            .collect();
        (self.tm.and_all(clauses.iter().copied()), clauses)
    }

    /// The condition that the program counter is at location `l`.
    fn pc_at(&mut self, l: usize) -> TermId {
        let ps = self.ps;
        match ps.pc {
            PcEncoding::Binary => {
                let pc = ps.pc_terms[0];
                let code = self.tm.bv_const(l as u128, self.tm.width(pc));
                self.tm.eq(pc, code)
            }
            PcEncoding::OneHot => ps.pc_terms[l],
        }
    }

    /// The invariant whose condition is `root_term` over the system's variables, as a circuit
    /// whose inputs are the system's state and program counter latches, with its `text`.
    fn circuit(
        &self,
        root_term: TermId,
        text: Vec<(u32, Vec<Conjunct>)>,
    ) -> Result<CircuitInvariant, String> {
        let ps = self.ps;
        let mut aig = crate::aig::Aig::new();
        let mut bl = crate::aig::blast::Blaster::new();
        let mut inputs = Vec::new();
        let mut bind = |var: crate::bv::VarId, latches: &[usize], tm: &TermManager| {
            let bits = bl.var_bits_or_fresh(tm, &mut aig, var);
            for (b, &j) in latches.iter().enumerate() {
                if let (Some(lit), Some(v)) = (bits.get(b), ps.latch_var[j]) {
                    inputs.push((lit.var(), v));
                }
            }
        };
        for (v, latches) in &ps.state {
            bind(v.var_id(), latches, &self.tm);
        }
        match ps.pc {
            PcEncoding::Binary => {
                let pc = self.tm.as_var(ps.pc_terms[0]).ok_or("pc is no variable")?;
                bind(pc, &ps.pc_latches, &self.tm);
            }
            PcEncoding::OneHot => {
                for (k, &t) in ps.pc_terms.iter().enumerate() {
                    let v = self.tm.as_var(t).ok_or("pc bit is no variable")?;
                    bind(v, &ps.pc_latches[k..=k], &self.tm);
                }
            }
        }
        let root = bl.blast_bool(&self.tm, &mut aig, root_term);
        Ok(CircuitInvariant {
            aig,
            root,
            inputs,
            text,
        })
    }

    /// The plan of the system that a counterexample's slots give.
    pub(super) fn plan(&self, steps: &[Vec<u128>]) -> Result<Plan, String> {
        let lock = ProgramLockstep::new(self.cfa, self.ps);
        let run = lock.run_slots(steps).map_err(|e| e.to_string())?;
        let plan = Plan { states: run.states };
        let last = plan.states.last().ok_or("an empty plan")?;
        if !lock.stepper().is_bad(last) {
            return Err(format!(
                "the counterexample of {} steps does not end in a target",
                steps.len()
            ));
        }
        Ok(plan)
    }
}
