//! Lowering a translation unit: its globals, then `main` inlined, repeated under a growing
//! memory plan until a lowering learns nothing new (see [`super::memory`]).

use super::builder::Lower;
use super::parse::SourceMap;
use super::repr::{Binding, MemPlan};
use super::types::CType;
use super::{FrontendError, FrontendOptions, Lowered};
use crate::cfa::{Cfa, Gcl, HavocKind, SrcPos};
use lang_c::ast::TranslationUnit;

/// Lowers a translation unit: globals, then `main` inlined.
pub fn lower_unit(
    unit: &TranslationUnit,
    src: &SourceMap,
    opts: &FrontendOptions,
) -> Result<Lowered, FrontendError> {
    // Each lowering may learn that pointers must be general or objects numbered at their
    // declaration (see `memory`); the plan only grows, so this ends.
    let mut plan = MemPlan::default();
    loop {
        let (r, learnt) = lower_with_plan(unit, src, opts, &plan);
        if plan.covers(&learnt) {
            return match r {
                Err(FrontendError::Relower) => Err(FrontendError::Internal(
                    "a pointer must be general but the plan says so already".into(),
                )),
                r => r,
            };
        }
        plan.merge(&learnt);
    }
}

/// One lowering of a unit under a memory plan, and what it learnt beyond the plan.
fn lower_with_plan(
    unit: &TranslationUnit,
    src: &SourceMap,
    opts: &FrontendOptions,
    plan: &MemPlan,
) -> (Result<Lowered, FrontendError>, MemPlan) {
    let mut learnt = MemPlan::default();
    let r = lower_once(unit, src, opts, plan, &mut learnt);
    (r, learnt)
}

fn lower_once<'a>(
    unit: &'a TranslationUnit,
    src: &'a SourceMap,
    opts: &'a FrontendOptions,
    plan: &MemPlan,
    learnt: &mut MemPlan,
) -> Result<Lowered, FrontendError> {
    let mut lw = Lower::new(src, opts, plan, super::fnptr::address_taken(unit));
    let r = lower_main(&mut lw, unit, src);
    *learnt = std::mem::take(&mut lw.mem.learnt);
    r?;
    havoc_unwritten(&mut lw.cfa);
    if let Err(e) = lw.cfa.check() {
        return Err(FrontendError::Internal(e));
    }
    Ok(Lowered {
        cfa: lw.cfa,
        warnings: lw.warnings,
    })
}

fn lower_main<'a>(
    lw: &mut Lower<'a>,
    unit: &'a TranslationUnit,
    src: &SourceMap,
) -> Result<(), FrontendError> {
    // The typedef names lang-c predefines.
    lw.bind(
        "__builtin_va_list",
        Binding::Typedef(CType::Unsupported("variable arguments".into())),
    );
    // A first edge so that the initial location has no incoming edge even if `main` starts
    // with a loop.
    lw.text = "global initialisation".into();
    lw.emit(Gcl::skip());
    lw.global_declarations(unit)?;
    // Static locals are initialised here, before `main`.
    lw.static_init = lw.cur;
    let main_start = lw.new_loc("main");
    lw.cur = main_start;
    let Some(main) = lw.functions.get("main").copied() else {
        return Err(FrontendError::Parse {
            pos: SrcPos {
                file: src.main_file.clone(),
                line: 1,
                col: 1,
            },
            msg: "no definition of `main`".into(),
        });
    };
    lw.inline_main(main)?;
    let exit = lw.cfa.exit;
    lw.goto_loc(exit);
    let si = lw.static_init;
    lw.cfa.add_edge(si, Gcl::skip(), main_start);
    Ok(())
}

/// Havocs, on the first edge, every variable that can be read before it is written (after a
/// jump past its declaration), so that no behaviour depends on the initial valuation.
fn havoc_unwritten(cfa: &mut Cfa) {
    let unwritten = crate::cfa::uninitialized_reads(&crate::cfa::remove_unreachable(cfa));
    if unwritten.is_empty() {
        return;
    }
    let mut havocs = Vec::new();
    for v in unwritten {
        let o = cfa.add_origin(cfa.var(v).pos.clone(), "read before any write".into());
        havocs.push(Gcl::Havoc(v, HavocKind::Uninitialized, o));
    }
    let init = cfa.init;
    if let Some(e) = cfa.edges.iter_mut().find(|e| e.from == init) {
        let cmd = std::mem::replace(&mut e.cmd, Gcl::skip());
        e.cmd = Gcl::Seq(havocs).then(cmd);
    }
}
