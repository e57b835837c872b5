//! A counterexample as the statements the program executed: read off its run on the CFA the
//! front end built ([`super::source_run`]), whose edges hold the atomic commands of one
//! statement each, in order, with no `Choice`. Every executed command belongs to exactly one
//! step of that run, so each statement shown ran, in the order shown, and the values shown are
//! those its commands wrote.
//!
//! Consecutive commands of the same statement (the same statement start in the same function)
//! form one [`Executed`] statement; a command seen again starts another (a loop's next
//! iteration). The rest of a statement after a call it makes returns is marked
//! [`Executed::resumed`]: it is not a new execution of the statement. Commands outside every
//! function (static initialisation, and the values of variables read before any write) are
//! kept apart ([`Trace::before_main`]).
//!
//! Values are printed as a C programmer reads them ([`format_value`]): integers in decimal
//! (and hex for wide unsigned ones), general pointers as `&a[1]` or `0 (null)`, function
//! pointers as the function they hold.

use crate::bv::value::to_signed;
use crate::cfa::{interp, Cfa, EdgeId, Gcl, HavocKind, IntType, OriginId, PVar, SrcPos, VarKind};
use std::collections::HashMap;
use std::fmt::Write;

/// What an executed command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A program variable was assigned a value.
    Assign { var: PVar, value: u128 },
    /// A nondet call returned a value: an input of the program.
    Input(Input),
    /// A variable declared without an initialiser was given a value.
    Uninitialised { var: PVar, value: u128 },
    /// An accelerated loop jumped over this many iterations.
    Iterations(u128),
    /// A condition held (the text of the C condition or of its negation).
    Condition(String),
}

/// The value a nondet call returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The called function (`__VERIFIER_nondet_int`, or a function without a definition).
    pub function: String,
    /// Whether the function is a `__VERIFIER_nondet_*` one (otherwise it has no definition).
    pub nondet: bool,
    /// The C type of the result.
    pub ty: IntType,
    pub value: u128,
    /// The call's position (its closing parenthesis).
    pub pos: Option<SrcPos>,
    /// The variable that holds the result.
    pub var: PVar,
}

/// One execution of a statement.
#[derive(Clone, Debug)]
pub struct Executed {
    /// The start of the statement (for a condition, of its `if`, loop or `switch`).
    pub pos: Option<SrcPos>,
    /// Where the statement starts in the preprocessed text (statements of one macro's
    /// expansion share a position).
    pub statement_at: Option<u32>,
    /// The C text of the statement's first command.
    pub text: String,
    /// The function the statement is in.
    pub function: Option<String>,
    /// The rest of a statement after a call it made returned (not a new execution of it).
    pub resumed: bool,
    pub effects: Vec<Effect>,
}

/// The run of a counterexample as statements.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Static initialisation and the values of variables read before any write, before `main`
    /// runs.
    pub before_main: Vec<Executed>,
    /// The statements executed, in order.
    pub statements: Vec<Executed>,
    /// Where the run fails: the position and text of its last command.
    pub failure: Option<(Option<SrcPos>, String)>,
    /// The run's edges in order, each with the statement of [`Trace::statements`] (its index)
    /// that its first command in a function belongs to (none for an edge of no such command).
    pub path: Vec<(EdgeId, Option<usize>)>,
}

/// Why a run cannot be read as statements.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("edge {0} has a choice: the run is not one of the CFA the front end built")]
    Choice(usize),
    #[error("step {0} wrote other variables than its edge's commands")]
    Writes(usize),
}

impl Trace {
    /// The statements of `steps`, a run of `cfa`, the CFA the front end built.
    pub fn of_run(cfa: &Cfa, steps: &[interp::Step]) -> Result<Trace, TraceError> {
        let mut r = Reading {
            cfa,
            t: Trace::default(),
            frames: Vec::new(),
            seen: Vec::new(),
            named: false,
            known: HashMap::new(),
        };
        let mut last = None;
        for (i, step) in steps.iter().enumerate() {
            let edge = cfa.edge(step.edge);
            let activation = lowered_in(cfa, edge);
            let mut atoms = Vec::new();
            let mut choice = false;
            collect_atoms(&edge.cmd, &mut atoms, &mut choice);
            if choice {
                return Err(TraceError::Choice(step.edge.index()));
            }
            let mut writes = step.writes.iter();
            let mut statement = None;
            for a in atoms {
                let Some((o, effect)) = atom_effect(cfa, a, &mut writes, i)? else {
                    continue;
                };
                last = Some(o);
                statement = statement.or(r.command(o, effect, &activation));
            }
            r.t.path.push((step.edge, statement));
        }
        r.t.failure = last.map(|o| failure_at(cfa, o));
        Ok(r.t)
    }

    /// The nondet calls' results, in order.
    pub fn inputs(&self) -> Vec<&Input> {
        self.before_main
            .iter()
            .chain(&self.statements)
            .flat_map(|s| &s.effects)
            .filter_map(|e| match e {
                Effect::Input(i) => Some(i),
                _ => None,
            })
            .collect()
    }

    /// The values of variables declared without an initialiser, in order: the variable and
    /// its value (those read before their declaration ran first).
    pub fn uninitialised(&self) -> Vec<(PVar, u128)> {
        let mut out = uninitialised(&self.before_main);
        out.extend(uninitialised(&self.statements));
        out
    }
}

/// A run being read as statements: the trace so far and the state of the reading.
struct Reading<'a> {
    cfa: &'a Cfa,
    /// The trace read so far.
    t: Trace,
    /// The functions active at the current command, innermost last, each with the statement
    /// it is executing.
    frames: Vec<(Option<Activation>, StatementKey)>,
    /// The commands of the current statement so far.
    seen: Vec<OriginId>,
    /// Whether the current statement's text is that of one of the program's commands.
    named: bool,
    /// The value of each variable written so far.
    known: HashMap<PVar, u128>,
}

impl Reading<'_> {
    /// Adds the command `o` of `activation`, which did `effect`, to the statement it belongs
    /// to; returns that statement's index in [`Trace::statements`] (none before `main`).
    fn command(
        &mut self,
        o: OriginId,
        effect: Option<Effect>,
        activation: &Option<Activation>,
    ) -> Option<usize> {
        let origin = self.cfa.origin(o);
        let text = origin.map(|x| x.text.clone()).unwrap_or_default();
        let check = origin.is_some_and(|x| x.check);
        let pos = origin.and_then(|x| x.statement.clone().or(x.pos.clone()));
        let at = origin.and_then(|x| x.statement_at);
        let Some((function, _)) = activation else {
            before_main(&mut self.t.before_main, pos, text, effect);
            return None;
        };
        let same = self.t.statements.last().is_some_and(|s: &Executed| {
            s.pos == pos
                && s.statement_at == at
                && self.frames.last().is_some_and(|(f, _)| f == activation)
                && !self.seen.contains(&o)
        });
        if !same {
            let resumed = enter(&mut self.frames, activation, &(pos.clone(), at));
            self.seen.clear();
            self.named = !check;
            self.t.statements.push(Executed {
                pos,
                statement_at: at,
                text: text.clone(),
                function: Some(function.clone()),
                resumed,
                effects: Vec::new(),
            });
        }
        self.seen.push(o);
        let statement = self.t.statements.len().checked_sub(1);
        let Some(s) = self.t.statements.last_mut() else {
            return statement;
        };
        // The statement is named by its first command that is the program's.
        if !self.named && !check {
            s.text = text.clone();
            self.named = true;
        }
        match effect {
            Some(e) => add_effect(self.cfa, &mut self.known, s, e),
            // A condition that held, unless the statement's text says it already.
            None if !check
                && text != s.text
                && !s.effects.contains(&Effect::Condition(text.clone())) =>
            {
                s.effects.push(Effect::Condition(text))
            }
            None => {}
        }
        statement
    }
}

/// The origin of an atom of step `i` and what it did: for an assignment or a havoc, the value
/// it wrote is the next of the step's `writes`, which must be to the atom's variable.
fn atom_effect<'a>(
    cfa: &Cfa,
    atom: &Gcl,
    writes: &mut impl Iterator<Item = &'a (PVar, u128)>,
    i: usize,
) -> Result<Option<(OriginId, Option<Effect>)>, TraceError> {
    let (v, o) = match atom {
        Gcl::Assume(_, o) => return Ok(Some((*o, None))),
        Gcl::Assign(v, _, o) | Gcl::Havoc(v, _, o) => (*v, *o),
        Gcl::Seq(_) | Gcl::Choice(_) => return Ok(None),
    };
    let &(w, value) = writes.next().ok_or(TraceError::Writes(i))?;
    if w != v {
        return Err(TraceError::Writes(i));
    }
    let effect = match atom {
        Gcl::Havoc(_, kind, _) => havoc(cfa, v, kind, value),
        _ => Effect::Assign { var: v, value },
    };
    Ok(Some((o, Some(effect))))
}

/// The uninitialised values given by some statements, in order.
fn uninitialised(statements: &[Executed]) -> Vec<(PVar, u128)> {
    statements
        .iter()
        .flat_map(|s| &s.effects)
        .filter_map(|e| match e {
            Effect::Uninitialised { var, value } => Some((*var, *value)),
            _ => None,
        })
        .collect()
}

/// Adds what a command did to the statement: a write to an array element that leaves it as
/// it was (the other elements of a write at a symbolic index) is left out, and an assignment
/// replaces the statement's earlier one to the same variable (a declaration zero-fills an
/// array before its initialiser); the result variable of a function is havocked on entry,
/// which is no value of the program's.
fn add_effect(cfa: &Cfa, known: &mut HashMap<PVar, u128>, s: &mut Executed, e: Effect) {
    match &e {
        Effect::Assign { var, value } => {
            let before = known.insert(*var, *value);
            if cfa.var(*var).name.contains('[') && before == Some(*value) {
                return;
            }
            s.effects
                .retain(|x| !matches!(x, Effect::Assign { var: w, .. } if w == var));
        }
        Effect::Uninitialised { var, value } => {
            known.insert(*var, *value);
            if cfa.var(*var).kind == VarKind::Return {
                return;
            }
        }
        Effect::Input(i) => {
            known.insert(i.var, i.value);
        }
        _ => {}
    }
    s.effects.push(e);
}

/// The atoms of a command in order, noting whether it has a choice.
fn collect_atoms<'a>(g: &'a Gcl, out: &mut Vec<&'a Gcl>, choice: &mut bool) {
    match g {
        Gcl::Seq(v) => v.iter().for_each(|x| collect_atoms(x, out, choice)),
        Gcl::Choice(_) => *choice = true,
        a => out.push(a),
    }
}

/// Where the command `o` that ends a run is, and its text.
fn failure_at(cfa: &Cfa, o: OriginId) -> (Option<SrcPos>, String) {
    let origin = cfa.origin(o);
    (
        origin.and_then(|x| x.pos.clone()),
        origin.map(|x| x.text.clone()).unwrap_or_default(),
    )
}

/// A statement: its start and where it starts in the preprocessed text.
type StatementKey = (Option<SrcPos>, Option<u32>);

/// Moves the frames to a command of the activation `function` in the statement starting at
/// `pos`; returns whether the command continues a statement already running: the caller's,
/// after a call it made returned, or when it binds the arguments of a call it makes.
fn enter(
    frames: &mut Vec<(Option<Activation>, StatementKey)>,
    function: &Option<Activation>,
    pos: &StatementKey,
) -> bool {
    match frames.iter().rposition(|(f, _)| f == function) {
        // An activation still active is the one returned to.
        Some(k) => {
            let returned = k + 1 < frames.len();
            frames.truncate(k + 1);
            let resumed = returned && &frames[k].1 == pos;
            frames[k].1 = pos.clone();
            resumed
        }
        None => {
            let binds = frames.last().is_some_and(|(_, caller)| caller == pos);
            frames.push((function.clone(), pos.clone()));
            binds
        }
    }
}

/// A command before `main`: static initialisation keeps each variable's last value, under
/// the declaration; a variable read before any write is listed with its value.
fn before_main(out: &mut Vec<Executed>, pos: Option<SrcPos>, text: String, effect: Option<Effect>) {
    let Some(effect) = effect else {
        return;
    };
    let at = match out.iter().position(|s| s.pos == pos && s.text == text) {
        Some(k) => k,
        None => {
            out.push(Executed {
                pos,
                statement_at: None,
                text,
                function: None,
                resumed: false,
                effects: Vec::new(),
            });
            out.len() - 1
        }
    };
    let effects = &mut out[at].effects;
    if let Effect::Assign { var, .. } = &effect {
        effects.retain(|e| !matches!(e, Effect::Assign { var: w, .. } if w == var));
    }
    effects.push(effect);
}

fn havoc(cfa: &Cfa, var: PVar, kind: &HavocKind, value: u128) -> Effect {
    match kind {
        HavocKind::NondetCall { function, ty } | HavocKind::UndefinedCall { function, ty } => {
            Effect::Input(Input {
                function: function.clone(),
                nondet: matches!(kind, HavocKind::NondetCall { .. }),
                ty: *ty,
                value,
                pos: cfa.var(var).pos.clone(),
                var,
            })
        }
        HavocKind::Uninitialized => Effect::Uninitialised { var, value },
        HavocKind::Iterations => Effect::Iterations(value),
    }
}

/// The function whose code an edge's command is: its target's (created with the command,
/// after a call's entry or return), or its source's for an edge into a location of no
/// function (the error location, a sink, the exit).
fn lowered_in(cfa: &Cfa, edge: &crate::cfa::Edge) -> Option<Activation> {
    let at = |l: crate::cfa::Loc| {
        let info = &cfa.locations[l.index()];
        let f = info.function.as_deref()?;
        Some((f.to_string(), info.call_depth))
    };
    at(edge.to).or_else(|| at(edge.from))
}

/// An activation of a function: its name and how many calls are active in it (calls are
/// inlined, so a recursive function's activations differ in depth).
type Activation = (String, u32);

/// The function an edge is in: its source's, or its target's for an edge leaving the initial
/// location, which belongs to no function.
pub fn function_of(cfa: &Cfa, edge: &crate::cfa::Edge) -> Option<String> {
    let at = |l: crate::cfa::Loc| cfa.locations[l.index()].function.as_deref();
    at(edge.from).or(at(edge.to)).map(str::to_string)
}

/// A value of a C type in decimal, signed when the type is.
pub fn decimal(value: u128, ty: IntType) -> String {
    if ty.signed {
        to_signed(value, ty.width).to_string()
    } else {
        value.to_string()
    }
}

/// `value` of a variable of the given type: decimal (signed when the type is), and hex too for
/// unsigned types wider than one bit.
pub fn format_value(cfa: &Cfa, v: PVar, value: u128) -> String {
    if let Some((obj, off)) = cfa.pointer_value(v, value) {
        return format_pointer(cfa, obj, off);
    }
    if cfa.function_pointers.contains(&v) {
        return format_function(cfa, value);
    }
    let ty = cfa.var(v).ty;
    if !ty.signed && ty.width > 1 && value > 9 {
        format!("{value} (0x{value:x})")
    } else {
        decimal(value, ty)
    }
}

/// A function pointer's value: the function's name, `0 (null)`, or that it holds no function
/// (declared without an initialiser and not assigned).
fn format_function(cfa: &Cfa, value: u128) -> String {
    let named = usize::try_from(value)
        .ok()
        .and_then(|k| k.checked_sub(1))
        .and_then(|k| cfa.functions.get(k));
    match named {
        Some(name) => name.clone(),
        None if value == 0 => "0 (null)".to_string(),
        None => "no function".to_string(),
    }
}

/// A general pointer's value: `&a[1]` when it designates a cell of its object, `&a[0] + 5`
/// (bytes) when it does not (one past the end, or inside a cell), the address when it points
/// to no object (`0` for null).
fn format_pointer(cfa: &Cfa, obj: usize, off: u128) -> String {
    let cells = match obj.checked_sub(1).and_then(|k| cfa.objects.get(k)) {
        Some(c) => c,
        None if obj == 0 && off == 0 => return "0 (null)".to_string(),
        None if obj == 0 => return format!("{off} (0x{off:x})"),
        None => return format!("object {obj} + {off}"),
    };
    if let Some((_, v)) = cells.iter().find(|(o, _)| u128::from(*o) == off) {
        return format!("&{}", c_name(cfa, *v));
    }
    match cells.first() {
        Some((o, v)) => format!(
            "&{} + {} bytes",
            c_name(cfa, *v),
            off.wrapping_sub(u128::from(*o))
        ),
        None => format!("object {obj} + {off}"),
    }
}

/// The C name of a variable as a user wrote it: without the function prefix of locals and
/// the call number of inlined copies (`main::x` is `x`, `f::y#2` is `y`, a member of the
/// structure `f` returns is `f().m`).
pub fn c_name(cfa: &Cfa, v: PVar) -> String {
    let info = cfa.var(v);
    let base = info.name.rsplit("::").next().unwrap_or(&info.name);
    let base = base.split('#').next().unwrap_or(base);
    let function = info.name.split("::").next().unwrap_or(&info.name);
    match info.kind {
        // A member of a returned structure: `f().x`.
        VarKind::Return => match base.strip_prefix("return") {
            Some(member) if !member.is_empty() => format!("{function}(){member}"),
            _ => format!("{function}() returns"),
        },
        _ => base.to_string(),
    }
}

/// `file:line:col` of a position, or `?` without one.
fn at(pos: &Option<SrcPos>) -> String {
    pos.as_ref()
        .map_or_else(|| "?".to_string(), |p| p.to_string())
}

/// The effect lines of a statement.
fn write_effects(s: &mut String, cfa: &Cfa, effects: &[Effect]) {
    for e in effects {
        let _ = match e {
            Effect::Assign { var, value } if cfa.var(*var).kind != VarKind::Temporary => {
                writeln!(
                    s,
                    "      {} = {}",
                    c_name(cfa, *var),
                    format_value(cfa, *var, *value)
                )
            }
            Effect::Assign { .. } => Ok(()),
            Effect::Input(i) => writeln!(s, "      {}() = {}", i.function, decimal(i.value, i.ty)),
            Effect::Uninitialised { var, value } => writeln!(
                s,
                "      {} = {} (uninitialised)",
                c_name(cfa, *var),
                format_value(cfa, *var, *value)
            ),
            Effect::Iterations(n) => writeln!(s, "      {n} more iterations"),
            Effect::Condition(c) => writeln!(s, "      [{c}]"),
        };
    }
}

/// The name of a C type (`int`, `unsigned char`, `long long`) from its width and signedness
/// under the CFA's data model.
pub fn c_type(cfa: &Cfa, ty: IntType) -> String {
    c_type_in(cfa.data_model, ty)
}

/// The name of a C type from its width and signedness under a data model.
pub fn c_type_in(dm: crate::cfa::DataModel, ty: IntType) -> String {
    let long = match dm {
        crate::cfa::DataModel::Ilp32 => 32,
        crate::cfa::DataModel::Lp64 => 64,
    };
    let base = match ty.width {
        1 => return "_Bool".into(),
        8 => "char",
        16 => "short",
        32 => "int",
        64 if long == 64 => "long",
        64 => "long long",
        128 => "__int128",
        w => return format!("{}int{w}_t", if ty.signed { "" } else { "u" }),
    };
    match (ty.signed, ty.width) {
        (true, 8) => "signed char".into(),
        (true, _) => base.into(),
        (false, _) => format!("unsigned {base}"),
    }
}

/// The readable form of a trace: the static initialisation, the statements executed with the
/// values they assign, the inputs with their call sites and the uninitialised values.
pub fn format_trace(cfa: &Cfa, t: &Trace) -> String {
    let mut s = String::new();
    let initialised: Vec<&Executed> = t
        .before_main
        .iter()
        .filter(|x| x.effects.iter().any(|e| matches!(e, Effect::Assign { .. })))
        .collect();
    if !initialised.is_empty() {
        let _ = writeln!(s, "static initialisation:");
        for x in initialised {
            let _ = writeln!(s, "  {}: {}", at(&x.pos), x.text);
            let assigns: Vec<Effect> = x
                .effects
                .iter()
                .filter(|e| matches!(e, Effect::Assign { .. }))
                .cloned()
                .collect();
            write_effects(&mut s, cfa, &assigns);
        }
    }
    let _ = writeln!(
        s,
        "trace ({} statements executed, in order, with the values they assign):",
        t.statements.iter().filter(|x| !x.resumed).count()
    );
    for x in &t.statements {
        let resumed = if x.resumed { "(continued) " } else { "" };
        let _ = writeln!(s, "  {}: {resumed}{}", at(&x.pos), x.text);
        write_effects(&mut s, cfa, &x.effects);
    }
    let inputs = t.inputs();
    if !inputs.is_empty() {
        let _ = writeln!(s, "inputs (the values the calls return, in order):");
        for i in inputs {
            let what = if i.nondet { "" } else { ", no definition" };
            let _ = writeln!(
                s,
                "  {}: {}() ({}{what}) = {}",
                at(&i.pos),
                i.function,
                c_type(cfa, i.ty),
                decimal(i.value, i.ty)
            );
        }
    }
    let early: Vec<(PVar, u128)> = uninitialised(&t.before_main);
    let uninit: Vec<(PVar, u128)> = uninitialised(&t.statements);
    if !uninit.is_empty() || !early.is_empty() {
        let _ = writeln!(
            s,
            "uninitialised values (of variables declared without an initialiser, in the order their declarations ran):"
        );
        let late = uninit.iter().map(|x| (x, "")).chain(
            early
                .iter()
                .map(|x| (x, " (read before its declaration ran)")),
        );
        for (&(v, value), note) in late {
            let info = cfa.var(v);
            let _ = writeln!(
                s,
                "  {}: {} ({}) = {}{note}",
                at(&info.pos),
                c_name(cfa, v),
                c_type(cfa, info.ty),
                decimal(value, info.ty)
            );
        }
    }
    s
}
