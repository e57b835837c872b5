//! Columns of the original file for positions in the preprocessed text.
//!
//! `gcc -E` keeps each line's indentation (as many blanks as the line had bytes before its
//! first token) but writes one blank between tokens wherever the original had a run of blanks,
//! tabs or comments, and replaces macro names by their expansions. So a column counted in the
//! preprocessed text is wrong after every such run. A [`ColumnMap`] relocates the tokens of one
//! preprocessed line in the original line it comes from (the line markers say which): both
//! lines are split into tokens (comments and blanks skipped in the original, whose block
//! comments may start on earlier lines), the two token sequences are aligned by a longest
//! common subsequence of their texts, and each preprocessed token is mapped to its original
//! token, or, for tokens the original line does not have (a macro's expansion), to the first
//! original token of the same gap (the macro's name) or the end of the last original token
//! before the gap. Columns are 1-based byte columns, as SV-COMP witnesses count them (a tab is
//! one byte).
//!
//! When the original line cannot be read, or too few tokens match (the file changed after a
//! `.i` file was made from it, or lines were joined), the preprocessed column is kept.

/// The tokens of one line: their byte ranges. `in_comment` is whether the line starts inside a
/// block comment; it is updated to whether the line ends inside one.
pub fn tokens(line: &[u8], in_comment: &mut bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let n = line.len();
    let mut i = 0;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    while i < n {
        if *in_comment {
            match find(line, i, b"*/") {
                Some(j) => {
                    *in_comment = false;
                    i = j + 2;
                }
                None => return out,
            }
            continue;
        }
        let b = line[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if line[i..].starts_with(b"//") {
            return out;
        } else if line[i..].starts_with(b"/*") {
            *in_comment = true;
            i += 2;
        } else if b == b'"' || b == b'\'' {
            let start = i;
            i += 1;
            while i < n && line[i] != b {
                i += if line[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(n);
            out.push((start, i));
        } else if b.is_ascii_digit()
            || (b == b'.' && line.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            // A preprocessing number: digits, letters, `.`, and a sign after an exponent.
            let start = i;
            i += 1;
            while i < n {
                let c = line[i];
                let signed =
                    (c == b'+' || c == b'-') && matches!(line[i - 1], b'e' | b'E' | b'p' | b'P');
                if !(signed || ident(c) || c == b'.') {
                    break;
                }
                i += 1;
            }
            out.push((start, i));
        } else if ident(b) {
            let start = i;
            while i < n && ident(line[i]) {
                i += 1;
            }
            out.push((start, i));
        } else {
            out.push((i, i + 1));
            i += 1;
        }
    }
    out
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|j| from + j)
}

/// Whether each line of a text starts inside a block comment.
pub fn comment_starts(lines: &[&str]) -> Vec<bool> {
    let mut in_comment = false;
    lines
        .iter()
        .map(|l| {
            let at_start = in_comment;
            tokens(l.as_bytes(), &mut in_comment);
            at_start
        })
        .collect()
}

/// The largest product of token counts aligned (beyond it, the preprocessed columns are kept).
const MAX_CELLS: usize = 4_000_000;

/// Where each token of a preprocessed line is in its original line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnMap {
    /// Per preprocessed token: its start and end in the preprocessed line, the byte offset in
    /// the original line it maps to, and whether it is the same token there (so offsets
    /// inside it map one to one).
    tokens: Vec<(usize, usize, usize, bool)>,
}

impl ColumnMap {
    /// Aligns a preprocessed line with its original line (`in_comment`: whether the original
    /// line starts inside a block comment). `None` when too few tokens match.
    pub fn new(pre: &str, orig: &str, in_comment: bool) -> Option<ColumnMap> {
        let (p, o) = (pre.as_bytes(), orig.as_bytes());
        let pt = tokens(p, &mut false);
        let ot = tokens(o, &mut { in_comment });
        if pt.is_empty() || ot.is_empty() || pt.len().saturating_mul(ot.len()) > MAX_CELLS {
            return None;
        }
        fn text(s: &[u8], (a, b): (usize, usize)) -> &[u8] {
            &s[a..b]
        }
        // The longest common subsequence of the token texts, by suffixes.
        let (n, m) = (pt.len(), ot.len());
        let mut len = vec![0u32; (n + 1) * (m + 1)];
        let at = |i: usize, j: usize| i * (m + 1) + j;
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                len[at(i, j)] = if text(p, pt[i]) == text(o, ot[j]) {
                    len[at(i + 1, j + 1)] + 1
                } else {
                    len[at(i + 1, j)].max(len[at(i, j + 1)])
                };
            }
        }
        let matched = len[at(0, 0)] as usize;
        // A line mostly made of a macro's expansion matches few of its tokens; a line that is
        // not the one it was preprocessed from matches few of either.
        if matched * 2 < n.min(m) || matched == 0 {
            return None;
        }
        let mut pairs: Vec<Option<usize>> = vec![None; n];
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            if text(p, pt[i]) == text(o, ot[j]) && len[at(i, j)] == len[at(i + 1, j + 1)] + 1 {
                pairs[i] = Some(j);
                i += 1;
                j += 1;
            } else if len[at(i + 1, j)] >= len[at(i, j + 1)] {
                i += 1;
            } else {
                j += 1;
            }
        }
        // Unmatched preprocessed tokens go to the first original token of their gap, or just
        // after the original token before the gap.
        let mut out = Vec::with_capacity(n);
        let mut next_orig = 0usize; // the first original token after the last match
        for (k, &(s, e)) in pt.iter().enumerate() {
            match pairs[k] {
                Some(j) => {
                    out.push((s, e, ot[j].0, true));
                    next_orig = j + 1;
                }
                None => {
                    let next_match = pairs[k..].iter().flatten().next().copied().unwrap_or(m);
                    let to = if next_orig < next_match {
                        ot[next_orig].0
                    } else if next_orig > 0 {
                        ot[next_orig - 1].1
                    } else {
                        ot[0].0
                    };
                    out.push((s, e, to, false));
                }
            }
        }
        Some(ColumnMap { tokens: out })
    }

    /// The 0-based byte offset in the original line of a 0-based byte offset in the
    /// preprocessed line.
    pub fn map(&self, col: usize) -> usize {
        let i = self.tokens.partition_point(|t| t.0 <= col);
        if i == 0 {
            // Before the first token: the indentation, which gcc keeps.
            let (s, _, o, _) = self.tokens[0];
            return o.saturating_sub(s - col);
        }
        let (s, e, o, same) = self.tokens[i - 1];
        if !same {
            return o;
        }
        if col < e {
            o + (col - s)
        } else {
            // After a token: as far after its end as in the preprocessed line, but not into
            // the next token.
            let end = o + (e - s);
            let limit = self.tokens.get(i).map_or(usize::MAX, |t| t.2.max(end));
            (end + (col - e)).min(limit)
        }
    }
}

/// How the columns of one preprocessed line map to its original line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FragmentMap {
    /// Through an alignment, the line starting at this offset of the text aligned.
    Aligned(std::sync::Arc<ColumnMap>, usize),
    /// Every column to one original offset (a system header's macro expansion: its name).
    At(usize),
}

impl FragmentMap {
    /// The 0-based byte offset in the original line of a 0-based offset in the fragment.
    pub fn map(&self, col: usize) -> usize {
        match self {
            FragmentMap::Aligned(m, at) => m.map(at + col),
            FragmentMap::At(o) => *o,
        }
    }
}

/// A stand-in for a system macro's expansion in the text aligned: one token that no C line
/// has outside strings and comments, so it is never matched and falls in the gap of the
/// macro's name.
const EXPANSION: &str = "`";

/// Maps the preprocessed lines that come from one original line. Where a macro of a system
/// header expands (`assert`, `UINT32_MAX`), `gcc -E` writes the expansion on lines of its own,
/// marked as system text (`system`), with the program's text before, inside (the macro's
/// arguments) and after it on lines between them. The program's text outside such expansions
/// is aligned as one line, each expansion standing in it as one token that falls in the gap of
/// the macro's name; every column of an expansion maps to that name, and an argument is
/// aligned on its own (an argument gcc repeats, as `assert` does, maps to the original each
/// time), or to the macro's name when it cannot be (a stringified argument). A line that is
/// one fragment is aligned as [`ColumnMap::new`] does. `None` for a fragment whose
/// columns are kept.
pub fn align_fragments(
    fragments: &[(&str, bool)],
    orig: &str,
    in_comment: bool,
) -> Vec<Option<FragmentMap>> {
    use std::sync::Arc;
    let alone = |text: &str| {
        ColumnMap::new(text, orig, in_comment).map(|m| FragmentMap::Aligned(Arc::new(m), 0))
    };
    if let [(text, _)] = fragments {
        return vec![alone(text)];
    }
    // The text outside expansions, with one stand-in per expansion; where each fragment is
    // in it (`None` for an argument), and per fragment the stand-in of its expansion.
    let mut joined = String::new();
    let mut at: Vec<Option<usize>> = Vec::with_capacity(fragments.len());
    let mut expansion: Vec<Option<usize>> = Vec::with_capacity(fragments.len());
    let mut depth = 0i64;
    let mut current: Option<usize> = None;
    for &(text, system) in fragments {
        let inside = system || depth > 0;
        if inside && current.is_none() {
            if !joined.is_empty() {
                joined.push(' ');
            }
            current = Some(joined.len());
            joined.push_str(EXPANSION);
        }
        if system {
            depth += paren_balance(text);
        }
        if inside {
            at.push(None);
            expansion.push(current);
            if depth <= 0 {
                depth = 0;
                current = None;
            }
        } else {
            if !joined.is_empty() {
                joined.push(' ');
            }
            at.push(Some(joined.len()));
            expansion.push(None);
            joined.push_str(text);
        }
    }
    let map = ColumnMap::new(&joined, orig, in_comment).map(Arc::new);
    let name = |x: usize| map.as_ref().map(|m| FragmentMap::At(m.map(x)));
    fragments
        .iter()
        .enumerate()
        .map(|(k, &(text, system))| match (at[k], expansion[k]) {
            (Some(o), _) => map.clone().map(|m| FragmentMap::Aligned(m, o)),
            (None, Some(x)) if system => name(x),
            (None, Some(x)) => alone(text).or_else(|| name(x)),
            (None, None) => None,
        })
        .collect()
}

/// The parentheses a line opens and does not close (negative: closes more than it opens).
fn paren_balance(text: &str) -> i64 {
    let b = text.as_bytes();
    tokens(b, &mut false)
        .into_iter()
        .map(|(s, _)| match b[s] {
            b'(' => 1,
            b')' => -1,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(pre: &str, orig: &str) -> Vec<usize> {
        let m = ColumnMap::new(pre, orig, false).expect("aligned");
        (0..pre.len()).map(|c| m.map(c)).collect()
    }

    #[test]
    fn runs_of_blanks_and_tabs() {
        let orig = "  \t tmp =  \t__VERIFIER_nondet_int(  );";
        let pre = "    tmp = __VERIFIER_nondet_int( );";
        let m = ColumnMap::new(pre, orig, false).unwrap();
        assert_eq!(m.map(pre.find("tmp").unwrap()), orig.find("tmp").unwrap());
        assert_eq!(m.map(pre.find('=').unwrap()), orig.find('=').unwrap());
        let call = pre.find("__V").unwrap();
        assert_eq!(m.map(call), orig.find("__V").unwrap());
        assert_eq!(m.map(call + 5), orig.find("__V").unwrap() + 5);
        assert_eq!(m.map(pre.find(')').unwrap()), orig.find(')').unwrap());
        assert_eq!(m.map(pre.find(';').unwrap()), orig.find(';').unwrap());
    }

    #[test]
    fn comments_and_strings() {
        let orig = "x = /* a */ f(\"/* no comment  */\") ;   // tail";
        let pre = "x = f(\"/* no comment  */\") ;";
        let c = cols(pre, orig);
        assert_eq!(c[pre.find('f').unwrap()], orig.find("f(").unwrap());
        assert_eq!(c[pre.find(';').unwrap()], orig.find(';').unwrap());
        // A comment that started on an earlier line.
        let m = ColumnMap::new("  y = 1;", "still comment */ y  = 1;", true).unwrap();
        assert_eq!(m.map(2), 17);
        assert_eq!(m.map(4), 20);
    }

    #[test]
    fn macro_expansions_map_to_the_macro() {
        let orig = "  tmp = N  +  f();";
        let pre = "  tmp = (10 * 2) + f();";
        let m = ColumnMap::new(pre, orig, false).unwrap();
        let n = orig.find('N').unwrap();
        assert_eq!(m.map(pre.find("10").unwrap()), n);
        assert_eq!(m.map(pre.find('*').unwrap()), n);
        assert_eq!(m.map(pre.find('f').unwrap()), orig.find('f').unwrap());
        assert_eq!(m.map(pre.find('+').unwrap()), orig.find('+').unwrap());
    }

    #[test]
    fn unrelated_lines_are_not_aligned() {
        assert!(ColumnMap::new("int a = b + c;", "while (x) { y--; }", false).is_none());
        assert!(ColumnMap::new("", "x;", false).is_none());
    }

    #[test]
    fn block_comment_states() {
        let lines = ["int a; /* one", "two", "three */ int b;", "/* x */ int c;"];
        assert_eq!(comment_starts(&lines), vec![false, true, true, false]);
    }

    #[test]
    fn numbers_with_exponents_are_one_token() {
        let t = tokens(b"x=1e+5+0x1F", &mut false);
        assert_eq!(t, vec![(0, 1), (1, 2), (2, 6), (6, 7), (7, 11)]);
    }

    #[test]
    fn system_macro_expansions_map_to_the_macro_name() {
        // `gcc -E` of `int y = x + INT_MAX;  uint32_t z = UINT32_MAX; assert(x == 0 && y > 0); return y;`
        let orig =
            "  int y = x + INT_MAX;  uint32_t z = UINT32_MAX; assert(x == 0 && y > 0); return y;";
        let frags = [
            ("  int y = x + 0x7fffffff; uint32_t z = ", false),
            ("                                    (4294967295U)", true),
            ("                                              ; ", false),
            ("                                                ((void) sizeof ((", true),
            ("                                                x == 0 && y > 0", false),
            ("       ) ? 1 : 0), __extension__ ({ if (", true),
            ("                                                x == 0 && y > 0", false),
            ("       ) ; else __assert_fail (", true),
            ("                                                \"x == 0 && y > 0\"", false),
            ("  , \"b.c\", 5, __extension__ __PRETTY_FUNCTION__); }))", true),
            ("                                                                       ; return y;", false),
        ];
        let maps = align_fragments(&frags, orig, false);
        let col =
            |k: usize, tok: &str| maps[k].as_ref().unwrap().map(frags[k].0.find(tok).unwrap());
        assert_eq!(col(0, "y"), orig.find("y").unwrap());
        assert_eq!(col(0, "0x7"), orig.find("INT_MAX").unwrap());
        assert_eq!(col(0, "z"), orig.find("z").unwrap());
        assert_eq!(col(1, "4294967295U"), orig.find("UINT32_MAX").unwrap());
        assert_eq!(col(2, ";"), orig.find("; assert").unwrap());
        let assert = orig.find("assert").unwrap();
        for (k, tok) in [
            (3, "sizeof"),
            (5, "if"),
            (7, "__assert_fail"),
            (8, "\""),
            (9, "__PRETTY"),
        ] {
            assert_eq!(col(k, tok), assert, "fragment {k}");
        }
        // Both copies of the condition map to the condition.
        assert_eq!(col(4, "y >"), orig.find("y >").unwrap());
        assert_eq!(col(6, "y >"), orig.find("y >").unwrap());
        assert_eq!(col(10, "return"), orig.find("return").unwrap());
        assert_eq!(col(10, ";"), orig.find("; return").unwrap());
    }

    #[test]
    fn one_fragment_is_aligned_alone() {
        let orig = "  tmp = N  +  f();";
        let pre = "  tmp = (10 * 2) + f();";
        let m = align_fragments(&[(pre, false)], orig, false);
        let alone = ColumnMap::new(pre, orig, false).unwrap();
        for c in 0..pre.len() {
            assert_eq!(m[0].as_ref().unwrap().map(c), alone.map(c));
        }
    }
}
