//! Conditions and the operators that evaluate an operand only on some paths: `&&`, `||` and
//! `?:`. The condition is evaluated at the current location; the other operand is lowered from
//! a fresh location: if it emits nothing it is folded into one term (`and`, `or`, `ite`),
//! otherwise it becomes control flow guarded by the condition, joining with the result in a
//! temporary, so its side effects and checks happen only on the taken branch.

use super::arith;
use super::builder::Lower;
use super::expr::plain_op;
use super::repr::{is_pointer, RVal, Val};
use super::types::CInt;
use super::types::CType;
use super::FrontendError;
use crate::bv::TermId;
use crate::cfa::Loc;
use lang_c::ast::*;
use lang_c::span::Node;

impl<'a> Lower<'a> {
    /// The value of a controlling expression, as a `bool` term.
    pub fn cond(&mut self, e: &Node<Expression>) -> Result<TermId, FrontendError> {
        match &e.node {
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if let Some(bop) = plain_op(op).filter(|o| o.is_comparison()) {
                    return self.compare(bop, b);
                }
                match op {
                    BinaryOperator::LogicalAnd => {
                        return self.logical(true, &b.node.lhs, &b.node.rhs)
                    }
                    BinaryOperator::LogicalOr => {
                        return self.logical(false, &b.node.lhs, &b.node.rhs)
                    }
                    _ => {}
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                let c = self.cond(&u.node.operand)?;
                return Ok(self.cfa.tm.not(c));
            }
            _ => {}
        }
        let v = self.truth_value(e)?;
        Ok(arith::truth(&mut self.cfa.tm, v))
    }

    /// `a && b` / `a || b` with short-circuit evaluation, as a `bool` term.
    pub fn logical(
        &mut self,
        is_and: bool,
        l: &Node<Expression>,
        r: &Node<Expression>,
    ) -> Result<TermId, FrontendError> {
        let a = self.cond(l)?;
        let start = self.cur;
        let lb = self.new_loc(if is_and {
            "&& right operand"
        } else {
            "|| right operand"
        });
        self.cur = lb;
        let b = self.cond(r)?;
        if self.cur == lb {
            self.cur = start;
            return Ok(if is_and {
                self.cfa.tm.and(a, b)
            } else {
                self.cfa.tm.or(a, b)
            });
        }
        // The right operand has effects: branch.
        let tmp = self.temp(CInt::BOOL);
        let end_b = self.cur;
        let join = self.new_loc("join");
        let na = self.cfa.tm.not(a);
        let (go_b, skip) = if is_and { (a, na) } else { (na, a) };
        self.cur = start;
        self.edge_if(go_b, lb, None);
        let short = self.new_loc("short circuit");
        self.edge_if(skip, short, None);
        self.cur = short;
        let sv = self.cfa.tm.bv_const(if is_and { 0 } else { 1 }, 1);
        self.assign(tmp, sv);
        self.goto_loc(join);
        self.cur = end_b;
        let bv = self.cfa.tm.bool_to_bv(b);
        self.assign(tmp, bv);
        self.goto_loc(join);
        let tt = self.var_term(tmp);
        Ok(self.cfa.tm.is_nonzero(tt))
    }

    /// Pointers to objects on either side of `?:`: both become general pointers (see
    /// `memory`), each converted at the end of its own branch (`x` ends at `end_x`, `y` at
    /// `end_y`, both moved on); the pointee type of the result, `None` when neither is one.
    fn pointer_operands(
        &mut self,
        c: &Node<ConditionalExpression>,
        (x, end_x): (&mut Val, &mut Loc),
        (y, end_y): (&mut Val, &mut Loc),
    ) -> Result<Option<CType>, FrontendError> {
        if !is_pointer(x) && !is_pointer(y) {
            return Ok(None);
        }
        let px = is_pointer(x).then(|| self.pointee_of(x));
        let py = is_pointer(y).then(|| self.pointee_of(y));
        let pointee = [px, py]
            .into_iter()
            .flatten()
            .find(|q| !matches!(q, CType::Void))
            .unwrap_or(CType::Void);
        let saved = self.cur;
        self.cur = *end_x;
        let a = self.general_pointer(x.clone(), c.node.then_expression.span)?;
        *end_x = self.cur;
        self.cur = *end_y;
        let b = self.general_pointer(y.clone(), c.node.else_expression.span)?;
        *end_y = self.cur;
        self.cur = saved;
        (*x, *y) = (Val::Int(a), Val::Int(b));
        Ok(Some(pointee))
    }

    /// `c ? x : y`, and GNU's `c ?: y`, whose value is `c`'s when that is not zero (`c`
    /// evaluated once).
    pub fn conditional(&mut self, c: &Node<ConditionalExpression>) -> Result<Val, FrontendError> {
        let (cond, kept) = match &c.node.then_expression.node {
            Expression::Identifier(id) if self.src.is_elvis(id.span.start) => {
                let v = self.expr(&c.node.condition)?;
                let v = self.materialize_val(v);
                let t = self.truth_of(v.clone(), c.node.condition.span)?;
                (arith::truth(&mut self.cfa.tm, t), Some(v))
            }
            _ => (self.cond(&c.node.condition)?, None),
        };
        let start = self.cur;
        let lt = self.new_loc("?: then");
        self.cur = lt;
        let mut x = match kept {
            Some(v) => v,
            None => self.expr(&c.node.then_expression)?,
        };
        let mut end_t = self.cur;
        let le = self.new_loc("?: else");
        self.cur = le;
        let mut y = self.expr(&c.node.else_expression)?;
        let mut end_e = self.cur;
        let pointee = self.pointer_operands(c, (&mut x, &mut end_t), (&mut y, &mut end_e))?;
        let func = function_operands(&mut x, &mut y);
        let ty = match (&x, &y) {
            (Val::Int(a), Val::Int(b)) => {
                Some(super::types::usual_arithmetic(a.ty, b.ty, self.dm()))
            }
            (Val::Void, Val::Void) => None,
            (Val::Void, _) | (_, Val::Void) => None,
            _ => {
                return self.unsupported(c.span, "conditional expression of pointer or array type")
            }
        };
        let wrap = |v: Val| match (v, &pointee, func) {
            (Val::Int(r), Some(q), _) => Val::Ref(r, q.clone()),
            (Val::Int(r), _, Some(f)) => Val::Func(r, f),
            (v, _, _) => v,
        };
        if end_t == lt && end_e == le {
            self.cur = start;
            return Ok(wrap(match (ty, x, y) {
                (Some(ty), Val::Int(a), Val::Int(b)) => {
                    let ta = self.convert(a, ty);
                    let tb = self.convert(b, ty);
                    Val::Int(RVal {
                        t: self.cfa.tm.ite(cond, ta, tb),
                        ty,
                    })
                }
                _ => Val::Void,
            }));
        }
        let join = self.new_loc("?: join");
        let tmp = ty.map(|t| self.temp(t));
        self.cur = start;
        self.edge_if(cond, lt, None);
        let nc = self.cfa.tm.not(cond);
        self.edge_if(nc, le, None);
        for (end, v) in [(end_t, x), (end_e, y)] {
            self.cur = end;
            if let (Some(tmp), Some(ty), Val::Int(r)) = (tmp, ty, v) {
                let t = self.convert(r, ty);
                self.assign(tmp, t);
            }
            self.goto_loc(join);
        }
        Ok(wrap(match (tmp, ty) {
            (Some(tmp), Some(ty)) => Val::Int(RVal {
                t: self.var_term(tmp),
                ty,
            }),
            _ => Val::Void,
        }))
    }
}

/// Two functions (or function pointers) of one type as operands of `?:`: their numbers
/// replace them, and the function type is returned.
fn function_operands(x: &mut Val, y: &mut Val) -> Option<CType> {
    let (Val::Func(a, fa), Val::Func(b, fb)) = (&*x, &*y) else {
        return None;
    };
    if fa != fb {
        return None;
    }
    let f = fa.clone();
    (*x, *y) = (Val::Int(*a), Val::Int(*b));
    Some(f)
}
