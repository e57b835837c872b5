//! The layers of `src/` in dependency order (`ARCHITECTURE.md`, "Layers"), enforced.
//!
//! Within one crate the compiler accepts any import, so this test does what crate boundaries
//! would: it reads every source file under `src/`, collects the paths it names (`use` trees and
//! `crate::`/`super::`/`self::`/`bitmc::` paths in code, comments and literals left out), resolves
//! them to modules and fails on
//!
//! - an import that goes **up a layer** (a module naming one of a higher layer), and
//! - a **cycle** between modules (Tarjan's strongly connected components over the module graph).
//!
//! **What counts as a module** (a node of the graph): a top-level module of `src/` (its file, or its
//! directory with everything under it), except that inside `ts/`, `cli/` and `frontend/` each file
//! is a module of its own (`ts/program.rs`, `cli/verify.rs`, …; a `mod.rs` is its directory's
//! module). A `mod.rs` naming a module of its own directory is that directory declaring,
//! re-exporting and dispatching to its parts, as `lib.rs` does for the top-level modules: that
//! edge does not count (the converse does: a file using its `mod.rs`'s items depends on it). A
//! path to an item of the crate root counts for no module. Code under `#[cfg(test)]` (inline
//! test modules and test files declared with it) is left out, as dev-dependencies are across
//! crates.
//!
//! A failure names the importing file, its line and the path as written. With
//! `BITMC_LAYERS_VERBOSE=1` the test prints every edge of the module graph.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may import from its own layer (without closing a cycle)
/// and from the layers below it, never from one above. Keep in step with `ARCHITECTURE.md`.
const LAYERS: &[(&str, &[&str])] = &[
    ("SAT", &["sat"]),
    ("logic", &["bv", "aig", "cnf"]),
    ("programs: CFA and interpreter", &["cfa"]),
    ("C front end and tasks", &["frontend", "task"]),
    ("transition systems and formats", &["ts"]),
    ("engines", &["engine"]),
    ("witnesses and checking", &["witness"]),
    ("verification driver", &["verify"]),
    ("CLI and benchmarks", &["cli", "bench", "main"]),
];

/// Directories whose files are modules of their own.
const PER_FILE: &[&str] = &["ts", "cli", "frontend"];

/// A node of the module graph: `engine`, `ts::program`, `cli::verify`, `bench`, `main`.
type Node = String;

/// A path one file names.
#[derive(Clone, Debug)]
struct Import {
    file: String,
    line: usize,
    path: String,
}

fn main_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: `src/ts/program.rs` → `[ts, program]`, `src/ts/mod.rs` → `[ts]`,
/// `src/lib.rs` and `src/main.rs` → `[]`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !(stem == "mod" || (parts.is_empty() && (stem == "lib" || stem == "main"))) {
        parts.push(stem.to_string());
    }
    parts
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Colons,
    Punct(char),
}

/// The tokens of a source file with their lines; comments, string, byte-string and character
/// literals and lifetimes are dropped.
fn tokens(src: &str) -> Vec<(usize, Tok)> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| b.get(i).copied().unwrap_or('\0');
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' || ((c == 'r' || c == 'b') && raw_or_byte_string(&b, i).is_some()) {
            // "…", b"…", r"…", r#"…"#, br#"…"#
            let (start, hashes) = if c == '"' {
                (i, None)
            } else {
                raw_or_byte_string(&b, i).unwrap()
            };
            i = start + 1;
            match hashes {
                None => {
                    while i < b.len() && b[i] != '"' {
                        if b[i] == '\\' {
                            i += 1;
                        }
                        if at(i) == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                Some(n) => loop {
                    if i >= b.len() {
                        break;
                    }
                    if b[i] == '"' && (1..=n).all(|k| at(i + k) == '#') {
                        i += 1 + n;
                        break;
                    }
                    if b[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                },
            }
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{41}', b'x' has its b read as an identifier
            // first, which is harmless) or a lifetime ('a, 'static).
            if at(i + 1) == '\\' {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
                while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let s = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            let word: String = b[s..i].iter().collect();
            out.push((line, Tok::Ident(word.trim_start_matches("r#").to_string())));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push((line, Tok::Colons));
            i += 2;
        } else {
            out.push((line, Tok::Punct(c)));
            i += 1;
        }
    }
    out
}

/// At `i`, the start of `b"`, `r"`, `r#"`, `br"`, `br#"`: the index of its opening quote and,
/// for a raw string, its number of `#`.
fn raw_or_byte_string(b: &[char], i: usize) -> Option<(usize, Option<usize>)> {
    if i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if b.get(j) == Some(&'b') {
        j += 1;
    }
    let raw = b.get(j) == Some(&'r');
    if raw {
        j += 1;
    }
    if j == i {
        return None;
    }
    let mut hashes = 0;
    while raw && b.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (b.get(j) == Some(&'"')).then_some((j, raw.then_some(hashes)))
}

/// The paths a file names, each with the module scope it appears in (the file's module plus
/// inline modules), skipping `#[cfg(test)]` items. Also the child modules the file declares
/// `#[cfg(test)]` (test files).
struct Scan {
    /// (scope, segments as written, line)
    paths: Vec<(Vec<String>, Vec<String>, usize)>,
    test_children: Vec<String>,
}

fn scan(toks: &[(usize, Tok)], file_module: &[String]) -> Scan {
    let mut scan = Scan {
        paths: Vec::new(),
        test_children: Vec::new(),
    };
    // Inline modules open: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let ident = |k: usize| match toks.get(k) {
        Some((_, Tok::Ident(s))) => Some(s.as_str()),
        _ => None,
    };
    let punct = |k: usize, c: char| matches!(toks.get(k), Some((_, Tok::Punct(p))) if *p == c);
    let colons = |k: usize| matches!(toks.get(k), Some((_, Tok::Colons)));
    while i < toks.len() {
        // `#[cfg(test)]` followed by an item: skip the item (up to its `;` or matching `}`).
        if punct(i, '#')
            && punct(i + 1, '[')
            && ident(i + 2) == Some("cfg")
            && punct(i + 3, '(')
            && ident(i + 4) == Some("test")
            && punct(i + 5, ')')
            && punct(i + 6, ']')
        {
            let mut k = i + 7;
            // Further attributes.
            while punct(k, '#') {
                let mut d = 0;
                loop {
                    if punct(k, '[') {
                        d += 1;
                    } else if punct(k, ']') {
                        d -= 1;
                        if d == 0 {
                            k += 1;
                            break;
                        }
                    }
                    k += 1;
                }
            }
            if ident(k) == Some("mod") && punct(k + 2, ';') {
                scan.test_children.push(ident(k + 1).unwrap().to_string());
            }
            let mut d = 0;
            while k < toks.len() {
                if punct(k, '{') {
                    d += 1;
                } else if punct(k, '}') {
                    d -= 1;
                    if d == 0 {
                        break;
                    }
                } else if punct(k, ';') && d == 0 {
                    break;
                }
                k += 1;
            }
            i = k + 1;
            continue;
        }
        let scope = || {
            let mut s = file_module.to_vec();
            s.extend(inline.iter().map(|(n, _)| n.clone()));
            s
        };
        match &toks[i].1 {
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
                i += 1;
            }
            Tok::Ident(w) if w == "mod" && ident(i + 1).is_some() && punct(i + 2, '{') => {
                depth += 1;
                inline.push((ident(i + 1).unwrap().to_string(), depth));
                i += 3;
            }
            Tok::Ident(w) if w == "use" => {
                let mut k = i + 1;
                if colons(k) {
                    k += 1; // `use ::std::…`
                }
                let mut out = Vec::new();
                k = use_tree(toks, k, Vec::new(), &mut out);
                for (segs, line) in out {
                    scan.paths.push((scope(), segs, line));
                }
                i = k;
            }
            Tok::Ident(w) if colons(i + 1) && !(i > 0 && colons(i - 1)) => {
                let mut segs = vec![w.clone()];
                let mut k = i + 1;
                let mut line = toks[i].0;
                while colons(k) {
                    match &toks.get(k + 1) {
                        Some((l, Tok::Ident(s))) => {
                            segs.push(s.clone());
                            line = *l;
                            k += 2;
                        }
                        _ => break,
                    }
                }
                scan.paths.push((scope(), segs, line));
                i = k;
            }
            _ => i += 1,
        }
    }
    scan
}

/// Reads a use tree from `k` (after `use`), with `prefix` already read; pushes every leaf path
/// (with the line of its last segment) and returns the index after the tree.
fn use_tree(
    toks: &[(usize, Tok)],
    mut k: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let mut line = toks.get(k).map_or(0, |t| t.0);
    loop {
        match toks.get(k) {
            Some((l, Tok::Ident(s))) if s != "as" => {
                prefix.push(s.clone());
                line = *l;
                k += 1;
                if matches!(toks.get(k), Some((_, Tok::Colons))) {
                    k += 1;
                    continue;
                }
                if matches!(toks.get(k), Some((_, Tok::Ident(a))) if a == "as") {
                    k += 2;
                }
                out.push((prefix, line));
                return k;
            }
            Some((l, Tok::Punct('*'))) => {
                out.push((prefix, *l));
                return k + 1;
            }
            Some((_, Tok::Punct('{'))) => {
                k += 1;
                loop {
                    match toks.get(k) {
                        Some((_, Tok::Punct('}'))) => return k + 1,
                        Some((_, Tok::Punct(','))) => k += 1,
                        None => return k,
                        _ => k = use_tree(toks, k, prefix.clone(), out),
                    }
                }
            }
            _ => {
                if !prefix.is_empty() {
                    out.push((prefix, line));
                }
                return k;
            }
        }
    }
}

struct Graph {
    /// Every node, with the file it comes from.
    nodes: BTreeMap<Node, String>,
    /// importer → imported → the imports that make the edge.
    edges: BTreeMap<Node, BTreeMap<Node, Vec<Import>>>,
}

fn node_of_module(module: &[String]) -> Option<Node> {
    match module.first().map(String::as_str) {
        None => None,
        Some(top) if PER_FILE.contains(&top) => Some(module.join("::")),
        Some(top) => Some(top.to_string()),
    }
}

fn build_graph() -> Graph {
    let src = main_src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // The modules that have a file, and each file's module.
    let mut file_modules: BTreeMap<Vec<String>, PathBuf> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        file_modules.insert(module_of(rel), rel.to_path_buf());
    }
    let mut scans = BTreeMap::new();
    let mut test_modules: BTreeSet<Vec<String>> = BTreeSet::new();
    for (module, rel) in &file_modules {
        let text = std::fs::read_to_string(src.join(rel)).unwrap();
        let s = scan(&tokens(&text), module);
        for child in &s.test_children {
            let mut m = module.clone();
            m.push(child.clone());
            test_modules.insert(m);
        }
        scans.insert(module.clone(), s);
    }
    let is_test = |m: &[String]| (1..=m.len()).any(|n| test_modules.contains(&m[..n]));
    let mut graph = Graph {
        nodes: BTreeMap::new(),
        edges: BTreeMap::new(),
    };
    for (module, rel) in &file_modules {
        if is_test(module) {
            continue;
        }
        let file = format!("src/{}", rel.display());
        let from = if rel == Path::new("main.rs") {
            "main".to_string()
        } else {
            match node_of_module(module) {
                Some(n) => n,
                None => continue, // lib.rs: module declarations only
            }
        };
        graph.nodes.insert(from.clone(), file.clone());
        for (scope, segs, line) in &scans[module].paths {
            let Some(target) = resolve(scope, segs, &file_modules) else {
                continue;
            };
            if is_test(&target) {
                continue;
            }
            let Some(to) = node_of_module(&target) else {
                continue;
            };
            if to == from || to.starts_with(&format!("{from}::")) {
                continue; // inside one module, or a `mod.rs` naming its directory's parts
            }
            graph
                .edges
                .entry(from.clone())
                .or_default()
                .entry(to)
                .or_default()
                .push(Import {
                    file: file.clone(),
                    line: *line,
                    path: segs.join("::"),
                });
        }
    }
    graph
}

/// The module (with a file) that a path names from `scope`, or `None` for a path outside the
/// crate (std, other crates, a local item).
fn resolve(
    scope: &[String],
    segs: &[String],
    file_modules: &BTreeMap<Vec<String>, PathBuf>,
) -> Option<Vec<String>> {
    let mut abs: Vec<String>;
    let mut rest = segs;
    match segs[0].as_str() {
        "crate" | "bitmc" => {
            abs = Vec::new();
            rest = &segs[1..];
        }
        "self" | "super" => {
            abs = scope.to_vec();
            while let Some(s) = rest.first() {
                match s.as_str() {
                    "self" => {}
                    "super" => {
                        abs.pop()?;
                    }
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        first => {
            // A child module of the scope (2018 paths), if the scope has one of that name.
            let mut child = scope.to_vec();
            child.push(first.to_string());
            if !file_modules.contains_key(&child) {
                return None;
            }
            abs = scope.to_vec();
        }
    }
    // The longest prefix that is a module with a file.
    let mut best = if file_modules.contains_key(&abs) {
        Some(abs.clone())
    } else {
        None
    };
    for s in rest {
        abs.push(s.clone());
        if file_modules.contains_key(&abs) {
            best = Some(abs.clone());
        }
    }
    best
}

fn layer_of(node: &str) -> usize {
    let top = node.split("::").next().unwrap();
    LAYERS
        .iter()
        .position(|(_, ms)| ms.contains(&top))
        .unwrap_or_else(|| {
            panic!("module `{top}` is in no layer: add it to LAYERS here and to ARCHITECTURE.md")
        })
}

/// Tarjan's strongly connected components, iteratively; returns those with more than one node.
fn cycles(graph: &Graph) -> Vec<Vec<Node>> {
    let names: Vec<&Node> = graph.nodes.keys().collect();
    let index_of: BTreeMap<&Node, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = names
        .iter()
        .map(|n| {
            graph
                .edges
                .get(*n)
                .map(|m| m.keys().filter_map(|t| index_of.get(t).copied()).collect())
                .unwrap_or_default()
        })
        .collect();
    let n = names.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut child)) = work.last_mut() {
            if *child == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if *child < succ[v].len() {
                let w = succ[v][*child];
                *child += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = stack.pop().unwrap();
                    on_stack[w] = false;
                    comp.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    out.push(comp);
                }
            }
        }
    }
    out.sort();
    out
}

fn show(imports: &[Import]) -> String {
    imports
        .iter()
        .map(|i| format!("{}:{}: {}", i.file, i.line, i.path))
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn layers_in_dependency_order_and_no_cycles() {
    let graph = build_graph();
    if std::env::var_os("BITMC_LAYERS_VERBOSE").is_some() {
        for (from, tos) in &graph.edges {
            for (to, imports) in tos {
                eprintln!("{from} -> {to}   ({})", show(&imports[..1]));
            }
        }
    }
    let mut failures = String::new();
    let mut upward = 0;
    for (from, tos) in &graph.edges {
        for (to, imports) in tos {
            let (lf, lt) = (layer_of(from), layer_of(to));
            if lt > lf {
                upward += imports.len();
                for i in imports {
                    writeln!(
                        failures,
                        "{}:{}: `{}` imports `{}`, which is up a layer: {} ({}) is above {} ({})",
                        i.file, i.line, from, i.path, to, LAYERS[lt].0, from, LAYERS[lf].0
                    )
                    .unwrap();
                }
            }
        }
    }
    let found = cycles(&graph);
    for comp in &found {
        writeln!(failures, "import cycle between {}:", comp.join(", ")).unwrap();
        for from in comp {
            for to in comp {
                if let Some(imports) = graph.edges.get(from).and_then(|m| m.get(to)) {
                    writeln!(failures, "  {from} -> {to}: {}", show(imports)).unwrap();
                }
            }
        }
    }
    eprintln!(
        "layers: {} modules, {} edges, {} upward imports, {} import cycles",
        graph.nodes.len(),
        graph.edges.values().map(BTreeMap::len).sum::<usize>(),
        upward,
        found.len(),
    );
    assert!(failures.is_empty(), "\n{failures}");
}

/// The scanner itself: what it reads and what it leaves out.
#[test]
fn scanner_reads_paths_not_comments_or_literals() {
    let src = r##"
//! use crate::engine;
use super::{model::Model, Plan};
use crate::aig::{self, blast::Blaster as B};
/* crate::witness /* nested */ crate::verify */
fn f() -> &'static str { let c = '"'; let s = "crate::engine"; let r = r#"super::x"#; x(crate::cfa::Cfa::new()) }
#[cfg(test)]
mod tests { use crate::engine::Verdict; }
mod inner { use super::super::bv::TermId; }
"##;
    let module = vec!["ts".to_string(), "program".to_string()];
    let s = scan(&tokens(src), &module);
    let got: Vec<(String, String, usize)> = s
        .paths
        .iter()
        .map(|(scope, segs, line)| (scope.join("::"), segs.join("::"), *line))
        .collect();
    let want = [
        ("ts::program", "super::model::Model", 3),
        ("ts::program", "super::Plan", 3),
        ("ts::program", "crate::aig::self", 4),
        ("ts::program", "crate::aig::blast::Blaster", 4),
        ("ts::program", "crate::cfa::Cfa::new", 6),
        ("ts::program::inner", "super::super::bv::TermId", 9),
    ];
    let want: Vec<(String, String, usize)> = want
        .iter()
        .map(|(a, b, l)| (a.to_string(), b.to_string(), *l))
        .collect();
    assert_eq!(got, want);
}
