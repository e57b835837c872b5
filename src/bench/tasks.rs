//! Task discovery for `bitmc bench`: which files are tasks, how each one is run, and what its
//! expected result is.
//!
//! - A C file (`.c`, `.i`) with a `// expect: p=true|false|unknown …` header
//!   ([`bitmc::task::header`], the header the fixtures and tests read) is one `verify` task per
//!   property it names; `// expect(lp64): …` overrides the expectations under LP64,
//!   `p=unknown` expects UNKNOWN (a violation only after undefined behaviour), and
//!   `// expect: error=unsupported` makes one task whose expected result is the error exit.
//! - An SV-COMP task file (`.yml`, `.yaml`, read by [`bitmc::task::read_task`]) is one `verify`
//!   task per property it lists that bitmc checks; the others are skipped with a note.
//! - A DimSpec (`.cnf`, `.spec`, `.dimspec`) or AIGER (`.aag`, `.aig`) file is one `solve` task;
//!   its expected verdict comes from an `EXPECTED.tsv` in its directory when there is one.
//!
//! A directory is searched recursively (in name order); a C file that an adjacent task file
//! names as its input is run through the task file only. A list file names one task (or
//! directory) per line, relative to the list's directory; `#` starts a comment line.

use anyhow::{bail, Context};
use bitmc::cfa::DataModel;
use bitmc::task::header::{Expectation, Header};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

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
    /// The property is violated only after undefined behaviour: the answer must be UNKNOWN.
    Undefined,
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
            (Expected::Undefined, _) => "UNKNOWN".into(),
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
            if let Ok(t) = bitmc::task::read_task(p) {
                named.insert(t.input);
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
        let header = match Header::parse(&String::from_utf8_lossy(&text)) {
            Ok(h) if h.has_expectations() => h,
            Ok(_) => {
                self.note(format!("{name}: skipped (no `// expect:` header)"));
                return Ok(());
            }
            Err(e) => {
                self.note(format!("{name}: skipped ({e})"));
                return Ok(());
            }
        };
        if header.unsupported {
            let (e, unreach) = (Expected::Error, Some("unreach-call"));
            self.push(name, path, Kind::Verify, unreach, e, e);
            return Ok(());
        }
        for p in header.properties() {
            let under = |dm| Expected::from(header.expectation(p, dm));
            let (e, e64) = (under(DataModel::Ilp32), under(DataModel::Lp64));
            self.push(name, path, Kind::Verify, Some(p.name()), e, e64);
        }
        Ok(())
    }

    fn yml_file(&mut self, path: &Path, name: &str) -> anyhow::Result<()> {
        let t = match bitmc::task::read_task(path) {
            Ok(t) => t,
            Err(e) => {
                self.note(format!("{name}: skipped ({e})"));
                return Ok(());
            }
        };
        let mut skipped = Vec::new();
        for p in t.properties {
            if p.property.is_some() {
                let e = p.expected.map_or(Expected::Unknown, Expected::from);
                self.push(name, path, Kind::Verify, Some(&p.name), e, e);
            } else {
                skipped.push(p.name);
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

impl From<Option<Expectation>> for Expected {
    fn from(e: Option<Expectation>) -> Expected {
        match e {
            Some(Expectation::Holds) => Expected::Holds,
            Some(Expectation::Violated) => Expected::Violated,
            Some(Expectation::Undefined) => Expected::Undefined,
            None => Expected::Unknown,
        }
    }
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

    /// The tasks of a directory: a C file's header through the library's reader (`unknown`
    /// and LP64 overrides included), a task file through the library's task reader (its C
    /// input not run again, a property bitmc does not check skipped), a system file.
    #[test]
    fn discovers_the_tasks_of_a_directory() {
        let dir = std::env::temp_dir().join(format!("bitmc-bench-tasks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |f: &str, t: &str| std::fs::write(dir.join(f), t).unwrap();
        write(
            "a.c",
            "// expect: unreach-call=false no-overflow=unknown\n// expect(lp64): unreach-call=true\nint main(void) { return 0; }\n",
        );
        write("b.i", "int main(void) { return 0; }\n");
        write(
            "b.yml",
            "format_version: '2.0'\ninput_files: 'b.i'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n  - property_file: ../properties/coverage-branches.prp\n",
        );
        write("c.c", "int main(void) { return 0; }\n");
        write(
            "d.c",
            "// expect: unreach-call=maybe\nint main(void) { return 0; }\n",
        );
        let d = discover(std::slice::from_ref(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        let got: Vec<(String, Option<String>, Expected, Expected)> = d
            .tasks
            .iter()
            .map(|t| {
                let name = t.name.rsplit('/').next().unwrap_or_default().to_string();
                (name, t.property.clone(), t.expected, t.expected_lp64)
            })
            .collect();
        let t = |n: &str, p: &str, e, e64| (n.to_string(), Some(p.to_string()), e, e64);
        use Expected::*;
        assert_eq!(
            got,
            [
                t("a.c", "unreach-call", Violated, Holds),
                t("a.c", "no-overflow", Undefined, Undefined),
                t("b.yml", "unreach-call", Holds, Holds),
            ]
        );
        let notes = d.notes.join("\n");
        assert!(notes.contains("coverage-branches"), "{notes}");
        assert!(
            notes.contains("c.c: skipped (no `// expect:` header)"),
            "{notes}"
        );
        assert!(
            notes.contains("d.c: skipped") && notes.contains("maybe"),
            "{notes}"
        );
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
