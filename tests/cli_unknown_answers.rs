//! Answers that must be UNKNOWN rather than a verdict: counterexamples that depend on functions
//! without a definition (`verify` names the function; `--undefined-calls nondet` accepts them),
//! while one whose path does not depend on such a function stays a violation; the address
//! one past the end of an array, which is valid C but has no place in the pointer model; and
//! operands or arguments whose evaluation order C leaves open and that interfere; recursion
//! deeper than its bound.

mod support;

use support::{bitmc, temp_dir};

fn write(name: &str, text: &str) -> String {
    let dir = temp_dir(&format!("cli-undefined-{name}"));
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write the program");
    p.display().to_string()
}

const RESULT_USED: &str = "extern void reach_error(void);
extern int ext(int);
int main(void) {
    int r = ext(3);
    int y = r + 1;
    if (y == 6)
        reach_error();
    return 0;
}
";

const GLOBAL_WRITTEN: &str = "extern void reach_error(void);
extern void update(void);
int g;
int main(void) {
    update();
    if (g == 4)
        reach_error();
    return 0;
}
";

const NOT_DEPENDING: &str = "extern void reach_error(void);
extern int ext(int);
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int r = ext(3);
    int x = __VERIFIER_nondet_int();
    if (x == 5)
        reach_error();
    return r;
}
";

const LIBRARY_WITHOUT_MODEL: &str = "extern void reach_error(void);
int atoi(const char *);
int main(void) {
    if (atoi(\"123\") != 123)
        reach_error();
    return 0;
}
";

#[test]
fn a_counterexample_through_an_undefined_result_is_unknown() {
    for (name, text, function) in [
        ("result.c", RESULT_USED, "ext"),
        ("global.c", GLOBAL_WRITTEN, "update"),
        ("atoi.c", LIBRARY_WITHOUT_MODEL, "atoi"),
    ] {
        let p = write(name, text);
        let r = bitmc(&["verify", &p, "--timeout", "30"]);
        assert_eq!(r.code, 20, "{name}: {}{}", r.stdout, r.stderr);
        assert_eq!(r.last_line(), "UNKNOWN", "{name}");
        // The warning in gcc's form, `file:line:col: warning: …`, once per line.
        let warning = r
            .stderr
            .lines()
            .find(|l| l.contains(&format!("call of `{function}`")))
            .unwrap_or_else(|| panic!("{name}: no warning: {}", r.stderr));
        assert!(
            warning.starts_with(&format!("{p}:")) && warning.matches("warning:").count() == 1,
            "{name}: {warning}"
        );
        assert!(
            r.stdout
                .contains(&format!("undefined function `{function}`")),
            "{name}: {}",
            r.stdout
        );
        let r = bitmc(&[
            "verify",
            &p,
            "--timeout",
            "30",
            "--undefined-calls",
            "nondet",
        ]);
        assert_eq!(r.code, 10, "{name} with nondet: {}{}", r.stdout, r.stderr);
        assert_eq!(r.last_line(), "FALSE(unreach-call)", "{name}");
    }
}

#[test]
fn a_counterexample_that_does_not_read_an_undefined_result_is_a_violation() {
    let p = write("independent.c", NOT_DEPENDING);
    let r = bitmc(&["verify", &p, "--timeout", "30"]);
    assert_eq!(r.code, 10, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.last_line(), "FALSE(unreach-call)");
}

#[test]
fn the_address_one_past_the_end_is_not_an_index_violation() {
    let program = |i: u32| {
        format!(
            "int a[4];\nint first(int *b, int *e) {{ return 0; }}\nint main(void) {{ return first(&a[0], &a[{i}]); }}\n"
        )
    };
    // `&a[4]` is valid: no valid-index violation, and no verdict either.
    let p = write("one_past.c", &program(4));
    let r = bitmc(&["verify", &p, "--property", "valid-index", "--timeout", "30"]);
    assert_eq!(r.code, 20, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("one past the end"), "{}", r.stdout);
    // `&a[3]` is an element, `&a[5]` is out of bounds.
    let p = write("inside.c", &program(3));
    let r = bitmc(&["verify", &p, "--property", "valid-index", "--timeout", "30"]);
    assert_eq!(r.last_line(), "TRUE", "{}{}", r.stdout, r.stderr);
    let p = write("beyond.c", &program(5));
    let r = bitmc(&["verify", &p, "--property", "valid-index", "--timeout", "30"]);
    assert_eq!(
        r.last_line(),
        "FALSE(valid-index)",
        "{}{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn interfering_operands_in_an_unspecified_order_give_unknown() {
    // gcc evaluates the arguments right to left (1 - 2 would be -1, 2 - 1 is 1) and the
    // operands of `-` left to right: each verdict would rest on one compiler's order.
    let head = "extern void reach_error(void);\nint c;\nint g(void) { c = c + 1; return c; }\nint sub(int x, int y) { return x - y; }\n";
    for (name, body) in [
        (
            "arguments.c",
            "int main(void) { if (sub(g(), g()) == 1) reach_error(); return 0; }\n",
        ),
        (
            "operands.c",
            "int main(void) { if (g() - g() == 1) reach_error(); return 0; }\n",
        ),
        (
            "read_and_call.c",
            "int main(void) { if (sub(c, g()) == 0) reach_error(); return 0; }\n",
        ),
    ] {
        let p = write(name, &format!("{head}{body}"));
        let r = bitmc(&["verify", &p, "--timeout", "30"]);
        assert_eq!(r.code, 20, "{name}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("unspecified evaluation order"),
            "{name}: {}",
            r.stdout
        );
    }
}

#[test]
fn rand_returns_a_value_in_its_range_that_the_program_does_not_state() {
    let head = "extern void reach_error(void);\nint rand(void);\n";
    // rand() is never negative: a proof.
    let p = write(
        "rand_negative.c",
        &format!("{head}int main(void) {{ if (rand() < 0) reach_error(); return 0; }}\n"),
    );
    let r = bitmc(&["verify", &p, "--timeout", "30"]);
    assert_eq!(r.last_line(), "TRUE", "{}{}", r.stdout, r.stderr);
    // Which value it returns is up to the C library: no counterexample rests on one.
    let p = write(
        "rand_five.c",
        &format!("{head}int main(void) {{ if (rand() == 5) reach_error(); return 0; }}\n"),
    );
    let r = bitmc(&["verify", &p, "--timeout", "30"]);
    assert_eq!(r.code, 20, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("`rand`"), "{}", r.stdout);
}

/// Recursion is inlined up to `--recursion-bound` active calls of a function: a violation
/// within the bound is FALSE, a run that would go deeper is UNKNOWN (recursion bound) — never
/// TRUE — and a larger bound decides it.
#[test]
fn recursion_beyond_its_bound_is_unknown() {
    let p = write(
        "sum.c",
        "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
         int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }\n\
         int main(void) { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 9) return 0;\n\
         if (sum(n) == 45) reach_error(); return 0; }\n",
    );
    // sum(9) needs 10 active calls of `sum`; sum(n) == 45 only for n = 9.
    let r = bitmc(&["verify", &p, "--timeout", "60"]);
    assert_eq!(r.code, 20, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("recursion bound"), "{}", r.stdout);
    let r = bitmc(&["verify", &p, "--timeout", "60", "--recursion-bound", "10"]);
    assert_eq!(
        r.last_line(),
        "FALSE(unreach-call)",
        "{}{}",
        r.stdout,
        r.stderr
    );
    // Within the bound and safe: TRUE.
    let p = write(
        "fact.c",
        "extern void reach_error(void);\n\
         int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n\
         int main(void) { if (fact(4) != 24) reach_error(); return 0; }\n",
    );
    let r = bitmc(&["verify", &p, "--timeout", "60"]);
    assert_eq!(r.last_line(), "TRUE", "{}{}", r.stdout, r.stderr);
}

/// Undefined uses of pointers end in UNKNOWN with their reason, through a pointer bound to
/// an object as through a general pointer: a write to a string literal (gcc puts it in
/// read-only memory), a dereference of a pointer to a local of a function that has returned,
/// and arithmetic that leaves the object.
#[test]
fn undefined_pointer_uses_are_unknown() {
    let cases = [
        (
            "literal.c",
            "int main(void) { char *s = \"abc\"; s[0] = 'x'; if (s[0] == 'x') reach_error(); return 0; }",
            "write to a string literal",
        ),
        (
            "literal_general.c",
            "int main(void) { char *p = 0; p = \"abc\"; p++; *p = 'x'; if (p[0] == 'x') reach_error(); return 0; }",
            "write to a string literal",
        ),
        (
            "dangling.c",
            "int *f(void) { int v = 3; int *p = &v; return p; }\n\
             int main(void) { int *p = f(); if (*p == 3) reach_error(); return 0; }",
            "dangling",
        ),
        (
            "outside.c",
            "int main(void) { int a[2] = {0, 0}; int *p = a; p += __VERIFIER_nondet_int(); \
             if (p == a || p == a + 1 || p == a + 2) return 0; reach_error(); return 0; }",
            "pointer arithmetic outside the object",
        ),
        (
            "overlap.c",
            "int main(void) { int a[4] = {1, 2, 3, 4}; memcpy(a + 1, a, 8); \
             if (a[2] == 2) reach_error(); return 0; }",
            "memcpy between overlapping bytes",
        ),
        (
            "misaligned.c",
            "int main(void) { int a[2] = {1, 2}; char *c = (char *)a; int *p = (int *)(c + 2); \
             if (*p == 3) reach_error(); return 0; }",
            "no live object of its type",
        ),
        (
            "padding.c",
            "struct S { char c; int i; }; int main(void) { struct S s = {1, 2}; \
             unsigned char *b = (unsigned char *)&s; if (b[1] == 0) reach_error(); return 0; }",
            "read of a padding byte",
        ),
        (
            "compare_padding.c",
            "struct S { char c; int i; }; int main(void) { struct S s = {1, 2}, t = {1, 2}; \
             if (memcmp(&s, &t, sizeof s) != 0) reach_error(); return 0; }",
            "comparison of a padding byte by memcmp",
        ),
        (
            "member_uninitialised.c",
            "int inc(int x) { return x + 1; } struct O { int (*f)(int); }; \
             int main(void) { int (*g)(int) = inc; struct O o; if (o.f(1) == 2) reach_error(); return g(0); }",
            "call through a null or invalid function pointer",
        ),
        (
            "function_pointer_bytes.c",
            "int inc(int x) { return x + 1; } struct O { int (*f)(int); int k; }; \
             int main(void) { struct O o = {inc, 1}, p; memcpy(&p, &o, sizeof o); if (p.k == 1) reach_error(); return 0; }",
            "access to the bytes of a pointer, function pointer",
        ),
    ];
    for (name, body, why) in cases {
        let src = format!(
            "#include <string.h>\nextern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n{body}\n"
        );
        let p = write(name, &src);
        let r = bitmc(&["verify", &p, "--timeout", "60"]);
        assert_eq!(r.code, 20, "{name}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains(why), "{name}: {}", r.stdout);
    }
}
