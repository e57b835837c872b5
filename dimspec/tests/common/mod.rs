//! Shared by the property tests and the fuzzer: a tiny deterministic RNG, random problems, and a
//! "liberal" writer that spells a problem in every form the reader accepts (shuffled and split
//! sections, `t` declared with `n`, comments between tokens, odd whitespace, leading zeros).

#![allow(dead_code)] // each test binary uses a different part

use dimspec::{Cnf, Problem, Section};

/// SplitMix64: small, fast, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A random problem with small `n` (sometimes large variable numbers) and short clauses.
pub fn random_problem(rng: &mut Rng) -> Problem {
    let n = match rng.below(10) {
        0 => 0,
        1 => dimspec::MAX_VARS - rng.below(3) as u32,
        2 => 1000 + rng.below(100_000) as u32,
        _ => 1 + rng.below(6) as u32,
    };
    let mut p = Problem::new(n);
    for _ in 0..rng.below(3) {
        let text: String = (0..rng.below(12))
            .map(|_| *rng.pick(&[' ', 'a', 'c', '0', '-', '=', 'é', '\t', '#']))
            .collect();
        p.comments.push(text);
    }
    for section in Section::ALL {
        let max = section.max_var(n);
        let cnf = p.section_mut(section);
        for _ in 0..rng.below(6) {
            let len = if max == 0 { 0 } else { rng.below(5) };
            cnf.push_clause_iter((0..len).map(|_| {
                let v = 1 + (rng.next() % max) as i32;
                if rng.one_in(2) {
                    -v
                } else {
                    v
                }
            }));
        }
    }
    p
}

/// Appends whitespace (at least one byte) and maybe a comment, which needs a token start.
fn separator(rng: &mut Rng, out: &mut Vec<u8>, comments: bool) {
    let spaces: [&[u8]; 7] = [b" ", b"  ", b"\t", b"\n", b"\r\n", b"\x0b", b"\x0c"];
    for _ in 0..1 + rng.below(2) {
        let space: &[u8] = spaces[rng.below(spaces.len())];
        out.extend_from_slice(space);
    }
    if comments && rng.one_in(6) {
        let texts: [&[u8]; 4] = [b"c", b"c 1 2 0", b"c i cnf 9 9 p cnf", b"comment -0 x\xff"];
        let text: &[u8] = texts[rng.below(texts.len())];
        out.extend_from_slice(text);
        out.extend_from_slice(if rng.one_in(2) { b"\n" } else { b"\r\n" });
    }
}

fn blanks(rng: &mut Rng, out: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(2) {
        out.push(if rng.one_in(3) { b'\t' } else { b' ' });
    }
}

fn number(rng: &mut Rng, out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    if rng.one_in(20) {
        out.extend_from_slice(b"00");
    }
    out.extend_from_slice(v.unsigned_abs().to_string().as_bytes());
}

/// Writes `p` in a random liberal form that must parse back to `p`.
pub fn write_liberal(p: &Problem, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for text in &p.comments {
        if rng.one_in(3) {
            out.extend_from_slice(b"  \n\t");
        }
        // `c` directly followed by text is fine unless the text starts with the one space the
        // reader strips.
        if text.is_empty() || text.starts_with(' ') || rng.one_in(2) {
            out.extend_from_slice(b"c ");
        } else {
            out.push(b'c');
        }
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(if rng.one_in(4) { b"\r\n" } else { b"\n" });
    }
    // Split every section into consecutive chunks; empty sections are often omitted.
    let mut chunks: Vec<Vec<(Section, Cnf)>> = Vec::new();
    for section in Section::ALL {
        let cnf = p.section(section);
        let parts = if cnf.is_empty() && rng.one_in(2) {
            0
        } else {
            1 + rng.below(3)
        };
        let mut list = Vec::new();
        let mut rest = cnf.iter().peekable();
        for k in 0..parts {
            let take = if k + 1 == parts {
                usize::MAX
            } else {
                rng.below(cnf.len() + 1)
            };
            let chunk: Cnf = rest.by_ref().take(take).collect();
            list.push((section, chunk));
        }
        chunks.push(list);
    }
    if chunks.iter().all(Vec::is_empty) {
        let s = rng.below(4);
        chunks[s].push((Section::ALL[s], Cnf::new()));
    }
    // `t` may declare n, unless nothing else would tell n apart from n / 2.
    let n = u64::from(p.num_vars);
    let other_header = chunks[..3].iter().any(|c| !c.is_empty());
    let mut t_widths: Vec<u64> = chunks[3]
        .iter()
        .map(|_| if rng.one_in(2) { n } else { 2 * n })
        .collect();
    if !other_header && n % 2 == 0 && !t_widths.is_empty() && !t_widths.contains(&(2 * n)) {
        t_widths[0] = 2 * n;
    }
    // Interleave the chunks, keeping each section's chunk order.
    let mut next = [0usize; 4];
    let mut first = true;
    while let Some(s) = {
        let live: Vec<usize> = (0..4).filter(|&s| next[s] < chunks[s].len()).collect();
        (!live.is_empty()).then(|| *rng.pick(&live))
    } {
        let (section, cnf) = &chunks[s][next[s]];
        let width = match section {
            Section::Trans => t_widths[next[s]],
            _ => n,
        };
        next[s] += 1;
        separator(rng, &mut out, !first);
        first = false;
        out.push(section.letter() as u8);
        blanks(rng, &mut out);
        out.extend_from_slice(b"cnf");
        blanks(rng, &mut out);
        out.extend_from_slice(width.to_string().as_bytes());
        blanks(rng, &mut out);
        out.extend_from_slice(cnf.len().to_string().as_bytes());
        for clause in cnf {
            for &lit in clause {
                separator(rng, &mut out, true);
                number(rng, &mut out, i64::from(lit));
            }
            separator(rng, &mut out, true);
            number(rng, &mut out, 0);
        }
    }
    if rng.one_in(2) {
        separator(rng, &mut out, true);
    }
    out
}
