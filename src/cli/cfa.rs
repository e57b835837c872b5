//! `bitmc cfa`: print the control-flow automaton of a C program (text or Graphviz DOT).
//!
//! Warnings of the front end (e.g. calls to undefined functions) go to stderr; the CFA goes
//! to stdout. Front-end errors are returned (`main` prints `error: …` and exits with 1).

use bitmc::cfa::{Cfa, DataModel, Property};
use bitmc::frontend::{lower_file, FrontendOptions};
use bitmc::sat::Interrupter;
use bitmc::verify::{accelerate_for_bmc, prepare};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CfaArgs {
    /// The C file (.c or preprocessed .i).
    pub file: PathBuf,
    /// The property whose checks are built: unreach-call, no-overflow, div-by-zero, valid-index.
    #[arg(long, default_value = "unreach-call", value_parser = parse_property)]
    pub property: Property,
    /// Print Graphviz DOT instead of text.
    #[arg(long)]
    pub dot: bool,
    /// Do not apply large-block encoding (one edge per atomic command).
    #[arg(long)]
    pub no_lbe: bool,
    /// The data model: ILP32 (default, as SV-COMP) or LP64.
    #[arg(long, default_value = "ILP32", value_parser = parse_data_model)]
    pub data_model: DataModel,
    /// Print the CFA that BMC runs on in `verify`: sliced and propagated, with every loop
    /// of a fixed trip count (at most 64) folded into the edge that enters it, and every
    /// self-loop that moves its variables by constants able to jump over many iterations at
    /// once, where batsat proves the jump sound within 2 s (stderr lists the loops folded and
    /// accelerated).
    #[arg(long)]
    pub accelerate: bool,
    #[command(flatten)]
    pub cpp: super::program::CppArgs,
}

fn parse_property(s: &str) -> Result<Property, String> {
    Property::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Property::ALL.iter().map(|p| p.name()).collect();
        format!("unknown property `{s}` (one of {})", names.join(", "))
    })
}

fn parse_data_model(s: &str) -> Result<DataModel, String> {
    DataModel::from_name(s).ok_or_else(|| format!("unknown data model `{s}` (ILP32 or LP64)"))
}

pub fn run(args: &CfaArgs) -> anyhow::Result<u8> {
    let opts = FrontendOptions {
        property: args.property,
        data_model: args.data_model,
        lbe: !args.no_lbe,
        cpp_args: args.cpp.args(),
        ..FrontendOptions::default()
    };
    let lowered = lower_file(&args.file, &opts)?;
    for w in &lowered.warnings {
        eprintln!("{w}");
    }
    let cfa = if args.accelerate {
        accelerated(prepare(&lowered.cfa, !args.no_lbe))
    } else {
        lowered.cfa
    };
    let text = if args.dot {
        cfa.to_dot()
    } else {
        cfa.to_string()
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        // A closed pipe (`bitmc cfa f.c | head`) is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(super::EXIT_SAFE),
    }
}

/// `cfa` as `verify` accelerates it for BMC; says which loops on stderr.
fn accelerated(cfa: Cfa) -> Cfa {
    match accelerate_for_bmc(&cfa, &Interrupter::new()) {
        Some(a) => {
            eprintln!("{}", a.summary());
            a.cfa
        }
        None => {
            eprintln!("no loop folded or accelerated");
            cfa
        }
    }
}
