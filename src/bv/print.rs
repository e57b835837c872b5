//! Printing terms in SMT-LIB syntax (for debugging output and `bitmc cfa`).

use super::{Node, Op, Sort, TermId, TermManager};
use std::fmt;

/// A term with its manager, printable with `{}`.
pub struct Display<'a> {
    tm: &'a TermManager,
    t: TermId,
}

impl TermManager {
    /// A printable view of `t` in SMT-LIB syntax. Shared sub-terms are printed in full each
    /// time, so this is meant for small terms.
    pub fn display(&self, t: TermId) -> Display<'_> {
        Display { tm: self, t }
    }
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_term(self.tm, self.t, f)
    }
}

fn write_term(tm: &TermManager, t: TermId, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    // Explicit stack of pending output pieces so that deep terms do not overflow the stack.
    enum Piece {
        Term(TermId),
        Text(&'static str),
    }
    let mut stack = vec![Piece::Term(t)];
    while let Some(p) = stack.pop() {
        let u = match p {
            Piece::Text(s) => {
                f.write_str(s)?;
                continue;
            }
            Piece::Term(u) => u,
        };
        match tm.node(u) {
            Node::Const(v) => match tm.sort(u) {
                Sort::Bool => write!(f, "{}", if v != 0 { "true" } else { "false" })?,
                Sort::Bv(w) => write!(f, "(_ bv{v} {w})")?,
            },
            Node::Var(v) => write!(f, "{}", tm.var_info(v).name)?,
            Node::App(op, _) => {
                let bool_op = tm.sort(tm.args(u)[0]) == Sort::Bool;
                let name = match op {
                    Op::Not if bool_op => "not",
                    Op::And if bool_op => "and",
                    Op::Or if bool_op => "or",
                    Op::Xor if bool_op => "xor",
                    _ => op.smt_name(),
                };
                match op {
                    Op::Extract { hi, lo } => write!(f, "((_ extract {hi} {lo}) ")?,
                    Op::Zext(to) | Op::Sext(to) => {
                        write!(f, "((_ {name} {}) ", to - tm.width(tm.args(u)[0]))?
                    }
                    _ => write!(f, "({name} ")?,
                }
                stack.push(Piece::Text(")"));
                let args = tm.args(u);
                for (i, &a) in args.iter().enumerate().rev() {
                    stack.push(Piece::Term(a));
                    if i > 0 {
                        stack.push(Piece::Text(" "));
                    }
                }
            }
        }
    }
    Ok(())
}
