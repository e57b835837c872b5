//! The gcc oracle: generated programs compiled with the fixtures' harness
//! (`fixtures/harness/harness.c`, contract in `fixtures/README.md`) for LP64 and, with `-m32`,
//! ILP32, and run on nondet sequences (`BITMC_NONDET`; exit 100 normal end, 101 error reached,
//! 102 failed assume, 103 sequence exhausted).
//!
//! The harness is compiled once per data model. Under `CI=true` a missing gcc or a `-m32` that
//! cannot link is a failure (a panic); otherwise the data models that work are used and the
//! others are skipped with a message.

use bitmc::cfa::DataModel;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const EXIT_NORMAL: i32 = 100;
pub const EXIT_ERROR: i32 = 101;

/// gcc with the harness compiled for each data model that works.
pub struct Gcc {
    dir: PathBuf,
    harness: Vec<(DataModel, PathBuf)>,
}

impl Gcc {
    /// gcc in `dir` (created); `None` when no data model works outside CI (a message says
    /// why). Panics under `CI=true` unless both work.
    pub fn new(dir: &Path) -> Option<Gcc> {
        std::fs::create_dir_all(dir).expect("temporary directory");
        let mut harness = Vec::new();
        for dm in [DataModel::Lp64, DataModel::Ilp32] {
            let obj = dir.join(format!("harness-{}.o", dm.name()));
            let out = Command::new("gcc")
                .args(crate::common::gcc_flags(dm))
                .arg("-c")
                .arg(crate::common::harness())
                .arg("-o")
                .arg(&obj)
                .output();
            let why = match out {
                Err(e) => format!("gcc cannot be run ({e})"),
                Ok(o) if !o.status.success() => {
                    format!(
                        "gcc cannot compile the harness: {}",
                        String::from_utf8_lossy(&o.stderr)
                    )
                }
                Ok(_) => {
                    // Linking is what fails without 32-bit libraries.
                    let probe = dir.join(format!("probe-{}", dm.name()));
                    let src = dir.join("probe.c");
                    std::fs::write(&src, "int main(void) { return 0; }\n").expect("probe written");
                    match Command::new("gcc")
                        .args(crate::common::gcc_flags(dm))
                        .arg(&src)
                        .arg(&obj)
                        .arg("-o")
                        .arg(&probe)
                        .output()
                    {
                        Ok(o) if o.status.success() => {
                            harness.push((dm, obj));
                            continue;
                        }
                        Ok(o) => format!("gcc cannot link: {}", String::from_utf8_lossy(&o.stderr)),
                        Err(e) => format!("gcc cannot be run ({e})"),
                    }
                }
            };
            assert!(
                !crate::common::under_ci(),
                "CI=true but the gcc oracle does not work for {dm}: {why}"
            );
            eprintln!("SKIPPED {dm}: {why}");
        }
        (!harness.is_empty()).then(|| Gcc {
            dir: dir.to_path_buf(),
            harness,
        })
    }

    /// The data models gcc works for.
    pub fn models(&self) -> Vec<DataModel> {
        self.harness.iter().map(|(dm, _)| *dm).collect()
    }

    /// Compiles `src` (named `name`) for `dm`; the binary's path, or gcc's complaint.
    pub fn build(&self, name: &str, src: &str, dm: DataModel) -> Result<PathBuf, String> {
        let obj = &self
            .harness
            .iter()
            .find(|(d, _)| *d == dm)
            .expect("a working data model")
            .1;
        let file = self.dir.join(format!("{name}.c"));
        std::fs::write(&file, src).map_err(|e| e.to_string())?;
        let bin = self.dir.join(name);
        let o = Command::new("gcc")
            .args(crate::common::gcc_flags(dm))
            .arg(&file)
            .arg(obj)
            .arg("-o")
            .arg(&bin)
            .output()
            .map_err(|e| e.to_string())?;
        if o.status.success() {
            Ok(bin)
        } else {
            Err(String::from_utf8_lossy(&o.stderr).into_owned())
        }
    }

    /// Removes what `build` wrote for `name`.
    pub fn clean(&self, name: &str) {
        let _ = std::fs::remove_file(self.dir.join(name));
        let _ = std::fs::remove_file(self.dir.join(format!("{name}.c")));
    }
}

/// Runs a compiled program on a nondet sequence: its exit code (`None` if killed by a signal).
pub fn run(bin: &Path, seq: &[u64]) -> Option<i32> {
    let list: Vec<String> = seq.iter().map(|v| v.to_string()).collect();
    Command::new(bin)
        .env("BITMC_NONDET", list.join(","))
        .output()
        .ok()
        .and_then(|o| o.status.code())
}
