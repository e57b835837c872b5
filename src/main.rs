//! The `bitmc` command line: argument parsing and dispatch only; the logic lives in the library.

mod cli;

fn main() {
    cli::main()
}
