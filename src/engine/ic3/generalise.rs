//! The control flow of generalisation, with the engine's relative-induction query as a closure:
//! literal dropping (MIC) and Bradley and Manna's binary search (`genBinary`, "Checking Safety
//! by Inductive Generalization of Counterexamples to Induction", as cleaned in the IC3CFA
//! thesis "Improving the IC3CFA generalisation").

use super::cube::union;

/// Literal dropping: for each literal of `order` still in `cube` (sorted), `attempt` is asked
/// for `cube` without it and answers a sorted sub-cube of that candidate that still holds, or
/// `None`; a success replaces `cube`. Stops once `cube` has `floor` literals or fewer, or after
/// `patience` failures in a row (0: never).
pub fn drop_literals<L: Ord + Copy, E>(
    mut cube: Vec<L>,
    order: &[L],
    floor: usize,
    patience: usize,
    mut attempt: impl FnMut(Vec<L>) -> Result<Option<Vec<L>>, E>,
) -> Result<Vec<L>, E> {
    let mut failed = 0;
    for l in order {
        if cube.len() <= floor {
            break;
        }
        let Ok(pos) = cube.binary_search(l) else {
            continue;
        };
        let mut candidate = cube.clone();
        candidate.remove(pos);
        match attempt(candidate)? {
            Some(r) => {
                debug_assert!(super::cube::is_subset(&r, &cube));
                cube = r;
                failed = 0;
            }
            None => {
                failed += 1;
                if patience > 0 && failed >= patience {
                    break;
                }
            }
        }
    }
    Ok(cube)
}

/// `genBinary`: a subset `r` of the sorted cube `c` such that `holds(support ∪ r)` and no
/// literal of `r` can be dropped, given that `holds(support ∪ c)`.
pub fn binary<L: Ord + Copy, E>(
    c: Vec<L>,
    support: &[L],
    holds: &mut impl FnMut(&[L]) -> Result<bool, E>,
) -> Result<Vec<L>, E> {
    if c.len() <= 1 {
        return Ok(if c.is_empty() || holds(support)? {
            Vec::new()
        } else {
            c
        });
    }
    let (l, r) = c.split_at(c.len() / 2);
    let (l, r) = (l.to_vec(), r.to_vec());
    if holds(&union(support, &l))? {
        return binary(l, support, holds);
    }
    if holds(&union(support, &r))? {
        return binary(r, support, holds);
    }
    let l2 = binary(l, &union(support, &r), holds)?;
    let r2 = binary(r, &union(support, &l2), holds)?;
    Ok(union(&l2, &r2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ic3::cube::is_subset;
    use proptest::prelude::*;

    /// A monotone "holds": a cube holds when it contains one of the `needed` sets.
    fn holds_for(needed: &[Vec<u8>], c: &[u8]) -> bool {
        needed.iter().any(|n| is_subset(n, c))
    }

    fn sets() -> impl Strategy<Value = Vec<Vec<u8>>> {
        let set =
            proptest::collection::btree_set(0u8..8, 0..4).prop_map(|s| s.into_iter().collect());
        proptest::collection::vec(set, 1..4)
    }

    proptest! {
        /// Both searches return a sub-cube that holds and from which no literal can be dropped.
        #[test]
        fn results_hold_and_are_minimal(needed in sets()) {
            let full: Vec<u8> = (0..8).collect();
            let minimal = |r: &[u8]| {
                holds_for(&needed, r)
                    && r.iter().all(|x| {
                        let s: Vec<u8> = r.iter().copied().filter(|y| y != x).collect();
                        !holds_for(&needed, &s)
                    })
            };
            let r = binary::<u8, ()>(full.clone(), &[], &mut |c| Ok(holds_for(&needed, c))).unwrap();
            prop_assert!(minimal(&r), "binary {:?}", r);
            let r = drop_literals::<u8, ()>(full.clone(), &full, 0, 0, |c| {
                Ok(holds_for(&needed, &c).then_some(c))
            })
            .unwrap();
            prop_assert!(minimal(&r), "drop {:?}", r);
        }
    }

    #[test]
    fn dropping_stops_at_the_floor_and_after_patience() {
        let all = |c: Vec<u8>| Ok::<_, ()>(Some(c));
        assert_eq!(
            drop_literals(vec![1, 2, 3], &[1, 2, 3], 1, 0, all).unwrap(),
            vec![3]
        );
        let mut asked = 0;
        let none = |_: Vec<u8>| {
            asked += 1;
            Ok::<_, ()>(None)
        };
        assert_eq!(
            drop_literals(vec![1, 2, 3], &[3, 2, 1], 0, 2, none).unwrap(),
            vec![1, 2, 3]
        );
        assert_eq!(asked, 2);
    }
}
