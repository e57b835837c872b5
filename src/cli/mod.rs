//! Command-line interface: clap definitions of every subcommand and the dispatch to them.
//!
//! Exit codes (also printed by `--help`):
//! - 0: SAFE / TRUE (the property holds), or success of a command that gives no verdict;
//! - 10: UNSAFE / FALSE (a violation, with a checked counterexample);
//! - 20: UNKNOWN (timeout, bound reached, out of memory, an UNKNOWN sink reached, …);
//! - 1: error in the input or its use (unreadable or malformed file, unsupported C, bad option);
//! - 2: command-line usage error (reported by the argument parser);
//! - 3: internal error (a bug in bitmc; no verdict is given).

use clap::{CommandFactory, Parser, Subcommand};

/// Exit code of SAFE / TRUE and of commands without a verdict.
pub const EXIT_SAFE: u8 = 0;
/// Exit code of UNSAFE / FALSE.
pub const EXIT_UNSAFE: u8 = 10;
/// Exit code of UNKNOWN.
pub const EXIT_UNKNOWN: u8 = 20;
/// Exit code of an input or usage error.
pub const EXIT_ERROR: u8 = 1;
/// Exit code of an internal error.
pub const EXIT_INTERNAL: u8 = 3;

const EXIT_CODES_HELP: &str = "\
Exit codes:
  0   SAFE / TRUE: the property holds (or the command succeeded)
  10  UNSAFE / FALSE: a checked violation was found
  20  UNKNOWN: no verdict (timeout, bound reached, out of memory, ...)
  1   error in the input (malformed file, unsupported C, missing file, bad option)
  2   command-line usage error
  3   internal error (a bug in bitmc; no verdict is given)";

#[derive(Parser, Debug)]
#[command(
    name = "bitmc",
    version,
    about = "A bit-precise model checker for C programs without heap",
    long_about = "bitmc proves that an error is unreachable in a C program (SAFE, with an invariant that an \
independent SAT solver re-checks) or shows an execution that reaches it (UNSAFE, with a trace replayed on \
a concrete interpreter). It also solves transition systems given as DimSpec or AIGER files.",
    after_help = EXIT_CODES_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Verify a C program (.c, .i) or an SV-COMP task (.yml).
    #[command(after_help = EXIT_CODES_HELP)]
    Verify(verify::VerifyArgs),
    /// Solve a transition system given as DimSpec (.cnf, .spec, .dimspec) or AIGER (.aag, .aig).
    #[command(after_help = EXIT_CODES_HELP)]
    Solve(solve::SolveArgs),
    /// Write a transition system as DimSpec (the subset IncPlan and MinireachIC3 both read).
    Dimspec(export::ExportArgs),
    /// Write a transition system as AIGER 1.9 (.aag ASCII or .aig binary).
    Aiger(export::ExportArgs),
    /// Write a C program's transition system at word level, before bit-blasting, as BTOR2
    /// (.btor2; the format of BtorMC, pono and the hardware model-checking competition).
    Btor2(export::ExportArgs),
    /// Write a C program's transition system at word level as VMT (.vmt; SMT-LIB 2 with
    /// `:next`, `:init`, `:trans` and `:invar-property` annotations, the format of ic3ia).
    Vmt(export::ExportArgs),
    /// Print the control-flow automaton of a C program (text or Graphviz DOT).
    #[command(after_help = EXIT_CODES_HELP)]
    Cfa(cfa::CfaArgs),
    /// Run a benchmark set: every task under every configuration in its own process, with a
    /// time and a memory limit; writes a CSV, a markdown summary and a cactus plot.
    Bench(crate::bench::BenchArgs),
}

/// Parse the command line, run the command, and exit with its code.
pub fn main() -> ! {
    let cli = Cli::parse_from(with_default_command(std::env::args_os().collect()));
    if matches!(cli.command, Command::Verify(_) | Command::Solve(_)) {
        memory::gives_verdict();
    }
    let result = match &cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Cfa(a) => cfa::run(a),
        Command::Dimspec(a) => export::run_dimspec(a),
        Command::Aiger(a) => export::run_aiger(a),
        Command::Btor2(a) => export::run_btor2(a),
        Command::Vmt(a) => export::run_vmt(a),
        Command::Bench(a) => crate::bench::run(a),
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            // Errors that carry their position already say what they are (`FILE:LINE:COL:
            // error: …`, as compilers print them).
            let text = format!("{e:#}");
            if text.contains(": error: ") || text.contains(": fatal error: ") {
                eprintln!("{text}");
            } else {
                eprintln!("error: {text}");
            }
            EXIT_ERROR
        }
    };
    // Exit at once: tearing down large solver states can take seconds after a timeout, and
    // `exit` would still free the solvers kept for later by the engines (thread-local
    // destructors of the main thread run in `exit`).
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process without running destructors or `atexit` handlers; the
    // output is flushed above and every file written is closed.
    unsafe { libc::_exit(code as libc::c_int) }
}

/// `bitmc FILE.c [OPTIONS]` (and `bitmc [OPTIONS] FILE.c`) means `bitmc verify …`: when the
/// first argument is neither a command nor `-h`/`--help`/`-V`/`--version`, but a file that
/// `verify` reads (`.c`, `.i`, `.yml`, `.yaml`) or an option, `verify` is put before it.
fn with_default_command(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let Some(first) = args.get(1).and_then(|a| a.to_str()) else {
        return args;
    };
    let is_command = Cli::command()
        .get_subcommands()
        .any(|c| c.get_name() == first)
        || first == "help";
    let is_info = matches!(first, "-h" | "--help" | "-V" | "--version");
    let verify_input = [".c", ".i", ".yml", ".yaml"]
        .iter()
        .any(|e| first.ends_with(e));
    if !is_command && !is_info && (verify_input || first.starts_with('-')) {
        args.insert(1, "verify".into());
    }
    args
}

pub mod cfa;
pub mod common;
pub mod export;
pub mod flags;
pub mod json;
pub mod limits;
pub mod memory;
pub mod plan_map;
pub mod program;
pub mod report;
pub mod solve;
pub mod verify;
pub mod witness;
