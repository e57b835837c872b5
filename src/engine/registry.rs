//! The engines, listed once.
//!
//! Each line of the [`engines!`] invocation below names an engine: its variant of
//! [`EngineKind`], its option table (which implements [`Engine`](super::Engine) and
//! [`OptionTable`]), its command-line name and one-line description, whether it needs a C
//! program's control-flow automaton, and the systems derived from the problem it prefers to run
//! on in a portfolio (the first of them that exists; the plain system otherwise). From that
//! list come `EngineKind` (names, descriptions, lookup), [`EngineOptions`] (an engine with its
//! options, and every dispatch over the tables), the `--engine` values and `--member` help of
//! the command line, and the ablations of `bitmc bench`. A new engine is its module and one
//! line here.

use super::bmc::BmcOptions;
use super::euf::EufOptions;
use super::ic3cfa::Ic3cfaOptions;
use super::kind::KindOptions;
use super::optable::{self, OptionError, OptionTable};
use super::pdr::PdrOptions;
use super::Engine;

/// A system derived from the problem that an engine may run on in a portfolio
/// (`portfolio::Systems` makes each on demand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derived {
    /// Constrained by proved candidate invariants (they strengthen an induction step).
    Constrained,
    /// The program with accelerated loops (steps may jump over many iterations).
    Accelerated,
    /// Preprocessed by SAT sweeping (verdicts carried back to the plain system).
    Preprocessed,
}

macro_rules! engines {
    ($($variant:ident($table:ty) = $name:literal, $about:literal,
       needs_program: $needs:literal, runs_on: [$($derived:ident),*];)+) => {
        /// An engine.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum EngineKind {
            $(#[doc = $about] $variant,)+
        }

        impl EngineKind {
            /// Every engine, in the order the command line lists them.
            pub const ALL: &'static [EngineKind] = &[$(EngineKind::$variant),+];

            /// The name used on the command line and in member strings.
            pub fn name(self) -> &'static str {
                match self {
                    $(EngineKind::$variant => $name,)+
                }
            }

            /// What the engine does, in one sentence without its full stop (`--engine` help).
            pub fn about(self) -> &'static str {
                match self {
                    $(EngineKind::$variant => $about,)+
                }
            }

            /// Whether the engine works on a program's control-flow automaton rather than on
            /// a bit-level system alone.
            pub fn needs_program(self) -> bool {
                match self {
                    $(EngineKind::$variant => $needs,)+
                }
            }

            /// The derived systems the engine runs on in a portfolio, by preference.
            pub fn runs_on(self) -> &'static [Derived] {
                match self {
                    $(EngineKind::$variant => &[$(Derived::$derived),*],)+
                }
            }

            /// The options of the engine with what they do, for help texts.
            pub fn describe_options(self) -> String {
                match self {
                    $(EngineKind::$variant => optable::describe::<$table>(),)+
                }
            }

            /// The option tails of an ablation of the engine's options (see
            /// [`optable::ablation`]).
            pub fn ablation(self) -> Vec<String> {
                match self {
                    $(EngineKind::$variant => optable::ablation::<$table>(),)+
                }
            }
        }

        /// An engine and its options (each engine's [`OptionTable`]).
        #[derive(Clone, Debug, PartialEq)]
        pub enum EngineOptions {
            $($variant($table),)+
        }

        impl EngineOptions {
            /// The defaults of `engine`.
            pub fn defaults(engine: EngineKind) -> EngineOptions {
                match engine {
                    $(EngineKind::$variant => EngineOptions::$variant(<$table>::default()),)+
                }
            }

            /// The engine these options are for.
            pub fn engine(&self) -> EngineKind {
                match self {
                    $(EngineOptions::$variant(_) => EngineKind::$variant,)+
                }
            }

            /// The engine these options configure.
            pub fn as_engine(&self) -> &dyn Engine {
                match self {
                    $(EngineOptions::$variant(o) => o,)+
                }
            }

            /// Applies one option of the engine's table.
            pub fn set(&mut self, option: &str) -> Result<(), OptionError> {
                match self {
                    $(EngineOptions::$variant(o) => optable::set(o, option),)+
                }
            }

            /// The options that differ from the defaults, each as `:OPTION`.
            pub fn changes(&self) -> String {
                match self {
                    $(EngineOptions::$variant(o) => optable::changes(o),)+
                }
            }
        }

        // Every table is an option table and an engine.
        const _: fn() = || {
            fn table<T: OptionTable + Engine + Default>() {}
            $(table::<$table>();)+
        };
    };
}

engines! {
    Bmc(BmcOptions) = "bmc",
        "Incremental bounded model checking (counterexamples, and proofs once every run has \
         ended; for C programs, loops of a fixed trip count up to 64 are folded into one step, \
         and self-loops that move variables by constants may jump over many iterations, each \
         jump proved sound)",
        needs_program: false, runs_on: [Accelerated, Preprocessed];
    Kind(KindOptions) = "kind",
        "k-induction with simple-path constraints",
        needs_program: false, runs_on: [Constrained];
    Pdr(PdrOptions) = "pdr",
        "PDR / IC3 on the bit-level system",
        needs_program: false, runs_on: [Preprocessed];
    Ic3cfa(Ic3cfaOptions) = "ic3cfa",
        "IC3CFA: IC3 over the program's control-flow automaton, with frames per location and \
         word-level cubes from weakest preconditions (C programs only)",
        needs_program: true, runs_on: [];
    Euf(EufOptions) = "euf",
        "EUForia-style abstraction: PDR on the program's system with products, quotients, \
         remainders and shifts by a variable as uninterpreted functions, refined from spurious \
         counterexamples (C programs only)",
        needs_program: true, runs_on: [];
}

impl EngineKind {
    /// The engine named `s` on the command line.
    pub fn from_name(s: &str) -> Option<EngineKind> {
        EngineKind::ALL.iter().copied().find(|e| e.name() == s)
    }

    /// The names of every engine, separated by commas (for messages).
    pub fn names() -> String {
        let names: Vec<&str> = EngineKind::ALL.iter().map(|e| e.name()).collect();
        names.join(", ")
    }
}
