//! The program a command reads (`verify`, `dimspec`, `aiger`): its command-line options, the
//! SV-COMP task and property files that name it and its property and data model, and its
//! lowering to a prepared CFA.

use bitmc::cfa::{DataModel, Property};
use bitmc::frontend::{self, FrontendOptions};
use bitmc::task;
use bitmc::ts::program::PcEncoding;
use bitmc::verify::prepare;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// Data models on the command line.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum DataModelArg {
    /// int, long and pointers 32 bits (the SV-COMP default; also spelt 32bit).
    #[value(alias = "32bit")]
    Ilp32,
    /// int 32 bits; long and pointers 64 bits (also spelt 64bit).
    #[value(alias = "64bit")]
    Lp64,
}

impl DataModelArg {
    pub fn data_model(self) -> DataModel {
        match self {
            DataModelArg::Ilp32 => DataModel::Ilp32,
            DataModelArg::Lp64 => DataModel::Lp64,
        }
    }
}

/// Program-counter encodings on the command line.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum PcArg {
    /// One binary number (as in the DimSpec encoding of LLUMC, Kleine Büning, Balyo and Sinz).
    Binary,
    /// One latch per location.
    Onehot,
}

impl PcArg {
    pub fn encoding(self) -> PcEncoding {
        match self {
            PcArg::Binary => PcEncoding::Binary,
            PcArg::Onehot => PcEncoding::OneHot,
        }
    }
}

/// The options that select the program and how it is lowered (shared with the exports).
#[derive(Args, Debug, Clone)]
pub struct ProgramArgs {
    /// The C program (.c, or preprocessed .i) or an SV-COMP task file (.yml).
    pub file: PathBuf,
    /// The data model, in any case [default: ILP32, or the task's].
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        help_heading = "Input and its encoding"
    )]
    pub data_model: Option<DataModelArg>,
    /// How many calls of one function may be active at once.
    ///
    /// Recursion is inlined that deep,
    /// and a deeper call ends the run in an UNKNOWN sink (`recursion bound`), so a TRUE verdict
    /// means that no run goes deeper and the program is safe.
    #[arg(long, value_name = "N", default_value_t = bitmc::frontend::DEFAULT_RECURSION_BOUND, help_heading = "Input and its encoding")]
    pub recursion_bound: u32,
    /// Bound every loop to N evaluations of its condition per entry (CBMC's --unwind N with
    /// unwinding assertions).
    ///
    /// Each loop's head is reached at most N times each time the loop is entered (a `for` loop of
    /// 1000 iterations needs N = 1001); a run that would reach it once more ends in the loop's
    /// unwinding assertion. FALSE: a run within the bound reaches the error; TRUE: none does and
    /// no run can exceed the bound (the assertions hold, so the program is safe); UNKNOWN
    /// (unwinding assertion: …) otherwise. `verify` then runs BMC unless --engine says
    /// otherwise; BMC proves TRUE once every run has ended.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Input and its encoding")]
    pub unwind: Option<u32>,
    /// The encoding of the program counter.
    #[arg(long, value_enum, default_value_t = PcArg::Binary, help_heading = "Input and its encoding")]
    pub pc: PcArg,
    /// Do not merge the CFA's edges into large blocks.
    #[arg(long, help_heading = "Input and its encoding")]
    pub no_lbe: bool,
    #[command(flatten)]
    pub cpp: CppArgs,
    /// The property to check (unreach-call, no-overflow, div-by-zero, valid-index; a list).
    ///
    /// One of unreach-call, no-overflow, div-by-zero or valid-index, several
    /// of them separated by commas (`verify` checks each in turn and lists the results; the
    /// exports take the first), or an SV-COMP property file (.prp) stating one of the first
    /// two [default: unreach-call, or every property of the task that bitmc checks, the
    /// others named as skipped].
    #[arg(long, value_name = "PROPERTY|FILE.prp", help_heading = "Properties")]
    pub property: Option<String>,
}

/// The preprocessor's options, as gcc takes them.
#[derive(Args, Debug, Clone, Default)]
pub struct CppArgs {
    /// Add DIR to the preprocessor's search path for #include (gcc's -I); repeat for several.
    #[arg(
        short = 'I',
        value_name = "DIR",
        help_heading = "Input and its encoding"
    )]
    pub include: Vec<PathBuf>,
    /// Define a macro for the preprocessor (gcc's -D): NAME (defined as 1) or NAME=VALUE;
    /// repeat for several.
    #[arg(
        short = 'D',
        value_name = "NAME[=VALUE]",
        help_heading = "Input and its encoding"
    )]
    pub define: Vec<String>,
}

impl CppArgs {
    /// The options as the preprocessor reads them.
    pub fn args(&self) -> Vec<String> {
        let includes = self.include.iter().map(|d| format!("-I{}", d.display()));
        includes
            .chain(self.define.iter().map(|d| format!("-D{d}")))
            .collect()
    }
}

/// The program to verify and its lowering options for one property, from the command line and
/// the task file.
pub struct Resolved {
    pub input: PathBuf,
    pub options: FrontendOptions,
    /// The specification text of the property file given on the command line, if one was.
    pub specification: Option<String>,
    /// The bound of every loop's unwinding (`--unwind`), if any.
    pub unwind: Option<u32>,
}

/// The program and every property to check on it: those named by `--property` (one, a
/// property file, or a comma-separated list), or else every property of the task that bitmc
/// checks, `unreach-call` first and the others in the task's order.
pub struct Selection {
    pub input: PathBuf,
    /// At least one; no property twice.
    pub properties: Vec<Property>,
    /// The names of the task's properties that bitmc does not check, in the task's order.
    pub skipped: Vec<String>,
    pub data_model: DataModel,
    pub recursion_bound: u32,
    pub cpp_args: Vec<String>,
    pub specification: Option<String>,
    pub unwind: Option<u32>,
}

impl Selection {
    /// The lowering of the program for property `p`.
    pub fn resolved(&self, p: Property) -> Resolved {
        Resolved {
            input: self.input.clone(),
            options: FrontendOptions {
                property: p,
                data_model: self.data_model,
                lbe: false,
                recursion_bound: self.recursion_bound,
                cpp_args: self.cpp_args.clone(),
                ..FrontendOptions::default()
            },
            specification: self.specification.clone(),
            unwind: self.unwind,
        }
    }
}

/// The properties named on the command line (`None` when `--property` is absent), with the
/// specification text of a property file.
fn named_properties(arg: Option<&str>) -> anyhow::Result<(Option<Vec<Property>>, Option<String>)> {
    let Some(arg) = arg else {
        return Ok((None, None));
    };
    if arg.ends_with(".prp") || Path::new(arg).is_file() {
        let f = task::read_property_file(Path::new(arg))?;
        let p = f.property.ok_or_else(|| {
            anyhow::anyhow!(
                "{arg}: the property {} is not checked by bitmc (it checks unreach-call, no-overflow, div-by-zero and valid-index)",
                f.name
            )
        })?;
        return Ok((Some(vec![p]), Some(f.specification)));
    }
    let mut ps = Vec::new();
    for name in arg.split(',').map(str::trim) {
        let p = Property::from_name(name).ok_or_else(|| {
            anyhow::anyhow!(
                "unknown property `{name}` (bitmc checks unreach-call, no-overflow, div-by-zero and valid-index)"
            )
        })?;
        if !ps.contains(&p) {
            ps.push(p);
        }
    }
    Ok((Some(ps), None))
}

/// Resolve the input and the properties to check (a task file names the program, its
/// properties and data model; the command line wins).
pub fn select(args: &ProgramArgs) -> anyhow::Result<Selection> {
    let is_task = args
        .file
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e == "yml" || e == "yaml");
    let (mut properties, specification) = named_properties(args.property.as_deref())?;
    let mut data_model = args.data_model.map(DataModelArg::data_model);
    let mut skipped = Vec::new();
    let input = if is_task {
        let t = task::read_task(&args.file)?;
        skipped = t
            .properties
            .iter()
            .filter(|p| p.property.is_none())
            .map(|p| p.name.clone())
            .collect();
        if properties.is_none() {
            let mut supported: Vec<Property> = Vec::new();
            for p in t.properties.iter().filter_map(|p| p.property) {
                if !supported.contains(&p) {
                    supported.push(p);
                }
            }
            // unreach-call first (a stable sort keeps the task's order of the others).
            supported.sort_by_key(|&p| p != Property::UnreachCall);
            if supported.is_empty() {
                anyhow::bail!(
                    "{}: the task lists no property that bitmc checks",
                    args.file.display()
                );
            }
            properties = Some(supported);
        } else {
            skipped.clear();
        }
        data_model = data_model.or(t.data_model);
        if !t.input.exists() {
            anyhow::bail!(
                "{}: the input file {} does not exist",
                args.file.display(),
                t.input.display()
            );
        }
        t.input
    } else {
        args.file.clone()
    };
    if !input.exists() {
        anyhow::bail!("{}: no such file", input.display());
    }
    Ok(Selection {
        input,
        properties: properties.unwrap_or_else(|| vec![Property::UnreachCall]),
        skipped,
        data_model: data_model.unwrap_or_default(),
        recursion_bound: args.recursion_bound,
        cpp_args: args.cpp.args(),
        specification,
        unwind: args.unwind,
    })
}

/// The program and the one property a command that checks one property reads (the exports):
/// the first of [`select`]'s, with a note on stderr for the properties left out.
pub fn resolve(args: &ProgramArgs) -> anyhow::Result<Resolved> {
    let sel = select(args)?;
    for name in &sel.skipped {
        eprintln!(
            "note: {}: property {name} is not checked by bitmc; skipped",
            args.file.display()
        );
    }
    let first = sel.properties[0];
    if sel.properties.len() > 1 {
        let rest: Vec<&str> = sel.properties[1..].iter().map(|p| p.name()).collect();
        eprintln!(
            "note: {}: this command takes one property: {first}; not {} (choose with --property)",
            args.file.display(),
            rest.join(", ")
        );
    }
    Ok(sel.resolved(first))
}

/// Lower the program to a prepared CFA, printing the front end's warnings.
pub fn lower(args: &ProgramArgs) -> anyhow::Result<(Resolved, bitmc::cfa::Cfa)> {
    let r = resolve(args)?;
    let (_, cfa, warnings) = lower_resolved(&r, !args.no_lbe)?;
    for w in &warnings {
        eprintln!("{w}");
    }
    Ok((r, cfa))
}

/// The CFA of `r` as the front end built it (before any pass), the prepared CFA (edges merged
/// into large blocks when `lbe`), and the front end's warnings.
pub fn lower_resolved(
    r: &Resolved,
    lbe: bool,
) -> anyhow::Result<(bitmc::cfa::Cfa, bitmc::cfa::Cfa, Vec<String>)> {
    let lowered = frontend::lower_file(Path::new(&r.input), &r.options)?;
    let cfa = match r.unwind {
        Some(n) => prepare(&bitmc::cfa::unwind::bound_loops(&lowered.cfa, n), lbe),
        None => prepare(&lowered.cfa, lbe),
    };
    let warnings = lowered.warnings.iter().map(|w| w.to_string()).collect();
    Ok((lowered.cfa, cfa, warnings))
}
