//! AIGER reader and writer: the bench files, round trips between the formats on random files,
//! behaviour of the conversion to an `Aig`, symbols and comments, and every malformed case
//! with its error position.

mod aig_support;

use aig_support::{bench_aiger, random_aiger, ref_lit, reference_eval, Rng};
use bitmc::aig::aiger::{self, AigerError, AigerFile, ErrorKind, Format, Pos};
use bitmc::aig::{Aig, AigLit};
use std::path::Path;

#[test]
fn bench_files_read_convert_and_round_trip() {
    let Some(bench) = bench_aiger() else {
        return;
    };
    let dir = std::fs::read_dir(&bench).expect("readable bench directory");
    let mut n = 0;
    for entry in dir {
        let path = entry.expect("directory entry").path();
        if path.extension().is_none_or(|e| e != "aig" && e != "aag") {
            continue;
        }
        let data = std::fs::read(&path).expect("readable");
        let file = aiger::read_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !file.outputs.is_empty() || !file.bad.is_empty(),
            "{}: no property",
            path.display()
        );
        let mut aig = Aig::new();
        file.to_aig(&mut aig)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Binary files in binary order are rewritten byte for byte.
        if aiger::detect_format(&data) == Some(Format::Binary) {
            assert_eq!(
                file.to_bytes(Format::Binary).expect("writable"),
                data,
                "{}",
                path.display()
            );
        }
        let ascii = file.to_bytes(Format::Ascii).expect("writable");
        assert_eq!(
            aiger::parse(&ascii).expect("own output"),
            file,
            "{}",
            path.display()
        );
        check_behaviour(&file, &mut Rng(n));
        n += 1;
    }
    assert!(n > 0, "no AIGER file in {}", bench.display());
}

/// `to_aig` agrees with the reference evaluator on random input and latch values.
fn check_behaviour(file: &AigerFile, rng: &mut Rng) {
    let mut aig = Aig::new();
    let map = file.to_aig(&mut aig).expect("valid file");
    for _ in 0..20 {
        let ins: Vec<bool> = file.inputs.iter().map(|_| rng.bool()).collect();
        let lats: Vec<bool> = file.latches.iter().map(|_| rng.bool()).collect();
        let want = reference_eval(file, &ins, &lats);
        let mut inp = vec![false; aig.num_vars() as usize];
        for (l, &x) in map
            .inputs
            .iter()
            .chain(&map.latches)
            .zip(ins.iter().chain(&lats))
        {
            inp[l.var() as usize] = x;
        }
        let got = aig.eval_all(&inp);
        let pairs = file
            .latches
            .iter()
            .map(|l| l.next)
            .zip(&map.next)
            .chain(file.outputs.iter().copied().zip(&map.outputs))
            .chain(file.bad.iter().copied().zip(&map.bad))
            .chain(file.constraints.iter().copied().zip(&map.constraints))
            .chain(
                file.justice
                    .iter()
                    .flatten()
                    .copied()
                    .zip(map.justice.iter().flatten()),
            )
            .chain(file.fairness.iter().copied().zip(&map.fairness));
        for (fl, &al) in pairs {
            assert_eq!(
                Aig::lit_value(&got, al),
                ref_lit(&want, fl),
                "file literal {fl}"
            );
        }
        for g in &file.ands {
            let al: AigLit = map.lit(g.lhs).expect("defined");
            assert_eq!(
                Aig::lit_value(&got, al),
                ref_lit(&want, g.lhs),
                "gate {}",
                g.lhs
            );
        }
    }
}

#[test]
fn random_files_round_trip_through_both_formats() {
    let mut rng = Rng(11);
    for round in 0..400 {
        let file = random_aiger(&mut rng, 1 + round % 12);
        file.check()
            .unwrap_or_else(|e| panic!("generator made an invalid file: {e}"));
        // ASCII keeps everything as it is.
        let ascii = file.to_bytes(Format::Ascii).expect("writable");
        let back = aiger::parse(&ascii)
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&ascii)));
        assert_eq!(back, file);
        // Binary renumbers: the result is the renumbered file, with the same behaviour.
        let bin = file.to_bytes(Format::Binary).expect("writable");
        let from_bin = aiger::parse(&bin).unwrap_or_else(|e| panic!("{e}"));
        let (renumbered, map) = file.renumbered().expect("valid");
        assert_eq!(from_bin, renumbered);
        assert!(from_bin.is_binary_order());
        assert_eq!(from_bin.symbols, file.symbols);
        assert_eq!(from_bin.comments, file.comments);
        for g in &file.ands {
            assert!(map[(g.lhs >> 1) as usize].is_some());
        }
        check_behaviour(&file, &mut rng);
        check_behaviour(&from_bin, &mut rng);
        same_behaviour(&file, &from_bin, &mut rng);
        // Binary to ASCII and back to binary is the identity on bytes.
        let ascii2 = from_bin.to_bytes(Format::Ascii).expect("writable");
        let again = aiger::parse(&ascii2).expect("own output");
        assert_eq!(again.to_bytes(Format::Binary).expect("writable"), bin);
    }
}

/// Two files with the same interface compute the same functions (inputs and latches matched
/// by position).
fn same_behaviour(a: &AigerFile, b: &AigerFile, rng: &mut Rng) {
    for _ in 0..10 {
        let ins: Vec<bool> = a.inputs.iter().map(|_| rng.bool()).collect();
        let lats: Vec<bool> = a.latches.iter().map(|_| rng.bool()).collect();
        let (va, vb) = (
            reference_eval(a, &ins, &lats),
            reference_eval(b, &ins, &lats),
        );
        let outs = |f: &AigerFile, v: &[bool]| {
            let mut o: Vec<bool> = f.latches.iter().map(|l| ref_lit(v, l.next)).collect();
            o.extend(
                f.latches
                    .iter()
                    .map(|l| l.reset_value().map_or(2, |x| x as u8) == 2),
            );
            for ls in [&f.outputs, &f.bad, &f.constraints, &f.fairness] {
                o.extend(ls.iter().map(|&l| ref_lit(v, l)));
            }
            o.extend(f.justice.iter().flatten().map(|&l| ref_lit(v, l)));
            o
        };
        assert_eq!(outs(a, &va), outs(b, &vb));
    }
}

#[test]
fn symbols_and_comments_are_kept() {
    let text = "aag 3 2 0 1 1 1\n2\n4\n6\n7\n6 2 4\ni0 first input\ni1 x\no0 the and\nb0 bad one\nc\nline one\n\nline three\n";
    let f = aiger::parse(text.as_bytes()).expect("valid");
    assert_eq!(f.symbols.len(), 4);
    assert_eq!(f.symbols[0].name, "first input");
    assert_eq!(f.symbols[3].name, "bad one");
    assert_eq!(f.comments, vec!["line one", "", "line three"]);
    assert_eq!(
        f.to_bytes(Format::Ascii).expect("writable"),
        text.as_bytes()
    );
    let b = aiger::parse(&f.to_bytes(Format::Binary).expect("writable")).expect("valid");
    assert_eq!(
        (b.symbols, b.comments),
        (f.symbols.clone(), f.comments.clone())
    );
}

/// Found by the fuzzer: carriage returns in comments and names are kept as they are.
#[test]
fn carriage_returns_survive_round_trips() {
    for text in [
        "aag 1 1 0 0 0\n2\nc\nx\r",
        "aag 1 1 0 0 0\n2\nc\nx\r\ny\n",
        "aag 1 1 0 0 0\n2\ni0 n\r\nc\n\r\n",
    ] {
        let f = aiger::parse(text.as_bytes()).expect("valid");
        for fmt in [Format::Ascii, Format::Binary] {
            let again = aiger::parse(&f.to_bytes(fmt).expect("writable")).expect("own output");
            assert_eq!(again, f, "{text:?} via {fmt:?}");
        }
    }
}

#[test]
fn version_1_9_sections_and_resets() {
    // One latch of each reset kind, bad, constraint, justice with two literals, fairness.
    let text = "aag 5 1 3 0 1 1 1 1 1\n2\n4 10 0\n6 4 1\n8 9 8\n11\n3\n2\n4\n7\n9\n10 2 6\n";
    let f = aiger::parse(text.as_bytes()).expect("valid");
    assert_eq!(
        f.latches
            .iter()
            .map(|l| l.reset_value())
            .collect::<Vec<_>>(),
        vec![Some(false), Some(true), None]
    );
    assert_eq!(f.bad, vec![11]);
    assert_eq!(f.constraints, vec![3]);
    assert_eq!(f.justice, vec![vec![4, 7]]);
    assert_eq!(f.fairness, vec![9]);
    // The writer drops reset 0 and keeps the rest.
    let out = String::from_utf8(f.to_bytes(Format::Ascii).expect("writable")).expect("ascii");
    assert!(out.contains("\n4 10\n6 4 1\n8 9 8\n"), "{out}");
    assert_eq!(aiger::parse(out.as_bytes()).expect("valid"), f);
    // A header without the zero suffix.
    let g = aiger::parse(b"aag 1 1 0 1 0 0 0\n2\n3\n").expect("valid");
    assert_eq!(
        g.to_bytes(Format::Ascii).expect("writable"),
        b"aag 1 1 0 1 0\n2\n3\n"
    );
}

/// A malformed input, the expected position and a test of the expected error kind.
type Case<I> = (I, Pos, fn(&ErrorKind) -> bool);

fn parse_err(data: &[u8]) -> (Pos, ErrorKind) {
    match aiger::parse(data) {
        Err(AigerError::Parse { pos, kind }) => (pos, kind),
        other => panic!(
            "{:?}: expected a parse error, got {other:?}",
            String::from_utf8_lossy(data)
        ),
    }
}

#[test]
fn malformed_ascii_files() {
    use ErrorKind::*;
    let l = Pos::Line;
    let cases: Vec<Case<&str>> = vec![
        ("", l(1), |k| matches!(k, Truncated(_))),
        ("aag 3 2 0 1 1\n2\n", l(3), |k| matches!(k, Truncated(_))),
        ("aag 3 2 0 1 1\n2\n4\n6", l(4), |k| {
            matches!(k, Truncated(_))
        }),
        ("aag 1 1 0 0\n", l(1), |k| matches!(k, BadHeader(_))),
        ("aag 1  1 0 0 0\n", l(1), |k| matches!(k, BadHeader(_))),
        ("agg 1 1 0 0 0\n", l(1), |k| matches!(k, BadHeader(_))),
        ("aag 1 1 0 0 0 0 0 0 0 0\n", l(1), |k| {
            matches!(k, BadHeader(_))
        }),
        ("aag 1 1 0 0 0 \n", l(1), |k| matches!(k, BadHeader(_))),
        ("aag 99999999999 1 0 0 0\n2\n", l(1), |k| {
            matches!(k, BadHeader(_))
        }),
        ("aag 1 1 0 0 1\n2\n2 2 2\n", l(1), |k| {
            matches!(k, MaxVarTooSmall { m: 1, sum: 2 })
        }),
        ("aag 2000000000 1 0 0 0\n2\n", l(1), |k| {
            matches!(k, MaxVarTooLarge { .. })
        }),
        ("aag 3 1 0 1 1\n2\n6\n6 2 4\n", l(4), |k| {
            matches!(k, Undefined(4))
        }),
        ("aag 3 1 0 1 0\n2\n6\n", l(3), |k| matches!(k, Undefined(6))),
        ("aag 2 0 1 0 0\n2 4\n", l(2), |k| matches!(k, Undefined(4))),
        ("aag 3 1 0 1 2\n2\n4\n4 6 2\n6 4 2\n", l(5), |k| {
            matches!(k, Cyclic(_))
        }),
        ("aag 1 0 0 0 1\n2 3 2\n", l(2), |k| matches!(k, Cyclic(2))),
        ("aag 2 2 0 0 0\n2\n2\n", l(3), |k| matches!(k, Duplicate(1))),
        ("aag 2 1 0 0 1\n2\n2 0 1\n", l(3), |k| {
            matches!(k, Duplicate(1))
        }),
        ("aag 1 1 0 1 0\n2\n4\n", l(3), |k| {
            matches!(k, OutOfRange { lit: 4, max: 3 })
        }),
        ("aag 1 1 0 0 0\n4\n", l(2), |k| {
            matches!(k, OutOfRange { lit: 4, max: 3 })
        }),
        ("aag 1 1 0 0 0\n3\n", l(2), |k| matches!(k, NotAVariable(3))),
        ("aag 1 1 0 0 0\n0\n", l(2), |k| matches!(k, NotAVariable(0))),
        ("aag 1 1 0 1 0\n2\n99999999999\n", l(3), |k| {
            matches!(k, OutOfRange { .. })
        }),
        ("aag 1 1 0 0 0\n2 x\n", l(2), |k| {
            matches!(k, Garbage { .. })
        }),
        ("aag 1 1 0 0 0\n2\nzzz\n", l(3), |k| {
            matches!(k, Garbage { .. })
        }),
        ("aag 1 1 0 0 0\n-2\n", l(2), |k| matches!(k, Garbage { .. })),
        ("aag 1 0 1 0 0\n2 3 0 1\n", l(2), |k| {
            matches!(k, Garbage { .. })
        }),
        ("aag 2 0 1 0 0\n2 3 4\n", l(2), |k| {
            matches!(k, BadReset { lit: 2, reset: 4 })
        }),
        ("aag 1 1 0 0 0\n2\ni1 x\n", l(3), |k| {
            matches!(k, BadSymbol(_))
        }),
        ("aag 1 1 0 0 0\n2\ni0 x\ni0 y\n", l(4), |k| {
            matches!(k, BadSymbol(_))
        }),
        ("aag 1 1 0 0 0\n2\ni0\n", l(3), |k| {
            matches!(k, Garbage { .. })
        }),
        ("aag 1 1 0 0 0 0 0 1\n2\n3\n", l(4), |k| {
            matches!(k, Truncated(_))
        }),
        ("aag 1 1 0 0 0 0 0 1\n2\n1\n5\n", l(4), |k| {
            matches!(k, OutOfRange { lit: 5, .. })
        }),
    ];
    for (text, pos, kind) in cases {
        let (p, k) = parse_err(text.as_bytes());
        assert_eq!(p, pos, "{text:?}: {k}");
        assert!(kind(&k), "{text:?}: unexpected error {k}");
        // Errors print as one line with the position.
        let msg = AigerError::Parse { pos: p, kind: k }.to_string();
        assert!(!msg.contains('\n') && msg.starts_with("line "), "{msg}");
    }
}

#[test]
fn malformed_binary_files() {
    use ErrorKind::*;
    let b = Pos::Byte;
    let mk = |head: &str, tail: &[u8]| [head.as_bytes(), tail].concat();
    let cases: Vec<Case<Vec<u8>>> = vec![
        (mk("aig 3 2 0 1 1\n6\n", &[0x82]), b(17), |k| {
            matches!(k, EofInVarint)
        }),
        (mk("aig 3 2 0 1 1\n6\n", &[0x02]), b(17), |k| {
            matches!(k, Truncated(_))
        }),
        (mk("aig 3 2 0 1 1\n6\n", &[]), b(16), |k| {
            matches!(k, Truncated(_))
        }),
        (mk("aig 3 2 0 1 1\n", &[]), b(14), |k| {
            matches!(k, Truncated(_))
        }),
        (mk("aig 5 2 0 1 1\n6\n", &[2, 2]), b(0), |k| {
            matches!(k, BinaryMaxVar { m: 5, sum: 3 })
        }),
        (mk("aig 3 2 0 1 1\n6\n", &[0, 2]), b(16), |k| {
            matches!(k, BadDelta { lhs: 6, .. })
        }),
        (mk("aig 3 2 0 1 1\n6\n", &[7, 0]), b(16), |k| {
            matches!(k, BadDelta { lhs: 6, .. })
        }),
        (mk("aig 3 2 0 1 1\n6\n", &[2, 5]), b(16), |k| {
            matches!(k, BadDelta { lhs: 6, .. })
        }),
        (
            mk("aig 3 2 0 1 1\n6\n", &[0xff, 0xff, 0xff, 0xff, 0x7f, 0]),
            b(21),
            |k| matches!(k, VarintOverflow),
        ),
        (
            mk("aig 3 2 0 1 1\n6\n", &[0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
            b(21),
            |k| matches!(k, VarintOverflow),
        ),
        (mk("aig 3 2 0 1 1\n8\n", &[2, 1]), b(14), |k| {
            matches!(k, OutOfRange { lit: 8, max: 7 })
        }),
        (mk("aig 1 0 1 0 0\n2 0 1\n", &[]), b(17), |k| {
            matches!(k, Garbage { .. })
        }),
        (mk("aig 1 0 1 0 0\n3 5\n", &[]), b(14), |k| {
            matches!(k, BadReset { lit: 2, reset: 5 })
        }),
        (mk("aig 3 2 0 1 1\n6\n", &[2, 1, b'x']), b(18), |k| {
            matches!(k, Garbage { .. })
        }),
        (
            mk("aig 3 2 0 1 1\n6\n", &[2, 1, b'o', b'1', b' ', b'n', b'\n']),
            b(18),
            |k| matches!(k, BadSymbol(_)),
        ),
        (mk("aig 4294967295 4294967295 0 0 0\n", &[]), b(0), |k| {
            matches!(k, MaxVarTooLarge { .. })
        }),
        (mk("aig 1 1 0 0 0 0 0 0 0 0\n", &[]), b(21), |k| {
            matches!(k, BadHeader(_))
        }),
    ];
    for (data, pos, kind) in cases {
        let (p, k) = parse_err(&data);
        assert_eq!(p, pos, "{:?}: {k}", String::from_utf8_lossy(&data));
        assert!(
            kind(&k),
            "{:?}: unexpected error {k}",
            String::from_utf8_lossy(&data)
        );
        let msg = AigerError::Parse { pos: p, kind: k }.to_string();
        assert!(!msg.contains('\n') && msg.starts_with("byte "), "{msg}");
    }
    // The valid version of the file above.
    let ok = aiger::parse(&mk("aig 3 2 0 1 1\n6\n", &[2, 1])).expect("valid");
    assert_eq!(
        ok.ands[0],
        bitmc::aig::aiger::AndGate {
            lhs: 6,
            rhs0: 4,
            rhs1: 3
        }
    );
}

#[test]
fn invalid_files_in_memory_are_refused() {
    let mut f = aiger::parse(b"aag 3 2 0 1 1\n2\n4\n6\n6 2 4\n").expect("valid");
    f.ands[0].rhs1 = 6;
    assert!(matches!(
        f.to_bytes(Format::Ascii),
        Err(AigerError::Invalid {
            kind: ErrorKind::Cyclic(6),
            ..
        })
    ));
    assert!(matches!(
        f.to_aig(&mut Aig::new()),
        Err(AigerError::Invalid { .. })
    ));
    f.ands[0].rhs1 = 4;
    f.symbols.push(bitmc::aig::aiger::Symbol {
        kind: bitmc::aig::aiger::SymbolKind::Input,
        index: 0,
        name: "a\nb".into(),
    });
    assert!(matches!(
        f.to_bytes(Format::Binary),
        Err(AigerError::Invalid { .. })
    ));
    assert!(matches!(
        aiger::read_path(Path::new("/nonexistent/x.aag")),
        Err(AigerError::Io(_))
    ));
}
