//! A VMT reader and evaluator written for the tests only (it shares no code with bitmc's `bv`
//! or `ts::vmt` modules): SMT-LIB 2 s-expressions, the commands `declare-fun`,
//! `declare-const`, `define-fun` (without parameters), `set-logic`, `set-info` and
//! `set-option`; sorts `Bool` and `(_ BitVec w)`, w ≤ 128, checked for every application;
//! the core and QF_BV operators (those of the tests' `word_ops`, under SMT-LIB's names); the
//! VMT annotations `:next`, `:init`, `:trans` and `:invar-property`.

#![allow(dead_code)]

use super::word_ops::{apply, mask};
use std::collections::HashMap;

/// An s-expression: an atom (a quoted symbol without its bars) or a list.
#[derive(Clone, Debug, PartialEq)]
enum Sx {
    Atom(String),
    /// A `|...|` symbol.
    Quoted(String),
    List(Vec<Sx>),
}

/// Reads the top-level s-expressions of `text`.
fn sexprs(text: &str) -> Result<Vec<Sx>, String> {
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ';' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            '(' => stack.push(Vec::new()),
            ')' => {
                let done = stack.pop().filter(|_| !stack.is_empty());
                let done = done.ok_or(format!("unbalanced `)` at byte {i}"))?;
                stack.last_mut().expect("outer list").push(Sx::List(done));
            }
            '|' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some((_, '|')) => break,
                        Some((_, '\\')) => return Err("`\\` in a quoted symbol".into()),
                        Some((_, c)) => s.push(c),
                        None => return Err(format!("unclosed `|` at byte {i}")),
                    }
                }
                stack.last_mut().expect("list").push(Sx::Quoted(s));
            }
            c if c.is_whitespace() => {}
            c => {
                let mut s = c.to_string();
                while let Some((_, c)) =
                    chars.next_if(|&(_, c)| !"();|".contains(c) && !c.is_whitespace())
                {
                    s.push(c);
                }
                stack.last_mut().expect("list").push(Sx::Atom(s));
            }
        }
    }
    match <[Vec<Sx>; 1]>::try_from(stack) {
        Ok([top]) => Ok(top),
        Err(_) => Err("unclosed `(`".into()),
    }
}

/// A sort: `Bool` or a bit-vector width (bitmc's own type: only its shape is shared).
pub use bitmc::bv::Sort;

/// A term: a constant, a variable or defined name, or an operator (with its indices) applied.
#[derive(Clone, Debug)]
pub enum Expr {
    Const(u128, Sort),
    Sym(String, Sort),
    App {
        op: String,
        idx: Vec<u32>,
        args: Vec<Expr>,
        sort: Sort,
    },
}

impl Expr {
    pub fn sort(&self) -> Sort {
        match self {
            Expr::Const(_, s) | Expr::Sym(_, s) | Expr::App { sort: s, .. } => *s,
        }
    }
}

/// A VMT file read: its variables and definitions in order, and what the annotations say.
pub struct Model {
    /// The declared variables.
    pub vars: Vec<(String, Sort)>,
    /// The definitions, in order (each reads only variables and earlier definitions).
    defs: Vec<(String, Expr)>,
    sorts: HashMap<String, Sort>,
    /// (state variable, its next-state variable), from `:next`.
    pub nexts: Vec<(String, String)>,
    pub init: Expr,
    pub trans: Expr,
    /// The property (`:invar-property`): what must hold in every reachable state.
    pub prop: Expr,
}

fn symbol(s: &Sx) -> Result<String, String> {
    match s {
        Sx::Atom(a) | Sx::Quoted(a) => Ok(a.clone()),
        Sx::List(_) => Err(format!("a list where a symbol belongs: {s:?}")),
    }
}

fn number(s: &Sx) -> Result<u32, String> {
    match s {
        Sx::Atom(a) => a.parse().map_err(|_| format!("not a numeral: `{a}`")),
        _ => Err(format!("not a numeral: {s:?}")),
    }
}

fn parse_sort(s: &Sx) -> Result<Sort, String> {
    match s {
        Sx::Atom(a) if a == "Bool" => Ok(Sort::Bool),
        Sx::List(l)
            if l.len() == 3
                && l[0] == Sx::Atom("_".into())
                && l[1] == Sx::Atom("BitVec".into()) =>
        {
            let w = number(&l[2])?;
            if (1..=128).contains(&w) {
                Ok(Sort::Bv(w))
            } else {
                Err(format!("a bit-vector width of {w}"))
            }
        }
        _ => Err(format!("unknown sort {s:?}")),
    }
}

/// What the annotations of a file named, as they are read.
#[derive(Default)]
struct Annotations {
    nexts: Vec<(String, String)>,
    init: Option<Expr>,
    trans: Option<Expr>,
    prop: Option<Expr>,
}

/// Reads a VMT text.
pub fn read(text: &str) -> Result<Model, String> {
    let mut r = Reader::default();
    for cmd in sexprs(text)? {
        r.command(&cmd)?;
    }
    let Annotations {
        nexts,
        init,
        trans,
        prop,
    } = std::mem::take(&mut r.ann);
    for (cur, next) in &nexts {
        let (a, b) = (r.sorts.get(cur), r.sorts.get(next));
        if a.is_none() || a != b || r.defs.iter().any(|(n, _)| n == cur || n == next) {
            return Err(format!(
                "`{cur} :next {next}` is not over two variables of one sort"
            ));
        }
    }
    Ok(Model {
        vars: r.vars,
        defs: r.defs,
        sorts: r.sorts,
        nexts,
        init: init.ok_or("no :init")?,
        trans: trans.ok_or("no :trans")?,
        prop: prop.ok_or("no :invar-property")?,
    })
}

#[derive(Default)]
struct Reader {
    vars: Vec<(String, Sort)>,
    defs: Vec<(String, Expr)>,
    sorts: HashMap<String, Sort>,
    ann: Annotations,
}

impl Reader {
    fn command(&mut self, cmd: &Sx) -> Result<(), String> {
        let Sx::List(l) = cmd else {
            return Err(format!("not a command: {cmd:?}"));
        };
        let head = l.first().map(symbol).transpose()?.unwrap_or_default();
        match (head.as_str(), l.len()) {
            ("set-logic" | "set-info" | "set-option", _) => Ok(()),
            ("declare-fun", 4) if l[2] == Sx::List(Vec::new()) => {
                self.name(symbol(&l[1])?, parse_sort(&l[3])?, None)
            }
            ("declare-const", 3) => self.name(symbol(&l[1])?, parse_sort(&l[2])?, None),
            ("define-fun", 5) if l[2] == Sx::List(Vec::new()) => {
                let sort = parse_sort(&l[3])?;
                let body = self.expr(&l[4])?;
                if body.sort() != sort {
                    return Err(format!("define-fun {:?}: body of another sort", l[1]));
                }
                self.name(symbol(&l[1])?, sort, Some(body))
            }
            _ => Err(format!("unsupported command {cmd:?}")),
        }
    }

    /// A new variable (or definition with its body).
    fn name(&mut self, name: String, sort: Sort, body: Option<Expr>) -> Result<(), String> {
        if self.sorts.insert(name.clone(), sort).is_some() {
            return Err(format!("`{name}` declared twice"));
        }
        match body {
            Some(e) => self.defs.push((name, e)),
            None => self.vars.push((name, sort)),
        }
        Ok(())
    }

    fn expr(&mut self, s: &Sx) -> Result<Expr, String> {
        match s {
            Sx::Atom(a) => atom(a, &self.sorts),
            Sx::Quoted(q) => sym(q, &self.sorts),
            Sx::List(l) => match l.first() {
                Some(Sx::Atom(h)) if h == "!" => self.annotated(l),
                Some(Sx::Atom(h)) if h == "_" => indexed_const(l),
                Some(Sx::Atom(h)) if h == "let" => Err("`let` is not read".into()),
                Some(head) => {
                    let (op, idx) = operator(head)?;
                    let args =
                        (l[1..].iter().map(|a| self.expr(a))).collect::<Result<Vec<_>, _>>()?;
                    let sort = result_sort(&op, &idx, &args)?;
                    Ok(Expr::App {
                        op,
                        idx,
                        args,
                        sort,
                    })
                }
                None => Err("`()` as a term".into()),
            },
        }
    }

    /// `(! term :attribute value ...)`: the term, the attributes recorded.
    fn annotated(&mut self, l: &[Sx]) -> Result<Expr, String> {
        let e = self.expr(l.get(1).ok_or("`(!)`")?)?;
        let attrs = &l[2..];
        if !attrs.len().is_multiple_of(2) {
            return Err(format!("attributes without values: {attrs:?}"));
        }
        for kv in attrs.chunks(2) {
            let (key, value) = (symbol(&kv[0])?, symbol(&kv[1])?);
            let once = |slot: &mut Option<Expr>| match slot.replace(e.clone()) {
                None if e.sort() == Sort::Bool => Ok(()),
                _ => Err(format!("a second or non-Bool {key}")),
            };
            match key.as_str() {
                ":next" => match &e {
                    Expr::Sym(x, _) => self.ann.nexts.push((x.clone(), value)),
                    _ => return Err(":next on a term that is not a symbol".into()),
                },
                ":init" => once(&mut self.ann.init)?,
                ":trans" => once(&mut self.ann.trans)?,
                ":invar-property" => once(&mut self.ann.prop)?,
                _ => return Err(format!("unknown attribute {key}")),
            }
        }
        Ok(e)
    }
}

fn sym(name: &str, sorts: &HashMap<String, Sort>) -> Result<Expr, String> {
    let sort = sorts
        .get(name)
        .ok_or(format!("`{name}` used before it is declared"))?;
    Ok(Expr::Sym(name.to_string(), *sort))
}

/// A constant or a symbol.
fn atom(a: &str, sorts: &HashMap<String, Sort>) -> Result<Expr, String> {
    let bits = |digits: &str, radix: u32, per: usize| {
        let w = (digits.len() * per) as u32;
        match u128::from_str_radix(digits, radix) {
            Ok(v) if (1..=128).contains(&w) => Ok(Expr::Const(v, Sort::Bv(w))),
            _ => Err(format!("bad literal `{a}`")),
        }
    };
    match a {
        "true" => Ok(Expr::Const(1, Sort::Bool)),
        "false" => Ok(Expr::Const(0, Sort::Bool)),
        _ if a.starts_with("#b") => bits(&a[2..], 2, 1),
        _ if a.starts_with("#x") => bits(&a[2..], 16, 4),
        _ => sym(a, sorts),
    }
}

/// `(_ bvN w)`.
fn indexed_const(l: &[Sx]) -> Result<Expr, String> {
    match l {
        [_, Sx::Atom(v), w] if v.starts_with("bv") => {
            let w = number(w)?;
            let v: u128 = v[2..].parse().map_err(|_| format!("bad literal {l:?}"))?;
            if !(1..=128).contains(&w) || v > mask(w) {
                return Err(format!("bad literal {l:?}"));
            }
            Ok(Expr::Const(v, Sort::Bv(w)))
        }
        _ => Err(format!("bad indexed term {l:?}")),
    }
}

/// An operator's name and indices: `bvadd`, or `(_ extract 7 0)`.
fn operator(head: &Sx) -> Result<(String, Vec<u32>), String> {
    match head {
        Sx::Atom(a) => Ok((a.clone(), Vec::new())),
        Sx::List(l) if l.len() >= 3 && l[0] == Sx::Atom("_".into()) => {
            let idx = l[2..].iter().map(number).collect::<Result<_, _>>()?;
            Ok((symbol(&l[1])?, idx))
        }
        _ => Err(format!("bad operator {head:?}")),
    }
}

/// The sort of an application, after checking its arguments' sorts.
fn result_sort(op: &str, idx: &[u32], args: &[Expr]) -> Result<Sort, String> {
    let sorts: Vec<Sort> = args.iter().map(Expr::sort).collect();
    let bad = || format!("({op} {idx:?} ...) on sorts {sorts:?}");
    let all_bool = sorts.iter().all(|&s| s == Sort::Bool);
    let same_bv =
        matches!(sorts.first(), Some(Sort::Bv(_))) && sorts.iter().all(|s| *s == sorts[0]);
    let n = sorts.len();
    let ok = |c: bool, s: Sort| if c { Ok(s) } else { Err(bad()) };
    match op {
        "not" => ok(n == 1 && all_bool, Sort::Bool),
        "and" | "or" | "xor" | "=>" => ok(n >= 2 && all_bool, Sort::Bool),
        "=" | "distinct" => ok(n >= 2 && sorts.iter().all(|s| *s == sorts[0]), Sort::Bool),
        "ite" => ok(
            n == 3 && sorts[0] == Sort::Bool && sorts[1] == sorts[2],
            sorts[1],
        ),
        "bvnot" | "bvneg" => ok(n == 1 && same_bv, sorts[0]),
        "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge" => {
            ok(n == 2 && same_bv, Sort::Bool)
        }
        "concat" => {
            let w = sorts.iter().map(|s| s.width()).sum::<u32>();
            ok(
                n == 2 && sorts.iter().all(|s| *s != Sort::Bool) && w <= 128,
                Sort::Bv(w),
            )
        }
        "extract" => match (idx, sorts.first()) {
            ([hi, lo], Some(Sort::Bv(w))) if n == 1 && lo <= hi && hi < w => {
                Ok(Sort::Bv(hi - lo + 1))
            }
            _ => Err(bad()),
        },
        "zero_extend" | "sign_extend" => match (idx, sorts.first()) {
            ([k], Some(Sort::Bv(w))) if n == 1 && w + k <= 128 => Ok(Sort::Bv(w + k)),
            _ => Err(bad()),
        },
        _ if bv_binary(op).is_some() => ok(n == 2 && same_bv, sorts[0]),
        _ => Err(format!("unknown operator `{op}`")),
    }
}

/// The tests' `word_ops` name of a binary QF_BV operator.
fn bv_binary(op: &str) -> Option<&'static str> {
    Some(match op {
        "bvand" => "and",
        "bvor" => "or",
        "bvxor" => "xor",
        "bvadd" => "add",
        "bvsub" => "sub",
        "bvmul" => "mul",
        "bvudiv" => "udiv",
        "bvurem" => "urem",
        "bvsdiv" => "sdiv",
        "bvsrem" => "srem",
        "bvshl" => "sll",
        "bvlshr" => "srl",
        "bvashr" => "sra",
        "bvult" => "ult",
        "bvule" => "ulte",
        "bvugt" => "ugt",
        "bvuge" => "ugte",
        "bvslt" => "slt",
        "bvsle" => "slte",
        "bvsgt" => "sgt",
        "bvsge" => "sgte",
        "concat" => "concat",
        _ => return None,
    })
}

/// Values of variables and definitions by name.
pub type Values = HashMap<String, u128>;

impl Model {
    pub fn sort(&self, name: &str) -> Option<Sort> {
        self.sorts.get(name).copied()
    }

    /// The value of every variable (`given`, missing ones read 0) and definition.
    pub fn eval(&self, given: &Values) -> Values {
        let mut vals: Values = (self.vars.iter())
            .map(|(n, s)| {
                (
                    n.clone(),
                    given.get(n).copied().unwrap_or(0) & mask(s.width()),
                )
            })
            .collect();
        for (name, body) in &self.defs {
            let v = value(body, &vals);
            vals.insert(name.clone(), v);
        }
        vals
    }

    /// The conjuncts of `e` (through `and` and definitions).
    pub fn conjuncts<'a>(&'a self, e: &'a Expr) -> Vec<&'a Expr> {
        match e {
            Expr::App { op, args, .. } if op == "and" => {
                args.iter().flat_map(|a| self.conjuncts(a)).collect()
            }
            Expr::Sym(name, _) => match self.defs.iter().find(|(n, _)| n == name) {
                Some((_, body)) => self.conjuncts(body),
                None => vec![e],
            },
            _ => vec![e],
        }
    }

    /// The term that a conjunct `(= name t)` or `(= t name)` of `e` equates with `name`.
    pub fn equated<'a>(&'a self, e: &'a Expr, name: &str) -> Option<&'a Expr> {
        let is = |x: &Expr| matches!(x, Expr::Sym(n, _) if n == name);
        self.conjuncts(e).into_iter().find_map(|c| match c {
            Expr::App { op, args, .. } if op == "=" && args.len() == 2 => {
                if is(&args[0]) {
                    Some(&args[1])
                } else if is(&args[1]) {
                    Some(&args[0])
                } else {
                    None
                }
            }
            _ => None,
        })
    }
}

/// The value of `e` where the symbols have `vals`.
pub fn value(e: &Expr, vals: &Values) -> u128 {
    match e {
        Expr::Const(v, _) => *v,
        Expr::Sym(n, _) => vals[n],
        Expr::App {
            op,
            idx,
            args,
            sort,
        } => {
            let a: Vec<u128> = args.iter().map(|x| value(x, vals)).collect();
            let aw: Vec<u32> = args.iter().map(|x| x.sort().width()).collect();
            let b = u128::from;
            match op.as_str() {
                "not" | "bvnot" => apply("not", &a, &aw, &[], aw[0]),
                "bvneg" => apply("neg", &a, &aw, &[], aw[0]),
                "and" => b(a.iter().all(|&x| x == 1)),
                "or" => b(a.contains(&1)),
                "xor" => a.iter().fold(0, |x, y| x ^ y),
                "=>" => b(a[..a.len() - 1].iter().all(|&x| x == 1)) ^ 1 | a[a.len() - 1],
                "=" => b(a.windows(2).all(|p| p[0] == p[1])),
                "distinct" => b((0..a.len()).all(|i| (0..i).all(|j| a[i] != a[j]))),
                "ite" => apply("ite", &a, &aw, &[], sort.width()),
                "extract" => apply("slice", &a, &aw, idx, sort.width()),
                "zero_extend" => apply("uext", &a, &aw, &[], sort.width()),
                "sign_extend" => apply("sext", &a, &aw, &[], sort.width()),
                op => {
                    let name = bv_binary(op).expect("checked when read");
                    apply(name, &a, &aw, &[], sort.width())
                }
            }
        }
    }
}
