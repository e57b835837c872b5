//! The AIGER writer: ASCII as the file is, binary after renumbering when needed.

use super::{AigerError, AigerFile, Format};
use std::io::Write;

impl AigerFile {
    /// The file in `format`. The file is checked first; the binary form is renumbered (see
    /// [`AigerFile::renumbered`]) unless it is already in binary order.
    pub fn to_bytes(&self, format: Format) -> Result<Vec<u8>, AigerError> {
        self.check()?;
        let mut out = Vec::new();
        match format {
            Format::Ascii => self.put_ascii(&mut out),
            Format::Binary if self.is_binary_order() => self.put_binary(&mut out),
            Format::Binary => self.renumbered()?.0.put_binary(&mut out),
        }
        Ok(out)
    }

    /// Write the file in `format` (see [`AigerFile::to_bytes`]).
    pub fn write(&self, w: &mut impl Write, format: Format) -> Result<(), AigerError> {
        w.write_all(&self.to_bytes(format)?)?;
        Ok(())
    }

    fn put_header(&self, out: &mut Vec<u8>, magic: &str) {
        let h = self.header();
        // Drop the suffix of zeros among B C J F.
        let n = (5..9).rev().find(|&k| h[k] != 0).map_or(5, |k| k + 1);
        out.extend_from_slice(magic.as_bytes());
        for x in &h[..n] {
            out.extend_from_slice(format!(" {x}").as_bytes());
        }
        out.push(b'\n');
    }

    /// The sections between the latches and the AND gates, the same in both formats.
    fn put_middle(&self, out: &mut Vec<u8>) {
        let mut line = |x: u32| out.extend_from_slice(format!("{x}\n").as_bytes());
        for &x in self
            .outputs
            .iter()
            .chain(&self.bad)
            .chain(&self.constraints)
        {
            line(x);
        }
        for j in &self.justice {
            line(j.len() as u32);
        }
        for &x in self.justice.iter().flatten().chain(&self.fairness) {
            line(x);
        }
    }

    fn put_tail(&self, out: &mut Vec<u8>) {
        for s in &self.unique_symbols() {
            out.push(s.kind.letter());
            out.extend_from_slice(format!("{} {}\n", s.index, s.name).as_bytes());
        }
        if !self.comments.is_empty() {
            out.extend_from_slice(b"c\n");
            for c in &self.comments {
                out.extend_from_slice(c.as_bytes());
                out.push(b'\n');
            }
        }
    }

    fn put_ascii(&self, out: &mut Vec<u8>) {
        self.put_header(out, "aag");
        for &i in &self.inputs {
            out.extend_from_slice(format!("{i}\n").as_bytes());
        }
        for l in &self.latches {
            let reset = if l.reset == 0 {
                String::new()
            } else {
                format!(" {}", l.reset)
            };
            out.extend_from_slice(format!("{} {}{reset}\n", l.lit, l.next).as_bytes());
        }
        self.put_middle(out);
        for g in &self.ands {
            out.extend_from_slice(format!("{} {} {}\n", g.lhs, g.rhs0, g.rhs1).as_bytes());
        }
        self.put_tail(out);
    }

    /// The binary form of a file in binary order.
    fn put_binary(&self, out: &mut Vec<u8>) {
        debug_assert!(self.is_binary_order());
        self.put_header(out, "aig");
        for l in &self.latches {
            let reset = if l.reset == 0 {
                String::new()
            } else {
                format!(" {}", l.reset)
            };
            out.extend_from_slice(format!("{}{reset}\n", l.next).as_bytes());
        }
        self.put_middle(out);
        for g in &self.ands {
            put_varint(out, g.lhs - g.rhs0);
            put_varint(out, g.rhs0 - g.rhs1);
        }
        self.put_tail(out);
    }
}

/// 7 bits per byte, least significant first, high bit set on all but the last byte.
fn put_varint(out: &mut Vec<u8>, mut x: u32) {
    while x >= 0x80 {
        out.push((x & 0x7f) as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Latch, Symbol, SymbolKind};
    use super::*;

    fn sym(kind: SymbolKind, index: u32, name: &str) -> Symbol {
        Symbol {
            kind,
            index,
            name: name.into(),
        }
    }

    /// Repeated names (here three `x`, and an `x~2` that the first renaming would produce)
    /// are written unique in both formats; the first of each keeps its name.
    #[test]
    fn written_symbols_are_unique() {
        let file = AigerFile {
            max_var: 4,
            inputs: vec![2, 4],
            latches: vec![
                Latch {
                    lit: 6,
                    next: 2,
                    reset: 0,
                },
                Latch {
                    lit: 8,
                    next: 4,
                    reset: 0,
                },
            ],
            bad: vec![6],
            symbols: vec![
                sym(SymbolKind::Input, 0, "x"),
                sym(SymbolKind::Input, 1, "x"),
                sym(SymbolKind::Latch, 0, "x~2"),
                sym(SymbolKind::Latch, 1, "x"),
            ],
            ..AigerFile::default()
        };
        for format in [Format::Ascii, Format::Binary] {
            let back = parse(&file.to_bytes(format).expect("written")).expect("read back");
            let names: Vec<&str> = back.symbols.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(names, ["x", "x~2", "x~2~2", "x~3"], "{format:?}");
        }
    }
}
