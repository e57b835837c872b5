//! Error types: [`ParseError`] (line, column, [`Reason`]) for malformed input, [`Error`] which adds
//! the file path for [`crate::read_file`], and [`WriteError`] for problems the writer refuses.
//!
//! Every `Display` is one line. Lines and columns are 1-based; columns count bytes.

use crate::Section;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why a DimSpec input was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Reason {
    /// The input has no section header: it is empty or holds only whitespace and comments.
    #[error("no DimSpec section: the input is empty or holds only comments")]
    NoSection,
    /// A byte that cannot start or continue a token here (garbage, binary data).
    #[error("unexpected {}", DescribeByte(*.0))]
    UnexpectedByte(u8),
    /// A `-` that is not followed by a digit.
    #[error("`-` must be followed by a variable number")]
    LoneMinus,
    /// `-0`, which is neither a literal nor a clause terminator.
    #[error("`-0` is not a literal (a clause ends with `0`)")]
    NegativeZero,
    /// A number that does not fit: literals must fit in 32 bits, clause counts in 64 bits.
    #[error("integer overflow: number too large")]
    IntegerOverflow,
    /// A DIMACS `p cnf` header.
    #[error(
        "`p cnf` header: DimSpec sections start with `i`, `u`, `g` or `t cnf <vars> <clauses>`"
    )]
    DimacsHeader,
    /// A section header that does not read `<s> cnf <vars> <clauses>` on one line.
    #[error("malformed `{section}` header: expected {expected}")]
    MalformedHeader {
        /// The section whose header is malformed.
        section: Section,
        /// What was expected at the error position.
        expected: HeaderPart,
    },
    /// A header declares more variables than literals can address (`2n` must fit in `i32`).
    #[error("`{section}` header declares {declared} variables, more than supported")]
    TooManyVariables {
        /// The section of the header.
        section: Section,
        /// The declared number of variables.
        declared: u64,
    },
    /// A header whose variable count contradicts an earlier header.
    #[error(
        "`{section}` header declares {declared} variables, but the header on line {line} requires {}",
        Allowed(allowed)
    )]
    InconsistentVariables {
        /// The section of the contradicting header.
        section: Section,
        /// The variable count it declares.
        declared: u32,
        /// The counts that would have been consistent, ascending.
        allowed: Vec<u32>,
        /// The line of the earlier header that fixed them.
        line: usize,
    },
    /// A `t` header of odd width that is not `n` (an odd width can never be `2n`).
    #[error("`t` header width {width} is odd, so it must equal n = {n} (fixed on line {line})")]
    OddTransitionWidth {
        /// The width declared by the `t` header.
        width: u32,
        /// The number of state variables.
        n: u32,
        /// The line of the header that fixed `n`.
        line: usize,
    },
    /// A clause (a literal) before the first section header.
    #[error("clause before the first section header")]
    ClauseBeforeHeader,
    /// A literal whose variable is outside the section's range.
    #[error("literal {lit} out of range: `{section}` allows variables 1..={max}")]
    LiteralOutOfRange {
        /// The literal.
        lit: i32,
        /// Its section.
        section: Section,
        /// The largest variable the section allows (`n`, or `2n` in `t`).
        max: u32,
    },
    /// The number of clauses in a section differs from its header.
    #[error("`{section}` header promises {promised} clauses but the section has {found}")]
    ClauseCount {
        /// The section.
        section: Section,
        /// The count in the header.
        promised: u64,
        /// The number of clauses read until the next header or the end of input.
        found: u64,
    },
    /// A clause is still open at a header or at the end of input.
    #[error("clause starting on line {start_line} is not terminated by `0` before {at}")]
    UnterminatedClause {
        /// The line where the open clause starts.
        start_line: usize,
        /// What was found instead of the terminator.
        at: Terminator,
    },
}

/// The part of a section header that was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderPart {
    /// The word `cnf` after the section letter.
    Cnf,
    /// The number of variables.
    VarCount,
    /// The number of clauses.
    ClauseCount,
}

impl fmt::Display for HeaderPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HeaderPart::Cnf => "`cnf` after the section letter",
            HeaderPart::VarCount => "the number of variables on the header line",
            HeaderPart::ClauseCount => "the number of clauses on the header line",
        })
    }
}

/// What ended an unterminated clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminator {
    /// The end of the input.
    EndOfInput,
    /// The header of a section.
    Header(Section),
}

impl fmt::Display for Terminator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Terminator::EndOfInput => f.write_str("the end of the input"),
            Terminator::Header(s) => write!(f, "the `{s}` header"),
        }
    }
}

struct DescribeByte(u8);

impl fmt::Display for DescribeByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b.is_ascii_graphic() {
            write!(f, "character `{}`", b as char)
        } else {
            write!(f, "byte 0x{b:02x}")
        }
    }
}

/// Formats `[a]`, `[a, b]`, `[a, b, c]` as `a`, `a or b`, `a, b or c`.
struct Allowed<'a>(&'a [u32]);

impl fmt::Display for Allowed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        for (i, v) in self.0.iter().enumerate() {
            match i {
                0 => {}
                _ if i + 1 == n => f.write_str(" or ")?,
                _ => f.write_str(", ")?,
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

/// A malformed DimSpec input: where (1-based line and byte column) and why.
///
/// Displays as `LINE:COL: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {reason}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in bytes.
    pub column: usize,
    /// What is wrong.
    pub reason: Reason,
}

impl ParseError {
    /// The error at byte `offset` of `input`.
    pub(crate) fn at(input: &[u8], offset: usize, reason: Reason) -> Self {
        let (line, column) = line_col(input, offset);
        ParseError {
            line,
            column,
            reason,
        }
    }
}

/// 1-based line and byte column of byte `offset` in `input` (computed only on errors).
pub(crate) fn line_col(input: &[u8], offset: usize) -> (usize, usize) {
    let before = &input[..offset.min(input.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - line_start + 1)
}

/// An error of [`crate::read_file`]: the file could not be read, or its contents are malformed.
///
/// Displays as `PATH:LINE:COL: reason` or `PATH: io error`. The message already contains the
/// cause, so no `source()` chain is reported (it would print the reason twice).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Opening or reading the file failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: io::Error,
    },
    /// The contents are not valid DimSpec.
    #[error("{}:{error}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why.
        error: ParseError,
    },
}

impl Error {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Error::Io { path, .. } | Error::Parse { path, .. } => path,
        }
    }

    /// The parse error, if the file was read but is malformed.
    pub fn parse_error(&self) -> Option<&ParseError> {
        match self {
            Error::Parse { error, .. } => Some(error),
            Error::Io { .. } => None,
        }
    }
}

/// Why a [`crate::Problem`] cannot be written (or fails [`crate::Problem::validate`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The output failed.
    #[error("write failed: {0}")]
    Io(#[from] io::Error),
    /// A literal is 0 or its variable is outside the section's range.
    #[error("clause {clause} of `{section}` has literal {lit}, outside ±1..={max}")]
    LiteralOutOfRange {
        /// The section.
        section: Section,
        /// The 0-based clause index in that section.
        clause: usize,
        /// The bad literal.
        lit: i32,
        /// The largest allowed variable (`n`, or `2n` in `t`).
        max: u32,
    },
    /// `n` is so large that `2n` does not fit in an `i32` literal.
    #[error("{0} state variables: 2n does not fit in a 32-bit literal")]
    TooManyVariables(u32),
    /// A comment contains a line feed (which would end it early) or ends with a carriage return
    /// (which the reader would take for part of a CRLF line end and drop).
    #[error("comment {0} contains a line feed or ends with a carriage return")]
    InvalidComment(usize),
}
