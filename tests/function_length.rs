//! Functions fit in a head: no function of `src/` is longer than [`LIMIT`] lines, except the
//! ones listed in [`LONGER`] with the length they have now, which may shrink but not grow.
//!
//! The list is a ratchet: a new function over the limit fails, a listed one that grew fails,
//! and a listed one that is now within the limit (or gone) fails too, so that the list says
//! exactly which functions are still to be split. A function is read from its `fn` line to
//! the closing brace at the same indentation (`rustfmt`'s layout); code from a
//! `#[cfg(test)]` at the start of a line on, and `tests.rs` files, are left out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The most lines a function may have (its `fn` line and its closing brace included).
const LIMIT: usize = 80;

/// The functions longer than [`LIMIT`], by file and name, with the most lines each may have.
/// Dispatch tables say why they are long; the rest are to be split.
const LONGER: &[(&str, &str, usize)] = &[
    // One arm per operator: the single definition of the operators' semantics.
    ("src/bv/value.rs", "apply", 115),
    // One arm per GNU attribute: what each one means to bitmc.
    ("src/frontend/attrs.rs", "classify", 96),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The name of the function a line declares, if it declares one.
fn declared(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "unsafe ",
        "async ",
        "extern \"C\" ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// The functions of a file's text longer than [`LIMIT`]: name and lines.
fn long_functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = declared(line) else {
            continue;
        };
        let indent = line.len() - line.trim_start().len();
        // Its body opens on the first line ending with `{` (a declaration without one ends
        // with `;`); it closes at the first `}` line at the same indentation.
        let Some(open) = (i..lines.len()).find(|&j| {
            let t = lines[j].trim_end();
            t.ends_with('{') || t.ends_with(';')
        }) else {
            continue;
        };
        if lines[open].trim_end().ends_with(';') {
            continue;
        }
        let close = (open + 1..lines.len()).find(|&j| {
            let l = lines[j];
            l.len() - l.trim_start().len() == indent && l.trim_start().starts_with('}')
        });
        let n = close.map_or(lines.len(), |j| j + 1) - i;
        if n > LIMIT {
            out.push((name.to_string(), n));
        }
    }
    out
}

#[test]
fn functions_fit_in_a_head() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    let mut found: BTreeMap<(String, String), usize> = BTreeMap::new();
    for f in &files {
        if f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("readable source");
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        for (name, n) in long_functions(&text) {
            let key = (rel.clone(), name);
            let e = found.entry(key).or_insert(0);
            *e = (*e).max(n);
        }
    }
    let mut problems = Vec::new();
    for ((file, name), n) in &found {
        match LONGER.iter().find(|(f, g, _)| f == file && g == name) {
            None => problems.push(format!(
                "{file}: fn {name} has {n} lines (limit {LIMIT}): split it"
            )),
            Some((_, _, max)) if n > max => problems.push(format!(
                "{file}: fn {name} grew to {n} lines (it may have at most {max}): split it"
            )),
            Some(_) => {}
        }
    }
    for (file, name, max) in LONGER {
        if !found.contains_key(&(file.to_string(), name.to_string())) {
            problems.push(format!(
                "{file}: fn {name} (listed with {max} lines) is now within {LIMIT} lines or gone: remove it from LONGER"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_measures_functions_as_rustfmt_lays_them_out() {
    let body: String = (0..LIMIT)
        .map(|i| format!("    let x{i} = {i};\n"))
        .collect();
    let long = format!("pub fn long() {{\n{body}}}\n\nfn short() {{\n    x();\n}}\n");
    assert_eq!(long_functions(&long), vec![("long".to_string(), LIMIT + 2)]);
    let nested = format!(
        "impl A {{\n    pub(crate) fn inner(\n        a: u8,\n    ) -> u8 {{\n{body}    }}\n}}\n"
    );
    assert_eq!(
        long_functions(&nested),
        vec![("inner".to_string(), LIMIT + 4)]
    );
    let declaration = "trait T {\n    fn f(&self);\n}\n";
    assert!(long_functions(declaration).is_empty());
    let test_code = format!("#[cfg(test)]\nmod tests {{\n    fn long() {{\n{body}    }}\n}}\n");
    assert!(long_functions(&test_code).is_empty());
}
