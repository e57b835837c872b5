//! Every rejected input: the line, column and reason of the error, and the one-line messages.

use dimspec::{parse, read_file, HeaderPart, ParseError, Reason, Section, Terminator};

/// Parses `input`, which must fail, and returns `(line, column, reason)`.
fn fail(input: &str) -> (usize, usize, Reason) {
    fail_bytes(input.as_bytes())
}

fn fail_bytes(input: &[u8]) -> (usize, usize, Reason) {
    match parse(input) {
        Ok(p) => panic!("accepted {input:?} as {p:?}"),
        Err(ParseError {
            line,
            column,
            reason,
        }) => (line, column, reason),
    }
}

fn out_of_range(lit: i32, section: Section, max: u32) -> Reason {
    Reason::LiteralOutOfRange { lit, section, max }
}

#[test]
fn literal_out_of_range_per_section() {
    use Section::*;
    let e = fail("i cnf 2 1\n-3 0\n");
    assert_eq!(e, (2, 1, out_of_range(-3, Init, 2)));
    let e = fail("u cnf 2 1\n1  3 0\n");
    assert_eq!(e, (2, 4, out_of_range(3, Universal, 2)));
    let e = fail("g cnf 2 2\n1 0 2 0\n\t-7 0\n");
    assert_eq!(e, (3, 2, out_of_range(-7, Goal, 2)));
    let e = fail("i cnf 2 0\nt cnf 4 2\n1 -4 0\n1 5 0\n");
    assert_eq!(e, (4, 3, out_of_range(5, Trans, 4)));
    // `t` declared with n: the range is still 1..=2n.
    assert!(parse(b"i cnf 2 0\nt cnf 2 1\n1 -4 0\n").is_ok());
    let e = fail("i cnf 2 0\nt cnf 2 1\n1 -5 0\n");
    assert_eq!(e, (3, 3, out_of_range(-5, Trans, 4)));
}

#[test]
fn literal_beyond_w_in_a_leading_t_is_an_error_once_n_is_w_over_2() {
    // `t cnf 4` first: n is 4 or 2, so 8 is held back until a later header decides.
    let e = fail("t cnf 4 1\n1 8 0\ni cnf 2 0\n");
    assert_eq!(e, (2, 3, out_of_range(8, Section::Trans, 4)));
    // Without another header the usual reading (width = 2n) applies.
    let e = fail("t cnf 4 1\n1 8 0\n");
    assert_eq!(e, (2, 3, out_of_range(8, Section::Trans, 4)));
    let e = fail("t cnf 4 1\n1 9 0\n");
    assert_eq!(e, (2, 3, out_of_range(9, Section::Trans, 8)));
}

#[test]
fn clause_count_differs_from_header() {
    let reason = |section, promised, found| Reason::ClauseCount {
        section,
        promised,
        found,
    };
    // Too few, found at the next header; reported at the section's header.
    let e = fail("c x\ni cnf 2 2\n1 0\ng cnf 2 0\n");
    assert_eq!(e, (2, 1, reason(Section::Init, 2, 1)));
    // Too many, found at the end of the input.
    let e = fail("i cnf 2 0\ng cnf 2 1\n1 0 2 0\n");
    assert_eq!(e, (2, 1, reason(Section::Goal, 1, 2)));
    // A repeated section is counted per header.
    let e = fail("u cnf 1 1\n1 0\nu cnf 1 2\n-1 0\n");
    assert_eq!(e, (3, 1, reason(Section::Universal, 2, 1)));
    // LLUMC's placeholder for a missing section.
    let e = fail("i cnf 1 1\n");
    assert_eq!(e, (1, 1, reason(Section::Init, 1, 0)));
}

#[test]
fn last_clause_not_terminated() {
    let e = fail("i cnf 2 1\n1\n 2");
    let at = Terminator::EndOfInput;
    assert_eq!(e, (3, 3, Reason::UnterminatedClause { start_line: 2, at }));
    let e = fail("i cnf 2 1\n1 2\ng cnf 2 0\n");
    let at = Terminator::Header(Section::Goal);
    assert_eq!(e, (3, 1, Reason::UnterminatedClause { start_line: 2, at }));
    // A comment does not end a clause.
    let e = fail("i cnf 2 1\n1 c 0\n");
    let at = Terminator::EndOfInput;
    assert_eq!(e, (3, 1, Reason::UnterminatedClause { start_line: 2, at }));
}

#[test]
fn dimacs_p_cnf_header() {
    assert_eq!(fail("p cnf 2 1\n1 0\n"), (1, 1, Reason::DimacsHeader));
    assert_eq!(fail("c a\n  p\tcnf 2 1\n"), (2, 3, Reason::DimacsHeader));
    // A `p` that is no header is just a stray character.
    assert_eq!(fail("i cnf 1 0\npx"), (2, 1, Reason::UnexpectedByte(b'p')));
}

#[test]
fn clause_before_any_header() {
    assert_eq!(
        fail("c hi\n1 0\ni cnf 1 1\n"),
        (2, 1, Reason::ClauseBeforeHeader)
    );
    assert_eq!(fail("-1 0\n"), (1, 1, Reason::ClauseBeforeHeader));
    assert_eq!(fail("0\n"), (1, 1, Reason::ClauseBeforeHeader));
}

#[test]
fn inconsistent_variable_counts() {
    let reason = |section, declared, allowed: &[u32], line| Reason::InconsistentVariables {
        section,
        declared,
        allowed: allowed.to_vec(),
        line,
    };
    let e = fail("i cnf 2 0\n\nu cnf 3 0\n");
    assert_eq!(e, (3, 1, reason(Section::Universal, 3, &[2], 1)));
    let e = fail("c x\ni cnf 2 0\nt cnf 6 0\n");
    assert_eq!(e, (3, 1, reason(Section::Trans, 6, &[2, 4], 2)));
    // A leading even `t` width w allows n = w / 2 or w.
    let e = fail("t cnf 4 0\ni cnf 3 0\n");
    assert_eq!(e, (2, 1, reason(Section::Init, 3, &[2, 4], 1)));
    let e = fail("t cnf 4 0\nt cnf 6 0\n");
    assert_eq!(e, (2, 1, reason(Section::Trans, 6, &[2, 4, 8], 1)));
    // Once settled, n stays.
    let e = fail("t cnf 4 0\nt cnf 2 0\ni cnf 4 0\n");
    assert_eq!(e, (3, 1, reason(Section::Init, 4, &[2], 2)));
}

#[test]
fn odd_t_width_that_cannot_be_n() {
    let e = fail("i cnf 2 0\nt cnf 3 0\n");
    let reason = Reason::OddTransitionWidth {
        width: 3,
        n: 2,
        line: 1,
    };
    assert_eq!(e, (2, 1, reason));
    // An odd leading width is n, so a later header must agree with it.
    let e = fail("t cnf 3 0\ng cnf 2 0\n");
    let reason = Reason::InconsistentVariables {
        section: Section::Goal,
        declared: 2,
        allowed: vec![3],
        line: 1,
    };
    assert_eq!(e, (2, 1, reason));
}

#[test]
fn stray_tokens_garbage_and_binary_data() {
    use Reason::UnexpectedByte as U;
    assert_eq!(fail("i cnf 1 1\n1 x 0\n"), (2, 3, U(b'x')));
    assert_eq!(fail("i cnf 1 1\n1a 0\n"), (2, 2, U(b'a')));
    assert_eq!(fail("i cnf 1 1\n1 0c comment\n"), (2, 4, U(b'c')));
    assert_eq!(fail("i cnf 1 1\n1 0 %\n"), (2, 5, U(b'%')));
    assert_eq!(fail("i cnf 1 1 x\n"), (1, 11, U(b'x')));
    assert_eq!(fail("i cnf 1 1\n1 0\n\u{feff}"), (3, 1, U(0xef)));
    assert_eq!(fail_bytes(b"\x00\x01\x02"), (1, 1, U(0)));
    assert_eq!(fail_bytes(b"i cnf 1 1\n1\x00 0"), (2, 2, U(0)));
    assert_eq!(fail("i cnf 1 1\n- 1 0\n"), (2, 1, Reason::LoneMinus));
    assert_eq!(fail("i cnf 1 1\n--1 0\n"), (2, 1, Reason::LoneMinus));
    assert_eq!(fail("i cnf 1 1\n1 -0\n"), (2, 3, Reason::NegativeZero));
    assert_eq!(fail("i cnf 1 1\n+1 0\n"), (2, 1, U(b'+')));
}

#[test]
fn malformed_headers() {
    let m = |section, expected| Reason::MalformedHeader { section, expected };
    use HeaderPart::*;
    use Section::*;
    assert_eq!(fail("i 2 2\n"), (1, 3, m(Init, Cnf)));
    assert_eq!(fail("icnf 2 2\n"), (1, 2, m(Init, Cnf)));
    assert_eq!(fail("u cnf2 2\n"), (1, 3, m(Universal, Cnf)));
    assert_eq!(fail("g cnf\n2 2\n"), (1, 6, m(Goal, VarCount)));
    assert_eq!(fail("t cnf -2 1\n"), (1, 7, m(Trans, VarCount)));
    assert_eq!(fail("i cnf 2\n1 0\n"), (1, 8, m(Init, ClauseCount)));
    assert_eq!(fail("i cnf 2 "), (1, 9, m(Init, ClauseCount)));
    assert_eq!(fail("i cnf 2 1x\n"), (1, 10, Reason::UnexpectedByte(b'x')));
    assert_eq!(fail("i cnf 0 0\nt\n"), (2, 2, m(Trans, Cnf)));
}

#[test]
fn integer_overflow() {
    let e = fail("i cnf 1 1\n2147483648 0\n");
    assert_eq!(e, (2, 1, Reason::IntegerOverflow));
    let e = fail("i cnf 1 1\n-99999999999999999999999 0\n");
    assert_eq!(e, (2, 1, Reason::IntegerOverflow));
    let e = fail("i cnf 1 99999999999999999999999\n");
    assert_eq!(e, (1, 9, Reason::IntegerOverflow));
    let e = fail("i cnf 18446744073709551616 0\n");
    assert_eq!(e, (1, 7, Reason::IntegerOverflow));
    // In range for i32 but beyond n: a range error, not an overflow.
    let e = fail("i cnf 1 1\n2147483647 0\n");
    assert_eq!(e, (2, 1, out_of_range(2147483647, Section::Init, 1)));
    // 2n must fit in a literal.
    let too_many = |section, declared| Reason::TooManyVariables { section, declared };
    let e = fail("i cnf 1073741824 0\n");
    assert_eq!(e, (1, 1, too_many(Section::Init, 1073741824)));
    let e = fail("t cnf 2147483647 0\n");
    assert_eq!(e, (1, 1, too_many(Section::Trans, 2147483647)));
    assert!(parse(b"i cnf 1073741823 0\nt cnf 2147483646 0\n").is_ok());
    // Found by the fuzzer: a leading odd `t` width is n, so it must not exceed the limit for n.
    let e = fail("t cnf 1073761823 0\n");
    assert_eq!(e, (1, 1, too_many(Section::Trans, 1073761823)));
    assert_eq!(parse(b"t cnf 1073761824 0").unwrap().num_vars, 536880912);
}

#[test]
fn empty_or_comment_only_input_has_no_section() {
    for input in [
        "",
        " ",
        "\n\n",
        "c only a comment\n",
        "c a\r\nc b",
        "\t c x\n c y",
    ] {
        assert_eq!(fail(input), (1, 1, Reason::NoSection), "{input:?}");
    }
}

#[test]
fn messages_are_one_line() {
    let cases = [
        ("", "1:1: no DimSpec section: the input is empty or holds only comments"),
        ("i cnf 2 1\n-3 0\n", "2:1: literal -3 out of range: `i` allows variables 1..=2"),
        ("i cnf 2 0\nt cnf 6 0", "2:1: `t` header declares 6 variables, but the header on line 1 requires 2 or 4"),
        ("t cnf 4 0\nt cnf 6 0", "2:1: `t` header declares 6 variables, but the header on line 1 requires 2, 4 or 8"),
        ("i cnf 2 0\nt cnf 3 0", "2:1: `t` header width 3 is odd, so it must equal n = 2 (fixed on line 1)"),
        ("g cnf 2 3\n1 0\n2 0\n", "1:1: `g` header promises 3 clauses but the section has 2"),
        ("i cnf 2 1\n1 2", "2:4: clause starting on line 2 is not terminated by `0` before the end of the input"),
        ("i cnf 2 1\n1 2\nt cnf 4 0", "3:1: clause starting on line 2 is not terminated by `0` before the `t` header"),
        ("p cnf 1 1", "1:1: `p cnf` header: DimSpec sections start with `i`, `u`, `g` or `t cnf <vars> <clauses>`"),
        ("1 0", "1:1: clause before the first section header"),
        ("i cnf 1 1\n\x01", "2:1: unexpected byte 0x01"),
        ("i cnf 1 1\n1 ?", "2:3: unexpected character `?`"),
        ("i cnf 1\n", "1:8: malformed `i` header: expected the number of clauses on the header line"),
        ("i cnf 1 1\n9999999999 0", "2:1: integer overflow: number too large"),
    ];
    for (input, message) in cases {
        let e = parse(input.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), message);
    }
}

#[test]
fn file_errors_name_the_path() {
    let dir = std::env::temp_dir().join(format!("dimspec-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.cnf");
    std::fs::write(&path, "c map\ni cnf 2 1\n-3 0\n").unwrap();
    let e = read_file(&path).unwrap_err();
    let expected = format!(
        "{}:3:1: literal -3 out of range: `i` allows variables 1..=2",
        path.display()
    );
    assert_eq!(e.to_string(), expected);
    assert_eq!(e.path(), path);
    assert_eq!(e.parse_error().map(|p| p.line), Some(3));

    let empty = dir.join("empty.cnf");
    std::fs::write(&empty, "").unwrap();
    let e = read_file(&empty).unwrap_err();
    assert_eq!(e.parse_error().unwrap().reason, Reason::NoSection);

    let missing = dir.join("missing.cnf");
    let e = read_file(&missing).unwrap_err();
    assert!(e.parse_error().is_none());
    assert!(e
        .to_string()
        .starts_with(&format!("{}: ", missing.display())));
    assert!(!e.to_string().contains('\n'));
    std::fs::remove_dir_all(&dir).unwrap();
}
