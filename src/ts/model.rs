//! Circuit models: an AIG with latches (reset values, next-state functions), inputs, invariant
//! constraints and one bad-state literal — what an AIGER file describes and what a C program
//! is bit-blasted into. One conversion turns a model into the bit-level [`System`] the engines
//! use, and one into an AIGER file.
//!
//! **Model → system.** The latches and inputs in the cone of influence of the bad literal and
//! the constraints become the first variables (latches, then inputs), and the circuit is
//! encoded on top (multi-input ANDs and multiplexers as one gate each, [`compact`]): every gate
//! definition goes into `U` (definitions hold in every state and restrict nothing, since gates
//! are functions of latches and inputs), each constraint is a
//! unit of `U`, `T` says `x'_j ↔ next_j(x)` for each latch, `I` fixes the latches with a reset
//! value, and `G` is the unit of the bad literal. This matches AIGER 1.9's semantics:
//! constraints hold in every state up to and including the bad one.

use super::{Lifting, System};
use crate::aig::aiger::{AigerFile, AndGate, Latch, Symbol, SymbolKind};
use crate::aig::{Aig, AigLit, AigNode};
use crate::cnf::{compact, Cnf, Tseitin};
use crate::sat::{Lit, Var};
use std::collections::HashMap;

/// A latch of a model.
#[derive(Clone, Debug)]
pub struct ModelLatch {
    /// The input node of the AIG that stands for the latch's current value.
    pub node: AigLit,
    pub next: AigLit,
    /// The initial value (`None`: uninitialised).
    pub reset: Option<bool>,
    pub name: Option<String>,
}

/// A primary input of a model.
#[derive(Clone, Debug)]
pub struct ModelInput {
    /// The input node of the AIG.
    pub node: AigLit,
    pub name: Option<String>,
}

/// A sequential circuit with one safety property.
#[derive(Clone, Debug)]
pub struct Model {
    pub aig: Aig,
    pub latches: Vec<ModelLatch>,
    pub inputs: Vec<ModelInput>,
    /// Invariant constraints (hold in every state of a path).
    pub constraints: Vec<AigLit>,
    pub bad: AigLit,
}

/// The system of a model, with the variable of each latch and input (`None` outside the cone
/// of influence: their values cannot matter).
pub struct ModelSystem {
    pub sys: System,
    pub latch_var: Vec<Option<Var>>,
    pub input_var: Vec<Option<Var>>,
}

/// How the latches and inputs of a model form words.
#[derive(Clone, Debug, Default)]
pub struct Words {
    /// Groups of latch indices forming one word each (latches in no group are single bits).
    pub latches: Vec<Vec<usize>>,
    /// Groups of input indices forming one word each (inputs in no group are single bits).
    pub inputs: Vec<Vec<usize>>,
}

/// A circuit system as it was built: its model, the system variable of each latch and input
/// of the model, and how latches and inputs form words (for simulation). What preprocessing
/// (`engine::preprocess`) starts from and carries verdicts back to.
pub struct Original<'a> {
    pub model: &'a Model,
    pub sys: &'a System,
    pub latch_var: &'a [Option<Var>],
    pub input_var: &'a [Option<Var>],
    pub words: Words,
}

impl Model {
    /// The latches and inputs in the cone of influence of the bad literal and the constraints,
    /// following latches through their next-state functions.
    fn cone_of_influence(&self) -> (Vec<bool>, Vec<bool>) {
        let latch_of: HashMap<u32, usize> = self
            .latches
            .iter()
            .enumerate()
            .map(|(j, l)| (l.node.var(), j))
            .collect();
        let input_of: HashMap<u32, usize> = self
            .inputs
            .iter()
            .enumerate()
            .map(|(k, i)| (i.node.var(), k))
            .collect();
        let mut in_latch = vec![false; self.latches.len()];
        let mut in_input = vec![false; self.inputs.len()];
        let mut pending: Vec<AigLit> = self.constraints.clone();
        pending.push(self.bad);
        while !pending.is_empty() {
            let cone = self.aig.cone(&pending);
            pending.clear();
            for v in cone {
                if let Some(&j) = latch_of.get(&v) {
                    if !in_latch[j] {
                        in_latch[j] = true;
                        pending.push(self.latches[j].next);
                    }
                } else if let Some(&k) = input_of.get(&v) {
                    in_input[k] = true;
                }
            }
        }
        (in_latch, in_input)
    }

    /// The bit-level system of the model (see the module documentation).
    pub fn to_system(&self) -> ModelSystem {
        let (in_latch, in_input) = self.cone_of_influence();
        let mut defs = Cnf::new();
        let mut ts = Tseitin::new();
        let mut latch_var = vec![None; self.latches.len()];
        let mut input_var = vec![None; self.inputs.len()];
        let mut n = 0u32;
        for (j, l) in self.latches.iter().enumerate() {
            if in_latch[j] {
                ts.bind(l.node.var(), Var(n).pos());
                latch_var[j] = Some(Var(n));
                n += 1;
            }
        }
        for (k, i) in self.inputs.iter().enumerate() {
            if in_input[k] {
                ts.bind(i.node.var(), Var(n).pos());
                input_var[k] = Some(Var(n));
                n += 1;
            }
        }
        defs.reserve_vars(n);
        let mut roots: Vec<AigLit> = (self.latches.iter().enumerate())
            .filter(|&(j, _)| latch_var[j].is_some())
            .map(|(_, l)| l.next)
            .collect();
        let num_next = roots.len();
        roots.extend_from_slice(&self.constraints);
        roots.push(self.bad);
        let lits = compact::encode_cones(&self.aig, &mut ts, &mut defs, &roots);
        let next: Vec<(Var, Lit)> = (latch_var.iter().flatten().copied())
            .zip(lits[..num_next].iter().copied())
            .collect();
        let constraints: Vec<Lit> = lits[num_next..lits.len() - 1].to_vec();
        let bad = lits[lits.len() - 1];
        let n = defs.num_vars();
        let mut sys = System {
            num_vars: n,
            names: vec![None; n as usize],
            ..System::default()
        };
        sys.constraints = defs;
        for &c in &constraints {
            sys.constraints.push(&[c]);
        }
        sys.bad.reserve_vars(n);
        sys.bad.push(&[bad]);
        sys.init.reserve_vars(n);
        for (j, l) in self.latches.iter().enumerate() {
            if let (Some(r), Some(x)) = (l.reset, latch_var[j]) {
                sys.init.push(&[Lit::new(x, !r)]);
            }
        }
        sys.trans.reserve_vars(2 * n);
        for &(v, f) in &next {
            let x1 = Var(n + v.0).pos();
            sys.trans.push(&[!x1, f]);
            sys.trans.push(&[x1, !f]);
        }
        for (j, l) in self.latches.iter().enumerate() {
            if let (Some(v), Some(name)) = (latch_var[j], &l.name) {
                sys.names[v.index()] = Some(name.clone());
            }
        }
        for (k, i) in self.inputs.iter().enumerate() {
            if let (Some(v), Some(name)) = (input_var[k], &i.name) {
                sys.names[v.index()] = Some(name.clone());
            }
        }
        sys.u_total = constraints.is_empty();
        sys.lifting = Some(Lifting {
            inputs: input_var.iter().flatten().copied().collect(),
            constraints,
        });
        ModelSystem {
            sys,
            latch_var,
            input_var,
        }
    }

    /// The model as an AIGER file (inputs, then latches, then gates in topological order), with
    /// the names as symbols and `comments` in the comment section.
    pub fn to_aiger(&self, comments: Vec<String>) -> AigerFile {
        let mut file_var: HashMap<u32, u32> = HashMap::new();
        file_var.insert(0, 0);
        let mut next_var = 1;
        for node in self
            .inputs
            .iter()
            .map(|i| i.node)
            .chain(self.latches.iter().map(|l| l.node))
        {
            file_var.insert(node.var(), next_var);
            next_var += 1;
        }
        let mapped = |fv: &HashMap<u32, u32>, l: AigLit| {
            2 * fv.get(&l.var()).copied().unwrap_or(0) + l.is_negated() as u32
        };
        let mut ands = Vec::new();
        let mut roots: Vec<AigLit> = self.latches.iter().map(|l| l.next).collect();
        roots.extend(self.constraints.iter().copied());
        roots.push(self.bad);
        for v in self.aig.cone(&roots) {
            if file_var.contains_key(&v) {
                continue;
            }
            if let AigNode::And(a, b) = self.aig.node(v) {
                let (fa, fb) = (mapped(&file_var, a), mapped(&file_var, b));
                file_var.insert(v, next_var);
                ands.push(AndGate {
                    lhs: 2 * next_var,
                    rhs0: fa.max(fb),
                    rhs1: fa.min(fb),
                });
                next_var += 1;
            }
        }
        let latches = self
            .latches
            .iter()
            .map(|l| {
                let lit = mapped(&file_var, l.node);
                let reset = match l.reset {
                    Some(b) => b as u32,
                    None => lit,
                };
                Latch {
                    lit,
                    next: mapped(&file_var, l.next),
                    reset,
                }
            })
            .collect();
        AigerFile {
            max_var: next_var - 1,
            inputs: self
                .inputs
                .iter()
                .map(|i| mapped(&file_var, i.node))
                .collect(),
            latches,
            outputs: Vec::new(),
            bad: vec![mapped(&file_var, self.bad)],
            constraints: self
                .constraints
                .iter()
                .map(|&c| mapped(&file_var, c))
                .collect(),
            justice: Vec::new(),
            fairness: Vec::new(),
            ands,
            symbols: self.symbols(),
            comments,
        }
    }

    /// The AIGER symbols of the named inputs and latches.
    fn symbols(&self) -> Vec<Symbol> {
        let mut symbols = Vec::new();
        for (k, i) in self.inputs.iter().enumerate() {
            if let Some(name) = &i.name {
                symbols.push(Symbol {
                    kind: SymbolKind::Input,
                    index: k as u32,
                    name: name.clone(),
                });
            }
        }
        for (j, l) in self.latches.iter().enumerate() {
            if let Some(name) = &l.name {
                symbols.push(Symbol {
                    kind: SymbolKind::Latch,
                    index: j as u32,
                    name: name.clone(),
                });
            }
        }
        symbols
    }
}
