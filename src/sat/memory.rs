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
/// the memory the system reports available otherwise; and within the memory limit of its
/// control group (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`, against the group's
/// current use), where benchmark runners such as BenchExec put their limit. When none can be
/// read, there is room.
pub fn room_for(bytes: usize) -> bool {
    match headroom() {
        Some(free) => bytes.saturating_add(RESERVE) <= free,
        None => true,
    }
}

/// The bytes the process may still allocate, if known.
pub fn headroom() -> Option<usize> {
    let own = process_headroom();
    match (own, cgroup_headroom()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What the memory limit of the process's control group leaves, if it has one.
fn cgroup_headroom() -> Option<usize> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let (dir, limit_file, usage_file) = cgroup_memory_files(&own)?;
    let read = |f: &str| -> Option<usize> {
        let t = std::fs::read_to_string(format!("{dir}/{f}")).ok()?;
        t.trim().parse().ok()
    };
    let limit = read(limit_file)?;
    let used = read(usage_file).unwrap_or(0);
    // v1 writes "no limit" as a number near the largest one.
    (limit < (1usize << 60)).then(|| limit.saturating_sub(used))
}

/// The directory of the memory controller of the process's control group, as
/// `/proc/self/cgroup` (`text`) gives it, with the names of its limit and usage files.
fn cgroup_memory_files(text: &str) -> Option<(String, &'static str, &'static str)> {
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        if controllers.split(',').any(|c| c == "memory") {
            return Some((
                format!("/sys/fs/cgroup/memory{path}"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            ));
        }
    }
    let v2 = text.lines().find_map(|l| l.strip_prefix("0::"))?;
    Some((
        format!("/sys/fs/cgroup{v2}"),
        "memory.max",
        "memory.current",
    ))
}

/// What the address-space limit, or the system's available memory, leaves.
fn process_headroom() -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::cgroup_memory_files;

    #[test]
    fn the_memory_controller_is_found_in_either_cgroup_version() {
        let v1 = "9:name=systemd:/\n4:memory:/bench/run1\n0::/\n";
        assert_eq!(
            cgroup_memory_files(v1),
            Some((
                "/sys/fs/cgroup/memory/bench/run1".to_string(),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes"
            ))
        );
        let v2 = "0::/user.slice/run2\n";
        assert_eq!(
            cgroup_memory_files(v2),
            Some((
                "/sys/fs/cgroup/user.slice/run2".to_string(),
                "memory.max",
                "memory.current"
            ))
        );
        assert_eq!(cgroup_memory_files(""), None);
    }
}
