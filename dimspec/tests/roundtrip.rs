//! Property tests: random problems survive write → parse, in the written subset and in random
//! liberal spellings (shuffled and repeated sections, `t` with `n`, comments between tokens).

mod common;

use dimspec::{parse, to_bytes, Cnf, Problem, Section, MAX_VARS};
use proptest::prelude::*;

fn literal(max: u32) -> BoxedStrategy<i32> {
    (1..=max as i32, any::<bool>())
        .prop_map(|(v, neg)| if neg { -v } else { v })
        .boxed()
}

fn cnf(max: u32) -> BoxedStrategy<Cnf> {
    let clause = if max == 0 {
        Just(Vec::new()).boxed()
    } else {
        prop::collection::vec(literal(max), 0..5).boxed()
    };
    prop::collection::vec(clause, 0..6)
        .prop_map(|clauses| clauses.into_iter().collect())
        .boxed()
}

fn problem() -> impl Strategy<Value = Problem> {
    let n = prop_oneof![
        4 => 0u32..6,
        1 => 1000u32..100_000,
        1 => (MAX_VARS - 2)..=MAX_VARS,
    ];
    n.prop_flat_map(|n| {
        let comments = prop::collection::vec("[^\r\n]{0,12}", 0..3);
        let max = |s: Section| s.max_var(n) as u32;
        (
            comments,
            cnf(max(Section::Init)),
            cnf(max(Section::Universal)),
            cnf(max(Section::Goal)),
            cnf(max(Section::Trans)),
        )
            .prop_map(move |(comments, init, universal, goal, trans)| Problem {
                num_vars: n,
                comments,
                init,
                universal,
                goal,
                trans,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn written_subset_round_trips(p in problem()) {
        let bytes = to_bytes(&p).unwrap();
        prop_assert_eq!(parse(&bytes).unwrap(), p);
    }

    #[test]
    fn liberal_spellings_parse_to_the_same_problem(p in problem(), seed in any::<u64>()) {
        let bytes = common::write_liberal(&p, &mut common::Rng::new(seed));
        let parsed = parse(&bytes);
        prop_assert!(parsed.is_ok(), "{}\n{}", parsed.unwrap_err(), String::from_utf8_lossy(&bytes));
        prop_assert_eq!(parsed.unwrap(), p);
    }

    #[test]
    fn every_prefix_and_single_byte_change_is_handled(p in problem(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        // No panic; and whatever parses must survive a round trip through the writer.
        let bytes = to_bytes(&p).unwrap();
        let at = cut.index(bytes.len());
        let mut changed = bytes.clone();
        changed[at] = byte;
        for input in [&bytes[..at], &changed[..]] {
            match parse(input) {
                Ok(q) => prop_assert_eq!(parse(&to_bytes(&q).unwrap()).unwrap(), q),
                Err(e) => prop_assert!(!e.to_string().contains('\n')),
            }
        }
    }
}

#[test]
fn liberal_writer_from_the_shared_generator() {
    let mut rng = common::Rng::new(7);
    for _ in 0..2000 {
        let p = common::random_problem(&mut rng);
        let bytes = common::write_liberal(&p, &mut rng);
        match parse(&bytes) {
            Ok(q) => assert_eq!(q, p),
            Err(e) => panic!("{e}\n{}", String::from_utf8_lossy(&bytes)),
        }
    }
}
