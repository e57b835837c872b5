//! Reading the C program's text the way the witness formats address it: by line and column
//! (both 1-based; a column counts characters), with just enough lexical knowledge to find
//! what a location points at.
//!
//! [`Source::masked`] is a copy of the text in which comments, string and character literals
//! and preprocessor lines are blanked out (same length, newlines kept), so keywords,
//! parentheses and semicolons found in it are real tokens. On top of it: matching brackets,
//! skipping one C statement (to find the `while` that ends a `do` loop), the function a
//! position lies in, and the callee of a call whose closing parenthesis is at a position.

/// A program text with its line starts and its masked copy.
pub struct Source {
    pub text: String,
    /// `text` with comments, literals and preprocessor lines replaced by spaces.
    pub masked: Vec<u8>,
    line_starts: Vec<usize>,
}

/// Whether `b` can be part of a C identifier.
pub fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Source {
    pub fn new(text: &str) -> Source {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        Source {
            text: text.to_string(),
            masked: mask(text.as_bytes()),
            line_starts,
        }
    }

    /// The byte offset of (line, column), both 1-based, the column counted in characters;
    /// `None` when the line does not exist or is shorter.
    pub fn offset(&self, line: usize, column: usize) -> Option<usize> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let end = self.line_end(line);
        let text = &self.text[start..end];
        let (i, _) = text.char_indices().nth(column.checked_sub(1)?)?;
        Some(start + i)
    }

    /// The offset just past the last character of `line` (before its newline).
    fn line_end(&self, line: usize) -> usize {
        self.line_starts
            .get(line)
            .map(|&s| s - 1)
            .unwrap_or(self.text.len())
    }

    /// The text of a 1-based line (empty when there is no such line).
    pub fn line(&self, line: usize) -> &str {
        match line.checked_sub(1).and_then(|l| self.line_starts.get(l)) {
            Some(&s) => &self.text[s..self.line_end(line)],
            None => "",
        }
    }

    /// The masked text of a 1-based line.
    pub fn masked_line(&self, line: usize) -> &str {
        match line.checked_sub(1).and_then(|l| self.line_starts.get(l)) {
            Some(&s) => std::str::from_utf8(&self.masked[s..self.line_end(line)]).unwrap_or(""),
            None => "",
        }
    }

    /// The 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// Whether the word `kw` (a whole identifier) starts at `at` in the masked text.
    pub fn word_at(&self, at: usize, kw: &str) -> bool {
        let m = &self.masked;
        m.get(at..at + kw.len()) == Some(kw.as_bytes())
            && (at == 0 || !ident_byte(m[at - 1]))
            && m.get(at + kw.len()).is_none_or(|&b| !ident_byte(b))
    }

    /// The first non-blank offset at or after `at` in the masked text.
    pub fn skip_blank(&self, mut at: usize) -> usize {
        while at < self.masked.len() && self.masked[at].is_ascii_whitespace() {
            at += 1;
        }
        at
    }

    /// The offset of the bracket that closes the one at `open` (`(`, `[` or `{`).
    pub fn matching(&self, open: usize) -> Option<usize> {
        self.partner(open, open..self.masked.len(), b"([{", b")]}")
    }

    /// The offset of the bracket that opens the one that closes at `close`.
    pub fn matching_back(&self, close: usize) -> Option<usize> {
        self.partner(close, (0..close + 1).rev(), b")]}", b"([{")
    }

    /// Scanning `range` from the bracket at `at`: the bracket where the nesting depth returns
    /// to zero (`deeper` brackets go one level in, `back` ones one level out).
    fn partner(
        &self,
        at: usize,
        range: impl Iterator<Item = usize>,
        deeper: &[u8],
        back: &[u8],
    ) -> Option<usize> {
        if !deeper.contains(self.masked.get(at)?) {
            return None;
        }
        let mut depth = 0usize;
        for i in range {
            let b = self.masked[i];
            if deeper.contains(&b) {
                depth += 1;
            } else if back.contains(&b) {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    }

    /// The identifier that ends just before `end` (blanks skipped), with its start offset.
    pub fn ident_before(&self, end: usize) -> Option<(usize, &str)> {
        let m = &self.masked;
        let mut e = end;
        while e > 0 && m[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        let mut s = e;
        while s > 0 && ident_byte(m[s - 1]) {
            s -= 1;
        }
        (s < e).then(|| (s, &self.text[s..e]))
    }

    /// The identifier starting at `at` (empty when none).
    pub fn ident_at(&self, at: usize) -> &str {
        let m = &self.masked;
        let mut e = at;
        while e < m.len() && ident_byte(m[e]) {
            e += 1;
        }
        &self.text[at..e]
    }

    /// The callee of the call whose closing parenthesis is at `close`.
    pub fn callee_of_close(&self, close: usize) -> Option<&str> {
        if self.masked.get(close) != Some(&b')') {
            return None;
        }
        let open = self.matching_back(close)?;
        self.ident_before(open).map(|(_, name)| name)
    }

    /// The end (offset just past) of the C statement that starts at or after `at`.
    pub fn skip_statement(&self, at: usize) -> Option<usize> {
        let at = self.skip_blank(at);
        let m = &self.masked;
        match *m.get(at)? {
            b'{' => return Some(self.matching(at)? + 1),
            b';' => return Some(at + 1),
            _ => {}
        }
        for kw in ["if", "while", "for", "switch"] {
            if self.word_at(at, kw) {
                let open = self.skip_blank(at + kw.len());
                if m.get(open) != Some(&b'(') {
                    return None;
                }
                let end = self.skip_statement(self.matching(open)? + 1)?;
                if kw == "if" {
                    let next = self.skip_blank(end);
                    if self.word_at(next, "else") {
                        return self.skip_statement(next + 4);
                    }
                }
                return Some(end);
            }
        }
        if self.word_at(at, "do") {
            let (_, close) = self.do_condition(at)?;
            let semi = self.skip_blank(close + 1);
            return (m.get(semi) == Some(&b';')).then_some(semi + 1);
        }
        if self.word_at(at, "else") {
            return None;
        }
        // A label (`L:`, `case 3:`, `default:`) belongs to the statement after it.
        let ident = self.ident_at(at);
        if !ident.is_empty() {
            let after = self.skip_blank(at + ident.len());
            let is_label = m.get(after) == Some(&b':') && m.get(after + 1) != Some(&b':');
            if ident == "case" || ident == "default" || is_label {
                let colon = (at..m.len()).find(|&i| m[i] == b':')?;
                return self.skip_statement(colon + 1);
            }
        }
        // An expression, declaration, jump or return statement: up to the `;` at depth 0.
        let mut i = at;
        while i < m.len() {
            match m[i] {
                b'(' | b'[' | b'{' => i = self.matching(i)?,
                b';' => return Some(i + 1),
                b')' | b']' | b'}' => return None,
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// For the `do` keyword at `at`: the parentheses of its `while (...)` condition.
    pub fn do_condition(&self, at: usize) -> Option<(usize, usize)> {
        let body_end = self.skip_statement(at + 2)?;
        let w = self.skip_blank(body_end);
        if !self.word_at(w, "while") {
            return None;
        }
        let open = self.skip_blank(w + 5);
        if self.masked.get(open) != Some(&b'(') {
            return None;
        }
        Some((open, self.matching(open)?))
    }

    /// The offsets of the `while` keywords that end `do` loops.
    pub fn do_while_tails(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for i in 0..self.masked.len() {
            if self.word_at(i, "do") {
                if let Some(body_end) = self.skip_statement(i + 2) {
                    out.push(self.skip_blank(body_end));
                }
            }
        }
        out
    }

    /// The function definitions: (name, offset of the body's `{`, offset of its `}`).
    pub fn functions(&self) -> Vec<(String, usize, usize)> {
        let m = &self.masked;
        let mut out = Vec::new();
        let mut i = 0;
        while i < m.len() {
            match m[i] {
                b'{' => {
                    let Some(close) = self.matching(i) else { break };
                    // `f(params) {`, or `f(a, b) int a; int b; {` (K&R declarations).
                    let mut j = i;
                    while j > 0 && m[j - 1].is_ascii_whitespace() {
                        j -= 1;
                    }
                    let params_close = match m[..j].last() {
                        Some(b')') => Some(j - 1),
                        Some(b';') => m[..j].iter().rposition(|&b| b == b')'),
                        _ => None,
                    };
                    if let Some(p) = params_close {
                        if let Some(open) = self.matching_back(p) {
                            if let Some((_, name)) = self.ident_before(open) {
                                out.push((name.to_string(), i, close));
                            }
                        }
                    }
                    i = close + 1;
                }
                _ => i += 1,
            }
        }
        out
    }

    /// The name of the function whose body contains `offset`.
    pub fn function_at(&self, offset: usize) -> Option<String> {
        self.functions()
            .into_iter()
            .find(|(_, s, e)| *s < offset && offset < *e)
            .map(|(n, _, _)| n)
    }
}

/// Blank out comments, string and character literals, and preprocessor lines.
fn mask(t: &[u8]) -> Vec<u8> {
    let mut out = t.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    let mut line_start = true;
    while i < t.len() {
        let b = t[i];
        if line_start && b == b'#' {
            // A preprocessor line, with its backslash continuations.
            let mut j = i;
            while j < t.len() && !(t[j] == b'\n' && (j == 0 || t[j - 1] != b'\\')) {
                j += 1;
            }
            blank(&mut out, i, j);
            i = j;
            continue;
        }
        if b == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if !b.is_ascii_whitespace() {
            line_start = false;
        }
        if b == b'/' && t.get(i + 1) == Some(&b'/') {
            let j = t[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(t.len(), |p| i + p);
            blank(&mut out, i, j);
            i = j;
        } else if b == b'/' && t.get(i + 1) == Some(&b'*') {
            let j = t[i + 2..]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(t.len(), |p| i + 2 + p + 2);
            blank(&mut out, i, j);
            i = j;
        } else if b == b'"' || b == b'\'' {
            let mut j = i + 1;
            while j < t.len() && t[j] != b && t[j] != b'\n' {
                if t[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            let end = (j + 1).min(t.len());
            // Keep the quotes so the literal still separates tokens.
            blank(&mut out, i + 1, end.saturating_sub(1).max(i + 1));
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_and_loops() {
        let s = Source::new(
            "int f(int x) {\n  do x--; while (x > 0);\n  do { if (x) x++; else x--; } while (x < 3);\n  return x; // while (\n}\n",
        );
        assert_eq!(s.do_while_tails().len(), 2);
        let do1 = s.offset(2, 3).unwrap();
        let (o, c) = s.do_condition(do1).unwrap();
        assert_eq!(&s.text[o..=c], "(x > 0)");
        assert_eq!(s.function_at(do1).as_deref(), Some("f"));
        assert_eq!(s.line_of(do1), 2);
    }
}
