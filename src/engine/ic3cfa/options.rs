//! The options of IC3CFA and their spelling in a portfolio member (`ic3cfa:cadical:OPTION…`).
//!
//! Each technique of the IC3CFA papers is a switch, `NAME` to turn it on and `no-NAME` to turn
//! it off; `baseline` turns every switch off (the algorithm of the IC3CFA thesis without its
//! improvements) and `all` turns every one on. Numbers are `NAME=N`. Neither `baseline` nor
//! `all` changes `carry` or `stable` (the first costs more than it gives, the second is an
//! experiment whose answers only the independent check makes trustworthy).

use crate::engine::optable::{self, Field, Opt, OptionError, OptionTable, Preset};
use std::fmt;

/// Options of IC3CFA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ic3cfaOptions {
    /// Cubes with more literals than this are generalised by binary search (`genBinary`),
    /// smaller ones one literal at a time (`genMic`); `usize::MAX` never searches.
    pub binary_above: usize,
    /// Bit-level fallback: a generalised cube keeping `t == c` at a location that already has
    /// this many lemmas with `t == c′` for other constants `c′` is generalised again with the
    /// equality split into its bits (0: never).
    pub bits_after: usize,
    /// Push lemmas to the next level after each level.
    pub push: bool,
    /// Push filter: a lemma whose push failed along an edge is not tried again until the
    /// edge's source gains a lemma at that level or above (until then it would fail again).
    pub push_filter: bool,
    /// Termination by stable iterations (Mertens' thesis; experimental): after this
    /// many consecutive rounds that handled exactly the obligations of the round before, one
    /// level higher, stop with a frame as the invariant, unproved, which the caller's
    /// independent check accepts or rejects (0: never; see `ic3cfa::stable`).
    pub stable: usize,
    /// Retry obligations blocked below the top level one level up, within the same round (off
    /// by default: through a self-loop it lets a round enumerate values without bound, as a
    /// counter's overflow check shows).
    pub carry: bool,
    /// Predecessor cubes: before a query, look for a lemma of the source location made of the
    /// weakest preconditions of the cube's literals (and the edge's assumptions); a hit answers
    /// the query without SAT, and its literals are the generalisation.
    pub precubes: bool,
    /// Drop, without a query, the literals whose weakest precondition through the edge is one
    /// of the edge's own assumptions.
    pub assumed: bool,
    /// Generalisation contexts: how many earlier generalisations are kept (least recently used
    /// first out) as upper bounds (reused without a query) and lower bounds (literals that need
    /// no dropping attempt); 0 keeps none.
    pub contexts: usize,
    /// WP inductivity: relative induction asked as `F(i−1, l) ∧ enabled_e ∧ ⋀ wp_e(l_i)` over
    /// the source's variables, instead of `F(i−1, l) ∧ T_e ∧ c′`; unsatisfiable answers are
    /// remembered by the query's syntax (two edges or two cubes with the same preconditions ask
    /// once).
    pub wpind: bool,
    /// Obligation reuse: the obligations of one round start the next, one level higher.
    pub reuse: bool,
    /// Obligation skipping: a reused obligation whose earlier generalisation still holds,
    /// because no source location gained a lemma at the level it was checked against, is
    /// blocked with it again without a query.
    pub skip: bool,
    /// Counterexamples to generalisation: when dropping a literal fails, try to block the
    /// predecessor state one level lower first (at most `ctg_max` per literal).
    pub ctg: bool,
    /// The most CTGs blocked for one literal.
    pub ctg_max: usize,
}

/// Every technique on: measured on the control-heavy tasks, the SV-COMP tasks and the IC3CFA
/// fixtures (`docs/results/2026-11-26/ic3cfa-ablation-*`), together they solve at least as many
/// as the baseline on each set, with 4× fewer SAT calls and 6× less SAT time on the tasks both
/// solve. The push filter, added since, changes no push's outcome; on the IC3CFA and control
/// fixtures it halves the push queries (the tasks solved stay the same).
impl Default for Ic3cfaOptions {
    fn default() -> Self {
        Ic3cfaOptions {
            binary_above: 4,
            bits_after: 2,
            push: true,
            push_filter: true,
            stable: 0,
            carry: false,
            precubes: true,
            assumed: true,
            wpind: true,
            contexts: ALL_CONTEXTS,
            reuse: true,
            skip: true,
            ctg: true,
            ctg_max: 3,
        }
    }
}

/// The context cache size that `all` sets.
const ALL_CONTEXTS: usize = 4096;

/// `baseline` (`on` false) and `all` (`on` true): every switch but `carry`, and the contexts.
fn techniques(o: &mut Ic3cfaOptions, on: bool) {
    for opt in Ic3cfaOptions::OPTIONS {
        if let Field::Switch(field) = opt.field {
            if opt.name != "carry" {
                *field(o) = on;
            }
        }
    }
    o.contexts = if on { ALL_CONTEXTS } else { 0 };
}

impl OptionTable for Ic3cfaOptions {
    const ENGINE: &'static str = "IC3CFA";
    const OPTIONS: &'static [Opt<Self>] = &[
        Opt::switch("push", "lemmas to the next level after each level", |o| {
            &mut o.push
        }),
        Opt::switch(
            "push-filter",
            "a failed push not tried again while the state that refuted it is still in the \
             predecessor's frame",
            |o| &mut o.push_filter,
        ),
        Opt::switch("carry", "blocked obligations retried one level up", |o| {
            &mut o.carry
        }),
        Opt::switch(
            "precubes",
            "queries answered by a lemma made of the literals' preconditions",
            |o| &mut o.precubes,
        ),
        Opt::switch(
            "assumed",
            "literals implied by the edge's assumptions dropped",
            |o| &mut o.assumed,
        ),
        Opt::switch(
            "wpind",
            "queries over the preconditions of the literals, answers remembered",
            |o| &mut o.wpind,
        ),
        Opt::switch("reuse", "a round's obligations start the next", |o| {
            &mut o.reuse
        }),
        Opt::switch(
            "skip",
            "reused obligations blocked again without a query where that still holds",
            |o| &mut o.skip,
        ),
        Opt::switch(
            "ctg",
            "counterexamples to generalisation blocked first",
            |o| &mut o.ctg,
        ),
        Opt::number(
            "binary-above",
            "cubes longer than this generalised by binary search",
            |o| &mut o.binary_above,
        ),
        Opt::number(
            "bits-after",
            "an equality split into bits once the location excludes this many other constants",
            |o| &mut o.bits_after,
        ),
        Opt::number("contexts", "earlier generalisations kept as bounds", |o| {
            &mut o.contexts
        }),
        Opt::number(
            "ctg-max",
            "the most counterexamples to generalisation per literal",
            |o| &mut o.ctg_max,
        ),
        Opt::number(
            "stable",
            "experimental, 0 = off: after N consecutive rounds that handled the last round's \
             obligations one level higher, answer with a frame as the invariant, a verdict only \
             if the independent check accepts it",
            |o| &mut o.stable,
        ),
    ];
    const PRESETS: &'static [Preset<Self>] = &[
        Preset {
            name: "baseline",
            doc: "every technique off",
            apply: |o| techniques(o, false),
        },
        Preset {
            name: "all",
            doc: "every technique on",
            apply: |o| techniques(o, true),
        },
    ];
}

impl Ic3cfaOptions {
    /// Applies one option (`NAME`, `no-NAME`, `NAME=N`, `baseline`, `all`).
    pub fn set(&mut self, option: &str) -> Result<(), OptionError> {
        optable::set(self, option)
    }
}

/// The options that differ from the defaults, each as `:OPTION`.
impl fmt::Display for Ic3cfaOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&optable::changes(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_written_back() {
        let mut o = Ic3cfaOptions::default();
        for p in [
            "no-push",
            "no-push-filter",
            "no-precubes",
            "contexts=100",
            "ctg-max=2",
            "stable=3",
        ] {
            o.set(p).unwrap();
        }
        assert!(!o.push_filter && o.stable == 3);
        assert_eq!(
            o.to_string(),
            ":no-push:no-push-filter:no-precubes:contexts=100:ctg-max=2:stable=3"
        );
        let mut again = Ic3cfaOptions::default();
        for p in o.to_string().split(':').skip(1) {
            again.set(p).unwrap();
        }
        assert_eq!(again, o);
        assert!(o.set("precubes=3").is_err());
        assert!(o.set("contexts").is_err());
        assert!(o.set("no-such").is_err());
        assert!(o.set("stable").is_err());
        assert!(o.set("stable=-1").is_err());
        assert!(o.set("no-stable").is_err());
        assert!(o.set("push-filter=1").is_err());
    }

    #[test]
    fn the_push_filter_is_on_and_stable_iterations_off_by_default() {
        let d = Ic3cfaOptions::default();
        assert!(d.push_filter);
        assert_eq!(d.stable, 0);
        assert_eq!(d.to_string(), "");
        let spelling = optable::spelling::<Ic3cfaOptions>();
        assert!(spelling.contains("[no-]push-filter"));
        assert!(spelling.contains("stable=N"));
    }

    #[test]
    fn baseline_and_all_set_every_technique() {
        let mut o = Ic3cfaOptions::default();
        o.set("stable=2").unwrap();
        o.set("all").unwrap();
        assert!(o.precubes && o.assumed && o.wpind && o.reuse && o.skip && o.ctg && o.push);
        assert!(o.push_filter);
        assert!(o.contexts > 0 && !o.carry);
        o.set("baseline").unwrap();
        assert!(!(o.precubes || o.assumed || o.wpind || o.reuse || o.skip || o.ctg || o.push));
        assert!(!o.push_filter);
        assert_eq!(o.contexts, 0);
        // Neither turns the experiment on or off.
        assert_eq!(o.stable, 2);
        o.set("stable=0").unwrap();
        o.set("all").unwrap();
        assert_eq!(o.stable, 0);
    }
}
