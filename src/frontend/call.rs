//! Calls of defined functions: inlined at each call site (the built-ins and undefined
//! functions are in [`super::builtins`]).
//!
//! Inlining: the arguments are evaluated in the caller's scope, right to left as gcc does (see
//! [`super::order`] for what makes a verdict independent of that order), and converted to the
//! parameter types; each call gets fresh parameter, local and return variables (`f::x#2`);
//! a pointer or array parameter is bound to the object its argument designates (a view of the
//! caller's array, or `x` for `&x`; see [`super::pointer`]), or is an address-only variable. A call of a function that is being inlined is recursion:
//! unsupported.

use super::builder::{FnCtx, Lower};
use super::repr::{declaration_key, Binding, RVal, Ret, Root, Val, ADDRESS};
use super::types::{CInt, CType};
use super::FrontendError;
use crate::cfa::{HavocKind, PVar, VarKind};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

impl<'a> Lower<'a> {
    /// The parameters of a function definition: names and types.
    pub fn parameters(
        &mut self,
        def: &FunctionDefinition,
    ) -> Result<(CType, Vec<(String, CType)>), FrontendError> {
        let (_, rt) = self.decl_specifiers(&def.specifiers, def.declarator.span)?;
        let mut d = &def.declarator;
        while let DeclaratorKind::Declarator(inner) = &d.node.kind.node {
            d = inner;
        }
        let mut params = Vec::new();
        // The return type, from the whole declarator: `int (*f(int k))(int)` returns a pointer
        // to a function, `int (*g(void))[3]` a pointer to an array.
        let ret = match self.declarator(rt.clone(), &def.declarator)?.1 {
            CType::Function(ret, _) => *ret,
            _ => return self.unsupported(def.declarator.span, "this function declarator"),
        };
        for dd in &d.node.derived {
            match &dd.node {
                DerivedDeclarator::Pointer(_) => {}
                DerivedDeclarator::Function(f) => {
                    if f.node.ellipsis == Ellipsis::Some {
                        return self.unsupported(f.span, "variadic function");
                    }
                    for p in &f.node.parameters {
                        let (_, pt) = self.decl_specifiers(&p.node.specifiers, p.span)?;
                        let (name, pt) = match &p.node.declarator {
                            Some(pd) => {
                                let (n, t, _) = self.declared(pt, pd, false)?;
                                (n, t)
                            }
                            None => (None, pt),
                        };
                        if pt == CType::Void && name.is_none() {
                            continue;
                        }
                        // A parameter of function type is a pointer to it (C11 6.7.6.3p8).
                        let pt = match pt {
                            f @ CType::Function(..) => CType::Pointer(Box::new(f)),
                            other => other,
                        };
                        let Some((n, _)) = name else {
                            return self.unsupported(p.span, "unnamed parameter in a definition");
                        };
                        params.push((n, pt));
                    }
                }
                DerivedDeclarator::KRFunction(ids) if ids.is_empty() => {}
                DerivedDeclarator::KRFunction(_) => {
                    return self.unsupported(dd.span, "K&R-style function definition")
                }
                _ => return self.unsupported(dd.span, "this function declarator"),
            }
        }
        Ok((ret, params))
    }

    /// Inlines `main` (its `int` parameters, if any, are nondet).
    pub fn inline_main(&mut self, def: &'a FunctionDefinition) -> Result<(), FrontendError> {
        let (_, params) = self.parameters(def)?;
        let mut bound = Vec::new();
        for (n, t) in params {
            match t.clone() {
                CType::Int(ty) => {
                    self.at(def.declarator.span);
                    let pos = Some(self.pos.clone());
                    let v = self.new_var(&format!("main::{n}#input"), ty, VarKind::Nondet, pos);
                    self.havoc(v, HavocKind::Uninitialized);
                    bound.push((
                        n,
                        t,
                        Val::Int(RVal {
                            t: self.var_term(v),
                            ty,
                        }),
                    ));
                }
                // `char **argv`: an error only if it is used.
                _ => bound.push((n, t, Val::Void)),
            }
        }
        self.body("main", def, bound).map(|_| ())
    }

    /// Inlines a call.
    pub fn inline(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        args: &[Node<Expression>],
        span: lang_c::span::Span,
    ) -> Result<Val, FrontendError> {
        let params = match self.enter(name, def, span)? {
            Ok(params) => params,
            Err(sink) => return Ok(sink),
        };
        if params.len() != args.len() {
            return self.error(
                span,
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    params.len(),
                    args.len()
                ),
            );
        }
        let types: Vec<CType> = params.iter().map(|p| p.1.clone()).collect();
        let names: Vec<String> = params.iter().map(|p| p.0.clone()).collect();
        let values = self.argument_values(name, &names, &types, args)?;
        self.inline_entered(name, def, params, values)
    }

    /// The parameters of a call of `name` that may be inlined, or the value after the
    /// recursion sink when `name` already has as many active calls as the bound allows.
    #[allow(clippy::type_complexity)]
    fn enter(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        span: lang_c::span::Span,
    ) -> Result<Result<Vec<(String, CType)>, Val>, FrontendError> {
        if self.call_stack.len() > 200 {
            return self.unsupported(span, "call nesting deeper than 200");
        }
        let (ret, params) = self.parameters(def)?;
        let active = self.call_stack.iter().filter(|f| *f == name).count();
        if active as u64 >= u64::from(self.opts.recursion_bound) {
            return self.recursion_sink(name, &ret, span).map(Err);
        }
        Ok(Ok(params))
    }

    /// Inlines a call of `name` whose arguments have been evaluated (`values`, in parameter
    /// order), as a call through a pointer does once for every function it may hold.
    pub fn inline_values(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        values: Vec<Val>,
        span: lang_c::span::Span,
    ) -> Result<Val, FrontendError> {
        match self.enter(name, def, span)? {
            Ok(params) => self.inline_entered(name, def, params, values),
            Err(sink) => Ok(sink),
        }
    }

    /// Inlines a call of `name` that [`Lower::enter`] admitted, with its parameters and the
    /// arguments' values.
    fn inline_entered(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        params: Vec<(String, CType)>,
        values: Vec<Val>,
    ) -> Result<Val, FrontendError> {
        let bound = params
            .into_iter()
            .zip(values)
            .map(|((pname, ty), v)| (pname, ty, v))
            .collect();
        let v = self.body(name, def, bound)?;
        if self.noreturn.contains(name) {
            // C11 6.7.4p8: a `_Noreturn` function that returns has undefined behaviour.
            let t = self.cfa.tm.tru();
            self.ub_check(None, t, &format!("`{name}`, declared noreturn, returned"));
        }
        Ok(v)
    }

    /// The arguments of a call of `name` evaluated (right to left, see [`super::order`]) and
    /// converted to the parameter types `types` (of the parameters called `names`).
    pub fn argument_values(
        &mut self,
        name: &str,
        names: &[String],
        types: &[CType],
        args: &[Node<Expression>],
    ) -> Result<Vec<Val>, FrontendError> {
        self.call_arguments(name, args, |lw, i, later_effects| {
            let (pty, a) = (&types[i], &args[i]);
            Ok(match pty {
                CType::Int(ty) => {
                    let r = lw.rval_for(a, *ty)?;
                    let t = lw.convert(r, *ty);
                    let r = RVal { t, ty: *ty };
                    let r = if later_effects { lw.materialize(r) } else { r };
                    (Val::Int(r), vec![r.t])
                }
                CType::Pointer(fnty) if matches!(**fnty, CType::Function(..)) => {
                    let v = lw.expr(a)?;
                    let r = lw.function_number(v, fnty, a.span)?;
                    let r = if later_effects { lw.materialize(r) } else { r };
                    (Val::Func(r, (**fnty).clone()), vec![r.t])
                }
                CType::Array(pointee, _) | CType::Pointer(pointee) => {
                    let v = lw.expr(a)?;
                    let v = match &**pointee {
                        CType::Int(to) => lw.view_as(&v, *to, a.span)?.unwrap_or(v),
                        _ => v,
                    };
                    if let Val::Ref(r, _) = v {
                        let r = if later_effects { lw.materialize(r) } else { r };
                        return Ok((Val::Ref(r, (**pointee).clone()), vec![r.t]));
                    }
                    match lw.bind_pointer(v.clone(), pointee, a.span)? {
                        // The target must not move if the callee changes what it reads.
                        Some(p) => (Val::Ptr(lw.freeze_pointer(p)), Vec::new()),
                        None => {
                            let r = lw.int_of(v, true, a.span)?;
                            let r = lw.address(r);
                            let r = if later_effects { lw.materialize(r) } else { r };
                            (Val::Addr(r), vec![r.t])
                        }
                    }
                }
                CType::Struct(def) => match lw.expr(a)? {
                    Val::Struct(src) if src.def == *def => {
                        // Copied into the parameter when the call starts; first into a
                        // temporary when a later argument could change it.
                        let src = if later_effects {
                            let pos = Some(lw.pos.clone());
                            let tmp = lw.new_struct(
                                &format!("{name}::{}#arg", names[i]),
                                def,
                                VarKind::Temporary,
                                &pos,
                            )?;
                            lw.copy_struct(&tmp, &src);
                            tmp
                        } else {
                            src
                        };
                        (Val::Struct(src), Vec::new())
                    }
                    _ => {
                        return lw.error(
                            a.span,
                            format!("argument of another type than `{}`", pty.describe()),
                        )
                    }
                },
                CType::Unsupported(w) => return lw.unsupported(a.span, w.clone()),
                other => {
                    return lw
                        .unsupported(a.span, format!("parameter of type {}", other.describe()))
                }
            })
        })
    }

    /// A recursive call beyond the recursion bound: an UNKNOWN sink (its arguments are not
    /// evaluated: nothing after the sink runs), and a value of the return type for the dead
    /// code that follows.
    fn recursion_sink(
        &mut self,
        name: &str,
        ret: &CType,
        span: lang_c::span::Span,
    ) -> Result<Val, FrontendError> {
        let t = self.cfa.tm.tru();
        let bound = self.opts.recursion_bound;
        let why = format!(
            "recursion bound (a call of `{name}` with {bound} calls of it active; --recursion-bound)"
        );
        self.at_op(span, |lw| lw.sink_if(t, &why));
        Ok(match ret {
            CType::Int(ty) => Val::Int(self.int_const(0, *ty)),
            CType::Pointer(q) if !matches!(**q, CType::Function(..)) => {
                let z = self.cfa.tm.bv_const(0, CInt::PTR.width(self.dm()));
                Val::Ref(
                    RVal {
                        t: z,
                        ty: CInt::PTR,
                    },
                    (**q).clone(),
                )
            }
            CType::Pointer(f) => {
                let w = super::repr::ADDRESS.width(self.dm());
                Val::Func(
                    RVal {
                        t: self.cfa.tm.bv_const(0, w),
                        ty: super::repr::ADDRESS,
                    },
                    (**f).clone(),
                )
            }
            CType::Struct(def) => {
                let pos = Some(self.pos.clone());
                Val::Struct(self.new_struct(
                    &format!("{name}::return"),
                    def,
                    VarKind::Temporary,
                    &pos,
                )?)
            }
            _ => Val::Void,
        })
    }

    /// Lowers the body of a function with bound parameters; returns the call's value. The
    /// commands of the call itself name the function's declarator as their origin.
    fn body(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        params: Vec<(String, CType, Val)>,
    ) -> Result<Val, FrontendError> {
        if !self.call_stack.is_empty() {
            self.mark_statement();
        }
        let saved_at = (self.pos.clone(), self.text.clone());
        self.at(def.declarator.span);
        let r = self.in_block(def.statement.span, |lw| lw.body_at(name, def, params));
        (self.pos, self.text) = saved_at;
        r
    }

    /// Where a call of `name` (defined by `def`) keeps its return value: `None` for `void` and
    /// for the outermost `main`, whose value is not used.
    fn return_slot(
        &mut self,
        name: &str,
        def: &FunctionDefinition,
    ) -> Result<Option<Ret>, FrontendError> {
        let (ret, _) = self.parameters(def)?;
        let var = |lw: &mut Self, ty: CInt| {
            let v = lw.new_var(
                &format!("{name}::return"),
                ty,
                VarKind::Return,
                Some(lw.pos.clone()),
            );
            lw.havoc(v, HavocKind::Uninitialized);
            v
        };
        Ok(match ret {
            // The value returned by `main` is not used.
            CType::Void | CType::Int(_) if name == "main" && self.call_stack.is_empty() => None,
            CType::Void => None,
            CType::Int(ty) => Some(Ret::Int(var(self, ty), ty)),
            CType::Pointer(q) if !matches!(*q, CType::Function(..)) => {
                Some(Ret::Ptr(var(self, CInt::PTR), *q))
            }
            CType::Pointer(f) => {
                let v = var(self, super::repr::ADDRESS);
                self.cfa.function_pointers.insert(v);
                Some(Ret::Func(v, *f))
            }
            CType::Struct(def) => {
                let pos = Some(self.pos.clone());
                let v = self.new_struct(&format!("{name}::return"), &def, VarKind::Return, &pos)?;
                for x in self.object_vars(&Binding::Struct(v.clone())) {
                    self.havoc(x, HavocKind::Uninitialized);
                }
                Some(Ret::Struct(v))
            }
            other => {
                return self.unsupported(
                    def.declarator.span,
                    format!("function returning {}", other.describe()),
                )
            }
        })
    }

    fn body_at(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        params: Vec<(String, CType, Val)>,
    ) -> Result<Val, FrontendError> {
        let ret = self.return_slot(name, def)?;
        let ret_loc = self.new_loc(&format!("return of {name}"));
        let saved_scopes = self.scopes.split_off(1);
        let saved_ctx = self.fctx.replace(FnCtx {
            name: name.to_string(),
            ret: ret.clone(),
            ret_loc,
            labels: HashMap::new(),
            defined_labels: HashMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            block_depth: self.mem.blocks.len(),
            switches: Vec::new(),
        });
        self.call_stack.push(name.to_string());
        self.scopes.push(HashMap::new());
        let result = self.bind_params_and_lower(name, def, params);
        self.call_stack.pop();
        let ctx = std::mem::replace(&mut self.fctx, saved_ctx);
        self.scopes.truncate(1);
        self.scopes.extend(saved_scopes);
        result?;
        if let Some(ctx) = &ctx {
            for (l, _) in ctx.labels.iter() {
                if !ctx.defined_labels.contains_key(l) {
                    return self.error(
                        def.statement.span,
                        format!("label `{l}` used but not defined in `{name}`"),
                    );
                }
            }
        }
        self.goto_loc(ret_loc);
        Ok(match ret {
            Some(Ret::Int(v, ty)) => Val::Int(RVal {
                t: self.var_term(v),
                ty,
            }),
            Some(Ret::Struct(v)) => Val::Struct(v),
            Some(Ret::Func(v, f)) => Val::Func(
                RVal {
                    t: self.var_term(v),
                    ty: super::repr::ADDRESS,
                },
                f,
            ),
            Some(Ret::Ptr(v, q)) => Val::Ref(
                RVal {
                    t: self.var_term(v),
                    ty: CInt::PTR,
                },
                q,
            ),
            None => Val::Void,
        })
    }

    fn bind_params_and_lower(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        params: Vec<(String, CType, Val)>,
    ) -> Result<(), FrontendError> {
        let pos = self.pos.clone();
        for (pname, pty, v) in params {
            let key = declaration_key(&format!("{name}::{pname}"), Some(&pos));
            let pointee = match pty {
                CType::Pointer(q) | CType::Array(q, _) => Some(*q),
                _ => None,
            };
            let declared = pointee.clone().unwrap_or(CType::Void);
            let v = match (v, pointee) {
                (v @ (Val::Ptr(_) | Val::Addr(_)), Some(q))
                    if self.mem.plan.general.contains(&key) =>
                {
                    let r = self.general_pointer(v, def.declarator.span)?;
                    Val::Ref(r, q)
                }
                (v, _) => v,
            };
            self.bind_param(name, &pname, v, declared, key, &pos, def.declarator.span)?;
        }
        self.stmt(&def.statement)?;
        let ret_loc = self.fctx()?.ret_loc;
        self.cfa
            .add_edge(self.cur, crate::cfa::Gcl::skip(), ret_loc);
        self.cur = self.new_loc("dead code");
        Ok(())
    }

    /// Parameter `pname` of `name` bound to the argument's value `v` (`declared` is the type a
    /// pointer parameter points to, `key` identifies its declaration for the memory plan,
    /// `pos` is where it is declared).
    #[allow(clippy::too_many_arguments)]
    fn bind_param(
        &mut self,
        name: &str,
        pname: &str,
        v: Val,
        declared: CType,
        key: String,
        pos: &crate::cfa::SrcPos,
        span: lang_c::span::Span,
    ) -> Result<(), FrontendError> {
        let var = format!("{name}::{pname}");
        match v {
            Val::Ref(r, q) => {
                let pv = self.param_var(&var, CInt::PTR, r.t, Some(pos.clone()));
                self.declare_object(Root::Scalar(pv, CInt::PTR));
                self.bind(pname, Binding::Ref(pv, q));
            }
            Val::Int(r) => {
                let pv = self.param_var(&var, r.ty, r.t, Some(self.pos.clone()));
                self.declare_object(Root::Scalar(pv, r.ty));
                self.bind(pname, Binding::Var(pv, r.ty));
            }
            Val::Ptr(p) => self.bind(pname, Binding::Pointer(p, key)),
            Val::Addr(r) => {
                let pv = self.param_var(&var, ADDRESS, r.t, Some(self.pos.clone()));
                self.bind(pname, Binding::PtrVar(pv, declared));
            }
            Val::Struct(src) => {
                let pos = Some(self.pos.clone());
                let v = self.new_struct(&var, &src.def, VarKind::Parameter, &pos)?;
                self.copy_struct(&v, &src);
                self.declare_struct_object(&super::repr::Place::Struct(v.clone()), span)?;
                self.bind(pname, Binding::Struct(v));
            }
            Val::Func(r, ty) => {
                let pv = self.param_var(&var, ADDRESS, r.t, Some(self.pos.clone()));
                self.bind(pname, Binding::FnPtr(pv, ty));
            }
            Val::Array(_) | Val::Structs(_) => {
                return Err(FrontendError::Internal("array parameter value".into()));
            }
            Val::Void => {
                let why = format!("parameter `{pname}` of `{name}` (pointers)");
                self.bind(pname, Binding::Invalid(why));
            }
        }
        Ok(())
    }

    /// A parameter variable `var` of type `ty` declared at `pos`, assigned the argument `t`.
    fn param_var(
        &mut self,
        var: &str,
        ty: CInt,
        t: crate::bv::TermId,
        pos: Option<crate::cfa::SrcPos>,
    ) -> PVar {
        let pv = self.new_var(var, ty, VarKind::Parameter, pos);
        self.assign(pv, t);
        pv
    }
}
