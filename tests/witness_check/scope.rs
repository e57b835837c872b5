//! The variables in scope at a position of a C program, read from its text (for the
//! independent invariant check, which gives them arbitrary values at a loop head): the
//! globals declared before the function, its parameters, and the locals of the blocks that
//! are open there (with the declarations in the header of an enclosing `for`). Only plain
//! integer objects and arrays of them are listed: a declarator with `*` or `(` (a pointer, a
//! function), and declarations with `const`, `extern`, `typedef`, `struct`, `union` or `enum`
//! are left out.

use super::source::{ident_byte, Source};

/// A variable: its name and the number of its array dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    pub name: String,
    pub dims: usize,
}

/// Words that start a declaration of integer objects.
const TYPE_WORDS: [&str; 14] = [
    "int",
    "unsigned",
    "signed",
    "char",
    "short",
    "long",
    "_Bool",
    "bool",
    "static",
    "register",
    "volatile",
    "auto",
    "__int128",
    "__signed__",
];

/// Words that make a declaration one this reader leaves out.
const SKIP_WORDS: [&str; 6] = ["const", "extern", "typedef", "struct", "union", "enum"];

/// The words of a text (identifiers and keywords), in order.
fn words(t: &str) -> Vec<&str> {
    t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The names a `typedef` of the text defines (the last identifier before its `;`), and the
/// usual `..._t` names.
fn is_type_name(w: &str, typedefs: &[String]) -> bool {
    TYPE_WORDS.contains(&w) || w.ends_with("_t") || typedefs.iter().any(|t| t == w)
}

/// The objects a statement declares, when it is a declaration of integer objects.
fn declared(stmt: &str, typedefs: &[String]) -> Vec<Var> {
    let t = stmt.trim();
    let ws = words(t);
    let Some(first) = ws.first() else {
        return Vec::new();
    };
    if !is_type_name(first, typedefs) || ws.iter().any(|w| SKIP_WORDS.contains(w)) {
        return Vec::new();
    }
    // Skip the type words, then split the declarators at the top-level commas.
    let b = t.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let s = i;
        while i < b.len() && ident_byte(b[i]) {
            i += 1;
        }
        if s == i || !is_type_name(&t[s..i], typedefs) {
            i = s;
            break;
        }
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = i;
    for j in i..=b.len() {
        let c = b.get(j).copied().unwrap_or(b',');
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                let d = &t[start..j];
                let d = split_top(d, b'=');
                if !d.contains('*') && !d.contains('(') {
                    let name: String = d
                        .trim()
                        .bytes()
                        .take_while(|&c| ident_byte(c))
                        .map(char::from)
                        .collect();
                    if !name.is_empty() && !name.as_bytes()[0].is_ascii_digit() {
                        out.push(Var {
                            name,
                            dims: d.matches('[').count(),
                        });
                    }
                }
                start = j + 1;
            }
            _ => {}
        }
    }
    out
}

/// The part of `t` before its first top-level `c`.
fn split_top(t: &str, c: u8) -> &str {
    let mut depth = 0i32;
    for (i, b) in t.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if b == c && depth == 0 => return &t[..i],
            _ => {}
        }
    }
    t
}

/// The typedef names of a program.
fn typedefs(src: &Source) -> Vec<String> {
    let m = String::from_utf8_lossy(&src.masked).into_owned();
    m.split(';')
        .filter(|s| words(s).contains(&"typedef"))
        .filter_map(|s| words(s).last().map(|w| w.to_string()))
        .collect()
}

/// The variables in scope at `off` (inside a function body).
pub fn in_scope(src: &Source, off: usize) -> Vec<Var> {
    let tds = typedefs(src);
    let Some((_, body, _)) = src
        .functions()
        .into_iter()
        .find(|(_, s, e)| *s < off && off < *e)
    else {
        return Vec::new();
    };
    let m = &src.masked;
    let text = |a: usize, b: usize| String::from_utf8_lossy(&m[a..b]).into_owned();
    let mut vars = Vec::new();
    // Globals: the top-level declarations before the function.
    let mut stmt = 0;
    let mut i = 0;
    while i < body {
        match m[i] {
            b';' => {
                vars.extend(declared(&text(stmt, i), &tds));
                stmt = i + 1;
            }
            b'{' => {
                let init = split_top(&text(stmt, i), b'=').len() < i - stmt;
                let close = src.matching(i).unwrap_or(body).min(body);
                if init {
                    i = close;
                } else {
                    // A function body or a struct: skip it with its statement.
                    i = close;
                    stmt = i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    // The parameters.
    let mut j = body;
    while j > 0 && m[j - 1].is_ascii_whitespace() {
        j -= 1;
    }
    if j > 0 && m[j - 1] == b')' {
        if let Some(open) = src.matching_back(j - 1) {
            for p in text(open + 1, j - 1).split(',') {
                vars.extend(declared(p, &tds));
            }
        }
    }
    // The locals of the open blocks.
    let mut frames: Vec<Vec<Var>> = vec![Vec::new()];
    let mut pending: Vec<Var> = Vec::new();
    let mut stmt = body + 1;
    let mut i = body + 1;
    let mut paren = 0i32;
    while i < off {
        match m[i] {
            b'(' | b'[' => paren += 1,
            b')' | b']' => paren -= 1,
            b';' if paren == 0 => {
                vars_or_for(&text(stmt, i), &tds, &mut frames, &mut pending);
                stmt = i + 1;
            }
            b'{' if paren == 0 => {
                let s = text(stmt, i);
                if split_top(&s, b'=').len() < s.len() {
                    // An initialiser list: part of the statement.
                    i = src.matching(i).unwrap_or(off);
                } else {
                    for_header(&s, &tds, &mut pending);
                    frames.push(std::mem::take(&mut pending));
                    stmt = i + 1;
                }
            }
            b'}' if paren == 0 => {
                frames.pop();
                if frames.is_empty() {
                    frames.push(Vec::new());
                }
                pending.clear();
                stmt = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    // The loop at `off` itself: the declarations of its `for` header.
    if src.word_at(off, "for") {
        if let Some(close) = src.matching(src.skip_blank(off + 3)) {
            let mut header = Vec::new();
            for_header(&text(off, close + 1), &tds, &mut header);
            vars.extend(header);
        }
    }
    for f in frames {
        vars.extend(f);
    }
    let mut seen = std::collections::HashSet::new();
    vars.retain(|v| seen.insert(v.name.clone()));
    vars
}

/// A statement ended by `;`: its declarations join the innermost open block.
fn vars_or_for(s: &str, tds: &[String], frames: &mut [Vec<Var>], pending: &mut Vec<Var>) {
    pending.clear();
    if let Some(f) = frames.last_mut() {
        f.extend(declared(s, tds));
    }
}

/// When `s` (the text before a `{`) is a `for` header, the declarations of its first clause.
fn for_header(s: &str, tds: &[String], out: &mut Vec<Var>) {
    let t = s.trim_start();
    let Some(rest) = t.strip_prefix("for") else {
        return;
    };
    let Some(rest) = rest.trim_start().strip_prefix('(') else {
        return;
    };
    out.extend(declared(split_top(rest, b';'), tds));
}
