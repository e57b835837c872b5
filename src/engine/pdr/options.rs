//! The options of PDR, and their table: the spelling in a portfolio member
//! (`pdr:cadical:no-ctg:ctg-max=5`) and the `--engine pdr` flags of `verify` and `solve`
//! (`--no-ctg --ctg-max 5`, under "Tuning (PDR)").

use crate::engine::optable::{Opt, OptionTable};

/// Options of PDR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdrOptions {
    /// When dropping a literal fails (after blocking its CTGs, when `ctg`), go on with the
    /// candidate intersected with the predecessor that refuted it (Bradley's `down`);
    /// otherwise keep the literal.
    pub down: bool,
    /// Block counterexamples to generalisation while dropping literals (Hassan, Bradley,
    /// Somenzi). Without `down` and `ctg`, each literal costs one query, as in ABC's `pdr`.
    pub ctg: bool,
    /// Dynamic generalisation (after rIC3): an obligation goes `down` only once its cube has
    /// been blocked this many times before (0: always, when `down` is set).
    pub dynamic: usize,
    /// Generalisation stops after this many literals in a row could not be dropped (0: every
    /// literal is tried), as in Bradley's IC3 reference implementation.
    pub mic_attempts: usize,
    /// The most CTGs handled for one literal-dropping attempt.
    pub ctg_max: usize,
    /// The recursion depth of CTG handling.
    pub ctg_depth: usize,
    /// The most counterexamples to propagation blocked for one push (after rIC3): when a
    /// lemma cannot move up because a state of its frame has a successor in it, that state is
    /// blocked in the frame (when it can be) and the push tried again; 0 turns this off.
    pub ctp: usize,
    /// Lift predecessors (when the system allows it).
    pub lift: bool,
    /// Keep the obligations blocked at the top level for the next frame (Eén, Mishchenko,
    /// Brayton 2011), which finds deep counterexamples sooner.
    pub carry: bool,
    /// Load `T` and `U` into the solvers cone by cone as queries need them ([`cone`](super::cone)), when
    /// the system's structure allows it; otherwise each solver holds them whole.
    pub cones: bool,
    /// Rebuild a frame's solver after this many queries that added a temporary clause (0:
    /// never). A rebuilt solver drops its learnt and temporary clauses and the cones that
    /// earlier queries loaded, which keeps queries cheap (ABC's `pdr` restarts after 300).
    pub recycle: usize,
}

impl Default for PdrOptions {
    fn default() -> Self {
        PdrOptions {
            down: true,
            ctg: true,
            mic_attempts: 0,
            dynamic: 2,
            ctg_max: 3,
            ctg_depth: 1,
            ctp: 0,
            lift: true,
            carry: true,
            cones: true,
            recycle: 20_000,
        }
    }
}

/// An option of PDR's table.
type PdrOpt = Opt<PdrOptions>;

impl OptionTable for PdrOptions {
    const ENGINE: &'static str = "PDR";
    const OPTIONS: &'static [Opt<Self>] = &[
        PdrOpt::switch(
            "down",
            "Bradley's down: when dropping a literal fails, the candidate goes on cut down to \
             the refuting predecessor instead of keeping the literal",
            |o| &mut o.down,
        )
        .flag(
            "PDR: keep a literal whose dropping fails (after its CTGs) instead of going on with \
             the candidate cut down to the refuting predecessor",
        ),
        PdrOpt::switch(
            "ctg",
            "counterexamples to generalisation blocked while dropping literals",
            |o| &mut o.ctg,
        )
        .flag("PDR: do not block counterexamples to generalisation while dropping literals"),
        PdrOpt::number(
            "ctg-max",
            "the most counterexamples to generalisation per literal-dropping attempt",
            |o| &mut o.ctg_max,
        )
        .flag(
            "PDR: the most counterexamples to generalisation blocked per literal-dropping attempt",
        ),
        PdrOpt::number(
            "dynamic",
            "an obligation goes down only once its cube was blocked N times before",
            |o| &mut o.dynamic,
        )
        .flag(
            "PDR: let an obligation go down only once its cube has been blocked N times before \
             (0: always)",
        ),
        PdrOpt::number(
            "mic-attempts",
            "generalisation stops after N literals in a row could not be dropped, 0 tries all",
            |o| &mut o.mic_attempts,
        )
        .flag(
            "PDR: stop generalising a cube after this many literals in a row could not be \
             dropped (0 tries every literal)",
        ),
        PdrOpt::number(
            "ctg-depth",
            "the recursion depth of counterexamples to generalisation",
            |o| &mut o.ctg_depth,
        )
        .flag(
            "PDR: how many levels deep counterexamples to generalisation are handled recursively",
        ),
        PdrOpt::number(
            "ctp",
            "the most counterexamples to propagation blocked per push, 0 none",
            |o| &mut o.ctp,
        )
        .flag(
            "PDR: when a lemma cannot be pushed because a state of its frame has a successor in \
             it, block that state in the frame and try again, at most N times per push (0: \
             never)",
        ),
        PdrOpt::switch("lift", "predecessors lifted to smaller cubes", |o| {
            &mut o.lift
        })
        .flag("PDR: do not lift predecessors to smaller cubes"),
        PdrOpt::switch(
            "carry",
            "obligations blocked at the top frame retried at the next",
            |o| &mut o.carry,
        )
        .flag(
            "PDR: drop the obligations blocked at the top frame instead of retrying them at the \
             next",
        ),
        PdrOpt::switch(
            "cones",
            "the transition relation loaded into each solver cone by cone as queries need it",
            |o| &mut o.cones,
        )
        .flag(
            "PDR: give every solver the whole transition relation instead of loading the cone \
             of each query's latches on demand",
        ),
        PdrOpt::number(
            "recycle",
            "a frame's solver rebuilt after N queries, 0 never",
            |o| &mut o.recycle,
        )
        .flag(
            "PDR: rebuild a frame's solver after this many queries (each leaves a temporary \
             clause behind), dropping what it learnt and loaded; 0 never rebuilds",
        ),
    ];
}
