//! `verify --unwind N`: CBMC's bounded mode with unwinding assertions. Nested loops, a loop
//! made of `goto`s and a `do` loop, with the error at different iterations or nowhere, under
//! every bound from 1 to past their trip counts; the expected verdict of each run comes from a
//! simulation of the program here that counts each loop head's visits per entry: FALSE when the
//! error is reached before any head is visited more than N times in one entry, TRUE when the
//! error is never reached and no head ever is, UNKNOWN (unwinding assertion) otherwise.

mod support;

use std::fs;
use support::{bitmc, temp_dir};

const PRELUDE: &str = "extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));\nvoid reach_error(void) { __assert_fail(\"0\", \"u.c\", 2, \"reach_error\"); }\nextern int __VERIFIER_nondet_int(void);\n";

#[derive(Debug, PartialEq, Eq, Hash, Clone, Copy)]
enum Expect {
    True,
    False,
    Unknown,
}

/// The verdict of `--unwind n` for nested loops of `outer` and `inner` iterations with the
/// error at iteration `err` (outer, inner), if any: each head is reached once more than its
/// loop iterates per entry.
fn nested_expect(outer: u32, inner: u32, err: Option<(u32, u32)>, n: u32) -> Expect {
    let mut outer_visits = 0;
    for i in 0..=outer {
        outer_visits += 1;
        if outer_visits > n {
            return Expect::Unknown;
        }
        if i == outer {
            break;
        }
        let mut inner_visits = 0;
        for j in 0..=inner {
            inner_visits += 1;
            if inner_visits > n {
                return Expect::Unknown;
            }
            if j == inner {
                break;
            }
            if err == Some((i, j)) {
                return Expect::False;
            }
        }
    }
    Expect::True
}

fn verdict(stdout: &str) -> Option<Expect> {
    let last = stdout.lines().last()?;
    match last {
        "TRUE" => Some(Expect::True),
        l if l.starts_with("FALSE") => Some(Expect::False),
        "UNKNOWN" => Some(Expect::Unknown),
        _ => None,
    }
}

fn run(file: &std::path::Path, n: u32) -> (Expect, String) {
    let n = n.to_string();
    let r = bitmc(&[
        "verify",
        "--unwind",
        &n,
        "--timeout",
        "60",
        file.to_str().unwrap(),
    ]);
    let v = verdict(&r.stdout).unwrap_or_else(|| panic!("no verdict: {}\n{}", r.stdout, r.stderr));
    let code = match v {
        Expect::True => 0,
        Expect::False => 10,
        Expect::Unknown => 20,
    };
    assert_eq!(r.code, code, "{}\n{}", r.stdout, r.stderr);
    (v, r.stdout)
}

#[test]
fn nested_loops_count_visits_per_entry() {
    let dir = temp_dir("unwind-nested");
    let (outer, inner) = (3, 2);
    let mut seen = std::collections::HashSet::new();
    for err in [None, Some((0, 1)), Some((1, 1)), Some((2, 0))] {
        let cond = match err {
            Some((i, j)) => format!("i == {i} && j == {j} && x == 7"),
            None => "x == 7 && j > 5".to_string(),
        };
        let src = format!(
            "{PRELUDE}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  for (int i = 0; i < {outer}; i++)\n    for (int j = 0; j < {inner}; j++)\n      if ({cond}) reach_error();\n  return 0;\n}}\n"
        );
        let file = dir.join("nested.c");
        fs::write(&file, src).unwrap();
        for n in 1..=5 {
            let want = nested_expect(outer, inner, err, n);
            let (got, stdout) = run(&file, n);
            assert_eq!(got, want, "error at {err:?}, --unwind {n}:\n{stdout}");
            if want == Expect::Unknown {
                assert!(
                    stdout.contains("unwinding assertion: the loop at line"),
                    "{stdout}"
                );
            }
            seen.insert(want);
        }
    }
    // The grid reaches all three answers.
    assert_eq!(seen.len(), 3, "{seen:?}");
}

#[test]
fn goto_and_do_loops_are_bounded_too() {
    let dir = temp_dir("unwind-goto");
    // A loop of `goto`s: its head is reached 4 times (i = 0, 1, 2, 3); the `do` loop's
    // condition is evaluated 3 times.
    let src = format!(
        "{PRELUDE}int main(void) {{\n  int i = 0, k = 0;\n  int x = __VERIFIER_nondet_int();\nagain:\n  if (i < 3) {{ i++; goto again; }}\n  do {{ k++; }} while (k < 3);\n  if (x == 1 && i + k != 6) reach_error();\n  return 0;\n}}\n"
    );
    let file = dir.join("goto.c");
    fs::write(&file, src).unwrap();
    for (n, want) in [
        (1, Expect::Unknown),
        (3, Expect::Unknown),
        (4, Expect::True),
    ] {
        let (got, stdout) = run(&file, n);
        assert_eq!(got, want, "--unwind {n}:\n{stdout}");
    }
}

#[test]
fn a_bound_of_zero_is_refused() {
    let r = bitmc(&["verify", "--unwind", "0", "examples/checksum.c"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
}
