//! Statements: blocks, declarations, expression statements, `if`, loops, `switch`, `goto` and
//! labels, `break`, `continue`, `return`.
//!
//! Loops have a head location (the condition is evaluated there, so its side effects happen
//! on every iteration). `switch` evaluates its controlling expression once (promoted), lowers
//! the body with a location per `case`/`default` label (fall-through is the edge from the
//! previous statement), then adds the dispatch edges from the head: `value = c` to each case,
//! and "no case matches" to `default` or past the switch.

use super::builder::{Lower, SwitchCtx};
use super::repr::{RVal, Ret, Val};
use super::types::CInt;
use super::FrontendError;
use crate::cfa::Loc;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl<'a> Lower<'a> {
    /// Lowers a statement at the current location.
    pub fn stmt(&mut self, s: &Node<Statement>) -> Result<(), FrontendError> {
        self.in_statement(s.span, |lw| lw.statement(s))
    }

    fn statement(&mut self, s: &Node<Statement>) -> Result<(), FrontendError> {
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(Default::default());
                let r = self.in_block(s.span, |lw| items.iter().try_for_each(|i| lw.block_item(i)));
                self.scopes.pop();
                r
            }
            Statement::Expression(e) => {
                self.at(s.span);
                let Some(e) = e else { return Ok(()) };
                let before = self.cfa.edges.len();
                self.effect(e)?;
                // A statement without effect still runs.
                if self.nothing_since(before) {
                    self.mark_statement();
                }
                Ok(())
            }
            Statement::Labeled(l) => self.labeled(l),
            Statement::If(i) => self.if_statement(i),
            Statement::While(w) => self.while_loop(w, s.span),
            Statement::DoWhile(d) => self.do_loop(d, s.span),
            Statement::For(f) => {
                self.scopes.push(Default::default());
                let r = self.in_block(s.span, |lw| lw.for_loop(f, s.span));
                self.scopes.pop();
                r
            }
            Statement::Goto(id) => {
                self.at(s.span);
                self.mark_statement();
                let l = self.label(&id.node.name)?;
                self.jump(l);
                Ok(())
            }
            Statement::Continue => {
                let target = self.fctx()?.continues.last().copied();
                self.leave_to(target, s.span, "`continue` outside a loop")
            }
            Statement::Break => {
                let target = self.fctx()?.breaks.last().copied();
                self.leave_to(target, s.span, "`break` outside a loop or switch")
            }
            Statement::Return(e) => {
                self.at(s.span);
                self.return_value(e.as_deref())?;
                let (l, depth) = {
                    let ctx = self.fctx()?;
                    (ctx.ret_loc, ctx.block_depth)
                };
                self.leave_objects(depth);
                self.jump(l);
                Ok(())
            }
            Statement::Switch(sw) => self.switch(sw),
            Statement::Asm(_) => self.unsupported(s.span, "inline assembly"),
        }
    }

    fn if_statement(&mut self, i: &Node<IfStatement>) -> Result<(), FrontendError> {
        self.at(i.node.condition.span);
        let c = self.condition(&i.node.condition)?;
        let (t, e) = self.branch(c);
        let join = self.new_loc("end if");
        self.cur = t;
        self.stmt(&i.node.then_statement)?;
        self.goto_loc(join);
        self.cur = e;
        if let Some(el) = &i.node.else_statement {
            self.stmt(el)?;
        }
        self.goto_loc(join);
        Ok(())
    }

    fn while_loop(&mut self, w: &Node<WhileStatement>, span: Span) -> Result<(), FrontendError> {
        self.at(w.node.expression.span);
        let head = self.new_loc("while head");
        self.mark_loop_head(head, span);
        self.goto_loc(head);
        let c = self.condition(&w.node.expression)?;
        let (body, exit) = self.branch(c);
        self.cur = body;
        self.loop_body(&w.node.statement, exit, head)?;
        self.goto_loc(head);
        self.cur = exit;
        Ok(())
    }

    fn do_loop(&mut self, d: &Node<DoWhileStatement>, span: Span) -> Result<(), FrontendError> {
        let body = self.new_loc("do body");
        self.goto_loc(body);
        // A loop invariant of a `do` loop holds where its condition is evaluated.
        let cond_loc = self.new_loc("do condition");
        self.mark_loop_head(cond_loc, span);
        let exit = self.new_loc("end do");
        self.loop_body(&d.node.statement, exit, cond_loc)?;
        self.goto_loc(cond_loc);
        self.at(d.node.expression.span);
        let c = self.condition(&d.node.expression)?;
        self.edge_if(c, body, None);
        let nc = self.cfa.tm.not(c);
        let negated = format!("!({})", self.text);
        self.edge_if(nc, exit, Some(&negated));
        self.cur = exit;
        Ok(())
    }

    /// `continue` or `break`: leave the objects of the blocks left and jump to `target`'s
    /// location; without a target, the error `outside`.
    fn leave_to(
        &mut self,
        target: Option<(Loc, usize)>,
        span: Span,
        outside: &str,
    ) -> Result<(), FrontendError> {
        let Some((l, depth)) = target else {
            return self.error(span, outside);
        };
        self.at(span);
        self.mark_statement();
        self.leave_objects(depth);
        self.jump(l);
        Ok(())
    }

    /// The controlling expression of an `if` or a loop: a constant one (as written, or
    /// folded, e.g. `u == -1` for an `unsigned short u`) leaves a command that records its
    /// evaluation, so that a trace shows it like the others.
    fn condition(&mut self, e: &Node<Expression>) -> Result<crate::bv::TermId, FrontendError> {
        let before = self.cfa.edges.len();
        let c = self.cond(e)?;
        if (self.cfa.tm.is_true(c) || self.cfa.tm.is_false(c)) && self.nothing_since(before) {
            self.mark_statement();
        }
        Ok(c)
    }

    /// Whether the edges added since there were `before` have no command.
    pub fn nothing_since(&self, before: usize) -> bool {
        self.cfa.edges[before..]
            .iter()
            .enumerate()
            .all(|(i, e)| e.cmd.atom_count() == 0 || self.elsewhere.contains(&(before + i)))
    }

    /// An item of a block.
    pub fn block_item(&mut self, i: &Node<BlockItem>) -> Result<(), FrontendError> {
        match &i.node {
            BlockItem::Declaration(d) => self.in_statement(d.span, |lw| lw.declaration(d, false)),
            BlockItem::StaticAssert(_) => Ok(()),
            BlockItem::Statement(s) => self.stmt(s),
        }
    }

    fn loop_body(
        &mut self,
        body: &Node<Statement>,
        brk: Loc,
        cont: Loc,
    ) -> Result<(), FrontendError> {
        let depth = self.mem.blocks.len();
        self.fctx()?.breaks.push((brk, depth));
        self.fctx()?.continues.push((cont, depth));
        let r = self.stmt(body);
        self.fctx()?.breaks.pop();
        self.fctx()?.continues.pop();
        r
    }

    /// Records that `head` is the head of the loop statement at `span`.
    fn mark_loop_head(&mut self, head: Loc, span: Span) {
        if !span.is_none() {
            self.cfa.locations[head.index()].loop_keyword = Some(self.src.span_pos(span));
        }
    }

    fn for_loop(&mut self, f: &Node<ForStatement>, span: Span) -> Result<(), FrontendError> {
        match &f.node.initializer.node {
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
            ForInitializer::Expression(e) => {
                self.at(e.span);
                self.effect(e)?;
            }
            ForInitializer::Declaration(d) => self.declaration(d, false)?,
        }
        let head = self.new_loc("for head");
        self.mark_loop_head(head, span);
        self.goto_loc(head);
        let (body, exit) = match &f.node.condition {
            Some(c) => {
                self.at(c.span);
                let c = self.condition(c)?;
                self.branch(c)
            }
            None => {
                let t = self.cfa.tm.tru();
                self.branch(t)
            }
        };
        let step = self.new_loc("for step");
        self.cur = body;
        self.loop_body(&f.node.statement, exit, step)?;
        self.goto_loc(step);
        if let Some(s) = &f.node.step {
            self.at(s.span);
            self.effect(s)?;
        }
        self.goto_loc(head);
        self.cur = exit;
        Ok(())
    }

    /// The value of a `return` statement stored where the function keeps it (see
    /// [`Ret`]); a `return e;` in a `void` function evaluates `e` for its effects.
    fn return_value(&mut self, e: Option<&Node<Expression>>) -> Result<(), FrontendError> {
        let ret = self.fctx()?.ret.clone();
        match (e, ret) {
            (Some(e), Some(Ret::Int(v, ty))) => {
                let r = self.rval_for(e, ty)?;
                let t = self.convert(r, ty);
                self.assign(v, t);
            }
            (Some(e), Some(Ret::Ptr(v, _))) => {
                let x = self.expr(e)?;
                let r = self.general_pointer(x, e.span)?;
                self.assign(v, r.t);
            }
            (Some(e), Some(Ret::Func(v, f))) => {
                let x = self.expr(e)?;
                let r = self.function_number(x, &f, e.span)?;
                self.assign(v, r.t);
            }
            (Some(e), Some(Ret::Struct(dst))) => match self.expr(e)? {
                Val::Struct(src) if src.def == dst.def => self.copy_struct(&dst, &src),
                _ => {
                    return self.error(
                        e.span,
                        "return of a value of another type than the function's structure",
                    )
                }
            },
            (Some(e), None) => {
                let before = self.cfa.edges.len();
                self.effect(e)?;
                if self.nothing_since(before) {
                    self.mark_statement();
                }
            }
            (None, _) => self.mark_statement(),
        }
        Ok(())
    }

    /// The location of a label of the current function (created on first use).
    fn label(&mut self, name: &str) -> Result<Loc, FrontendError> {
        if let Some(l) = self.fctx()?.labels.get(name) {
            return Ok(*l);
        }
        let l = self.new_loc(&format!("label {name}"));
        self.fctx()?.labels.insert(name.to_string(), l);
        Ok(l)
    }

    fn labeled(&mut self, l: &Node<LabeledStatement>) -> Result<(), FrontendError> {
        match &l.node.label.node {
            Label::Identifier(id) => {
                let name = &id.node.name;
                let pos = self.span_pos(id.span);
                if self
                    .fctx()?
                    .defined_labels
                    .insert(name.clone(), pos)
                    .is_some()
                {
                    return self.error(id.span, format!("duplicate label `{name}`"));
                }
                let loc = self.label(name)?;
                self.goto_loc(loc);
            }
            Label::Case(e) => self.case_label(e, e, l.span)?,
            Label::CaseRange(r) => self.case_label(&r.node.low, &r.node.high, l.span)?,
            Label::Default => {
                let loc = self.new_loc("default");
                self.goto_loc(loc);
                match self.fctx()?.switches.last_mut() {
                    Some(sw) if sw.default.is_none() => sw.default = Some(loc),
                    Some(_) => return self.error(l.span, "duplicate default label"),
                    None => return self.error(l.span, "`default` outside a switch"),
                }
            }
        }
        self.stmt(&l.node.statement)
    }

    /// A `case lo ... hi` label (`lo` and `hi` the same expression for `case k`): the values
    /// converted to the promoted type of the switch's value, as gcc converts them; a range whose
    /// low end is above its high end matches nothing (gcc warns of an empty range); a value
    /// that another label of the switch has is an error.
    fn case_label(
        &mut self,
        lo: &Node<Expression>,
        hi: &Node<Expression>,
        span: Span,
    ) -> Result<(), FrontendError> {
        let Some(sw) = self.fctx()?.switches.last() else {
            return self.error(span, "`case` outside a switch");
        };
        let ty = sw.value.ty;
        let w = ty.width(self.dm());
        let bits = |v: i128| crate::bv::value::from_signed(v, w);
        let (a, b) = (bits(self.const_int(lo)?), bits(self.const_int(hi)?));
        let key = |v: u128| {
            if ty.signed {
                crate::bv::value::to_signed(v, w)
            } else {
                v as i128
            }
        };
        let loc = self.new_loc("case");
        self.goto_loc(loc);
        if key(a) > key(b) {
            return Ok(());
        }
        if let Some(sw) = self.fctx()?.switches.last_mut() {
            if sw
                .cases
                .iter()
                .any(|&(c, d, _)| key(c) <= key(b) && key(a) <= key(d))
            {
                return self.error(lo.span, "duplicate case value");
            }
            sw.cases.push((a, b, loc));
        }
        Ok(())
    }

    fn switch(&mut self, sw: &Node<SwitchStatement>) -> Result<(), FrontendError> {
        self.at(sw.node.expression.span);
        let before = self.cfa.edges.len();
        let v = self.rval(&sw.node.expression)?;
        if self.cfa.tm.const_value(v.t).is_some() && self.nothing_since(before) {
            self.mark_statement();
        }
        let ty: CInt = v.ty.promote();
        let value = RVal {
            t: self.convert(v, ty),
            ty,
        };
        let head = self.cur;
        let exit = self.new_loc("end switch");
        self.cur = self.new_loc("switch body (unreachable before the first label)");
        self.fctx()?.switches.push(SwitchCtx {
            value,
            cases: Vec::new(),
            default: None,
        });
        let depth = self.mem.blocks.len();
        self.fctx()?.breaks.push((exit, depth));
        let r = self.stmt(&sw.node.statement);
        self.fctx()?.breaks.pop();
        let ctx = self.fctx()?.switches.pop();
        r?;
        self.goto_loc(exit);
        let Some(ctx) = ctx else {
            return Err(FrontendError::Internal("switch context lost".into()));
        };
        self.cur = head;
        let w = ty.width(self.dm());
        let mut none = self.cfa.tm.tru();
        for &(lo, hi, loc) in &ctx.cases {
            let tm = &mut self.cfa.tm;
            let a = tm.bv_const(lo, w);
            let hit = if lo == hi {
                tm.eq(value.t, a)
            } else {
                let b = tm.bv_const(hi, w);
                let (above, below) = if ty.signed {
                    (tm.sle(a, value.t), tm.sle(value.t, b))
                } else {
                    (tm.ule(a, value.t), tm.ule(value.t, b))
                };
                tm.and(above, below)
            };
            self.edge_if(hit, loc, None);
            let miss = self.cfa.tm.not(hit);
            none = self.cfa.tm.and(none, miss);
        }
        self.edge_if(none, ctx.default.unwrap_or(exit), None);
        self.cur = exit;
        Ok(())
    }
}
