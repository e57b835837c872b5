//! Integer and character constants.
//!
//! An integer constant has the first type of its list that can represent it (C11 6.4.4.1):
//! decimal without suffix `int`, `long`, `long long`; octal, hexadecimal or binary also the
//! unsigned types in between; `u` only unsigned types; `l`/`ll` start at `long`/`long long`.
//! A constant that no type of its list holds is unsupported (gcc's types for it differ between
//! x86-64 and i386). A character
//! constant has type `int` and the value of the (signed) `char`, a multi-character constant
//! (`'ab'`) gcc's `int`; `L'x'`, `u'x'`, `U'x'` are `int`, `unsigned short` and `unsigned int`.

use super::builder::Lower;
use super::repr::RVal;
use super::types::{CInt, IntKind};
use super::FrontendError;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl<'a> Lower<'a> {
    pub fn constant(&mut self, c: &Node<Constant>) -> Result<RVal, FrontendError> {
        match &c.node {
            Constant::Integer(i) => self.integer_literal(i, c.span),
            Constant::Character(s) => {
                let v = match super::literal::char_literal(s) {
                    Some(v) => v,
                    None => return self.unsupported(c.span, format!("character constant {s}")),
                };
                Ok(self.int_const(v.0, v.1))
            }
            Constant::Float(_) => self.unsupported(c.span, "floating point"),
        }
    }

    fn integer_literal(&mut self, i: &Integer, span: Span) -> Result<RVal, FrontendError> {
        let radix = match i.base {
            IntegerBase::Decimal => 10,
            IntegerBase::Octal => 8,
            IntegerBase::Hexadecimal => 16,
            IntegerBase::Binary => 2,
        };
        if i.suffix.imaginary {
            return self.unsupported(span, "imaginary constant");
        }
        let digits: &str = if i.number.is_empty() { "0" } else { &i.number };
        let Ok(v) = u128::from_str_radix(digits, radix) else {
            return self.error(span, format!("integer constant {digits} out of range"));
        };
        let dm = self.dm();
        let decimal = radix == 10;
        let u = i.suffix.unsigned;
        let kinds: &[IntKind] = match i.suffix.size {
            IntegerSize::Int => &[IntKind::Int, IntKind::Long, IntKind::LongLong],
            IntegerSize::Long => &[IntKind::Long, IntKind::LongLong],
            IntegerSize::LongLong => &[IntKind::LongLong],
        };
        for &k in kinds {
            for signed in [true, false] {
                if (signed && u) || (!signed && !u && decimal) {
                    continue;
                }
                let ty = CInt::new(k, signed);
                let (_, hi) = ty.range(dm);
                if v <= hi as u128 {
                    return Ok(RVal {
                        t: self.cfa.tm.bv_const(v, ty.width(dm)),
                        ty,
                    });
                }
            }
        }
        // No standard type holds it (C11 6.4.4.1p6: a constraint violation); gcc gives such a
        // decimal constant `__int128` on x86-64 and a wrapped `long long` on i386.
        self.unsupported(span, "integer constant too large for its type")
    }
}

/// Decodes the characters of a character or string literal body: ASCII characters and the
/// escapes `\n \t \r \a \b \f \v \e \\ \' \" \?`, `\xHH` and up to three octal digits
/// (each at most 0xff). `None` for anything else (non-ASCII, wide escapes).
fn decode(body: &str) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if c as u32 > 0x7f {
                return None;
            }
            out.push(c as u32);
            continue;
        }
        let e = chars.next()?;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' => 27,
            '\\' | '\'' | '"' | '?' => e as u32,
            'x' => {
                let mut hex = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_hexdigit()) {
                    hex.push(*d);
                    chars.next();
                }
                u32::from_str_radix(&hex, 16).ok().filter(|v| *v <= 0xff)?
            }
            d if d.is_digit(8) => {
                let mut oct = String::from(d);
                while oct.len() < 3 {
                    match chars.peek().filter(|d| d.is_digit(8)) {
                        Some(d) => {
                            oct.push(*d);
                            chars.next();
                        }
                        None => break,
                    }
                }
                u32::from_str_radix(&oct, 8).ok().filter(|v| *v <= 0xff)?
            }
            _ => return None,
        };
        out.push(v);
    }
    Some(out)
}

/// The value and type of a character constant such as `'a'`, `'\n'`, `'\x41'` or `'\101'`
/// (type `int`, the value of a `char`, which is signed), of a multi-character one (`'ab'`:
/// `int`, gcc's value `0x6162`), or of a wide one (`L'a'`: `int`, `u'a'`: `unsigned short`,
/// `U'a'`: `unsigned int`; ASCII and one character only).
pub fn char_literal(s: &str) -> Option<(i128, CInt)> {
    let (wide, s) = match s.chars().next()? {
        'L' => (Some(CInt::INT), &s[1..]),
        'u' => (Some(CInt::new(IntKind::Short, false)), &s[1..]),
        'U' => (Some(CInt::UINT), &s[1..]),
        _ => (None, s),
    };
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    Some(match (wide, decode(inner)?.as_slice()) {
        (Some(ty), [v]) => (i128::from(*v), ty),
        (None, [v]) => (i128::from(*v as u8 as i8), CInt::INT),
        // gcc's value of a multi-character constant: the bytes in order, each shifted in from
        // the right of a 32-bit `int` (so the last four count), as a signed `int`.
        (None, bytes) if bytes.len() > 1 => {
            let v = bytes
                .iter()
                .fold(0u32, |acc, &b| (acc << 8) | u32::from(b as u8));
            (i128::from(v as i32), CInt::INT)
        }
        _ => return None,
    })
}

/// The bytes of a (narrow) string literal made of adjacent pieces, without the final NUL.
pub fn string_bytes(pieces: &[String]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for p in pieces {
        let body = p.strip_prefix('"')?.strip_suffix('"')?;
        out.extend(decode(body)?.into_iter().map(|v| v as u8));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn character_and_string_literals() {
        assert_eq!(char_literal("'a'"), Some((97, CInt::INT)));
        assert_eq!(char_literal("'\\377'"), Some((-1, CInt::INT)));
        assert_eq!(char_literal("'\\x41'"), Some((65, CInt::INT)));
        assert_eq!(char_literal("'\\0'"), Some((0, CInt::INT)));
        assert_eq!(char_literal("L'z'"), Some((122, CInt::INT)));
        // Multi-character constants as gcc computes them (the same on x86-64 and i386).
        assert_eq!(char_literal("'ab'"), Some((24930, CInt::INT)));
        assert_eq!(char_literal("'abcde'"), Some((1650680933, CInt::INT)));
        assert_eq!(
            char_literal("'\\377\\377\\377\\377'"),
            Some((-1, CInt::INT))
        );
        assert_eq!(char_literal("'\\377a'"), Some((65377, CInt::INT)));
        assert_eq!(
            char_literal("'\\200\\0\\0\\0'"),
            Some((-2147483648, CInt::INT))
        );
        assert_eq!(char_literal("L'ab'"), None);
        let pieces = vec![
            "\"a\\n\"".to_string(),
            "\"\\101\\x42\"".to_string(),
            "\"c\"".to_string(),
        ];
        assert_eq!(string_bytes(&pieces), Some(b"a\nABc".to_vec()));
        // Hexadecimal escapes are greedy: `\x42c` is out of range.
        assert_eq!(string_bytes(&["\"\\x42c\"".to_string()]), None);
    }
}
