//! Function pointers: variables and parameters that hold a function, and calls through them.
//!
//! A function pointer's value is a number: 0 for null, and for each function whose address
//! the program takes somewhere (its name used other than as the callee of a call, found by a
//! scan of the whole translation unit before lowering) its position in that list plus one.
//! Distinct functions have distinct addresses and none is null, so assignment, copies, `==`,
//! `!=` and tests against null are exact on these numbers; converting a function pointer to
//! an integer or to another pointer type is unsupported (the number is not an address).
//!
//! A call through a pointer is a choice over the address-taken functions of the pointer's
//! type (same return type, same parameter types): the arguments are evaluated once, then for
//! each such function, when the pointer holds it, that function is inlined with them; a null or
//! any other value is undefined behaviour and ends the run in an UNKNOWN sink. An
//! address-taken function without a definition, when the pointer holds it, is an UNKNOWN sink
//! too. A function pointer declared without an initialiser holds no function until assigned
//! (its calls are the sink), rather than an arbitrary one. Function pointer members of
//! structures hold the same numbers: initialised, assigned, copied with their structure,
//! compared and called as `s.f(…)` or `p->f(…)`.

use super::builder::Lower;
use super::repr::{Binding, RVal, Val, ADDRESS};
use super::types::{CInt, CType};
use super::FrontendError;
use crate::cfa::{Loc, PVar, VarKind};
use lang_c::ast::{CallExpression, DeclaratorKind, Expression, MemberExpression, TranslationUnit};
use lang_c::span::{Node, Span};
use lang_c::visit::Visit;

/// The value an uninitialised function pointer holds: no function's number, not null.
const NO_FUNCTION: u64 = u64::MAX >> 1;

/// The names used other than as declarators, members, labels or callees of direct calls.
struct Taken(Vec<String>);

impl<'ast> Visit<'ast> for Taken {
    fn visit_identifier(&mut self, id: &'ast lang_c::ast::Identifier, _: &'ast Span) {
        if !self.0.contains(&id.name) {
            self.0.push(id.name.clone());
        }
    }

    fn visit_declarator_kind(&mut self, k: &'ast DeclaratorKind, span: &'ast Span) {
        if let DeclaratorKind::Declarator(_) = k {
            lang_c::visit::visit_declarator_kind(self, k, span);
        }
    }

    fn visit_member_expression(&mut self, m: &'ast MemberExpression, _: &'ast Span) {
        self.visit_expression(&m.expression.node, &m.expression.span);
    }

    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        if matches!(c.callee.node, Expression::Identifier(_)) {
            for a in &c.arguments {
                self.visit_expression(&a.node, &a.span);
            }
        } else {
            lang_c::visit::visit_call_expression(self, c, span);
        }
    }

    fn visit_label(&mut self, _: &'ast lang_c::ast::Label, _: &'ast Span) {}
}

/// The identifiers of a translation unit that may name a function whose address is taken, in
/// order of first use.
pub fn address_taken(unit: &TranslationUnit) -> Vec<String> {
    let mut t = Taken(Vec::new());
    t.visit_translation_unit(unit);
    t.0
}

impl<'a> Lower<'a> {
    /// The value of the function `name` used as a value (it decays to a pointer).
    pub fn function_value(
        &mut self,
        name: &str,
        ty: &CType,
        span: Span,
    ) -> Result<Val, FrontendError> {
        match self.taken.iter().position(|n| n == name) {
            Some(k) => Ok(Val::Func(
                RVal {
                    t: self
                        .cfa
                        .tm
                        .bv_const(k as u128 + 1, ADDRESS.width(self.dm())),
                    ty: ADDRESS,
                },
                ty.clone(),
            )),
            None => Err(FrontendError::Internal(format!(
                "function `{name}` used as a value at {} was not found by the address scan",
                self.span_pos(span)
            ))),
        }
    }

    /// The number a function pointer variable of type `fnty` gets from `v` (a function, a
    /// function pointer of the same type, or a null pointer constant).
    pub fn function_number(
        &mut self,
        v: Val,
        fnty: &CType,
        span: Span,
    ) -> Result<RVal, FrontendError> {
        match v {
            Val::Func(r, t) if t == *fnty => Ok(r),
            Val::Func(_, t) => self.unsupported(
                span,
                format!(
                    "conversion of a pointer to {} to a pointer to {}",
                    t.describe(),
                    fnty.describe()
                ),
            ),
            Val::Int(r) | Val::Addr(r) if self.cfa.tm.const_value(r.t) == Some(0) => {
                Ok(self.address(r))
            }
            _ => self.unsupported(
                span,
                "a function pointer given a value that is not a function or null",
            ),
        }
    }

    /// A new function pointer variable, null (globals) or holding no function (locals).
    pub fn new_function_pointer(
        &mut self,
        name: &str,
        fnty: &CType,
        kind: VarKind,
        span: Span,
    ) -> Binding {
        let pos = Some(self.span_pos(span));
        let v = self.new_var(name, ADDRESS, kind, pos);
        let init = if kind == VarKind::Global {
            0
        } else {
            NO_FUNCTION
        };
        let t = self
            .cfa
            .tm
            .bv_const(u128::from(init), ADDRESS.width(self.dm()));
        self.assign(v, t);
        Binding::FnPtr(v, fnty.clone())
    }

    /// The variables of the function pointers in an object: the function pointer members of a
    /// structure (or array of structures) and the elements of an array of function pointers.
    pub fn function_pointer_vars(&mut self, b: &Binding) -> Vec<crate::cfa::PVar> {
        let mut slots = Vec::new();
        match b {
            Binding::Struct(v) => self.slots(v, &mut slots),
            Binding::Structs(sa) => self.struct_array_slots(sa, &mut slots),
            Binding::Array(view) if matches!(view.arr.pointee, Some(CType::Function(..))) => {
                return view.arr.elems.clone();
            }
            _ => return Vec::new(),
        }
        let mut out = Vec::new();
        for slot in slots.iter().filter(|s| s.func.is_some()) {
            match &slot.lv {
                super::repr::Lval::Var(v, _) => out.push(*v),
                super::repr::Lval::Elem { arr, flat, .. } => {
                    if let Some(k) = self.cfa.tm.const_value(*flat) {
                        out.extend(arr.elems.get(k as usize).copied());
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Records the function pointers of a binding in the CFA (its traces print their values
    /// as the functions' names).
    pub fn note_function_pointers(&mut self, b: &Binding) {
        let vars = match b {
            Binding::FnPtr(v, _) => vec![*v],
            b => self.function_pointer_vars(b),
        };
        self.cfa.function_pointers.extend(vars);
    }

    /// Gives `vars` (function pointers declared without an initialiser) no function, as a
    /// function pointer variable declared without one holds.
    pub fn hold_no_function(&mut self, vars: &[crate::cfa::PVar]) {
        let none = self
            .cfa
            .tm
            .bv_const(u128::from(NO_FUNCTION), ADDRESS.width(self.dm()));
        for &v in vars {
            self.assign(v, none);
        }
    }

    /// A call through a function pointer whose number is `f` and whose type is `fnty`.
    pub fn call_through(
        &mut self,
        f: RVal,
        fnty: &CType,
        c: &Node<CallExpression>,
    ) -> Result<Val, FrontendError> {
        let CType::Function(ret, _) = fnty else {
            return Err(FrontendError::Internal("function pointer type".into()));
        };
        let CType::Function(_, Some(ptypes)) = fnty else {
            return self.unsupported(
                c.span,
                "a call through a pointer to a function without a prototype",
            );
        };
        let args = &c.node.arguments;
        if ptypes.len() != args.len() {
            return self.error(
                c.span,
                format!(
                    "{} argument(s) for a pointer to a function of {}",
                    args.len(),
                    ptypes.len()
                ),
            );
        }
        // C leaves open whether the pointer or the arguments are evaluated first.
        let callee = self.effects_since(self.effects_mark(), &[f.t]);
        let f = self.materialize(f);
        let m = self.effects_mark();
        let names: Vec<String> = (0..args.len()).map(|i| format!("arg{i}")).collect();
        let values = self.argument_values("(call through a pointer)", &names, ptypes, args)?;
        let fx = self.effects_since(m, &[]);
        self.check_order(
            &[callee, fx],
            "function pointer and the arguments of a call",
        );
        let result = match &**ret {
            CType::Void => None,
            CType::Int(ty) => Some((self.temp(*ty), *ty)),
            other => {
                return self.unsupported(
                    c.span,
                    format!(
                        "a call through a function pointer returning {}",
                        other.describe()
                    ),
                )
            }
        };
        let join = self.new_loc("after the call through a pointer");
        self.branch_to_targets(f, fnty, &values, result, join, c.span)?;
        // Any other value: the sink, and nothing after it (no path joins the others, so the
        // result is written on every path that reads it).
        let t = self.cfa.tm.tru();
        self.at_op(c.span, |lw| {
            lw.ub_check(None, t, "call through a null or invalid function pointer")
        });
        self.cur = join;
        Ok(match result {
            Some((r, ty)) => Val::Int(RVal {
                t: self.var_term(r),
                ty,
            }),
            None => Val::Void,
        })
    }
    /// One branch per address-taken function of type `fnty`, taken when the pointer `f` holds
    /// its number: the function inlined with `values` (its result converted into `result`),
    /// or a sink for one without a definition; each branch ends at `join`, the current
    /// location is where no number matched.
    fn branch_to_targets(
        &mut self,
        f: RVal,
        fnty: &CType,
        values: &[Val],
        result: Option<(PVar, CInt)>,
        join: Loc,
        span: Span,
    ) -> Result<(), FrontendError> {
        let w = ADDRESS.width(self.dm());
        for (k, name) in self.taken.clone().iter().enumerate() {
            let Some(Binding::Function(t)) = self.scopes[0].get(name).cloned() else {
                continue;
            };
            if !same_function_type(&t, fnty) {
                continue;
            }
            let kc = self.cfa.tm.bv_const(k as u128 + 1, w);
            let hit = self.cfa.tm.eq(f.t, kc);
            let (then, other) = self.branch(hit);
            self.cur = then;
            match self.functions.get(name).copied() {
                Some(def) => {
                    let v = self.inline_values(name, def, values.to_vec(), span)?;
                    if let (Some((r, ty)), Val::Int(x)) = (result, v) {
                        let t = self.convert(x, ty);
                        self.assign(r, t);
                    }
                }
                None => {
                    let t = self.cfa.tm.tru();
                    let why =
                        format!("call of `{name}`, which has no definition, through a pointer");
                    self.at_op(span, |lw| lw.sink_if(t, &why));
                }
            }
            self.goto_loc(join);
            self.cur = other;
        }
        Ok(())
    }
}

/// Whether two function types are the same type (C11 6.7.6.3p15 for prototypes): equal return
/// and parameter types.
fn same_function_type(a: &CType, b: &CType) -> bool {
    match (a, b) {
        (CType::Function(ra, Some(pa)), CType::Function(rb, Some(pb))) => ra == rb && pa == pb,
        _ => false,
    }
}
