//! GNU attributes (`__attribute__((…))`): each one is either implemented, accepted because it
//! does not change what a program computes (the list below says why), or rejected by name.
//!
//! Implemented:
//! - `mode(M)` on an integer type gives it the width of machine mode `M` (`QI`/`byte` 8, `HI`
//!   16, `SI` 32, `DI` 64, `word` and `pointer` the data model's register and pointer width),
//!   keeping its signedness; glibc declares `register_t` with `mode(__word__)`;
//! - `noreturn` (like `_Noreturn`): a defined function that returns anyway has undefined
//!   behaviour there (C11 6.7.4p8), which ends the execution in an UNKNOWN sink; a call of an
//!   undeclared one ends the execution, as the function never comes back.
//!
//! Rejected (`unsupported` when the declaration is used, or at once where it takes effect without
//! a use): `constructor` and `destructor` (code that runs before or after `main` without a call),
//! `cleanup` (a call at the end of a scope), `alias` and `ifunc` (a second name for another
//! object), `vector_size` (vector types), `packed` on an enumeration (it shrinks the type),
//! `aligned` or `packed` on a type (they change its alignment or size; on a variable they are
//! accepted), `scalar_storage_order`, `transparent_union`, and every attribute not named in this
//! file.

use super::builder::Lower;
use super::types::{CInt, CType, IntKind};
use crate::cfa::DataModel;
use lang_c::ast::{
    DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, Expression, Extension,
    PointerQualifier,
};
use lang_c::span::{Node, Span};

/// What an attribute is to bitmc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrClass {
    /// No effect on the values a program computes.
    NoEffect,
    Mode,
    Noreturn,
    /// Runs code without a call (`constructor`, `destructor`): rejected where it is defined.
    RunsCode,
    /// Layout only (`aligned`, `packed`): no effect on a variable or a function, but on a type
    /// it changes its alignment or size, so it is rejected in a typedef and among specifiers.
    Layout,
    /// Not supported: rejected where the declaration is used.
    Rejected,
}

/// An attribute's name without the optional `__` around it.
pub fn bare_name(name: &str) -> &str {
    let n = name.strip_prefix("__").unwrap_or(name);
    n.strip_suffix("__").unwrap_or(n)
}

/// The class of an attribute by name.
pub fn classify(name: &str) -> AttrClass {
    match bare_name(name) {
        "mode" => AttrClass::Mode,
        "noreturn" => AttrClass::Noreturn,
        "constructor" | "destructor" => AttrClass::RunsCode,
        "aligned" | "packed" => AttrClass::Layout,
        // Diagnostics and documentation only.
        "unused"
        | "used"
        | "deprecated"
        | "unavailable"
        | "warn_unused_result"
        | "format"
        | "format_arg"
        | "nonnull"
        | "returns_nonnull"
        | "sentinel"
        | "nonstring"
        | "access"
        | "fd_arg"
        | "fd_arg_read"
        | "fd_arg_write"
        | "null_terminated_string_arg"
        | "warning"
        | "error"
        | "designated_init"
        | "counted_by"
        | "fallthrough"
        | "maybe_unused"
        | "tainted_args"
        | "alloc_size"
        | "alloc_align"
        | "assume_aligned"
        | "malloc"
        | "deallocator"
        | "nodiscard"
        | "unsequenced"
        | "reproducible" => AttrClass::NoEffect,
        // Code generation, optimisation and linkage: the program computes the same values.
        "nothrow"
        | "leaf"
        | "pure"
        | "const"
        | "cold"
        | "hot"
        | "always_inline"
        | "noinline"
        | "gnu_inline"
        | "artificial"
        | "flatten"
        | "noclone"
        | "noipa"
        | "no_icf"
        | "optimize"
        | "target"
        | "target_clones"
        | "regparm"
        | "stdcall"
        | "cdecl"
        | "fastcall"
        | "thiscall"
        | "ms_abi"
        | "sysv_abi"
        | "no_instrument_function"
        | "no_profile_instrument_function"
        | "no_stack_protector"
        | "stack_protect"
        | "no_sanitize"
        | "no_sanitize_address"
        | "no_sanitize_thread"
        | "no_sanitize_undefined"
        | "no_split_stack"
        | "zero_call_used_regs"
        | "externally_visible"
        | "visibility"
        | "section"
        | "no_reorder"
        | "weak"
        | "returns_twice"
        | "may_alias"
        | "naked"
        | "noplt"
        | "patchable_function_entry"
        | "symver"
        | "copy"
        | "retain"
        | "nocommon"
        | "common"
        | "expected_throw"
        | "no_caller_saved_registers"
        | "indirect_branch"
        | "function_return"
        | "force_align_arg_pointer" => AttrClass::NoEffect,
        _ => AttrClass::Rejected,
    }
}

/// An attribute as written: its name, where, and its arguments.
pub type Attr = (String, Span, Vec<Node<Expression>>);

/// The attributes of declaration specifiers.
pub fn spec_attributes(specs: &[Node<DeclarationSpecifier>]) -> Vec<Attr> {
    let mut out = Vec::new();
    for s in specs {
        if let DeclarationSpecifier::Extension(exts) = &s.node {
            collect(exts, &mut out);
        }
    }
    out
}

/// The attributes among specifiers and qualifiers (of a structure member or a type name).
pub fn qualifier_attributes(specs: &[Node<lang_c::ast::SpecifierQualifier>]) -> Vec<Attr> {
    let mut out = Vec::new();
    for s in specs {
        if let lang_c::ast::SpecifierQualifier::Extension(exts) = &s.node {
            collect(exts, &mut out);
        }
    }
    out
}

/// The attributes written in a declarator (after it, after its `*`s, in nested declarators).
pub fn declarator_attributes(d: &Node<Declarator>) -> Vec<Attr> {
    let mut out = Vec::new();
    let mut d = d;
    loop {
        collect(&d.node.extensions, &mut out);
        for dd in &d.node.derived {
            if let DerivedDeclarator::Pointer(qs) = &dd.node {
                for q in qs {
                    if let PointerQualifier::Extension(exts) = &q.node {
                        collect(exts, &mut out);
                    }
                }
            }
        }
        match &d.node.kind.node {
            DeclaratorKind::Declarator(inner) => d = inner,
            _ => break,
        }
    }
    out
}

fn collect(exts: &[Node<Extension>], out: &mut Vec<Attr>) {
    for e in exts {
        if let Extension::Attribute(a) = &e.node {
            out.push((a.name.node.clone(), e.span, a.arguments.clone()));
        }
    }
}

/// The integer kind of machine mode `mode` (its name without `__`), if it is one bitmc has.
fn mode_kind(mode: &str, dm: DataModel) -> Option<IntKind> {
    let long64 = match dm {
        DataModel::Ilp32 => IntKind::LongLong,
        DataModel::Lp64 => IntKind::Long,
    };
    Some(match mode {
        "QI" | "byte" => IntKind::Char,
        "HI" => IntKind::Short,
        "SI" => IntKind::Int,
        "DI" => long64,
        "word" | "pointer" | "unwind_word" => match dm {
            DataModel::Ilp32 => IntKind::Int,
            DataModel::Lp64 => IntKind::Long,
        },
        _ => return None,
    })
}

impl<'a> Lower<'a> {
    /// Applies attributes to a type: `mode` changes an integer type, a rejected attribute makes
    /// the type unsupported (an error where it is used). `on_type`: the attributes apply to a
    /// type (specifiers, typedefs) rather than to a variable or function. Returns the type and
    /// whether a `noreturn` was among them.
    pub fn apply_attributes(&self, mut ty: CType, attrs: &[Attr], on_type: bool) -> (CType, bool) {
        let mut noreturn = false;
        for (name, span, args) in attrs {
            let class = match classify(name) {
                AttrClass::Layout if on_type => AttrClass::Rejected,
                c => c,
            };
            match class {
                AttrClass::NoEffect | AttrClass::RunsCode | AttrClass::Layout => {}
                AttrClass::Noreturn => noreturn = true,
                AttrClass::Mode => {
                    let mode = match args.as_slice() {
                        [a] => match &a.node {
                            Expression::Identifier(id) => bare_name(&id.node.name).to_string(),
                            _ => String::new(),
                        },
                        _ => String::new(),
                    };
                    ty = match (ty, mode_kind(&mode, self.dm())) {
                        (CType::Int(i), Some(k)) if i.kind != IntKind::Bool => {
                            CType::Int(CInt::new(k, i.signed))
                        }
                        (CType::Unsupported(w), _) => CType::Unsupported(w),
                        _ => CType::Unsupported(format!(
                            "attribute `mode({mode})` at {}",
                            self.span_pos(*span)
                        )),
                    };
                }
                AttrClass::Rejected => {
                    if !matches!(ty, CType::Unsupported(_)) {
                        ty = CType::Unsupported(format!(
                            "attribute `{}` at {}",
                            bare_name(name),
                            self.span_pos(*span)
                        ));
                    }
                }
            }
        }
        (ty, noreturn)
    }
}
