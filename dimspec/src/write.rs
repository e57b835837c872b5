//! The DimSpec writer: emits the subset read by both IncPlan and MinireachIC3 (see the crate doc).
//!
//! Output is formatted into one reusable byte buffer, flushed to the writer in large blocks, so no
//! `BufWriter` is needed around it; numbers are formatted by hand into a stack array.

use crate::{Cnf, Problem, Section, WriteError};
use std::io::Write;

/// The buffer is handed to the writer once it holds this many bytes.
const FLUSH_AT: usize = 1 << 16;

/// Writes `problem` as DimSpec to `out` (comments, then `i, u, g, t`).
///
/// The problem is checked with [`Problem::validate`] before anything is written, so an invalid
/// problem produces no output.
///
/// # Errors
/// [`WriteError::Io`] when `out` fails; the other variants when the problem is invalid.
pub fn write<W: Write>(problem: &Problem, mut out: W) -> Result<(), WriteError> {
    problem.validate()?;
    let mut buf = Vec::with_capacity(FLUSH_AT + 4096);
    for comment in &problem.comments {
        buf.extend_from_slice(b"c ");
        buf.extend_from_slice(comment.as_bytes());
        buf.push(b'\n');
        flush_if_full(&mut buf, &mut out)?;
    }
    for section in Section::ALL {
        let cnf = problem.section(section);
        buf.push(section.letter() as u8);
        buf.extend_from_slice(b" cnf ");
        push_u64(&mut buf, section.max_var(problem.num_vars));
        buf.push(b' ');
        push_u64(&mut buf, cnf.len() as u64);
        buf.push(b'\n');
        write_clauses(cnf, &mut buf, &mut out)?;
    }
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}

/// [`write()`] into a new byte vector.
///
/// # Errors
/// When the problem is invalid (see [`Problem::validate`]).
pub fn to_bytes(problem: &Problem) -> Result<Vec<u8>, WriteError> {
    let mut bytes = Vec::new();
    write(problem, &mut bytes)?;
    Ok(bytes)
}

fn write_clauses<W: Write>(cnf: &Cnf, buf: &mut Vec<u8>, out: &mut W) -> Result<(), WriteError> {
    for clause in cnf {
        for &lit in clause {
            push_i32(buf, lit);
            buf.push(b' ');
        }
        buf.extend_from_slice(b"0\n");
        flush_if_full(buf, out)?;
    }
    Ok(())
}

#[inline]
fn flush_if_full<W: Write>(buf: &mut Vec<u8>, out: &mut W) -> Result<(), WriteError> {
    if buf.len() >= FLUSH_AT {
        out.write_all(buf)?;
        buf.clear();
    }
    Ok(())
}

/// Two-digit decimal strings `00` … `99`.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends the decimal digits of `v` (no allocation: formatted into a stack array).
#[inline]
fn push_u64(buf: &mut Vec<u8>, mut v: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        tmp[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        i -= 2;
        tmp[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        tmp[i] = b'0' + v as u8;
    }
    buf.extend_from_slice(&tmp[i..]);
}

#[inline]
fn push_i32(buf: &mut Vec<u8>, lit: i32) {
    if lit < 0 {
        buf.push(b'-');
    }
    push_u64(buf, u64::from(lit.unsigned_abs()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_integers_like_display() {
        let cases = [
            0,
            1,
            9,
            10,
            11,
            99,
            100,
            101,
            999,
            1000,
            12345,
            i32::MAX,
            -1,
            -10,
            -100,
        ];
        for v in cases.into_iter().chain(i32::MIN + 1..i32::MIN + 3) {
            let mut buf = Vec::new();
            push_i32(&mut buf, v);
            assert_eq!(String::from_utf8(buf).unwrap(), v.to_string());
        }
        let mut buf = Vec::new();
        push_u64(&mut buf, u64::MAX);
        assert_eq!(String::from_utf8(buf).unwrap(), u64::MAX.to_string());
    }

    #[test]
    fn writes_the_safe_subset() {
        let mut p = Problem::new(2);
        p.comments.push("two-bit counter".into());
        p.init.push_clause(&[-1]);
        p.trans.push_clause(&[1, 3]);
        let text = String::from_utf8(to_bytes(&p).unwrap()).unwrap();
        assert_eq!(
            text,
            "c two-bit counter\ni cnf 2 1\n-1 0\nu cnf 2 0\ng cnf 2 0\nt cnf 4 1\n1 3 0\n"
        );
    }

    #[test]
    fn refuses_invalid_problems_before_writing() {
        let mut p = Problem::new(2);
        p.trans.push_clause(&[1, 5]);
        let mut out = Vec::new();
        let err = write(&p, &mut out).unwrap_err();
        assert!(out.is_empty());
        assert_eq!(
            err.to_string(),
            "clause 0 of `t` has literal 5, outside ±1..=4"
        );
        p.trans.clear();
        p.goal.push_clause(&[0]);
        assert!(matches!(
            to_bytes(&p),
            Err(WriteError::LiteralOutOfRange { lit: 0, .. })
        ));
        p.goal.clear();
        p.comments.push("a\rb".into());
        assert!(to_bytes(&p).is_ok());
        p.comments.push("a\nb".into());
        assert!(matches!(to_bytes(&p), Err(WriteError::InvalidComment(1))));
        p.comments[1] = "ab\r".into();
        assert!(matches!(to_bytes(&p), Err(WriteError::InvalidComment(1))));
        let big = Problem::new(crate::MAX_VARS + 1);
        assert!(matches!(
            to_bytes(&big),
            Err(WriteError::TooManyVariables(_))
        ));
    }
}
