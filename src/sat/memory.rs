//! How much memory the process may still use: the budget checks of the engines
//! ([`crate::engine::unroll::too_large`]) and the start of helper threads ask [`room_for`]
//! before they grow, so that allocations do not fail. (They still may: a SAT solver grows
//! while it searches. CaDiCaL's failures are caught, see [`super::Failure`]; the binary turns a
//! failed allocation in Rust code into an UNKNOWN answer.)

/// Bytes of address space kept free for what is allocated without a budget check: thread and
/// signal stacks, malloc arenas, the bookkeeping of the engines and of the verdict's check.
pub const RESERVE: usize = 256 << 20;

/// Whether the process can grow by `bytes` more and still keep [`RESERVE`] free: within its
/// address-space limit (`RLIMIT_AS`, against its current size) when it has one, and within
/// the memory the system reports available otherwise. When neither can be read, there is
/// room.
pub fn room_for(bytes: usize) -> bool {
    match headroom() {
        Some(free) => bytes.saturating_add(RESERVE) <= free,
        None => true,
    }
}

/// The bytes the process may still allocate, if known.
pub fn headroom() -> Option<usize> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only writes the `rlimit` it is given.
    let limited = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } == 0
        && lim.rlim_cur != libc::RLIM_INFINITY;
    if limited {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: usize = statm.split_whitespace().next()?.parse().ok()?;
        // SAFETY: `sysconf` has no memory-safety preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
        let limit = usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX);
        return Some(limit.saturating_sub(pages.saturating_mul(page)));
    }
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}
