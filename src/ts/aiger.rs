//! AIGER in and out.
//!
//! **AIGER → system.** The file becomes a [`Model`] (bad literal: the disjunction of the bad
//! properties, or of the outputs when the file has no bad section, as before AIGER 1.9), which
//! [`Model::to_system`] turns into a system. Justice and fairness properties are not checked.
//!
//! **System → AIGER.** A relational `T` becomes a circuit whose inputs `x_1..x_n` are the current
//! state, with latches `p_1..p_n` holding the previous state and a latch `f` that is 1 only in
//! the first step: the invariant constraint is `(f → I(x)) ∧ U(x) ∧ (¬f → T(p, x))` and the bad
//! property is `G(x)`. Its paths are exactly the system's paths, so verdicts agree.
//!
//! A plan found on the system is checked again by simulating the circuit itself (not its CNF),
//! and printed in the AIGER witness format.

use super::model::{Model, ModelInput, ModelLatch, ModelSystem, Original};
use super::{Plan, System};
use crate::aig::aiger::{AigerFile, AigerMap, SymbolKind};
use crate::aig::{Aig, AigLit};
use crate::cnf::Cnf;
use crate::sat::Var;

/// Why an AIGER circuit cannot be checked.
#[derive(Debug, thiserror::Error)]
pub enum AigerSystemError {
    #[error(transparent)]
    Aiger(#[from] crate::aig::aiger::AigerError),
    #[error("the circuit has no bad-state property and no output to check")]
    NoProperty,
}

/// An AIGER circuit with its system.
pub struct AigerSystem {
    pub model: Model,
    pub map: AigerMap,
    /// The properties checked (bad states, or the outputs for pre-1.9 files).
    pub props: Vec<AigLit>,
    /// Whether the properties are outputs (old-style file without `B` section).
    pub props_are_outputs: bool,
    pub sys: System,
    /// The system variable of each latch; `None` for latches outside the cone of influence of
    /// the properties and constraints (their values cannot matter).
    pub latch_var: Vec<Option<Var>>,
    /// The system variable of each input; `None` outside the cone of influence.
    pub input_var: Vec<Option<Var>>,
    /// Justice and fairness properties present in the file (not checked).
    pub ignored_liveness: usize,
}

/// A counterexample in the terms of the circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AigerTrace {
    /// Which property (index into the bad or output list) is violated at the end.
    pub prop: usize,
    /// The initial latch values.
    pub init: Vec<bool>,
    /// The input values at each step (as many as states).
    pub inputs: Vec<Vec<bool>>,
    /// The latch values at each step.
    pub latches: Vec<Vec<bool>>,
}

impl AigerTrace {
    /// The trace in the AIGER witness format (ends with the line `.`). Outputs checked as bad
    /// states (files without a bad section) are numbered as bad properties, as aigsim does.
    pub fn witness(&self) -> String {
        let bits = |v: &[bool]| {
            v.iter()
                .map(|&b| if b { '1' } else { '0' })
                .collect::<String>()
        };
        let mut s = String::from("1\n");
        s.push_str(&format!("b{}\n", self.prop));
        s.push_str(&bits(&self.init));
        s.push('\n');
        for i in &self.inputs {
            s.push_str(&bits(i));
            s.push('\n');
        }
        s.push_str(".\n");
        s
    }
}

/// Build the system of an AIGER file, reduced to the cone of influence of its properties and
/// constraints.
pub fn from_aiger(file: &AigerFile) -> Result<AigerSystem, AigerSystemError> {
    let mut aig = Aig::new();
    let map = file.to_aig(&mut aig)?;
    let (props, props_are_outputs) = if !map.bad.is_empty() {
        (map.bad.clone(), false)
    } else {
        (map.outputs.clone(), true)
    };
    if props.is_empty() {
        return Err(AigerSystemError::NoProperty);
    }
    let bad = aig.or_all(props.iter().copied());
    let name = |kind: SymbolKind, index: usize| {
        file.symbols
            .iter()
            .find(|s| s.kind == kind && s.index as usize == index)
            .map(|s| s.name.clone())
    };
    let latches = file
        .latches
        .iter()
        .enumerate()
        .map(|(j, l)| ModelLatch {
            node: map.latches[j],
            next: map.next[j],
            reset: l.reset_value(),
            name: name(SymbolKind::Latch, j),
        })
        .collect();
    let inputs = map
        .inputs
        .iter()
        .enumerate()
        .map(|(k, &node)| ModelInput {
            node,
            name: name(SymbolKind::Input, k),
        })
        .collect();
    let model = Model {
        aig,
        latches,
        inputs,
        constraints: map.constraints.clone(),
        bad,
    };
    let ModelSystem {
        sys,
        latch_var,
        input_var,
    } = model.to_system();
    let ignored_liveness = file.justice.len() + file.fairness.len();
    Ok(AigerSystem {
        model,
        map,
        props,
        props_are_outputs,
        sys,
        latch_var,
        input_var,
        ignored_liveness,
    })
}

impl AigerSystem {
    /// The system as it was built, with its model, for preprocessing.
    pub fn original(&self) -> Original<'_> {
        Original {
            model: &self.model,
            sys: &self.sys,
            latch_var: &self.latch_var,
            input_var: &self.input_var,
            words: Default::default(),
        }
    }

    /// Simulate the circuit along a plan of the system: the initial latch values and the inputs
    /// of every state come from the plan (latches and inputs outside the cone of influence take
    /// their reset value or 0). Returns the trace when every constraint holds in every state and
    /// a property is violated in the last one.
    pub fn replay(&self, plan: &Plan) -> Result<AigerTrace, String> {
        let first = plan.states.first().ok_or("empty plan")?;
        let value =
            |st: &[bool], v: Option<Var>, default: bool| v.map_or(default, |v| st[v.index()]);
        let mut latches: Vec<bool> = (0..self.map.latches.len())
            .map(|j| {
                value(
                    first,
                    self.latch_var[j],
                    self.model.latches[j].reset.unwrap_or(false),
                )
            })
            .collect();
        let mut trace = AigerTrace {
            prop: 0,
            init: latches.clone(),
            inputs: Vec::new(),
            latches: Vec::new(),
        };
        let aig = &self.model.aig;
        let mut node_inputs = vec![false; aig.num_vars() as usize];
        for (step, st) in plan.states.iter().enumerate() {
            let ins: Vec<bool> = self
                .input_var
                .iter()
                .map(|&v| value(st, v, false))
                .collect();
            for (j, x) in self.map.latches.iter().enumerate() {
                node_inputs[x.var() as usize] = latches[j];
            }
            for (k, x) in self.map.inputs.iter().enumerate() {
                node_inputs[x.var() as usize] = ins[k];
            }
            let vals = aig.eval_all(&node_inputs);
            if let Some(c) = self
                .map
                .constraints
                .iter()
                .position(|&c| !Aig::lit_value(&vals, c))
            {
                return Err(format!("constraint {c} is violated in step {step}"));
            }
            trace.inputs.push(ins);
            trace.latches.push(latches.clone());
            if step + 1 == plan.states.len() {
                return match self.props.iter().position(|&p| Aig::lit_value(&vals, p)) {
                    Some(p) => {
                        trace.prop = p;
                        Ok(trace)
                    }
                    None => Err(format!("no property is violated in the last step ({step})")),
                };
            }
            latches = self
                .map
                .next
                .iter()
                .map(|&f| Aig::lit_value(&vals, f))
                .collect();
        }
        Err("empty plan".into())
    }
}

/// The conjunction of a CNF as an AIG literal, with variable `v` read as `lits[v]`.
fn cnf_to_aig(aig: &mut Aig, cnf: &Cnf, lits: impl Fn(Var) -> AigLit) -> AigLit {
    let mut acc = AigLit::TRUE;
    for c in cnf.iter() {
        let clause = aig.or_all(c.iter().map(|&l| lits(l.var()).xor_sign(l.is_negated())));
        acc = aig.and(acc, clause);
    }
    acc
}

/// The AIGER circuit of a system (see the module documentation), with `comments`.
pub fn to_aiger(sys: &System, comments: Vec<String>) -> AigerFile {
    let n = sys.n();
    let mut aig = Aig::new();
    let x: Vec<AigLit> = (0..n).map(|_| aig.input()).collect();
    let f = aig.input();
    let p: Vec<AigLit> = (0..n).map(|_| aig.input()).collect();
    let init = cnf_to_aig(&mut aig, &sys.init, |v| x[v.index()]);
    let univ = cnf_to_aig(&mut aig, &sys.constraints, |v| x[v.index()]);
    let trans = cnf_to_aig(&mut aig, &sys.trans, |v| {
        if v.index() < n {
            p[v.index()]
        } else {
            x[v.index() - n]
        }
    });
    let bad = cnf_to_aig(&mut aig, &sys.bad, |v| x[v.index()]);
    let first = aig.ite(f, init, trans);
    let constraint = aig.and(first, univ);
    let inputs = x
        .iter()
        .enumerate()
        .map(|(k, &node)| ModelInput {
            node,
            name: sys.names.get(k).cloned().flatten(),
        })
        .collect();
    let mut latches = vec![ModelLatch {
        node: f,
        next: AigLit::FALSE,
        reset: Some(true),
        name: Some("first".into()),
    }];
    latches.extend(p.iter().zip(&x).map(|(&node, &next)| ModelLatch {
        node,
        next,
        reset: Some(false),
        name: None,
    }));
    let model = Model {
        aig,
        latches,
        inputs,
        constraints: vec![constraint],
        bad,
    };
    model.to_aiger(comments)
}
