//! Verdicts that depend on what C means rather than on the engines: every engine and the
//! portfolio must answer UNKNOWN, naming the undefined behaviour, where a fixture's property is
//! violated only after undefined behaviour (`expect: <property>=unknown`), and the programs
//! whose meaning bitmc once got wrong (pointer views, `sizeof` of pointers, undefined behaviour
//! given a fixed value, functions without a definition) get the verdict gcc's semantics give
//! them — or are rejected — with every engine.

mod common;

use bitmc::cfa::{DataModel, Property};
use bitmc::engine::portfolio::{default_members, Member, Strategy};
use bitmc::engine::EngineKind;
use bitmc::frontend::{lower_file, lower_source, FrontendError, FrontendOptions};
use bitmc::sat::{Backend, Interrupter};
use bitmc::ts::program::PcEncoding;
use bitmc::verify::{prepare, verify_cfa, ProgramVerdict, VerifyOptions};
use std::time::Duration;

/// The engines alone and the portfolio.
fn strategies() -> Vec<Strategy> {
    let mut s: Vec<Strategy> = [
        EngineKind::Bmc,
        EngineKind::Kind,
        EngineKind::Pdr,
        EngineKind::Ic3cfa,
    ]
    .into_iter()
    .map(|engine| Strategy::Single(Member::new(engine, Backend::Cadical)))
    .collect();
    s.push(Strategy::Portfolio {
        members: default_members(),
        jobs: 2,
    });
    s
}

/// `verify` with a time limit.
fn verify(cfa: &bitmc::cfa::Cfa, strategy: Strategy, limit: f64) -> ProgramVerdict {
    let intr = Interrupter::new();
    let opts = VerifyOptions {
        invariant_budget: Some(Duration::from_secs_f64(limit / 4.0)),
        strategy,
        max_depth: None,
        pc: PcEncoding::Binary,
        interrupter: intr.clone(),
        preprocess: Default::default(),
        undefined_calls: Default::default(),
        fault: None,
    };
    common::interrupt_after(&intr, limit, || verify_cfa(cfa, &opts, &mut |_| {}).verdict)
}

#[test]
fn violations_only_after_undefined_behaviour_are_unknown() {
    let mut checked = 0;
    for f in common::fixture_files() {
        let text = std::fs::read_to_string(&f).expect("fixture");
        let h = common::header(&text);
        for p in Property::ALL {
            if !h.ub_dependent(p, DataModel::Ilp32) {
                continue;
            }
            let opts = FrontendOptions {
                property: p,
                ..FrontendOptions::default()
            };
            let l = lower_file(&f, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let cfa = prepare(&l.cfa, true);
            for s in strategies() {
                let name = s.name();
                match verify(&cfa, s, 20.0) {
                    // Undefined behaviour, or values C leaves unspecified that the model does
                    // not keep (the bytes under a structure's padding after a store).
                    ProgramVerdict::Unknown(r)
                        if r.to_string().contains("undefined behaviour")
                            || r.to_string().contains("unspecified") => {}
                    v => panic!("{} ({p}) with {name}: {v:?}", f.display()),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 4, "only {checked} runs");
}

const DECLS: &str = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);\n";

/// Lowers a program under `unreach-call` (ILP32).
fn lower(body: &str) -> Result<bitmc::cfa::Cfa, FrontendError> {
    let src = format!("{DECLS}{body}");
    let l = lower_source(&src, "t.c", &FrontendOptions::default())?;
    Ok(prepare(&l.cfa, true))
}

/// Every engine and the portfolio give `want` (`Some(true)` TRUE, from BMC TRUE or an UNKNOWN
/// that is not an internal error, since it proves only programs whose runs all end;
/// `Some(false)` FALSE; `None` UNKNOWN whose reason contains `why`).
fn all_engines_say(body: &str, want: Option<bool>, why: &str) {
    let cfa = lower(body).unwrap_or_else(|e| panic!("{body}: {e}"));
    for s in strategies() {
        let name = s.name();
        let bmc = name.starts_with("bmc");
        let got = verify(&cfa, s, 20.0);
        let ok = match (&got, want) {
            (ProgramVerdict::Unknown(r), Some(true)) if bmc => !r.is_internal(),
            (ProgramVerdict::True, Some(true)) => true,
            (ProgramVerdict::False(..), Some(false)) => true,
            (ProgramVerdict::Unknown(r), None) => r.to_string().contains(why),
            _ => false,
        };
        assert!(ok, "{name} on `{body}`: {got:?}, expected {want:?} {why}");
    }
}

#[test]
fn pointer_views_get_gcc_verdicts() {
    all_engines_say(
        "int main(){ unsigned u = 4294967295u; void *v = &u; int *p = v; if (*p < 0) reach_error(); return 0; }",
        Some(false),
        "",
    );
    all_engines_say(
        "int f(unsigned *p) { return *p > 5; } int main(){ int i = -1; if (f(&i)) reach_error(); return 0; }",
        Some(false),
        "",
    );
    all_engines_say(
        "int main(){ int a[10]; int *p = a; if (sizeof(p) != sizeof(int *)) reach_error(); return 0; }",
        Some(true),
        "",
    );
    all_engines_say(
        "int f(int a[]) { return sizeof(a); } int main(){ int a[3]; if (f(a) != sizeof(int *)) reach_error(); return 0; }",
        Some(true),
        "",
    );
    // The same objects through pointers of the same type still alias.
    all_engines_say(
        "int main(){ int x = __VERIFIER_nondet_int(); int *p = &x; *p = *p + 1; if (x == 0) reach_error(); return 0; }",
        Some(false),
        "",
    );
}

/// Views of another width are the objects' bytes, little-endian (gcc's answers); reading past
/// the object is undefined.
#[test]
fn pointer_views_of_another_width_are_bytes() {
    all_engines_say(
        "int main(){ int x = 0x100; void *v = &x; unsigned char *p = v; *p = 1; if (x == 0x101) reach_error(); return 0; }",
        Some(false),
        "",
    );
    all_engines_say(
        "int main(){ int x = 0x1234; void *v = &x; unsigned char *p = v; if (*p != 0x34) reach_error(); return 0; }",
        Some(true),
        "",
    );
    all_engines_say(
        "int main(){ int m[2][3] = {{1, 2, 3}, {4, 5, 6}}; int *p = (int *)m; if (p[4] == 5) reach_error(); return 0; }",
        Some(false),
        "",
    );
    all_engines_say(
        "int main(){ char c = 50; void *v = &c; unsigned int *p = v; if (*p != 50) reach_error(); return 0; }",
        None,
        "undefined behaviour",
    );
}

/// A byte view of a `_Bool` (no byte representation in the model), a pointer bound to nothing
/// and arithmetic on `void *` are rejected by name.
#[test]
fn views_without_bytes_are_rejected() {
    for (body, what) in [
        (
            "int main(){ _Bool b = 1; unsigned char *p = (unsigned char *)&b; return *p; }",
            "pointer to `unsigned char`",
        ),
        ("int main(){ int *p; return *p; }", "not bound to an object"),
        (
            "int main(){ void *p = 0; p = p + 1; return 0; }",
            "pointer arithmetic",
        ),
    ] {
        match lower(body) {
            Err(e @ FrontendError::Unsupported { .. }) => {
                assert!(e.to_string().contains(what), "{body}: {e}")
            }
            Err(e) => panic!("{body}: expected unsupported, got {e}"),
            Ok(_) => panic!("{body}: expected unsupported, but it lowered"),
        }
    }
    // gcc rejects a dereference of `void *`; so does bitmc (not as `unsupported`).
    match lower("int main(){ int x = 1; void *v = &x; if (*v == 1) reach_error(); return 0; }") {
        Err(e @ FrontendError::Unsupported { .. }) => panic!("{e}"),
        Err(e) => assert!(e.to_string().contains("void *"), "{e}"),
        Ok(_) => panic!("a dereference of void * lowered"),
    }
}

#[test]
fn undefined_behaviour_is_never_given_a_value() {
    for (body, why) in [
        ("int main(){ int z = __VERIFIER_nondet_int(); int r = 10 / z; if (z == 0) reach_error(); return 0; }", "division by zero"),
        ("int main(){ int z = __VERIFIER_nondet_int(); int r = 7 % z; if (z == 0) reach_error(); return 0; }", "remainder by zero"),
        // `z` is not 0 at the division, so its only undefined behaviour is the overflow.
        ("int main(){ int z = __VERIFIER_nondet_int(); if (z == 0) return 0; int m = -2147483647 - 1; int r = m / z; if (z == -1) reach_error(); return 0; }", "signed overflow of /"),
        ("int main(){ int s = __VERIFIER_nondet_int(); if (s == 33) { int r = 1 << s; if (r == 2) reach_error(); } return 0; }", "shift amount"),
        // A pointer bound to a scalar, subscripted past it.
        ("int main(){ int x = 3; int *p = &x; int k = __VERIFIER_nondet_int(); if (k < 0 || k > 1) return 0; if (p[k] != 3) reach_error(); return 0; }", "outside its object"),
    ] {
        all_engines_say(body, None, why);
    }
    // An error reachable without the undefined behaviour is still found.
    all_engines_say(
        "int main(){ int z = __VERIFIER_nondet_int(); if (z == 3) reach_error(); int r = 10 / z; return r; }",
        Some(false),
        "",
    );
}

#[test]
fn functions_without_a_definition_may_write_globals() {
    // It may write `g`, but the program does not say that it does: the counterexample rests on
    // what `set_g` does, so no verdict (tests/cli_unknown_answers.rs: `--undefined-calls nondet`
    // accepts it).
    all_engines_say(
        "int g = 0; void set_g(void); int main(){ set_g(); if (g != 0) reach_error(); return 0; }",
        None,
        "undefined function `set_g`",
    );
    // Neither `static` nor `const` globals, nor the C library's functions, are written.
    all_engines_say(
        "static int s = 0; const int k = 3; int printf(const char *, ...); void ext(void); \
         int main(){ ext(); printf(\"x\"); if (s != 0 || k != 3) reach_error(); return 0; }",
        Some(true),
        "",
    );
    // A global pointer bound to an object could be redirected: rejected.
    let e = lower("int x; int *gp = &x; void ext(void); int main(){ ext(); return *gp; }");
    assert!(
        matches!(&e, Err(FrontendError::Unsupported { what, .. }) if what.contains("global pointer `gp`")),
        "{e:?}"
    );
}
