//! A BTOR2 reader and simulator written for the tests only (it shares no code with bitmc's
//! `bv` or `ts::btor2` modules): bit-vectors of at most 128 bits as `u128`, the operators those
//! of the tests' `word_ops` (SMT-LIB's semantics, as the BTOR2 paper defines them).

#![allow(dead_code)]

use super::word_ops::{apply, mask};
use std::collections::HashMap;

/// One line of a BTOR2 file.
#[derive(Clone, Debug)]
pub enum Line {
    Sort(u32),
    State {
        sort: u32,
        name: String,
    },
    Input {
        sort: u32,
        name: String,
    },
    Const(u128),
    Init {
        state: u64,
        value: i64,
    },
    Next {
        state: u64,
        value: i64,
    },
    Constraint(i64),
    Bad(i64),
    Op {
        op: String,
        args: Vec<i64>,
        params: Vec<u32>,
    },
}

/// A BTOR2 model: its lines by id and each node's width.
pub struct Model {
    pub lines: Vec<(u64, Line)>,
    width: HashMap<u64, u32>,
}

/// The arity and number of parameters of an operator.
fn shape(op: &str) -> Option<(usize, usize)> {
    Some(match op {
        "not" | "neg" => (1, 0),
        "slice" => (1, 2),
        "uext" | "sext" => (1, 1),
        "and" | "or" | "xor" | "add" | "sub" | "mul" | "udiv" | "urem" | "sdiv" | "srem"
        | "sll" | "srl" | "sra" | "concat" | "eq" | "neq" | "ult" | "ulte" | "slt" | "slte"
        | "ugt" | "ugte" | "sgt" | "sgte" => (2, 0),
        "ite" => (3, 0),
        _ => return None,
    })
}

/// Reads a BTOR2 text.
pub fn read(text: &str) -> Result<Model, String> {
    let mut lines = Vec::new();
    let mut width = HashMap::new();
    let mut sorts: HashMap<u64, u32> = HashMap::new();
    for (n, raw) in text.lines().enumerate() {
        let l = raw.split(';').next().unwrap_or("").trim();
        if l.is_empty() {
            continue;
        }
        let err = |m: &str| format!("line {}: {m}: `{raw}`", n + 1);
        let f: Vec<&str> = l.split_whitespace().collect();
        let id: u64 = f[0].parse().map_err(|_| err("id"))?;
        let num = |i: usize| -> Result<i64, String> {
            f.get(i)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| err("operand"))
        };
        let sort_of = |i: usize| -> Result<u32, String> {
            let s = num(i)? as u64;
            sorts.get(&s).copied().ok_or_else(|| err("unknown sort"))
        };
        let op = *f.get(1).ok_or_else(|| err("no operator"))?;
        let line = match op {
            "sort" => {
                if f.get(2) != Some(&"bitvec") {
                    return Err(err("only bit-vector sorts"));
                }
                let w = num(3)? as u32;
                sorts.insert(id, w);
                Line::Sort(w)
            }
            "state" | "input" => {
                let w = sort_of(2)?;
                width.insert(id, w);
                let name = f.get(3).unwrap_or(&"").to_string();
                if op == "state" {
                    Line::State { sort: w, name }
                } else {
                    Line::Input { sort: w, name }
                }
            }
            "const" => {
                let w = sort_of(2)?;
                let bits = f.get(3).ok_or_else(|| err("no bits"))?;
                if bits.len() != w as usize {
                    return Err(err("constant of another width than its sort"));
                }
                width.insert(id, w);
                Line::Const(u128::from_str_radix(bits, 2).map_err(|_| err("bits"))?)
            }
            "zero" | "one" | "ones" => {
                let w = sort_of(2)?;
                width.insert(id, w);
                Line::Const(match op {
                    "zero" => 0,
                    "one" => 1,
                    _ => mask(w),
                })
            }
            "init" | "next" => {
                let state = num(3)? as u64;
                let value = num(4)?;
                // btor2tools' parser wants an initial value defined before its state.
                if op == "init" && value.unsigned_abs() >= state {
                    return Err(err("an init's value defined after its state"));
                }
                if op == "init" {
                    Line::Init { state, value }
                } else {
                    Line::Next { state, value }
                }
            }
            "constraint" => Line::Constraint(num(2)?),
            "bad" => Line::Bad(num(2)?),
            _ => {
                let (arity, nparams) = shape(op).ok_or_else(|| err("unknown operator"))?;
                let w = sort_of(2)?;
                width.insert(id, w);
                let args: Vec<i64> = (0..arity).map(|i| num(3 + i)).collect::<Result<_, _>>()?;
                let params: Vec<u32> = (0..nparams)
                    .map(|i| num(3 + arity + i).map(|v| v as u32))
                    .collect::<Result<_, _>>()?;
                Line::Op {
                    op: op.to_string(),
                    args,
                    params,
                }
            }
        };
        lines.push((id, line));
    }
    Ok(Model { lines, width })
}

impl Model {
    /// The width of node `id`.
    pub fn width(&self, id: u64) -> u32 {
        self.width[&id]
    }

    /// The value of every node in one step, given the states' and inputs' values (missing
    /// ones read 0); ids refer only to earlier lines.
    pub fn eval(&self, given: &HashMap<u64, u128>) -> HashMap<u64, u128> {
        let mut val: HashMap<u64, u128> = HashMap::new();
        let get = |val: &HashMap<u64, u128>, w: &HashMap<u64, u32>, a: i64| -> u128 {
            let id = a.unsigned_abs();
            let v = val.get(&id).copied().unwrap_or(0);
            if a < 0 {
                !v & mask(w[&id])
            } else {
                v
            }
        };
        for (id, line) in &self.lines {
            let v = match line {
                Line::State { .. } | Line::Input { .. } => given.get(id).copied().unwrap_or(0),
                Line::Const(c) => *c,
                Line::Op { op, args, params } => {
                    let a: Vec<u128> = args.iter().map(|&x| get(&val, &self.width, x)).collect();
                    let aw: Vec<u32> = args.iter().map(|x| self.width[&x.unsigned_abs()]).collect();
                    apply(op, &a, &aw, params, self.width[id])
                }
                _ => continue,
            };
            val.insert(*id, v & mask(self.width[id]));
        }
        val
    }

    /// The value of a (possibly negated) reference in `val`.
    pub fn value(&self, val: &HashMap<u64, u128>, a: i64) -> u128 {
        let id = a.unsigned_abs();
        let v = val.get(&id).copied().unwrap_or(0);
        if a < 0 {
            !v & mask(self.width[&id])
        } else {
            v
        }
    }
}
