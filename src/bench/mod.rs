//! `bitmc bench`: runs every task of a benchmark set once per configuration, each in its own
//! child process under a time and a memory limit, and writes `results.csv`, `summary.md` and
//! `cactus.svg` (see [`report`] and [`plot`] for their contents).
//!
//! The driver: discover the tasks ([`tasks`]), run (task × configuration) on `--jobs` worker
//! threads, each run one child process ([`run`]), judge every run against its expectation, show
//! progress on stderr, write the reports and print the table. Ctrl-C stops the running children
//! and writes the reports of the runs that finished.

pub mod peer;
pub mod plot;
pub mod report;
pub mod run;
pub mod tasks;

use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Exit code of a bench with at least one wrong answer.
pub const EXIT_WRONG: u8 = 4;
/// Exit code of a bench stopped by SIGINT / SIGTERM (after writing the partial reports).
pub const EXIT_INTERRUPTED: u8 = 130;

const BENCH_HELP: &str = "\
Tasks:
  C file (.c, .i) with a `// expect: p=true|false|unknown ...` header: one task per
      property, run as `bitmc verify FILE --property P ARGS` (`// expect(lp64):` applies
      when ARGS select `--data-model lp64`; `p=unknown` expects UNKNOWN, a violation only
      after undefined behaviour; `error=unsupported` expects exit code 1)
  SV-COMP task (.yml): one task per property bitmc checks (unreach-call, no-overflow),
      run as `bitmc verify TASK.yml --property P ARGS`
  DimSpec (.cnf, .spec, .dimspec), AIGER (.aag, .aig): run as `bitmc solve FILE ARGS`;
      expected verdict from EXPECTED.tsv beside the file (columns file and
      goal_reachable yes/no, or verdict unsafe/safe), if any
  A directory is searched recursively; a LIST names one task or directory per line,
  relative to the list's directory (# starts a comment).

Peers: `--peer abc-pdr` adds ABC's `fold; pdr` as a configuration; `--peer NAME='CMD'`
  with `--peer-safe NAME=TEXT --peer-unsafe NAME=TEXT` adds any tool. A peer runs on the
  task's AIGER ({aiger} in CMD) or DimSpec ({dimspec}) file; a C task is exported first with
  `bitmc aiger` / `bitmc dimspec` into the logs, so that `--config pdr='--engine pdr'` on
  those files and the peer can be compared. A peer's wrong answers count like bitmc's.

Verdicts: the last line of a run's stdout (TRUE, FALSE(p), SAFE, UNSAFE, UNKNOWN), which
  must agree with its exit code (0, 10, 20); TIMEOUT when stopped at the time limit,
  OUT OF MEMORY when it failed to allocate under the memory limit, ERROR otherwise (the
  note is the first error line of its stderr). Status: correct, wrong, unknown, timeout,
  memout, error, or no-expectation (a verdict for a task without an expected verdict).

Outputs in --out: results.csv, summary.md, cactus.svg, logs/CONFIG/TASK.{out,err}.

Exit codes:
  0    no wrong answer
  4    at least one wrong answer (listed in summary.md and on stdout)
  1    error (no tasks, unreadable list, bad option, cannot write the outputs)
  2    command-line usage error
  130  interrupted (the reports of the finished runs are written)";

#[derive(Args, Debug)]
#[command(after_help = BENCH_HELP)]
pub struct BenchArgs {
    /// Task lists, directories or single task files.
    #[arg(required = true, value_name = "LIST|DIR")]
    pub inputs: Vec<PathBuf>,
    /// Wall-clock time limit of one run, in seconds (SIGTERM, then SIGKILL 1 s later).
    #[arg(long, value_name = "S")]
    pub timeout: f64,
    /// A configuration: a name and the extra arguments given to every run, split like a shell
    /// would (e.g. `--config bmc='--engine bmc --max-depth 50'`). Repeatable; every task runs
    /// once per configuration. Default: one configuration `default` without extra arguments.
    /// `{run}` in the arguments stands for the run's log path without its extension, so that
    /// files a run writes are kept beside its logs (e.g. `--witness {run}.yml`).
    #[arg(long = "config", value_name = "NAME='ARGS'")]
    pub configs: Vec<String>,
    /// An ablation of ENGINE's options (bmc, kind, pdr, ic3cfa, euf): one configuration per entry
    /// of its option table, the engine as the only portfolio member with its defaults
    /// (`ENGINE.default`), with each switch turned the other way alone (e.g. `pdr.no-ctg`,
    /// `--member pdr:cadical:no-ctg`), and with each preset (`ic3cfa.baseline`). Repeatable,
    /// and mixed with `--config` in one table.
    #[arg(long, value_name = "ENGINE")]
    pub ablate: Vec<String>,
    /// An external tool as a configuration (a peer): `NAME='COMMAND'`, the command run on the
    /// task's AIGER file where it says `{aiger}` or its DimSpec file where it says `{dimspec}`
    /// (C tasks are exported first by bitmc, outside the run's time), its verdict read with
    /// `--peer-safe` and `--peer-unsafe`; or a built-in peer by name alone: `abc-pdr`, ABC's
    /// `fold; pdr` (berkeley-abc). Repeatable, and mixed with `--config` in one table.
    #[arg(long = "peer", value_name = "NAME[='COMMAND']")]
    pub peers: Vec<String>,
    /// `NAME=TEXT`: the peer's verdict is SAFE when its standard output contains TEXT.
    #[arg(long = "peer-safe", value_name = "NAME=TEXT")]
    pub peer_safe: Vec<String>,
    /// `NAME=TEXT`: the peer's verdict is UNSAFE when its standard output contains TEXT
    /// (checked before the safe text). Without either text in its output, a peer that exits
    /// with 0 answered UNKNOWN.
    #[arg(long = "peer-unsafe", value_name = "NAME=TEXT")]
    pub peer_unsafe: Vec<String>,
    /// Runs in parallel. Timings are only comparable when runs do not share cores: keep the
    /// default of 1 on a machine with few cores.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Memory limit of one run in MiB, enforced as an address-space limit (RLIMIT_AS); 0 for none.
    #[arg(long, value_name = "MB", default_value_t = 8000)]
    pub memory: u64,
    /// Directory of the outputs (created if needed; earlier outputs are overwritten).
    #[arg(long, value_name = "DIR", default_value = "bench-out")]
    pub out: PathBuf,
    /// The bitmc executable to run (default: this one).
    #[arg(long, value_name = "PATH")]
    pub bitmc: Option<PathBuf>,
    /// Run only the tasks whose name contains SUBSTRING.
    #[arg(long, value_name = "SUBSTRING")]
    pub filter: Option<String>,
}

/// A named configuration: the extra arguments of every run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub name: String,
    pub args: Vec<String>,
    /// The arguments select `--data-model lp64` (C expectations use `expect(lp64)`).
    pub lp64: bool,
    /// An external tool instead of bitmc (`args` is then empty).
    pub peer: Option<peer::Peer>,
}

/// The peers of `--peer`, with their texts from `--peer-safe` and `--peer-unsafe`.
pub fn parse_peers(
    peers: &[String],
    safe: &[String],
    unsafe_: &[String],
) -> anyhow::Result<Vec<Config>> {
    let texts = |list: &[String], flag: &str| -> anyhow::Result<Vec<(String, String)>> {
        list.iter()
            .map(|s| match s.split_once('=') {
                Some((n, t)) => Ok((n.trim().to_string(), t.to_string())),
                None => bail!("{flag} {s}: expected NAME=TEXT"),
            })
            .collect()
    };
    let (safe, unsafe_) = (
        texts(safe, "--peer-safe")?,
        texts(unsafe_, "--peer-unsafe")?,
    );
    let mut out = Vec::new();
    for spec in peers {
        let (name, command) = match spec.split_once('=') {
            Some((n, c)) => (n.trim(), Some(c)),
            None => (spec.trim(), None),
        };
        check_name(name, spec)?;
        let find = |l: &[(String, String)]| l.iter().find(|(n, _)| n == name).map(|x| x.1.clone());
        let peer = match command {
            Some(c) => {
                let (Some(s), Some(u)) = (find(&safe), find(&unsafe_)) else {
                    bail!("--peer {spec}: give the texts of its verdicts with --peer-safe {name}=TEXT and --peer-unsafe {name}=TEXT");
                };
                peer::Peer::new(c, &s, &u).map_err(|e| anyhow::anyhow!("--peer {name}: {e}"))?
            }
            None => match peer::Peer::preset(name) {
                Some(p) => p.map_err(|e| anyhow::anyhow!("--peer {name}: {e}"))?,
                None => bail!(
                    "--peer {name}: no built-in peer of that name (built in: {}); give NAME='COMMAND'",
                    peer::PRESETS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
                ),
            },
        };
        out.push(Config {
            name: name.to_string(),
            args: Vec::new(),
            lp64: false,
            peer: Some(peer),
        });
    }
    for (n, _) in safe.iter().chain(&unsafe_) {
        if !out.iter().any(|c| &c.name == n) {
            bail!("--peer-safe/--peer-unsafe {n}: no --peer of that name");
        }
    }
    Ok(out)
}

/// A configuration's name: non-empty, letters, digits and `. _ + -`.
fn check_name(name: &str, spec: &str) -> anyhow::Result<()> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
    {
        bail!("{spec}: the name must be non-empty and use only letters, digits and . _ + -");
    }
    Ok(())
}

/// Parse `NAME=ARGS` (or a bare `NAME`, without arguments).
pub fn parse_config(s: &str) -> anyhow::Result<Config> {
    let (name, rest) = s.split_once('=').unwrap_or((s, ""));
    let name = name.trim();
    check_name(name, &format!("--config {s}"))?;
    let Some(args) = shlex::split(rest) else {
        bail!("--config {s}: unbalanced quotes or a trailing backslash in the arguments");
    };
    let lp64 = args
        .windows(2)
        .any(|w| w[0] == "--data-model" && w[1].eq_ignore_ascii_case("lp64"))
        || args
            .iter()
            .any(|a| a.eq_ignore_ascii_case("--data-model=lp64"));
    Ok(Config {
        name: name.to_string(),
        args,
        lp64,
        peer: None,
    })
}

/// The configurations of `--ablate ENGINE`, from the engine's option table.
pub fn ablation_configs(engine: &str) -> anyhow::Result<Vec<Config>> {
    let Some(kind) = bitmc::engine::EngineKind::from_name(engine) else {
        bail!(
            "--ablate {engine}: no such engine ({})",
            bitmc::engine::EngineKind::names()
        );
    };
    let members = bitmc::engine::portfolio::ablation(kind, bitmc::sat::Backend::Cadical);
    Ok(members
        .into_iter()
        .map(|(label, m)| Config {
            name: format!("{engine}.{label}"),
            args: vec!["--member".into(), m.to_string()],
            lp64: false,
            peer: None,
        })
        .collect())
}

/// Raised by SIGINT / SIGTERM.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(sig: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    // A second signal ends bench at once (the children die with it: PR_SET_PDEATHSIG).
    // SAFETY: signal() is async-signal-safe.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
    }
}

fn install_signal_handlers() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic and resets its own disposition.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// One run to do: a task under a configuration, and where its logs go.
struct Job {
    task: usize,
    config: usize,
    log: PathBuf,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<u8> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds");
    }
    if args.jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let configs = configurations(args)?;
    let program = bitmc_program(args)?;
    let mut found = tasks::discover(&args.inputs)?;
    if let Some(f) = &args.filter {
        found.tasks.retain(|t| t.name.contains(f.as_str()));
    }
    if found.tasks.is_empty() {
        bail!("no tasks to run (notes: {})", found.notes.join("; "));
    }
    let logs = args.out.join("logs");
    for c in &configs {
        let d = logs.join(&c.name);
        std::fs::create_dir_all(&d).with_context(|| format!("cannot create {}", d.display()))?;
    }
    let jobs = plan_jobs(&found.tasks, &configs, &logs);
    let limits = run::Limits {
        timeout: Duration::from_secs_f64(args.timeout),
        grace: Duration::from_secs(1),
        memory_mb: args.memory,
    };
    let memory = match args.memory {
        0 => "none".to_string(),
        mb => format!("{mb} MiB"),
    };
    eprintln!(
        "bench: {} tasks x {} configurations = {} runs; time limit {} s, memory limit {memory}, {} job{}; logs in {}",
        found.tasks.len(),
        configs.len(),
        jobs.len(),
        args.timeout,
        args.jobs,
        if args.jobs == 1 { "" } else { "s" },
        logs.display()
    );
    install_signal_handlers();
    let plan = Plan {
        jobs: &jobs,
        tasks: &found.tasks,
        configs: &configs,
        program: &program,
        limits: &limits,
    };
    let rows = plan.run(args.jobs);
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);
    write_reports(args, &rows, &configs, &found.notes, interrupted)
}

/// The configurations of the command line (`--config`, `--ablate`, then the peers), or the
/// default one; their names must differ.
fn configurations(args: &BenchArgs) -> anyhow::Result<Vec<Config>> {
    let mut configs = args
        .configs
        .iter()
        .map(|c| parse_config(c))
        .collect::<anyhow::Result<Vec<_>>>()?;
    for engine in &args.ablate {
        configs.extend(ablation_configs(engine)?);
    }
    let peers = parse_peers(&args.peers, &args.peer_safe, &args.peer_unsafe)?;
    if configs.is_empty() && peers.is_empty() {
        configs.push(Config {
            name: "default".into(),
            args: vec![],
            lp64: false,
            peer: None,
        });
    }
    configs.extend(peers);
    let mut names = HashSet::new();
    for c in &configs {
        if !names.insert(c.name.as_str()) {
            bail!("--config: the name {} is used twice", c.name);
        }
    }
    Ok(configs)
}

/// The bitmc binary the runs start: `--bitmc`, or this one.
fn bitmc_program(args: &BenchArgs) -> anyhow::Result<PathBuf> {
    match &args.bitmc {
        // A bare name is looked up in PATH when the first run starts.
        Some(p) if p.components().count() > 1 && !p.is_file() => {
            bail!("--bitmc {}: no such file", p.display())
        }
        Some(p) => Ok(p.clone()),
        None => std::env::current_exe().context("cannot find the running executable; give --bitmc"),
    }
}

/// The runs of a benchmark and what they need.
struct Plan<'a> {
    jobs: &'a [Job],
    tasks: &'a [tasks::Task],
    configs: &'a [Config],
    program: &'a Path,
    limits: &'a run::Limits,
}

impl Plan<'_> {
    /// Run every job on `workers` threads, each run one child process, and judge each as it
    /// ends; the rows in job order (runs cancelled by an interrupt left out).
    fn run(&self, workers: usize) -> Vec<report::Row> {
        let mut progress = Progress::new(self.jobs.len());
        let (job_tx, job_rx) = crossbeam_channel::unbounded::<usize>();
        let (res_tx, res_rx) = crossbeam_channel::unbounded::<(usize, run::Measured)>();
        for i in 0..self.jobs.len() {
            let _ = job_tx.send(i);
        }
        drop(job_tx);
        let mut rows: Vec<(usize, report::Row)> = Vec::with_capacity(self.jobs.len());
        std::thread::scope(|scope| {
            for _ in 0..workers.min(self.jobs.len()) {
                let (job_rx, res_tx) = (job_rx.clone(), res_tx.clone());
                scope.spawn(move || {
                    while let Ok(i) = job_rx.recv() {
                        if INTERRUPTED.load(Ordering::SeqCst)
                            || res_tx.send((i, self.one(i))).is_err()
                        {
                            break;
                        }
                    }
                });
            }
            drop(res_tx);
            for (i, m) in res_rx.iter() {
                if m.outcome == run::Outcome::Cancelled {
                    continue;
                }
                let j = &self.jobs[i];
                let (task, config) = (&self.tasks[j.task], &self.configs[j.config]);
                let row = report::judge(task, task.expected(config.lp64), config, &m);
                progress.finished(&row);
                rows.push((i, row));
            }
        });
        progress.done();
        rows.sort_by_key(|(i, _)| *i);
        rows.into_iter().map(|(_, r)| r).collect()
    }

    /// Job `i` run and measured.
    fn one(&self, i: usize) -> run::Measured {
        let j = &self.jobs[i];
        let (task, config) = (&self.tasks[j.task], &self.configs[j.config]);
        match &config.peer {
            None => {
                let argv = command_args(task, config, &j.log);
                let reading = run::Reading::Bitmc;
                run::run(
                    self.program,
                    &argv,
                    &j.log,
                    self.limits,
                    &INTERRUPTED,
                    reading,
                )
            }
            Some(p) => run_peer(p, self.program, task, &j.log, self.limits),
        }
    }
}

/// Every (task, configuration) in task order, each with a log path of its own.
fn plan_jobs(tasks: &[tasks::Task], configs: &[Config], logs: &Path) -> Vec<Job> {
    let mut used = HashSet::new();
    let mut jobs = Vec::with_capacity(tasks.len() * configs.len());
    for (ti, t) in tasks.iter().enumerate() {
        for (ci, c) in configs.iter().enumerate() {
            let mut stem: String = t
                .name
                .replace('/', "__")
                .chars()
                .map(|ch| {
                    if ch.is_ascii_alphanumeric() || "._-+".contains(ch) {
                        ch
                    } else {
                        '_'
                    }
                })
                .collect();
            if let Some(p) = &t.property {
                stem = format!("{stem}.{p}");
            }
            let mut log = logs.join(&c.name).join(&stem);
            let mut n = 2;
            while !used.insert(log.clone()) {
                log = logs.join(&c.name).join(format!("{stem}-{n}"));
                n += 1;
            }
            jobs.push(Job {
                task: ti,
                config: ci,
                log,
            });
        }
    }
    jobs
}

/// A peer's run on a task: its input file (exported from a C task first), then the peer.
fn run_peer(
    p: &peer::Peer,
    bitmc: &Path,
    task: &tasks::Task,
    log: &Path,
    limits: &run::Limits,
) -> run::Measured {
    let is_c = task.kind == tasks::Kind::Verify;
    let failed = |note: String| run::Measured {
        outcome: run::Outcome::Error,
        wall: 0.0,
        cpu: 0.0,
        peak_mb: 0.0,
        note,
    };
    let (file, export) = match p.input(&task.path, is_c, task.property.as_deref(), log) {
        Ok(x) => x,
        Err(e) => return failed(e),
    };
    if let Some(export) = export {
        match std::process::Command::new(bitmc).args(&export).output() {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                let err = String::from_utf8_lossy(&o.stderr);
                let first = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                return failed(format!("the export for the peer failed: {first}"));
            }
            Err(e) => return failed(format!("cannot run {}: {e}", bitmc.display())),
        }
    }
    let (program, argv) = p.command(&file);
    run::run(
        &program,
        &argv,
        log,
        limits,
        &INTERRUPTED,
        run::Reading::Peer(p),
    )
}

/// The arguments of the child: `verify FILE --property P ARGS` or `solve FILE ARGS`, with
/// `{run}` in ARGS replaced by the run's log path.
fn command_args(task: &tasks::Task, config: &Config, log: &Path) -> Vec<OsString> {
    let mut argv: Vec<OsString> = Vec::new();
    match task.kind {
        tasks::Kind::Verify => {
            argv.push("verify".into());
            argv.push(task.path.clone().into());
            if let Some(p) = &task.property {
                argv.push("--property".into());
                argv.push(p.into());
            }
        }
        tasks::Kind::Solve => {
            argv.push("solve".into());
            argv.push(task.path.clone().into());
        }
    }
    let run = log.to_string_lossy();
    argv.extend(
        config
            .args
            .iter()
            .map(|a| OsString::from(a.replace("{run}", &run))),
    );
    argv
}

fn write_reports(
    args: &BenchArgs,
    rows: &[report::Row],
    configs: &[Config],
    notes: &[String],
    interrupted: bool,
) -> anyhow::Result<u8> {
    let write = |name: &str, text: &str| {
        let p = args.out.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))
    };
    write("results.csv", &report::csv(rows))?;
    let sums = report::summarize(rows, configs, args.timeout);
    let doc = report::SummaryDoc {
        sums: &sums,
        rows,
        configs,
        timeout: args.timeout,
        memory_mb: args.memory,
        jobs: args.jobs,
        notes,
        interrupted,
    };
    write("summary.md", &report::summary_md(&doc))?;
    let series: Vec<(String, Vec<f64>)> = configs
        .iter()
        .map(|c| {
            let times = rows
                .iter()
                .filter(|r| r.config == c.name && r.solved())
                .map(|r| r.wall)
                .collect();
            (c.name.clone(), times)
        })
        .collect();
    plot::cactus(&args.out.join("cactus.svg"), &series, args.timeout)?;

    print!("{}", report::table(&sums));
    println!();
    print!("{}", report::wrong_section(&sums));
    eprintln!(
        "wrote {0}/results.csv, {0}/summary.md, {0}/cactus.svg",
        args.out.display()
    );
    let wrong = sums.iter().any(|s| !s.wrong.is_empty());
    if interrupted {
        eprintln!(
            "bench: interrupted; the reports cover the {} finished runs",
            rows.len()
        );
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(if wrong { EXIT_WRONG } else { 0 })
}

/// Progress on stderr: a bar on a terminal, one line per finished run otherwise. Wrong answers
/// are printed as they happen in both cases.
struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    done: usize,
    correct: usize,
    wrong: usize,
    other: usize,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total as u64);
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} [{elapsed_precise}, eta {eta}] {msg}",
            ) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        Progress {
            bar,
            total,
            done: 0,
            correct: 0,
            wrong: 0,
            other: 0,
        }
    }

    fn finished(&mut self, r: &report::Row) {
        self.done += 1;
        match r.status {
            report::Status::Correct => self.correct += 1,
            report::Status::Wrong => self.wrong += 1,
            _ => self.other += 1,
        }
        let prop = if r.property.is_empty() {
            String::new()
        } else {
            format!(" {}", r.property)
        };
        let status = if r.status == report::Status::Wrong {
            "WRONG".to_string()
        } else {
            r.status.as_str().to_string()
        };
        let line = format!(
            "[{:>w$}/{}] {status:<14} {:>8.2} s  {}  {}{prop}  {}",
            self.done,
            self.total,
            r.wall,
            r.config,
            r.task,
            r.verdict,
            w = self.total.to_string().len()
        );
        match &self.bar {
            Some(bar) => {
                if r.status == report::Status::Wrong {
                    bar.println(format!("{line}   <-- WRONG, expected {}", r.expected));
                }
                bar.set_message(format!(
                    "{} correct, {} wrong, {} other",
                    self.correct, self.wrong, self.other
                ));
                bar.inc(1);
            }
            None if r.status == report::Status::Wrong => {
                eprintln!("{line}   <-- WRONG, expected {}", r.expected)
            }
            None => eprintln!("{line}"),
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ablation_runs_every_switch_of_the_table() {
        let c = ablation_configs("pdr").unwrap();
        let names: Vec<&str> = c.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "pdr.default",
                "pdr.no-down",
                "pdr.no-ctg",
                "pdr.no-lift",
                "pdr.no-carry",
                "pdr.no-cones"
            ]
        );
        assert_eq!(c[0].args, ["--member", "pdr:cadical"]);
        assert_eq!(c[2].args, ["--member", "pdr:cadical:no-ctg"]);
        let c = ablation_configs("ic3cfa").unwrap();
        assert!(c.iter().any(|c| c.name == "ic3cfa.carry"));
        let baseline = c.iter().find(|c| c.name == "ic3cfa.baseline").unwrap();
        assert!(
            baseline.args[1].contains(":no-push:"),
            "{:?}",
            baseline.args
        );
        for c in &c {
            check_name(&c.name, "test").unwrap();
            c.args[1]
                .parse::<bitmc::engine::portfolio::Member>()
                .unwrap();
        }
        assert!(ablation_configs("portfolio").is_err());
    }

    #[test]
    fn configs() {
        let c = parse_config("bmc=--engine bmc --max-depth '20'").unwrap();
        assert_eq!(c.name, "bmc");
        assert_eq!(c.args, ["--engine", "bmc", "--max-depth", "20"]);
        assert!(!c.lp64);
        assert!(parse_config("x=--data-model LP64").unwrap().lp64);
        assert!(parse_config("x=--data-model=lp64").unwrap().lp64);
        assert_eq!(parse_config("plain").unwrap().args, Vec::<String>::new());
        assert!(parse_config("=--engine bmc").is_err());
        assert!(parse_config("a b=x").is_err());
        assert!(parse_config("x='unbalanced").is_err());
    }
}
