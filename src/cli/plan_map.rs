//! The program's variables in a plan of `solve`: `bitmc dimspec` and `bitmc aiger` write a
//! header (DimSpec comment lines, or the AIGER comment section) that names the bits of the
//! program counter and of every program variable kept as state:
//!
//! ```text
//! pc (Binary; bit 0 first): 1 2 3 ; init location code 0, error location code 1, terminated code 6
//! var main::i (i32; bit 0 first): 36 37 … 67
//! ```
//!
//! (DimSpec variables, from 1; AIGER latch indices, from 0; `-` for a bit the encoding dropped).
//! When the file `solve` reads carries such a header, a plan's states are printed as the
//! values of those variables, signed where their C type is.

use std::io::BufRead;
use std::path::Path;

/// How a word's bits make its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Code {
    /// An integer, bit 0 first, signed or not.
    Binary { signed: bool },
    /// One bit per value: the value is the index of the bit that is set.
    OneHot,
}

/// A program variable (or the program counter) and its bits.
#[derive(Clone, Debug)]
struct Word {
    name: String,
    code: Code,
    bits: Vec<Option<usize>>,
}

/// The words a header names.
#[derive(Clone, Debug, Default)]
pub struct VarMap {
    words: Vec<Word>,
}

impl VarMap {
    /// The map in header lines (without DimSpec's `c ` prefix); `None` when they name no word.
    pub fn parse<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<VarMap> {
        let mut words = Vec::new();
        for line in lines {
            let line = line.trim();
            let (head, rest) = match line.split_once("): ") {
                Some(x) => x,
                None => continue,
            };
            let (name, kind) = match head.split_once(" (") {
                Some((n, k)) => (n, k.split(';').next().unwrap_or("")),
                None => continue,
            };
            let (name, code) = if name == "pc" {
                let code = match kind {
                    "OneHot" => Code::OneHot,
                    _ => Code::Binary { signed: false },
                };
                ("pc", code)
            } else if let Some(n) = name.strip_prefix("var ") {
                (
                    n,
                    Code::Binary {
                        signed: kind.starts_with('i'),
                    },
                )
            } else {
                continue;
            };
            let bits_text = rest.split(" ;").next().unwrap_or("");
            let bits: Option<Vec<Option<usize>>> = bits_text
                .split_whitespace()
                .map(|b| match b {
                    "-" => Some(None),
                    b => b.parse().ok().map(Some),
                })
                .collect();
            if let Some(bits) = bits.filter(|b| !b.is_empty()) {
                words.push(Word {
                    name: name.to_string(),
                    code,
                    bits,
                });
            }
        }
        (!words.is_empty()).then_some(VarMap { words })
    }

    /// The map in the leading comment lines of a DimSpec file, if any.
    pub fn of_dimspec(path: &Path) -> Option<VarMap> {
        let file = std::fs::File::open(path).ok()?;
        let lines: Vec<String> = std::io::BufReader::new(file)
            .lines()
            .map_while(Result::ok)
            .take_while(|l| l.starts_with('c'))
            .collect();
        Self::parse(lines.iter().map(|l| l.strip_prefix('c').unwrap_or(l)))
    }

    /// Each word's value in a state whose bit `n` (as the header numbers bits) is `bit(n)`;
    /// `None` for a word with a bit that is not in the state.
    pub fn values(&self, bit: impl Fn(usize) -> Option<bool>) -> Vec<(&str, Option<String>)> {
        self.words
            .iter()
            .map(|w| {
                let bits: Option<Vec<bool>> = w.bits.iter().map(|b| b.and_then(&bit)).collect();
                (w.name.as_str(), bits.map(|b| value(w.code, &b)))
            })
            .collect()
    }

    /// The states as lines `state i: name = value, …`: every known value in the first state,
    /// then those that changed.
    pub fn lines(&self, states: usize, bit: impl Fn(usize, usize) -> Option<bool>) -> Vec<String> {
        let mut out = Vec::with_capacity(states);
        let mut before: Vec<Option<String>> = Vec::new();
        for i in 0..states {
            let now = self.values(|n| bit(i, n));
            let shown: Vec<String> = now
                .iter()
                .enumerate()
                .filter(|(j, (_, v))| v.is_some() && before.get(*j) != Some(v))
                .map(|(_, (name, v))| format!("{name} = {}", v.as_deref().unwrap_or("?")))
                .collect();
            out.push(format!("state {i}: {}", shown.join(", ")));
            before = now.into_iter().map(|(_, v)| v).collect();
        }
        out
    }
}

/// A word's value as decimal text.
fn value(code: Code, bits: &[bool]) -> String {
    match code {
        Code::OneHot => match bits.iter().position(|&b| b) {
            Some(p) => p.to_string(),
            None => "none".to_string(),
        },
        Code::Binary { signed } => {
            let w = bits.len().min(128);
            let v = bits[..w]
                .iter()
                .rev()
                .fold(0u128, |acc, &b| (acc << 1) | u128::from(b));
            if signed && w > 0 && bits[w - 1] {
                let shift = 128 - w as u32;
                (((v << shift) as i128) >> shift).to_string()
            } else {
                v.to_string()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_give_signed_and_unsigned_words() {
        let m = VarMap::parse([
            " bitmc system of x.c",
            " pc (Binary; bit 0 first): 1 2 ; init location code 0, error location code 1, terminated code 3",
            " var main::x (i8; bit 0 first): 3 4 5 6 7 8 9 10",
            " var main::u (u8; bit 0 first): 11 12 13 14 15 16 17 18",
            " var main::gone (u8; bit 0 first): - - - - - - - -",
        ])
        .expect("a map");
        // x = -2 (0b11111110), u = 5, pc = 2.
        let ones = [2, 4, 5, 6, 7, 8, 9, 10, 11, 13];
        let v = m.values(|n| Some(ones.contains(&n)));
        assert_eq!(
            v,
            vec![
                ("pc", Some("2".to_string())),
                ("main::x", Some("-2".to_string())),
                ("main::u", Some("5".to_string())),
                ("main::gone", None),
            ]
        );
        let lines = m.lines(2, |i, n| Some(i == 1 && n == 1));
        assert_eq!(
            lines,
            vec![
                "state 0: pc = 0, main::x = 0, main::u = 0",
                "state 1: pc = 1"
            ]
        );
    }

    #[test]
    fn one_hot_counters_and_files_without_a_header() {
        let m = VarMap::parse([" pc (OneHot; bit 0 first): 0 1 2 3"]).expect("a map");
        assert_eq!(m.values(|n| Some(n == 2)), vec![("pc", Some("2".into()))]);
        assert!(VarMap::parse([" a planning problem", "p cnf 3 1"]).is_none());
    }
}
