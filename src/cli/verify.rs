//! `bitmc verify`: verify a C program or an SV-COMP task.

use super::common::{self, EngineArg, EngineArgs};
use super::json;
use super::limits;
use super::program::{lower_resolved, select, ProgramArgs, Resolved, Selection};
use super::report;
use super::{EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use bitmc::cfa::{interp, Cfa, Property};
use bitmc::engine::portfolio::Strategy;
use bitmc::engine::Cause;
use bitmc::frontend::FrontendError;
use bitmc::verify::{verify_cfa, Fault, ProgramVerdict, VerifyOptions, VerifyResult};
use bitmc::witness::trace::{format_trace, Trace};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub program: ProgramArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// On TRUE, write the inductive invariant to FILE.
    ///
    /// One line per location with a C
    /// expression over the program variables (only when the winning engine proved the program
    /// with an invariant, i.e. PDR or IC3CFA; k-induction proofs have none).
    #[arg(long, value_name = "FILE", help_heading = "Output and witnesses")]
    pub invariant: Option<PathBuf>,
    /// Write an SV-COMP witness of a TRUE or FALSE verdict to FILE: YAML format 2.0 for .yml or
    /// .yaml, GraphML format 1.0 for .graphml; repeat for both.
    ///
    /// FALSE gives a violation witness (the nondet values of the counterexample at their calls, and
    /// the failing statement); TRUE a correctness witness (an invariant at each loop head, from
    /// PDR's or IC3CFA's inductive invariant, keeping the conjuncts over variables in scope there;
    /// a k-induction proof has none, so its witness is the trivial one, and stderr says so). Only
    /// unreach-call and no-overflow have SV-COMP specifications to write.
    #[arg(long, value_name = "FILE", help_heading = "Output and witnesses")]
    pub witness: Vec<PathBuf>,
    /// SV-COMP conventions: write witness.yml and witness.graphml in the working directory (unless
    /// --witness names files).
    ///
    /// The verdict is always the last line of the output: TRUE, FALSE(PROPERTY) or UNKNOWN.
    #[arg(long, help_heading = "Output and witnesses")]
    pub svcomp: bool,
    /// Seconds for k-induction's search for candidate invariants (0: off).
    ///
    /// k-induction first searches this many seconds at most for candidate invariants per location
    /// (comparisons of program variables with each other and with the program's constants, exact
    /// differences against constants, sums, scaled differences against the bounds the samples show;
    /// those that random simulation refutes are dropped, the rest proved inductive by Houdini and
    /// re-checked by a second SAT solver; and polynomial equalities of degree up to 3 between the
    /// variables, read off the simulated states and proved by polynomial arithmetic modulo 2^w,
    /// which give the program's own equalities they imply), then runs on the system constrained
    /// by the proved ones;
    /// the other portfolio members run meanwhile (with more members than cores, PDR runs 1 s and
    /// then waits until the search is over).
    ///
    /// The search stops early when Houdini is done; the re-check may take up to this time more. 0
    /// turns it off. Default: a third of --timeout, at most 20 s.
    #[arg(long, value_name = "SECONDS", help_heading = "Engines")]
    pub invariant_time: Option<f64>,
    /// Whether calls of undefined functions may return anything (nondet) or not (unknown).
    ///
    /// What a counterexample is whose path depends on what a function without a definition
    /// returns or writes: `unknown` (UNKNOWN, as the program does not state it) or `nondet`
    /// (a violation: such a function may return any value and write any global it can see, as
    /// SV-COMP's environment model has it).
    #[arg(long, value_enum, default_value_t = UndefinedCallsArg::Unknown, help_heading = "Properties")]
    pub undefined_calls: UndefinedCallsArg,
    /// On FALSE, write a C test harness to FILE that reaches the violation.
    ///
    /// Compiled by gcc together with the program (the command is in the harness's first
    /// comment: -m32 for ILP32, UBSan or ASan for the properties they report), its
    /// __VERIFIER_nondet_* functions return the counterexample's values in call order, checking
    /// that the program makes the counterexample's calls. A counterexample that reads
    /// uninitialised locals cannot be set up by a harness: the file and stderr say so. TRUE and
    /// UNKNOWN write no file.
    #[arg(long, value_name = "FILE", help_heading = "Output and witnesses")]
    pub harness: Option<PathBuf>,
    /// Also write the result as JSON to FILE (`-`: to stdout, instead of the text).
    ///
    /// The verdict, each property's verdict, engine, time and statistics, and for a violation
    /// where it fails, the inputs and the statements executed with the values they assigned
    /// (the shape is docs/verify-result.schema.json).
    #[arg(long, value_name = "FILE", help_heading = "Output and witnesses")]
    pub json: Option<PathBuf>,
    /// Also write the result as one self-contained HTML page to FILE.
    ///
    /// The verdict and each property's verdict, engine, time and statistics; for a violation,
    /// the source with the lines the counterexample executed highlighted, each with its step
    /// numbers and the values assigned there, the failing line marked, the inputs, and the
    /// control-flow automaton with the path drawn on it (inline CSS and SVG: the page needs no
    /// network and no other file). It shows the values of the JSON document (--json). A run
    /// stopped by the time limit (--timeout), whose UNKNOWN the watchdog answers, writes no
    /// page.
    #[arg(long, value_name = "FILE", help_heading = "Output and witnesses")]
    pub report: Option<PathBuf>,
    /// Print statistics and what was checked to stderr.
    #[arg(short, long, help_heading = "Output and witnesses")]
    pub verbose: bool,
    /// A fault to inject, for the tests of how internal errors are reported:
    /// `reject-evidence:PHASE` (PHASE 1 or 2) makes the check of every conclusive verdict of
    /// that phase fail.
    #[arg(long, hide = true, value_name = "FAULT", value_parser = parse_fault)]
    pub inject_fault: Option<Fault>,
}

/// `--undefined-calls`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum UndefinedCallsArg {
    Unknown,
    Nondet,
}

fn parse_fault(s: &str) -> Result<Fault, String> {
    match s.split_once(':') {
        Some(("reject-evidence", p @ ("1" | "2"))) => Ok(Fault::RejectEvidence {
            phase: if p == "1" { 1 } else { 2 },
        }),
        _ => Err(format!(
            "unknown fault `{s}` (reject-evidence:1, reject-evidence:2)"
        )),
    }
}

/// The time for the candidate-invariant search (see [`VerifyArgs::invariant_time`]).
fn invariant_budget(args: &VerifyArgs) -> Option<Duration> {
    let secs = match (args.invariant_time, args.engine.timeout) {
        (Some(s), _) => s,
        (None, Some(t)) => (t / 3.0).min(20.0),
        (None, None) => 20.0,
    };
    (secs > 0.0).then(|| Duration::from_secs_f64(secs))
}

/// One property's check: the program lowered for it, the result, and how the verdict reads.
struct Check {
    property: Property,
    r: Resolved,
    original: Cfa,
    cfa: Cfa,
    result: VerifyResult,
    /// The winning member, or the strategy.
    engine: String,
    /// Seconds since the run started (with several properties, since this one's started).
    secs: f64,
}

impl Check {
    /// The first line of the verdict, the counterexample, and what the verdict leaves for
    /// stderr: `(lines, exit code, note)`.
    fn report(&self, share: bool, run: Result<&Trace, &String>) -> (String, u8, Option<String>) {
        let (property, engine, secs) = (self.property, &self.engine, self.secs);
        match &self.result.verdict {
            ProgramVerdict::True => (
                format!("TRUE ({property}) ({engine}, {secs:.2} s)\n"),
                EXIT_SAFE,
                None,
            ),
            ProgramVerdict::False(p, trace) => (
                format!("FALSE ({p}) ({engine}, {secs:.2} s)\n")
                    + &counterexample_text(&self.original, *p, trace, run),
                EXIT_UNSAFE,
                None,
            ),
            ProgramVerdict::Unknown(u) => {
                let report = common::report_unknown(u, secs);
                (
                    format!(
                        "UNKNOWN ({}) ({engine}, {secs:.2} s)\n",
                        self.unknown_text(share)
                    ),
                    report.exit,
                    report.detail,
                )
            }
        }
    }

    /// Why the answer is UNKNOWN (the text in parentheses of its line); empty for a verdict.
    fn unknown_text(&self, share: bool) -> String {
        let ProgramVerdict::Unknown(u) = &self.result.verdict else {
            return String::new();
        };
        // Stopped at the end of its share of the time limit, not by the limit itself.
        if share && u.cause == Cause::Interrupted && limits::stopped().is_none() {
            format!(
                "timeout after {:.1} s, this property's share of the time limit",
                self.secs
            )
        } else {
            common::report_unknown(u, self.secs).text
        }
    }

    /// A violation's run on the program as written: its steps and the steps read as
    /// statements (or why it cannot be, or that there is no violation).
    fn source_trace(&self) -> Result<(Vec<interp::Step>, Trace), String> {
        match &self.result.verdict {
            ProgramVerdict::False(_, trace) => trace
                .source_run(&self.original, &self.cfa, TRACE_STEPS)
                .and_then(|steps| {
                    let t = Trace::of_run(&self.original, &steps).map_err(|e| e.to_string())?;
                    Ok((steps, t))
                }),
            _ => Err("no violation".into()),
        }
    }

    /// This property's entry of the JSON document (see [`super::json`]).
    fn json(&self, share: bool, run: Result<&Trace, &String>) -> serde_json::Value {
        let (result, reason, counterexample) = match &self.result.verdict {
            ProgramVerdict::True => ("true", None, serde_json::Value::Null),
            ProgramVerdict::False(_, trace) => {
                let cex = match run {
                    Ok(t) => json::counterexample(&self.original, t),
                    Err(why) => json::raw_counterexample(&trace.nondet, why),
                };
                ("false", None, cex)
            }
            ProgramVerdict::Unknown(_) => (
                "unknown",
                Some(self.unknown_text(share)),
                serde_json::Value::Null,
            ),
        };
        serde_json::json!({
            "property": self.property.name(),
            "result": result,
            "verdict": self.verdict_line(),
            "reason": reason,
            "engine": self.engine,
            "time_s": self.secs,
            "counterexample": counterexample,
            "statistics": json::statistics(&self.result.stats),
        })
    }

    /// The verdict's last line: `TRUE`, `FALSE(PROPERTY)` or `UNKNOWN`.
    fn verdict_line(&self) -> String {
        match &self.result.verdict {
            ProgramVerdict::True => "TRUE".into(),
            ProgramVerdict::False(p, _) => format!("FALSE({p})"),
            ProgramVerdict::Unknown(_) => "UNKNOWN".into(),
        }
    }
}

/// The check whose verdict is the run's, by SV-COMP's rule for a specification of several
/// properties: the first violated property, else the first undecided one, else the first
/// (all hold). Its exit code is the run's, except that an internal error of any check wins
/// over another UNKNOWN.
fn deciding(checks: &[Check]) -> usize {
    let first =
        |f: &dyn Fn(&ProgramVerdict) -> bool| checks.iter().position(|c| f(&c.result.verdict));
    first(&|v| matches!(v, ProgramVerdict::False(..)))
        .or_else(|| first(&|v| matches!(v, ProgramVerdict::Unknown(u) if u.is_internal())))
        .or_else(|| first(&|v| matches!(v, ProgramVerdict::Unknown(_))))
        .unwrap_or(0)
}

pub fn run(args: &VerifyArgs) -> anyhow::Result<u8> {
    let start = Instant::now();
    // The time limit covers the whole run, parsing and encoding included.
    let interrupter = bitmc::sat::Interrupter::new();
    let timeout = args.engine.timeout;
    // The task and property files are read first, so that every answer, even one for want of
    // memory, can be written as the JSON document.
    let witnesses = super::witness::requested(&args.witness, args.svcomp)?;
    let selection = select(&args.program)?;
    let pending = json::Pending {
        path: args.json.clone().unwrap_or_default(),
        input: selection.input.display().to_string(),
        data_model: selection.data_model.name(),
        properties: selection.properties.iter().map(|p| p.name()).collect(),
        skipped: selection.skipped.clone(),
    };
    if args.json.is_some() {
        limits::set_json(pending.clone());
    }
    if let Err(e) = limits::start(limits::Command::Verify, start, timeout, &interrupter) {
        return Ok(no_room(
            &format!("cannot start the watchdog thread: {e}"),
            start,
        ));
    }
    let default = match args.program.unwind {
        Some(_) => EngineArg(Some(bitmc::engine::EngineKind::Bmc)),
        None => EngineArg::PORTFOLIO,
    };
    let strategy = args.engine.strategy(true, default)?;
    limits::set_engine(strategy.name());
    let session = Session {
        args,
        selection: &selection,
        strategy: &strategy,
        start,
        interrupter: &interrupter,
    };
    let mut checks: Vec<Check> = Vec::new();
    let mut warned: Vec<String> = Vec::new();
    for (i, &property) in selection.properties.iter().enumerate() {
        match session.check(i, property, &mut warned)? {
            Ok(check) => checks.push(check),
            Err(exit) => return Ok(exit),
        }
    }
    // The answer is made before it is claimed, so that the watchdog can still answer for a
    // run that is late; once claimed, it is printed and its files written in full.
    let answer = session.answer(&checks, &pending);
    limits::claim_or_wait();
    session.write(&checks, &answer, &witnesses)?;
    Ok(answer.exits[answer.deciding])
}

/// What every property's check of one `verify` run shares.
struct Session<'a> {
    args: &'a VerifyArgs,
    selection: &'a Selection,
    strategy: &'a Strategy,
    start: Instant,
    interrupter: &'a bitmc::sat::Interrupter,
}

/// The answer of a run, made before it is printed: the text for stdout, the notes for stderr,
/// each check's exit code and counterexample run, which check decides, and the JSON document
/// and HTML page when they were asked for.
struct Answer<'a> {
    out: String,
    notes: Vec<String>,
    exits: Vec<u8>,
    runs: Vec<Result<(Vec<interp::Step>, Trace), String>>,
    deciding: usize,
    doc: Option<serde_json::Value>,
    page: Option<(&'a PathBuf, String)>,
}

impl<'a> Session<'a> {
    fn several(&self) -> bool {
        self.selection.properties.len() > 1
    }

    /// Checks property `i` of the selection (`Err`: the exit code of a run that ran out of
    /// memory while lowering); prints the front end's warnings not yet in `warned`.
    fn check(
        &self,
        i: usize,
        property: Property,
        warned: &mut Vec<String>,
    ) -> anyhow::Result<Result<Check, u8>> {
        let args = self.args;
        let r = self.selection.resolved(property);
        let (original, cfa, warnings) = match lower_resolved(&r, !args.program.no_lbe) {
            Ok(lowered) => lowered,
            Err(e) => match e.downcast_ref::<FrontendError>() {
                Some(FrontendError::OutOfMemory(why)) => return Ok(Err(no_room(why, self.start))),
                _ => return Err(e),
            },
        };
        for w in warnings {
            if !warned.contains(&w) {
                eprintln!("{w}");
                warned.push(w);
            }
        }
        let began = Instant::now();
        let opts = |interrupter: &bitmc::sat::Interrupter| VerifyOptions {
            strategy: self.strategy.clone(),
            max_depth: args.engine.max_depth,
            pc: args.program.pc.encoding(),
            interrupter: interrupter.clone(),
            invariant_budget: invariant_budget(args),
            preprocess: args.engine.preprocess.preprocess(),
            undefined_calls: match args.undefined_calls {
                UndefinedCallsArg::Unknown => bitmc::verify::UndefinedCalls::Unknown,
                UndefinedCallsArg::Nondet => bitmc::verify::UndefinedCalls::Nondet,
            },
            fault: args.inject_fault,
        };
        let mut printer = common::ProgressPrinter::new(self.start);
        let mut progress = |p: &bitmc::engine::Progress| printer.report(p);
        // With several properties, each gets an equal share of the time that is left.
        let left = self.selection.properties.len() - i;
        let result = match args.engine.timeout.filter(|_| left > 1) {
            Some(t) => {
                let end = self.start + Duration::from_secs_f64(t.max(0.0));
                let share = end.saturating_duration_since(Instant::now()) / left as u32;
                bitmc::sat::with_deadline(self.interrupter, Instant::now() + share, |intr| {
                    verify_cfa(&cfa, &opts(intr), &mut progress)
                })
            }
            None => verify_cfa(&cfa, &opts(self.interrupter), &mut progress),
        };
        let engine = result
            .winner
            .clone()
            .unwrap_or_else(|| self.strategy.name());
        let several = self.several();
        let check = Check {
            property,
            r,
            original,
            cfa,
            result,
            engine,
            // With several properties, each one's own time; else the run's.
            secs: if several { began } else { self.start }
                .elapsed()
                .as_secs_f64(),
        };
        if args.verbose {
            print_statistics(&check, &self.strategy.name(), several);
        }
        Ok(Ok(check))
    }

    /// The answer of the run from its checks (the JSON document of `--json` is also what
    /// `--report` shows).
    fn answer(&self, checks: &[Check], pending: &json::Pending) -> Answer<'a> {
        let args = self.args;
        let several = self.several();
        let documented = args.json.is_some() || args.report.is_some();
        let mut out = String::new();
        let mut notes = Vec::new();
        let mut exits = Vec::new();
        let mut entries = Vec::new();
        let mut runs = Vec::new();
        for (i, c) in checks.iter().enumerate() {
            // The counterexample's run is read once, for the text, the document, the page and
            // the harness.
            let run = c.source_trace();
            let trace = run.as_ref().map(|(_, t)| t);
            if documented {
                entries.push(c.json(several, trace));
            }
            let (text, exit, note) = c.report(several, trace);
            if i > 0 {
                out += "\n";
            }
            out += &text;
            exits.push(exit);
            notes.extend(note);
            runs.push(run);
        }
        let d = deciding(checks);
        if several || !self.selection.skipped.is_empty() {
            out += "results:\n";
            for c in checks {
                out += &format!("  {}: {}\n", c.property, c.verdict_line());
            }
            for name in &self.selection.skipped {
                out += &format!("  {name}: skipped (bitmc does not check it)\n");
            }
        }
        out += &checks[d].verdict_line();
        out += "\n";
        let doc = documented.then(|| {
            pending.document(
                &checks[d].verdict_line(),
                exits[d],
                self.start.elapsed().as_secs_f64(),
                entries,
            )
        });
        let page = match (&args.report, &doc) {
            (Some(path), Some(doc)) => {
                let paths: Vec<Option<report::PathOn>> = checks
                    .iter()
                    .zip(&runs)
                    .map(|(c, run)| {
                        run.as_ref().ok().map(|(_, t)| report::PathOn {
                            cfa: &c.original,
                            path: &t.path,
                        })
                    })
                    .collect();
                Some((path, report::page(doc, &paths)))
            }
            _ => None,
        };
        Answer {
            out,
            notes,
            exits,
            runs,
            deciding: d,
            doc,
            page,
        }
    }

    /// Prints the claimed answer and writes the files asked for (witnesses, harness,
    /// invariant, page, document) about the deciding check.
    fn write(
        &self,
        checks: &[Check],
        answer: &Answer<'_>,
        witnesses: &[(PathBuf, bitmc::witness::svcomp::Format)],
    ) -> anyhow::Result<()> {
        let args = self.args;
        let several = self.several();
        let c = &checks[answer.deciding];
        if several && !witnesses.is_empty() {
            eprintln!(
                "note: the witness is of {} (a witness states one property)",
                c.property
            );
        }
        super::witness::write(witnesses, &c.r, &c.original, &c.cfa, &c.result, &c.engine);
        if let Some(path) = &args.harness {
            if several {
                eprintln!("note: the harness is of {}", c.property);
            }
            write_harness(path, c, &answer.runs[answer.deciding]);
        }
        if let (ProgramVerdict::True, Some(path)) = (&c.result.verdict, &args.invariant) {
            write_invariant(path, &c.cfa, c.result.invariant.as_deref())?;
        }
        for detail in &answer.notes {
            eprintln!("note: {detail}");
        }
        if let Some((path, page)) = &answer.page {
            report::write(path, page)?;
        }
        match (&args.json, &answer.doc) {
            (Some(path), Some(doc)) => {
                json::write(path, doc)?;
                if path.as_os_str() != "-" {
                    print!("{}", answer.out);
                }
            }
            _ => print!("{}", answer.out),
        }
        Ok(())
    }
}

/// `-v`: what was checked and how, on stderr.
fn print_statistics(c: &Check, strategy: &str, several: bool) {
    if several {
        eprintln!("property: {}", c.property);
    }
    eprintln!(
        "program: {} ({}, {})",
        c.r.input.display(),
        c.property,
        c.r.options.data_model
    );
    eprintln!(
        "CFA: {} locations, {} edges, {} variables",
        c.cfa.locations.len(),
        c.cfa.edges.len(),
        c.cfa.vars.len()
    );
    let rewrites = &c.result.rewrites;
    let rules: Vec<String> = rewrites
        .fired()
        .map(|(rule, n)| format!("{} {n}", rule.name()))
        .collect();
    eprintln!("rewrites: {} ({})", rewrites.total(), rules.join(", "));
    eprintln!("engine: {strategy}");
    for s in &c.result.stats {
        eprintln!("{}: {}", s.name, s.value);
    }
    for n in &c.result.notes {
        eprintln!("check: {n}");
    }
    eprintln!("total time: {:.3} s", c.secs);
}

/// The answer of a run that has no room to start: `UNKNOWN (memory)`, with the reason.
fn no_room(why: &str, start: Instant) -> u8 {
    limits::claim_or_wait();
    eprintln!("note: memory: {why}");
    let secs = start.elapsed().as_secs_f64();
    let pending = limits::pending_json();
    if let Some(p) = pending {
        if let Err(e) = json::write(&p.path, &p.unanswered("memory", "bitmc", secs)) {
            eprintln!("error: {e}");
        }
    }
    if pending.is_none_or(|p| p.path.as_os_str() != "-") {
        println!("UNKNOWN (memory) (bitmc, {secs:.2} s)\nUNKNOWN");
    }
    EXIT_UNKNOWN
}

/// The most steps of a counterexample's run on the program as written that are printed.
const TRACE_STEPS: usize = 1_000_000;

/// A counterexample: the statements executed on the program as written (`run`), its inputs,
/// and where the property fails (gcc's form), or, when that run cannot be shown, the nondet
/// values as the engine's CFA took them and why.
fn counterexample_text(
    original: &bitmc::cfa::Cfa,
    property: Property,
    trace: &bitmc::verify::ProgramTrace,
    run: Result<&Trace, &String>,
) -> String {
    let mut out = String::new();
    match run {
        Ok(t) => {
            let calls: Vec<String> = t.inputs().iter().map(|i| i.value.to_string()).collect();
            out += &format!("nondet values: [{}]\n", calls.join(", "));
            out += &format_trace(original, t);
            let (pos, what) = t.failure.clone().unwrap_or_default();
            let at = pos.map(|p| format!("{p}: ")).unwrap_or_default();
            out += &format!("{at}error: {what} ({property})\n");
        }
        Err(why) => {
            let seq: Vec<String> = trace.nondet.iter().map(|v| v.to_string()).collect();
            let whose = if trace.expanded {
                "of the program's nondet calls and uninitialised declarations"
            } else {
                "of the accelerated CFA (with the iteration counts of its jumps)"
            };
            out += &format!("nondet values {whose}: [{}]\n", seq.join(", "));
            out += &format!("no trace: {why}\n");
            out += &format!("error: {property} is violated\n");
        }
    }
    out
}

/// `--harness`: the C test harness of a FALSE verdict's counterexample (`run`, its run on the
/// program as written), or a note on stderr why none is written.
fn write_harness(path: &Path, c: &Check, run: &Result<(Vec<interp::Step>, Trace), String>) {
    let verdict = match &c.result.verdict {
        ProgramVerdict::False(..) => None,
        ProgramVerdict::True => Some("TRUE"),
        ProgramVerdict::Unknown(_) => Some("UNKNOWN"),
    };
    if let Some(v) = verdict {
        eprintln!(
            "note: no harness for a {v} verdict ({} not written)",
            path.display()
        );
        return;
    }
    let (steps, trace) = match run {
        Ok(r) => r,
        Err(why) => {
            eprintln!("note: no harness ({} not written): {why}", path.display());
            return;
        }
    };
    let source = std::fs::read_to_string(&c.r.input).ok();
    let req = bitmc::witness::harness::Request {
        program: &c.r.input,
        harness: path,
        property: c.property,
        data_model: c.r.options.data_model,
        cpp_args: &c.r.options.cpp_args,
        source: source.as_deref(),
    };
    let h = bitmc::witness::harness::generate(&c.original, steps, trace, &req);
    if let Err(e) = std::fs::write(path, &h.text) {
        eprintln!("error: cannot write the harness {}: {e}", path.display());
        return;
    }
    if h.reproduces() {
        eprintln!(
            "note: harness written to {}; build and run: {}",
            path.display(),
            h.command
        );
        return;
    }
    if !h.uninitialised.is_empty() {
        eprintln!(
            "warning: the counterexample reads uninitialised locals, which a harness cannot set: {}",
            h.uninitialised.join(", ")
        );
    }
    if !h.undefined.is_empty() {
        eprintln!(
            "warning: the counterexample takes the results of functions without a definition, which the harness does not define: {}",
            h.undefined.join(", ")
        );
    }
    eprintln!(
        "note: harness written to {}, but it need not reach the violation (see its first comment); build and run: {}",
        path.display(),
        h.command
    );
}

fn write_invariant(
    path: &Path,
    cfa: &bitmc::cfa::Cfa,
    inv: Option<&[(bitmc::cfa::Loc, Vec<bitmc::engine::Conjunct>)]>,
) -> anyhow::Result<()> {
    let Some(inv) = inv else {
        eprintln!(
            "note: the proof has no inductive invariant (it is not by PDR or IC3CFA); {} not written",
            path.display()
        );
        return Ok(());
    };
    let mut s = String::from(
        "# inductive invariant per location (C expressions over the program variables)\n",
    );
    for (l, conjuncts) in inv {
        let expr = bitmc::engine::Conjunct::join(conjuncts);
        s.push_str(&format!("{}: {expr}\n", cfa.loc_label(*l)));
    }
    std::fs::write(path, s).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
