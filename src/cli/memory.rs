//! The binary's global allocator: the system allocator, except that a failed allocation ends
//! the process with an answer instead of an abort. Rust aborts on allocation failure (there is
//! no stable way to recover), which would end a verification with a signal and no verdict
//! line; here `verify` and `solve` print `UNKNOWN (memory)` and exit with code 20, the other
//! commands print an error and exit with code 1.
//!
//! The engines avoid getting here: they check their memory budget before they grow
//! (`bitmc::engine::unroll::too_large`), and CaDiCaL's allocation failures end only the engine
//! whose solver failed (`bitmc::sat::Failure::OutOfMemory`). This is the last resort for an
//! allocation in Rust code that fails first.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

#[global_allocator]
static ALLOCATOR: ExitOnFailure = ExitOnFailure;

/// Whether the running command gives a verdict (its last line must then be one).
static VERDICT_COMMAND: AtomicBool = AtomicBool::new(false);

/// Say that the running command gives a verdict, so that running out of memory ends it with
/// `UNKNOWN`.
pub fn gives_verdict() {
    VERDICT_COMMAND.store(true, Ordering::SeqCst);
}

struct ExitOnFailure;

// SAFETY: every method forwards to `System` with the same arguments and returns its result;
// a null result (a failure) never returns, so callers only ever see valid allocations.
unsafe impl GlobalAlloc for ExitOnFailure {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        checked(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        checked(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        checked(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }
}

fn checked(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        out_of_memory(size);
    }
    ptr
}

/// Report the failed allocation of `size` bytes and exit, without allocating.
fn out_of_memory(size: usize) -> ! {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = size;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let note: [&[u8]; 3] = [
        b"note: memory: an allocation of ",
        &digits[i..],
        b" bytes failed\n",
    ];
    for part in note {
        write_all(libc::STDERR_FILENO, part);
    }
    let code = if VERDICT_COMMAND.load(Ordering::SeqCst) {
        write_all(libc::STDOUT_FILENO, b"UNKNOWN (memory)\nUNKNOWN\n");
        super::EXIT_UNKNOWN
    } else {
        write_all(libc::STDERR_FILENO, b"error: out of memory\n");
        super::EXIT_ERROR
    };
    // SAFETY: `_exit` ends the process at once (no destructors or atexit handlers, which
    // could allocate); it has no memory-safety preconditions.
    unsafe { libc::_exit(code as libc::c_int) }
}

fn write_all(fd: libc::c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is a valid buffer of `bytes.len()` bytes for the whole call.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            return;
        }
        bytes = &bytes[n as usize..];
    }
}
