//! AIGER in and out.
//!
//! **AIGER → system.** The latches and inputs in the cone of influence of the properties and
//! constraints become the first variables (latches, then inputs), and the circuit is
//! Tseitin-encoded on top: every gate definition goes into `U` (definitions hold in every state
//! and constrain nothing, since gates are functions of latches and inputs), each invariant
//! constraint is a unit of `U`, `T` says `x'_j ↔ next_j(x)` for each latch, `I` fixes the
//! latches with reset 0 or 1, and `G` is the disjunction of the bad properties (of the outputs
//! when the file has no bad section, as before AIGER 1.9). Justice and fairness properties are
//! not checked.
//!
//! **System → AIGER.** A relational `T` becomes a circuit whose inputs `x_1..x_n` are the current
//! state, with latches `p_1..p_n` holding the previous state and a latch `f` that is 1 only in
//! the first step: the invariant constraint is `(f → I(x)) ∧ U(x) ∧ (¬f → T(p, x))` and the bad
//! property is `G(x)`. Its paths are exactly the system's paths, so verdicts agree.
//!
//! A plan found on the system is checked again by simulating the circuit itself (not its CNF),
//! and printed in the AIGER witness format.

use super::{Plan, System};
use crate::aig::aiger::{AigerFile, AigerMap, AndGate, Latch, Symbol, SymbolKind};
use crate::aig::{Aig, AigLit, AigNode};
use crate::cnf::{Cnf, Tseitin};
use crate::sat::{Lit, Var};
use std::collections::HashMap;

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
    pub aig: Aig,
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
    /// The initial value of each latch (`None`: uninitialised).
    pub reset: Vec<Option<bool>>,
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
    /// The trace in the AIGER witness format (ends with the line `.`).
    pub fn witness(&self, props_are_outputs: bool) -> String {
        let bits = |v: &[bool]| {
            v.iter()
                .map(|&b| if b { '1' } else { '0' })
                .collect::<String>()
        };
        let mut s = String::from("1\n");
        s.push_str(&format!(
            "{}{}\n",
            if props_are_outputs { 'o' } else { 'b' },
            self.prop
        ));
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

/// The latches and inputs (as AIG input variables) in the cone of influence of `roots`,
/// following latches through their next-state functions.
fn cone_of_influence(aig: &Aig, map: &AigerMap, roots: &[AigLit]) -> (Vec<bool>, Vec<bool>) {
    let latch_of: std::collections::HashMap<u32, usize> =
        map.latches.iter().enumerate().map(|(j, x)| (x.var(), j)).collect();
    let input_of: std::collections::HashMap<u32, usize> =
        map.inputs.iter().enumerate().map(|(k, x)| (x.var(), k)).collect();
    let mut in_latch = vec![false; map.latches.len()];
    let mut in_input = vec![false; map.inputs.len()];
    let mut pending: Vec<AigLit> = roots.to_vec();
    while !pending.is_empty() {
        let cone = aig.cone(&pending);
        pending.clear();
        for v in cone {
            if let Some(&j) = latch_of.get(&v) {
                if !in_latch[j] {
                    in_latch[j] = true;
                    pending.push(map.next[j]);
                }
            } else if let Some(&k) = input_of.get(&v) {
                in_input[k] = true;
            }
        }
    }
    (in_latch, in_input)
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
    let any_bad = aig.or_all(props.iter().copied());
    let mut roots = map.constraints.clone();
    roots.push(any_bad);
    let (in_latch, in_input) = cone_of_influence(&aig, &map, &roots);
    let mut defs = Cnf::new();
    let mut ts = Tseitin::new();
    let mut latch_var = vec![None; map.latches.len()];
    let mut input_var = vec![None; map.inputs.len()];
    let mut n = 0u32;
    for (j, x) in map.latches.iter().enumerate() {
        if in_latch[j] {
            ts.bind(x.var(), Var(n).pos());
            latch_var[j] = Some(Var(n));
            n += 1;
        }
    }
    for (k, x) in map.inputs.iter().enumerate() {
        if in_input[k] {
            ts.bind(x.var(), Var(n).pos());
            input_var[k] = Some(Var(n));
            n += 1;
        }
    }
    defs.reserve_vars(n);
    let mut next = Vec::new();
    for (j, &f) in map.next.iter().enumerate() {
        if let Some(v) = latch_var[j] {
            next.push((v, ts.encode(&aig, &mut defs, f)));
        }
    }
    let constraints: Vec<Lit> = map.constraints.iter().map(|&c| ts.encode(&aig, &mut defs, c)).collect();
    let bad = ts.encode(&aig, &mut defs, any_bad);
    let n = defs.num_vars();
    let mut sys = System { num_vars: n, names: vec![None; n as usize], ..System::default() };
    sys.constraints = defs;
    for &c in &constraints {
        sys.constraints.push(&[c]);
    }
    sys.bad.reserve_vars(n);
    sys.bad.push(&[bad]);
    sys.init.reserve_vars(n);
    let reset: Vec<Option<bool>> = file.latches.iter().map(|l| l.reset_value()).collect();
    for (j, r) in reset.iter().enumerate() {
        if let (Some(v), Some(x)) = (r, latch_var[j]) {
            sys.init.push(&[Lit::new(x, !v)]);
        }
    }
    sys.trans.reserve_vars(2 * n);
    for &(v, f) in &next {
        let x1 = Var(n + v.0).pos();
        sys.trans.push(&[!x1, f]);
        sys.trans.push(&[x1, !f]);
    }
    for s in &file.symbols {
        let var = match s.kind {
            SymbolKind::Latch => latch_var.get(s.index as usize).copied().flatten(),
            SymbolKind::Input => input_var.get(s.index as usize).copied().flatten(),
            _ => None,
        };
        if let Some(v) = var {
            sys.names[v.index()] = Some(s.name.clone());
        }
    }
    sys.u_total = constraints.is_empty();
    sys.lift_inputs = if constraints.is_empty() { Some(input_var.iter().flatten().copied().collect()) } else { None };
    let ignored_liveness = file.justice.len() + file.fairness.len();
    Ok(AigerSystem { aig, map, props, props_are_outputs, sys, latch_var, input_var, reset, ignored_liveness })
}

impl AigerSystem {
    /// Simulate the circuit along a plan of the system: the initial latch values and the inputs
    /// of every state come from the plan (latches and inputs outside the cone of influence take
    /// their reset value or 0). Returns the trace when every constraint holds in every state and
    /// a property is violated in the last one.
    pub fn replay(&self, plan: &Plan) -> Result<AigerTrace, String> {
        let first = plan.states.first().ok_or("empty plan")?;
        let value = |st: &[bool], v: Option<Var>, default: bool| v.map_or(default, |v| st[v.index()]);
        let mut latches: Vec<bool> = (0..self.map.latches.len())
            .map(|j| value(first, self.latch_var[j], self.reset[j].unwrap_or(false)))
            .collect();
        let mut trace = AigerTrace { prop: 0, init: latches.clone(), inputs: Vec::new(), latches: Vec::new() };
        let mut node_inputs = vec![false; self.aig.num_vars() as usize];
        for (step, st) in plan.states.iter().enumerate() {
            let ins: Vec<bool> = self.input_var.iter().map(|&v| value(st, v, false)).collect();
            for (j, x) in self.map.latches.iter().enumerate() {
                node_inputs[x.var() as usize] = latches[j];
            }
            for (k, x) in self.map.inputs.iter().enumerate() {
                node_inputs[x.var() as usize] = ins[k];
            }
            let vals = self.aig.eval_all(&node_inputs);
            if let Some(c) = self.map.constraints.iter().position(|&c| !Aig::lit_value(&vals, c)) {
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
            latches = self.map.next.iter().map(|&f| Aig::lit_value(&vals, f)).collect();
        }
        Err("empty plan".into())
    }
}

/// Builds an [`AigerFile`] from an [`Aig`]: given inputs and latches (as input nodes of the
/// graph), it numbers them and the AND gates in their cones in binary order.
struct FileBuilder<'a> {
    aig: &'a Aig,
    file_var: HashMap<u32, u32>,
    ands: Vec<AndGate>,
    next_var: u32,
}

impl<'a> FileBuilder<'a> {
    fn new(aig: &'a Aig, inputs: &[AigLit], latches: &[AigLit]) -> FileBuilder<'a> {
        let mut file_var = HashMap::new();
        file_var.insert(0, 0);
        let mut next_var = 1;
        for x in inputs.iter().chain(latches) {
            file_var.insert(x.var(), next_var);
            next_var += 1;
        }
        FileBuilder {
            aig,
            file_var,
            ands: Vec::new(),
            next_var,
        }
    }

    /// The file literal of an AIG literal, adding the gates of its cone.
    fn lit(&mut self, l: AigLit) -> u32 {
        for v in self.aig.cone(&[l]) {
            if self.file_var.contains_key(&v) {
                continue;
            }
            if let AigNode::And(a, b) = self.aig.node(v) {
                let (fa, fb) = (self.mapped(a), self.mapped(b));
                let lhs = 2 * self.next_var;
                self.file_var.insert(v, self.next_var);
                self.next_var += 1;
                self.ands.push(AndGate {
                    lhs,
                    rhs0: fa.max(fb),
                    rhs1: fa.min(fb),
                });
            }
        }
        self.mapped(l)
    }

    fn mapped(&self, l: AigLit) -> u32 {
        2 * self.file_var.get(&l.var()).copied().unwrap_or(0) + l.is_negated() as u32
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
    let mut latches_nodes = vec![f];
    latches_nodes.extend(p.iter().copied());
    let mut b = FileBuilder::new(&aig, &x, &latches_nodes);
    let constraint = b.lit(constraint);
    let bad = b.lit(bad);
    let mut latches = vec![Latch {
        lit: b.mapped(f),
        next: 0,
        reset: 1,
    }];
    for (k, pk) in p.iter().enumerate() {
        let next = b.mapped(x[k]);
        latches.push(Latch {
            lit: b.mapped(*pk),
            next,
            reset: 0,
        });
    }
    let mut symbols = Vec::new();
    for (k, name) in sys.names.iter().enumerate() {
        if let Some(name) = name {
            symbols.push(Symbol {
                kind: SymbolKind::Input,
                index: k as u32,
                name: name.clone(),
            });
        }
    }
    symbols.push(Symbol {
        kind: SymbolKind::Latch,
        index: 0,
        name: "first".into(),
    });
    AigerFile {
        max_var: b.next_var - 1,
        inputs: x.iter().map(|&l| b.mapped(l)).collect(),
        latches,
        outputs: Vec::new(),
        bad: vec![bad],
        constraints: vec![constraint],
        justice: Vec::new(),
        fairness: Vec::new(),
        ands: b.ands,
        symbols,
        comments,
    }
}
