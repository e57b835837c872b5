//! The `bitmc` command line: argument parsing and dispatch only; the logic lives in the library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
