//! Polynomial invariants end to end: k-induction proves loops whose invariants are polynomial
//! equalities between the variables (the shapes of `fixtures/c/loops/poly_*`, whose identities
//! hold in wrap-around arithmetic whatever the inputs) with the program equalities those
//! invariants imply, and cannot without the invariant search.

mod support;

use support::bitmc;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/c/loops/{name}.c", env!("CARGO_MANIFEST_DIR"))
}

/// The number after `label: ` in `-v`'s statistics.
fn counter(text: &str, label: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.trim_start().starts_with(label))?;
    line.rsplit(':').next()?.trim().parse().ok()
}

#[test]
fn kind_proves_polynomial_loops_with_the_facts_and_not_without() {
    for name in [
        "poly_cubes_wrap_uint",
        "poly_geo_wrap_uint",
        "poly_bresenham_wrap",
    ] {
        let f = fixture(name);
        let kind = [
            "verify",
            &f,
            "--property",
            "unreach-call",
            "--engine",
            "kind",
        ];
        let with = bitmc(&[&kind[..], &["--timeout", "60", "-v"]].concat());
        let all = format!("{}{}", with.stdout, with.stderr);
        assert_eq!((with.code, with.last_line()), (0, "TRUE"), "{name}:\n{all}");
        let facts = counter(&all, "program equalities implied by them");
        assert!(facts.is_some_and(|n| n > 0), "{name}: no facts\n{all}");
        let without = bitmc(&[&kind[..], &["--timeout", "4", "--invariant-time", "0"]].concat());
        assert_eq!(
            (without.code, without.last_line()),
            (20, "UNKNOWN"),
            "{name} without invariants:\n{}",
            without.stdout
        );
    }
}
