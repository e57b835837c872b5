//! A compact clause set: all literals in one flat `Vec<i32>` plus the end offset of each clause.
//!
//! Clauses are read back as `&[i32]` slices (no terminating `0` is stored). Literals are DIMACS
//! literals (`v` or `-v` for a variable `v ≥ 1`); the type itself does not check them, because
//! their valid range depends on the section they belong to. [`crate::Problem::validate`] and the
//! writer do.

use std::fmt;

/// A CNF formula stored as one flat literal array and clause end offsets.
///
/// Two `Cnf`s are equal when they contain the same clauses in the same order.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Cnf {
    lits: Vec<i32>,
    ends: Vec<usize>,
}

impl Cnf {
    /// An empty CNF (no clauses: the constant true).
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty CNF with room for `clauses` clauses holding `literals` literals in total.
    pub fn with_capacity(clauses: usize, literals: usize) -> Self {
        Cnf {
            lits: Vec::with_capacity(literals),
            ends: Vec::with_capacity(clauses),
        }
    }

    /// Appends the clause `clause` (without terminating `0`).
    pub fn push_clause(&mut self, clause: &[i32]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len());
    }

    /// Appends one clause whose literals come from an iterator.
    pub fn push_clause_iter<I: IntoIterator<Item = i32>>(&mut self, clause: I) {
        self.lits.extend(clause);
        self.ends.push(self.lits.len());
    }

    /// Appends all clauses of `other`.
    pub fn append(&mut self, other: &Cnf) {
        let base = self.lits.len();
        self.lits.extend_from_slice(&other.lits);
        self.ends.extend(other.ends.iter().map(|&e| e + base));
    }

    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there is no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Total number of literals over all clauses.
    pub fn num_literals(&self) -> usize {
        self.lits.len()
    }

    /// All literals of all clauses, concatenated.
    pub fn literals(&self) -> &[i32] {
        &self.lits
    }

    /// The clause with index `i`, or `None` when `i >= self.len()`.
    pub fn clause(&self, i: usize) -> Option<&[i32]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.lits[start..end])
    }

    /// Iterates over the clauses in order.
    pub fn iter(&self) -> Clauses<'_> {
        Clauses {
            lits: &self.lits,
            ends: self.ends.iter(),
            start: 0,
        }
    }

    /// The largest variable index used (0 for a CNF without literals).
    pub fn max_var(&self) -> u32 {
        self.lits
            .iter()
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0)
    }

    /// Removes all clauses, keeping the allocation.
    pub fn clear(&mut self) {
        self.lits.clear();
        self.ends.clear();
    }

    /// Parser hook: appends one literal to the clause under construction.
    #[inline]
    pub(crate) fn push_literal(&mut self, lit: i32) {
        self.lits.push(lit);
    }

    /// Parser hook: closes the clause under construction (possibly empty).
    #[inline]
    pub(crate) fn end_clause(&mut self) {
        self.ends.push(self.lits.len());
    }

    /// Parser hook: literals pushed since the last closed clause.
    pub(crate) fn open_literals(&self) -> usize {
        self.lits.len() - self.ends.last().copied().unwrap_or(0)
    }
}

impl fmt::Debug for Cnf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Cnf {
    type Item = &'a [i32];
    type IntoIter = Clauses<'a>;
    fn into_iter(self) -> Clauses<'a> {
        self.iter()
    }
}

impl<C: AsRef<[i32]>> FromIterator<C> for Cnf {
    fn from_iter<T: IntoIterator<Item = C>>(iter: T) -> Self {
        let mut cnf = Cnf::new();
        cnf.extend(iter);
        cnf
    }
}

impl<C: AsRef<[i32]>> Extend<C> for Cnf {
    fn extend<T: IntoIterator<Item = C>>(&mut self, iter: T) {
        for clause in iter {
            self.push_clause(clause.as_ref());
        }
    }
}

/// Iterator over the clauses of a [`Cnf`], each as a literal slice.
#[derive(Clone, Debug)]
pub struct Clauses<'a> {
    lits: &'a [i32],
    ends: std::slice::Iter<'a, usize>,
    start: usize,
}

impl<'a> Iterator for Clauses<'a> {
    type Item = &'a [i32];

    #[inline]
    fn next(&mut self) -> Option<&'a [i32]> {
        let end = *self.ends.next()?;
        let clause = &self.lits[self.start..end];
        self.start = end;
        Some(clause)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for Clauses<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_iterate_and_index() {
        let mut cnf = Cnf::new();
        cnf.push_clause(&[1, -2]);
        cnf.push_clause(&[]);
        cnf.push_clause_iter([3, 4, -5]);
        let clauses: Vec<&[i32]> = cnf.iter().collect();
        assert_eq!(clauses, vec![&[1, -2][..], &[][..], &[3, 4, -5][..]]);
        assert_eq!(cnf.len(), 3);
        assert_eq!(cnf.num_literals(), 5);
        assert_eq!(cnf.clause(1), Some(&[][..]));
        assert_eq!(cnf.clause(2), Some(&[3, 4, -5][..]));
        assert_eq!(cnf.clause(3), None);
        assert_eq!(cnf.max_var(), 5);
        assert_eq!(format!("{cnf:?}"), "[[1, -2], [], [3, 4, -5]]");
    }

    #[test]
    fn append_and_collect() {
        let a: Cnf = [vec![1], vec![-1, 2]].into_iter().collect();
        let mut b: Cnf = [[3, 4]].into_iter().collect();
        b.append(&a);
        let expected: Cnf = [&[3, 4][..], &[1], &[-1, 2]].into_iter().collect();
        assert_eq!(b, expected);
        assert_eq!(b.iter().len(), 3);
        b.clear();
        assert!(b.is_empty());
        assert_eq!(b.max_var(), 0);
    }
}
