//! SV-COMP built-ins and calls of functions without a definition.
//!
//! Built-ins (whether or not the program defines them, except `__VERIFIER_assert` and
//! `assert`, which are inlined when defined): `__VERIFIER_nondet_<T>()` for the SV-COMP type
//! names (`bool`, `char`, `uchar`, `short`, `ushort`, `int`, `uint`, `long`, `ulong`,
//! `longlong`, `ulonglong`, `size_t`, `u8`…`u64`, `s8`…`s64`, …: a havoc of a fresh variable of
//! that type), `__VERIFIER_assume(c)`, `__VERIFIER_assert(c)`, `assert(c)`, `reach_error()`,
//! `__VERIFIER_error()`, `__assert_fail(…)`, `__assert(…)`, `__assert_perror_fail(…)`,
//! `abort()`, `exit(n)`, `_Exit(n)`, `__VERIFIER_atomic_begin/end()` (no-ops) and
//! `__builtin_expect(e, c)` (= `e`). Heap, thread and floating-point nondet functions are
//! unsupported.
//!
//! Functions of the C library and gcc builtins with a model are in [`super::libc`]. A call of a
//! function without a definition (or model) evaluates its arguments for their effects, may
//! write every global with external linkage that is not `const` (each is havocked, unless the
//! function is one of the C library's that writes no object of the program), and returns a
//! nondet value of its declared return type (`int` if undeclared), with a warning; passing it
//! a pointer to an object or an array is unsupported (it could write through it). Its result and
//! what it writes are havocs of kind [`HavocKind::UndefinedCall`]: a counterexample whose path
//! reads them is not a verdict unless asked for (`verify::UndefinedCalls`). A function declared
//! `noreturn` without a definition ends the execution.

use super::builder::Lower;
use super::repr::{Binding, RVal, Val};
use super::types::{CInt, CType, IntKind};
use super::FrontendError;
use crate::cfa::{HavocKind, SrcPos, VarKind};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// The type returned by `__VERIFIER_nondet_<suffix>`.
pub(super) fn nondet_type(suffix: &str, dm: crate::cfa::DataModel) -> Option<CInt> {
    use IntKind::*;
    let (k, s) = match suffix {
        "size_t" | "uintptr_t" => return Some(super::types::size_t(dm)),
        "ssize_t" | "ptrdiff_t" | "intptr_t" => (Long, true),
        "bool" | "_Bool" => (Bool, false),
        "char" | "schar" | "s8" | "i8" | "int8_t" => (Char, true),
        "uchar" | "unsigned_char" | "u8" | "uint8_t" => (Char, false),
        "short" | "sshort" | "s16" | "i16" | "int16_t" => (Short, true),
        "ushort" | "unsigned_short" | "u16" | "uint16_t" | "char16_t" => (Short, false),
        "int" | "sint" | "s32" | "i32" | "int32_t" | "wchar_t" => (Int, true),
        "uint" | "unsigned" | "unsigned_int" | "u32" | "uint32_t" | "char32_t" => (Int, false),
        "long" | "slong" => (Long, true),
        "ulong" | "unsigned_long" | "sector_t" | "pthread_t" => (Long, false),
        "longlong" | "slonglong" | "s64" | "i64" | "int64_t" | "loff_t" => (LongLong, true),
        "ulonglong" | "u64" | "uint64_t" => (LongLong, false),
        _ => return None,
    };
    Some(CInt::new(k, s))
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
            return match self.expr(&c.node.callee)? {
                Val::Func(f, ty) => self.call_through(f, &ty, c),
                _ => self.unsupported(c.span, "call of a value that is not a function"),
            };
        };
        if let Some(Binding::FnPtr(v, ty)) = self.lookup(&id.node.name).cloned() {
            let f = RVal {
                t: self.var_term(v),
                ty: super::repr::ADDRESS,
            };
            return self.call_through(f, &ty, c);
        }
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
            self.call_close = self.close_paren(c.span);
            let r = self.call_builtin(name, b, c);
            self.pos = saved;
            return r;
        }
        if name.starts_with("__VERIFIER_nondet_") {
            self.call_close = self.close_paren(c.span);
            // An unknown nondet type: use the declared return type.
            if let Some(Binding::Function(CType::Function(rt, _))) = self.lookup(name) {
                if let CType::Int(ty) = **rt {
                    return Ok(Val::Int(self.nondet(name, ty, true)));
                }
            }
            return self.unsupported(c.span, format!("nondet function `{name}` of unknown type"));
        }
        // The program's own definition of a function is what it calls, whatever its name.
        if let Some(def) = self.functions.get(name).copied() {
            return self.inline(name, def, args, c.span);
        }
        if is_heap_function(name) {
            return self.unsupported(c.span, format!("heap memory (`{name}`)"));
        }
        if name.starts_with("pthread_") {
            return self.unsupported(c.span, format!("threads (`{name}`)"));
        }
        if self.has_model(name) {
            return self.call_model(name, c);
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
                let what = format!("{name}({}) fails", self.src.snippet(a.span));
                self.reach_error(&what);
                self.cur = ok;
                Ok(Val::Void)
            }
            (Builtin::Assume | Builtin::Assert, _) => Err(arity(1, self)),
            (Builtin::Error, _) => {
                self.reach_error(&format!("{name}() is reachable"));
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

    /// The position of the closing parenthesis of a call at `span`.
    fn close_paren(&self, span: lang_c::span::Span) -> Option<SrcPos> {
        (!span.is_none() && span.end > span.start).then(|| self.src.pos(span.end - 1))
    }

    /// A fresh nondet value of a type.
    fn nondet(&mut self, function: &str, ty: CInt, builtin: bool) -> RVal {
        let pos = self.call_close.take().unwrap_or_else(|| self.pos.clone());
        let v = self.new_var(function, ty, VarKind::Nondet, Some(pos));
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
            Some(Binding::Invalid(why)) => {
                let why = why.clone();
                return self.unsupported(c.span, format!("call of `{name}`: {why}"));
            }
            Some(_) => {
                return self
                    .unsupported(c.span, format!("call of `{name}`, which is not a function"))
            }
            None => None,
        };
        self.undefined_call_arguments(name, c)?;
        if self.noreturn.contains(name) {
            // It never comes back: the execution ends here.
            let exit = self.cfa.exit;
            self.jump(exit);
            return Ok(Val::Void);
        }
        let rt = declared.clone().unwrap_or(CType::Int(CInt::INT));
        let pos = self.pos.clone();
        let effect = self.undefined_call_effect(name, c.span)?;
        let result = match rt {
            CType::Void => {
                self.warnings.push(format!(
                    "{pos}: warning: call of `{name}`, which has no definition{effect}"
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
                    "{pos}: warning: call of `{name}`{implicit}, which has no definition: returns a nondet value{effect}"
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

    /// The arguments of a call of `name`, which has no definition, evaluated for their effects
    /// (a pointer, structure or function pointer passed to it is unsupported: bitmc cannot say
    /// what the function does with it).
    fn undefined_call_arguments(
        &mut self,
        name: &str,
        c: &Node<CallExpression>,
    ) -> Result<(), FrontendError> {
        let args = &c.node.arguments;
        self.call_arguments(name, args, |lw, i, _| {
            let a = &args[i];
            match &a.node {
                Expression::StringLiteral(_) => Ok(((), Vec::new())),
                _ => match lw.expr(a)? {
                    Val::Array(_) | Val::Ptr(_) | Val::Structs(_) | Val::Ref(..) => lw.unsupported(
                        a.span,
                        format!("passing a pointer to `{name}`, which has no definition"),
                    ),
                    Val::Struct(_) => lw.unsupported(
                        a.span,
                        format!("passing a structure to `{name}`, which has no definition"),
                    ),
                    Val::Func(..) => lw.unsupported(
                        a.span,
                        format!("passing a function pointer to `{name}`, which has no definition"),
                    ),
                    Val::Int(r) | Val::Addr(r) => Ok(((), vec![r.t])),
                    Val::Void => Ok(((), Vec::new())),
                },
            }
        })?;
        Ok(())
    }

    /// What a call of `name`, which has no definition, may write: nothing for a library
    /// function known to write no program object, otherwise every global another translation
    /// unit could write (unsupported when it could redirect a global pointer); the words the
    /// warning adds.
    fn undefined_call_effect(&mut self, name: &str, span: Span) -> Result<String, FrontendError> {
        let written = if writes_no_program_object(name) {
            0
        } else {
            if let Some(p) = self.external_pointers.first() {
                let why = format!(
                    "call of `{name}`, which has no definition and could change what the global pointer `{p}` points to"
                );
                return self.unsupported(span, why);
            }
            self.havoc_external_globals(name)
        };
        let effect = match written {
            0 => String::new(),
            1 => "; it may write the 1 global it can see".to_string(),
            n => format!("; it may write any of the {n} globals it can see"),
        };
        Ok(effect)
    }
}

impl<'a> Lower<'a> {
    /// Havocs every global another translation unit could write (external linkage, not
    /// `const`), as a call of `function` may; returns how many variables.
    fn havoc_external_globals(&mut self, function: &str) -> usize {
        let vars = self.external_globals.clone();
        for &v in &vars {
            let ty = self.cfa.var(v).ty;
            self.havoc(
                v,
                HavocKind::UndefinedCall {
                    function: function.to_string(),
                    ty,
                },
            );
        }
        vars.len()
    }
}

/// Standard library functions that cannot write an object of the program: the C library only
/// writes the program's objects through pointers passed to it, and passing a pointer to a
/// function without a definition is unsupported.
fn writes_no_program_object(name: &str) -> bool {
    matches!(
        name,
        "printf"
            | "puts"
            | "putchar"
            | "getchar"
            | "rand"
            | "srand"
            | "random"
            | "srandom"
            | "abs"
            | "labs"
            | "llabs"
            | "sleep"
            | "usleep"
            | "time"
            | "toupper"
            | "tolower"
            | "isdigit"
            | "isalpha"
            | "isalnum"
            | "isspace"
            | "isupper"
            | "islower"
    )
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
