//! The command-line side of the engines' option tables ([`bitmc::engine::optable`]): the flags
//! of the options that have one, as clap arguments under "Tuning (ENGINE)" (`--no-NAME` for a
//! switch on by default, `--NAME` for one off by default, `--NAME N` for a number), and the
//! help text of `--member`, which lists every engine's options.

use bitmc::engine::optable::{Field, Opt, OptionTable};
use bitmc::engine::portfolio::DEFAULT_MEMBERS;
use bitmc::engine::EngineKind;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

/// The options of one engine as its command-line flags give them (the defaults for the
/// options without a flag).
#[derive(Debug, Clone)]
pub struct Flags<T>(pub T);

/// The flag of `opt`: `no-NAME` for a switch on by default, else `NAME`.
fn flag_name<T: OptionTable>(opt: &Opt<T>) -> String {
    if opt.is_switch() && opt.get(&mut T::default()) == 1 {
        format!("no-{}", opt.name)
    } else {
        opt.name.to_string()
    }
}

/// The options of `T` that have a flag, with its help text.
fn flagged<T: OptionTable>() -> impl Iterator<Item = (&'static Opt<T>, &'static str)> {
    T::OPTIONS
        .iter()
        .filter_map(|opt| opt.flag.map(|help| (opt, help)))
}

impl<T: OptionTable> Args for Flags<T> {
    fn augment_args(cmd: Command) -> Command {
        let heading = format!("Tuning ({})", T::ENGINE);
        flagged::<T>().fold(cmd, |cmd, (opt, help)| {
            let name = flag_name(opt);
            let arg = Arg::new(name.clone())
                .long(name)
                .help(help)
                .help_heading(heading.clone());
            cmd.arg(match opt.field {
                Field::Switch(_) => arg.action(ArgAction::SetTrue),
                Field::Number(_) => arg
                    .value_name("N")
                    .value_parser(clap::value_parser!(usize))
                    .default_value(opt.get(&mut T::default()).to_string()),
            })
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<T: OptionTable> FromArgMatches for Flags<T> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut o = T::default();
        for (opt, _) in flagged::<T>() {
            let name = flag_name(opt);
            match opt.field {
                Field::Switch(f) => {
                    if m.get_flag(&name) {
                        let v = f(&mut o);
                        *v = !*v;
                    }
                }
                Field::Number(f) => {
                    if let Some(&n) = m.get_one::<usize>(&name) {
                        *f(&mut o) = n;
                    }
                }
            }
        }
        Ok(Flags(o))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The long help of `--member`: the spelling, every engine's options, the default members.
pub fn member_help() -> String {
    let mut text = String::from(
        "A portfolio member, ENGINE[:SOLVER][:OPTION...]; repeat for several.\n\n\
         E.g. pdr:cadical, kind:batsat, pdr:cadical:no-ctg:ctg-max=5. The options of each \
         engine are switches, NAME to turn one on and no-NAME to turn it off, and numbers, \
         NAME=N:",
    );
    for &e in EngineKind::ALL {
        text += &format!("\n\n{}: {}.", e.name(), e.describe_options());
    }
    text += &format!(
        "\n\nThe default set is {} (without ic3cfa and euf for DimSpec and AIGER inputs; euf:cadical:only-abstract joins the race only on a program with something to abstract).",
        DEFAULT_MEMBERS.join(", ")
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitmc::engine::pdr::PdrOptions;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        pdr: Flags<PdrOptions>,
    }

    fn parse(args: &[&str]) -> PdrOptions {
        use clap::Parser;
        let mut argv = vec!["bitmc"];
        argv.extend(args);
        Cli::try_parse_from(argv).expect("parses").pdr.0
    }

    #[test]
    fn flags_set_the_options_their_table_names() {
        assert_eq!(parse(&[]), PdrOptions::default());
        let o = parse(&["--no-ctg", "--ctg-max", "5", "--recycle", "0", "--no-cones"]);
        assert_eq!(
            o,
            PdrOptions {
                ctg: false,
                ctg_max: 5,
                recycle: 0,
                cones: false,
                ..PdrOptions::default()
            }
        );
        // Every flag is the member spelling of the same option.
        let mut m = PdrOptions::default();
        for s in ["no-ctg", "ctg-max=5", "recycle=0", "no-cones"] {
            bitmc::engine::optable::set(&mut m, s).unwrap();
        }
        assert_eq!(m, o);
    }

    #[test]
    fn the_member_help_lists_every_option() {
        let help = member_help();
        for name in [
            "window-from=N",
            "forward (",
            "ctg-max=N",
            "push-filter (",
            "baseline (",
        ] {
            assert!(help.contains(name), "{name}: {help}");
        }
    }
}
