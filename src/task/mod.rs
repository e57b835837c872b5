//! SV-COMP task definitions (`.yml`, format version 2.0): the input file, the properties with
//! their expected verdicts, and the data model.
//!
//! A property is identified from its `.prp` file: by its text when the file can be read
//! (`G ! call(reach_error())` is `unreach-call`, `G ! overflow` is `no-overflow`, …), otherwise
//! by the file name (`unreach-call.prp`). Properties bitmc does not check are kept with
//! `property: None`, so that callers can say which ones they skip.

use crate::cfa::{DataModel, Property};
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

pub mod header;

/// A property entry of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    /// The property file as written in the task.
    pub file: String,
    /// The name of the property (the file name without `.prp`, or from its text).
    pub name: String,
    /// The property, when bitmc checks it.
    pub property: Option<Property>,
    /// The expected verdict (`true`: the property holds), if given.
    pub expected: Option<bool>,
    /// The expected violated sub-property (e.g. `valid-deref`), if given.
    pub subproperty: Option<String>,
}

/// A verification task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task file.
    pub path: PathBuf,
    /// The program, resolved relative to the task file.
    pub input: PathBuf,
    pub properties: Vec<TaskProperty>,
    /// The data model, if the task gives one.
    pub data_model: Option<DataModel>,
}

/// Why a task file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not a valid YAML file: {msg}", path.display())]
    Yaml { path: PathBuf, msg: String },
    #[error("{}: {msg}", path.display())]
    Invalid { path: PathBuf, msg: String },
}

fn property_of_text(text: &str) -> Option<&'static str> {
    let t: String = text.split_whitespace().collect();
    if t.contains("G!call(reach_error()))") || t.contains("G!call(__VERIFIER_error()))") {
        Some("unreach-call")
    } else if t.contains("G!overflow") {
        Some("no-overflow")
    } else if t.contains("Fend") {
        Some("termination")
    } else if t.contains("Gvalid-") {
        Some("valid-memsafety")
    } else {
        None
    }
}

/// An SV-COMP property file (`.prp`) as a verifier is given it on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyFile {
    /// The property's name (from the text, or the file name without `.prp`).
    pub name: String,
    /// The property, when bitmc checks it.
    pub property: Option<Property>,
    /// The specification text (the file's `CHECK( … )` line), for witnesses.
    pub specification: String,
}

/// Read a property file.
pub fn read_property_file(path: &Path) -> Result<PropertyFile, TaskError> {
    let text = std::fs::read_to_string(path).map_err(|source| TaskError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let name = property_of_text(&text).map(str::to_string).unwrap_or(stem);
    let specification = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("CHECK"))
        .unwrap_or(text.trim())
        .to_string();
    Ok(PropertyFile {
        property: Property::from_name(&name),
        name,
        specification,
    })
}

/// Read a task file.
pub fn read_task(path: &Path) -> Result<Task, TaskError> {
    let text = std::fs::read_to_string(path).map_err(|e| TaskError::Io {
        path: path.into(),
        source: e,
    })?;
    let docs = YamlLoader::load_from_str(&text).map_err(|e| TaskError::Yaml {
        path: path.into(),
        msg: e.to_string(),
    })?;
    let invalid = |msg: &str| TaskError::Invalid {
        path: path.into(),
        msg: msg.to_string(),
    };
    let doc = docs.first().ok_or_else(|| invalid("the file is empty"))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let input = match &doc["input_files"] {
        Yaml::String(s) => s.clone(),
        Yaml::Array(a) => match a.as_slice() {
            [Yaml::String(s)] => s.clone(),
            [] => return Err(invalid("`input_files` is empty")),
            _ => return Err(invalid("tasks with several input files are not supported")),
        },
        _ => return Err(invalid("`input_files` is missing")),
    };
    let mut properties = Vec::new();
    if let Yaml::Array(ps) = &doc["properties"] {
        for p in ps {
            let Some(file) = p["property_file"].as_str() else {
                return Err(invalid("a property has no `property_file`"));
            };
            let stem = Path::new(file)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(file)
                .to_string();
            let from_text = std::fs::read_to_string(dir.join(file))
                .ok()
                .and_then(|t| property_of_text(&t));
            let name = from_text.map(str::to_string).unwrap_or(stem);
            let expected = p["expected_verdict"].as_bool();
            let subproperty = p["subproperty"].as_str().map(str::to_string);
            properties.push(TaskProperty {
                file: file.to_string(),
                property: Property::from_name(&name),
                name,
                expected,
                subproperty,
            });
        }
    }
    let data_model = match doc["options"]["data_model"].as_str() {
        Some(s) => Some(
            DataModel::from_name(s).ok_or_else(|| invalid(&format!("unknown data model `{s}`")))?,
        ),
        None => None,
    };
    Ok(Task {
        path: path.into(),
        input: dir.join(input),
        properties,
        data_model,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_task() {
        let dir = std::env::temp_dir().join(format!("bitmc-task-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("props")).unwrap();
        std::fs::write(
            dir.join("props/unreach-call.prp"),
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        )
        .unwrap();
        let yml = "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: props/unreach-call.prp\n    expected_verdict: false\n  - property_file: props/termination.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: LP64\n";
        std::fs::write(dir.join("t.yml"), yml).unwrap();
        let t = read_task(&dir.join("t.yml")).unwrap();
        assert_eq!(t.input, dir.join("prog.c"));
        assert_eq!(t.data_model, Some(DataModel::Lp64));
        assert_eq!(t.properties.len(), 2);
        assert_eq!(t.properties[0].property, Some(Property::UnreachCall));
        assert_eq!(t.properties[0].expected, Some(false));
        assert_eq!(t.properties[1].name, "termination");
        assert_eq!(t.properties[1].property, None);
        std::fs::write(dir.join("bad.yml"), "input_files: [\n").unwrap();
        assert!(matches!(
            read_task(&dir.join("bad.yml")),
            Err(TaskError::Yaml { .. })
        ));
        std::fs::write(dir.join("none.yml"), "properties: []\n").unwrap();
        assert!(matches!(
            read_task(&dir.join("none.yml")),
            Err(TaskError::Invalid { .. })
        ));
    }

    #[test]
    fn reads_a_property_file_by_its_text() {
        let dir = std::env::temp_dir().join(format!("bitmc-prp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // The file name says nothing: the text decides.
        let p = dir.join("spec.prp");
        std::fs::write(
            &p,
            "// a comment\nCHECK( init(main()), LTL(G ! overflow) )\n",
        )
        .unwrap();
        let f = read_property_file(&p).unwrap();
        assert_eq!(f.property, Some(Property::NoOverflow));
        assert_eq!(f.specification, "CHECK( init(main()), LTL(G ! overflow) )");
        let q = dir.join("termination.prp");
        std::fs::write(&q, "CHECK( init(main()), LTL(F end) )\n").unwrap();
        let g = read_property_file(&q).unwrap();
        assert_eq!((g.name.as_str(), g.property), ("termination", None));
        assert!(matches!(
            read_property_file(&dir.join("missing.prp")),
            Err(TaskError::Io { .. })
        ));
    }
}
