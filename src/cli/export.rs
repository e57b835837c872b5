//! `bitmc dimspec` and `bitmc aiger`: write a transition system in the other formats.

use super::EXIT_SAFE;
use anyhow::Context;
use bitmc::aig::aiger::{self, Format};
use bitmc::ts::aiger::{from_aiger, to_aiger};
use bitmc::ts::{dimspec as ts_dimspec, System};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The input: DimSpec (.cnf, .spec, .dimspec) or AIGER (.aag, .aig).
    pub file: PathBuf,
    /// The output file. For `aiger`, the extension chooses the encoding: `.aag` ASCII, `.aig`
    /// binary.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

/// Read any supported transition-system file into a system.
pub fn load_system(path: &Path) -> anyhow::Result<(System, Vec<String>)> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
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
    let (sys, comments) = load_system(&args.file)?;
    let problem = ts_dimspec::to_problem(&sys, comments);
    let out = std::fs::File::create(&args.output).with_context(|| format!("cannot create {}", args.output.display()))?;
    let mut w = std::io::BufWriter::new(out);
    dimspec::write(&problem, &mut w).with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(EXIT_SAFE)
}

pub fn run_aiger(args: &ExportArgs) -> anyhow::Result<u8> {
    let ext = args.output.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let format = match ext.as_str() {
        "aag" => Format::Ascii,
        "aig" => Format::Binary,
        _ => anyhow::bail!("{}: the output must end in .aag (ASCII) or .aig (binary)", args.output.display()),
    };
    let (sys, comments) = load_system(&args.file)?;
    let file = to_aiger(&sys, comments);
    let bytes = file.to_bytes(format).map_err(|e| anyhow::anyhow!("{e}"))?;
    std::fs::write(&args.output, bytes).with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(EXIT_SAFE)
}
