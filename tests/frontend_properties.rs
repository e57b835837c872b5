//! The property checks built by the front end, run on the interpreter: each violation is found
//! exactly on the inputs that cause it, short-circuit operators guard their checks, and the
//! checks of the other properties are absent.

use bitmc::cfa::{run_with, uninitialized_reads, DataModel, Outcome, Property, RunOptions};
use bitmc::frontend::{lower_source, FrontendOptions};

/// The outcome of a program on a nondet sequence; the small-block and the large-block CFA
/// must agree.
fn outcome_dm(src: &str, property: Property, dm: DataModel, seq: &[i128]) -> Outcome {
    let vals: Vec<u128> = seq.iter().map(|&v| v as u128).collect();
    let ro = RunOptions {
        step_limit: 10_000,
        uninit_zero: true,
        record: false,
    };
    let mut outcomes = Vec::new();
    for lbe in [false, true] {
        let opts = FrontendOptions {
            property,
            data_model: dm,
            lbe,
            ..Default::default()
        };
        let l = lower_source(src, "p.c", &opts).unwrap_or_else(|e| panic!("{e}\n{src}"));
        assert!(uninitialized_reads(&l.cfa).is_empty());
        outcomes.push(run_with(&l.cfa, &vals, ro).0);
    }
    let (a, b) = (&outcomes[0], &outcomes[1]);
    assert_eq!(
        std::mem::discriminant(a),
        std::mem::discriminant(b),
        "lbe changes {src}"
    );
    outcomes.swap_remove(0)
}

fn outcome(src: &str, property: Property, seq: &[i128]) -> Outcome {
    outcome_dm(src, property, DataModel::Ilp32, seq)
}

fn is_error(o: &Outcome) -> bool {
    matches!(o, Outcome::Error { .. })
}

fn program(decls: &str, body: &str) -> String {
    format!(
        "extern int __VERIFIER_nondet_int(void); extern unsigned __VERIFIER_nondet_uint(void);\n\
         extern long __VERIFIER_nondet_long(void); extern long long __VERIFIER_nondet_longlong(void);\n\
         {decls}\nint main(void) {{\n{body}\nreturn 0; }}\n"
    )
}

const MIN: i128 = -2_147_483_648;
const MAX: i128 = 2_147_483_647;

#[test]
fn signed_overflow_conditions() {
    let ov = Property::NoOverflow;
    let two = "int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int();";
    type Case<'a> = (&'a str, &'a [(i128, i128, bool)]);
    let cases: &[Case] = &[
        (
            "int r = x + y;",
            &[
                (MAX, 1, true),
                (MAX, 0, false),
                (MIN, -1, true),
                (-5, 3, false),
                (MIN, MAX, false),
            ],
        ),
        (
            "int r = x - y;",
            &[
                (MIN, 1, true),
                (MAX, -1, true),
                (-1, MAX, false),
                (0, MIN, true),
                (-1, MIN, false),
            ],
        ),
        (
            "int r = x * y;",
            &[
                (65536, 32768, true),
                (65535, 32768, false),
                (-1, MIN, true),
                (46341, 46341, true),
                (-46340, 46340, false),
            ],
        ),
        (
            "int r = x / y;",
            &[(MIN, -1, true), (MIN, 1, false), (MAX, -1, false)],
        ),
        ("int r = x % y;", &[(MIN, -1, true), (MIN, 2, false)]),
        ("int r = -x + 0 * y;", &[(MIN, 0, true), (MAX, 0, false)]),
        ("x++; y = 0;", &[(MAX, 0, true), (MAX - 1, 0, false)]),
        ("--x; y = 0;", &[(MIN, 0, true), (0, 0, false)]),
        ("x += y;", &[(MAX, 1, true), (1, 1, false)]),
        (
            "x <<= y;",
            &[
                (1, 30, false),
                (1, 31, true),
                (-1, 31, false),
                (-2, 31, true),
                (3, 29, false),
                (3, 30, true),
                (0, 31, false),
            ],
        ),
        (
            "unsigned u = (unsigned)x + (unsigned)y;",
            &[(MAX, MAX, false)],
        ),
        ("char c = (char)x; c += (char)y;", &[(127, 1, false)]),
        ("long long w = (long long)x * y;", &[(MAX, MAX, false)]),
    ];
    for (stmt, inputs) in cases {
        let src = program("", &format!("{two}\n{stmt}"));
        for &(a, b, expect) in inputs.iter() {
            let o = outcome(&src, ov, &[a, b]);
            assert_eq!(is_error(&o), expect, "`{stmt}` with x={a}, y={b}: {o:?}");
            // No overflow check under another property: signed arithmetic wraps.
            let o = outcome(&src, Property::UnreachCall, &[a, b]);
            assert!(!is_error(&o), "`{stmt}` under unreach-call: {o:?}");
        }
    }
}

#[test]
fn long_is_data_model_dependent() {
    let src = program("", "long x = __VERIFIER_nondet_long(); x = x + 1;");
    assert!(is_error(&outcome_dm(
        &src,
        Property::NoOverflow,
        DataModel::Ilp32,
        &[MAX]
    )));
    assert!(!is_error(&outcome_dm(
        &src,
        Property::NoOverflow,
        DataModel::Lp64,
        &[MAX]
    )));
    let src = program(
        "",
        "unsigned u = __VERIFIER_nondet_uint(); long l = -1; if (l < u) reach_error();",
    );
    // ILP32: long and unsigned int convert to unsigned long, so -1 is the largest value.
    assert!(!is_error(&outcome_dm(
        &src,
        Property::UnreachCall,
        DataModel::Ilp32,
        &[5]
    )));
    assert!(is_error(&outcome_dm(
        &src,
        Property::UnreachCall,
        DataModel::Lp64,
        &[5]
    )));
}

#[test]
fn division_by_zero() {
    let src = program("", "int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); int q = a / b; int r = a % 7;");
    assert!(is_error(&outcome(&src, Property::DivByZero, &[5, 0])));
    assert!(!is_error(&outcome(&src, Property::DivByZero, &[5, 1])));
    // Under another property a division or remainder by zero is undefined behaviour: the
    // execution ends in an UNKNOWN sink, whatever a bit-vector semantics would give.
    let src2 = program("", "int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); if (a / b == -1 && a % b == a) reach_error();");
    let o = outcome(&src2, Property::UnreachCall, &[5, 0]);
    assert!(
        matches!(&o, Outcome::Sink { reason, .. } if reason.contains("division by zero")),
        "{o:?}"
    );
    let src2r = program(
        "",
        "int b = __VERIFIER_nondet_int(); int r = 7 % b; if (b == 0) reach_error();",
    );
    let o = outcome(&src2r, Property::NoOverflow, &[0]);
    assert!(
        matches!(&o, Outcome::Sink { reason, .. } if reason.contains("remainder by zero")),
        "{o:?}"
    );
    assert!(!matches!(
        outcome(&src2r, Property::UnreachCall, &[3]),
        Outcome::Sink { .. }
    ));
    // Short circuit: the division is only evaluated when b != 0.
    let src3 = program("", "int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); int ok = b != 0 && a / b > 1; int t = b ? a % b : 0;");
    assert!(!is_error(&outcome(&src3, Property::DivByZero, &[5, 0])));
    assert!(!is_error(&outcome(&src3, Property::DivByZero, &[5, 3])));
    let src4 = program(
        "",
        "unsigned a = __VERIFIER_nondet_uint(); a %= __VERIFIER_nondet_uint();",
    );
    assert!(is_error(&outcome(&src4, Property::DivByZero, &[5, 0])));
}

/// `MIN / -1` and `MIN % -1` trap: the error under `no-overflow`, a sink under the others.
#[test]
fn division_overflow_is_undefined() {
    for op in ["/", "%"] {
        let body = format!("int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); int q = a {op} b; if (b == -1) reach_error();");
        let src = program("", &body);
        let min = i128::from(i32::MIN);
        assert!(is_error(&outcome(&src, Property::NoOverflow, &[min, -1])));
        for p in [
            Property::UnreachCall,
            Property::DivByZero,
            Property::ValidIndex,
        ] {
            let o = outcome(&src, p, &[min, -1]);
            assert!(
                matches!(&o, Outcome::Sink { reason, .. } if reason.contains("signed overflow")),
                "{op} {p}: {o:?}"
            );
        }
        // Any other dividend reaches the error call.
        assert!(is_error(&outcome(
            &src,
            Property::UnreachCall,
            &[min + 1, -1]
        )));
    }
}

/// A shift by a negative amount or by at least the width of the promoted left operand is
/// undefined under every property; `long long` and `char` operands use their promoted widths.
#[test]
fn shift_amounts_out_of_range() {
    let src = program("", "int s = __VERIFIER_nondet_int(); int r = 1 << s; long long l = 1LL << s; char c = 1; int d = c << s; if (r == 2) reach_error();");
    for p in Property::ALL {
        for s in [32, 33, -1, 64, i128::from(i32::MIN)] {
            let o = outcome(&src, p, &[s]);
            assert!(
                matches!(&o, Outcome::Sink { reason, .. } if reason.contains("shift amount")),
                "{p} {s}: {o:?}"
            );
        }
    }
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[1])));
    assert!(!is_error(&outcome(&src, Property::UnreachCall, &[31])));
    // 1LL << 40 alone is defined.
    let src = program("", "int s = __VERIFIER_nondet_int(); long long l = 1LL << s; if (l == 1099511627776LL) reach_error();");
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[40])));
    let o = outcome(&src, Property::UnreachCall, &[64]);
    assert!(matches!(o, Outcome::Sink { .. }), "{o:?}");
}

#[test]
fn array_bounds() {
    let decls = "int g[3];";
    let body = "int i = __VERIFIER_nondet_int(); g[i] = 1; int m[2][3] = {0}; int j = __VERIFIER_nondet_int(); m[1][j] = 2;";
    let src = program(decls, body);
    let vi = Property::ValidIndex;
    assert!(!is_error(&outcome(&src, vi, &[2, 2])));
    assert!(is_error(&outcome(&src, vi, &[3, 0])));
    assert!(is_error(&outcome(&src, vi, &[-1, 0])));
    // Each subscript is checked against its own dimension (m[1][3] is not m[2][0]).
    assert!(is_error(&outcome(&src, vi, &[0, 3])));
    // Under another property an access out of bounds reaches the UNKNOWN sink, not a wrap.
    let o = outcome(&src, Property::UnreachCall, &[3, 0]);
    assert!(matches!(o, Outcome::Sink { .. }), "{o:?}");
    let o = outcome(&src, Property::NoOverflow, &[0, -5]);
    assert!(matches!(o, Outcome::Sink { .. }), "{o:?}");
    // A large unsigned index does not wrap into range.
    let src = program(
        "int a[4];",
        "unsigned long long k = __VERIFIER_nondet_longlong(); a[k] = 1;",
    );
    assert!(!is_error(&outcome(&src, vi, &[(1i128 << 64) | 2])));
    assert!(is_error(&outcome(&src, vi, &[(1i128 << 63) + 1])));
}

#[test]
fn error_functions_per_property() {
    let src = program("", "int x = __VERIFIER_nondet_int(); if (x == 1) reach_error(); if (x == 2) __VERIFIER_error(); x = x + 1;");
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[1])));
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[2])));
    // Under no-overflow, reach_error ends the execution (it aborts in the real program).
    assert_eq!(outcome(&src, Property::NoOverflow, &[1]), Outcome::Exit);
    assert!(is_error(&outcome(&src, Property::NoOverflow, &[MAX])));
    let src = program("", "int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 0); __VERIFIER_assert(x != 3); assert(x != 4);");
    assert!(matches!(
        outcome(&src, Property::UnreachCall, &[0]),
        Outcome::AssumeFailed { .. }
    ));
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[3])));
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[4])));
    assert_eq!(outcome(&src, Property::UnreachCall, &[5]), Outcome::Exit);
    let src = program(
        "",
        "int x = __VERIFIER_nondet_int(); if (x) abort(); if (x == 0) exit(3); reach_error();",
    );
    assert_eq!(outcome(&src, Property::UnreachCall, &[1]), Outcome::Exit);
    assert_eq!(outcome(&src, Property::UnreachCall, &[0]), Outcome::Exit);
}

#[test]
fn jumps_past_declarations_do_not_read_uninitialised_state() {
    let src = program("", "int x = __VERIFIER_nondet_int(); if (x) goto L; { int y; L: y = y + 1; if (y == 1 && x) reach_error(); }");
    // `y` is havocked (uninit_zero gives 0), so y + 1 == 1.
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[1])));
    let src = program("", "int x = __VERIFIER_nondet_int(); switch (x) { int z; case 1: z = 4; if (z == 4) reach_error(); }");
    assert!(is_error(&outcome(&src, Property::UnreachCall, &[1])));
}

#[test]
fn infinite_loops_hit_the_step_limit() {
    let src = program("", "int x = 0; while (1) { x++; }");
    assert!(matches!(
        outcome(&src, Property::UnreachCall, &[]),
        Outcome::StepLimit { .. }
    ));
}
