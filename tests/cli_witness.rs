//! `bitmc verify --witness` and `--svcomp`: which files are written and what they say about
//! the program — the nondet values of a counterexample at their calls and its target, the
//! loop invariants of a proof at the loop keywords, over variables in scope there, the
//! program's hash and the property file's specification. (Whether another tool accepts a
//! witness is checked independently, in `witness_validation.rs`.)

mod support;

use std::path::{Path, PathBuf};
use support::{bitmc_in, temp_dir, Run};
use yaml_rust2::{Yaml, YamlLoader};

/// A counterexample needs two nondet values, returned by calls on lines 5 and 6.
const UNSAFE: &str = "extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
    unsigned x = __VERIFIER_nondet_uint();
    int y = __VERIFIER_nondet_int();
    if (x == 42 && y == -7)
        reach_error();
    return 0;
}
";

/// A loop (line 9) whose invariant relates a local to a variable initialised from a nondet
/// call; the inner block's `t` is not in scope at the loop, and `g` is a global.
const SAFE_LOOP: &str = "extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
unsigned g = 0;
int main(void) {
    unsigned n = __VERIFIER_nondet_uint();
    __VERIFIER_assume(n <= 1000);
    unsigned i = 0;
    while (i < n) {
        unsigned t = i;
        i = t + 1;
    }
    if (i != n)
        reach_error();
    return 0;
}
";

/// Runs `bitmc verify` in `dir` on `file` with `args`.
fn verify_in(dir: &Path, file: &Path, args: &[&str]) -> Run {
    let mut all = vec!["verify", file.to_str().expect("UTF-8 path")];
    all.extend_from_slice(args);
    bitmc_in(dir, &all)
}

fn program(name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(&format!("cli-witness-{name}"));
    let f = dir.join(format!("{name}.c"));
    std::fs::write(&f, text).expect("program written");
    (dir, f)
}

fn yaml(path: &Path) -> Yaml {
    let text = std::fs::read_to_string(path).expect("witness written");
    let mut docs = YamlLoader::load_from_str(&text).expect("the witness is YAML");
    assert_eq!(docs.len(), 1, "{text}");
    docs.remove(0)
}

fn sha256(path: &Path) -> String {
    use sha2::Digest;
    let bytes = std::fs::read(path).unwrap();
    sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The waypoints of a violation witness's entry: type, line, column, constraint.
fn waypoints(entry: &Yaml) -> Vec<(String, i64, i64, String)> {
    entry["content"]
        .as_vec()
        .expect("segments")
        .iter()
        .map(|s| &s["segment"].as_vec().expect("a segment")[0]["waypoint"])
        .map(|w| {
            (
                w["type"].as_str().unwrap_or("").to_string(),
                w["location"]["line"].as_i64().unwrap_or(0),
                w["location"]["column"].as_i64().unwrap_or(0),
                w["constraint"]["value"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The texts of the GraphML data elements with a key.
fn graphml_data(path: &Path, key: &str) -> Vec<String> {
    let graphml = std::fs::read_to_string(path).expect("GraphML written");
    let doc = roxmltree::Document::parse(&graphml).expect("the GraphML is XML");
    doc.descendants()
        .filter(|n| n.attribute("key") == Some(key))
        .filter_map(|n| n.text().map(str::to_string))
        .collect()
}

#[test]
fn a_violation_witness_gives_each_nondet_value_at_its_call_and_the_target() {
    let (dir, f) = program("unsafe", UNSAFE);
    let r = verify_in(&dir, &f, &["--svcomp", "--engine", "bmc"]);
    assert_eq!(r.code, 10, "{}", r.stderr);
    let doc = yaml(&dir.join("witness.yml"));
    let entry = &doc[0];
    assert_eq!(entry["entry_type"].as_str(), Some("violation_sequence"));
    let task = &entry["metadata"]["task"];
    let name = f.to_str().unwrap();
    assert_eq!(
        task["input_file_hashes"][name].as_str(),
        Some(sha256(&f).as_str())
    );
    assert_eq!(task["data_model"].as_str(), Some("ILP32"));
    let summary = waypoints(entry);
    // The closing parentheses of the calls; the target is the error call's statement.
    assert_eq!(
        summary,
        vec![
            ("function_return".into(), 5, 41, "\\result == 42".into()),
            ("function_return".into(), 6, 35, "\\result == -7".into()),
            ("target".into(), 8, 9, String::new()),
        ]
    );
    let data = |key: &str| graphml_data(&dir.join("witness.graphml"), key);
    assert_eq!(data("witness-type"), vec!["violation_witness"]);
    assert_eq!(
        data("assumption"),
        vec!["\\result == 42;", "\\result == -7;"]
    );
    assert_eq!(data("violation"), vec!["true"]);
    assert_eq!(data("programhash"), vec![sha256(&f)]);
}

/// BMC's counterexample on the CFA whose loops are folded jumps over the loop with its
/// iteration count as a value: the witness is read off the run expanded on the program as
/// written, so the loop count is no nondet value and the one call keeps its value.
#[test]
fn a_violation_witness_of_an_accelerated_counterexample_gives_the_calls_values() {
    let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
               int main(void) {\n    int s = 0;\n    for (int k = 0; k < 20; k++)\n        s += 2;\n\
               \x20   int i = __VERIFIER_nondet_int();\n    if (s == 40 && i == 3)\n        reach_error();\n\
               \x20   return 0;\n}\n";
    let (dir, f) = program("accelerated", src);
    let r = verify_in(&dir, &f, &["--svcomp", "--engine", "bmc"]);
    assert_eq!(r.code, 10, "{}{}", r.stdout, r.stderr);
    assert!(!r.stderr.contains("no violation witness"), "{}", r.stderr);
    let doc = yaml(&dir.join("witness.yml"));
    let summary = waypoints(&doc[0]);
    assert_eq!(
        summary,
        vec![
            ("function_return".into(), 7, 35, "\\result == 3".into()),
            ("target".into(), 9, 9, String::new()),
        ],
        "{}",
        r.stderr
    );
}

/// `gcc -E` writes one blank for each run of blanks and tabs between tokens; the witness's
/// columns are the original file's bytes (a tab is one).
#[test]
fn violation_columns_count_the_original_blanks_and_tabs() {
    // Runs of blanks and tabs before, inside and after the calls.
    let text = include_str!("data/witness_blanks.c");
    let (dir, f) = program("blanks", text);
    let r = verify_in(&dir, &f, &["--svcomp", "--engine", "bmc"]);
    assert_eq!(r.code, 10, "{}", r.stderr);
    // Line 5: the call's `)` is byte 30; line 6: byte 40; line 7: the error call at byte 29.
    assert_eq!(
        waypoints(&yaml(&dir.join("witness.yml"))[0]),
        vec![
            ("function_return".into(), 5, 30, "\\result == 3".into()),
            ("function_return".into(), 6, 40, "\\result == -4".into()),
            ("target".into(), 7, 29, String::new()),
        ]
    );
}

/// An uninitialised local that decides whether a call is made (the shape of `s3_clnt_1`): a
/// compiled program's value is whatever its stack holds, so the witness states the value the
/// counterexample reads, where it reads it, before the call's value.
#[test]
fn a_violation_witness_states_the_uninitialised_values_it_reads() {
    let text = "extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int ready;
    int got = 0;
    int unread;
    if (ready == 0) {
        got = __VERIFIER_nondet_int() + ready;
    }
    int y = __VERIFIER_nondet_int();
    if (got == 7 && y == 5)
        reach_error();
    return 0;
}
";
    let (dir, f) = program("uninit", text);
    let r = verify_in(&dir, &f, &["--svcomp", "--engine", "bmc"]);
    assert_eq!(r.code, 10, "{}", r.stderr);
    assert_eq!(
        waypoints(&yaml(&dir.join("witness.yml"))[0]),
        vec![
            ("assumption".into(), 7, 5, "ready == 0".into()),
            ("function_return".into(), 8, 37, "\\result == 7".into()),
            ("function_return".into(), 10, 35, "\\result == 5".into()),
            ("target".into(), 12, 9, String::new()),
        ]
    );
    assert_eq!(
        graphml_data(&dir.join("witness.graphml"), "assumption"),
        vec!["ready == 0;", "\\result == 7;", "\\result == 5;"]
    );
}

/// A value first read in a `do` loop's condition, after the body's call: the start of the
/// `do` statement was passed before that call, so no assumption there could state it; the
/// note on stderr (and in the witness) says so instead.
#[test]
fn an_uninitialised_value_read_after_its_statement_began_is_only_noted() {
    let text = "extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int u;
    int n = 0;
    do {
        n = n + __VERIFIER_nondet_int();
    } while (u == 0 && n < 3);
    if (n == 7)
        reach_error();
    return 0;
}
";
    let (dir, f) = program("uninit-do", text);
    let r = verify_in(&dir, &f, &["--svcomp", "--engine", "bmc"]);
    assert_eq!(r.code, 10, "{}", r.stderr);
    let points = waypoints(&yaml(&dir.join("witness.yml"))[0]);
    assert!(points.iter().all(|p| p.0 != "assumption"), "{points:?}");
    assert!(
        r.stderr.contains("uninitialised") && r.stderr.contains("main::u"),
        "{}",
        r.stderr
    );
    let text = std::fs::read_to_string(dir.join("witness.yml")).unwrap();
    assert!(text.starts_with("# the run reads uninitialised"), "{text}");
}

#[test]
fn a_correctness_witness_states_the_loop_invariant_over_variables_in_scope() {
    let (dir, f) = program("safe", SAFE_LOOP);
    let w = dir.join("inv.yml");
    let r = verify_in(
        &dir,
        &f,
        &["--engine", "ic3cfa", "--witness", w.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = yaml(&w);
    let entry = &doc[0];
    assert_eq!(entry["entry_type"].as_str(), Some("invariant_set"));
    let invs = entry["content"].as_vec().expect("content");
    assert_eq!(invs.len(), 1, "{invs:?}");
    let inv = &invs[0]["invariant"];
    assert_eq!(inv["type"].as_str(), Some("loop_invariant"));
    assert_eq!(inv["location"]["line"].as_i64(), Some(9));
    assert_eq!(inv["location"]["column"].as_i64(), Some(5));
    assert_eq!(inv["location"]["function"].as_str(), Some("main"));
    let value = inv["value"].as_str().expect("a value");
    // The bound is written as `n` (the nondet result it was propagated from is not C at the
    // loop), and nothing mentions a variable out of scope there.
    let words: Vec<&str> = value
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        })
        .collect();
    assert!(words.contains(&"n") && words.contains(&"i"), "{value}");
    for w in &words {
        assert!(
            ["n", "i", "g", "unsigned", "int", "u"].contains(w),
            "`{w}` in {value}"
        );
    }
}

#[test]
fn a_proof_without_invariant_gives_the_trivial_witness_and_says_so() {
    let (dir, f) = program("kind", SAFE_LOOP);
    let r = verify_in(
        &dir,
        &f,
        &[
            "--engine",
            "kind",
            "--invariant-time",
            "0",
            "--witness",
            "k.yml",
            "--witness",
            "k.graphml",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("the proof has no invariant"),
        "{}",
        r.stderr
    );
    let doc = yaml(&dir.join("k.yml"));
    assert_eq!(doc[0]["content"].as_vec().map(Vec::len), Some(0));
    let graphml = std::fs::read_to_string(dir.join("k.graphml")).unwrap();
    assert!(graphml.contains("correctness_witness") && !graphml.contains("key=\"invariant\">"));
}

#[test]
fn the_property_file_gives_the_specification_and_the_data_model_any_case() {
    let (dir, f) = program("prp", UNSAFE);
    let prp = dir.join("spec.prp");
    std::fs::write(
        &prp,
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    )
    .unwrap();
    for dm in ["LP64", "lp64", "64bit"] {
        let r = verify_in(
            &dir,
            &f,
            &[
                "--svcomp",
                "--property",
                prp.to_str().unwrap(),
                "--data-model",
                dm,
            ],
        );
        assert_eq!(r.code, 10, "{dm}: {}", r.stderr);
        let doc = yaml(&dir.join("witness.yml"));
        let task = &doc[0]["metadata"]["task"];
        assert_eq!(
            task["specification"].as_str(),
            Some("CHECK( init(main()), LTL(G ! call(reach_error())) )")
        );
        assert_eq!(task["data_model"].as_str(), Some("LP64"), "{dm}");
    }
}

#[test]
fn a_witness_name_of_unknown_format_is_refused_before_the_run() {
    let (dir, f) = program("ext", UNSAFE);
    let r = verify_in(&dir, &f, &["--witness", "w.json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains(".graphml"), "{}", r.stderr);
    // An UNKNOWN verdict writes none.
    let r = verify_in(
        &dir,
        &f,
        &["--engine", "bmc", "--max-depth", "0", "--svcomp"],
    );
    assert_eq!(r.code, 20, "{}", r.stderr);
    assert!(!dir.join("witness.yml").exists());
}

#[test]
fn a_k_induction_proof_states_its_proved_candidate_invariants_in_exact_c() {
    let (dir, f) = program("kind-candidates", SAFE_LOOP);
    let r = verify_in(&dir, &f, &["--engine", "kind", "--witness", "c.yml"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = yaml(&dir.join("c.yml"));
    let invs = doc[0]["content"].as_vec().expect("content");
    assert_eq!(invs.len(), 1, "{invs:?}\n{}", r.stderr);
    let value = invs[0]["invariant"]["value"].as_str().unwrap();
    // Candidates compare in `long long`, so that C means the exact comparison.
    assert!(value.contains("(long long)"), "{value}");
    assert!(value.contains('i') && value.contains('n'), "{value}");
}

/// A counterexample through 2^27 loop iterations, found by BMC on the accelerated program, is
/// too long to replay step by step: its witness keeps the call values of the accelerated run
/// and takes the target from the only statement that reaches the error.
const DEEP: &str = "extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
    unsigned n = __VERIFIER_nondet_uint();
    if (n != 3)
        return 0;
    unsigned x = 0;
    while (x < 0x0fffffff)
        x += 2;
    if (x % 2 == 0)
        reach_error();
    return 0;
}
";

#[test]
fn a_counterexample_too_long_to_replay_still_has_its_witness() {
    let (dir, f) = program("deep", DEEP);
    let r = verify_in(&dir, &f, &["--engine", "bmc", "--witness", "d.yml"]);
    assert_eq!(r.code, 10, "{}", r.stderr);
    let doc = yaml(&dir.join("d.yml"));
    let points: Vec<(String, i64, String)> = doc[0]["content"]
        .as_vec()
        .expect("segments")
        .iter()
        .map(|s| {
            let w = &s["segment"][0]["waypoint"];
            (
                w["type"].as_str().unwrap_or("").to_string(),
                w["location"]["line"].as_i64().unwrap_or(0),
                w["constraint"]["value"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        points,
        vec![
            ("function_return".into(), 4, "\\result == 3".into()),
            ("target".into(), 11, String::new()),
        ],
        "{}",
        r.stderr
    );
}
