//! The models of C library functions and gcc builtins (`frontend::libc`) against gcc: every
//! modelled function is called by a gcc build (ILP32 with `-m32`, and LP64) on a domain of
//! arguments — every value where the domain is small (`<ctype.h>` on `[-128, 255]`), boundary
//! and random values otherwise — and the values it prints become checks `f(x) == value` of a
//! C program that bitmc lowers and runs on its interpreter, which must reach the end without
//! reaching the error. Arguments outside a model's defined domain (`clz(0)`, `abs(INT_MIN)`,
//! `isalpha(300)`) are not in the domains: they end in an UNKNOWN sink or are a `no-overflow`
//! violation, which `fixtures/c/gnu` checks.
//!
//! Without gcc (or `gcc -m32`) the test says so and skips that data model, except under
//! `CI=true`, where that is a failure.

mod common;

use bitmc::cfa::{run_with, DataModel, Outcome, RunOptions};
use bitmc::frontend::{lower_source, FrontendOptions};
use common::{oracle_missing, Rng};
use std::path::Path;
use std::process::Command;

/// One function under test: how to call it in C on the arguments `a` (and `b`).
struct Case {
    /// A C statement block that sets `unsigned long long out` (and `int flag` for the overflow
    /// builtins) from the argument variables `a` and `b`.
    body: String,
    /// The declarations of `a` and `b`.
    decl_a: &'static str,
    decl_b: Option<&'static str>,
    /// The argument values (as C constant expressions).
    args: Vec<(String, Option<String>)>,
    flag: bool,
}

const CTYPE: &[&str] = &[
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint",
    "ispunct", "isspace", "isupper", "isxdigit", "isascii", "toascii", "toupper", "tolower",
];

/// Boundary and random values of an unsigned type of `bits` bits, as decimal constants.
fn values(bits: u32, rng: &mut Rng, n: usize, nonzero: bool) -> Vec<String> {
    let max: u64 = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let mut v: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        7,
        0x80,
        0xff,
        max,
        max >> 1,
        (max >> 1) + 1,
        max - 1,
    ];
    for _ in 0..n {
        let x = rng.next() & max;
        v.push(x);
        // Runs of set bits of every length, at random places.
        let len = (rng.next() % u64::from(bits)) as u32 + 1;
        let run = if len == 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        };
        v.push((run << (rng.next() % u64::from(bits - len + 1))) & max);
    }
    v.retain(|&x| !nonzero || x != 0);
    v.sort_unstable();
    v.dedup();
    v.into_iter().map(|x| format!("{x}ull")).collect()
}

fn cases(rng: &mut Rng) -> Vec<Case> {
    let mut out = Vec::new();
    let ctype_args: Vec<_> = (-128..=255).map(|c: i32| (c.to_string(), None)).collect();
    for f in CTYPE {
        let mut args = ctype_args.clone();
        if matches!(
            *f,
            "isdigit" | "isascii" | "toascii" | "toupper" | "tolower"
        ) {
            for c in [
                "-1000",
                "1000",
                "-2147483647 - 1",
                "2147483647",
                "65",
                "353",
            ] {
                args.push((c.to_string(), None));
            }
        }
        out.push(Case {
            body: format!("out = (unsigned long long)(long long){f}(a);"),
            decl_a: "int",
            decl_b: None,
            args,
            flag: false,
        });
    }
    for (suffix, ty, bits) in [
        ("", "unsigned int", 32),
        ("l", "unsigned long", 0),
        ("ll", "unsigned long long", 64),
    ] {
        // `long` is 32 or 64 bits: its values are taken as 32-bit ones, valid for both.
        let bits = if bits == 0 { 32 } else { bits };
        for (f, nonzero) in [
            ("popcount", false),
            ("parity", false),
            ("clz", true),
            ("ctz", true),
            ("clrsb", false),
            ("ffs", false),
        ] {
            let args = values(bits, rng, 24, nonzero)
                .into_iter()
                .map(|v| (v, None))
                .collect();
            out.push(Case {
                body: format!("out = (unsigned long long)(long long)__builtin_{f}{suffix}(a);"),
                decl_a: ty,
                decl_b: None,
                args,
                flag: false,
            });
        }
        let f = format!("{}abs", suffix);
        let sty: &'static str = match suffix {
            "" => "int",
            "l" => "long",
            _ => "long long",
        };
        let args = values(bits, rng, 24, false)
            .into_iter()
            .filter(|v| *v != format!("{}ull", 1u64 << (bits - 1)))
            .map(|v| (v, None))
            .collect();
        out.push(Case {
            body: format!("out = (unsigned long long){f}(a);"),
            decl_a: sty,
            decl_b: None,
            args,
            flag: false,
        });
    }
    for (f, ty, bits) in [
        ("__builtin_bswap16", "unsigned short", 16),
        ("__builtin_bswap32", "unsigned int", 32),
        ("__builtin_bswap64", "unsigned long long", 64),
    ] {
        let args = values(bits, rng, 16, false)
            .into_iter()
            .map(|v| (v, None))
            .collect();
        out.push(Case {
            body: format!("out = (unsigned long long){f}(a);"),
            decl_a: ty,
            decl_b: None,
            args,
            flag: false,
        });
    }
    let combos: &[(&str, u32, &str, u32, &str)] = &[
        ("int", 32, "int", 32, "int"),
        ("unsigned int", 32, "int", 32, "int"),
        ("int", 32, "int", 32, "unsigned char"),
        ("long long", 64, "long long", 64, "long long"),
        (
            "unsigned long long",
            64,
            "unsigned long long",
            64,
            "unsigned long long",
        ),
        (
            "unsigned long long",
            64,
            "unsigned long long",
            64,
            "long long",
        ),
        ("long long", 64, "unsigned long long", 64, "int"),
        ("short", 16, "unsigned int", 32, "long"),
        ("unsigned long", 32, "long", 32, "unsigned long"),
    ];
    for (ta, ba, tb, bb, tr) in combos {
        for op in ["add", "sub", "mul"] {
            let va = values(*ba, rng, 6, false);
            let vb = values(*bb, rng, 6, false);
            let mut args = Vec::new();
            for (i, a) in va.iter().enumerate() {
                for b in vb.iter().skip(i % 3).step_by(3) {
                    args.push((a.clone(), Some(b.clone())));
                }
            }
            out.push(Case {
                body: format!(
                    "{{ {tr} r; flag = __builtin_{op}_overflow(a, b, &r); out = (unsigned long long)r; }}"
                ),
                decl_a: ta,
                decl_b: Some(tb),
                args,
                flag: true,
            });
        }
    }
    for (f, ty) in [
        ("sadd", "int"),
        ("umulll", "unsigned long long"),
        ("ssubl", "long"),
    ] {
        let bits = if ty == "unsigned long long" { 64 } else { 32 };
        let va = values(bits, rng, 6, false);
        let args = va
            .iter()
            .zip(va.iter().rev())
            .map(|(a, b)| (a.clone(), Some(b.clone())))
            .collect();
        out.push(Case {
            body: format!(
                "{{ {ty} r; flag = __builtin_{f}_overflow(a, b, &r); out = (unsigned long long)r; }}"
            ),
            decl_a: ty,
            decl_b: Some(ty),
            args,
            flag: true,
        });
    }
    out
}

fn decls(c: &Case, volatile: bool) -> String {
    let q = if volatile { "volatile " } else { "" };
    let mut s = format!("{q}{} a; ", c.decl_a);
    if let Some(b) = c.decl_b {
        s.push_str(&format!("{q}{b} b; "));
    }
    s.push_str("unsigned long long out = 0; int flag = 0; ");
    s
}

fn assigns(a: &str, b: &Option<String>) -> String {
    let mut s = format!("a = {a}; ");
    if let Some(b) = b {
        s.push_str(&format!("b = {b}; "));
    }
    s
}

/// The gcc program printing `flag out` for every argument.
fn gcc_program(c: &Case) -> String {
    let mut s = String::from(
        "#include <stdio.h>\n#include <stdlib.h>\nint isalnum(int), isalpha(int), isblank(int), iscntrl(int), isdigit(int), isgraph(int), islower(int), isprint(int), ispunct(int), isspace(int), isupper(int), isxdigit(int), isascii(int), toascii(int), toupper(int), tolower(int);\nint main(void) {\n",
    );
    s.push_str(&format!("  {}\n", decls(c, true)));
    for (a, b) in &c.args {
        s.push_str(&format!(
            "  {}{} printf(\"%d %llu\\n\", flag, out);\n",
            assigns(a, b),
            c.body
        ));
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// The program bitmc runs: each call checked against gcc's value.
fn bitmc_program(c: &Case, expected: &[(i32, u64)]) -> String {
    let mut s = String::from(
        "extern void reach_error(void);\nint isalnum(int), isalpha(int), isblank(int), iscntrl(int), isdigit(int), isgraph(int), islower(int), isprint(int), ispunct(int), isspace(int), isupper(int), isxdigit(int), isascii(int), toascii(int), toupper(int), tolower(int);\nint abs(int); long labs(long); long long llabs(long long);\nint main(void) {\n",
    );
    s.push_str(&format!("  {}\n", decls(c, false)));
    for ((a, b), (flag, out)) in c.args.iter().zip(expected) {
        let check_flag = if c.flag {
            format!("flag != {flag} || ")
        } else {
            String::new()
        };
        s.push_str(&format!(
            "  {}{} if ({check_flag}out != {out}ull) reach_error();\n",
            assigns(a, b),
            c.body
        ));
    }
    s.push_str("  return 0;\n}\n");
    s
}

fn gcc_values(c: &Case, dm: DataModel, dir: &Path, idx: usize) -> Result<Vec<(i32, u64)>, String> {
    let src = dir.join(format!("case{idx}.c"));
    let bin = dir.join(format!("case{idx}-{}", dm.name()));
    std::fs::write(&src, gcc_program(c)).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("gcc");
    cmd.args(["-std=gnu11", "-O0", "-w"]);
    if dm == DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    let out = cmd
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let run = Command::new(&bin).output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&run.stdout);
    let vals: Vec<(i32, u64)> = text
        .lines()
        .filter_map(|l| {
            let (f, o) = l.split_once(' ')?;
            Some((f.parse().ok()?, o.parse().ok()?))
        })
        .collect();
    if vals.len() != c.args.len() {
        return Err(format!(
            "gcc's program printed {} of {} values",
            vals.len(),
            c.args.len()
        ));
    }
    Ok(vals)
}

fn gcc_compiles(extra: &[&str], dir: &Path) -> bool {
    let src = dir.join("probe.c");
    if std::fs::write(&src, "#include <stdio.h>\nint main(void){return 0;}\n").is_err() {
        return false;
    }
    Command::new("gcc")
        .args(extra)
        .arg(&src)
        .arg("-o")
        .arg(dir.join("probe"))
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn library_models_agree_with_gcc() {
    let dir = std::env::temp_dir().join(format!("bitmc-libc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let mut rng = Rng(0x5eed_11bc_0000_0001, Vec::new());
    let cases = cases(&mut rng);
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for dm in [DataModel::Lp64, DataModel::Ilp32] {
        let probe = if dm == DataModel::Ilp32 {
            vec!["-m32"]
        } else {
            vec![]
        };
        if !gcc_compiles(&probe, &dir) {
            oracle_missing(&format!("gcc {} cannot build programs", probe.join(" ")));
            continue;
        }
        for (i, c) in cases.iter().enumerate() {
            let expected = match gcc_values(c, dm, &dir, i) {
                Ok(v) => v,
                Err(e) => {
                    failures.push(format!("{dm}: case {i} ({}): gcc: {e}", c.body));
                    continue;
                }
            };
            let program = bitmc_program(c, &expected);
            let opts = FrontendOptions {
                data_model: dm,
                lbe: i % 2 == 0,
                ..Default::default()
            };
            let lowered = match lower_source(&program, "libc_case.c", &opts) {
                Ok(l) => l,
                Err(e) => {
                    failures.push(format!("{dm}: case {i} ({}): {e}", c.body));
                    continue;
                }
            };
            let ro = RunOptions {
                step_limit: 1_000_000,
                uninit_zero: true,
                ..RunOptions::default()
            };
            let (outcome, steps) = run_with(&lowered.cfa, &[], ro);
            if outcome != Outcome::Exit {
                // Name the first argument whose check failed.
                let failed = steps.len();
                failures.push(format!(
                    "{dm}: `{}` differs from gcc ({outcome:?} after {failed} steps); program:\n{}",
                    c.body,
                    program.lines().take(8).collect::<Vec<_>>().join("\n")
                ));
            }
            checked += c.args.len();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{checked} calls agree with gcc");
}
