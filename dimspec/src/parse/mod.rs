//! The DimSpec reader: one pass of a hand-written byte loop over the input slice.
//!
//! No `str` conversion and no allocation per token: literals are accumulated straight into the
//! section's [`Cnf`]. Lines and columns are not tracked while reading; an error computes them from
//! its byte offset (see [`ParseError::at`]). The accepted syntax is described in the crate doc.

mod lex;

use crate::error::line_col;
use crate::{Cnf, HeaderPart, ParseError, Problem, Reason, Section, Terminator, MAX_VARS};
use lex::{digits8, end_of_line, is_blank, is_space};

/// Parses a DimSpec problem from bytes.
///
/// # Errors
/// A [`ParseError`] with the line, column and [`Reason`] of the first problem found.
pub fn parse(input: &[u8]) -> Result<Problem, ParseError> {
    Parser {
        input,
        pos: 0,
        problem: Problem::default(),
        vars: Vars::Unknown,
        pending_over: None,
        clause_start: 0,
        seen_header: false,
    }
    .run()
}

/// What the headers read so far say about `n`.
#[derive(Clone, Copy, Debug)]
enum Vars {
    /// No header yet.
    Unknown,
    /// `n` is known; `at` is the offset of the header that fixed it.
    Fixed { n: u32, at: usize },
    /// Only `t` headers of even width `0 < w <= MAX_VARS` so far: `n` is `w` or `w / 2`.
    Pending { w: u32, at: usize },
}

/// The section being read.
struct Open {
    section: Section,
    header_at: usize,
    promised: u64,
    clauses_before: usize,
}

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    problem: Problem,
    vars: Vars,
    /// While `n` is pending: the first `t` literal beyond `w` (out of range if `n` becomes `w / 2`).
    pending_over: Option<(usize, i32)>,
    /// Offset of the first literal of the open clause, if one is open.
    clause_start: usize,
    seen_header: bool,
}

impl Parser<'_> {
    fn err(&self, at: usize, reason: Reason) -> ParseError {
        ParseError::at(self.input, at, reason)
    }

    fn line(&self, at: usize) -> usize {
        line_col(self.input, at).0
    }

    fn run(mut self) -> Result<Problem, ParseError> {
        let mut open: Option<Open> = None;
        loop {
            while self.pos < self.input.len() && is_space(self.input[self.pos]) {
                self.pos += 1;
            }
            let Some(&b) = self.input.get(self.pos) else {
                break;
            };
            match b {
                b'c' => self.comment(),
                b'0'..=b'9' | b'-' => match &open {
                    Some(o) => self.clauses(o.section)?,
                    None => return Err(self.err(self.pos, Reason::ClauseBeforeHeader)),
                },
                b'p' if self.input.get(self.pos + 1).copied().is_some_and(is_blank) => {
                    return Err(self.err(self.pos, Reason::DimacsHeader))
                }
                _ => match Section::from_letter(b) {
                    Some(section) => {
                        self.close(open.take(), Terminator::Header(section))?;
                        open = Some(self.header(section)?);
                    }
                    None => return Err(self.err(self.pos, Reason::UnexpectedByte(b))),
                },
            }
        }
        self.close(open, Terminator::EndOfInput)?;
        if !self.seen_header {
            return Err(self.err(0, Reason::NoSection));
        }
        self.problem.num_vars = match self.vars {
            Vars::Unknown => 0,
            Vars::Fixed { n, .. } => n,
            Vars::Pending { w, .. } => self.fix_half(w)?,
        };
        Ok(self.problem)
    }

    /// Skips a comment (to the end of the line); keeps it if no header has been seen yet.
    fn comment(&mut self) {
        let eol = end_of_line(self.input, self.pos);
        if !self.seen_header {
            let mut text = &self.input[self.pos + 1..eol];
            text = text.strip_prefix(b" ").unwrap_or(text);
            while let Some(rest) = text.strip_suffix(b"\r") {
                text = rest;
            }
            let text = String::from_utf8_lossy(text).into_owned();
            self.problem.comments.push(text);
        }
        self.pos = eol;
    }

    /// Ends the section `open` at the current position (a header or the end of the input):
    /// no clause may be open and the clause count must match the header.
    fn close(&mut self, open: Option<Open>, at: Terminator) -> Result<(), ParseError> {
        let Some(open) = open else { return Ok(()) };
        let cnf = self.problem.section(open.section);
        if cnf.open_literals() > 0 {
            let start_line = self.line(self.clause_start);
            return Err(self.err(self.pos, Reason::UnterminatedClause { start_line, at }));
        }
        let found = (cnf.len() - open.clauses_before) as u64;
        if found != open.promised {
            let reason = Reason::ClauseCount {
                section: open.section,
                promised: open.promised,
                found,
            };
            return Err(self.err(open.header_at, reason));
        }
        Ok(())
    }

    /// Reads a header `<s> cnf <vars> <clauses>` starting at the section letter.
    fn header(&mut self, section: Section) -> Result<Open, ParseError> {
        let header_at = self.pos;
        let malformed = |expected| Reason::MalformedHeader { section, expected };
        self.pos += 1;
        let blanks = self.skip_blanks();
        if blanks == 0 || !self.input[self.pos..].starts_with(b"cnf") {
            return Err(self.err(self.pos, malformed(HeaderPart::Cnf)));
        }
        let word = self.pos;
        self.pos += 3;
        if self.skip_blanks() == 0 {
            // `cnf` glued to more text is another word; `cnf` at the line's end lacks numbers.
            return Err(match self.input.get(self.pos) {
                Some(&b) if !is_space(b) => self.err(word, malformed(HeaderPart::Cnf)),
                _ => self.err(self.pos, malformed(HeaderPart::VarCount)),
            });
        }
        let declared = self.header_number(malformed(HeaderPart::VarCount))?;
        if self.skip_blanks() == 0 {
            return Err(self.err(self.pos, malformed(HeaderPart::ClauseCount)));
        }
        let promised = self.header_number(malformed(HeaderPart::ClauseCount))?;
        let limit = match section {
            Section::Trans => 2 * u64::from(MAX_VARS),
            _ => u64::from(MAX_VARS),
        };
        if declared > limit {
            let reason = Reason::TooManyVariables { section, declared };
            return Err(self.err(header_at, reason));
        }
        self.declare(section, declared as u32, header_at)?;
        self.seen_header = true;
        Ok(Open {
            section,
            header_at,
            promised,
            clauses_before: self.problem.section(section).len(),
        })
    }

    fn skip_blanks(&mut self) -> usize {
        let start = self.pos;
        while self.pos < self.input.len() && is_blank(self.input[self.pos]) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// An unsigned decimal number followed by whitespace or the end; `missing` if no digit.
    fn header_number(&mut self, missing: Reason) -> Result<u64, ParseError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(d) = self.input.get(self.pos).map(|b| b.wrapping_sub(b'0')) {
            if d > 9 {
                break;
            }
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| self.err(start, Reason::IntegerOverflow))?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.err(start, missing));
        }
        match self.input.get(self.pos) {
            Some(&b) if !is_space(b) => Err(self.err(self.pos, Reason::UnexpectedByte(b))),
            _ => Ok(value),
        }
    }

    /// Records what a header declaring `d` variables says about `n`; errors on contradictions.
    fn declare(&mut self, section: Section, d: u32, at: usize) -> Result<(), ParseError> {
        let is_t = section == Section::Trans;
        let inconsistent = |this: &Self, allowed: Vec<u32>, since: usize| {
            let line = this.line(since);
            let reason = Reason::InconsistentVariables {
                section,
                declared: d,
                allowed,
                line,
            };
            this.err(at, reason)
        };
        self.vars = match self.vars {
            Vars::Unknown if !is_t => Vars::Fixed { n: d, at },
            // A leading `t`: an odd width can only be n, a width beyond MAX_VARS only 2n.
            Vars::Unknown if d % 2 == 1 && d > MAX_VARS => {
                let declared = u64::from(d);
                return Err(self.err(at, Reason::TooManyVariables { section, declared }));
            }
            Vars::Unknown if d % 2 == 1 => Vars::Fixed { n: d, at },
            Vars::Unknown if d == 0 || d > MAX_VARS => Vars::Fixed { n: d / 2, at },
            Vars::Unknown => Vars::Pending { w: d, at },
            Vars::Fixed { n, at: since } => {
                let ok = d == n || (is_t && u64::from(d) == 2 * u64::from(n));
                if !ok && is_t && d % 2 == 1 {
                    let line = self.line(since);
                    let reason = Reason::OddTransitionWidth { width: d, n, line };
                    return Err(self.err(at, reason));
                }
                if !ok {
                    let allowed = if is_t { vec![n, 2 * n] } else { vec![n] };
                    return Err(inconsistent(self, allowed, since));
                }
                self.vars
            }
            Vars::Pending { w, at: since } => {
                // n ∈ {w, w/2}; a `t` width d allows n ∈ {d, d/2}, another header n = d.
                let half = w / 2;
                if d == w {
                    if is_t {
                        self.vars
                    } else {
                        Vars::Fixed { n: w, at }
                    }
                } else if d == half {
                    Vars::Fixed {
                        n: self.fix_half(w)?,
                        at,
                    }
                } else if is_t && u64::from(d) == 2 * u64::from(w) {
                    Vars::Fixed { n: w, at }
                } else {
                    let allowed = if is_t {
                        vec![half, w, 2 * w]
                    } else {
                        vec![half, w]
                    };
                    return Err(inconsistent(self, allowed, since));
                }
            }
        };
        Ok(())
    }

    /// Settles a pending `t` width `w` as `2n` (n = w / 2): any `t` literal beyond `w` is an error.
    fn fix_half(&self, w: u32) -> Result<u32, ParseError> {
        if let Some((at, lit)) = self.pending_over {
            let reason = Reason::LiteralOutOfRange {
                lit,
                section: Section::Trans,
                max: w,
            };
            return Err(self.err(at, reason));
        }
        Ok(w / 2)
    }

    /// The hot loop: reads literals and comments into `section` until another token or the end.
    fn clauses(&mut self, section: Section) -> Result<(), ParseError> {
        // `max`: hard range limit; `soft`: literals beyond it (only while n is pending) are noted.
        let (max, soft) = match self.vars {
            Vars::Fixed { n, .. } => {
                let max = section.max_var(n);
                (max, max)
            }
            Vars::Pending { w, .. } => (2 * u64::from(w), u64::from(w)),
            Vars::Unknown => (0, 0),
        };
        let input = self.input;
        let mut pos = self.pos;
        let mut clause_start = self.clause_start;
        let mut over = self.pending_over;
        let cnf: &mut Cnf = self.problem.section_mut(section);
        let mut fresh = cnf.open_literals() == 0;
        let error = |at: usize, reason: Reason| Err(ParseError::at(input, at, reason));
        while let Some(&b) = input.get(pos) {
            if is_space(b) {
                pos += 1;
                continue;
            }
            let start = pos;
            let neg = b == b'-';
            if neg {
                pos += 1;
            } else if !b.is_ascii_digit() {
                if b != b'c' {
                    break;
                }
                pos = end_of_line(input, pos);
                continue;
            }
            let digits = pos;
            let (mut v, k) = digits8(input, pos);
            pos += k;
            if k == 8 || pos + 8 > input.len() {
                // Longer numbers and the input's tail: digit by digit, checking for overflow.
                while let Some(d) = input.get(pos).map(|b| b.wrapping_sub(b'0')) {
                    if d > 9 {
                        break;
                    }
                    v = v * 10 + u64::from(d);
                    if v > i32::MAX as u64 {
                        return error(start, Reason::IntegerOverflow);
                    }
                    pos += 1;
                }
            }
            if pos == digits {
                return error(start, Reason::LoneMinus);
            }
            if let Some(&next) = input.get(pos) {
                if !is_space(next) {
                    return error(pos, Reason::UnexpectedByte(next));
                }
            }
            let lit = if neg { -(v as i32) } else { v as i32 };
            if v == 0 {
                if neg {
                    return error(start, Reason::NegativeZero);
                }
                cnf.end_clause();
                fresh = true;
                continue;
            }
            if v > soft {
                if v > max {
                    let max = max as u32;
                    return error(start, Reason::LiteralOutOfRange { lit, section, max });
                }
                over = over.or(Some((start, lit)));
            }
            if fresh {
                clause_start = start;
                fresh = false;
            }
            cnf.push_literal(lit);
        }
        self.pos = pos;
        self.clause_start = clause_start;
        self.pending_over = over;
        Ok(())
    }
}
