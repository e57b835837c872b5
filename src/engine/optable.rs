//! Option tables: each engine's options are listed once, as a table of named switches and
//! numbers ([`OptionTable`]), after CaDiCaL's option list. From the table come
//!
//! - the spelling in a portfolio member (`ENGINE:BACKEND:OPTION…`, see
//!   [`portfolio::Member`](super::portfolio::Member)): `NAME` and `no-NAME` for a switch,
//!   `NAME=N` for a number, and the engine's presets (IC3CFA's `baseline` and `all`), read by
//!   [`set`] and written back by [`changes`];
//! - the command-line flags of the options that have one (`Opt::flag`, built by the CLI): a
//!   switch that is on by default is turned off by `--no-NAME`, one that is off turned on by
//!   `--NAME`; a number is `--NAME N`;
//! - the help texts of both ([`describe`] for the member spelling);
//! - the configurations an ablation runs ([`ablation`]).

use std::fmt::Write as _;

/// Where an option's value lives in its engine's options.
pub enum Field<O> {
    /// On or off.
    Switch(fn(&mut O) -> &mut bool),
    /// A number.
    Number(fn(&mut O) -> &mut usize),
}

/// One option of an engine.
pub struct Opt<O> {
    /// Its name in a member (`NAME`, `no-NAME`, `NAME=N`) and, for a number, on the command line.
    pub name: &'static str,
    /// What it does, in a few words, for the help text of members.
    pub doc: &'static str,
    /// The help text of its command-line flag, when it has one (one sentence, without a
    /// final period, as clap shows it).
    pub flag: Option<&'static str>,
    pub field: Field<O>,
}

/// A named set of values (e.g. IC3CFA's `baseline`): its name, what it does, and how.
pub struct Preset<O> {
    pub name: &'static str,
    pub doc: &'static str,
    pub apply: fn(&mut O),
}

/// The options of one engine, with their defaults (`Default`) and their table.
pub trait OptionTable: Clone + Default + PartialEq + 'static {
    /// The engine's name in messages and help texts (e.g. `PDR`).
    const ENGINE: &'static str;
    /// The options, in the order of the help texts.
    const OPTIONS: &'static [Opt<Self>];
    /// The presets, tried before the options.
    const PRESETS: &'static [Preset<Self>] = &[];
}

/// An option a table does not know, or a number that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown {engine} option `{option}` ({spelling})")]
    Unknown {
        engine: &'static str,
        option: String,
        spelling: String,
    },
    #[error("`{option}` needs a number")]
    NotANumber { option: String },
}

impl<O> Opt<O> {
    /// A switch without a command-line flag.
    pub const fn switch(
        name: &'static str,
        doc: &'static str,
        field: fn(&mut O) -> &mut bool,
    ) -> Opt<O> {
        Opt {
            name,
            doc,
            flag: None,
            field: Field::Switch(field),
        }
    }

    /// A number without a command-line flag.
    pub const fn number(
        name: &'static str,
        doc: &'static str,
        field: fn(&mut O) -> &mut usize,
    ) -> Opt<O> {
        Opt {
            name,
            doc,
            flag: None,
            field: Field::Number(field),
        }
    }

    /// The option with a command-line flag whose help text is `help`.
    pub const fn flag(self, help: &'static str) -> Opt<O> {
        Opt {
            flag: Some(help),
            ..self
        }
    }

    /// The option's value in `o`: a switch as 0 or 1.
    pub fn get(&self, o: &mut O) -> usize {
        match self.field {
            Field::Switch(f) => *f(o) as usize,
            Field::Number(f) => *f(o),
        }
    }

    /// Whether it is a switch.
    pub fn is_switch(&self) -> bool {
        matches!(self.field, Field::Switch(_))
    }
}

/// Applies one option (`NAME`, `no-NAME`, `NAME=N` or a preset's name) to `o`.
pub fn set<T: OptionTable>(o: &mut T, option: &str) -> Result<(), OptionError> {
    if let Some(p) = T::PRESETS.iter().find(|p| p.name == option) {
        (p.apply)(o);
        return Ok(());
    }
    let (key, val) = option.split_once('=').unwrap_or((option, ""));
    let number = T::OPTIONS.iter().find_map(|opt| match opt.field {
        Field::Number(f) if opt.name == key => Some(f),
        _ => None,
    });
    if let Some(field) = number {
        *field(o) = val.parse::<usize>().map_err(|_| OptionError::NotANumber {
            option: option.to_string(),
        })?;
        return Ok(());
    }
    let (name, on) = match key.strip_prefix("no-") {
        Some(rest) => (rest, false),
        None => (key, true),
    };
    let switch = T::OPTIONS.iter().find_map(|opt| match opt.field {
        Field::Switch(f) if opt.name == name && val.is_empty() => Some(f),
        _ => None,
    });
    match switch {
        Some(field) => {
            *field(o) = on;
            Ok(())
        }
        None => Err(OptionError::Unknown {
            engine: T::ENGINE,
            option: option.to_string(),
            spelling: spelling::<T>(),
        }),
    }
}

/// The options of `o` that differ from the defaults, each as `:OPTION` (switches first, then
/// numbers, each in table order), so that [`set`] on each gives `o` back.
pub fn changes<T: OptionTable>(o: &T) -> String {
    let (mut me, mut d) = (o.clone(), T::default());
    let mut out = String::new();
    for switches in [true, false] {
        for opt in T::OPTIONS.iter().filter(|opt| opt.is_switch() == switches) {
            let v = opt.get(&mut me);
            if v == opt.get(&mut d) {
                continue;
            }
            let _ = match opt.field {
                Field::Switch(_) => write!(out, ":{}{}", if v == 1 { "" } else { "no-" }, opt.name),
                Field::Number(_) => write!(out, ":{}={v}", opt.name),
            };
        }
    }
    out
}

/// The names of the presets and options, for error messages: `baseline, [no-]push, ctg-max=N`.
pub fn spelling<T: OptionTable>() -> String {
    let mut words: Vec<String> = T::PRESETS.iter().map(|p| p.name.to_string()).collect();
    for switches in [true, false] {
        for opt in T::OPTIONS.iter().filter(|opt| opt.is_switch() == switches) {
            words.push(match opt.field {
                Field::Switch(_) => format!("[no-]{}", opt.name),
                Field::Number(_) => format!("{}=N", opt.name),
            });
        }
    }
    words.join(", ")
}

/// The options with what they do, for the help text of members: `NAME (doc, on by default)`,
/// `NAME=N (doc, default D)`, then the presets.
pub fn describe<T: OptionTable>() -> String {
    let d = T::default();
    let mut words = Vec::new();
    for opt in T::OPTIONS {
        let v = opt.get(&mut d.clone());
        words.push(match opt.field {
            Field::Switch(_) => {
                let state = if v == 1 { "on" } else { "off" };
                format!("{} ({}; {state} by default)", opt.name, opt.doc)
            }
            Field::Number(_) => format!("{}=N ({}; default {v})", opt.name, opt.doc),
        });
    }
    for p in T::PRESETS {
        words.push(format!("{} ({})", p.name, p.doc));
    }
    words.join(", ")
}

/// The option lists of an ablation: the defaults (an empty list), each switch turned the
/// other way alone, then each preset, as `OPTION[:OPTION…]` for a member's tail.
pub fn ablation<T: OptionTable>() -> Vec<String> {
    let mut d = T::default();
    let mut out = vec![String::new()];
    for opt in T::OPTIONS.iter().filter(|opt| opt.is_switch()) {
        let on = opt.get(&mut d) == 1;
        out.push(format!("{}{}", if on { "no-" } else { "" }, opt.name));
    }
    out.extend(T::PRESETS.iter().map(|p| p.name.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Toy {
        fast: bool,
        slow: bool,
        depth: usize,
    }

    impl Default for Toy {
        fn default() -> Toy {
            Toy {
                fast: true,
                slow: false,
                depth: 3,
            }
        }
    }

    impl OptionTable for Toy {
        const ENGINE: &'static str = "toy";
        const OPTIONS: &'static [Opt<Toy>] = &[
            Opt::switch("fast", "go fast", |o| &mut o.fast),
            Opt::number("depth", "how deep", |o| &mut o.depth),
            Opt::switch("slow", "go slow", |o| &mut o.slow),
        ];
        const PRESETS: &'static [Preset<Toy>] = &[Preset {
            name: "none",
            doc: "every switch off",
            apply: |o| {
                o.fast = false;
                o.slow = false;
            },
        }];
    }

    #[test]
    fn options_are_read_and_written_back() {
        let mut o = Toy::default();
        for p in ["depth=5", "slow", "no-fast"] {
            set(&mut o, p).unwrap();
        }
        assert_eq!((o.fast, o.slow, o.depth), (false, true, 5));
        assert_eq!(changes(&o), ":no-fast:slow:depth=5");
        let mut again = Toy::default();
        for p in changes(&o).split(':').skip(1) {
            set(&mut again, p).unwrap();
        }
        assert_eq!(again, o);
        assert_eq!(changes(&Toy::default()), "");
        set(&mut again, "none").unwrap();
        assert!(!again.fast && !again.slow);
    }

    #[test]
    fn wrong_options_are_errors() {
        let mut o = Toy::default();
        for bad in [
            "depth", "depth=x", "depth=-1", "no-depth", "fast=1", "no-such", "", "no-", "none=1",
        ] {
            assert!(set(&mut o, bad).is_err(), "{bad}");
        }
        assert_eq!(o, Toy::default());
        let e = set(&mut o, "quick").unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown toy option `quick` (none, [no-]fast, [no-]slow, depth=N)"
        );
    }

    #[test]
    fn an_ablation_turns_each_switch_the_other_way() {
        assert_eq!(ablation::<Toy>(), ["", "no-fast", "slow", "none"]);
        let text = describe::<Toy>();
        assert!(text.contains("fast (go fast; on by default)"), "{text}");
        assert!(text.contains("depth=N (how deep; default 3)"), "{text}");
    }
}
