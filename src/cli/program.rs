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
    /// The property to check: unreach-call, no-overflow, div-by-zero or valid-index, or an
    /// SV-COMP property file (.prp) stating one of the first two [default: unreach-call, or
    /// the task's].
    #[arg(long, value_name = "PROPERTY|FILE.prp")]
    pub property: Option<String>,
    /// The data model, in any case [default: ILP32, or the task's].
    #[arg(long, value_enum, ignore_case = true)]
    pub data_model: Option<DataModelArg>,
    /// The encoding of the program counter.
    #[arg(long, value_enum, default_value_t = PcArg::Binary)]
    pub pc: PcArg,
    /// Do not merge the CFA's edges into large blocks.
    #[arg(long)]
    pub no_lbe: bool,
    /// How many calls of one function may be active at once: recursion is inlined that deep,
    /// and a deeper call ends the run in an UNKNOWN sink (`recursion bound`), so a TRUE verdict
    /// means that no run goes deeper and the program is safe.
    #[arg(long, value_name = "N", default_value_t = bitmc::frontend::DEFAULT_RECURSION_BOUND)]
    pub recursion_bound: u32,
}

/// The program to verify and its lowering options, from the command line and the task file.
pub struct Resolved {
    pub input: PathBuf,
    pub options: FrontendOptions,
    /// The specification text of the property file given on the command line, if one was.
    pub specification: Option<String>,
}

/// Resolve the input (a task file names the program, its properties and data model; the
/// command line wins) and say which task properties are skipped.
pub fn resolve(args: &ProgramArgs) -> anyhow::Result<Resolved> {
    let is_task = args
        .file
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e == "yml" || e == "yaml");
    let mut specification = None;
    let mut property = match &args.property {
        Some(file) if file.ends_with(".prp") || Path::new(file).is_file() => {
            let f = task::read_property_file(Path::new(file))?;
            specification = Some(f.specification);
            Some(f.property.ok_or_else(|| {
                anyhow::anyhow!(
                    "{file}: the property {} is not checked by bitmc (it checks unreach-call, no-overflow, div-by-zero and valid-index)",
                    f.name
                )
            })?)
        }
        Some(name) => Some(Property::from_name(name).ok_or_else(|| {
            anyhow::anyhow!(
                "unknown property `{name}` (bitmc checks unreach-call, no-overflow, div-by-zero and valid-index)"
            )
        })?),
        None => None,
    };
    let mut data_model = args.data_model.map(DataModelArg::data_model);
    let input = if is_task {
        let t = task::read_task(&args.file)?;
        for p in &t.properties {
            if p.property.is_none() {
                eprintln!(
                    "note: {}: property {} is not checked by bitmc; skipped",
                    args.file.display(),
                    p.name
                );
            }
        }
        if property.is_none() {
            let supported: Vec<Property> = t.properties.iter().filter_map(|p| p.property).collect();
            property = supported
                .iter()
                .copied()
                .find(|&p| p == Property::UnreachCall)
                .or(supported.first().copied());
            if property.is_none() {
                anyhow::bail!(
                    "{}: the task lists no property that bitmc checks",
                    args.file.display()
                );
            }
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
    let options = FrontendOptions {
        property: property.unwrap_or(Property::UnreachCall),
        data_model: data_model.unwrap_or_default(),
        lbe: false,
        recursion_bound: args.recursion_bound,
        ..FrontendOptions::default()
    };
    Ok(Resolved {
        input,
        options,
        specification,
    })
}

/// Lower the program to a prepared CFA, printing the front end's warnings.
pub fn lower(args: &ProgramArgs) -> anyhow::Result<(Resolved, bitmc::cfa::Cfa)> {
    let (r, _, cfa) = lower_keeping_original(args)?;
    Ok((r, cfa))
}

/// [`lower`], also returning the CFA as the front end built it (before any pass).
pub fn lower_keeping_original(
    args: &ProgramArgs,
) -> anyhow::Result<(Resolved, bitmc::cfa::Cfa, bitmc::cfa::Cfa)> {
    let r = resolve(args)?;
    let lowered = frontend::lower_file(Path::new(&r.input), &r.options)?;
    for w in &lowered.warnings {
        eprintln!("warning: {w}");
    }
    let cfa = prepare(&lowered.cfa, !args.no_lbe);
    Ok((r, lowered.cfa, cfa))
}
