//! Function calls: SV-COMP built-ins, inlining of defined functions, and calls to undefined
//! functions (a nondet return value and a warning).
//!
//! Built-ins (whether or not the program defines them, except `__VERIFIER_assert` and
//! `assert`, which are inlined when defined): `__VERIFIER_nondet_<T>()` (a havoc of a fresh
//! variable of type `T`), `__VERIFIER_assume(c)`, `__VERIFIER_assert(c)`, `assert(c)`,
//! `reach_error()`, `__VERIFIER_error()`, `__assert_fail(…)`, `__assert(…)`,
//! `__assert_perror_fail(…)`, `abort()`, `exit(n)`, `_Exit(n)`, `__VERIFIER_atomic_begin/end()`
//! (no-ops) and `__builtin_expect(e, c)` (= `e`). Heap and thread functions are unsupported.
//!
//! Inlining: the arguments are evaluated left to right in the caller's scope and converted to
//! the parameter types; each call gets fresh parameter, local and return variables (`f::x#2`);
//! an array argument is passed as a view of the caller's array, and `&x` of a scalar binds a
//! pointer parameter to `x`. A call of a function that is being inlined is recursion:
//! unsupported.

use super::builder::{Binding, FnCtx, Lower, RVal};
use super::expr::{has_side_effects, Val};
use super::types::{CInt, CType, IntKind};
use super::FrontendError;
use crate::cfa::{HavocKind, VarKind};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// The type returned by `__VERIFIER_nondet_<suffix>`.
fn nondet_type(suffix: &str, dm: crate::cfa::DataModel) -> Option<CInt> {
    use IntKind::*;
    let (k, s) = match suffix {
        "size_t" => return Some(super::types::size_t(dm)),
        "ssize_t" | "ptrdiff_t" => (Long, true),
        "bool" | "_Bool" => (Bool, false),
        "char" => (Char, true),
        "schar" => (Char, true),
        "uchar" | "unsigned_char" => (Char, false),
        "short" => (Short, true),
        "ushort" | "unsigned_short" => (Short, false),
        "int" | "s32" | "i32" => (Int, true),
        "uint" | "unsigned" | "unsigned_int" | "u32" => (Int, false),
        "long" => (Long, true),
        "ulong" | "unsigned_long" => (Long, false),
        "longlong" | "s64" | "i64" | "loff_t" => (LongLong, true),
        "ulonglong" | "u64" => (LongLong, false),
        "u8" => (Char, false),
        "s8" | "i8" => (Char, true),
        "u16" => (Short, false),
        "s16" | "i16" => (Short, true),
        _ => return None,
    };
    Some(CInt::new(k, s))
}

/// The value and type of a character constant such as `'a'`, `'\n'`, `'\x41'` or `'\101'`
/// (type `int`, the value of a `char`, which is signed), or of a wide one (`L'a'`: `int`,
/// `u'a'`: `unsigned short`, `U'a'`: `unsigned int`; ASCII only).
pub fn char_literal(s: &str) -> Option<(i128, CInt)> {
    let (wide, s) = match s.chars().next()? {
        'L' => (Some(CInt::INT), &s[1..]),
        'u' => (Some(CInt::new(IntKind::Short, false)), &s[1..]),
        'U' => (Some(CInt::UINT), &s[1..]),
        _ => (None, s),
    };
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let c = chars.next()?;
    let v: u32 = if c == '\\' {
        let e = chars.next()?;
        let simple = match e {
            'n' => Some(10),
            't' => Some(9),
            'r' => Some(13),
            'a' => Some(7),
            'b' => Some(8),
            'f' => Some(12),
            'v' => Some(11),
            'e' => Some(27),
            '\\' | '\'' | '"' | '?' => Some(e as u32),
            _ => None,
        };
        match simple {
            Some(v) => v,
            None if e == 'x' => {
                let hex: String = chars.by_ref().collect();
                u32::from_str_radix(&hex, 16).ok().filter(|v| *v <= 0xff)?
            }
            None if e.is_digit(8) => {
                let oct: String = std::iter::once(e).chain(chars.by_ref()).collect();
                if oct.len() > 3 {
                    return None;
                }
                u32::from_str_radix(&oct, 8).ok().filter(|v| *v <= 0xff)?
            }
            None => return None,
        }
    } else {
        let v = c as u32;
        if v > 0x7f {
            return None;
        }
        v
    };
    if chars.next().is_some() {
        return None;
    }
    Some(match wide {
        Some(ty) => (i128::from(v), ty),
        None => (i128::from(v as u8 as i8), CInt::INT),
    })
}

/// What a built-in call does.
enum Builtin {
    Nondet(CInt),
    Assume,
    Assert,
    Error,
    Exit,
    Nop,
    Expect,
}

impl<'a> Lower<'a> {
    fn builtin(&self, name: &str) -> Option<Builtin> {
        if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
            return nondet_type(suffix, self.dm()).map(Builtin::Nondet);
        }
        Some(match name {
            "__VERIFIER_assume" => Builtin::Assume,
            "__VERIFIER_assert" | "assert" if !self.functions.contains_key(name) => Builtin::Assert,
            "reach_error"
            | "__VERIFIER_error"
            | "__assert_fail"
            | "__assert"
            | "__assert_perror_fail" => Builtin::Error,
            "abort" | "exit" | "_Exit" | "_exit" => Builtin::Exit,
            "__VERIFIER_atomic_begin" | "__VERIFIER_atomic_end" => Builtin::Nop,
            "__builtin_expect" => Builtin::Expect,
            _ => return None,
        })
    }

    /// A call expression.
    pub fn call(&mut self, c: &Node<CallExpression>) -> Result<Val, FrontendError> {
        let Expression::Identifier(id) = &c.node.callee.node else {
            return self.unsupported(c.span, "call through a function pointer");
        };
        let name = id.node.name.as_str();
        let args = &c.node.arguments;
        if matches!(name, "asm" | "__asm" | "__asm__") {
            return self.unsupported(c.span, "inline assembly");
        }
        if matches!(name, "__VERIFIER_nondet_float" | "__VERIFIER_nondet_double") {
            return self.unsupported(c.span, format!("floating point (`{name}`)"));
        }
        if name.starts_with("__VERIFIER_nondet_pointer") {
            return self.unsupported(c.span, format!("pointers (`{name}`)"));
        }
        if let Some(b) = self.builtin(name) {
            // The origin of a nondet value is the call itself.
            let saved = std::mem::replace(&mut self.pos, self.src.span_pos(c.span));
            let r = self.call_builtin(name, b, c);
            self.pos = saved;
            return r;
        }
        if name.starts_with("__VERIFIER_nondet_") {
            // An unknown nondet type: use the declared return type.
            if let Some(Binding::Function(CType::Function(rt, _))) = self.lookup(name) {
                if let CType::Int(ty) = **rt {
                    return Ok(Val::Int(self.nondet(name, ty, true)));
                }
            }
            return self.unsupported(c.span, format!("nondet function `{name}` of unknown type"));
        }
        if is_heap_function(name) {
            return self.unsupported(c.span, format!("heap memory (`{name}`)"));
        }
        if name.starts_with("pthread_") {
            return self.unsupported(c.span, format!("threads (`{name}`)"));
        }
        if let Some(def) = self.functions.get(name).copied() {
            return self.inline(name, def, args, c.span);
        }
        self.undefined_call(name, c)
    }

    fn call_builtin(
        &mut self,
        name: &str,
        b: Builtin,
        c: &Node<CallExpression>,
    ) -> Result<Val, FrontendError> {
        let args = c.node.arguments.as_slice();
        let arity = |n: usize, lw: &Lower| FrontendError::Parse {
            pos: lw.span_pos(c.span),
            msg: format!("`{name}` takes {n} argument(s)"),
        };
        match (b, args) {
            (Builtin::Nondet(ty), []) => Ok(Val::Int(self.nondet(name, ty, true))),
            (Builtin::Nondet(_), _) => Err(arity(0, self)),
            (Builtin::Assume, [a]) => {
                let cond = self.cond(a)?;
                self.assume(cond);
                Ok(Val::Void)
            }
            (Builtin::Assert, [a]) => {
                let cond = self.cond(a)?;
                let (ok, fail) = self.branch(cond);
                self.cur = fail;
                self.reach_error(&format!("{name} failed"));
                self.cur = ok;
                Ok(Val::Void)
            }
            (Builtin::Assume | Builtin::Assert, _) => Err(arity(1, self)),
            (Builtin::Error, _) => {
                self.reach_error(&format!("call of {name}"));
                Ok(Val::Void)
            }
            (Builtin::Exit, _) => {
                for a in args {
                    self.effect(a)?;
                }
                let exit = self.cfa.exit;
                self.jump(exit);
                Ok(Val::Void)
            }
            (Builtin::Nop, _) => Ok(Val::Void),
            (Builtin::Expect, [a, b]) => {
                let v = self.rval(a)?;
                let v = self.materialize(v);
                self.effect(b)?;
                Ok(Val::Int(v))
            }
            (Builtin::Expect, _) => Err(arity(2, self)),
        }
    }

    /// A fresh nondet value of a type.
    fn nondet(&mut self, function: &str, ty: CInt, builtin: bool) -> RVal {
        let v = self.new_var(function, ty, VarKind::Nondet, Some(self.pos.clone()));
        let it = ty.int_type(self.dm());
        let kind = if builtin {
            HavocKind::NondetCall {
                function: function.to_string(),
                ty: it,
            }
        } else {
            HavocKind::UndefinedCall {
                function: function.to_string(),
                ty: it,
            }
        };
        self.havoc(v, kind);
        RVal {
            t: self.var_term(v),
            ty,
        }
    }

    /// A call of a function without a definition: its arguments are evaluated for their
    /// effects and it returns a nondet value of its return type.
    fn undefined_call(
        &mut self,
        name: &str,
        c: &Node<CallExpression>,
    ) -> Result<Val, FrontendError> {
        let declared = match self.lookup(name) {
            Some(Binding::Function(CType::Function(rt, _))) => Some((**rt).clone()),
            Some(_) => {
                return self
                    .unsupported(c.span, format!("call of `{name}`, which is not a function"))
            }
            None => None,
        };
        for a in &c.node.arguments {
            match &a.node {
                Expression::StringLiteral(_) => {}
                _ => match self.expr(a)? {
                    Val::Array(_) | Val::Ptr(_) => {
                        return self.unsupported(
                            a.span,
                            format!("passing a pointer to `{name}`, which has no definition"),
                        )
                    }
                    Val::Int(_) | Val::Void => {}
                },
            }
        }
        let rt = declared.clone().unwrap_or(CType::Int(CInt::INT));
        let pos = self.pos.clone();
        let result = match rt {
            CType::Void => {
                self.warnings.push(format!(
                    "{pos}: warning: call of `{name}`, which has no definition: ignored"
                ));
                Val::Void
            }
            CType::Int(ty) => {
                let implicit = if declared.is_none() {
                    " (implicitly declared)"
                } else {
                    ""
                };
                self.warnings.push(format!(
                    "{pos}: warning: call of `{name}`{implicit}, which has no definition: returns a nondet value"
                ));
                Val::Int(self.nondet(name, ty, false))
            }
            other => {
                return self.unsupported(
                    c.span,
                    format!("call of `{name}` returning {}", other.describe()),
                );
            }
        };
        Ok(result)
    }

    /// The parameters of a function definition: names and types.
    fn parameters(
        &mut self,
        def: &FunctionDefinition,
    ) -> Result<(CType, Vec<(String, CType)>), FrontendError> {
        let (_, rt) = self.decl_specifiers(&def.specifiers, def.declarator.span)?;
        let mut d = &def.declarator;
        while let DeclaratorKind::Declarator(inner) = &d.node.kind.node {
            d = inner;
        }
        let mut params = Vec::new();
        let mut ret = rt.clone();
        // The return type: pointers before the function declarator.
        for dd in &d.node.derived {
            match &dd.node {
                DerivedDeclarator::Pointer(_) => ret = CType::Pointer(Box::new(ret)),
                DerivedDeclarator::Function(f) => {
                    if f.node.ellipsis == Ellipsis::Some {
                        return self.unsupported(f.span, "variadic function");
                    }
                    for p in &f.node.parameters {
                        let (_, pt) = self.decl_specifiers(&p.node.specifiers, p.span)?;
                        let (name, pt) = match &p.node.declarator {
                            Some(pd) => self.declarator(pt, pd)?,
                            None => (None, pt),
                        };
                        if pt == CType::Void && name.is_none() {
                            continue;
                        }
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
            match t {
                CType::Int(ty) => {
                    self.at(def.declarator.span);
                    let pos = Some(self.pos.clone());
                    let v = self.new_var(&format!("main::{n}#input"), ty, VarKind::Nondet, pos);
                    self.havoc(v, HavocKind::Uninitialized);
                    bound.push((
                        n,
                        Val::Int(RVal {
                            t: self.var_term(v),
                            ty,
                        }),
                    ));
                }
                // `char **argv`: an error only if it is used.
                _ => bound.push((n, Val::Void)),
            }
        }
        self.body("main", def, bound).map(|_| ())
    }

    /// Inlines a call.
    fn inline(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        args: &[Node<Expression>],
        span: lang_c::span::Span,
    ) -> Result<Val, FrontendError> {
        if self.call_stack.iter().any(|f| f == name) {
            return self.unsupported(span, format!("recursion (`{name}` calls itself)"));
        }
        if self.call_stack.len() > 200 {
            return self.unsupported(span, "call nesting deeper than 200");
        }
        let (_, params) = self.parameters(def)?;
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
        let mut bound = Vec::new();
        for (i, ((pname, pty), a)) in params.iter().zip(args).enumerate() {
            let later_effects = args[i + 1..].iter().any(|x| has_side_effects(&x.node));
            let v = match pty {
                CType::Int(ty) => {
                    let r = self.rval(a)?;
                    let t = self.convert(r, *ty);
                    let r = RVal { t, ty: *ty };
                    Val::Int(if later_effects {
                        self.materialize(r)
                    } else {
                        r
                    })
                }
                CType::Array(..) | CType::Pointer(_) => match self.expr(a)? {
                    Val::Array(mut view) => {
                        // The view must not move if the callee changes what its base reads.
                        let base = RVal {
                            t: view.base,
                            ty: CInt::new(IntKind::LongLong, false),
                        };
                        view.base = self.materialize(base).t;
                        Val::Array(view)
                    }
                    v @ Val::Ptr(_) => v,
                    _ => {
                        return self.unsupported(
                            a.span,
                            format!("argument for the pointer parameter `{pname}`"),
                        )
                    }
                },
                CType::Unsupported(w) => return self.unsupported(a.span, w.clone()),
                other => {
                    return self
                        .unsupported(a.span, format!("parameter of type {}", other.describe()))
                }
            };
            bound.push((pname.clone(), v));
        }
        self.body(name, def, bound)
    }

    /// Lowers the body of a function with bound parameters; returns the call's value. The
    /// commands of the call itself name the function's declarator as their origin.
    fn body(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        params: Vec<(String, Val)>,
    ) -> Result<Val, FrontendError> {
        let saved_at = (self.pos.clone(), self.text.clone());
        self.at(def.declarator.span);
        let r = self.body_at(name, def, params);
        (self.pos, self.text) = saved_at;
        r
    }

    fn body_at(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        params: Vec<(String, Val)>,
    ) -> Result<Val, FrontendError> {
        let (ret, _) = self.parameters(def)?;
        let ret = match ret {
            // The value returned by `main` is not used.
            CType::Void | CType::Int(_) if name == "main" && self.call_stack.is_empty() => None,
            CType::Void => None,
            CType::Int(ty) => {
                let v = self.new_var(
                    &format!("{name}::return"),
                    ty,
                    VarKind::Return,
                    Some(self.pos.clone()),
                );
                self.havoc(v, HavocKind::Uninitialized);
                Some((v, ty))
            }
            other => {
                return self.unsupported(
                    def.declarator.span,
                    format!("function returning {}", other.describe()),
                )
            }
        };
        let ret_loc = self.new_loc(&format!("return of {name}"));
        let saved_scopes = self.scopes.split_off(1);
        let saved_ctx = self.fctx.replace(FnCtx {
            name: name.to_string(),
            ret,
            ret_loc,
            labels: HashMap::new(),
            defined_labels: HashMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
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
            Some((v, ty)) => Val::Int(RVal {
                t: self.var_term(v),
                ty,
            }),
            None => Val::Void,
        })
    }

    fn bind_params_and_lower(
        &mut self,
        name: &str,
        def: &'a FunctionDefinition,
        params: Vec<(String, Val)>,
    ) -> Result<(), FrontendError> {
        for (pname, v) in params {
            match v {
                Val::Int(r) => {
                    let pos = Some(self.pos.clone());
                    let pv =
                        self.new_var(&format!("{name}::{pname}"), r.ty, VarKind::Parameter, pos);
                    self.assign(pv, r.t);
                    self.bind(&pname, Binding::Var(pv, r.ty));
                }
                Val::Array(view) => self.bind(&pname, Binding::Array(view)),
                Val::Ptr(lv) => self.bind(&pname, Binding::Alias(lv)),
                Val::Void => {
                    let why = format!("parameter `{pname}` of `{name}` (pointers)");
                    self.bind(&pname, Binding::Invalid(why));
                }
            }
        }
        self.stmt(&def.statement)?;
        let ret_loc = self.fctx()?.ret_loc;
        self.cfa
            .add_edge(self.cur, crate::cfa::Gcl::skip(), ret_loc);
        self.cur = self.new_loc("dead code");
        Ok(())
    }
}

fn is_heap_function(name: &str) -> bool {
    matches!(
        name,
        "malloc"
            | "calloc"
            | "realloc"
            | "free"
            | "alloca"
            | "__builtin_alloca"
            | "valloc"
            | "memalign"
    )
}
