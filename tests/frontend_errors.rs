//! Error handling of the front end: unsupported constructs are rejected with
//! `file:line:col: error: unsupported: <what>`, syntax errors show the position and the token, and no
//! input (including mangled fixtures) makes the front end panic.

mod common;

use bitmc::frontend::{lower_preprocessed, lower_source, FrontendError, FrontendOptions};
use common::{fixture_files, header, Rng};

fn lower(src: &str) -> Result<bitmc::frontend::Lowered, FrontendError> {
    lower_source(src, "t.c", &FrontendOptions::default())
}

fn unsupported(src: &str, what: &str) {
    match lower(src) {
        Err(e @ FrontendError::Unsupported { .. }) => {
            let s = e.to_string();
            assert!(s.starts_with("t.c:"), "{s}");
            assert!(s.contains(": unsupported: "), "{s}");
            assert!(s.contains(what), "`{s}` does not mention `{what}`");
            assert!(!s.contains('\n'), "{s}");
        }
        Err(e) => panic!("expected unsupported `{what}`, got: {e}"),
        Ok(_) => panic!("expected unsupported `{what}`, but it lowered:\n{src}"),
    }
}

#[test]
fn unsupported_constructs() {
    unsupported(
        "int g(int a) { return a; } struct s { int x; int (*f)(int); }; int main(){ struct s v = {1, g}; struct s *p = 0; p = &v; return p->x; }",
        "arrays of function pointers, unions, or function pointers",
    );
    unsupported(
        "struct t { int a; }; struct u { int a; }; int main(){ struct u b = {0}; struct t *p = &b; return p->a; }",
        "to a pointer to `struct t`",
    );
    unsupported(
        "union u { int *a; char b[2]; }; int main(){ union u v; return 0; }",
        "union",
    );
    unsupported(
        "struct s { long long a : 40; }; int main(){ struct s v; return 0; }",
        "bit-field",
    );
    // lang-c reads an attribute between `struct` and the tag as a specifier of its own.
    unsupported(
        "struct __attribute__((packed)) p { char c; int x; }; int main(){ struct p v; v.x = 1; return v.x; }",
        "attributes between `struct` and its tag",
    );
    unsupported("int main(){ float f = 1; return 0; }", "floating point");
    unsupported(
        "int main(){ double d = 1.0; return (int)d; }",
        "floating point",
    );
    unsupported(
        "extern void *malloc(unsigned long); int main(){ malloc(4); return 0; }",
        "heap",
    );
    unsupported(
        "extern int pthread_create(); int main(){ pthread_create(); return 0; }",
        "threads",
    );
    unsupported(
        "int main(){ int n = 3; int a[n]; return 0; }",
        "variable-length array",
    );
    unsupported("int main(){ int a[100000]; return 0; }", "more than");
    unsupported("int main(){ asm(\"nop\"); return 0; }", "inline assembly");
    unsupported(
        "int f(void){return 1;} int main(){ int (*p)(void) = f; return (long)p == 0; }",
        "pointer",
    );
    unsupported(
        "int main(){ const int *s = (const int *)L\"abc\"; return 0; }",
        "wide or non-ASCII string literal",
    );
    unsupported("int main(){ double d = 1.0; return 0; }", "double");
    unsupported(
        "int main(){ unsigned __int128 x = 0; return 0; }",
        "__int128",
    );
    unsupported(
        "int main(){ int *p = 0; __typeof__(p) q = p; return q == 0; }",
        "typeof of a pointer that is never dereferenced",
    );
}

#[test]
fn pointers_initialised_to_an_object_are_aliases() {
    let src = "int g[3]; int main(){ int x = 1; int *p = &x; *p = 5; int *q = g; q[2] = x; \
               if (g[2] == 5 && p[0] == 5) reach_error(); return 0; }";
    let l = lower(src).expect("lowers");
    let (o, _) = bitmc::cfa::run(&l.cfa, &[], 1000);
    assert!(matches!(o, bitmc::cfa::Outcome::Error { .. }), "{o:?}");
}

#[test]
fn semantic_and_syntax_errors_have_positions() {
    let e = lower("int main(){ int x; x = __VERIFIER_nondet_float(); return 0; }")
        .err()
        .map(|e| e.to_string());
    assert!(e.unwrap_or_default().contains("floating point"));
    let e = lower("int main(){ return x; }")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.starts_with("t.c:1:") && e.contains("undeclared identifier `x`"),
        "{e}"
    );
    let e = lower("int main(){\n  int x = 1 +;\n}")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.starts_with("t.c:2:") && e.contains("syntax error at `;`"),
        "{e}"
    );
    let e = lower("int main(){ goto L; }")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("label `L` used but not defined"), "{e}");
    let e = lower("int f(void){ return 0; }")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("no definition of `main`"), "{e}");
    // Overlapping case ranges, as gcc rejects them; a range alone is accepted.
    let e = lower(
        "int main(){ int x = 4; switch(x){ case 1 ... 5: break; case 5 ... 9: break; } return 0; }",
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(
        e.starts_with("t.c:1:") && e.contains("duplicate case value"),
        "{e}"
    );
    assert!(lower("int main(){ switch(3){ case 1 ... 5: case 6: break; } return 0; }").is_ok());
    // The size and type of a bit-field cannot be asked for (gcc rejects both); of the other
    // members they can.
    for (op, what) in [
        ("sizeof(s.a)", "`sizeof` of a bit-field"),
        ("sizeof p->a", "`sizeof` of a bit-field"),
    ] {
        let e = lower(&format!(
            "struct S {{ int a : 3; int b; }}; int main(){{ struct S s = {{1, 2}}; struct S *p = &s; return {op}; }}"
        ))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(e.starts_with("t.c:1:") && e.contains(what), "{op}: {e}");
    }
    let e = lower(
        "struct S { int a : 3; }; int main(){ struct S s; __typeof__(s.a) x = 1; return x; }",
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(e.contains("`typeof` of a bit-field"), "{e}");
    assert!(lower(
        "struct S { int a : 3; int b; }; int main(){ struct S s; __typeof__(s.b) x = sizeof s.b; return x; }"
    )
    .is_ok());
}

/// Columns are those of the original line, counted in bytes (a tab is one), although `gcc -E`
/// writes one blank for every run of blanks, tabs and comments between tokens.
#[test]
fn error_columns_count_the_original_blanks_and_tabs() {
    // On line 3, `v` is at byte 56, `f` at byte 30 (and at 24 in the preprocessed text).
    let src = "int main() {\n\tint  x = 0;\n  \t x =  x  +\t  1;   union  s { int *a; char b[2]; }   v;\n  return 0;\n}\n";
    let e = lower(src).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.starts_with("t.c:3:56: error: unsupported: union"), "{e}");
    let src =
        "int main() {\n\tint  x = 0;\n  \t x =  x  +\t  1;   float   f = 1;\n  return 0;\n}\n";
    let e = lower(src).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        e.starts_with("t.c:3:30: error: unsupported: floating point"),
        "{e}"
    );
    // A comment and a macro before the construct, and a syntax error after a tab.
    let src = "#define ONE  1\nint main() {\n  int x = ONE /* one */ +  ONE;   float f;\n}\n";
    let e = lower(src).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        e.starts_with("t.c:3:41: error: unsupported: floating point"),
        "{e}"
    );
    let src = "int main() {\n\tint  x =\t\t1 +  ;\n}\n";
    let e = lower(src).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.starts_with("t.c:2:17: error: syntax error at `;`"), "{e}");
    // The same from a file on disk (its lines are read back by the name the markers give).
    let dir = std::env::temp_dir().join(format!("bitmc-error-columns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cols.c");
    std::fs::write(
        &file,
        "int main() {\n\tint  x = 0;\n  \t x =  x  +\t  1;   union  s { int *a; char b[2]; }   v;\n}\n",
    )
    .unwrap();
    let e = bitmc::frontend::lower_file(&file, &FrontendOptions::default())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        e.starts_with(&format!(
            "{}:3:56: error: unsupported: union",
            file.display()
        )),
        "{e}"
    );
}

#[test]
fn undefined_functions_warn_and_return_nondet() {
    let l =
        lower("int ext(int); int main(){ int x = ext(3); if (x == 7) reach_error(); return 0; }");
    let l = l.expect("lowers");
    assert!(
        l.warnings
            .iter()
            .any(|w| w.contains("`ext`") && w.contains("nondet")),
        "{:?}",
        l.warnings
    );
    assert!(
        l.warnings.iter().all(|w| !w.contains("reach_error")),
        "{:?}",
        l.warnings
    );
    let seq = [7u128];
    let (o, _) = bitmc::cfa::run(&l.cfa, &seq, 1000);
    assert!(matches!(o, bitmc::cfa::Outcome::Error { .. }), "{o:?}");
    let (o, _) = bitmc::cfa::run(&l.cfa, &[6], 1000);
    assert!(matches!(o, bitmc::cfa::Outcome::Exit), "{o:?}");
    let l2 = lower("int main(){ int x; int y = __VERIFIER_nondet_int(); if (y == 2) reach_error(); return x; }");
    let l2 = l2.expect("lowers");
    // `run` gives every havoc (here the uninitialised `x` first) a value of the sequence.
    let (o, _) = bitmc::cfa::run(&l2.cfa, &[0, 2], 1000);
    assert!(matches!(o, bitmc::cfa::Outcome::Error { .. }), "{o:?}");
}

#[test]
fn fixtures_marked_unsupported_are_rejected() {
    for f in fixture_files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let h = header(&text);
        if !h.unsupported {
            continue;
        }
        let r = bitmc::frontend::lower_file(&f, &FrontendOptions::default());
        match r {
            Err(e @ FrontendError::Unsupported { .. }) => {
                if let Some(c) = &h.error_contains {
                    assert!(
                        e.to_string().contains(c.as_str()),
                        "{}: `{e}` lacks `{c}`",
                        f.display()
                    );
                }
            }
            Err(e) => panic!("{}: expected unsupported, got {e}", f.display()),
            Ok(_) => panic!("{}: expected unsupported, but it lowered", f.display()),
        }
    }
}

/// Mangles fixture texts (cuts, deletions, duplications, inserted tokens) and lowers them
/// (already preprocessed, so no preprocessor runs): every result is a CFA or an error.
#[test]
fn mangled_input_never_panics() {
    const TOKENS: [&str; 24] = [
        "(",
        ")",
        "{",
        "}",
        ";",
        "[",
        "]",
        "*",
        "&",
        "-",
        "++",
        "<<",
        "?",
        ":",
        "goto L;",
        "L:",
        "0x7fffffff",
        "int",
        "return",
        "while(1)",
        "break;",
        "case 1:",
        "a[9]",
        "x",
    ];
    let mut rng = Rng(42, Vec::new());
    let mut n = 0;
    for f in fixture_files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let text: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..12 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let len = c.len() as u64;
                let at = rng.below(len + 1) as usize;
                match rng.below(4) {
                    0 => c.truncate(at),
                    1 => {
                        let end = (at + rng.below(8) as usize).min(c.len());
                        c.drain(at..end);
                    }
                    2 => {
                        let tok = TOKENS[rng.below(TOKENS.len() as u64) as usize];
                        for (k, ch) in tok.chars().enumerate() {
                            c.insert((at + k).min(c.len()), ch);
                        }
                    }
                    _ => {
                        let end = (at + rng.below(20) as usize).min(c.len());
                        let piece: Vec<char> = c[at..end].to_vec();
                        for (k, ch) in piece.into_iter().enumerate() {
                            c.insert((end + k).min(c.len()), ch);
                        }
                    }
                }
            }
            let src: String = c.into_iter().collect();
            let r = lower_preprocessed(src.clone(), "m.c", &FrontendOptions::default());
            if let Err(FrontendError::Internal(msg)) = r {
                panic!("internal error `{msg}` on:\n{src}");
            }
            n += 1;
        }
    }
    for junk in [
        "",
        "\u{0}",
        "int",
        "}}}}",
        "int main(",
        "int main(){",
        "#",
        "int main(){return 0;} int main(){return 1;}",
    ] {
        let r = lower_preprocessed(junk.to_string(), "j.c", &FrontendOptions::default());
        assert!(
            !matches!(r, Err(FrontendError::Internal(_))),
            "{junk:?}: {r:?}"
        );
    }
    eprintln!("{n} mangled inputs lowered or rejected without a panic");
}
