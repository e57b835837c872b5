//! A line probe per statement in a gcc build of a C program, written for the trace oracle only
//! (it shares nothing with bitmc's front end but the C parser): the program is preprocessed by
//! gcc, parsed by lang-c, and every statement that runs code gets a call
//! `__bitmc_probe(LINE)` at its start, LINE being the original file's line of the statement's
//! start (for a condition, of its `if`, loop or `switch`; for a `for` loop's parts, of the
//! `for`), read from the preprocessor's line markers. The probe writes the line to standard
//! output at once (the harness writes nothing there), so a run that ends in `_exit` or a trap
//! keeps every line it passed.
//!
//! What is probed: declarations of local objects (not `static`, `extern` or `typedef`, not
//! only functions); expression statements; `return`, `break`, `continue`, `goto`; the
//! conditions of `if`, `while`, `do` and `for` and the expression of `switch` (also constant
//! ones, which the abstract machine evaluates too); a `for` loop's initialiser and step. Compound statements, labels and empty statements run no code
//! of their own. A local declared without an initialiser is then given the next value of
//! `BITMC_UNINIT` (comma-separated unsigned decimals, 0 when exhausted; element by element
//! for arrays), so that the compiled program's uninitialised values are the trace's. The
//! bodies of `reach_error` and `__VERIFIER_error` are not probed: reaching their call is the
//! violation.

use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::Visit;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The probe's runtime, compiled with the program and the harness.
const RUNTIME: &str = r#"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
void __bitmc_probe(int line) {
    char buf[16];
    int n = sizeof buf;
    buf[--n] = '\n';
    do { buf[--n] = (char)('0' + line % 10); line /= 10; } while (line > 0 && n > 0);
    ssize_t r = write(1, buf + n, sizeof buf - n);
    (void)r;
}
static const char *uninit_cursor;
static int uninit_started;
static uint64_t next_uninit(void) {
    if (!uninit_started) { uninit_started = 1; uninit_cursor = getenv("BITMC_UNINIT"); }
    if (uninit_cursor == NULL || *uninit_cursor == '\0') return 0;
    char *end;
    uint64_t v = strtoull(uninit_cursor, &end, 10);
    uninit_cursor = *end == ',' ? end + 1 : end;
    return v;
}
void __bitmc_uninit(void *object, unsigned long size, unsigned long element) {
    for (unsigned long at = 0; at + element <= size; at += element) {
        uint64_t v = next_uninit();
        memcpy((char *)object + at, &v, element < 8 ? element : 8);
    }
}
"#;

/// The declarations of the runtime, put before the program.
const PRELUDE: &str = "void __bitmc_probe(int);\nvoid __bitmc_uninit(void *, unsigned long, unsigned long);\ntypedef int __bitmc_float128;\n";

/// An instrumented build: the binary and how many probes it has.
pub struct Probed {
    pub binary: PathBuf,
    pub probes: usize,
}

/// Builds `source` (a C file) with a probe per statement in `dir`, with `flags` (the
/// harness's: data model, `-Dmain=...`) and the harness object `harness`.
pub fn build(source: &Path, dir: &Path, flags: &[&str], harness: &Path) -> Result<Probed, String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("program");
    let out = Command::new("gcc")
        .args(flags)
        .args(["-E", "-D__float128=__bitmc_float128"])
        .arg(source)
        .output()
        .map_err(|e| format!("gcc -E cannot run: {e}"))?;
    if !out.status.success() {
        return Err(format!("gcc -E: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let text = format!("{PRELUDE}{}", String::from_utf8_lossy(&out.stdout));
    let config = lang_c::driver::Config {
        flavor: lang_c::driver::Flavor::GnuC11,
        ..Default::default()
    };
    let parsed = lang_c::driver::parse_preprocessed(&config, without_elvis(&text))
        .map_err(|e| format!("lang-c: {e}"))?;
    let lines = Lines::new(&text, &source.display().to_string());
    let mut ins = Instrument {
        lines: &lines,
        edits: Vec::new(),
        probes: 0,
    };
    for d in &parsed.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &d.node {
            // Reaching a call of an error function is the violation: what a definition of
            // one does after is not part of the trace.
            let name = declarator_name(&f.node.declarator.node);
            if !matches!(name.as_deref(), Some("reach_error" | "__VERIFIER_error")) {
                ins.statement(&f.node.statement);
            }
        }
    }
    let probes = ins.probes;
    let mut edits: Vec<(usize, usize, String)> = ins
        .edits
        .into_iter()
        .enumerate()
        .map(|(k, (at, s))| (at, k, s))
        .collect();
    // Applied from the end of the text; texts inserted at one offset end up in the order
    // they were made.
    edits.sort_by_key(|e| std::cmp::Reverse((e.0, e.1)));
    let mut out = text;
    for (at, _, s) in &edits {
        out.insert_str(*at, s);
    }
    let file = dir.join(format!("{stem}.probed.i"));
    std::fs::write(&file, out).map_err(|e| e.to_string())?;
    let rt = dir.join("probe_runtime.c");
    std::fs::write(&rt, RUNTIME).map_err(|e| e.to_string())?;
    let binary = dir.join(format!("{stem}.probed"));
    let o = Command::new("gcc")
        .args(flags)
        .arg(&file)
        .arg(&rt)
        .arg(harness)
        .arg("-o")
        .arg(&binary)
        .output()
        .map_err(|e| format!("gcc cannot run: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "gcc rejects the probed program {}: {}",
            file.display(),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(Probed { binary, probes })
}

/// Runs a probed binary on the nondet values and uninitialised values given: the lines it
/// passed and its exit code (`None` when a signal ended it, e.g. a division by zero, or when
/// it ran longer than 20 s).
pub fn run(bin: &Path, nondet: &[u64], uninit: &[u64]) -> (Vec<u32>, Option<i32>) {
    let join = |v: &[u64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let out = Command::new("timeout")
        .arg("20")
        .arg(bin)
        .env("BITMC_NONDET", join(nondet))
        .env("BITMC_UNINIT", join(uninit))
        .output()
        .expect("the probed program runs");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect();
    let code = out.status.code().filter(|&c| c != 124);
    (lines, code)
}

/// The original line of each line of preprocessed text, from its line markers: `None` for
/// lines of other files than the main one.
struct Lines {
    /// The byte offset of each line's start, and its original line in the main file.
    starts: Vec<(usize, Option<u32>)>,
}

impl Lines {
    fn new(text: &str, main: &str) -> Lines {
        let mut starts = Vec::new();
        let mut at = 0;
        let mut cur: Option<u32> = None;
        for line in text.split_inclusive('\n') {
            let marker = line.strip_prefix("# ").and_then(|rest| {
                let mut parts = rest.splitn(2, ' ');
                let n: u32 = parts.next()?.parse().ok()?;
                let file = parts.next()?.trim_end();
                let name = file.split('"').nth(1)?;
                Some((n, name == main))
            });
            match marker {
                Some((n, is_main)) => {
                    starts.push((at, None));
                    cur = is_main.then_some(n);
                }
                None => {
                    starts.push((at, cur));
                    cur = cur.map(|n| n + 1);
                }
            }
            at += line.len();
        }
        Lines { starts }
    }

    /// The original line of a byte offset, when it is in the main file.
    fn line(&self, offset: usize) -> Option<u32> {
        let i = self.starts.partition_point(|(s, _)| *s <= offset);
        self.starts.get(i.checked_sub(1)?)?.1
    }
}

struct Instrument<'a> {
    lines: &'a Lines,
    /// Text to insert at byte offsets.
    edits: Vec<(usize, String)>,
    probes: usize,
}

impl Instrument<'_> {
    fn probe_call(&mut self, line: u32) -> String {
        self.probes += 1;
        format!("__bitmc_probe({line})")
    }

    /// `{ probe; S }` around a statement that runs code of its own.
    fn wrap(&mut self, span: Span, line: u32) {
        let p = self.probe_call(line);
        self.edits.push((span.start, format!("{{{p}; ")));
        self.edits.push((span.end, " }".into()));
    }

    /// `(probe, (E))` around an expression evaluated as part of the statement at `line`.
    fn comma(&mut self, e: &Node<Expression>, line: u32) {
        let p = self.probe_call(line);
        self.edits.push((e.span.start, format!("({p}, (")));
        self.edits.push((e.span.end, "))".into()));
    }

    /// The statements inside GNU statement expressions (`({ ... })`, as `assert` expands to)
    /// of an expression.
    fn nested(&mut self, e: &Node<Expression>) {
        let mut found = Nested(Vec::new());
        found.visit_expression(&e.node, &e.span);
        for s in found.0 {
            self.statement(s);
        }
    }

    fn statement(&mut self, s: &Node<Statement>) {
        let Some(line) = self.lines.line(s.span.start) else {
            return;
        };
        let mut found = Nested(Vec::new());
        match &s.node {
            Statement::Expression(Some(e)) | Statement::Return(Some(e)) => {
                found.visit_expression(&e.node, &e.span)
            }
            Statement::If(i) => {
                found.visit_expression(&i.node.condition.node, &i.node.condition.span)
            }
            Statement::While(w) => {
                found.visit_expression(&w.node.expression.node, &w.node.expression.span)
            }
            Statement::DoWhile(d) => {
                found.visit_expression(&d.node.expression.node, &d.node.expression.span)
            }
            Statement::Switch(sw) => {
                found.visit_expression(&sw.node.expression.node, &sw.node.expression.span)
            }
            _ => {}
        }
        for inner in found.0 {
            self.statement(inner);
        }
        match &s.node {
            Statement::Compound(items) => {
                for i in items {
                    match &i.node {
                        BlockItem::Declaration(d) => self.declaration(d),
                        BlockItem::Statement(s) => self.statement(s),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
            }
            Statement::Expression(None) => {}
            Statement::Expression(Some(_))
            | Statement::Return(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Goto(_) => self.wrap(s.span, line),
            Statement::Labeled(l) => self.statement(&l.node.statement),
            Statement::If(i) => {
                self.comma(&i.node.condition, line);
                self.statement(&i.node.then_statement);
                if let Some(e) = &i.node.else_statement {
                    self.statement(e);
                }
            }
            Statement::While(w) => {
                self.comma(&w.node.expression, line);
                self.statement(&w.node.statement);
            }
            Statement::DoWhile(d) => {
                self.statement(&d.node.statement);
                self.comma(&d.node.expression, line);
            }
            Statement::For(f) => {
                match &f.node.initializer.node {
                    ForInitializer::Expression(e) => self.comma(e, line),
                    ForInitializer::Declaration(d) if automatic(&d.node) => {
                        self.wrap(s.span, line);
                    }
                    _ => {}
                }
                if let ForInitializer::Expression(e) = &f.node.initializer.node {
                    self.nested(e);
                }
                if let Some(c) = &f.node.condition {
                    self.nested(c);
                    self.comma(c, line);
                }
                if let Some(st) = &f.node.step {
                    self.nested(st);
                    self.comma(st, line);
                }
                self.statement(&f.node.statement);
            }
            Statement::Switch(sw) => {
                self.comma(&sw.node.expression, line);
                self.statement(&sw.node.statement);
            }
            Statement::Asm(_) => {}
        }
    }

    /// A declaration in a block: a probe before it, and the uninitialised values after it.
    fn declaration(&mut self, d: &Node<Declaration>) {
        let Some(line) = self.lines.line(d.span.start) else {
            return;
        };
        if !automatic(&d.node) {
            return;
        }
        let p = self.probe_call(line);
        self.edits.push((d.span.start, format!("{p}; ")));
        let mut found = Nested(Vec::new());
        found.visit_declaration(&d.node, &d.span);
        for inner in found.0 {
            self.statement(inner);
        }
        let mut fills = String::new();
        for idecl in &d.node.declarators {
            if idecl.node.initializer.is_some() {
                continue;
            }
            let decl = &idecl.node.declarator.node;
            let Some(name) = declarator_name(decl) else {
                continue;
            };
            let arrays = decl
                .derived
                .iter()
                .filter(|x| matches!(x.node, DerivedDeclarator::Array(_)))
                .count();
            if decl.derived.len() != arrays {
                // A pointer without an initialiser is never read before it is assigned.
                continue;
            }
            let element = format!("{name}{}", "[0]".repeat(arrays));
            fills.push_str(&format!(
                " __bitmc_uninit(&{name}, sizeof({name}), sizeof({element}));"
            ));
        }
        if !fills.is_empty() {
            self.edits.push((d.span.end, fills));
        }
    }
}

/// Whether a declaration declares a local object of automatic storage: no `static`,
/// `extern` or `typedef`, and a declarator that is not a function's.
fn automatic(d: &Declaration) -> bool {
    let storage = d.specifiers.iter().any(|s| {
        matches!(
            &s.node,
            DeclarationSpecifier::StorageClass(c) if !matches!(
                c.node,
                StorageClassSpecifier::Auto | StorageClassSpecifier::Register
            )
        )
    });
    !storage
        && d.declarators
            .iter()
            .any(|i| !declares_function(&i.node.declarator.node))
}

/// Whether a declarator declares a function (`f(int)`, `*f(int)`), not a pointer to one
/// (`(*f)(int)`): the function derivation must apply to the name itself.
fn declares_function(d: &Declarator) -> bool {
    let own = d.derived.iter().any(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    });
    match &d.kind.node {
        DeclaratorKind::Declarator(inner) if !inner.node.derived.is_empty() => {
            declares_function(&inner.node)
        }
        DeclaratorKind::Declarator(inner) => own || declares_function(&inner.node),
        _ => own,
    }
}

fn declarator_name(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// The outermost statements of GNU statement expressions in what it visits.
struct Nested<'ast>(Vec<&'ast Node<Statement>>);

impl<'ast> Visit<'ast> for Nested<'ast> {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        match e {
            Expression::Statement(s) => self.0.push(s),
            _ => lang_c::visit::visit_expression(self, e, span),
        }
    }
}

/// `text` with GNU's `a ?: b`, which lang-c does not parse, turned into `a +  b` (the `?`
/// a `+`, the `:` a blank): the same length, so the statements' offsets are those of `text`,
/// which gcc builds. Directives, string literals and character constants are left alone.
fn without_elvis(text: &str) -> String {
    let mut out: Vec<char> = text.chars().collect();
    let (mut i, mut quote, mut line_start) = (0, None, true);
    while i < out.len() {
        let c = out[i];
        match quote {
            Some(q) => {
                if c == '\\' {
                    i += 1;
                } else if c == q || c == '\n' {
                    quote = None;
                }
            }
            None if c == '#' && line_start => {
                while i < out.len() && out[i] != '\n' {
                    i += 1;
                }
            }
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '?' => {
                let mut j = i + 1;
                while j < out.len() && out[j].is_whitespace() {
                    j += 1;
                }
                if out.get(j) == Some(&':') {
                    out[i] = '+';
                    out[j] = ' ';
                }
            }
            None => {}
        }
        line_start = out.get(i) == Some(&'\n') || (line_start && (c == ' ' || c == '\t'));
        i += 1;
    }
    out.into_iter().collect()
}
