//! Cubes as sorted sets of literals: PDR's cubes of bit literals and IC3CFA's cubes of word-level
//! atoms are both sorted vectors without repetitions.

/// Whether every element of `a` is in `b` (both sorted).
pub fn is_subset<T: Ord>(a: &[T], b: &[T]) -> bool {
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}

/// The union of two sorted sets, sorted.
pub fn union<T: Ord + Copy>(a: &[T], b: &[T]) -> Vec<T> {
    let mut u: Vec<T> = a.iter().chain(b).copied().collect();
    u.sort();
    u.dedup();
    u
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_and_unions_of_sorted_sets() {
        assert!(is_subset::<u32>(&[], &[1, 2]));
        assert!(is_subset(&[1, 3], &[1, 2, 3]));
        assert!(!is_subset(&[1, 4], &[1, 2, 3]));
        assert!(!is_subset(&[0], &[1]));
        assert!(!is_subset(&[2, 2], &[2]));
        assert_eq!(union(&[1, 3], &[2, 3]), vec![1, 2, 3]);
    }
}
