//! `bitmc cfa`: print the control-flow automaton of a C program.

use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CfaArgs {
    /// The C file (.c or preprocessed .i).
    pub file: PathBuf,
}

pub fn run(_args: &CfaArgs) -> anyhow::Result<u8> {
    anyhow::bail!("the C front end is not part of this build")
}
