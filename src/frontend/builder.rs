//! The lowering context: the CFA under construction, the current location, scopes, the
//! function being inlined, and the primitives that emit edges.
//!
//! Every atomic command gets its own edge (a small-block CFA); large-block encoding merges
//! them afterwards. Code after `return`, `break`, `continue` or `goto` is still lowered (so its
//! errors are reported) from a fresh location without incoming edges, which the final
//! clean-up removes.

use super::parse::SourceMap;
use super::repr::{Binding, MemPlan, Memory, RVal, Ret};
use super::types::CInt;
use super::{FrontendError, FrontendOptions};
use crate::bv::TermId;
use crate::cfa::{Cfa, Gcl, HavocKind, Loc, LocKind, PVar, Property, SrcPos, VarKind};
use lang_c::ast::FunctionDefinition;
use lang_c::span::Span;
use std::collections::HashMap;
use std::sync::Arc;

/// The `case` labels of the `switch` being lowered.
pub struct SwitchCtx {
    pub value: RVal,
    /// The labels: the lowest and the highest value of each (equal for a `case`, a GNU case
    /// range `case lo ... hi` otherwise), as bits of the promoted type, and its location.
    pub cases: Vec<(u128, u128, Loc)>,
    pub default: Option<Loc>,
}

/// The state of one inlined function body.
pub struct FnCtx {
    pub name: String,
    pub ret: Option<Ret>,
    pub ret_loc: Loc,
    pub labels: HashMap<String, Loc>,
    pub defined_labels: HashMap<String, SrcPos>,
    /// The targets of `break` and `continue`, with the depth of the blocks of numbered objects
    /// (see [`super::memory`]) there: the blocks a jump leaves end their objects' lifetimes.
    pub breaks: Vec<(Loc, usize)>,
    pub continues: Vec<(Loc, usize)>,
    /// The depth of the blocks of numbered objects where the function's body starts.
    pub block_depth: usize,
    pub switches: Vec<SwitchCtx>,
}

/// The lowering context.
pub struct Lower<'a> {
    pub cfa: Cfa,
    pub opts: &'a FrontendOptions,
    pub src: &'a SourceMap,
    pub cur: Loc,
    /// `scopes[0]` holds the globals; the rest belong to the function being inlined.
    pub scopes: Vec<HashMap<String, Binding>>,
    pub functions: HashMap<String, &'a FunctionDefinition>,
    pub call_stack: Vec<String>,
    pub fctx: Option<FnCtx>,
    pub warnings: Vec<String>,
    names: HashMap<String, u32>,
    /// Static locals by (function, declaration offset), shared by all inlined instances.
    pub statics: HashMap<(String, usize), Binding>,
    /// Where the initialisations of static locals are appended (before `main` starts).
    pub static_init: Loc,
    /// The position and text of the statement being lowered (origins of commands).
    pub pos: SrcPos,
    pub text: String,
    /// The start of the innermost statement or declaration being lowered (origins of
    /// commands; for the condition of an `if`, a loop or a `switch`, that statement's start).
    pub stmt_start: Option<SrcPos>,
    /// Where that statement starts in the preprocessed text.
    pub stmt_at: Option<u32>,
    /// The element designated by the last array subscript lowered (for assignments).
    pub last_elem: Option<super::repr::Lval>,
    /// The variables of globals with external linkage that are not `const`: what a function
    /// without a definition may write.
    pub external_globals: Vec<PVar>,
    /// Globals with external linkage bound to an object: a function without a definition
    /// could make them point elsewhere.
    pub external_pointers: Vec<String>,
    /// The end of each enclosing block (function body, compound statement, `for`), innermost
    /// last: where the scope of a local declared now ends.
    pub block_ends: Vec<SrcPos>,
    /// The closing parenthesis of the nondet call being lowered.
    pub call_close: Option<SrcPos>,
    /// The subscript expression whose address is being taken (`&a[i]`), and whether the
    /// subscript being lowered is that one: its index may be the array's length.
    pub address_of: Option<Span>,
    pub address_of_element: bool,
    /// Functions declared `_Noreturn` or `noreturn`.
    pub noreturn: std::collections::HashSet<String>,
    /// Functions declared to run without a call (`constructor`, `destructor`): where, and which.
    pub runs_code: HashMap<String, (SrcPos, String)>,
    /// The names that may denote a function whose address is taken (see [`super::fnptr`]).
    pub taken: Vec<String>,
    /// The numbered objects and the memory plan (see [`super::memory`]).
    pub mem: super::repr::Memory,
    /// The array object of each string literal lowered, by the literal's start.
    pub literals: HashMap<usize, super::repr::ArrayView>,
    /// Edges a statement added elsewhere than where it runs (a string literal's static
    /// initialisation): not the statement's own commands.
    pub elsewhere: std::collections::HashSet<usize>,
    temp_count: u32,
}

impl<'a> Lower<'a> {
    /// A context for lowering a unit under a memory plan, where `taken` are the names that
    /// may denote a function whose address is taken.
    pub fn new(
        src: &'a SourceMap,
        opts: &'a FrontendOptions,
        plan: &MemPlan,
        taken: Vec<String>,
    ) -> Lower<'a> {
        let mut cfa = Cfa::new(opts.property, opts.data_model);
        cfa.functions = taken.clone();
        let init = cfa.init;
        let pos = SrcPos {
            file: src.main_file.clone(),
            line: 0,
            col: 0,
        };
        Lower {
            cfa,
            opts,
            src,
            cur: init,
            scopes: vec![HashMap::new()],
            functions: HashMap::new(),
            call_stack: Vec::new(),
            fctx: None,
            warnings: Vec::new(),
            names: HashMap::new(),
            statics: HashMap::new(),
            static_init: init,
            pos,
            text: String::new(),
            stmt_start: None,
            stmt_at: None,
            last_elem: None,
            external_globals: Vec::new(),
            external_pointers: Vec::new(),
            block_ends: Vec::new(),
            call_close: None,
            address_of: None,
            address_of_element: false,
            noreturn: Default::default(),
            runs_code: HashMap::new(),
            taken,
            mem: Memory::new(plan.clone()),
            literals: HashMap::new(),
            elsewhere: Default::default(),
            temp_count: 0,
        }
    }

    /// The data model.
    pub fn dm(&self) -> crate::cfa::DataModel {
        self.opts.data_model
    }

    /// The original position of a span (the current statement's when the span is undefined).
    pub fn span_pos(&self, span: Span) -> SrcPos {
        if span.is_none() {
            self.pos.clone()
        } else {
            self.src.span_pos(span)
        }
    }

    /// An `unsupported` error at a span.
    pub fn unsupported<T>(&self, span: Span, what: impl Into<String>) -> Result<T, FrontendError> {
        Err(FrontendError::Unsupported {
            pos: self.span_pos(span),
            what: what.into(),
        })
    }

    /// A semantic error at a span.
    pub fn error<T>(&self, span: Span, msg: impl Into<String>) -> Result<T, FrontendError> {
        Err(FrontendError::Parse {
            pos: self.span_pos(span),
            msg: msg.into(),
        })
    }

    /// Sets the current statement (position and text) for the origins of commands.
    pub fn at(&mut self, span: Span) {
        if !span.is_none() {
            self.pos = self.src.span_pos(span);
            self.text = self.src.snippet(span);
        }
    }

    /// A fresh location.
    pub fn new_loc(&mut self, note: &str) -> Loc {
        let pos = Some(self.pos.clone());
        let l = self.cfa.add_loc(LocKind::Normal, pos, note);
        self.cfa.locations[l.index()].function =
            self.call_stack.last().map(|f| Arc::from(f.as_str()));
        self.cfa.locations[l.index()].call_depth = self.call_stack.len() as u32;
        l
    }

    /// Runs `f` inside a block that ends at the end of `span` (the scope of what it declares).
    pub fn in_block<T>(&mut self, span: Span, f: impl FnOnce(&mut Self) -> T) -> T {
        let end = if span.is_none() {
            self.pos.clone()
        } else {
            self.src.pos(span.end)
        };
        self.block_ends.push(end);
        self.open_objects();
        let r = f(self);
        self.close_objects();
        self.block_ends.pop();
        r
    }

    /// Runs `f` where static storage is initialised, before `main` and in no function; the
    /// edges it adds are not the current statement's commands (see `nothing_since`).
    pub fn in_static_init<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = (self.cur, self.pos.clone(), self.text.clone());
        self.cur = self.static_init;
        let stack = std::mem::take(&mut self.call_stack);
        let first_edge = self.cfa.edges.len();
        let r = f(self);
        self.call_stack = stack;
        self.static_init = self.cur;
        (self.cur, self.pos, self.text) = saved;
        self.elsewhere.extend(first_edge..self.cfa.edges.len());
        r
    }

    /// A name not used before: `base`, `base#2`, …
    pub fn unique_name(&mut self, base: &str) -> String {
        let n = self.names.entry(base.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base.to_string()
        } else {
            format!("{base}#{n}")
        }
    }

    /// A new program variable.
    pub fn new_var(&mut self, base: &str, ty: CInt, kind: VarKind, pos: Option<SrcPos>) -> PVar {
        let name = self.unique_name(base);
        let it = ty.int_type(self.dm());
        let v = self.cfa.add_var(name, it, kind, pos);
        if matches!(kind, VarKind::Local | VarKind::Parameter) {
            self.cfa.vars[v.0 as usize].scope_end = self.block_ends.last().cloned();
        }
        v
    }

    /// A new temporary.
    pub fn temp(&mut self, ty: CInt) -> PVar {
        self.temp_count += 1;
        let name = format!("tmp#{}", self.temp_count);
        let it = ty.int_type(self.dm());
        let pos = Some(self.pos.clone());
        self.cfa.add_var(name, it, VarKind::Temporary, pos)
    }

    /// The term of a variable.
    pub fn var_term(&self, v: PVar) -> TermId {
        self.cfa.var(v).term
    }

    fn origin(&mut self, text: Option<&str>) -> crate::cfa::OriginId {
        let t = text
            .map(str::to_string)
            .unwrap_or_else(|| self.text.clone());
        let pos = Some(self.pos.clone());
        self.cfa
            .add_statement_origin(pos, t, self.stmt_start.clone(), self.stmt_at)
    }

    /// Runs `f` with `span` as the start of the statement being lowered (restored after).
    pub fn in_statement<T>(&mut self, span: Span, f: impl FnOnce(&mut Self) -> T) -> T {
        if span.is_none() {
            return f(self);
        }
        let saved = self.stmt_start.replace(self.src.span_pos(span));
        let saved_at = self.stmt_at.replace(span.start as u32);
        let r = f(self);
        self.stmt_start = saved;
        self.stmt_at = saved_at;
        r
    }

    /// Runs `f` with `span`, an operation inside the statement, as the position and text of
    /// the commands it emits (so that its checks name the operation); the statement's are
    /// restored after.
    pub fn at_op<T>(&mut self, span: Span, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = (self.pos.clone(), self.text.clone());
        self.at(span);
        let r = f(self);
        (self.pos, self.text) = saved;
        r
    }

    /// The origin of a check's commands (the edge to the error location or a sink, and the
    /// assumption that execution continues past it): `text`, or the operation's.
    fn check_origin(&mut self, text: Option<&str>) -> crate::cfa::OriginId {
        let o = self.origin(text);
        self.cfa.origins[o.0 as usize].check = true;
        o
    }

    /// The message of a failed check: what fails (`signed overflow of +` is said `signed
    /// overflow`) and in which operation.
    fn check_message(&self, what: &str) -> String {
        let what = if what.starts_with("signed overflow of") {
            "signed overflow"
        } else {
            what
        };
        format!("{what} in '{}'", self.text)
    }

    /// Appends an edge with `cmd` from the current location to a fresh one.
    pub fn emit(&mut self, cmd: Gcl) {
        let next = self.new_loc("");
        self.cfa.add_edge(self.cur, cmd, next);
        self.cur = next;
    }

    /// Appends `v := t`.
    pub fn assign(&mut self, v: PVar, t: TermId) {
        let o = self.origin(None);
        self.emit(Gcl::Assign(v, t, o));
    }

    /// Appends `havoc v`.
    pub fn havoc(&mut self, v: PVar, kind: HavocKind) {
        let general = self.cfa.var(v).ty.width == super::repr::ptr_width(self.dm())
            && matches!(kind, HavocKind::Uninitialized);
        let o = self.origin(None);
        self.emit(Gcl::Havoc(v, kind, o));
        // An uninitialised general pointer is an address of no object (its dereference is
        // undefined), not a pointer to some numbered object.
        if general {
            self.no_object(v);
        }
    }

    /// Appends a command that does nothing but record that the current statement ran (a
    /// jump, a call, a statement without effect), so that a trace can show it.
    pub fn mark_statement(&mut self) {
        let o = self.origin(None);
        let t = self.cfa.tm.tru();
        self.emit(Gcl::Assume(t, o));
    }

    /// Appends `assume c`.
    pub fn assume(&mut self, c: TermId) {
        if self.cfa.tm.is_true(c) {
            return;
        }
        let o = self.origin(None);
        self.emit(Gcl::Assume(c, o));
    }

    /// An edge from the current location to `to` guarded by `c` (no edge if `c` is false).
    pub fn edge_if(&mut self, c: TermId, to: Loc, text: Option<&str>) {
        if self.cfa.tm.is_false(c) {
            return;
        }
        let cmd = if self.cfa.tm.is_true(c) {
            Gcl::skip()
        } else {
            Gcl::Assume(c, self.origin(text))
        };
        self.cfa.add_edge(self.cur, cmd, to);
    }

    /// An unconditional edge from the current location to `to`; the current location becomes
    /// a fresh unreachable one.
    pub fn jump(&mut self, to: Loc) {
        self.cfa.add_edge(self.cur, Gcl::skip(), to);
        self.cur = self.new_loc("dead code");
    }

    /// Moves to `to` by an unconditional edge.
    pub fn goto_loc(&mut self, to: Loc) {
        self.cfa.add_edge(self.cur, Gcl::skip(), to);
        self.cur = to;
    }

    /// Splits on `c`: returns the locations reached when `c` holds and when it does not.
    pub fn branch(&mut self, c: TermId) -> (Loc, Loc) {
        let t = self.new_loc("then");
        let e = self.new_loc("else");
        self.edge_if(c, t, None);
        let nc = self.cfa.tm.not(c);
        let negated = format!("!({})", self.text);
        self.edge_if(nc, e, Some(&negated));
        (t, e)
    }

    /// A check of `prop`: when it is the property being built, an edge to the error location
    /// guarded by `violation`, and execution continues under its negation.
    pub fn check(&mut self, prop: Property, violation: TermId, what: &str) {
        if prop != self.opts.property || self.cfa.tm.is_false(violation) {
            return;
        }
        let err = self.cfa.error;
        self.guard(violation, err, what);
    }

    /// A check of undefined behaviour: when `prop` is the property being built, an edge to
    /// the error location guarded by `violation`; otherwise an edge to an UNKNOWN sink (what
    /// follows undefined behaviour has no meaning, so no verdict may rest on it). Execution
    /// continues under the negation. `prop` is `None` for behaviour no property reports.
    pub fn ub_check(&mut self, prop: Option<Property>, violation: TermId, what: &str) {
        if self.cfa.tm.is_false(violation) {
            return;
        }
        let target = if prop == Some(self.opts.property) {
            self.cfa.error
        } else {
            self.cfa.sink(&format!("undefined behaviour: {what}"))
        };
        self.guard(violation, target, what);
    }

    /// An edge to `target` guarded by `violation` (not false), whose origin says what fails
    /// where; execution continues under the negation. Both commands' origins are checks.
    fn guard(&mut self, violation: TermId, target: Loc, what: &str) {
        let text = self.check_message(what);
        let o = self.check_origin(Some(&text));
        self.cfa
            .add_edge(self.cur, Gcl::Assume(violation, o), target);
        let ok = self.cfa.tm.not(violation);
        if !self.cfa.tm.is_true(ok) {
            let o = self.check_origin(None);
            self.emit(Gcl::Assume(ok, o));
        }
    }

    /// An edge to the UNKNOWN sink `reason` guarded by `cond`, for what bitmc cannot judge (a
    /// verdict about what follows would not be about the program); execution continues under
    /// the negation.
    pub fn sink_if(&mut self, cond: TermId, reason: &str) {
        if self.cfa.tm.is_false(cond) {
            return;
        }
        let target = self.cfa.sink(reason);
        let text = format!("{reason} in {}", self.text);
        self.edge_if(cond, target, Some(&text));
        let ok = self.cfa.tm.not(cond);
        self.assume(ok);
    }

    /// An out-of-bounds check: the error location under `valid-index`, otherwise a sink.
    pub fn bounds_check(&mut self, violation: TermId) {
        self.ub_check(
            Some(Property::ValidIndex),
            violation,
            "array index out of bounds",
        );
    }

    /// Reaching an error function: the error location under `unreach-call`, otherwise the end
    /// of the execution.
    pub fn reach_error(&mut self, what: &str) {
        let target = if self.opts.property == Property::UnreachCall {
            self.cfa.error
        } else {
            self.cfa.exit
        };
        let o = self.origin(Some(what));
        let t = self.cfa.tm.tru();
        self.cfa.add_edge(self.cur, Gcl::Assume(t, o), target);
        self.cur = self.new_loc("dead code");
    }

    /// Looks an identifier up in the scopes, innermost first.
    pub fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Binds an identifier in the innermost scope.
    pub fn bind(&mut self, name: &str, b: Binding) {
        self.note_function_pointers(&b);
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), b);
        }
    }

    /// The function context (an internal error outside a function body).
    pub fn fctx(&mut self) -> Result<&mut FnCtx, FrontendError> {
        self.fctx
            .as_mut()
            .ok_or_else(|| FrontendError::Internal("statement outside a function".into()))
    }

    /// Saves `t` in a fresh temporary unless it is a constant; returns the temporary's term.
    pub fn materialize(&mut self, v: RVal) -> RVal {
        if self.cfa.tm.const_value(v.t).is_some()
            || self.cfa.tm.as_var(v.t).is_some_and(|x| {
                matches!(
                    self.cfa.var(self.cfa.pvar(x)).kind,
                    VarKind::Temporary | VarKind::Nondet
                )
            })
        {
            return v;
        }
        let tmp = self.temp(v.ty);
        self.assign(tmp, v.t);
        RVal {
            t: self.var_term(tmp),
            ty: v.ty,
        }
    }
}
