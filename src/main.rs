//! The `bitmc` command line: argument parsing and dispatch only (`cli`), and `bitmc bench`, which
//! runs the binary itself on benchmark sets (`bench`); the logic lives in the library.

mod bench;
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
