//! `bitmc dimspec`, `bitmc aiger`, `bitmc btor2` and `bitmc vmt`: write a transition system in
//! the other formats.

use super::program::{lower, ProgramArgs};
use super::EXIT_SAFE;
use anyhow::Context;
use bitmc::aig::aiger::{self, Format};
use bitmc::cfa::{Cfa, LocKind};
use bitmc::ts::aiger::{from_aiger, to_aiger};
use bitmc::ts::program::{encode, EncodeOptions, Goal, ProgramSystem};
use bitmc::ts::{dimspec as ts_dimspec, System};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The input: a C program (.c, .i) or SV-COMP task (.yml), DimSpec (.cnf, .spec, .dimspec) or
    /// AIGER (.aag, .aig). The property, data model and encoding options apply to C input.
    #[command(flatten)]
    pub program: ProgramArgs,
    /// The output file. For `aiger`, the extension chooses the encoding: `.aag` ASCII, `.aig`
    /// binary.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

/// The comment lines that describe a program's system: its source, its property, and which
/// variables hold which bit of the program counter and of each program variable.
fn program_comments(
    path: &Path,
    cfa: &Cfa,
    ps: &ProgramSystem,
    dimspec_numbering: bool,
) -> Vec<String> {
    let base = if dimspec_numbering { 1 } else { 0 };
    let mut c = vec![
        format!("bitmc system of {}", path.display()),
        format!("property {}, data model {}", cfa.property, cfa.data_model),
        "goal: the program counter at the error location".to_string(),
    ];
    let vars = |latches: &[usize]| -> String {
        let v: Vec<String> = latches
            .iter()
            .map(|&j| ps.latch_var[j].map_or("-".to_string(), |v| (v.0 + base).to_string()))
            .collect();
        v.join(" ")
    };
    let code = |l: bitmc::cfa::Loc| l.index();
    let done = cfa.locations.len();
    c.push(format!(
        "pc ({:?}; bit 0 first): {} ; init location code {}, error location code {}, terminated code {}",
        ps.pc,
        vars(&ps.pc_latches),
        code(cfa.init),
        code(cfa.error),
        done
    ));
    for (v, latches) in &ps.state {
        let info = cfa.var(*v);
        c.push(format!(
            "var {} ({}; bit 0 first): {}",
            info.name,
            info.ty,
            vars(latches)
        ));
    }
    c
}

fn is_c_input(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    matches!(ext.as_str(), "c" | "i" | "yml" | "yaml")
}

/// Encode a C program (for export: the goal is the error location alone).
fn program_system(args: &ProgramArgs) -> anyhow::Result<(Cfa, ProgramSystem)> {
    let (_, cfa) = lower(args)?;
    let sinks = cfa
        .locations
        .iter()
        .filter(|l| matches!(l.kind, LocKind::Sink(_)))
        .count();
    if sinks > 0 {
        eprintln!(
            "warning: the export encodes only the error location; {sinks} UNKNOWN sink(s) (e.g. out-of-bounds \
             accesses under a property other than valid-index) are not goals of the exported system"
        );
    }
    let ps = encode(
        &cfa,
        EncodeOptions {
            pc: args.pc.encoding(),
            goal: Goal::Error,
        },
    );
    Ok((cfa, ps))
}

/// Read any supported transition-system file into a system.
pub fn load_system(path: &Path) -> anyhow::Result<(System, Vec<String>)> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "aag" | "aig" => {
            let file = aiger::read_path(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let a = from_aiger(&file).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let mut comments = vec![format!("converted by bitmc from {}", path.display())];
            comments.push(format!(
                "variables 1..{}: latches in the cone of influence, then inputs, then gates",
                a.latch_var.iter().flatten().count() + a.input_var.iter().flatten().count()
            ));
            Ok((a.sys, comments))
        }
        "cnf" | "spec" | "dimspec" => {
            let p = dimspec::read_file(path).map_err(|e| anyhow::anyhow!("{e}"))?;
            let comments = p.comments.clone();
            Ok((ts_dimspec::from_problem(&p), comments))
        }
        _ => anyhow::bail!(
            "{}: unknown file type (expected .cnf, .spec or .dimspec for DimSpec, .aag or .aig for AIGER)",
            path.display()
        ),
    }
}

pub fn run_dimspec(args: &ExportArgs) -> anyhow::Result<u8> {
    let (sys, comments) = if is_c_input(&args.program.file) {
        let (cfa, ps) = program_system(&args.program)?;
        let comments = program_comments(&args.program.file, &cfa, &ps, true);
        (ps.sys, comments)
    } else {
        load_system(&args.program.file)?
    };
    let problem = ts_dimspec::to_problem(&sys, comments);
    let out = std::fs::File::create(&args.output)
        .with_context(|| format!("cannot create {}", args.output.display()))?;
    let mut w = std::io::BufWriter::new(out);
    dimspec::write(&problem, &mut w)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(EXIT_SAFE)
}

pub fn run_aiger(args: &ExportArgs) -> anyhow::Result<u8> {
    let ext = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let format = match ext.as_str() {
        "aag" => Format::Ascii,
        "aig" => Format::Binary,
        _ => anyhow::bail!(
            "{}: the output must end in .aag (ASCII) or .aig (binary)",
            args.output.display()
        ),
    };
    let file = if is_c_input(&args.program.file) {
        let (cfa, ps) = program_system(&args.program)?;
        let comments = program_comments(&args.program.file, &cfa, &ps, false);
        ps.model.to_aiger(comments)
    } else {
        let (sys, comments) = load_system(&args.program.file)?;
        to_aiger(&sys, comments)
    };
    let bytes = file.to_bytes(format).map_err(|e| anyhow::anyhow!("{e}"))?;
    std::fs::write(&args.output, bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(EXIT_SAFE)
}

pub fn run_btor2(args: &ExportArgs) -> anyhow::Result<u8> {
    run_word_level(args, "BTOR2", bitmc::ts::btor2::write)
}

pub fn run_vmt(args: &ExportArgs) -> anyhow::Result<u8> {
    run_word_level(args, "VMT", bitmc::ts::vmt::write)
}

/// Writes a C program's word-level system with `write` (in `format`, which a DimSpec or AIGER
/// system, having no word level, cannot be written in).
fn run_word_level(
    args: &ExportArgs,
    format: &str,
    write: fn(&Cfa, &ProgramSystem, &[String]) -> String,
) -> anyhow::Result<u8> {
    if !is_c_input(&args.program.file) {
        anyhow::bail!(
            "{}: {format} is written for C programs (.c, .i, .yml) only: a DimSpec or AIGER system has no word level",
            args.program.file.display()
        );
    }
    let (cfa, ps) = program_system(&args.program)?;
    let mut comments = vec![
        format!("bitmc system of {}", args.program.file.display()),
        format!("property {}, data model {}", cfa.property, cfa.data_model),
        "bad: the program counter at the error location".to_string(),
    ];
    comments.push(format!(
        "pc ({:?}): init location code {}, error location code {}, terminated code {}",
        ps.pc,
        cfa.init.index(),
        cfa.error.index(),
        cfa.locations.len()
    ));
    let text = write(&cfa, &ps, &comments);
    std::fs::write(&args.output, text)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(EXIT_SAFE)
}
