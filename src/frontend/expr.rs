//! Expressions: values, lvalues, conditions, assignments and side effects.
//!
//! An expression is lowered at the current location into a term over the variables' current
//! values; its side effects (assignments, `++`/`--`, inlined calls, checks) are emitted as
//! edges. Operands are evaluated left to right; when a later operand has side effects, the
//! value of an earlier one is first saved in a temporary. `&&`, `||` and `?:` evaluate their
//! second (third) operand only on the taken branch: if that operand emits nothing it is folded
//! into one term (`and`, `or`, `ite`), otherwise the branches become control flow that joins
//! with the result in a temporary.

use super::arith::{self, BinOp};
use super::array::{ArrayObj, ArrayView};
use super::builder::{Binding, Lower, RVal};
use super::types::{size_t, CInt, CType, IntKind};
use super::FrontendError;
use crate::bv::TermId;
use crate::cfa::{PVar, Property};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::rc::Rc;

/// A place that can be read and written.
#[derive(Clone, Debug)]
pub enum Lval {
    Var(PVar, CInt),
    /// An element of an array at a flat offset (a 64-bit term, checked to be in bounds).
    Elem {
        arr: Rc<ArrayObj>,
        flat: TermId,
    },
}

impl Lval {
    /// The type of the place.
    pub fn ty(&self) -> CInt {
        match self {
            Lval::Var(_, t) => *t,
            Lval::Elem { arr, .. } => arr.elem,
        }
    }
}

/// The value of an expression.
#[derive(Clone, Debug)]
pub enum Val {
    Int(RVal),
    /// An array (or the pointer an array decays to).
    Array(ArrayView),
    /// A pointer to one object (`&x`).
    Ptr(Lval),
    Void,
}

/// Whether evaluating `e` may write a variable (assignments, `++`/`--`, calls, statement
/// expressions).
pub fn has_side_effects(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::SizeOfTy(_)
        | Expression::SizeOfVal(_)
        | Expression::AlignOf(_)
        | Expression::OffsetOf(_) => false,
        Expression::Call(_) | Expression::Statement(_) | Expression::CompoundLiteral(_) => true,
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement
                    | UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
            ) || has_side_effects(&u.node.operand.node)
        }
        Expression::Cast(c) => has_side_effects(&c.node.expression.node),
        Expression::BinaryOperator(b) => {
            binary_assign_op(&b.node.operator.node).is_some()
                || b.node.operator.node == BinaryOperator::Assign
                || has_side_effects(&b.node.lhs.node)
                || has_side_effects(&b.node.rhs.node)
        }
        Expression::Conditional(c) => {
            has_side_effects(&c.node.condition.node)
                || has_side_effects(&c.node.then_expression.node)
                || has_side_effects(&c.node.else_expression.node)
        }
        Expression::Comma(v) => v.iter().any(|e| has_side_effects(&e.node)),
        Expression::Member(m) => has_side_effects(&m.node.expression.node),
        Expression::GenericSelection(_) | Expression::VaArg(_) => true,
    }
}

/// The arithmetic operator of a compound assignment.
fn binary_assign_op(op: &BinaryOperator) -> Option<BinOp> {
    Some(match op {
        BinaryOperator::AssignMultiply => BinOp::Mul,
        BinaryOperator::AssignDivide => BinOp::Div,
        BinaryOperator::AssignModulo => BinOp::Rem,
        BinaryOperator::AssignPlus => BinOp::Add,
        BinaryOperator::AssignMinus => BinOp::Sub,
        BinaryOperator::AssignShiftLeft => BinOp::Shl,
        BinaryOperator::AssignShiftRight => BinOp::Shr,
        BinaryOperator::AssignBitwiseAnd => BinOp::And,
        BinaryOperator::AssignBitwiseXor => BinOp::Xor,
        BinaryOperator::AssignBitwiseOr => BinOp::Or,
        _ => return None,
    })
}

/// The arithmetic or comparison operator of a binary expression.
fn plain_op(op: &BinaryOperator) -> Option<BinOp> {
    Some(match op {
        BinaryOperator::Multiply => BinOp::Mul,
        BinaryOperator::Divide => BinOp::Div,
        BinaryOperator::Modulo => BinOp::Rem,
        BinaryOperator::Plus => BinOp::Add,
        BinaryOperator::Minus => BinOp::Sub,
        BinaryOperator::ShiftLeft => BinOp::Shl,
        BinaryOperator::ShiftRight => BinOp::Shr,
        BinaryOperator::Less => BinOp::Lt,
        BinaryOperator::Greater => BinOp::Gt,
        BinaryOperator::LessOrEqual => BinOp::Le,
        BinaryOperator::GreaterOrEqual => BinOp::Ge,
        BinaryOperator::Equals => BinOp::Eq,
        BinaryOperator::NotEquals => BinOp::Ne,
        BinaryOperator::BitwiseAnd => BinOp::And,
        BinaryOperator::BitwiseXor => BinOp::Xor,
        BinaryOperator::BitwiseOr => BinOp::Or,
        _ => return None,
    })
}

impl<'a> Lower<'a> {
    /// An integer constant of a type.
    pub fn int_const(&mut self, v: i128, ty: CInt) -> RVal {
        let w = ty.width(self.dm());
        RVal {
            t: self.cfa.tm.bv_const_signed(v, w),
            ty,
        }
    }

    /// The value of an expression that must be an integer.
    pub fn rval(&mut self, e: &Node<Expression>) -> Result<RVal, FrontendError> {
        match self.expr(e)? {
            Val::Int(v) => Ok(v),
            Val::Void => self.error(e.span, "void value used as an integer"),
            Val::Array(_) => self.unsupported(e.span, "array used as a pointer value"),
            Val::Ptr(_) => self.unsupported(e.span, "pointer used as a value"),
        }
    }

    /// The value of a controlling expression, as a `bool` term.
    pub fn cond(&mut self, e: &Node<Expression>) -> Result<TermId, FrontendError> {
        match &e.node {
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if let Some(bop) = plain_op(op).filter(|o| o.is_comparison()) {
                    let (x, y) = self.operands(&b.node.lhs, &b.node.rhs)?;
                    let dm = self.dm();
                    return Ok(arith::comparison(&mut self.cfa.tm, bop, x, y, dm));
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
        let v = self.rval(e)?;
        Ok(arith::truth(&mut self.cfa.tm, v))
    }

    /// Two operands evaluated left to right (the first saved if the second has side effects).
    fn operands(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
    ) -> Result<(RVal, RVal), FrontendError> {
        let mut x = self.rval(l)?;
        if has_side_effects(&r.node) {
            x = self.materialize(x);
        }
        let y = self.rval(r)?;
        Ok((x, y))
    }

    /// `a && b` / `a || b` with short-circuit evaluation, as a `bool` term.
    fn logical(
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

    /// `c ? x : y`.
    fn conditional(&mut self, c: &Node<ConditionalExpression>) -> Result<Val, FrontendError> {
        let cond = self.cond(&c.node.condition)?;
        let start = self.cur;
        let lt = self.new_loc("?: then");
        self.cur = lt;
        let x = self.expr(&c.node.then_expression)?;
        let end_t = self.cur;
        let le = self.new_loc("?: else");
        self.cur = le;
        let y = self.expr(&c.node.else_expression)?;
        let end_e = self.cur;
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
        if end_t == lt && end_e == le {
            self.cur = start;
            return Ok(match (ty, x, y) {
                (Some(ty), Val::Int(a), Val::Int(b)) => {
                    let ta = self.convert(a, ty);
                    let tb = self.convert(b, ty);
                    Val::Int(RVal {
                        t: self.cfa.tm.ite(cond, ta, tb),
                        ty,
                    })
                }
                _ => Val::Void,
            });
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
        Ok(match (tmp, ty) {
            (Some(tmp), Some(ty)) => Val::Int(RVal {
                t: self.var_term(tmp),
                ty,
            }),
            _ => Val::Void,
        })
    }

    /// Applies a binary operator with its checks.
    pub fn apply(&mut self, op: BinOp, a: RVal, b: RVal) -> RVal {
        let dm = self.dm();
        let r = arith::binary(&mut self.cfa.tm, op, a, b, dm);
        if let Some(d) = r.div_by_zero {
            self.check(Property::DivByZero, d, "division by zero");
        }
        if let Some(o) = r.overflow {
            self.check(
                Property::NoOverflow,
                o,
                &format!("signed overflow of {}", op.symbol()),
            );
        }
        r.value
    }

    /// The value of an expression.
    pub fn expr(&mut self, e: &Node<Expression>) -> Result<Val, FrontendError> {
        match &e.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, id.span),
            Expression::Constant(c) => Ok(Val::Int(self.constant(c)?)),
            Expression::StringLiteral(_) => self.unsupported(e.span, "string literal"),
            Expression::Call(c) => self.call(c),
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                self.sizeof(&ty, e.span)
            }
            Expression::SizeOfVal(v) => {
                let ty = self.type_of(&v.node.0)?;
                self.sizeof(&ty, e.span)
            }
            Expression::AlignOf(t) => {
                let ty = self.type_name(&t.node.0)?;
                self.sizeof(&ty, e.span)
            }
            Expression::UnaryOperator(u) => self.unary(u),
            Expression::Cast(c) => {
                let ty = self.type_name(&c.node.type_name)?;
                match ty {
                    CType::Void => {
                        self.effect(&c.node.expression)?;
                        Ok(Val::Void)
                    }
                    CType::Int(to) => {
                        let v = self.rval(&c.node.expression)?;
                        Ok(Val::Int(RVal {
                            t: self.convert(v, to),
                            ty: to,
                        }))
                    }
                    CType::Unsupported(w) => self.unsupported(c.span, w),
                    _ => self.unsupported(c.span, format!("cast to {}", ty.describe())),
                }
            }
            Expression::BinaryOperator(b) => self.binary(b),
            Expression::Conditional(c) => self.conditional(c),
            Expression::Comma(v) => {
                let mut last = Val::Void;
                for (i, x) in v.iter().enumerate() {
                    if i + 1 < v.len() {
                        self.effect(x)?;
                    } else {
                        last = self.expr(x)?;
                    }
                }
                Ok(last)
            }
            Expression::Statement(s) => self.statement_expression(s),
            Expression::Member(_) => self.unsupported(e.span, "struct or union member access"),
            Expression::CompoundLiteral(_) => self.unsupported(e.span, "compound literal"),
            Expression::OffsetOf(_) => self.unsupported(e.span, "offsetof"),
            Expression::VaArg(_) => self.unsupported(e.span, "variable arguments"),
            Expression::GenericSelection(_) => self.unsupported(e.span, "_Generic"),
        }
    }

    fn identifier(&mut self, name: &str, span: Span) -> Result<Val, FrontendError> {
        match self.lookup(name).cloned() {
            Some(Binding::Var(v, ty)) => Ok(Val::Int(RVal {
                t: self.var_term(v),
                ty,
            })),
            Some(Binding::Enum(x)) => Ok(Val::Int(self.int_const(x, CInt::INT))),
            Some(Binding::Array(view)) => Ok(Val::Array(view)),
            Some(Binding::Alias(lv)) => Ok(Val::Ptr(lv)),
            Some(Binding::Function(_)) => self.unsupported(
                span,
                format!("function `{name}` used as a value (function pointers)"),
            ),
            Some(Binding::Invalid(why)) => self.unsupported(span, why),
            Some(Binding::Typedef(_)) => {
                self.error(span, format!("type name `{name}` used as a value"))
            }
            None if name == "__PRETTY_FUNCTION__"
                || name == "__func__"
                || name == "__FUNCTION__" =>
            {
                self.unsupported(span, "string value (function name)")
            }
            None => self.error(span, format!("undeclared identifier `{name}`")),
        }
    }

    /// The type of an expression, without keeping its effects (for `sizeof`).
    fn type_of(&mut self, e: &Node<Expression>) -> Result<CType, FrontendError> {
        let saved = self.cur;
        self.cur = self.new_loc("sizeof operand (not evaluated)");
        let v = self.expr(e);
        self.cur = saved;
        Ok(match v? {
            Val::Int(r) => CType::Int(r.ty),
            Val::Array(view) => view.ctype(),
            Val::Ptr(lv) => CType::Pointer(Box::new(CType::Int(lv.ty()))),
            Val::Void => CType::Void,
        })
    }

    fn sizeof(&mut self, ty: &CType, span: Span) -> Result<Val, FrontendError> {
        let dm = self.dm();
        match ty.size(dm) {
            Some(n) => Ok(Val::Int(self.int_const(n as i128, size_t(dm)))),
            None => match ty {
                CType::Unsupported(w) => self.unsupported(span, w.clone()),
                _ => self.unsupported(span, format!("sizeof of {}", ty.describe())),
            },
        }
    }

    fn constant(&mut self, c: &Node<Constant>) -> Result<RVal, FrontendError> {
        match &c.node {
            Constant::Integer(i) => self.integer_literal(i, c.span),
            Constant::Character(s) => {
                let v = match super::call::char_literal(s) {
                    Some(v) => v,
                    None => return self.unsupported(c.span, format!("character constant {s}")),
                };
                Ok(self.int_const(v.0, v.1))
            }
            Constant::Float(_) => self.unsupported(c.span, "floating point"),
        }
    }

    fn integer_literal(&mut self, i: &Integer, span: Span) -> Result<RVal, FrontendError> {
        let radix = match i.base {
            IntegerBase::Decimal => 10,
            IntegerBase::Octal => 8,
            IntegerBase::Hexadecimal => 16,
            IntegerBase::Binary => 2,
        };
        if i.suffix.imaginary {
            return self.unsupported(span, "imaginary constant");
        }
        let digits: &str = if i.number.is_empty() { "0" } else { &i.number };
        let Ok(v) = u128::from_str_radix(digits, radix) else {
            return self.error(span, format!("integer constant {digits} out of range"));
        };
        let dm = self.dm();
        let decimal = radix == 10;
        let u = i.suffix.unsigned;
        let kinds: &[IntKind] = match i.suffix.size {
            IntegerSize::Int => &[IntKind::Int, IntKind::Long, IntKind::LongLong],
            IntegerSize::Long => &[IntKind::Long, IntKind::LongLong],
            IntegerSize::LongLong => &[IntKind::LongLong],
        };
        for &k in kinds {
            for signed in [true, false] {
                if (signed && u) || (!signed && !u && decimal) {
                    continue;
                }
                let ty = CInt::new(k, signed);
                let (_, hi) = ty.range(dm);
                if v <= hi as u128 {
                    return Ok(RVal {
                        t: self.cfa.tm.bv_const(v, ty.width(dm)),
                        ty,
                    });
                }
            }
        }
        // gcc gives a too large decimal constant the type unsigned long long.
        if v <= u128::from(u64::MAX) {
            let ty = CInt::new(IntKind::LongLong, false);
            return Ok(RVal {
                t: self.cfa.tm.bv_const(v, 64),
                ty,
            });
        }
        self.error(span, "integer constant too large")
    }

    fn unary(&mut self, u: &Node<UnaryOperatorExpression>) -> Result<Val, FrontendError> {
        let operand = &u.node.operand;
        let one = self.int_const(1, CInt::INT);
        match u.node.operator.node {
            UnaryOperator::PreIncrement | UnaryOperator::PreDecrement => {
                let op = if u.node.operator.node == UnaryOperator::PreIncrement {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let lv = self.lval(operand)?;
                let old = self.read(&lv);
                let r = self.apply(op, old, one);
                self.store(&lv, r);
                Ok(Val::Int(self.read(&lv)))
            }
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                let op = if u.node.operator.node == UnaryOperator::PostIncrement {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let lv = self.lval(operand)?;
                let old = self.read(&lv);
                let saved = self.materialize(old);
                let r = self.apply(op, saved, one);
                self.store(&lv, r);
                Ok(Val::Int(saved))
            }
            UnaryOperator::Address => match self.expr(operand)? {
                Val::Array(v) => Ok(Val::Array(v)),
                _ => {
                    let lv = self.lval(operand)?;
                    Ok(Val::Ptr(self.freeze(lv)))
                }
            },
            UnaryOperator::Indirection => match self.expr(operand)? {
                Val::Ptr(lv) => Ok(Val::Int(self.read(&lv))),
                Val::Array(view) => {
                    let zero = self.int_const(0, CInt::INT);
                    self.index_value(&view, zero)
                }
                _ => self.unsupported(u.span, "pointer dereference"),
            },
            UnaryOperator::Plus => {
                let v = self.rval(operand)?;
                let ty = v.ty.promote();
                Ok(Val::Int(RVal {
                    t: self.convert(v, ty),
                    ty,
                }))
            }
            UnaryOperator::Minus => {
                let v = self.rval(operand)?;
                let ty = v.ty.promote();
                let t = self.convert(v, ty);
                if ty.signed {
                    let o = arith::neg_overflow(&mut self.cfa.tm, t);
                    self.check(Property::NoOverflow, o, "signed overflow of unary -");
                }
                Ok(Val::Int(RVal {
                    t: self.cfa.tm.neg(t),
                    ty,
                }))
            }
            UnaryOperator::Complement => {
                let v = self.rval(operand)?;
                let ty = v.ty.promote();
                let t = self.convert(v, ty);
                Ok(Val::Int(RVal {
                    t: self.cfa.tm.not(t),
                    ty,
                }))
            }
            UnaryOperator::Negate => {
                let c = self.cond(operand)?;
                let n = self.cfa.tm.not(c);
                Ok(Val::Int(arith::from_bool(&mut self.cfa.tm, n)))
            }
        }
    }

    fn binary(&mut self, b: &Node<BinaryOperatorExpression>) -> Result<Val, FrontendError> {
        let (l, r) = (&b.node.lhs, &b.node.rhs);
        let op = &b.node.operator.node;
        if let Some(bop) = plain_op(op) {
            if bop.is_comparison() {
                let c = self.cond_of_binary(b)?;
                return Ok(Val::Int(arith::from_bool(&mut self.cfa.tm, c)));
            }
            let (x, y) = self.operands(l, r)?;
            return Ok(Val::Int(self.apply(bop, x, y)));
        }
        match op {
            BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr => {
                let c = self.logical(*op == BinaryOperator::LogicalAnd, l, r)?;
                Ok(Val::Int(arith::from_bool(&mut self.cfa.tm, c)))
            }
            BinaryOperator::Index => {
                let (base, idx) = match self.expr(l)? {
                    Val::Array(v) => (v, r),
                    Val::Int(_) => match self.expr(r)? {
                        // `i[a]`
                        Val::Array(v) => (v, l),
                        _ => return self.unsupported(b.span, "subscript of a non-array"),
                    },
                    _ => return self.unsupported(b.span, "subscript of a pointer"),
                };
                let i = self.rval(idx)?;
                self.index_value(&base, i)
            }
            BinaryOperator::Assign => {
                let lv = self.lval(l)?;
                let lv = if has_side_effects(&r.node) {
                    self.freeze(lv)
                } else {
                    lv
                };
                let v = self.rval(r)?;
                self.store(&lv, v);
                Ok(Val::Int(self.read(&lv)))
            }
            _ => {
                let Some(bop) = binary_assign_op(op) else {
                    return self.unsupported(b.span, "this operator");
                };
                let lv = self.lval(l)?;
                let lv = if has_side_effects(&r.node) {
                    self.freeze(lv)
                } else {
                    lv
                };
                let mut old = self.read(&lv);
                if has_side_effects(&r.node) {
                    old = self.materialize(old);
                }
                let y = self.rval(r)?;
                let res = self.apply(bop, old, y);
                self.store(&lv, res);
                Ok(Val::Int(self.read(&lv)))
            }
        }
    }

    fn cond_of_binary(
        &mut self,
        b: &Node<BinaryOperatorExpression>,
    ) -> Result<TermId, FrontendError> {
        let Some(bop) = plain_op(&b.node.operator.node) else {
            return Err(FrontendError::Internal("not a comparison".into()));
        };
        let (x, y) = self.operands(&b.node.lhs, &b.node.rhs)?;
        let dm = self.dm();
        Ok(arith::comparison(&mut self.cfa.tm, bop, x, y, dm))
    }

    /// The place an expression designates.
    pub fn lval(&mut self, e: &Node<Expression>) -> Result<Lval, FrontendError> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name).cloned() {
                Some(Binding::Var(v, ty)) => Ok(Lval::Var(v, ty)),
                Some(Binding::Alias(_)) => self.unsupported(e.span, "assignment to a pointer"),
                Some(Binding::Array(_)) => self.error(e.span, "assignment to an array"),
                Some(_) => self.error(e.span, format!("`{}` is not assignable", id.node.name)),
                None => self.error(e.span, format!("undeclared identifier `{}`", id.node.name)),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                match self.expr(e)? {
                    Val::Int(_) => self.last_lval(e.span),
                    _ => self.error(e.span, "assignment to an array"),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                match self.expr(&u.node.operand)? {
                    Val::Ptr(lv) => Ok(lv),
                    Val::Array(view) => {
                        let zero = self.int_const(0, CInt::INT);
                        self.index_value(&view, zero)?;
                        self.last_lval(e.span)
                    }
                    _ => self.unsupported(e.span, "pointer dereference"),
                }
            }
            Expression::Cast(c) => self.unsupported(c.span, "cast as an lvalue"),
            _ => self.error(e.span, "expression is not assignable"),
        }
    }

    /// The element designated by the last subscript evaluated.
    fn last_lval(&mut self, span: Span) -> Result<Lval, FrontendError> {
        match self.last_elem.take() {
            Some(lv) => Ok(lv),
            None => self.error(span, "expression is not assignable"),
        }
    }

    /// Saves the index of an array element in a temporary (when later effects could change
    /// the variables it reads).
    fn freeze(&mut self, lv: Lval) -> Lval {
        match lv {
            Lval::Elem { arr, flat } if self.cfa.tm.const_value(flat).is_none() => {
                let v = self.materialize(RVal {
                    t: flat,
                    ty: CInt::new(IntKind::LongLong, false),
                });
                Lval::Elem { arr, flat: v.t }
            }
            lv => lv,
        }
    }

    /// Reads a place.
    pub fn read(&mut self, lv: &Lval) -> RVal {
        match lv {
            Lval::Var(v, ty) => RVal {
                t: self.var_term(*v),
                ty: *ty,
            },
            Lval::Elem { arr, flat } => self.read_elem(arr, *flat),
        }
    }

    /// Writes a value (converted to the place's type) to a place.
    pub fn store(&mut self, lv: &Lval, v: RVal) {
        let t = self.convert(v, lv.ty());
        match lv {
            Lval::Var(x, _) => self.assign(*x, t),
            Lval::Elem { arr, flat } => self.write_elem(arr, *flat, t),
        }
    }

    /// Evaluates an expression for its side effects only.
    pub fn effect(&mut self, e: &Node<Expression>) -> Result<(), FrontendError> {
        match &e.node {
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    UnaryOperator::PostIncrement | UnaryOperator::PostDecrement
                ) =>
            {
                let op = if u.node.operator.node == UnaryOperator::PostIncrement {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let lv = self.lval(&u.node.operand)?;
                let old = self.read(&lv);
                let one = self.int_const(1, CInt::INT);
                let r = self.apply(op, old, one);
                self.store(&lv, r);
                Ok(())
            }
            Expression::Cast(c) if matches!(self.type_name(&c.node.type_name)?, CType::Void) => {
                self.effect(&c.node.expression)
            }
            Expression::Comma(v) => v.iter().try_for_each(|x| self.effect(x)),
            Expression::StringLiteral(_) => Ok(()),
            _ => self.expr(e).map(|_| ()),
        }
    }

    /// A GNU statement expression `({ …; e; })`: its value is the last expression statement's.
    fn statement_expression(&mut self, s: &Node<Statement>) -> Result<Val, FrontendError> {
        let Statement::Compound(items) = &s.node else {
            return self.unsupported(s.span, "statement expression");
        };
        self.scopes.push(Default::default());
        let mut last = Val::Void;
        let n = items.len();
        for (i, item) in items.iter().enumerate() {
            match &item.node {
                BlockItem::Statement(st) if i + 1 == n => {
                    if let Statement::Expression(Some(e)) = &st.node {
                        self.at(st.span);
                        last = self.expr(e)?;
                    } else {
                        self.stmt(st)?;
                    }
                }
                _ => self.block_item(item)?,
            }
        }
        self.scopes.pop();
        // Keep the value if the following code could change what it reads.
        if let Val::Int(v) = last {
            last = Val::Int(self.materialize(v));
        }
        Ok(last)
    }
}
