//! Expressions: values, operators with their checks, assignments and side effects
//! (conditions and `&&`/`||`/`?:` are in [`super::cond`], places in [`super::lval`]).
//!
//! An expression is lowered at the current location into a term over the variables' current
//! values; its side effects (assignments, `++`/`--`, inlined calls, checks) are emitted as
//! edges. Operands are evaluated left to right; when a later operand has side effects, the
//! value of an earlier one is first saved in a temporary. `&&`, `||` and `?:` evaluate their
//! second (third) operand only on the taken branch: if that operand emits nothing it is folded
//! into one term (`and`, `or`, `ite`), otherwise the branches become control flow that joins
//! with the result in a temporary.

use super::arith::{self, BinOp};
use super::builder::Lower;
use super::repr::{is_pointer, Binding, Lval, Place, Pointer, RVal, StructView, Val, ADDRESS};
use super::types::{size_t, CInt, CType};
use super::FrontendError;
use crate::bv::TermId;
use crate::cfa::Property;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// The terms a value reads (for the evaluation order check).
fn val_terms(v: &Val) -> Vec<TermId> {
    match v {
        Val::Int(r) | Val::Addr(r) | Val::Ref(r, _) | Val::Func(r, _) => vec![r.t],
        _ => Vec::new(),
    }
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
pub fn binary_assign_op(op: &BinaryOperator) -> Option<BinOp> {
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
pub fn plain_op(op: &BinaryOperator) -> Option<BinOp> {
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
        let v = self.expr(e)?;
        self.int_of(v, false, e.span)
    }

    /// The value of an expression converted (by the caller) to integer type `to`: for `_Bool`,
    /// a pointer is converted too, to whether it is not null (C11 6.3.1.2).
    pub fn rval_for(&mut self, e: &Node<Expression>, to: CInt) -> Result<RVal, FrontendError> {
        if to == CInt::BOOL {
            self.truth_value(e)
        } else {
            self.rval(e)
        }
    }

    /// The truth of a controlling expression's value: an integer or an address-only pointer
    /// not zero, a pointer to an object not null.
    pub fn truth_value(&mut self, e: &Node<Expression>) -> Result<RVal, FrontendError> {
        let v = self.expr(e)?;
        self.truth_of(v, e.span)
    }

    /// The truth of a value `v` of the expression at `span` (see [`Lower::truth_value`]).
    pub fn truth_of(&mut self, v: Val, span: Span) -> Result<RVal, FrontendError> {
        match v {
            Val::Ref(r, _) => Ok(self.ref_truth(r.t)),
            // A pointer bound to an object, or an array, is never null.
            Val::Ptr(_) | Val::Array(_) | Val::Structs(_) => Ok(self.int_const(1, CInt::INT)),
            v => self.int_of(v, true, span),
        }
    }

    pub fn int_of(&mut self, v: Val, addr_ok: bool, span: Span) -> Result<RVal, FrontendError> {
        match v {
            Val::Int(v) => Ok(v),
            Val::Addr(v) | Val::Func(v, _) if addr_ok => Ok(v),
            Val::Ref(..) => self.unsupported(span, "a pointer used as an integer"),
            Val::Func(..) => self.unsupported(span, "a function pointer used as an integer"),
            Val::Addr(_) => self.unsupported(span, "pointer arithmetic or a pointer used as an integer"),
            Val::Void => self.error(span, "void value used as an integer"),
            Val::Array(_) | Val::Structs(_) => {
                self.unsupported(span, "array used as a pointer value")
            }
            Val::Struct(_) => self.unsupported(span, "structure used as a scalar value"),
            Val::Ptr(_) => self.unsupported(
                span,
                "the address of an object used as a value (pointers bound to an object cannot be compared, assigned or converted to integers)",
            ),
        }
    }

    /// Two operands evaluated left to right (the first saved if the second has side effects);
    /// address-only pointers are allowed when `addr_ok` (comparisons).
    pub fn operands(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
        addr_ok: bool,
    ) -> Result<(RVal, RVal), FrontendError> {
        let (x, y) = self.operand_vals(l, r)?;
        let x = self.int_of(x, addr_ok, l.span)?;
        let y = self.int_of(y, addr_ok, r.span)?;
        Ok((x, y))
    }

    /// Two operands' values evaluated left to right (the first saved if the second has side
    /// effects).
    pub fn operand_vals(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
    ) -> Result<(Val, Val), FrontendError> {
        let effects = has_side_effects(&l.node) || has_side_effects(&r.node);
        let m = self.effects_mark();
        let mut x = self.expr(l)?;
        if has_side_effects(&r.node) {
            x = self.materialize_val(x);
        }
        let fx = effects.then(|| self.effects_since(m, &val_terms(&x)));
        let m = self.effects_mark();
        let y = self.expr(r)?;
        if let Some(fx) = fx {
            let fy = self.effects_since(m, &val_terms(&y));
            self.check_order(&[fx, fy], "operands of a binary operator");
        }
        Ok((x, y))
    }

    /// A value that no later side effect can change.
    pub fn materialize_val(&mut self, v: Val) -> Val {
        match v {
            Val::Int(r) => Val::Int(self.materialize(r)),
            Val::Addr(r) => Val::Addr(self.materialize(r)),
            Val::Ref(r, q) => Val::Ref(self.materialize(r), q),
            Val::Func(r, t) => Val::Func(self.materialize(r), t),
            Val::Ptr(p) => Val::Ptr(self.freeze_pointer(p)),
            v => v,
        }
    }

    /// A comparison of two operands: of integers (and address-only pointers) as integers, of
    /// pointers to objects as general pointers (see [`super::memory`]).
    pub fn compare(
        &mut self,
        bop: BinOp,
        b: &Node<BinaryOperatorExpression>,
    ) -> Result<TermId, FrontendError> {
        let (l, r) = (&b.node.lhs, &b.node.rhs);
        let (x, y) = self.operand_vals(l, r)?;
        if is_pointer(&x) || is_pointer(&y) {
            let p = self.general_pointer(x, l.span)?;
            let q = self.general_pointer(y, r.span)?;
            return Ok(self.at_op(b.span, |lw| lw.ref_compare(bop, p.t, q.t)));
        }
        let x = self.int_of(x, true, l.span)?;
        let y = self.int_of(y, true, r.span)?;
        let dm = self.dm();
        Ok(arith::comparison(&mut self.cfa.tm, bop, x, y, dm))
    }

    /// `p + n`, `n + p`, `p - n` and `p - q` with a pointer operand.
    fn pointer_arith(
        &mut self,
        bop: BinOp,
        x: Val,
        y: Val,
        span: Span,
    ) -> Result<Val, FrontendError> {
        match (is_pointer(&x), is_pointer(&y), bop) {
            (true, true, BinOp::Sub) => {
                let q = self.pointee_of(&x);
                let step = self.step_or_err(&q, span)?;
                let a = self.general_pointer(x, span)?;
                let b = self.general_pointer(y, span)?;
                Ok(Val::Int(self.ref_diff(a.t, b.t, step)))
            }
            (true, false, _) | (false, true, BinOp::Add) => {
                let (p, n) = if is_pointer(&x) { (x, y) } else { (y, x) };
                let q = self.pointee_of(&p);
                let step = self.step_or_err(&q, span)?;
                let n = self.int_of(n, false, span)?;
                let a = self.general_pointer(p, span)?;
                let t = self.ref_add(a.t, n, step, bop == BinOp::Sub);
                Ok(Val::Ref(RVal { t, ty: CInt::PTR }, q))
            }
            _ => self.error(span, "invalid operands of a pointer operation"),
        }
    }

    /// The type a pointer value points to.
    pub fn pointee_of(&self, v: &Val) -> CType {
        match v {
            Val::Ref(_, q) => q.clone(),
            Val::Array(view) => view.row_type(),
            Val::Structs(sa) => sa.row_type(),
            Val::Ptr(p) if p.void => CType::Void,
            Val::Ptr(p) => match &p.target {
                Place::Scalar(lv) => CType::Int(lv.ty()),
                Place::Array(view) => view.row_type(),
                Place::Struct(v) => CType::Struct(v.def.clone()),
                Place::Structs(sa) => sa.row_type(),
                Place::Ptr(_, q) => CType::Pointer(Box::new(q.clone())),
                Place::Addr(..) => CType::Pointer(Box::new(CType::Void)),
            },
            _ => CType::Void,
        }
    }

    /// The size a pointer to `q` steps over, or an error for `void` and incomplete types.
    pub fn step_or_err(&mut self, q: &CType, span: Span) -> Result<u64, FrontendError> {
        let q = &self.completed(q);
        match self.step_of(q) {
            Some(n) => Ok(n),
            None => self.unsupported(
                span,
                format!("pointer arithmetic on a pointer to {}", q.describe()),
            ),
        }
    }

    /// `p = e` for a general pointer variable or cell `p` to `q`.
    fn assign_ref(
        &mut self,
        lv: super::repr::Lval,
        q: CType,
        r: &Node<Expression>,
    ) -> Result<Val, FrontendError> {
        let lv = if has_side_effects(&r.node) {
            self.freeze(lv)
        } else {
            lv
        };
        let x = self.expr(r)?;
        if let Val::Func(..) = x {
            return self.unsupported(
                r.span,
                "a function pointer assigned to a pointer to an object",
            );
        }
        let x = match &q {
            CType::Int(to) => self.view_as(&x, *to, r.span)?.unwrap_or(x),
            _ => x,
        };
        let v = self.general_pointer(x, r.span)?;
        self.store(&lv, v);
        Ok(Val::Ref(self.read(&lv), q))
    }

    /// `++p`, `p++`, `--p`, `p--`, `p += n`, `p -= n` for a general pointer `p` to `q`; the
    /// value is the new pointer, or the old one when `post`.
    pub fn step_ref(
        &mut self,
        lv: super::repr::Lval,
        q: CType,
        n: RVal,
        sub: bool,
        post: bool,
        span: Span,
    ) -> Result<Val, FrontendError> {
        let step = self.step_or_err(&q, span)?;
        let old = self.read(&lv);
        let old = self.materialize(old);
        let t = self.at_op(span, |lw| lw.ref_add(old.t, n, step, sub));
        self.store(&lv, RVal { t, ty: CInt::PTR });
        let v = if post { old } else { self.read(&lv) };
        Ok(Val::Ref(v, q))
    }

    /// Applies a binary operator with its checks.
    pub fn apply(&mut self, op: BinOp, a: RVal, b: RVal) -> RVal {
        let dm = self.dm();
        let r = arith::binary(&mut self.cfa.tm, op, a, b, dm);
        if let Some(d) = r.div_by_zero {
            let what = if op == BinOp::Rem {
                "remainder by zero"
            } else {
                "division by zero"
            };
            self.ub_check(Some(Property::DivByZero), d, what);
        }
        if let Some(o) = r.overflow {
            let what = format!("signed overflow of {}", op.symbol());
            if matches!(op, BinOp::Div | BinOp::Rem) {
                // `MIN / -1` traps on x86: undefined under every other property.
                self.ub_check(Some(Property::NoOverflow), o, &what);
            } else {
                // Other signed overflows wrap under the other properties.
                self.check(Property::NoOverflow, o, &what);
            }
        }
        if let Some(s) = r.shift_out_of_range {
            self.ub_check(None, s, "shift amount out of range");
        }
        r.value
    }

    /// The value of an expression.
    pub fn expr(&mut self, e: &Node<Expression>) -> Result<Val, FrontendError> {
        match &e.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, id.span),
            Expression::Constant(c) => Ok(Val::Int(self.constant(c)?)),
            Expression::StringLiteral(s) => self.string_literal(e, &s.node),
            Expression::Call(c) => self.call(c),
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                self.sizeof(&ty, e.span)
            }
            Expression::SizeOfVal(v) => self.sizeof_val(&v.node.0, e.span),
            Expression::AlignOf(t) => self.align_of(&t.node.0, e.span),
            Expression::UnaryOperator(u) => self.unary(u),
            Expression::Cast(c) => self.cast(c),
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
            Expression::Member(m) => {
                let place = self.member_expr(m)?;
                Ok(self.place_value(place))
            }
            Expression::CompoundLiteral(c) => self.literal_value(c, e.span),
            Expression::OffsetOf(o) => {
                let n = self.offset_of(o)?;
                Ok(Val::Int(self.int_const(i128::from(n), size_t(self.dm()))))
            }
            Expression::VaArg(_) => self.unsupported(e.span, "variable arguments"),
            Expression::GenericSelection(_) => self.unsupported(e.span, "_Generic"),
        }
    }

    /// `_Alignof(T)`, or gcc's `__alignof__(T)` (its preferred alignment, 8 for `long long`
    /// under ILP32 where `_Alignof` gives 4).
    fn align_of(&mut self, t: &Node<TypeName>, span: Span) -> Result<Val, FrontendError> {
        let ty = self.type_name(t)?;
        let gnu = self.src.snippet(span).trim_start().starts_with("__alignof");
        match ty.align(self.dm(), gnu) {
            Some(n) => Ok(Val::Int(self.int_const(n as i128, size_t(self.dm())))),
            None => self.unsupported(span, format!("_Alignof of {}", ty.describe())),
        }
    }

    /// `(T) e`: to `void`, to an integer type, to a pointer type.
    fn cast(&mut self, c: &Node<CastExpression>) -> Result<Val, FrontendError> {
        let ty = self.type_name(&c.node.type_name)?;
        match ty {
            CType::Void => {
                self.effect(&c.node.expression)?;
                Ok(Val::Void)
            }
            CType::Int(to) => {
                let v = self.expr(&c.node.expression)?;
                if let Val::Func(..) = v {
                    return self.unsupported(c.span, "a function pointer converted to an integer");
                }
                if is_pointer(&v) {
                    let r = self.general_pointer(v, c.span)?;
                    return Ok(Val::Int(self.at_op(c.span, |lw| lw.ref_to_int(r.t, to))));
                }
                let v = self.int_of(v, true, c.node.expression.span)?;
                Ok(Val::Int(RVal {
                    t: self.convert(v, to),
                    ty: to,
                }))
            }
            CType::Pointer(pointee) => self.cast_to_pointer(c, *pointee),
            CType::Unsupported(w) => self.unsupported(c.span, w),
            _ => self.unsupported(c.span, format!("cast to {}", ty.describe())),
        }
    }

    /// `(T *) e`: a function pointer, a byte view, a reference, a pointer or an address.
    fn cast_to_pointer(
        &mut self,
        c: &Node<CastExpression>,
        pointee: CType,
    ) -> Result<Val, FrontendError> {
        let v = self.expr(&c.node.expression)?;
        if let (Val::Func(..), _) | (_, CType::Function(..)) = (&v, &pointee) {
            let r = self.function_number(v, &pointee, c.span)?;
            return Ok(Val::Func(r, pointee));
        }
        if let CType::Int(to) = &pointee {
            if let Some(view) = self.view_as(&v, *to, c.span)? {
                return Ok(view);
            }
        }
        if let CType::Struct(def) = &pointee {
            if let Some(view) = self.struct_view_as(&v, def, c.span)? {
                return Ok(view);
            }
        }
        if let Val::Ref(r, _) = v {
            return Ok(Val::Ref(r, pointee));
        }
        match self.bind_pointer(v.clone(), &pointee, c.span)? {
            Some(p) => Ok(Val::Ptr(p)),
            None => {
                let r = self.int_of(v, true, c.span)?;
                Ok(Val::Addr(self.address(r)))
            }
        }
    }

    fn identifier(&mut self, name: &str, span: Span) -> Result<Val, FrontendError> {
        match self.lookup(name).cloned() {
            Some(Binding::Var(v, ty)) => Ok(Val::Int(RVal {
                t: self.var_term(v),
                ty,
            })),
            Some(Binding::Enum(x, ty)) => Ok(Val::Int(self.int_const(x, ty))),
            Some(Binding::Array(view)) => Ok(Val::Array(view)),
            Some(Binding::Struct(v)) => Ok(Val::Struct(v)),
            Some(Binding::Structs(sa)) => Ok(Val::Structs(sa)),
            Some(Binding::Pointer(p, _)) => Ok(Val::Ptr(p)),
            Some(Binding::Ref(v, q)) => Ok(Val::Ref(
                RVal {
                    t: self.var_term(v),
                    ty: CInt::PTR,
                },
                q,
            )),
            Some(Binding::PtrVar(v, _)) => Ok(Val::Addr(RVal {
                t: self.var_term(v),
                ty: ADDRESS,
            })),
            Some(Binding::Function(ty)) => self.function_value(name, &ty, span),
            Some(Binding::FnPtr(v, ty)) => Ok(Val::Func(
                RVal {
                    t: self.var_term(v),
                    ty: ADDRESS,
                },
                ty,
            )),
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

    /// `sizeof e`: the size of its type (an error for a bit-field).
    fn sizeof_val(&mut self, e: &Node<Expression>, span: Span) -> Result<Val, FrontendError> {
        if self.is_bit_field(e)? {
            return self.error(span, "`sizeof` of a bit-field");
        }
        let ty = self.type_of(e)?;
        self.sizeof(&ty, span)
    }

    /// Whether `e` designates a bit-field (whose size and type cannot be asked for, C11
    /// 6.5.3.4p1; gcc rejects both), without keeping its effects.
    fn is_bit_field(&mut self, e: &Node<Expression>) -> Result<bool, FrontendError> {
        if !matches!(e.node, Expression::Member(_)) {
            return Ok(false);
        }
        if let Some((_, bits)) = self.through_address_only(e) {
            return Ok(bits);
        }
        let saved = self.cur;
        self.cur = self.new_loc("sizeof operand (not evaluated)");
        let place = self.place(e);
        self.cur = saved;
        Ok(matches!(place?, Place::Scalar(Lval::Bits { .. })))
    }

    /// The type of `*p`, `p[i]` or `p->m` for a variable `p` that is an address-only pointer,
    /// from the type it is declared to point to. Such an access cannot be lowered (there is no
    /// object to read), but the operand of `sizeof` is not evaluated (C11 6.5.3.4p2), so
    /// `sizeof *p` is the pointee's size (`kzalloc(sizeof(*p), …)`). With the type, whether
    /// `e` is a bit-field.
    fn through_address_only(&self, e: &Node<Expression>) -> Option<(CType, bool)> {
        let (base, member) = match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                (&u.node.operand, None)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                (&b.node.lhs, None)
            }
            Expression::Member(m) if m.node.operator.node == MemberOperator::Indirect => (
                &m.node.expression,
                Some(m.node.identifier.node.name.as_str()),
            ),
            _ => return None,
        };
        let Expression::Identifier(id) = &base.node else {
            return None;
        };
        let Some(Binding::PtrVar(_, q)) = self.lookup(&id.node.name) else {
            return None;
        };
        let q = self.completed(q);
        match (member, &q) {
            (None, _) => Some((q, false)),
            (Some(m), CType::Struct(def)) => def
                .0
                .members
                .iter()
                .find(|x| x.name.as_deref() == Some(m))
                .map(|x| (x.ty.clone(), x.bits.is_some())),
            _ => None,
        }
    }

    /// The type of an expression, without keeping its effects (for `sizeof`).
    pub fn type_of(&mut self, e: &Node<Expression>) -> Result<CType, FrontendError> {
        Ok(self.type_of_val(e)?.0)
    }

    /// [`Lower::type_of`], and whether the value is an address-only pointer (whose pointee
    /// type is not kept: its type is given as `void *`).
    fn type_of_val(&mut self, e: &Node<Expression>) -> Result<(CType, bool), FrontendError> {
        if let Some((t, _)) = self.through_address_only(e) {
            return Ok((t, false));
        }
        let saved = self.cur;
        self.cur = self.new_loc("sizeof operand (not evaluated)");
        let v = self.expr(e);
        self.cur = saved;
        // Only an lvalue designating an array keeps its array type; in every other expression
        // (a comma or conditional operator's result, a statement expression) an array has
        // decayed to a pointer to its first element (C11 6.3.2.1p3).
        let lvalue = match &e.node {
            Expression::Identifier(_) | Expression::Member(_) | Expression::StringLiteral(_) => {
                true
            }
            Expression::BinaryOperator(b) => b.node.operator.node == BinaryOperator::Index,
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
            _ => false,
        };
        let v = v?;
        let addr = matches!(v, Val::Addr(_));
        let ty = match v {
            Val::Int(r) => CType::Int(r.ty),
            Val::Array(view) if !lvalue => CType::Pointer(Box::new(view.row_type())),
            Val::Array(view) => view.ctype(),
            Val::Structs(sa) if !lvalue => CType::Pointer(Box::new(sa.row_type())),
            Val::Structs(sa) => sa.ctype(),
            Val::Struct(v) => CType::Struct(v.def),
            v @ (Val::Ptr(_) | Val::Ref(..)) => CType::Pointer(Box::new(self.pointee_of(&v))),
            Val::Addr(_) => CType::Pointer(Box::new(CType::Void)),
            Val::Func(_, t) => CType::Pointer(Box::new(t)),
            Val::Void => CType::Void,
        };
        Ok((ty, addr))
    }

    /// The type a GNU `typeof` (or `__typeof__`) names: of a type name, that type; of an
    /// expression, its type as `sizeof` sees it (the expression is not evaluated). A pointer
    /// the program never dereferences keeps no pointee type, so its `typeof` is unsupported.
    pub fn type_of_specifier(&mut self, of: &Node<TypeOf>) -> Result<CType, FrontendError> {
        match &of.node {
            TypeOf::Type(t) => self.type_name(t),
            TypeOf::Expression(e) if self.is_bit_field(e)? => {
                self.error(of.span, "`typeof` of a bit-field")
            }
            TypeOf::Expression(e) => match self.type_of_val(e)? {
                (_, true) => self.unsupported(
                    of.span,
                    "typeof of a pointer that is never dereferenced (its pointee type is not kept)",
                ),
                (ty, false) => Ok(ty),
            },
        }
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

    fn unary(&mut self, u: &Node<UnaryOperatorExpression>) -> Result<Val, FrontendError> {
        let operand = &u.node.operand;
        let one = self.int_const(1, CInt::INT);
        match u.node.operator.node {
            UnaryOperator::PreIncrement => self.inc_dec(u, one, BinOp::Add, false),
            UnaryOperator::PreDecrement => self.inc_dec(u, one, BinOp::Sub, false),
            UnaryOperator::PostIncrement => self.inc_dec(u, one, BinOp::Add, true),
            UnaryOperator::PostDecrement => self.inc_dec(u, one, BinOp::Sub, true),
            UnaryOperator::Address => self.address_of_operand(u),
            UnaryOperator::Indirection => {
                if let Val::Func(r, t) = self.peek_function(operand)? {
                    return Ok(Val::Func(r, t));
                }
                let place = self.deref_operand(operand, u.span)?;
                Ok(self.place_value(place))
            }
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
                    self.at_op(u.span, |lw| {
                        lw.check(Property::NoOverflow, o, "signed overflow of unary -")
                    });
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

    /// `++x`, `--x` (`post` false: the new value) and `x++`, `x--` (`post`: the old one),
    /// with `op` adding or subtracting `one`; a pointer steps by its target's size.
    fn inc_dec(
        &mut self,
        u: &Node<UnaryOperatorExpression>,
        one: RVal,
        op: BinOp,
        post: bool,
    ) -> Result<Val, FrontendError> {
        let operand = &u.node.operand;
        let lv = match self.place(operand)? {
            Place::Ptr(lv, q) => return self.step_ref(lv, q, one, op == BinOp::Sub, post, u.span),
            place => self.scalar_lval(place, operand.span)?,
        };
        let old = self.read(&lv);
        if post {
            let saved = self.materialize(old);
            let r = self.at_op(u.span, |lw| lw.apply(op, saved, one));
            self.store(&lv, r);
            Ok(Val::Int(saved))
        } else {
            let r = self.at_op(u.span, |lw| lw.apply(op, old, one));
            self.store(&lv, r);
            Ok(Val::Int(self.read(&lv)))
        }
    }

    /// `&operand`: a function's value, a pointer to a scalar, array, structure or pointer.
    fn address_of_operand(
        &mut self,
        u: &Node<UnaryOperatorExpression>,
    ) -> Result<Val, FrontendError> {
        let operand = &u.node.operand;
        if let Expression::Identifier(id) = &operand.node {
            if let Some(Binding::Function(ty)) = self.lookup(&id.node.name).cloned() {
                return self.function_value(&id.node.name, &ty, operand.span);
            }
        }
        if let Some((at, _)) = self.constant_member_address(operand)? {
            let t = self
                .cfa
                .tm
                .bv_const(u128::from(at), ADDRESS.width(self.dm()));
            return Ok(Val::Addr(RVal { t, ty: ADDRESS }));
        }
        // `&a[i]` may name the address one past the end.
        let saved = self.address_of.replace(operand.span);
        let place = self.place(operand);
        self.address_of = saved;
        let target = match place? {
            Place::Scalar(super::repr::Lval::Bits { .. }) => {
                return self.error(u.span, "address of a bit-field")
            }
            Place::Scalar(super::repr::Lval::Mem { ptr, ty }) => {
                let r = RVal {
                    t: ptr,
                    ty: CInt::PTR,
                };
                return Ok(Val::Ref(r, CType::Int(ty)));
            }
            Place::Ptr(lv, q) => {
                let p = Val::Ptr(Pointer {
                    target: Place::Ptr(lv, q.clone()),
                    void: false,
                });
                let r = self.general_pointer(p, u.span)?;
                return Ok(Val::Ref(r, CType::Pointer(Box::new(q))));
            }
            Place::Scalar(lv) => Place::Scalar(lv),
            // `&a`: a pointer to the whole array, seen as the only row of a 1 × … view.
            Place::Array(mut view) => {
                view.dims.insert(0, 1);
                Place::Array(view)
            }
            Place::Structs(mut sa) => {
                sa.dims.insert(0, 1);
                for l in &mut sa.leaves {
                    l.dims.insert(0, 1);
                }
                Place::Structs(sa)
            }
            Place::Struct(v) => Place::Struct(v),
            Place::Addr(..) => {
                return self.unsupported(
                    u.span,
                    "pointers to pointers (the address of a pointer member)",
                )
            }
        };
        let p = Pointer {
            target,
            void: false,
        };
        Ok(Val::Ptr(self.freeze_pointer(p)))
    }

    fn binary(&mut self, b: &Node<BinaryOperatorExpression>) -> Result<Val, FrontendError> {
        let (l, r) = (&b.node.lhs, &b.node.rhs);
        let op = &b.node.operator.node;
        if let Some(bop) = plain_op(op) {
            if bop.is_comparison() {
                let c = self.cond_of_binary(b)?;
                return Ok(Val::Int(arith::from_bool(&mut self.cfa.tm, c)));
            }
            if matches!(bop, BinOp::Add | BinOp::Sub) {
                let (x, y) = self.operand_vals(l, r)?;
                if is_pointer(&x) || is_pointer(&y) {
                    return self.at_op(b.span, |lw| lw.pointer_arith(bop, x, y, b.span));
                }
                let x = self.int_of(x, false, l.span)?;
                let y = self.int_of(y, false, r.span)?;
                return Ok(Val::Int(self.at_op(b.span, |lw| lw.apply(bop, x, y))));
            }
            let (x, y) = self.operands(l, r, false)?;
            return Ok(Val::Int(self.at_op(b.span, |lw| lw.apply(bop, x, y))));
        }
        match op {
            BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr => {
                let c = self.logical(*op == BinaryOperator::LogicalAnd, l, r)?;
                Ok(Val::Int(arith::from_bool(&mut self.cfa.tm, c)))
            }
            BinaryOperator::Index => {
                let place = self.subscript(l, r, b.span)?;
                Ok(self.place_value(place))
            }
            BinaryOperator::Assign => self.assignment(l, r),
            _ => match binary_assign_op(op) {
                Some(bop) => self.compound_assignment(bop, l, r, b.span),
                None => self.unsupported(b.span, "this operator"),
            },
        }
    }

    /// `l = r`.
    fn assignment(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
    ) -> Result<Val, FrontendError> {
        if let Some(v) = self.assign_pointer_var(l, r)? {
            return Ok(v);
        }
        let lv = match self.place(l)? {
            Place::Scalar(lv) => lv,
            Place::Ptr(lv, q) => return self.assign_ref(lv, q, r),
            Place::Struct(dst) => return self.assign_struct(dst, r),
            Place::Addr(lv, f) => return self.assign_pointer_member(lv, f, r),
            Place::Array(_) | Place::Structs(_) => {
                return self.error(l.span, "assignment to an array")
            }
        };
        let lv = if has_side_effects(&r.node) {
            self.freeze(lv)
        } else {
            lv
        };
        let v = self.rval_for(r, lv.ty())?;
        self.store(&lv, v);
        Ok(Val::Int(self.stored_value(&lv, v)))
    }

    /// `l op= r` (a pointer `l` steps by `r` elements for `+=` and `-=`).
    fn compound_assignment(
        &mut self,
        bop: BinOp,
        l: &Node<Expression>,
        r: &Node<Expression>,
        span: Span,
    ) -> Result<Val, FrontendError> {
        let lv = match self.place(l)? {
            Place::Ptr(lv, q) if matches!(bop, BinOp::Add | BinOp::Sub) => {
                let lv = if has_side_effects(&r.node) {
                    self.freeze(lv)
                } else {
                    lv
                };
                let n = self.rval(r)?;
                return self.step_ref(lv, q, n, bop == BinOp::Sub, false, span);
            }
            place => self.scalar_lval(place, l.span)?,
        };
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
        let res = self.at_op(span, |lw| lw.apply(bop, old, y));
        self.store(&lv, res);
        Ok(Val::Int(self.stored_value(&lv, res)))
    }

    /// The place `l[r]` designates (`a[i]`, or `i[a]`), with the checks of the access; nothing
    /// is read.
    pub fn subscript(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
        span: Span,
    ) -> Result<Place, FrontendError> {
        let (base, i) = match self.expr(l)? {
            Val::Int(mut i) => {
                if has_side_effects(&r.node) {
                    i = self.materialize(i);
                }
                (self.expr(r)?, i)
            }
            v => (v, self.rval(r)?),
        };
        let p = match Pointer::of_value(base) {
            Ok(p) => p,
            Err(Val::Ref(r, q)) => {
                return self.at_op(span, |lw| {
                    let step = lw.step_or_err(&q, span)?;
                    let t = lw.ref_add(r.t, i, step, false);
                    lw.ref_place(t, &q, span)
                });
            }
            Err(Val::Addr(_)) => {
                return self.unsupported(
                    span,
                    "subscript of a pointer that is not bound to an object",
                )
            }
            Err(_) => return self.error(span, "subscript of a value that is not an array"),
        };
        // A pointer bound to a scalar or a structure, moved by the subscript: general.
        if matches!(
            p.target,
            Place::Scalar(_) | Place::Struct(_) | Place::Ptr(..)
        ) && self.cfa.tm.const_value(i.t) != Some(0)
        {
            if let Some(key) = self.bound_pointer_key(l) {
                return self.needs_general_key(key);
            }
        }
        self.at_op(span, |lw| lw.subscript_place(&p, i, span))
    }

    /// The declaration key of `e` if it names a pointer variable bound to the object it was
    /// initialised with.
    fn bound_pointer_key(&self, e: &Node<Expression>) -> Option<String> {
        let Expression::Identifier(id) = &e.node else {
            return None;
        };
        match self.lookup(&id.node.name) {
            Some(Binding::Pointer(_, key)) => Some(key.clone()),
            _ => None,
        }
    }

    fn cond_of_binary(
        &mut self,
        b: &Node<BinaryOperatorExpression>,
    ) -> Result<TermId, FrontendError> {
        let Some(bop) = plain_op(&b.node.operator.node) else {
            return Err(FrontendError::Internal("not a comparison".into()));
        };
        self.compare(bop, b)
    }

    /// `s = e` for a structure `s`: `e` must be a structure of the same type.
    fn assign_struct(
        &mut self,
        dst: StructView,
        r: &Node<Expression>,
    ) -> Result<Val, FrontendError> {
        match self.expr(r)? {
            Val::Struct(src) if src.def == dst.def => {
                self.copy_struct(&dst, &src);
                Ok(Val::Struct(dst))
            }
            _ => self.error(
                r.span,
                "assignment of a value of another type to a structure",
            ),
        }
    }

    /// `s.f = e` for a function pointer member `s.f` of function type `f`: the function's
    /// number.
    fn assign_pointer_member(
        &mut self,
        lv: super::repr::Lval,
        f: CType,
        r: &Node<Expression>,
    ) -> Result<Val, FrontendError> {
        let x = self.expr(r)?;
        let v = self.function_number(x, &f, r.span)?;
        self.store(&lv, v);
        Ok(Val::Func(self.read(&lv), f))
    }

    /// The value of `e` when it is a function pointer or a function designator (for `*e`),
    /// evaluated; otherwise `Val::Void` and `e` is not evaluated.
    fn peek_function(&mut self, e: &Node<Expression>) -> Result<Val, FrontendError> {
        let is_function = match &e.node {
            Expression::Identifier(id) => matches!(
                self.lookup(&id.node.name),
                Some(Binding::Function(_) | Binding::FnPtr(..))
            ),
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
            _ => false,
        };
        if !is_function {
            return Ok(Val::Void);
        }
        if let Expression::UnaryOperator(u) = &e.node {
            return match self.peek_function(&u.node.operand)? {
                Val::Func(r, t) => Ok(Val::Func(r, t)),
                _ => Ok(Val::Void),
            };
        }
        self.expr(e)
    }

    /// The place `e.m` or `e->m` designates.
    pub fn member_expr(&mut self, m: &Node<MemberExpression>) -> Result<Place, FrontendError> {
        let name = &m.node.identifier.node.name;
        let base = match m.node.operator.node {
            MemberOperator::Direct => match self.expr(&m.node.expression)? {
                Val::Struct(v) => v,
                _ => {
                    return self.error(
                        m.span,
                        format!("member `{name}` of a value that is not a structure"),
                    )
                }
            },
            MemberOperator::Indirect => match self.deref_operand(&m.node.expression, m.span)? {
                Place::Struct(v) => v,
                _ => {
                    return self.error(
                        m.span,
                        format!(
                            "member `{name}` through a pointer that does not point to a structure"
                        ),
                    )
                }
            },
        };
        self.member_place(&base, name, m.span)
    }

    /// `p = e` for an address-only pointer variable `p`; `None` if `l` is not one.
    fn assign_pointer_var(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
    ) -> Result<Option<Val>, FrontendError> {
        let Expression::Identifier(id) = &l.node else {
            return Ok(None);
        };
        let pv = match self.lookup(&id.node.name).cloned() {
            Some(Binding::PtrVar(pv, _)) => pv,
            Some(Binding::FnPtr(pv, ty)) => {
                let v = self.expr(r)?;
                let n = self.function_number(v, &ty, r.span)?;
                self.assign(pv, n.t);
                let t = self.var_term(pv);
                return Ok(Some(Val::Func(RVal { t, ty: ADDRESS }, ty)));
            }
            _ => return Ok(None),
        };
        let x = self.expr(r)?;
        if is_pointer(&x) {
            return self.needs_general(pv);
        }
        let what = format!("the pointer variable `{}`", id.node.name);
        let v = self.address_value(x, r.span, &what)?;
        self.assign(pv, v.t);
        Ok(Some(Val::Addr(RVal {
            t: self.var_term(pv),
            ty: ADDRESS,
        })))
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
                let one = self.int_const(1, CInt::INT);
                let lv = match self.place(&u.node.operand)? {
                    Place::Ptr(lv, q) => {
                        self.step_ref(lv, q, one, op == BinOp::Sub, true, u.span)?;
                        return Ok(());
                    }
                    place => self.scalar_lval(place, u.node.operand.span)?,
                };
                let old = self.read(&lv);
                let r = self.at_op(u.span, |lw| lw.apply(op, old, one));
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
        let last = self.in_block(s.span, |lw| {
            let mut last = Val::Void;
            let n = items.len();
            for (i, item) in items.iter().enumerate() {
                match &item.node {
                    BlockItem::Statement(st) if i + 1 == n => {
                        if let Statement::Expression(Some(e)) = &st.node {
                            lw.at(st.span);
                            last = lw.expr(e)?;
                        } else {
                            lw.stmt(st)?;
                        }
                    }
                    _ => lw.block_item(item)?,
                }
            }
            Ok(last)
        });
        self.scopes.pop();
        let mut last = last?;
        // Keep the value if the following code could change what it reads.
        if let Val::Int(v) = last {
            last = Val::Int(self.materialize(v));
        }
        Ok(last)
    }
}
