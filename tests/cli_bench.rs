//! `bitmc bench` through the command line: DimSpec tasks under two configurations (CSV rows,
//! summary counts, a well-formed cactus plot), a wrong expectation reported loudly with its own
//! exit code, a task stopped at the time limit, one that runs out of memory, and `verify` tasks
//! (C headers, SV-COMP task files, expected errors) run through a stub program.

mod support;

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::{bitmc, temp_dir};

const WRONG: i32 = 4;

/// One bit that flips every step, from 0; the goal (bit = 1) is reached after one step.
const REACHABLE: &str = "i cnf 1 1\n-1 0\nu cnf 1 0\ng cnf 1 1\n1 0\nt cnf 2 2\n1 2 0\n-1 -2 0\n";
/// One bit that keeps its value, from 0, beside one that flips every step (so that no path
/// comes to rest, and BMC cannot prove it); the goal (first bit = 1) is never reached.
const UNREACHABLE: &str =
    "i cnf 2 1\n-1 0\nu cnf 2 0\ng cnf 2 1\n1 0\nt cnf 4 4\n-1 3 0\n1 -3 0\n2 4 0\n-2 -4 0\n";
/// A literal out of range.
const MALFORMED: &str = "i cnf 1 1\n5 0\n";

fn write(path: &Path, text: &str) {
    if let Some(d) = path.parent() {
        fs::create_dir_all(d).unwrap();
    }
    fs::write(path, text).unwrap();
}

fn script(path: &Path, text: &str) {
    write(path, text);
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The rows of `results.csv` (no field of these tests needs quoting), keyed by
/// (task, property, config).
fn csv(out: &Path) -> HashMap<(String, String, String), HashMap<String, String>> {
    let text = fs::read_to_string(out.join("results.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        header,
        [
            "task", "property", "config", "expected", "verdict", "status", "wall_s", "cpu_s",
            "peak_mb", "note"
        ]
    );
    lines
        .map(|l| {
            let row: HashMap<String, String> = header
                .iter()
                .map(|h| h.to_string())
                .zip(l.splitn(header.len(), ',').map(String::from))
                .collect();
            (
                (
                    row["task"].clone(),
                    row["property"].clone(),
                    row["config"].clone(),
                ),
                row,
            )
        })
        .collect()
}

fn row<'a>(
    rows: &'a HashMap<(String, String, String), HashMap<String, String>>,
    task: &str,
    prop: &str,
    config: &str,
) -> &'a HashMap<String, String> {
    rows.get(&(task.to_string(), prop.to_string(), config.to_string()))
        .unwrap_or_else(|| panic!("no row for {task} {prop} {config} in {:?}", rows.keys()))
}

/// The cells of the summary table's row of `config`.
fn summary_row(summary: &str, config: &str) -> Vec<String> {
    let line = summary
        .lines()
        .find(|l| l.starts_with(&format!("| {config} |")))
        .unwrap_or_else(|| panic!("no row for {config} in\n{summary}"));
    line.trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn dimspec_tasks_under_two_configurations() {
    let dir = temp_dir("bench-dimspec");
    let tasks = dir.join("tasks");
    write(&tasks.join("reach.cnf"), REACHABLE);
    write(&tasks.join("safe.cnf"), UNREACHABLE);
    write(&tasks.join("broken.cnf"), MALFORMED);
    write(&tasks.join("more/extra.spec"), REACHABLE);
    write(&tasks.join("notes.txt"), "not a task\n");
    write(
        &tasks.join("EXPECTED.tsv"),
        "file\tgoal_reachable\tnote\nreach.cnf\tyes\t\nsafe.cnf\tno\t\nbroken.cnf\tyes\t\n",
    );
    let out = dir.join("out");
    let r = bitmc(&[
        "bench",
        s(&tasks),
        "--timeout",
        "30",
        "--config",
        "bmc=--engine bmc --max-depth 5",
        "--config",
        "pdr=--engine 'pdr'",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);

    let rows = csv(&out);
    assert_eq!(rows.len(), 8, "{rows:?}");
    let check = |task: &str, config: &str, expected: &str, verdict: &str, status: &str| {
        let r = row(&rows, task, "", config);
        assert_eq!(
            (
                r["expected"].as_str(),
                r["verdict"].as_str(),
                r["status"].as_str()
            ),
            (expected, verdict, status),
            "{r:?}"
        );
        assert!(r["wall_s"].parse::<f64>().unwrap() < 30.0);
        assert!(r["cpu_s"].parse::<f64>().unwrap() >= 0.0);
        assert!(r["peak_mb"].parse::<f64>().unwrap() > 0.0, "{r:?}");
    };
    check("tasks/reach.cnf", "bmc", "UNSAFE", "UNSAFE", "correct");
    check("tasks/reach.cnf", "pdr", "UNSAFE", "UNSAFE", "correct");
    check("tasks/safe.cnf", "bmc", "SAFE", "UNKNOWN", "unknown");
    check("tasks/safe.cnf", "pdr", "SAFE", "SAFE", "correct");
    check("tasks/broken.cnf", "bmc", "UNSAFE", "ERROR", "error");
    check("tasks/broken.cnf", "pdr", "UNSAFE", "ERROR", "error");
    check(
        "tasks/more/extra.spec",
        "bmc",
        "",
        "UNSAFE",
        "no-expectation",
    );
    check(
        "tasks/more/extra.spec",
        "pdr",
        "",
        "UNSAFE",
        "no-expectation",
    );
    let note = &row(&rows, "tasks/broken.cnf", "", "pdr")["note"];
    assert!(
        note.starts_with("error:") && note.contains("broken.cnf"),
        "{note}"
    );

    // config, tasks, correct, true, false, wrong, unknown, timeout, memout, error, no expectation, PAR-2, score, CPU
    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    let bmc = summary_row(&summary, "bmc");
    assert_eq!(
        &bmc[..11],
        ["bmc", "4", "1", "0", "1", "0", "1", "0", "0", "1", "1"],
        "{summary}"
    );
    assert_eq!(bmc[12], "1");
    let pdr = summary_row(&summary, "pdr");
    assert_eq!(
        &pdr[..11],
        ["pdr", "4", "2", "1", "1", "0", "0", "0", "0", "1", "1"],
        "{summary}"
    );
    assert_eq!(pdr[12], "3");
    // PAR-2 of bmc: two unsolved runs at 2 x 30 s plus the solved ones.
    let par2: f64 = bmc[11].parse().unwrap();
    assert!((120.0..130.0).contains(&par2), "{par2}");
    assert!(
        summary.contains("PAR-2") && summary.contains("No wrong answers."),
        "{summary}"
    );
    assert!(r.stdout.contains("| pdr | 4 | 2 | 1 | 1 |"), "{}", r.stdout);

    let svg = fs::read_to_string(out.join("cactus.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("cactus.svg is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<String> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect();
    assert!(texts.iter().any(|t| t == "bmc (2 solved)"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "pdr (3 solved)"), "{texts:?}");
    assert!(out.join("logs/pdr/tasks__safe.cnf.out").is_file());
}

#[test]
fn a_wrong_answer_is_loud() {
    let dir = temp_dir("bench-wrong");
    write(&dir.join("sub/reach.cnf"), REACHABLE);
    write(&dir.join("sub/safe.cnf"), UNREACHABLE);
    // Deliberately wrong: reach.cnf's goal is reachable.
    write(
        &dir.join("sub/EXPECTED.tsv"),
        "file\tgoal_reachable\nreach.cnf\tno\nsafe.cnf\tno\n",
    );
    write(
        &dir.join("list.txt"),
        "# two tasks\nsub/reach.cnf\n\nsub/safe.cnf\n",
    );
    let out = dir.join("out");
    let r = bitmc(&[
        "bench",
        s(&dir.join("list.txt")),
        "--timeout",
        "30",
        "--config",
        "pdr=--engine pdr",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, WRONG, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("WRONG") && r.stdout.contains("sub/reach.cnf"),
        "{}",
        r.stdout
    );
    assert!(r.stderr.contains("WRONG"), "{}", r.stderr);
    let rows = csv(&out);
    assert_eq!(rows.len(), 2);
    let w = row(&rows, "sub/reach.cnf", "", "pdr");
    assert_eq!(
        (
            w["expected"].as_str(),
            w["verdict"].as_str(),
            w["status"].as_str()
        ),
        ("SAFE", "UNSAFE", "wrong")
    );
    assert_eq!(row(&rows, "sub/safe.cnf", "", "pdr")["status"], "correct");
    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    assert_eq!(
        &summary_row(&summary, "pdr")[..6],
        ["pdr", "2", "1", "1", "0", "**1**"]
    );
    // Wrong false: -16, correct true: +2.
    assert_eq!(summary_row(&summary, "pdr")[12], "-14");
    assert!(summary.contains("1 WRONG ANSWER"), "{summary}");
    assert!(
        summary.contains("- **WRONG** `sub/reach.cnf`: expected SAFE, got **UNSAFE**"),
        "{summary}"
    );

    // --filter keeps the correct task only: no wrong answer, exit code 0.
    let r = bitmc(&[
        "bench",
        s(&dir.join("list.txt")),
        "--timeout",
        "30",
        "--filter",
        "safe",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(csv(&out).len(), 1);
}

/// Reads `/proc/PID/stat`: is the process gone (or a zombie waiting for its parent)?
fn gone(pid: &str) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn timeout_and_memout() {
    let dir = temp_dir("bench-limits");
    write(&dir.join("tasks/slow.cnf"), REACHABLE);
    write(&dir.join("tasks/fast.cnf"), REACHABLE);
    write(&dir.join("tasks/hungry.cnf"), REACHABLE);
    write(
        &dir.join("tasks/EXPECTED.tsv"),
        "file\tgoal_reachable\nslow.cnf\tyes\nfast.cnf\tyes\nhungry.cnf\tyes\n",
    );
    // A stand-in for bitmc: slow.cnf sleeps (in a grandchild) far past the limit, hungry.cnf
    // grows a string past the memory limit, the rest answer at once.
    let stub = dir.join("stub.sh");
    let pidfile = dir.join("sleep.pid");
    script(
        &stub,
        &format!(
            "#!/bin/sh\ncase \"$2\" in\n*slow.cnf) sleep 30 & echo $! > {pid}; wait; echo UNSAFE; exit 10;;\n\
             *hungry.cnf) exec bash -c 'x=$(head -c 200000000 /dev/zero | tr \"\\0\" a); echo UNSAFE; exit 10';;\nesac\necho UNSAFE\nexit 10\n",
            pid = s(&pidfile)
        ),
    );
    let out = dir.join("out");
    let start = Instant::now();
    let r = bitmc(&[
        "bench",
        s(&dir.join("tasks")),
        "--timeout",
        "1",
        "--memory",
        "60",
        "--bitmc",
        s(&stub),
        "--out",
        s(&out),
    ]);
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "the slow task was not stopped"
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let rows = csv(&out);
    let slow = row(&rows, "tasks/slow.cnf", "", "default");
    assert_eq!(
        (slow["verdict"].as_str(), slow["status"].as_str()),
        ("TIMEOUT", "timeout"),
        "{slow:?}"
    );
    let wall: f64 = slow["wall_s"].parse().unwrap();
    assert!((1.0..5.0).contains(&wall), "{wall}");
    let hungry = row(&rows, "tasks/hungry.cnf", "", "default");
    assert_eq!(
        (hungry["verdict"].as_str(), hungry["status"].as_str()),
        ("OUT OF MEMORY", "memout"),
        "{hungry:?}"
    );
    assert_eq!(
        row(&rows, "tasks/fast.cnf", "", "default")["status"],
        "correct"
    );
    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    assert_eq!(
        &summary_row(&summary, "default")[..10],
        ["default", "3", "1", "0", "1", "0", "0", "1", "1", "0"]
    );
    // The grandchild that slept went down with the child's process group.
    let pid = fs::read_to_string(&pidfile).unwrap();
    let pid = pid.trim();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !gone(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(gone(pid), "the sleeping grandchild {pid} still runs");
}

#[test]
fn verify_tasks_through_a_stub() {
    let dir = temp_dir("bench-verify");
    let t = dir.join("tasks");
    write(
        &t.join("prog.c"),
        "// expect: unreach-call=false no-overflow=true\n// expect(lp64): unreach-call=true\n// A fixture.\nint main() { return 0; }\n",
    );
    write(
        &t.join("err.c"),
        "// expect: error=unsupported\n// error-contains: float\nfloat f;\n",
    );
    write(&t.join("nohdr.c"), "int main() { return 0; }\n");
    // An SV-COMP task and its input, which has a header of its own but must run only through the task.
    write(
        &t.join("svcomp/t.i"),
        "// expect: unreach-call=true\nint main() { return 0; }\n",
    );
    write(
        &t.join("svcomp/task.yml"),
        "format_version: '2.0'\ninput_files: 't.i'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: false\n  - property_file: ../properties/termination.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: ILP32\n",
    );
    let calls = dir.join("calls.txt");
    let stub = dir.join("stub.sh");
    script(
        &stub,
        &format!(
            "#!/bin/sh\necho \"$*\" >> {calls}\ncase \"$2\" in *err.c) echo 'error: unsupported: float at err.c:3:1' >&2; exit 1;; esac\n\
             case \"$4:$2\" in\n  unreach-call:*prog.c) echo 'FALSE(unreach-call)'; exit 10;;\n  no-overflow:*task.yml) echo 'FALSE(no-overflow)'; exit 10;;\nesac\necho TRUE\nexit 0\n",
            calls = s(&calls)
        ),
    );
    let out = dir.join("out");
    let r = bitmc(&[
        "bench",
        s(&t),
        "--timeout",
        "10",
        "--bitmc",
        s(&stub),
        "--config",
        "ilp32=",
        "--config",
        "lp64=--data-model lp64",
        "--out",
        s(&out),
    ]);
    // Under LP64 prog.c's unreach-call is expected TRUE: the stub's FALSE is wrong there.
    assert_eq!(r.code, WRONG, "{}\n{}", r.stdout, r.stderr);
    let rows = csv(&out);
    assert_eq!(rows.len(), 10, "{:?}", rows.keys());
    let st = |task: &str, prop: &str, config: &str| {
        let r = row(&rows, task, prop, config);
        (
            r["expected"].clone(),
            r["verdict"].clone(),
            r["status"].clone(),
        )
    };
    let t3 = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        st("tasks/prog.c", "unreach-call", "ilp32"),
        t3("FALSE(unreach-call)", "FALSE(unreach-call)", "correct")
    );
    assert_eq!(
        st("tasks/prog.c", "unreach-call", "lp64"),
        t3("TRUE", "FALSE(unreach-call)", "wrong")
    );
    assert_eq!(
        st("tasks/prog.c", "no-overflow", "lp64"),
        t3("TRUE", "TRUE", "correct")
    );
    assert_eq!(
        st("tasks/err.c", "unreach-call", "ilp32"),
        t3("ERROR", "ERROR", "correct")
    );
    assert_eq!(
        row(&rows, "tasks/err.c", "unreach-call", "lp64")["note"],
        "error: unsupported: float at err.c:3:1"
    );
    assert_eq!(
        st("tasks/svcomp/task.yml", "unreach-call", "lp64"),
        t3("TRUE", "TRUE", "correct")
    );
    assert_eq!(
        st("tasks/svcomp/task.yml", "no-overflow", "ilp32"),
        t3("FALSE(no-overflow)", "FALSE(no-overflow)", "correct")
    );

    let calls = fs::read_to_string(&calls).unwrap();
    let yml = t.join("svcomp/task.yml");
    assert!(
        calls.contains(&format!(
            "verify {} --property no-overflow --data-model lp64\n",
            s(&yml)
        )),
        "{calls}"
    );
    assert!(
        calls.contains(&format!(
            "verify {} --property unreach-call\n",
            s(&t.join("prog.c"))
        )),
        "{calls}"
    );
    assert!(
        !calls.contains("t.i") && !calls.contains("nohdr.c"),
        "{calls}"
    );

    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("tasks/svcomp/task.yml: properties not supported, skipped: termination"),
        "{summary}"
    );
    assert!(
        summary.contains("tasks/nohdr.c: skipped (no `// expect:` header)"),
        "{summary}"
    );
    assert!(
        summary.contains(
            "- **WRONG** `tasks/prog.c` (unreach-call): expected TRUE, got **FALSE(unreach-call)**"
        ),
        "{summary}"
    );
    // Five runs per configuration: 2 correct true, 2 correct false and the expected error under
    // ILP32; under LP64 prog.c's unreach-call is wrong.
    let ilp32 = summary_row(&summary, "ilp32");
    assert_eq!(&ilp32[..6], ["ilp32", "5", "5", "2", "2", "0"], "{summary}");
    let lp64 = summary_row(&summary, "lp64");
    assert_eq!(
        &lp64[..6],
        ["lp64", "5", "4", "2", "1", "**1**"],
        "{summary}"
    );
}

#[test]
fn bad_invocations_are_errors() {
    let dir = temp_dir("bench-bad");
    write(&dir.join("list.txt"), "missing.cnf\n");
    let out: PathBuf = dir.join("out");
    let r = bitmc(&[
        "bench",
        s(&dir.join("list.txt")),
        "--timeout",
        "5",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("list.txt:1:") && r.stderr.contains("missing.cnf"),
        "{}",
        r.stderr
    );
    write(&dir.join("a.cnf"), REACHABLE);
    let r = bitmc(&[
        "bench",
        s(&dir.join("a.cnf")),
        "--timeout",
        "5",
        "--config",
        "x='open",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let r = bitmc(&[
        "bench",
        s(&dir.join("a.cnf")),
        "--timeout",
        "0",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let r = bitmc(&["bench", s(&dir.join("a.cnf")), "--out", s(&out)]);
    assert_eq!(r.code, 2, "--timeout is required: {}", r.stderr);
}

/// A peer as a configuration: a script that answers by the file it is given (it reads the
/// goal clause of the DimSpec file), beside bitmc's PDR in one table; its wrong answer is
/// reported like bitmc's, a missing text is UNKNOWN, a C task is exported for it first, and
/// a peer of the other format is an error of that run.
#[test]
fn peers_are_configurations() {
    let dir = temp_dir("bench-peer");
    let tasks = dir.join("tasks");
    write(&tasks.join("reach.cnf"), REACHABLE);
    write(&tasks.join("safe.cnf"), UNREACHABLE);
    write(
        &tasks.join("EXPECTED.tsv"),
        "file\tgoal_reachable\nreach.cnf\tyes\nsafe.cnf\tno\n",
    );
    write(
        &tasks.join("prog.c"),
        "// expect: unreach-call=false\nvoid reach_error(void) {}\n\
         int main(void) { int x = 1; if (x == 1) reach_error(); return 0; }\n",
    );
    // Says "holds" for every file: wrong on reach.cnf. Writes what it was given.
    let tool = dir.join("tool.sh");
    script(
        &tool,
        "#!/bin/sh\necho \"$1\" >> \"$(dirname \"$0\")/given\"\n\
         case \"$1\" in *safe.cnf) echo 'verdict: holds';; *reach.cnf) echo 'verdict: holds';; *) echo 'no idea';; esac\n",
    );
    let out = dir.join("out");
    let r = bitmc(&[
        "bench",
        s(&tasks),
        "--timeout",
        "30",
        "--config",
        "pdr=--engine pdr",
        "--peer",
        &format!("tool={} {{dimspec}}", s(&tool)),
        "--peer-safe",
        "tool=verdict: holds",
        "--peer-unsafe",
        "tool=verdict: fails",
        "--peer",
        "abc-pdr",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, WRONG, "{}\n{}", r.stdout, r.stderr);
    let rows = csv(&out);
    let cell = |task: &str, prop: &str, config: &str| {
        let r = row(&rows, &format!("tasks/{task}"), prop, config);
        (r["verdict"].clone(), r["status"].clone())
    };
    assert_eq!(
        cell("reach.cnf", "", "pdr"),
        ("UNSAFE".into(), "correct".into())
    );
    assert_eq!(
        cell("safe.cnf", "", "tool"),
        ("SAFE".into(), "correct".into())
    );
    assert_eq!(
        cell("reach.cnf", "", "tool"),
        ("SAFE".into(), "wrong".into())
    );
    // The C task reaches the tool as an exported DimSpec file, on which it finds no text.
    assert_eq!(
        cell("prog.c", "unreach-call", "tool"),
        ("UNKNOWN".into(), "unknown".into())
    );
    let given = fs::read_to_string(dir.join("given")).unwrap();
    assert!(
        given
            .lines()
            .any(|l| l.ends_with(".cnf") && l.contains("logs")),
        "{given}"
    );
    // ABC reads AIGER: the DimSpec tasks are errors of its runs, never verdicts.
    assert_eq!(cell("safe.cnf", "", "abc-pdr").1, "error");
    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    assert_eq!(summary_row(&summary, "tool")[5], "**1**", "{summary}");
    assert!(
        summary.contains(
            "- `abc-pdr`: peer `berkeley-abc -c 'read_aiger {aiger}; fold; pdr; print_status'`"
        ),
        "{summary}"
    );

    // A peer with a command needs both texts; an unknown built-in name is an error.
    for bad in [
        vec!["--peer", "t=tool {dimspec}", "--peer-safe", "t=ok"],
        vec!["--peer", "nosuch"],
        vec![
            "--peer",
            "t=tool file",
            "--peer-safe",
            "t=a",
            "--peer-unsafe",
            "t=b",
        ],
    ] {
        let mut args = vec!["bench", s(&tasks), "--timeout", "5", "--out", s(&out)];
        args.extend(bad.iter().copied());
        let r = bitmc(&args);
        assert_eq!(r.code, 1, "{bad:?}: {}", r.stderr);
    }
}

/// `{run}` in a configuration's arguments is the run's log path: files a run writes (here a
/// witness) are kept beside its logs, one per run.
#[test]
fn run_placeholder_keeps_each_runs_files() {
    let dir = temp_dir("bench-run-files");
    let tasks = dir.join("tasks");
    for (name, bad) in [("a.c", 3), ("b.c", 5)] {
        write(
            &tasks.join(name),
            &format!(
                "// expect: unreach-call=false\nextern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) {{ if (__VERIFIER_nondet_int() == {bad}) reach_error(); return 0; }}\n"
            ),
        );
    }
    let out = dir.join("out");
    let r = bitmc(&[
        "bench",
        s(&tasks),
        "--timeout",
        "30",
        "--config",
        "w=--engine bmc --witness {run}.yml",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let mut written: Vec<String> = fs::read_dir(out.join("logs/w"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yml"))
        .collect();
    written.sort();
    assert_eq!(written.len(), 2, "{written:?}");
    for (name, bad) in written.iter().zip([3, 5]) {
        let text = fs::read_to_string(out.join("logs/w").join(name)).unwrap();
        assert!(
            text.contains(&format!("\\\\result == {bad}")),
            "{name}: {text}"
        );
    }
}
