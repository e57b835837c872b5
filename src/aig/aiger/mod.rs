//! AIGER 1.9: the file as data ([`AigerFile`]), its reader (ASCII `aag` and binary `aig`), its
//! writer, and its conversion into an [`Aig`].
//!
//! [`AigerFile`] mirrors a file: literals are the file's (`2 * var + sign`), sections keep their
//! order, the symbol table and the comment lines are kept. [`AigerFile::check`] states the
//! well-formedness rules once (variables defined once, used literals defined and in range,
//! reset values `0`, `1` or the latch itself, acyclic AND gates, symbols in range); the reader
//! applies it and turns the failing element into the line (ASCII) or byte offset (binary) where
//! it was read. The reader never panics and bounds its memory by the file size (an `M` beyond
//! `max(8 × file size, 2^20)` is refused; every other table grows only with content read).
//!
//! The writer makes every symbol name unique across the table (see
//! [`AigerFile::unique_symbols`]): ABC, for one, refuses a file whose inputs or latches share
//! a name, and every export of bitmc (from a C program, DimSpec or AIGER) is written here.
//!
//! The binary writer renumbers when the file is not in binary order (inputs, then latches, then
//! AND gates in topological order with `lhs > rhs0 ≥ rhs1`); see [`AigerFile::renumbered`].

mod read;
mod write;

pub use read::{detect_format, parse, read_path};

use super::{Aig, AigLit};
use std::fmt;
use thiserror::Error;

/// The two encodings of AIGER.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// `aag`: every section in ASCII, any variable numbering.
    Ascii,
    /// `aig`: inputs and latch literals implicit, AND gates as delta-encoded varints.
    Binary,
}

/// A latch: current-state literal, next-state literal and reset literal (`0`, `1`, or `lit`
/// itself for an uninitialised latch).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Latch {
    pub lit: u32,
    pub next: u32,
    pub reset: u32,
}

impl Latch {
    /// The initial value, `None` when uninitialised.
    pub fn reset_value(&self) -> Option<bool> {
        match self.reset {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// An AND gate `lhs = rhs0 ∧ rhs1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AndGate {
    pub lhs: u32,
    pub rhs0: u32,
    pub rhs1: u32,
}

/// What a symbol names (the letter of a symbol-table line).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SymbolKind {
    Input,
    Latch,
    Output,
    Bad,
    Constraint,
    Justice,
    Fairness,
}

impl SymbolKind {
    /// The letter that starts a symbol-table line.
    pub fn letter(self) -> u8 {
        match self {
            SymbolKind::Input => b'i',
            SymbolKind::Latch => b'l',
            SymbolKind::Output => b'o',
            SymbolKind::Bad => b'b',
            SymbolKind::Constraint => b'c',
            SymbolKind::Justice => b'j',
            SymbolKind::Fairness => b'f',
        }
    }
    /// The kind of a symbol-table letter.
    pub fn from_letter(c: u8) -> Option<SymbolKind> {
        Some(match c {
            b'i' => SymbolKind::Input,
            b'l' => SymbolKind::Latch,
            b'o' => SymbolKind::Output,
            b'b' => SymbolKind::Bad,
            b'c' => SymbolKind::Constraint,
            b'j' => SymbolKind::Justice,
            b'f' => SymbolKind::Fairness,
            _ => return None,
        })
    }
}

/// A symbol-table entry: the name of the `index`-th element of a section.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub index: u32,
    pub name: String,
}

/// An AIGER file, as read or as to be written.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AigerFile {
    /// `M`, the maximum variable index.
    pub max_var: u32,
    pub inputs: Vec<u32>,
    pub latches: Vec<Latch>,
    pub outputs: Vec<u32>,
    pub bad: Vec<u32>,
    pub constraints: Vec<u32>,
    /// Each justice property is a set of literals.
    pub justice: Vec<Vec<u32>>,
    pub fairness: Vec<u32>,
    pub ands: Vec<AndGate>,
    /// Symbol-table entries in file order.
    pub symbols: Vec<Symbol>,
    /// The lines of the comment section (after the line `c`).
    pub comments: Vec<String>,
}

/// A position in a file: a line (1-based; ASCII files) or a byte offset (0-based; binary).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pos {
    Line(usize),
    Byte(usize),
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pos::Line(n) => write!(f, "line {n}"),
            Pos::Byte(n) => write!(f, "byte {n}"),
        }
    }
}

/// An element of an [`AigerFile`] (0-based indexes within its section).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Site {
    Input(usize),
    Latch(usize),
    Output(usize),
    Bad(usize),
    Constraint(usize),
    /// Literal `lit` of justice property `prop`.
    Justice {
        prop: usize,
        lit: usize,
    },
    Fairness(usize),
    And(usize),
    Symbol(usize),
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Input(k) => write!(f, "input {k}"),
            Site::Latch(k) => write!(f, "latch {k}"),
            Site::Output(k) => write!(f, "output {k}"),
            Site::Bad(k) => write!(f, "bad property {k}"),
            Site::Constraint(k) => write!(f, "constraint {k}"),
            Site::Justice { prop, lit } => write!(f, "literal {lit} of justice property {prop}"),
            Site::Fairness(k) => write!(f, "fairness constraint {k}"),
            Site::And(k) => write!(f, "AND gate {k}"),
            Site::Symbol(k) => write!(f, "symbol {k}"),
        }
    }
}

/// What is wrong with a file.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum ErrorKind {
    #[error("unexpected end of file in {0}")]
    Truncated(&'static str),
    #[error("end of file inside a varint")]
    EofInVarint,
    #[error("varint does not fit in 32 bits")]
    VarintOverflow,
    #[error("bad header: {0}")]
    BadHeader(String),
    #[error("M = {m} is smaller than I + L + A = {sum}")]
    MaxVarTooSmall { m: u64, sum: u64 },
    #[error("binary header needs M = I + L + A, but M = {m} and I + L + A = {sum}")]
    BinaryMaxVar { m: u64, sum: u64 },
    #[error("M = {m} is too large (at most {limit} here)")]
    MaxVarTooLarge { m: u64, limit: u64 },
    #[error("literal {lit} is out of range (maximum literal {max})")]
    OutOfRange { lit: u64, max: u64 },
    #[error("literal {0} is not a positive, uncomplemented variable")]
    NotAVariable(u32),
    #[error("variable {0} is defined twice")]
    Duplicate(u32),
    #[error("literal {0} is undefined")]
    Undefined(u32),
    #[error("AND gate {0} depends on itself (cyclic definition)")]
    Cyclic(u32),
    #[error("reset value {reset} of latch {lit} is not 0, 1 or {lit}")]
    BadReset { lit: u32, reset: u32 },
    #[error("binary AND gate {lhs}: {what}")]
    BadDelta { lhs: u32, what: &'static str },
    #[error("bad symbol: {0}")]
    BadSymbol(String),
    #[error("expected {expected}, found {found}")]
    Garbage {
        expected: &'static str,
        found: String,
    },
}

/// An error of the AIGER reader, writer or conversion.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum AigerError {
    /// The input is not a well-formed AIGER file.
    #[error("{pos}: {kind}")]
    Parse { pos: Pos, kind: ErrorKind },
    /// An [`AigerFile`] built in memory breaks a well-formedness rule.
    #[error("{site}: {kind}")]
    Invalid { site: Site, kind: ErrorKind },
    /// Reading or writing failed.
    #[error("{0}")]
    Io(String),
}

impl From<std::io::Error> for AigerError {
    fn from(e: std::io::Error) -> Self {
        AigerError::Io(e.to_string())
    }
}

/// The AIG literals of an [`AigerFile`] converted by [`AigerFile::to_aig`].
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AigerMap {
    /// The AIG literal of each file variable (uncomplemented), `None` for undefined ones.
    pub vars: Vec<Option<AigLit>>,
    /// The input node of each input.
    pub inputs: Vec<AigLit>,
    /// The input node standing for each latch's current value.
    pub latches: Vec<AigLit>,
    /// Each latch's next-state function.
    pub next: Vec<AigLit>,
    pub outputs: Vec<AigLit>,
    pub bad: Vec<AigLit>,
    pub constraints: Vec<AigLit>,
    pub justice: Vec<Vec<AigLit>>,
    pub fairness: Vec<AigLit>,
}

impl AigerMap {
    /// The AIG literal of a file literal, if its variable is defined (or constant).
    pub fn lit(&self, file_lit: u32) -> Option<AigLit> {
        let v = self.vars.get((file_lit >> 1) as usize).copied().flatten()?;
        Some(v.xor_sign(file_lit & 1 == 1))
    }
}

/// What a variable is defined as (in [`AigerFile::check`] and the conversions).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Def {
    Undefined,
    Constant,
    Input,
    Latch,
    And(u32),
}

type CheckResult<T> = Result<T, (Site, ErrorKind)>;

/// A section of literals and the site of its `k`-th element.
type Section<'a> = (&'a [u32], fn(usize) -> Site);

impl AigerFile {
    /// The header numbers `M I L O A B C J F`.
    pub fn header(&self) -> [u64; 9] {
        let n = |x: usize| x as u64;
        [
            self.max_var as u64,
            n(self.inputs.len()),
            n(self.latches.len()),
            n(self.outputs.len()),
            n(self.ands.len()),
            n(self.bad.len()),
            n(self.constraints.len()),
            n(self.justice.len()),
            n(self.fairness.len()),
        ]
    }

    /// The largest literal allowed (`2M + 1`).
    pub fn max_lit(&self) -> u64 {
        2 * self.max_var as u64 + 1
    }

    /// Check the well-formedness rules of the module documentation.
    pub fn check(&self) -> Result<(), AigerError> {
        self.checked_order()
            .map(|_| ())
            .map_err(|(site, kind)| AigerError::Invalid { site, kind })
    }

    /// Every rule including acyclicity: the variable definitions and a topological order of
    /// the AND gates.
    fn checked_order(&self) -> CheckResult<(Vec<Def>, Vec<usize>)> {
        let defs = self.check_sites()?;
        let order = self.topo_order(&defs)?;
        Ok((defs, order))
    }

    /// The definitions of all variables, checking every rule; the error names the element.
    fn check_sites(&self) -> CheckResult<Vec<Def>> {
        let defs = self.definitions()?;
        self.check_uses(&defs)?;
        self.check_symbols()?;
        Ok(defs)
    }

    /// What defines each variable (inputs, latches, AND gates), each defined at most once.
    fn definitions(&self) -> CheckResult<Vec<Def>> {
        let max_lit = self.max_lit();
        let mut defs = vec![Def::Undefined; self.max_var as usize + 1];
        defs[0] = Def::Constant;
        let mut define = |lit: u32, def: Def, site: Site| -> CheckResult<()> {
            in_range(lit, max_lit, site)?;
            if lit & 1 == 1 || lit < 2 {
                return Err((site, ErrorKind::NotAVariable(lit)));
            }
            let slot = &mut defs[(lit >> 1) as usize];
            if *slot != Def::Undefined {
                return Err((site, ErrorKind::Duplicate(lit >> 1)));
            }
            *slot = def;
            Ok(())
        };
        for (k, &i) in self.inputs.iter().enumerate() {
            define(i, Def::Input, Site::Input(k))?;
        }
        for (k, l) in self.latches.iter().enumerate() {
            define(l.lit, Def::Latch, Site::Latch(k))?;
            if l.reset > 1 && l.reset != l.lit {
                return Err((
                    Site::Latch(k),
                    ErrorKind::BadReset {
                        lit: l.lit,
                        reset: l.reset,
                    },
                ));
            }
        }
        for (k, a) in self.ands.iter().enumerate() {
            define(a.lhs, Def::And(k as u32), Site::And(k))?;
        }
        Ok(defs)
    }

    /// Every literal used (next states, outputs, properties, gate inputs) is of a defined
    /// variable.
    fn check_uses(&self, defs: &[Def]) -> CheckResult<()> {
        let max_lit = self.max_lit();
        let used = |lit: u32, site: Site| -> CheckResult<()> {
            in_range(lit, max_lit, site)?;
            if defs[(lit >> 1) as usize] == Def::Undefined {
                return Err((site, ErrorKind::Undefined(lit)));
            }
            Ok(())
        };
        for (k, l) in self.latches.iter().enumerate() {
            used(l.next, Site::Latch(k))?;
        }
        let sections: [Section; 4] = [
            (&self.outputs, Site::Output),
            (&self.bad, Site::Bad),
            (&self.constraints, Site::Constraint),
            (&self.fairness, Site::Fairness),
        ];
        for (lits, site) in sections {
            for (k, &l) in lits.iter().enumerate() {
                used(l, site(k))?;
            }
        }
        for (prop, lits) in self.justice.iter().enumerate() {
            for (lit, &l) in lits.iter().enumerate() {
                used(l, Site::Justice { prop, lit })?;
            }
        }
        for (k, a) in self.ands.iter().enumerate() {
            used(a.rhs0, Site::And(k))?;
            used(a.rhs1, Site::And(k))?;
        }
        Ok(())
    }

    /// The symbol table as it is written: in file order, every name unique across the whole
    /// table (inputs, latches, outputs and the rest share one name space, as they do for ABC).
    /// A name met before gets the first suffix `~2`, `~3`, … that makes it new.
    pub fn unique_symbols(&self) -> Vec<Symbol> {
        let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(self.symbols.len());
        for s in &self.symbols {
            let mut name = s.name.clone();
            let mut k = 2;
            while taken.contains(&name) {
                name = format!("{}~{k}", s.name);
                k += 1;
            }
            taken.insert(name.clone());
            out.push(Symbol { name, ..s.clone() });
        }
        out
    }

    fn check_symbols(&self) -> CheckResult<()> {
        let mut seen = std::collections::HashSet::new();
        for (k, s) in self.symbols.iter().enumerate() {
            let count = match s.kind {
                SymbolKind::Input => self.inputs.len(),
                SymbolKind::Latch => self.latches.len(),
                SymbolKind::Output => self.outputs.len(),
                SymbolKind::Bad => self.bad.len(),
                SymbolKind::Constraint => self.constraints.len(),
                SymbolKind::Justice => self.justice.len(),
                SymbolKind::Fairness => self.fairness.len(),
            };
            let letter = s.kind.letter() as char;
            if s.index as usize >= count {
                let msg = format!("{letter}{} names no element (only {count})", s.index);
                return Err((Site::Symbol(k), ErrorKind::BadSymbol(msg)));
            }
            if s.name.contains('\n') {
                return Err((
                    Site::Symbol(k),
                    ErrorKind::BadSymbol(format!("{letter}{} contains a newline", s.index)),
                ));
            }
            if !seen.insert((s.kind, s.index)) {
                return Err((
                    Site::Symbol(k),
                    ErrorKind::BadSymbol(format!("{letter}{} named twice", s.index)),
                ));
            }
        }
        Ok(())
    }

    /// The AND gates (indexes) in an order where every gate comes after the gates it reads;
    /// gates already in such an order keep it. Fails on a cycle, naming a gate on it.
    fn topo_order(&self, defs: &[Def]) -> CheckResult<Vec<usize>> {
        const NEW: u8 = 0;
        const ACTIVE: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; self.ands.len()];
        let mut order = Vec::with_capacity(self.ands.len());
        let mut stack: Vec<(usize, u8)> = Vec::new();
        for root in 0..self.ands.len() {
            if state[root] != NEW {
                continue;
            }
            state[root] = ACTIVE;
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (k, phase) = *top;
                if phase == 2 {
                    stack.pop();
                    state[k] = DONE;
                    order.push(k);
                    continue;
                }
                top.1 += 1;
                let g = self.ands[k];
                let child = if phase == 0 { g.rhs0 } else { g.rhs1 };
                if let Def::And(j) = defs[(child >> 1) as usize] {
                    let j = j as usize;
                    match state[j] {
                        NEW => {
                            state[j] = ACTIVE;
                            stack.push((j, 0));
                        }
                        ACTIVE => return Err((Site::And(k), ErrorKind::Cyclic(g.lhs))),
                        _ => {}
                    }
                }
            }
        }
        Ok(order)
    }

    /// Check the file, then build its circuit in `aig`: inputs and latches become
    /// [`Aig::input`] nodes (inputs first, in order), AND gates go through [`Aig::and`] (so
    /// they may fold or merge with existing nodes).
    pub fn to_aig(&self, aig: &mut Aig) -> Result<AigerMap, AigerError> {
        let (defs, order) = self
            .checked_order()
            .map_err(|(site, kind)| AigerError::Invalid { site, kind })?;
        let mut vars: Vec<Option<AigLit>> = vec![None; defs.len()];
        vars[0] = Some(AigLit::FALSE);
        let mut map = AigerMap::default();
        for &i in &self.inputs {
            let l = aig.input();
            vars[(i >> 1) as usize] = Some(l);
            map.inputs.push(l);
        }
        for l in &self.latches {
            let x = aig.input();
            vars[(l.lit >> 1) as usize] = Some(x);
            map.latches.push(x);
        }
        map.vars = vars;
        for k in order {
            let g = self.ands[k];
            // Defined and ordered by the checks above.
            let (a, b) = (map.lit(g.rhs0), map.lit(g.rhs1));
            let (Some(a), Some(b)) = (a, b) else {
                return Err(AigerError::Invalid {
                    site: Site::And(k),
                    kind: ErrorKind::Undefined(g.rhs0),
                });
            };
            map.vars[(g.lhs >> 1) as usize] = Some(aig.and(a, b));
        }
        let lits = |ls: &[u32]| {
            ls.iter()
                .map(|&l| map.lit(l).unwrap_or(AigLit::FALSE))
                .collect::<Vec<_>>()
        };
        let next: Vec<u32> = self.latches.iter().map(|l| l.next).collect();
        let (next, outputs, bad, constraints, fairness) = (
            lits(&next),
            lits(&self.outputs),
            lits(&self.bad),
            lits(&self.constraints),
            lits(&self.fairness),
        );
        let justice = self.justice.iter().map(|j| lits(j)).collect();
        Ok(AigerMap {
            next,
            outputs,
            bad,
            constraints,
            justice,
            fairness,
            ..map
        })
    }

    /// Whether the file is in binary order: `M = I + L + A`, inputs are variables `1..=I`,
    /// latches the next `L`, AND gates the rest in order, each with `lhs > rhs0 ≥ rhs1`.
    pub fn is_binary_order(&self) -> bool {
        let (i, l) = (self.inputs.len() as u64, self.latches.len() as u64);
        self.max_var as u64 == i + l + self.ands.len() as u64
            && self
                .inputs
                .iter()
                .enumerate()
                .all(|(k, &x)| x as u64 == 2 * (k as u64 + 1))
            && self
                .latches
                .iter()
                .enumerate()
                .all(|(k, x)| x.lit as u64 == 2 * (i + k as u64 + 1))
            && self.ands.iter().enumerate().all(|(k, g)| {
                g.lhs as u64 == 2 * (i + l + k as u64 + 1) && g.lhs > g.rhs0 && g.rhs0 >= g.rhs1
            })
    }

    /// The same circuit in binary order (see [`AigerFile::is_binary_order`]), and the new
    /// literal of each old variable (`None` for undefined ones). Inputs, latches and AND gates
    /// keep their relative order where the dependencies allow; symbols and comments are kept.
    pub fn renumbered(&self) -> Result<(AigerFile, Vec<Option<u32>>), AigerError> {
        let (defs, order) = self
            .checked_order()
            .map_err(|(site, kind)| AigerError::Invalid { site, kind })?;
        let mut new: Vec<Option<u32>> = vec![None; defs.len()];
        new[0] = Some(0);
        let mut next_var = 1u32;
        let mut fresh = |old: u32, new: &mut Vec<Option<u32>>| {
            new[(old >> 1) as usize] = Some(2 * next_var);
            next_var += 1;
        };
        for &i in &self.inputs {
            fresh(i, &mut new);
        }
        for l in &self.latches {
            fresh(l.lit, &mut new);
        }
        for &k in &order {
            fresh(self.ands[k].lhs, &mut new);
        }
        let m = |lit: u32| new[(lit >> 1) as usize].map_or(0, |v| v | (lit & 1));
        let ms = |ls: &[u32]| ls.iter().map(|&l| m(l)).collect::<Vec<_>>();
        let out = AigerFile {
            max_var: next_var - 1,
            inputs: ms(&self.inputs),
            latches: self
                .latches
                .iter()
                .map(|l| Latch {
                    lit: m(l.lit),
                    next: m(l.next),
                    reset: if l.reset == l.lit { m(l.lit) } else { l.reset },
                })
                .collect(),
            outputs: ms(&self.outputs),
            bad: ms(&self.bad),
            constraints: ms(&self.constraints),
            justice: self.justice.iter().map(|j| ms(j)).collect(),
            fairness: ms(&self.fairness),
            ands: order
                .iter()
                .map(|&k| {
                    let g = self.ands[k];
                    let (a, b) = (m(g.rhs0), m(g.rhs1));
                    AndGate {
                        lhs: m(g.lhs),
                        rhs0: a.max(b),
                        rhs1: a.min(b),
                    }
                })
                .collect(),
            symbols: self.symbols.clone(),
            comments: self.comments.clone(),
        };
        Ok((out, new))
    }
}

/// A literal within the header's maximum, or the error at `site`.
fn in_range(lit: u32, max_lit: u64, site: Site) -> CheckResult<()> {
    if lit as u64 > max_lit {
        return Err((
            site,
            ErrorKind::OutOfRange {
                lit: lit as u64,
                max: max_lit,
            },
        ));
    }
    Ok(())
}
