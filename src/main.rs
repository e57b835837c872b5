//! The `bitmc` command line: argument parsing and dispatch only; the logic lives in the library.

mod cli;

fn main() {
    // Output piped into a reader that stops early (`bitmc verify F | head -1`) ends the
    // process quietly, as it does for other Unix tools, instead of a panic while printing.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::main()
}
