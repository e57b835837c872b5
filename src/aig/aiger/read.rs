//! The AIGER reader: both formats, strict syntax, every error with its position.
//!
//! Syntax is checked while reading (header, single spaces, newlines, varints); the semantic
//! rules are [`AigerFile::check`]'s, whose failing element is mapped back to the
//! position where the reader found it. Nothing is allocated from header counts before the
//! content is there, except what the bound on `M` allows.

use super::{
    AigerError, AigerFile, AndGate, ErrorKind, Format, Latch, Pos, Site, Symbol, SymbolKind,
};
use std::path::Path;

/// The format announced by the first three bytes, if any.
pub fn detect_format(data: &[u8]) -> Option<Format> {
    match data.get(..3)? {
        b"aag" => Some(Format::Ascii),
        b"aig" => Some(Format::Binary),
        _ => None,
    }
}

/// Read an AIGER file (ASCII or binary, from its header) from memory.
pub fn parse(data: &[u8]) -> Result<AigerFile, AigerError> {
    Reader::new(data).read()
}

/// Read an AIGER file from disk.
pub fn read_path(path: &Path) -> Result<AigerFile, AigerError> {
    let data =
        std::fs::read(path).map_err(|e| AigerError::Io(format!("{}: {e}", path.display())))?;
    parse(&data)
}

/// Where each element was read, to place the errors of the semantic check.
#[derive(Default)]
struct Positions {
    inputs: Vec<Pos>,
    latches: Vec<Pos>,
    outputs: Vec<Pos>,
    bad: Vec<Pos>,
    constraints: Vec<Pos>,
    justice: Vec<Vec<Pos>>,
    fairness: Vec<Pos>,
    ands: Vec<Pos>,
    symbols: Vec<Pos>,
}

impl Positions {
    fn of(&self, site: Site) -> Option<Pos> {
        match site {
            Site::Input(k) => self.inputs.get(k).copied(),
            Site::Latch(k) => self.latches.get(k).copied(),
            Site::Output(k) => self.outputs.get(k).copied(),
            Site::Bad(k) => self.bad.get(k).copied(),
            Site::Constraint(k) => self.constraints.get(k).copied(),
            Site::Justice { prop, lit } => self.justice.get(prop).and_then(|j| j.get(lit)).copied(),
            Site::Fairness(k) => self.fairness.get(k).copied(),
            Site::And(k) => self.ands.get(k).copied(),
            Site::Symbol(k) => self.symbols.get(k).copied(),
        }
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    line: usize,
    binary: bool,
    pos: Positions,
}

/// A short description of the byte found where something else was expected.
fn describe(b: Option<u8>) -> String {
    match b {
        None => "end of file".into(),
        Some(b'\n') => "a newline".into(),
        Some(c) if c.is_ascii_graphic() || c == b' ' => format!("'{}'", c as char),
        Some(c) => format!("byte 0x{c:02x}"),
    }
}

impl<'a> Reader<'a> {
    fn new(data: &'a [u8]) -> Reader<'a> {
        let binary = detect_format(data) == Some(Format::Binary);
        Reader {
            data,
            at: 0,
            line: 1,
            binary,
            pos: Positions::default(),
        }
    }

    fn here(&self) -> Pos {
        if self.binary {
            Pos::Byte(self.at)
        } else {
            Pos::Line(self.line)
        }
    }

    fn fail<T>(&self, kind: ErrorKind) -> Result<T, AigerError> {
        Err(AigerError::Parse {
            pos: self.here(),
            kind,
        })
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    fn garbage<T>(&self, expected: &'static str) -> Result<T, AigerError> {
        match self.peek() {
            None => self.fail(ErrorKind::Truncated(expected)),
            b => self.fail(ErrorKind::Garbage {
                expected,
                found: describe(b),
            }),
        }
    }

    /// An unsigned decimal number that fits in 32 bits.
    fn number(&mut self, what: &'static str) -> Result<u32, AigerError> {
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return self.garbage(what);
        }
        let start = self.here();
        let mut v: u64 = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            v = v * 10 + (c - b'0') as u64;
            if v > u32::MAX as u64 {
                return Err(AigerError::Parse {
                    pos: start,
                    kind: ErrorKind::OutOfRange {
                        lit: v,
                        max: u32::MAX as u64,
                    },
                });
            }
            self.at += 1;
        }
        Ok(v as u32)
    }

    /// A line of `min..=max` numbers separated by single spaces; returns them and the line's
    /// position.
    fn numbers(
        &mut self,
        what: &'static str,
        min: usize,
        max: usize,
    ) -> Result<([u32; 3], usize, Pos), AigerError> {
        let pos = self.here();
        let mut v = [0u32; 3];
        let mut n = 0;
        loop {
            v[n] = self.number(what)?;
            n += 1;
            match self.peek() {
                Some(b' ') if n < max => self.at += 1,
                Some(b'\n') if n >= min => {
                    self.bump();
                    return Ok((v, n, pos));
                }
                _ if n < min => {
                    return self.garbage(if min - n == 1 {
                        "a space before one more number"
                    } else {
                        "a space"
                    })
                }
                _ => return self.garbage("a newline"),
            }
        }
    }

    /// A line with one literal.
    fn single(&mut self, what: &'static str) -> Result<(u32, Pos), AigerError> {
        let (v, _, pos) = self.numbers(what, 1, 1)?;
        Ok((v[0], pos))
    }

    /// `count` lines of one literal each (growing with the content, not with `count`).
    fn singles(
        &mut self,
        count: u64,
        what: &'static str,
    ) -> Result<(Vec<u32>, Vec<Pos>), AigerError> {
        let (mut lits, mut ps) = (Vec::new(), Vec::new());
        for _ in 0..count {
            let (x, p) = self.single(what)?;
            lits.push(x);
            ps.push(p);
        }
        Ok((lits, ps))
    }

    fn header(&mut self) -> Result<[u64; 9], AigerError> {
        match detect_format(self.data) {
            Some(_) => {}
            None if self.data.len() < 3 => return self.fail(ErrorKind::Truncated("the header")),
            None => return self.fail(ErrorKind::BadHeader("expected 'aag' or 'aig'".into())),
        }
        self.at = 3;
        let mut h = [0u64; 9];
        let mut n = 0;
        while n < 9 && self.peek() == Some(b' ') {
            self.at += 1;
            h[n] = self.header_number()? as u64;
            n += 1;
        }
        if n < 5 {
            return match self.peek() {
                None => self.fail(ErrorKind::Truncated("the header")),
                b => self.fail(ErrorKind::BadHeader(format!(
                    "expected 5 to 9 numbers, found {n} and then {}",
                    describe(b)
                ))),
            };
        }
        match self.peek() {
            Some(b'\n') => {
                self.bump();
                Ok(h)
            }
            None => self.fail(ErrorKind::Truncated("the header")),
            b => self.fail(ErrorKind::BadHeader(format!(
                "expected a newline after the numbers, found {}",
                describe(b)
            ))),
        }
    }

    fn header_number(&mut self) -> Result<u32, AigerError> {
        match self.number("a header number") {
            Err(AigerError::Parse {
                kind: ErrorKind::Garbage { found, .. },
                pos,
            }) => Err(AigerError::Parse {
                pos,
                kind: ErrorKind::BadHeader(format!("expected a number, found {found}")),
            }),
            Err(AigerError::Parse {
                kind: ErrorKind::OutOfRange { lit, .. },
                pos,
            }) => Err(AigerError::Parse {
                pos,
                kind: ErrorKind::BadHeader(format!("{lit} does not fit in 32 bits")),
            }),
            r => r,
        }
    }

    fn read(mut self) -> Result<AigerFile, AigerError> {
        let header_pos = self.here();
        let [m, i, l, o, a, b, c, j, f] = self.header()?;
        let header_err = |kind| {
            Err(AigerError::Parse {
                pos: header_pos,
                kind,
            })
        };
        let sum = i + l + a;
        if self.binary && m != sum {
            return header_err(ErrorKind::BinaryMaxVar { m, sum });
        }
        if m < sum {
            return header_err(ErrorKind::MaxVarTooSmall { m, sum });
        }
        // Literals are u32 (2M + 1 must fit), and M-sized tables are bounded by the file size.
        let limit = ((self.data.len() as u64).saturating_mul(8))
            .max(1 << 20)
            .min((u32::MAX >> 1) as u64 - 1);
        if m > limit {
            return header_err(ErrorKind::MaxVarTooLarge { m, limit });
        }
        let mut file = AigerFile {
            max_var: m as u32,
            ..AigerFile::default()
        };
        if self.binary {
            // Implicit, hence well-formed: no positions needed.
            file.inputs = (1..=i as u32).map(|v| 2 * v).collect();
        } else {
            (file.inputs, self.pos.inputs) = self.singles(i, "an input line")?;
        }
        for k in 0..l {
            let (v, n, p) = if self.binary {
                let (v, n, p) = self.numbers("a latch line", 1, 2)?;
                let lit = 2 * (i + k + 1) as u32;
                ([lit, v[0], v[1]], n + 1, p)
            } else {
                self.numbers("a latch line", 2, 3)?
            };
            file.latches.push(Latch {
                lit: v[0],
                next: v[1],
                reset: if n == 3 { v[2] } else { 0 },
            });
            self.pos.latches.push(p);
        }
        (file.outputs, self.pos.outputs) = self.singles(o, "an output line")?;
        (file.bad, self.pos.bad) = self.singles(b, "a bad-state line")?;
        (file.constraints, self.pos.constraints) = self.singles(c, "a constraint line")?;
        let (sizes, _) = self.singles(j, "a justice size line")?;
        for size in sizes {
            let (lits, ps) = self.singles(size as u64, "a justice literal line")?;
            file.justice.push(lits);
            self.pos.justice.push(ps);
        }
        (file.fairness, self.pos.fairness) = self.singles(f, "a fairness line")?;
        for k in 0..a {
            let g = if self.binary {
                self.binary_and((i + l + k + 1) as u32)?
            } else {
                let (v, _, p) = self.numbers("an AND gate line", 3, 3)?;
                self.pos.ands.push(p);
                AndGate {
                    lhs: v[0],
                    rhs0: v[1],
                    rhs1: v[2],
                }
            };
            file.ands.push(g);
        }
        self.symbols_and_comments(&mut file)?;
        match file.checked_order() {
            Ok(_) => Ok(file),
            Err(e) => Err(self.place(e)),
        }
    }

    /// The error of the semantic check at the position where the element was read.
    fn place(&self, (site, kind): (Site, ErrorKind)) -> AigerError {
        match self.pos.of(site) {
            Some(pos) => AigerError::Parse { pos, kind },
            None => AigerError::Invalid { site, kind },
        }
    }

    /// One binary AND gate of variable `var`: two varint deltas.
    fn binary_and(&mut self, var: u32) -> Result<AndGate, AigerError> {
        let lhs = 2 * var;
        let start = self.here();
        self.pos.ands.push(start);
        let d0 = self.varint()?;
        let d1 = self.varint()?;
        let err = |what| {
            Err(AigerError::Parse {
                pos: start,
                kind: ErrorKind::BadDelta { lhs, what },
            })
        };
        if d0 == 0 {
            return err("first delta is 0 (needs lhs > rhs0)");
        }
        let Some(rhs0) = lhs.checked_sub(d0) else {
            return err("first delta exceeds lhs");
        };
        let Some(rhs1) = rhs0.checked_sub(d1) else {
            return err("second delta exceeds rhs0");
        };
        Ok(AndGate { lhs, rhs0, rhs1 })
    }

    fn varint(&mut self) -> Result<u32, AigerError> {
        let mut v: u64 = 0;
        for i in 0..5 {
            let Some(b) = self.peek() else {
                return if i == 0 {
                    self.fail(ErrorKind::Truncated("the AND gates"))
                } else {
                    self.fail(ErrorKind::EofInVarint)
                };
            };
            self.at += 1;
            v |= ((b & 0x7f) as u64) << (7 * i);
            if b & 0x80 == 0 {
                return u32::try_from(v).or_else(|_| self.fail(ErrorKind::VarintOverflow));
            }
        }
        self.fail(ErrorKind::VarintOverflow)
    }

    /// The optional symbol table and comment section, up to the end of the file.
    fn symbols_and_comments(&mut self, file: &mut AigerFile) -> Result<(), AigerError> {
        // Symbol lines are ASCII, even in binary files; positions stay in the file's unit.
        while let Some(c) = self.peek() {
            let pos = self.here();
            if c == b'c' && matches!(self.data.get(self.at + 1), None | Some(b'\n')) {
                self.at += 1;
                self.bump();
                let rest = String::from_utf8_lossy(&self.data[self.at..]);
                // Split on '\n' only: a '\r' is part of the line and must survive rewriting.
                file.comments = rest.split('\n').map(str::to_owned).collect();
                if rest.is_empty() || rest.ends_with('\n') {
                    file.comments.pop();
                }
                self.at = self.data.len();
                return Ok(());
            }
            let Some(kind) = SymbolKind::from_letter(c) else {
                return self.garbage("a symbol (i, l, o, b, c, j, f) or the comment line 'c'");
            };
            self.at += 1;
            let index = match self.number("a symbol position") {
                Ok(x) => x,
                Err(AigerError::Parse {
                    pos,
                    kind: ErrorKind::OutOfRange { lit, .. },
                }) => {
                    return Err(AigerError::Parse {
                        pos,
                        kind: ErrorKind::BadSymbol(format!("position {lit} too large")),
                    })
                }
                Err(e) => return Err(e),
            };
            if self.peek() != Some(b' ') {
                return self.garbage("a space before the symbol name");
            }
            self.at += 1;
            let end = self.data[self.at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(self.data.len(), |p| self.at + p);
            let name = String::from_utf8_lossy(&self.data[self.at..end]).into_owned();
            self.at = end;
            self.bump();
            file.symbols.push(Symbol { kind, index, name });
            self.pos.symbols.push(pos);
        }
        Ok(())
    }
}
