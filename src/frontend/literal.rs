//! Integer and character constants.
//!
//! An integer constant has the first type of its list that can represent it (C11 6.4.4.1):
//! decimal without suffix `int`, `long`, `long long`; octal, hexadecimal or binary also the
//! unsigned types in between; `u` only unsigned types; `l`/`ll` start at `long`/`long long`.
//! A decimal constant too large for `long long` is `unsigned long long` (as gcc). A character
//! constant has type `int` and the value of the (signed) `char`; `L'x'`, `u'x'`, `U'x'` are
//! `int`, `unsigned short` and `unsigned int`.

use super::builder::{Lower, RVal};
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
        // gcc gives a too large decimal constant the type unsigned long long.
        if v <= u128::from(u64::MAX) {
            let ty = CInt::new(IntKind::LongLong, false);
            return Ok(RVal {
                t: self.cfa.tm.bv_const(v, 64),
                ty,
            });
        }
        self.error(span, "integer constant too large")
    }
}

/// The value and type of a character constant such as `'a'`, `'\n'`, `'\x41'` or `'\101'`
/// (type `int`, the value of a `char`, which is signed), or of a wide one (`L'a'`: `int`,
/// `u'a'`: `unsigned short`, `U'a'`: `unsigned int`; ASCII only).
pub fn char_literal(s: &str) -> Option<(i128, CInt)> {
    let (wide, s) = match s.chars().next()? {
        'L' => (Some(CInt::INT), &s[1..]),
        'u' => (Some(CInt::new(IntKind::Short, false)), &s[1..]),
        'U' => (Some(CInt::UINT), &s[1..]),
        _ => (None, s),
    };
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let c = chars.next()?;
    let v: u32 = if c == '\\' {
        let e = chars.next()?;
        let simple = match e {
            'n' => Some(10),
            't' => Some(9),
            'r' => Some(13),
            'a' => Some(7),
            'b' => Some(8),
            'f' => Some(12),
            'v' => Some(11),
            'e' => Some(27),
            '\\' | '\'' | '"' | '?' => Some(e as u32),
            _ => None,
        };
        match simple {
            Some(v) => v,
            None if e == 'x' => {
                let hex: String = chars.by_ref().collect();
                u32::from_str_radix(&hex, 16).ok().filter(|v| *v <= 0xff)?
            }
            None if e.is_digit(8) => {
                let oct: String = std::iter::once(e).chain(chars.by_ref()).collect();
                if oct.len() > 3 {
                    return None;
                }
                u32::from_str_radix(&oct, 8).ok().filter(|v| *v <= 0xff)?
            }
            None => return None,
        }
    } else {
        let v = c as u32;
        if v > 0x7f {
            return None;
        }
        v
    };
    if chars.next().is_some() {
        return None;
    }
    Some(match wide {
        Some(ty) => (i128::from(v), ty),
        None => (i128::from(v as u8 as i8), CInt::INT),
    })
}
