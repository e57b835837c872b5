//! Reader and writer for DimSpec, the DIMACS-like format for symbolic transition systems used by
//! IncPlan, MinireachIC3 and LLUMC.
//!
//! A [`Problem`] has `n` state variables and four clause sets: `init` (I), `universal` (U) and
//! `goal` (G) over variables `1..=n`, and `trans` (T) over `1..=2n`, where `n + k` is the
//! next-state copy of variable `k`. The question is whether a goal state is reachable from an
//! initial state; every state satisfies U. The comment lines before the first header are kept in
//! [`Problem::comments`] (bitmc stores its variable map there).
//!
//! # Accepted syntax ([`parse`], [`read_file`])
//!
//! Liberal in form:
//! - sections start with a header `<s> cnf <vars> <clauses>` with `<s>` one of `i`, `u`, `g`, `t`;
//!   the header's four tokens are separated by blanks (spaces, tabs) and stand on one line;
//! - sections may come in any order; a missing section is empty; a repeated section appends its
//!   clauses to the earlier ones;
//! - the `t` header may declare `2n` or `n` variables. If `t` is the first header and its width
//!   `w` is even, `n` is `w / 2` unless a later `i`/`u`/`g` header declares `w`; an odd width can
//!   only be `n`;
//! - a clause is a sequence of literals closed by `0`; any whitespace (spaces, tabs, line breaks,
//!   `\r`, form feeds) separates tokens, and clauses may span lines or share them (also with the
//!   header line);
//! - a comment starts with `c` wherever a token may start (also after a clause's `0` on the same
//!   line, or between literals) and runs to the end of the line. Comments before the first header
//!   are returned as [`Problem::comments`]: the text after the `c`, less one following space and
//!   any trailing `\r`; invalid UTF-8 is replaced by U+FFFD. Later comments are dropped.
//!
//! Strict in content; each of these is a [`ParseError`] with line, column and [`Reason`]:
//! literals out of range (`i`, `u`, `g`: `1..=n`; `t`: `1..=2n`); a clause count different from
//! the header's; a clause not closed by `0` before the next header or the end; `p cnf` headers;
//! clauses before the first header; headers whose variable counts contradict each other; a `t`
//! header of odd width other than `n`; numbers not followed by whitespace, stray characters and
//! binary data; `-0`; numbers that overflow (literals beyond `i32`, `2n` beyond `i32::MAX`, clause
//! counts beyond `u64`).
//!
//! An empty or comment-only input is an error ([`Reason::NoSection`]). MinireachIC3 reads it as
//! `n = 0` with a reachable goal, IncPlan rejects it; an empty file is far more often a truncated
//! or failed dump than an intended trivial problem, so this reader says so instead of guessing.
//! A problem with `n = 0` can still be written explicitly, e.g. `i cnf 0 0`.
//!
//! # Written subset ([`write()`])
//!
//! Exactly what both IncPlan and MinireachIC3 read: the comments first (`c <text>` lines), then the
//! sections `i, u, g, t` in this order, each exactly once, with headers `i cnf n m`, `u cnf n m`,
//! `g cnf n m` and `t cnf 2n m`, exact clause counts, one clause per line, each closed by `0`.
//! The writer first checks the problem ([`Problem::validate`]) and refuses out-of-range literals.
//!
//! # Example
//!
//! ```
//! use dimspec::{parse, to_bytes, Section};
//!
//! // One bit that flips on every step; liberal input: `t` first, declared with n, no `u`.
//! let p = parse(b"c flip\nt cnf 1 2\n1 2 0 -1 -2 0\ni cnf 1 1\n-1 0\ng cnf 1 1\n1 0\n")?;
//! assert_eq!(p.num_vars, 1);
//! assert_eq!(p.section(Section::Trans).iter().collect::<Vec<_>>(), [&[1, 2][..], &[-1, -2]]);
//! let written = "c flip\ni cnf 1 1\n-1 0\nu cnf 1 0\ng cnf 1 1\n1 0\nt cnf 2 2\n1 2 0\n-1 -2 0\n";
//! assert_eq!(to_bytes(&p)?, written.as_bytes());
//!
//! let e = parse(b"i cnf 1 1\n2 0\n").unwrap_err();
//! assert_eq!(e.to_string(), "2:1: literal 2 out of range: `i` allows variables 1..=1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cnf;
mod error;
mod parse;
mod read;
mod write;

pub use cnf::{Clauses, Cnf};
pub use error::{Error, HeaderPart, ParseError, Reason, Terminator, WriteError};
pub use parse::parse;
pub use read::read_file;
pub use write::{to_bytes, write};

use std::fmt;

/// One of the four clause sets of a DimSpec problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// `i`: initial states.
    Init,
    /// `u`: the universal constraint, holding in every state.
    Universal,
    /// `g`: goal states.
    Goal,
    /// `t`: the transition relation over current (`1..=n`) and next (`n+1..=2n`) variables.
    Trans,
}

impl Section {
    /// The sections in the written order `i, u, g, t`.
    pub const ALL: [Section; 4] = [
        Section::Init,
        Section::Universal,
        Section::Goal,
        Section::Trans,
    ];

    /// The header letter.
    pub fn letter(self) -> char {
        match self {
            Section::Init => 'i',
            Section::Universal => 'u',
            Section::Goal => 'g',
            Section::Trans => 't',
        }
    }

    /// The section of a header letter.
    pub fn from_letter(c: u8) -> Option<Section> {
        match c {
            b'i' => Some(Section::Init),
            b'u' => Some(Section::Universal),
            b'g' => Some(Section::Goal),
            b't' => Some(Section::Trans),
            _ => None,
        }
    }

    /// The largest variable allowed in this section for `n` state variables (`n`, or `2n` for `t`).
    pub fn max_var(self, n: u32) -> u64 {
        match self {
            Section::Trans => 2 * u64::from(n),
            _ => u64::from(n),
        }
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The largest `n` whose next-state copies `n+1..=2n` still fit in an `i32` literal.
pub const MAX_VARS: u32 = (i32::MAX / 2) as u32;

/// A DimSpec problem: `n` state variables, four CNFs and the leading comment lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// The number of state variables `n`.
    pub num_vars: u32,
    /// The comment lines before the first header, without the leading `c ` (see the crate doc).
    pub comments: Vec<String>,
    /// I: initial states, over `1..=n`.
    pub init: Cnf,
    /// U: constraint on every state, over `1..=n`.
    pub universal: Cnf,
    /// G: goal states, over `1..=n`.
    pub goal: Cnf,
    /// T: transitions, over `1..=2n` (`n + k` is the next-state copy of `k`).
    pub trans: Cnf,
}

impl Problem {
    /// An empty problem with `num_vars` state variables (every clause set empty).
    pub fn new(num_vars: u32) -> Self {
        Problem {
            num_vars,
            ..Problem::default()
        }
    }

    /// The clause set of `section`.
    pub fn section(&self, section: Section) -> &Cnf {
        match section {
            Section::Init => &self.init,
            Section::Universal => &self.universal,
            Section::Goal => &self.goal,
            Section::Trans => &self.trans,
        }
    }

    /// The clause set of `section`, mutably.
    pub fn section_mut(&mut self, section: Section) -> &mut Cnf {
        match section {
            Section::Init => &mut self.init,
            Section::Universal => &mut self.universal,
            Section::Goal => &mut self.goal,
            Section::Trans => &mut self.trans,
        }
    }

    /// Checks what the writer needs: `n <= MAX_VARS`, every literal non-zero and within its
    /// section's range, no comment with a line feed or a trailing carriage return.
    pub fn validate(&self) -> Result<(), WriteError> {
        if self.num_vars > MAX_VARS {
            return Err(WriteError::TooManyVariables(self.num_vars));
        }
        let bad_comment = |c: &String| c.contains('\n') || c.ends_with('\r');
        if let Some(i) = self.comments.iter().position(bad_comment) {
            return Err(WriteError::InvalidComment(i));
        }
        for section in Section::ALL {
            let max = section.max_var(self.num_vars);
            let cnf = self.section(section);
            let bad = |&l: &i32| l == 0 || u64::from(l.unsigned_abs()) > max;
            if cnf.literals().iter().any(bad) {
                // Slow path: locate the clause for the message.
                for (clause, lits) in cnf.iter().enumerate() {
                    if let Some(&lit) = lits.iter().find(|l| bad(l)) {
                        return Err(WriteError::LiteralOutOfRange {
                            section,
                            clause,
                            lit,
                            max: max as u32,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}
