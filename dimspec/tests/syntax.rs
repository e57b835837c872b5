//! Accepted inputs: the canonical example of formats.md §6.5, every liberal form, the written
//! subset, and the bench files of `../shared/bench/dimspec` beside the checkout (skipped when absent, a
//! failure under `BITMC_REQUIRE_BENCH=1`, see `.ci/run`).

use dimspec::{parse, read_file, to_bytes, Cnf, Problem, Reason};
use std::path::Path;

/// The canonical 2-bit counter (formats.md §6.5), byte for byte in the written subset.
const COUNTER: &str = "\
c two-bit counter
i cnf 2 2
-1 0
-2 0
u cnf 2 0
g cnf 2 2
1 0
2 0
t cnf 4 6
1 3 0
-1 -3 0
-2 -1 -4 0
-2 1 4 0
2 -1 4 0
2 1 -4 0
";

fn cnf(clauses: &[&[i32]]) -> Cnf {
    clauses.iter().collect()
}

fn counter() -> Problem {
    Problem {
        num_vars: 2,
        comments: vec!["two-bit counter".into()],
        init: cnf(&[&[-1], &[-2]]),
        universal: Cnf::new(),
        goal: cnf(&[&[1], &[2]]),
        trans: cnf(&[
            &[1, 3],
            &[-1, -3],
            &[-2, -1, -4],
            &[-2, 1, 4],
            &[2, -1, 4],
            &[2, 1, -4],
        ]),
    }
}

fn ok(input: &str) -> Problem {
    parse(input.as_bytes()).unwrap_or_else(|e| panic!("{input:?}: {e}"))
}

#[test]
fn canonical_counter_parses_and_is_written_byte_for_byte() {
    let p = ok(COUNTER);
    assert_eq!(p, counter());
    assert_eq!(String::from_utf8(to_bytes(&p).unwrap()).unwrap(), COUNTER);
}

#[test]
fn liberal_forms_of_the_counter() {
    let variants = [
        // i, g, u, t order, comments between and inside sections, after a clause's `0`.
        "c two-bit counter\ni cnf 2 2\n-1 0 c after zero\nc between\n-2 0\ng cnf 2 2\n1 0\n\
         2 0\nu cnf 2 0\nt cnf 4 6\n1 3 0\n-1 -3 0\n-2 -1 -4 0\n-2 1 4 0\n2 -1 4 0\n2 1 -4 0\n",
        // `t` first, declared with n, several clauses per line, clauses over lines, CRLF, tabs.
        "c two-bit counter\r\nt cnf 2 6\r\n1 3 0 -1 -3 0\r\n-2 -1\r\n-4 0 -2 1 4 0\t2 -1 4 0\r\n\
         2 1 -4 0\r\ng cnf 2 2 1 0 2 0\r\ni cnf 2 2\r\n-1\r\n0\r\n-2 0",
        // Repeated sections append; `u` missing; comment between literals; no final newline.
        "c two-bit counter\ni cnf 2 1\n-1 0\nt cnf 4 2\n1 3 0\n-1 -3 0\ni cnf 2 1\n-2 0\n\
         g\tcnf  2 2\n1 c mid-clause\n 0 2 0\nt cnf 4 4\n-2 -1 -4 0\n-2 1 4 0\n2 -1 4 0\n2 1 -4 0",
        // Vertical tab and form feed are whitespace too; leading zeros are numbers.
        "c two-bit counter\ni cnf 2 2\x0b-1 0\x0c-2 00\nu cnf 2 0\ng cnf 2 2\n01 0\n2 0\n\
         t cnf 4 6\n1 3 0\n-1 -3 0\n-2 -1 -4 0\n-2 1 4 0\n2 -1 4 0\n2 1 -4 0\n",
    ];
    for v in variants {
        assert_eq!(ok(v), counter(), "{v:?}");
    }
}

#[test]
fn comments_before_the_first_header_are_kept() {
    let p =
        ok("c var 1 = x.0\nc  indented\nc\ncno-space\n   c late start \r\ni cnf 1 0\nc dropped\n");
    let expected = ["var 1 = x.0", " indented", "", "no-space", "late start "];
    assert_eq!(p.comments, expected);
    let p = parse(b"c caf\xc3\xa9 \xff\nc a\rb\r\r\n i cnf 0 0\n").unwrap();
    assert_eq!(p.comments, ["café \u{fffd}", "a\rb"]);
    assert_eq!(parse(&to_bytes(&p).unwrap()).unwrap(), p);
}

#[test]
fn missing_sections_are_empty_and_n_comes_from_any_header() {
    let p = ok("g cnf 3 1\n-3 0\n");
    assert_eq!(p.num_vars, 3);
    assert!(p.init.is_empty() && p.universal.is_empty() && p.trans.is_empty());
    assert_eq!(p.goal, cnf(&[&[-3]]));
    // n = 0 with an empty clause.
    let p = ok("i cnf 0 1\n0\n");
    assert_eq!((p.num_vars, p.init.len(), p.init.num_literals()), (0, 1, 0));
    assert_eq!(ok("t cnf 0 0").num_vars, 0);
}

#[test]
fn t_width_is_2n_or_n() {
    // Alone and even: 2n.
    assert_eq!(ok("t cnf 4 1\n1 -4 0\n").num_vars, 2);
    // Alone and odd: can only be n.
    let p = ok("t cnf 3 1\n1 -6 0\n");
    assert_eq!((p.num_vars, p.trans.len()), (3, 1));
    // Leading and even, settled by a later header either way.
    let p = ok("t cnf 4 1\n1 -8 0\nu cnf 4 0\n");
    assert_eq!(p.num_vars, 4);
    assert_eq!(ok("t cnf 4 1\n1 -4 0\nu cnf 2 0\n").num_vars, 2);
    assert_eq!(ok("t cnf 4 0\nt cnf 8 0\n").num_vars, 4);
    assert_eq!(ok("t cnf 4 0\nt cnf 2 0\n").num_vars, 2);
    assert_eq!(ok("t cnf 4 0\nt cnf 4 0\n").num_vars, 2);
    // After n is known: both widths.
    assert_eq!(ok("i cnf 3 0\nt cnf 3 0\nt cnf 6 0\n").num_vars, 3);
}

#[test]
fn written_output_reparses_to_the_same_problem() {
    let mut p = counter();
    p.comments.push(String::new());
    p.comments.push("  spaced ".into());
    p.universal.push_clause(&[]);
    let bytes = to_bytes(&p).unwrap();
    assert_eq!(parse(&bytes).unwrap(), p);
}

#[test]
fn reads_large_files_through_the_map_and_small_ones_by_read() {
    let dir = std::env::temp_dir().join(format!("dimspec-syntax-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut big = Problem::new(1000);
    for i in 0..200_000 {
        big.trans
            .push_clause(&[i % 1000 + 1, -(i % 2000 + 1), 1500]);
    }
    let path = dir.join("big.cnf");
    dimspec::write(&big, std::fs::File::create(&path).unwrap()).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 2 << 20);
    assert_eq!(read_file(&path).unwrap(), big);
    let small = dir.join("small.cnf");
    std::fs::write(&small, COUNTER).unwrap();
    assert_eq!(read_file(&small).unwrap(), counter());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_files_parse() {
    // The benchmark inputs lie beside the checkout (this crate is one level below it).
    let dir = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/bench/dimspec");
    if !dir.is_dir() {
        let ci = std::env::var("BITMC_REQUIRE_BENCH").is_ok_and(|v| v == "1");
        assert!(
            !ci,
            "{} is absent; with BITMC_REQUIRE_BENCH=1 (set by .ci/run when ../shared/bench exists) it must be there",
            dir.display()
        );
        eprintln!("SKIPPED: {} is absent", dir.display());
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spec"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let result = read_file(path);
        eprintln!("{name}: {:?}", result.as_ref().map(|p| p.num_vars));
        match name.as_ref() {
            // One space: EXPECTED.tsv allows rejecting it; we do, by design (crate doc).
            "test1.spec" => {
                let e = result.unwrap_err();
                assert_eq!(e.parse_error().unwrap().reason, Reason::NoSection);
            }
            _ => {
                let p = result.unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(parse(&to_bytes(&p).unwrap()).unwrap(), p);
                if name == "freecell.spec" {
                    let counts = [p.init.len(), p.universal.len(), p.goal.len(), p.trans.len()];
                    assert_eq!((p.num_vars, counts), (1481, [30, 118814, 4, 312]));
                }
                if name == "test3.spec" {
                    assert!(p.trans.is_empty() && p.universal.is_empty());
                }
            }
        }
    }
}
