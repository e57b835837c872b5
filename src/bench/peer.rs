//! Peers: external tools measured as configurations of `bitmc bench`, on the same inputs and
//! under the same limits as bitmc's own configurations.
//!
//! A peer is a command with a placeholder for the file it reads: `{aiger}` (AIGER) or
//! `{dimspec}` (DimSpec). An AIGER or DimSpec task is given as it is (a task in the other format
//! is an error of that run); a C task is first exported by bitmc (`bitmc aiger` or
//! `bitmc dimspec` with the task's property, outside the time of the run) into the run's log
//! directory, so that a peer and `bitmc solve` can be compared on exactly the same file. The
//! peer's verdict is read from its standard output by two declared texts: SAFE when it contains
//! the safe text, UNSAFE when it contains the unsafe one (checked first), UNKNOWN otherwise
//! after exit code 0, an error after any other end.

use anyhow::bail;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The file format a peer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Aiger,
    Dimspec,
}

impl Format {
    fn placeholder(self) -> &'static str {
        match self {
            Format::Aiger => "{aiger}",
            Format::Dimspec => "{dimspec}",
        }
    }

    /// The bitmc subcommand that exports a C task in this format, and the file's extension.
    fn export(self) -> (&'static str, &'static str) {
        match self {
            Format::Aiger => ("aiger", "aig"),
            Format::Dimspec => ("dimspec", "cnf"),
        }
    }

    /// Whether a task file is in this format, by its extension.
    fn reads(self, path: &Path) -> bool {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match self {
            Format::Aiger => ext == "aig" || ext == "aag",
            Format::Dimspec => ext == "cnf" || ext == "spec" || ext == "dimspec",
        }
    }
}

/// An external tool run as a configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peer {
    /// The command, split like a shell would, with the placeholder in some words.
    pub argv: Vec<String>,
    pub format: Format,
    /// The text of its standard output that says the property holds.
    pub safe: String,
    /// The text that says it is violated.
    pub unsafe_text: String,
}

/// Built-in peers: name, command, safe text, unsafe text.
pub const PRESETS: &[(&str, &str, &str, &str)] = &[(
    // ABC's `pdr` ignores AIGER invariant constraints unless `fold` puts them into the
    // property first.
    "abc-pdr",
    "berkeley-abc -c 'read_aiger {aiger}; fold; pdr; print_status'",
    "Property proved",
    "was asserted",
)];

impl Peer {
    /// A peer from its command and texts; the command must name exactly one format.
    pub fn new(command: &str, safe: &str, unsafe_text: &str) -> anyhow::Result<Peer> {
        let Some(argv) = shlex::split(command) else {
            bail!("peer command `{command}`: unbalanced quotes or a trailing backslash");
        };
        if argv.is_empty() {
            bail!("peer command is empty");
        }
        let uses = |f: Format| argv.iter().any(|a| a.contains(f.placeholder()));
        let format = match (uses(Format::Aiger), uses(Format::Dimspec)) {
            (true, false) => Format::Aiger,
            (false, true) => Format::Dimspec,
            _ => bail!(
                "peer command `{command}`: it must contain exactly one of {{aiger}} and {{dimspec}}, where the file goes"
            ),
        };
        if safe.is_empty() || unsafe_text.is_empty() {
            bail!("peer command `{command}`: the safe and unsafe texts must not be empty");
        }
        Ok(Peer {
            argv,
            format,
            safe: safe.to_string(),
            unsafe_text: unsafe_text.to_string(),
        })
    }

    /// The built-in peer of that name, `None` when there is none (an error only if the
    /// built-in definition itself were invalid).
    pub fn preset(name: &str) -> Option<anyhow::Result<Peer>> {
        PRESETS
            .iter()
            .find(|p| p.0 == name)
            .map(|&(_, c, s, u)| Peer::new(c, s, u))
    }

    /// The file the peer reads for a task: the task's own file, or the path its export goes to
    /// (beside the run's logs) with the bitmc arguments that write it. An error when the task is
    /// in the other format.
    pub fn input(
        &self,
        task_path: &Path,
        is_c: bool,
        property: Option<&str>,
        log: &Path,
    ) -> Result<(PathBuf, Option<Vec<OsString>>), String> {
        if !is_c {
            if self.format.reads(task_path) {
                return Ok((task_path.to_path_buf(), None));
            }
            return Err(format!(
                "the peer reads {:?} files; {} is not one",
                self.format,
                task_path.display()
            ));
        }
        let (cmd, ext) = self.format.export();
        let mut file = log.as_os_str().to_owned();
        file.push(".");
        file.push(ext);
        let file = PathBuf::from(file);
        let mut args: Vec<OsString> = vec![cmd.into(), task_path.into()];
        if let Some(p) = property {
            args.push("--property".into());
            args.push(p.into());
        }
        args.push("-o".into());
        args.push(file.clone().into());
        Ok((file.clone(), Some(args)))
    }

    /// The program and arguments that run the peer on `file`.
    pub fn command(&self, file: &Path) -> (PathBuf, Vec<OsString>) {
        let file = file.to_string_lossy();
        let mut words = self
            .argv
            .iter()
            .map(|a| a.replace(self.format.placeholder(), &file));
        // `new` refuses an empty command; were it empty, starting the program fails with an
        // error of its own.
        let program = PathBuf::from(words.next().unwrap_or_default());
        (program, words.map(OsString::from).collect())
    }

    /// The verdict its standard output states: `Some(true)` safe, `Some(false)` unsafe.
    pub fn verdict(&self, stdout: &str) -> Option<bool> {
        if stdout.contains(&self.unsafe_text) {
            Some(false)
        } else if stdout.contains(&self.safe) {
            Some(true)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_name_one_format() {
        assert!(Peer::new("tool {aiger}", "ok", "bad").is_ok());
        assert_eq!(
            Peer::new("tool --in={dimspec}", "ok", "bad")
                .unwrap()
                .format,
            Format::Dimspec
        );
        assert!(Peer::new("tool file", "ok", "bad").is_err());
        assert!(Peer::new("tool {aiger} {dimspec}", "ok", "bad").is_err());
        assert!(Peer::new("tool {aiger}", "", "bad").is_err());
        assert!(Peer::new("tool '{aiger}", "ok", "bad").is_err());
        for (name, ..) in PRESETS {
            assert!(
                matches!(Peer::preset(name), Some(Ok(_))),
                "built-in peer {name}"
            );
        }
        assert!(Peer::preset("no-such-peer").is_none());
    }

    #[test]
    fn the_placeholder_is_replaced_inside_words() {
        let p = Peer::preset("abc-pdr").unwrap().unwrap();
        let (prog, args) = p.command(Path::new("/t/x.aig"));
        assert_eq!(prog, PathBuf::from("berkeley-abc"));
        assert_eq!(
            args,
            vec![
                OsString::from("-c"),
                OsString::from("read_aiger /t/x.aig; fold; pdr; print_status")
            ]
        );
    }

    #[test]
    fn verdicts_are_read_from_the_texts() {
        let p = Peer::preset("abc-pdr").unwrap().unwrap();
        assert_eq!(p.verdict("Property proved.  Time = 0.1 sec"), Some(true));
        assert_eq!(
            p.verdict("Output 0 of miter \"x\" was asserted in frame 3."),
            Some(false)
        );
        assert_eq!(p.verdict("Reached timeout"), None);
    }

    #[test]
    fn c_tasks_are_exported_and_others_given_as_they_are() {
        let p = Peer::preset("abc-pdr").unwrap().unwrap();
        let log = Path::new("/logs/abc/t.c.unreach-call");
        let (file, export) = p
            .input(Path::new("t.c"), true, Some("unreach-call"), log)
            .unwrap();
        assert_eq!(file, PathBuf::from("/logs/abc/t.c.unreach-call.aig"));
        let export = export.unwrap();
        assert_eq!(export[0], OsString::from("aiger"));
        assert!(export.contains(&OsString::from("unreach-call")));
        let (file, export) = p.input(Path::new("x.aag"), false, None, log).unwrap();
        assert_eq!((file, export), (PathBuf::from("x.aag"), None));
        assert!(p.input(Path::new("x.cnf"), false, None, log).is_err());
    }
}
