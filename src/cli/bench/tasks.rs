//! Task discovery for `bitmc bench`: which files are tasks, how each one is run, and what its
//! expected result is.
//!
//! - A C file (`.c`, `.i`) with a `// expect: p=true|false …` header is one `verify` task per
//!   listed property; `// expect(lp64): …` overrides the expectations under LP64, and
//!   `// expect: error=unsupported` makes one task whose expected result is the error exit.
//! - An SV-COMP task file (`.yml`, `.yaml`) is one `verify` task per property it lists that bitmc
//!   supports (`unreach-call`, `no-overflow`); the others are skipped with a note.
//! - A DimSpec (`.cnf`, `.spec`, `.dimspec`) or AIGER (`.aag`, `.aig`) file is one `solve` task;
//!   its expected verdict comes from an `EXPECTED.tsv` in its directory when there is one.
//!
//! A directory is searched recursively (in name order); a C file that an adjacent task file
//! names as its input is run through the task file only. A list file names one task (or
//! directory) per line, relative to the list's directory; `#` starts a comment line.

use anyhow::{bail, Context};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

/// Properties of SV-COMP task files that `bitmc verify` checks.
const YML_PROPERTIES: &[&str] = &["unreach-call", "no-overflow"];

/// How a task is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `bitmc verify FILE --property P`: verdicts `TRUE` / `FALSE(P)`.
    Verify,
    /// `bitmc solve FILE`: verdicts `SAFE` / `UNSAFE`.
    Solve,
}

/// The expected result of a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The property holds (`TRUE`, `SAFE`).
    Holds,
    /// The property is violated (`FALSE(p)`, `UNSAFE`).
    Violated,
    /// The run must end with the input-error exit code (unsupported input).
    Error,
    /// Nobody says: the task is run and timed, but cannot be right or wrong.
    Unknown,
}

/// One task: a file, how to run it and what to expect.
#[derive(Clone, Debug)]
pub struct Task {
    /// The name shown in the reports (a path relative to the input it was found through).
    pub name: String,
    /// The file to give to bitmc.
    pub path: PathBuf,
    pub kind: Kind,
    /// The property to check (`verify` tasks only).
    pub property: Option<String>,
    /// The expectation under ILP32 (and for every task that is not a C file).
    pub expected: Expected,
    /// The expectation under LP64 (`// expect(lp64):` of C files).
    pub expected_lp64: Expected,
}

impl Task {
    /// The expectation under the data model a configuration selects.
    pub fn expected(&self, lp64: bool) -> Expected {
        if lp64 {
            self.expected_lp64
        } else {
            self.expected
        }
    }

    /// How an expectation or verdict is spelled for this task (`TRUE`, `FALSE(p)`, `SAFE`, …).
    pub fn spell(&self, e: Expected) -> String {
        match (e, self.kind) {
            (Expected::Holds, Kind::Verify) => "TRUE".into(),
            (Expected::Violated, Kind::Verify) => {
                format!("FALSE({})", self.property.as_deref().unwrap_or(""))
            }
            (Expected::Holds, Kind::Solve) => "SAFE".into(),
            (Expected::Violated, Kind::Solve) => "UNSAFE".into(),
            (Expected::Error, _) => "ERROR".into(),
            (Expected::Unknown, _) => String::new(),
        }
    }
}

/// The tasks found, and notes on files or properties that were skipped.
#[derive(Default, Debug)]
pub struct Discovery {
    pub tasks: Vec<Task>,
    pub notes: Vec<String>,
}

/// What kind of file a path is, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileType {
    C,
    Yml,
    System,
}

fn file_type(path: &Path) -> Option<FileType> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "c" | "i" => Some(FileType::C),
        "yml" | "yaml" => Some(FileType::Yml),
        "cnf" | "spec" | "dimspec" | "aag" | "aig" => Some(FileType::System),
        _ => None,
    }
}

/// Find the tasks of every input (a list file, a directory or a single task file), in order,
/// without duplicates.
pub fn discover(inputs: &[PathBuf]) -> anyhow::Result<Discovery> {
    let mut d = Finder::default();
    for input in inputs {
        if input.is_dir() {
            let base = input.file_name().map(|n| n.to_string_lossy().into_owned());
            d.dir(input, base.as_deref().unwrap_or(""))?;
        } else if !input.exists() {
            bail!("{}: no such file or directory", input.display());
        } else if file_type(input).is_some() {
            d.file(input, &input.display().to_string())?;
        } else {
            d.list(input)?;
        }
    }
    Ok(d.out)
}

#[derive(Default)]
struct Finder {
    out: Discovery,
    seen: HashSet<PathBuf>,
    expected: HashMap<PathBuf, Option<ExpectedTable>>,
}

impl Finder {
    fn list(&mut self, list: &Path) -> anyhow::Result<()> {
        let text = std::fs::read_to_string(list)
            .with_context(|| format!("cannot read the task list {}", list.display()))?;
        let dir = list.parent().unwrap_or(Path::new(""));
        for (i, line) in text.lines().enumerate() {
            let entry = line.trim();
            if entry.is_empty() || entry.starts_with('#') {
                continue;
            }
            let path = dir.join(entry);
            if path.is_dir() {
                self.dir(&path, entry.trim_end_matches('/'))?;
            } else if !path.exists() {
                bail!(
                    "{}:{}: {}: no such file",
                    list.display(),
                    i + 1,
                    path.display()
                );
            } else if file_type(&path).is_some() {
                self.file(&path, entry)?;
            } else {
                bail!(
                    "{}:{}: {entry}: not a task file (expected .c, .i, .yml, .cnf, .spec, .dimspec, .aag or .aig)",
                    list.display(),
                    i + 1
                );
            }
        }
        Ok(())
    }

    fn dir(&mut self, dir: &Path, name: &str) -> anyhow::Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read the directory {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        // C files that a task file of this directory names are run through the task file.
        let mut named = HashSet::new();
        for p in entries
            .iter()
            .filter(|p| file_type(p) == Some(FileType::Yml))
        {
            if let Ok(y) = read_yml(p) {
                named.extend(y.inputs.iter().map(|i| dir.join(i)));
            }
        }
        for p in entries {
            let Some(file_name) = p.file_name().map(|n| n.to_string_lossy().into_owned()) else {
                continue;
            };
            if file_name.starts_with('.') {
                continue;
            }
            let child = if name.is_empty() {
                file_name.clone()
            } else {
                format!("{name}/{file_name}")
            };
            if p.is_dir() {
                self.dir(&p, &child)?;
            } else if let Some(t) = file_type(&p) {
                if t == FileType::C && named.contains(&p) {
                    continue;
                }
                self.file(&p, &child)?;
            }
        }
        Ok(())
    }

    fn file(&mut self, path: &Path, name: &str) -> anyhow::Result<()> {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if !self.seen.insert(key) {
            return Ok(());
        }
        match file_type(path) {
            Some(FileType::C) => self.c_file(path, name),
            Some(FileType::Yml) => self.yml_file(path, name),
            Some(FileType::System) => self.system_file(path, name),
            None => Ok(()),
        }
    }

    fn c_file(&mut self, path: &Path, name: &str) -> anyhow::Result<()> {
        let text =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let header = match parse_c_header(&String::from_utf8_lossy(&text)) {
            Ok(Some(h)) => h,
            Ok(None) => {
                self.note(format!("{name}: skipped (no `// expect:` header)"));
                return Ok(());
            }
            Err(e) => {
                self.note(format!("{name}: skipped ({e})"));
                return Ok(());
            }
        };
        if header.error {
            self.push(
                name,
                path,
                Kind::Verify,
                Some("unreach-call"),
                Expected::Error,
                Expected::Error,
            );
            return Ok(());
        }
        for (prop, &holds) in &header.ilp32 {
            let lp64 = header.lp64.get(prop).copied().unwrap_or(holds);
            self.push(
                name,
                path,
                Kind::Verify,
                Some(prop),
                holds.into(),
                lp64.into(),
            );
        }
        Ok(())
    }

    fn yml_file(&mut self, path: &Path, name: &str) -> anyhow::Result<()> {
        let y = match read_yml(path) {
            Ok(y) => y,
            Err(e) => {
                self.note(format!("{name}: skipped ({e:#})"));
                return Ok(());
            }
        };
        let mut skipped = Vec::new();
        for (prop, expected) in y.properties {
            if YML_PROPERTIES.contains(&prop.as_str()) {
                self.push(name, path, Kind::Verify, Some(&prop), expected, expected);
            } else {
                skipped.push(prop);
            }
        }
        if !skipped.is_empty() {
            self.note(format!(
                "{name}: properties not supported, skipped: {}",
                skipped.join(", ")
            ));
        }
        Ok(())
    }

    fn system_file(&mut self, path: &Path, name: &str) -> anyhow::Result<()> {
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let table = self
            .expected
            .entry(dir.clone())
            .or_insert_with(|| ExpectedTable::read(&dir.join("EXPECTED.tsv")));
        let expected = match (table, path.file_name()) {
            (Some(t), Some(f)) => t.get(&f.to_string_lossy()),
            _ => Expected::Unknown,
        };
        self.push(name, path, Kind::Solve, None, expected, expected);
        Ok(())
    }

    fn push(
        &mut self,
        name: &str,
        path: &Path,
        kind: Kind,
        prop: Option<&str>,
        e: Expected,
        e64: Expected,
    ) {
        self.out.tasks.push(Task {
            name: name.to_string(),
            path: path.to_path_buf(),
            kind,
            property: prop.map(String::from),
            expected: e,
            expected_lp64: e64,
        });
    }

    fn note(&mut self, note: String) {
        self.out.notes.push(note);
    }
}

impl From<bool> for Expected {
    fn from(holds: bool) -> Expected {
        if holds {
            Expected::Holds
        } else {
            Expected::Violated
        }
    }
}

/// The expectations of a C file's `// expect:` header.
#[derive(Debug, Default, PartialEq)]
pub struct CHeader {
    /// property → holds, under ILP32 (sorted by property name).
    pub ilp32: BTreeMap<String, bool>,
    /// The properties whose expectation differs under LP64.
    pub lp64: BTreeMap<String, bool>,
    /// `error=unsupported`: the run must end with the input-error exit code.
    pub error: bool,
}

/// Parse the `//` header of a C file; `None` when it has no `expect:` line.
pub fn parse_c_header(text: &str) -> Result<Option<CHeader>, String> {
    let mut h = CHeader::default();
    let mut found = false;
    for line in text.lines() {
        let Some(comment) = line.trim_start().strip_prefix("//") else {
            break;
        };
        let comment = comment.trim();
        let (target, rest) = if let Some(r) = comment.strip_prefix("expect:") {
            (&mut h.ilp32, r)
        } else if let Some(r) = comment.strip_prefix("expect(lp64):") {
            (&mut h.lp64, r)
        } else {
            continue;
        };
        found = true;
        for item in rest.split_whitespace() {
            let Some((prop, value)) = item.split_once('=') else {
                return Err(format!("malformed expectation `{item}`"));
            };
            match (prop, value) {
                ("error", "unsupported") => h.error = true,
                (_, "true") => {
                    target.insert(prop.to_string(), true);
                }
                (_, "false") => {
                    target.insert(prop.to_string(), false);
                }
                _ => return Err(format!("malformed expectation `{item}`")),
            }
        }
    }
    if !found {
        return Ok(None);
    }
    if !h.error && h.ilp32.is_empty() {
        return Err("an `expect:` header without properties".into());
    }
    Ok(Some(h))
}

/// What bench needs from an SV-COMP task file.
#[derive(Debug, Default)]
pub struct YmlTask {
    /// The input files (relative to the task file's directory).
    pub inputs: Vec<String>,
    /// (property name from the property file's stem, expected verdict), in the order listed.
    pub properties: Vec<(String, Expected)>,
}

/// Read an SV-COMP task file (format 2.0).
pub fn read_yml(path: &Path) -> anyhow::Result<YmlTask> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_yml(&text)
}

/// Parse the text of an SV-COMP task file.
pub fn parse_yml(text: &str) -> anyhow::Result<YmlTask> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| anyhow::anyhow!("invalid YAML: {e}"))?;
    let Some(doc) = docs.first() else {
        bail!("an empty task file")
    };
    let mut t = YmlTask::default();
    match &doc["input_files"] {
        Yaml::String(s) => t.inputs.push(s.clone()),
        Yaml::Array(a) => t
            .inputs
            .extend(a.iter().filter_map(|y| y.as_str().map(String::from))),
        _ => bail!("no `input_files`"),
    }
    let Some(props) = doc["properties"].as_vec() else {
        bail!("no `properties` list")
    };
    for p in props {
        let Some(file) = p["property_file"].as_str() else {
            bail!("a property without `property_file`")
        };
        let stem = Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let expected = match &p["expected_verdict"] {
            Yaml::Boolean(b) => Expected::from(*b),
            Yaml::String(s) if s == "true" => Expected::Holds,
            Yaml::String(s) if s == "false" || s.starts_with("false(") => Expected::Violated,
            _ => Expected::Unknown,
        };
        t.properties.push((stem, expected));
    }
    Ok(t)
}

/// The expected verdicts of an `EXPECTED.tsv`: a `file` column and either `goal_reachable`
/// (`yes`/`no`, DimSpec) or `verdict` (`unsafe`/`safe`, AIGER).
#[derive(Debug, Default)]
pub struct ExpectedTable {
    rows: HashMap<String, Expected>,
}

impl ExpectedTable {
    /// Read the table; `None` when the file is absent or has neither column.
    pub fn read(path: &Path) -> Option<ExpectedTable> {
        ExpectedTable::parse(&std::fs::read_to_string(path).ok()?)
    }

    pub fn parse(text: &str) -> Option<ExpectedTable> {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next()?.split('\t').map(str::trim).collect();
        let file = header.iter().position(|&c| c == "file")?;
        let reach = header.iter().position(|&c| c == "goal_reachable");
        let verdict = header.iter().position(|&c| c == "verdict");
        let mut rows = HashMap::new();
        for line in lines {
            let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
            let Some(name) = cols.get(file) else { continue };
            let value =
                |i: Option<usize>| i.and_then(|i| cols.get(i)).map(|v| v.to_ascii_lowercase());
            let e = match (value(reach).as_deref(), value(verdict).as_deref()) {
                (Some("yes"), _) | (_, Some("unsafe")) => Expected::Violated,
                (Some("no"), _) | (_, Some("safe")) => Expected::Holds,
                _ => Expected::Unknown,
            };
            rows.insert(name.to_string(), e);
        }
        (reach.is_some() || verdict.is_some()).then_some(ExpectedTable { rows })
    }

    pub fn get(&self, file: &str) -> Expected {
        self.rows.get(file).copied().unwrap_or(Expected::Unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_header_with_lp64_overrides() {
        let h = parse_c_header(
            "// expect: unreach-call=false no-overflow=true\n// expect(lp64): unreach-call=true\n// text\nint main() {}\n// expect: valid-index=false\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(h.ilp32.len(), 2);
        assert!(!h.ilp32["unreach-call"]);
        assert!(h.lp64["unreach-call"]);
        assert!(!h.error);
    }

    #[test]
    fn c_header_error_and_absent() {
        let h = parse_c_header("// expect: error=unsupported\n// error-contains: float\n")
            .unwrap()
            .unwrap();
        assert!(h.error);
        assert_eq!(
            parse_c_header("int main() {}\n// expect: unreach-call=true\n").unwrap(),
            None
        );
        assert!(parse_c_header("// expect: unreach-call=maybe\n").is_err());
    }

    #[test]
    fn yml_task() {
        let t = parse_yml(
            "format_version: '2.0'\ninput_files: 'a.i'\nproperties:\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/coverage-branches.prp\n",
        )
        .unwrap();
        assert_eq!(t.inputs, ["a.i"]);
        assert_eq!(
            t.properties,
            [
                ("no-overflow".to_string(), Expected::Holds),
                ("unreach-call".to_string(), Expected::Violated),
                ("coverage-branches".to_string(), Expected::Unknown)
            ]
        );
        assert!(parse_yml("properties: []\n").is_err());
    }

    #[test]
    fn expected_tables() {
        let d = ExpectedTable::parse(
            "file\tgoal_reachable\tnote\na.spec\tyes\tx\nb.spec\tno\nc.spec\t-\n",
        )
        .unwrap();
        assert_eq!(d.get("a.spec"), Expected::Violated);
        assert_eq!(d.get("b.spec"), Expected::Holds);
        assert_eq!(d.get("c.spec"), Expected::Unknown);
        assert_eq!(d.get("z.spec"), Expected::Unknown);
        let a = ExpectedTable::parse("file\tverdict\na.aig\tunsafe\nb.aig\tsafe\n").unwrap();
        assert_eq!(a.get("a.aig"), Expected::Violated);
        assert_eq!(a.get("b.aig"), Expected::Holds);
        assert!(ExpectedTable::parse("file\tother\n").is_none());
    }
}
