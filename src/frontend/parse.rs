//! Preprocessing and parsing.
//!
//! A file is always run through the system C preprocessor as `gcc -E -x c` (`-x c` makes gcc
//! preprocess `.i` files too, and strips comments, which lang-c does not accept), with `-m32`
//! for ILP32 when the compiler supports it (checked once; without it the 64-bit headers are
//! used, which only matters for files with `#include`). When `gcc` is missing, `cpp` is tried;
//! when neither exists, that is the error. The text is parsed with lang-c (GNU C11 flavour).
//!
//! Positions: lang-c spans are byte offsets into the preprocessed text; [`SourceMap`] follows
//! the `# line "file"` markers to give the original file and line, and relocates each
//! preprocessed line's tokens in the original line (read from the file the marker names, or
//! given with the text) for the original byte column ([`super::columns`]: `gcc -E` writes one
//! blank for every run of blanks, tabs and comments between tokens).

use super::columns::{self, FragmentMap};
use super::FrontendError;
use crate::cfa::{DataModel, SrcPos};
use lang_c::driver::{parse_preprocessed, Config, Flavor, Parse};
use lang_c::span::Span;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// The identifier put between the `?` and the `:` of GNU's `a ?: b` (which lang-c does not
/// parse) before parsing: the lowering reads `a ? ELVIS : b` as `a ?: b` ([`SourceMap::is_elvis`]).
pub const ELVIS: &str = "__bitmc_elvis";

/// Maps offsets of the parsed text to original positions.
pub struct SourceMap {
    /// The preprocessed text (without the [`ELVIS`] marks of the parsed text).
    pub text: String,
    /// The offsets in the parsed text where an [`ELVIS`] mark starts, in order.
    marks: Vec<usize>,
    /// For each line of the preprocessed text: its start offset, file and original line.
    lines: Vec<(usize, Arc<str>, u32)>,
    /// The lines that are a system header's text (line marker flag 3) placed in another
    /// file's line: a macro's expansion.
    system: Vec<bool>,
    /// The file name used when no marker applies.
    pub main_file: Arc<str>,
    /// The original files by name, read when first needed (`None`: not readable).
    originals: Mutex<HashMap<Arc<str>, Option<Arc<Original>>>>,
    /// The column map of each preprocessed line, made when first needed (`None`: the
    /// preprocessed columns are kept).
    columns: Mutex<HashMap<usize, Option<FragmentMap>>>,
}

/// An original source file: its lines and whether each starts inside a block comment.
struct Original {
    lines: Vec<String>,
    in_comment: Vec<bool>,
}

impl Original {
    fn new(text: &str) -> Original {
        let lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        Original {
            in_comment: columns::comment_starts(&lines),
            lines: lines.into_iter().map(str::to_string).collect(),
        }
    }
}

impl SourceMap {
    /// Builds the line table of a preprocessed text; original files are read from disk by
    /// the names the markers give.
    pub fn new(text: String, main_file: &str) -> SourceMap {
        SourceMap::with_original(text, main_file, None)
    }

    /// Like [`SourceMap::new`], with the text of the main file when it is not on disk (or not
    /// under that name).
    pub fn with_original(text: String, main_file: &str, original: Option<&str>) -> SourceMap {
        let main: Arc<str> = Arc::from(main_file);
        let mut lines = Vec::new();
        let mut system = Vec::new();
        let mut in_system = false;
        let mut file = main.clone();
        let mut line: u32 = 1;
        let mut off = 0usize;
        for l in text.split_inclusive('\n') {
            lines.push((off, file.clone(), line));
            system.push(in_system);
            off += l.len();
            match parse_marker(l) {
                Some((n, f, sys)) => {
                    line = n;
                    in_system = sys;
                    if let Some(f) = f {
                        let f = if f == "<stdin>" { main_file } else { f };
                        if *file != *f {
                            file = Arc::from(f);
                        }
                    }
                }
                None => line = line.saturating_add(1),
            }
        }
        let mut originals = HashMap::new();
        if let Some(o) = original {
            originals.insert(main.clone(), Some(Arc::new(Original::new(o))));
        }
        SourceMap {
            text,
            marks: Vec::new(),
            lines,
            system,
            main_file: main,
            originals: Mutex::new(originals),
            columns: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the identifier at `offset` of the parsed text is an [`ELVIS`] mark.
    pub fn is_elvis(&self, offset: usize) -> bool {
        self.marks.binary_search(&offset).is_ok()
    }

    /// The offset in the preprocessed text of an offset of the parsed text (a mark's own
    /// characters: where it was put).
    fn unmarked(&self, offset: usize) -> usize {
        let mut shift = 0;
        for &m in &self.marks {
            if offset >= m + ELVIS.len() {
                shift += ELVIS.len();
            } else if offset >= m {
                return m - shift;
            } else {
                break;
            }
        }
        offset - shift
    }

    /// The original position of a byte offset of the parsed text.
    pub fn pos(&self, offset: usize) -> SrcPos {
        let offset = self.unmarked(offset);
        let i = self
            .lines
            .partition_point(|(o, _, _)| *o <= offset)
            .saturating_sub(1);
        match self.lines.get(i) {
            Some((start, f, l)) => {
                let col = offset.saturating_sub(*start).min(self.text.len() - start);
                let col = match self.column_map(i) {
                    Some(m) => m.map(col),
                    None => col,
                };
                SrcPos {
                    file: f.clone(),
                    line: *l,
                    col: col as u32 + 1,
                }
            }
            None => SrcPos {
                file: self.main_file.clone(),
                line: 1,
                col: 1,
            },
        }
    }

    /// The column map of preprocessed line `i`, when its original line can be read and
    /// aligned with it. The lines that come from the same original line are mapped together
    /// ([`columns::align_fragments`]).
    fn column_map(&self, i: usize) -> Option<FragmentMap> {
        let mut cache = self.columns.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = cache.get(&i) {
            return m.clone();
        }
        let group = self.fragments(i);
        let maps = self.make_column_maps(&group);
        for (k, &j) in group.iter().enumerate() {
            cache.insert(j, maps.get(k).cloned().flatten());
        }
        cache.entry(i).or_insert(None).clone()
    }

    /// The text of preprocessed line `i` without its line end, `None` for a line marker or
    /// directive.
    fn line_text(&self, i: usize) -> Option<&str> {
        let start = self.lines.get(i)?.0;
        let end = self.lines.get(i + 1).map_or(self.text.len(), |l| l.0);
        let pre = self.text.get(start..end)?.trim_end_matches(['\n', '\r']);
        (!pre.trim_start().starts_with('#')).then_some(pre)
    }

    /// The preprocessed lines that come from the same original line as line `i` (itself
    /// included), in order: the neighbours with its file and line, across line markers.
    fn fragments(&self, i: usize) -> Vec<usize> {
        let Some((_, file, line)) = self.lines.get(i) else {
            return Vec::new();
        };
        let same = |j: usize| {
            let (_, f, l) = &self.lines[j];
            l == line && f == file
        };
        let texts = |range: &mut dyn Iterator<Item = usize>| -> Vec<usize> {
            range
                .filter(|&j| self.line_text(j).is_some())
                .take_while(|&j| same(j))
                .collect()
        };
        let mut out = texts(&mut (0..i).rev());
        out.reverse();
        out.push(i);
        out.extend(texts(&mut (i + 1..self.lines.len())));
        out
    }

    /// The column maps of the preprocessed lines `group`, one original line's fragments.
    fn make_column_maps(&self, group: &[usize]) -> Vec<Option<FragmentMap>> {
        let (Some(&first), Some(texts)) = (
            group.first(),
            group
                .iter()
                .map(|&j| Some((self.line_text(j)?, self.system[j])))
                .collect::<Option<Vec<_>>>(),
        ) else {
            return Vec::new();
        };
        let (_, file, line) = &self.lines[first];
        let Some(original) = self.original(file) else {
            return Vec::new();
        };
        let Some(k) = (*line as usize).checked_sub(1) else {
            return Vec::new();
        };
        match original.lines.get(k) {
            Some(orig) => columns::align_fragments(&texts, orig, original.in_comment[k]),
            None => Vec::new(),
        }
    }

    /// The original file named `file`, read on first use.
    fn original(&self, file: &Arc<str>) -> Option<Arc<Original>> {
        let mut originals = self.originals.lock().unwrap_or_else(|e| e.into_inner());
        originals
            .entry(file.clone())
            .or_insert_with(|| {
                let bytes = std::fs::read(&**file).ok()?;
                Some(Arc::new(Original::new(&String::from_utf8_lossy(&bytes))))
            })
            .clone()
    }

    /// The position of the start of a span (the file's start when the span is undefined).
    pub fn span_pos(&self, span: Span) -> SrcPos {
        if span.is_none() {
            return SrcPos {
                file: self.main_file.clone(),
                line: 0,
                col: 0,
            };
        }
        self.pos(span.start)
    }

    /// The text of a span on one line, shortened to about 80 characters.
    pub fn snippet(&self, span: Span) -> String {
        if span.is_none() {
            return String::new();
        }
        let (start, end) = (self.unmarked(span.start), self.unmarked(span.end));
        let raw = self.text.get(start..end).unwrap_or("");
        let mut out = String::new();
        let mut space = false;
        for line in raw.lines() {
            if line.trim_start().starts_with('#') {
                continue;
            }
            for c in line.chars() {
                if c.is_whitespace() {
                    space = !out.is_empty();
                } else {
                    if space {
                        out.push(' ');
                        space = false;
                    }
                    out.push(c);
                }
            }
            space = !out.is_empty();
        }
        if out.chars().count() > 80 {
            out = out.chars().take(77).collect::<String>() + "...";
        }
        out
    }
}

/// Parses a line marker `# 12 "file" flags` (or `#line 12 "file"`): the line, the file, and
/// whether the text that follows is a system header's (flag 3).
fn parse_marker(line: &str) -> Option<(u32, Option<&str>, bool)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: &str = &rest[..rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len())];
    let n: u32 = digits.parse().ok()?;
    let after = rest[digits.len()..].trim_start();
    let quoted = after.strip_prefix('"');
    let file = quoted.and_then(|s| s.find('"').map(|e| &s[..e]));
    let system = quoted
        .and_then(|s| s.find('"').map(|e| &s[e + 1..]))
        .is_some_and(|flags| flags.split_whitespace().any(|f| f == "3"));
    Some((n, file, system))
}

fn has_program(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Whether `gcc -m32` can preprocess (checked once, on a program read from standard input).
fn m32_works(cpp: &str) -> bool {
    static M32: OnceLock<bool> = OnceLock::new();
    *M32.get_or_init(|| {
        let mut cmd = Command::new(cpp);
        cmd.args(["-E", "-x", "c", "-m32", "-"]);
        output_with_stdin(&mut cmd, b"#include <limits.h>\nint x;\n")
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

/// Runs `cmd` with `text` on its standard input, collecting its output.
fn output_with_stdin(cmd: &mut Command, text: &[u8]) -> std::io::Result<std::process::Output> {
    use std::io::Write;
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(text)?;
    }
    child.wait_with_output()
}

/// The preprocessor command to use: `gcc`, else `cpp`.
fn preprocessor() -> Result<&'static str, FrontendError> {
    static CPP: OnceLock<Option<&'static str>> = OnceLock::new();
    CPP.get_or_init(|| ["gcc", "cpp"].into_iter().find(|c| has_program(c)))
        .ok_or(FrontendError::NoPreprocessor)
}

/// Declares the name that `__float128` is renamed to (one line, before the first line marker).
pub const FLOAT128_PRELUDE: &str = "typedef int __bitmc_float128;\n";

/// Runs the preprocessor on a file.
pub fn preprocess(path: &Path, dm: DataModel) -> Result<String, FrontendError> {
    preprocess_with(path, dm, &[])
}

/// [`preprocess`] with more options for the preprocessor (`-IDIR`, `-DNAME=VALUE`, `-UNAME`).
pub fn preprocess_with(
    path: &Path,
    dm: DataModel,
    extra: &[String],
) -> Result<String, FrontendError> {
    let file = path.display().to_string();
    if !path.exists() {
        return Err(FrontendError::Input {
            file,
            msg: "no such file".into(),
        });
    }
    run_cpp(&file, dm, extra, |cmd| {
        cmd.arg(path);
        cmd.output()
    })
}

/// Runs the preprocessor on a text (given on standard input); markers name `<stdin>`.
pub fn preprocess_text(
    text: &str,
    file_name: &str,
    dm: DataModel,
    extra: &[String],
) -> Result<String, FrontendError> {
    run_cpp(file_name, dm, extra, |cmd| {
        cmd.arg("-");
        output_with_stdin(cmd, text.as_bytes())
    })
}

fn run_cpp(
    file: &str,
    dm: DataModel,
    extra: &[String],
    go: impl FnOnce(&mut Command) -> std::io::Result<std::process::Output>,
) -> Result<String, FrontendError> {
    let cpp = preprocessor()?;
    let file = file.to_string();
    let mut cmd = Command::new(cpp);
    cmd.args(["-E", "-x", "c"]);
    // lang-c does not know gcc's `__float128` keyword (used by the 32-bit `stddef.h`): make it
    // a typedef name that the front end declares as unsupported (see `FLOAT128_PRELUDE`).
    cmd.arg("-D__float128=__bitmc_float128");
    if cpp == "gcc" && dm == DataModel::Ilp32 && m32_works(cpp) {
        cmd.arg("-m32");
    }
    cmd.args(extra);
    let out = go(&mut cmd).map_err(|e| FrontendError::Input {
        file: file.clone(),
        msg: e.to_string(),
    })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err
            .lines()
            .find(|l| l.contains("error"))
            .or_else(|| err.lines().next())
            .map(str::to_string)
            .unwrap_or_else(|| "error: the preprocessor failed".to_string());
        return Err(FrontendError::Preprocess { msg: first });
    }
    let text = String::from_utf8(out.stdout).map_err(|_| FrontendError::Input {
        file,
        msg: "the preprocessed text is not UTF-8".into(),
    })?;
    Ok(format!("{FLOAT128_PRELUDE}{text}"))
}

/// Parses preprocessed text; `original` is the main file's text when it is not on disk under
/// `file_name` (for columns).
pub fn parse(
    text: String,
    file_name: &str,
    original: Option<&str>,
) -> Result<(Parse, SourceMap), FrontendError> {
    let config = Config {
        flavor: Flavor::GnuC11,
        ..Config::default()
    };
    let (marked, marks) = mark_elvis(&text);
    let map = |text: String| SourceMap {
        marks: marks.clone(),
        ..SourceMap::with_original(text, file_name, original)
    };
    match parse_preprocessed(&config, marked) {
        Ok(p) => Ok((p, map(text))),
        Err(e) => {
            let map = map(text);
            let pos = map.pos(e.offset);
            let token: String = e
                .source
                .get(e.offset..)
                .unwrap_or("")
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(20)
                .collect();
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort_unstable();
            let exp = if expected.len() > 8 {
                format!("{}, … ({} tokens)", expected[..8].join(" "), expected.len())
            } else {
                expected.join(" ")
            };
            let found = if token.is_empty() {
                "end of input".to_string()
            } else {
                format!("`{token}`")
            };
            // GNU extensions the parser does not know are outside the supported subset anyway:
            // when the line of the error has one, report it as unsupported.
            let line_start = e
                .source
                .get(..e.offset)
                .and_then(|t| t.rfind('\n'))
                .map_or(0, |i| i + 1);
            let line_end = e
                .source
                .get(e.offset..)
                .and_then(|t| t.find('\n'))
                .map_or(e.source.len(), |i| e.offset + i);
            let line = e.source.get(line_start..line_end).unwrap_or("");
            for (word, what) in [
                ("__int128", "128-bit integers (__int128)"),
                ("__thread", "thread-local storage"),
                ("__label__", "local labels"),
            ] {
                if let Some(i) = find_word(line, word) {
                    let pos = map.pos(line_start + i);
                    return Err(FrontendError::Unsupported {
                        pos,
                        what: what.into(),
                    });
                }
            }
            Err(FrontendError::Parse {
                pos,
                msg: format!("syntax error at {found} (expected {exp})"),
            })
        }
    }
}

/// `text` with an [`ELVIS`] mark after every `?` whose next token is `:` (outside directives,
/// string literals and character constants), and the offsets of the marks in the result.
fn mark_elvis(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut marks = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line_start = true;
    let mut quote: Option<char> = None;
    while let Some((i, c)) = chars.next() {
        out.push(c);
        if let Some(q) = quote {
            if c == '\\' {
                if let Some((_, e)) = chars.next() {
                    out.push(e);
                }
            } else if c == q || c == '\n' {
                quote = None;
            }
        } else if c == '#' && line_start {
            // A line marker or directive: copied up to its end.
            for (_, d) in chars.by_ref() {
                out.push(d);
                if d == '\n' {
                    break;
                }
            }
            line_start = true;
            continue;
        } else if c == '"' || c == '\'' {
            quote = Some(c);
        } else if c == '?' && text[i + 1..].trim_start().starts_with(':') {
            marks.push(out.len());
            out.push_str(ELVIS);
        }
        line_start = c == '\n' || (line_start && (c == ' ' || c == '\t'));
    }
    (out, marks)
}

/// The byte offset of `word` in `line` as a whole identifier.
fn find_word(line: &str, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(i) = line.get(from..).and_then(|t| t.find(word)) {
        let at = from + i;
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elvis_marks_leave_positions_and_literals_alone() {
        let text = "# 1 \"t.c\"\nint f(int a) { return a ?: '?'; }\nchar *s = \"a ?: b\"; int g = 1 ? 2 : 3, h = 4 ? : 5;\n";
        let (marked, marks) = mark_elvis(text);
        assert_eq!(marks.len(), 2, "{marked}");
        assert_eq!(
            marked,
            text.replacen("a ?:", &format!("a ?{ELVIS}:"), 1).replacen(
                "4 ? :",
                &format!("4 ?{ELVIS} :"),
                1
            )
        );
        let (parsed, map) = parse(text.to_string(), "t.c", Some("")).expect("parses");
        assert!(parsed.source.contains(ELVIS));
        assert!(map.is_elvis(marks[0]) && map.is_elvis(marks[1]));
        assert!(!map.is_elvis(marks[0] + 1));
        // Positions after a mark are those of the text without it.
        for word in ["'?'", "h =", "5;"] {
            let at = marked.find(word).expect("in the marked text");
            let want = text.find(word).expect("in the text");
            let line_start = text[..want].rfind('\n').map_or(0, |i| i + 1);
            let pos = map.pos(at);
            assert_eq!(pos.col as usize, want - line_start + 1, "{word}");
        }
        let span = Span::span(marked.find("a ?").unwrap(), marked.find(";").unwrap());
        assert_eq!(map.snippet(span), "a ?: '?'");
    }
}
