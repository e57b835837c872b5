//! The VMT export against the AIGER export of the same system: for every fixture that lowers
//! (under ILP32, and every third one under LP64 too), both are written, read back by the tests'
//! own readers (`vmt_sim`, `aiger_sim`, which share no code with bitmc) and simulated side by
//! side from the same initial state on the same inputs (`word_lockstep`, as for BTOR2): every
//! state word, the bad property (the negated `:invar-property`) and the constraints (what the
//! `:init` and `:trans` formulas admit) must agree at every step. Then the `bitmc vmt` command,
//! and the opt-in outside reader: z3 (`scripts/check-vmt-z3.py`) parses the exports and runs
//! BMC on them.

mod aiger_sim;
mod common;
mod vmt_sim;
mod word_lockstep;
mod word_ops;

use bitmc::aig::aiger::Format;
use bitmc::cfa::{DataModel, Property};
use bitmc::engine::{Cause, EngineKind, Options, Problem, Verdict};
use bitmc::frontend::{lower_file, FrontendOptions};
use bitmc::ts::program::{encode, EncodeOptions, Goal, PcEncoding, ProgramSystem};
use common::Rng;
use std::path::{Path, PathBuf};
use vmt_sim::{value, Expr, Values};
use word_lockstep::{compare, Step, WordSystem, Words};

/// A VMT model as a word-level system: its states are the `:next` variables, its inputs the
/// other declared variables.
struct VmtWords(vmt_sim::Model);

impl VmtWords {
    fn width(&self, name: &str) -> u32 {
        self.0.sort(name).map_or(0, |s| s.width())
    }
}

impl WordSystem for VmtWords {
    fn states(&self) -> Vec<(String, u32)> {
        let nexts = self.0.nexts.iter();
        nexts.map(|(x, _)| (x.clone(), self.width(x))).collect()
    }

    fn inputs(&self) -> Vec<(String, u32)> {
        let m = &self.0;
        let is_state = |v: &str| m.nexts.iter().any(|(x, n)| x == v || n == v);
        let inputs = m.vars.iter().filter(|(v, _)| !is_state(v));
        inputs.map(|(v, s)| (v.clone(), s.width())).collect()
    }

    /// The constants that conjuncts `(= x c)` of the `:init` formula give states.
    fn initial(&self) -> Result<Words, String> {
        let m = &self.0;
        let constant = |x: &String| match m.equated(&m.init, x) {
            Some(Expr::Const(v, _)) => Some((x.clone(), *v)),
            _ => None,
        };
        Ok(m.nexts.iter().filter_map(|(x, _)| constant(x)).collect())
    }

    fn admits_initial(&self, state: &Words) -> Result<bool, String> {
        Ok(value(&self.0.init, &self.0.eval(state)) == 1)
    }

    /// The next state from the conjuncts `(= x.next t)` of the `:trans` formula; the step is
    /// admitted when the whole formula holds over both states.
    fn step(&self, state: &Words, inputs: &Words) -> Result<Step, String> {
        let m = &self.0;
        let mut given: Values = state.clone();
        given.extend(inputs.iter().map(|(k, v)| (k.clone(), *v)));
        let vals = m.eval(&given);
        let mut next = Words::new();
        for (x, n) in &m.nexts {
            let t = (m.equated(&m.trans, n)).ok_or(format!("no conjunct (= {n} ...) in :trans"))?;
            let v = value(t, &vals);
            next.insert(x.clone(), v);
            given.insert(n.clone(), v);
        }
        Ok(Step {
            bad: value(&m.prop, &vals) == 0,
            next,
            admitted: value(&m.trans, &m.eval(&given)) == 1,
        })
    }
}

/// A fixture lowered under `dm` and encoded with `pc` (the export's goal: the error location).
fn system(f: &Path, dm: DataModel, pc: PcEncoding) -> Option<(bitmc::cfa::Cfa, ProgramSystem)> {
    let opts = FrontendOptions {
        data_model: dm,
        ..FrontendOptions::default()
    };
    let lowered = lower_file(f, &opts).ok()?;
    let goal = Goal::Error;
    let ps = encode(&lowered.cfa, EncodeOptions { pc, goal });
    Some((lowered.cfa, ps))
}

/// Every fixture that lowers under ILP32, every third under LP64, the program-counter
/// encodings alternating.
#[test]
fn vmt_and_aiger_exports_of_fixtures_agree_in_simulation() {
    let files = common::fixture_files();
    let mut runs = Vec::new();
    for (i, f) in files.iter().enumerate() {
        runs.push((i, f, DataModel::Ilp32));
        if i % 3 == 0 {
            runs.push((i, f, DataModel::Lp64));
        }
    }
    let results = common::parallel(&runs, |k, &(i, f, dm)| {
        let pc = [PcEncoding::Binary, PcEncoding::OneHot][k % 2];
        let (cfa, ps) = system(f, dm, pc)?;
        let aag = ps.model.to_aiger(Vec::new()).to_bytes(Format::Ascii);
        let aag = String::from_utf8(aag.expect("aag")).expect("ASCII");
        let vmt = bitmc::ts::vmt::write(&cfa, &ps, &["test".to_string()]);
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let mut rng = Rng(i as u64 + 1, common::literal_pool(&text));
        let checked = vmt_sim::read(&vmt)
            .map(VmtWords)
            .and_then(|words| compare(&aag, &words, &mut rng, 6, 24));
        Some(checked.map_err(|e| format!("{} ({dm}, {pc:?}): {e}", f.display())))
    });
    let compared = results.iter().flatten().count();
    let failures: Vec<String> = results
        .into_iter()
        .flatten()
        .filter_map(Result::err)
        .collect();
    eprintln!(
        "vmt: {compared} exports of {} fixtures compared, {} failing",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 300, "only {compared} exports compared");
}

/// The reader checks sorts: a file that applies a bit-vector operator to `Bool`, or uses a
/// name before declaring it, is refused.
#[test]
fn the_test_reader_refuses_ill_sorted_files() {
    let head = "(declare-fun x () (_ BitVec 4))\n(declare-fun x.next () (_ BitVec 4))\n\
                (define-fun .x () (_ BitVec 4) (! x :next x.next))\n";
    let tail = "(define-fun .i () Bool (! true :init true))\n\
                (define-fun .p () Bool (! true :invar-property 0))\n";
    let ok =
        format!("{head}(define-fun .t () Bool (! (= x.next (bvadd x #x1)) :trans true))\n{tail}");
    assert!(vmt_sim::read(&ok).is_ok());
    for bad in ["(bvadd x true)", "(not x)", "(bvadd x y)", "(bvadd x #b1)"] {
        let text =
            format!("{head}(define-fun .t () Bool (! (= x.next {bad}) :trans true))\n{tail}");
        assert!(vmt_sim::read(&text).is_err(), "{bad} read");
    }
}

fn bitmc(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bitmc"))
        .args(args)
        .output()
        .expect("bitmc runs")
}

/// `bitmc vmt` writes the file for a C program and refuses a system without a word level
/// (AIGER, DimSpec).
#[test]
fn the_vmt_command_writes_c_programs_and_refuses_other_inputs() {
    let dir = std::env::temp_dir().join(format!("bitmc-vmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let c = dir.join("p.c");
    std::fs::write(
        &c,
        "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
         int main(void) { int x = __VERIFIER_nondet_int(); while (x < 10) x++; if (x == 12) reach_error(); return 0; }\n",
    )
    .expect("program");
    let out = dir.join("p.vmt");
    let r = bitmc(&[
        "vmt".as_ref(),
        c.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(0), "{stderr}");
    let text = std::fs::read_to_string(&out).expect("written");
    let m = vmt_sim::read(&text).expect("a VMT file the tests' reader reads");
    assert!(
        m.nexts.iter().any(|(x, n)| x == "pc" && n == "pc.next"),
        "{text}"
    );
    assert!(
        text.contains("(declare-fun |main::x| () (_ BitVec 32))"),
        "{text}"
    );
    assert!(
        text.contains("(declare-fun |nondet[0]| () (_ BitVec 32))"),
        "{text}"
    );
    assert!(text.contains(":invar-property 0"), "{text}");
    let _ = std::fs::remove_file(&out);
    let aag = dir.join("p.aag");
    std::fs::write(&aag, "aag 1 1 0 0 0 1\n2\n2\n").expect("aag");
    let cnf = dir.join("p.cnf");
    std::fs::write(&cnf, "i cnf 1 1\n1 0\ng cnf 1 1\n-1 0\nt cnf 2 1\n1 -2 0\n").expect("cnf");
    for input in [aag, cnf] {
        let r = bitmc(&[
            "vmt".as_ref(),
            input.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ]);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{}: {stderr}", input.display());
        assert!(
            stderr.contains("VMT is written for C programs") && stderr.contains("no word level"),
            "{stderr}"
        );
        assert!(!out.exists(), "{} wrote a file", input.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The deepest depth the z3 check unrolls to, and its time per file.
const Z3_BOUND: usize = 15;
const Z3_SECS: f64 = 20.0;

/// What z3's BMC said about one export (a line of `check-vmt-z3.py`).
#[derive(Debug, PartialEq)]
enum Z3 {
    Bad(usize),
    NoneUpToBound,
    Unknown(usize),
    NotRead(String),
}

fn z3_check(python: &str, vmt: &Path) -> Z3 {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check-vmt-z3.py");
    let r = std::process::Command::new(python)
        .arg(script)
        .args([
            "--bound",
            &Z3_BOUND.to_string(),
            "--timeout",
            &Z3_SECS.to_string(),
        ])
        .arg(vmt)
        .output()
        .expect("python runs");
    let out = String::from_utf8_lossy(&r.stdout);
    let fields: Vec<&str> = out.trim_end().split('\t').collect();
    let depth = |s: &str| s.parse::<usize>().ok();
    match fields.as_slice() {
        [_, "ok", _, _, last] => match last.split_once('=') {
            Some(("bad", k)) => depth(k).map_or(Z3::NotRead(out.to_string()), Z3::Bad),
            Some(("none", _)) => Z3::NoneUpToBound,
            Some(("unknown", k)) => Z3::Unknown(depth(k).unwrap_or(0)),
            _ => Z3::NotRead(out.to_string()),
        },
        [_, "error", msg] => Z3::NotRead(msg.to_string()),
        _ => Z3::NotRead(format!("{out}{}", String::from_utf8_lossy(&r.stderr))),
    }
}

/// bitmc's own BMC on the bit-level system of the same encoding, to the same bound: the depth
/// of its counterexample, `Some(None)` when there is none up to the bound (or at all), `None`
/// when it ran out of time.
fn bitmc_bmc(ps: &ProgramSystem) -> Option<Option<usize>> {
    let opts = Options {
        max_depth: Some(Z3_BOUND),
        ..Options::default()
    };
    let run = || EngineKind::Bmc.run(&Problem::system(&ps.sys), &opts, &mut |_| {});
    let (v, _) = common::interrupt_after(&opts.interrupter, Z3_SECS, run);
    match v {
        Verdict::Unsafe(plan) => Some(Some(plan.states.len() - 1)),
        Verdict::Safe(_) => Some(None),
        Verdict::Unknown(r) if r.cause == Cause::Bound => Some(None),
        Verdict::Unknown(_) => None,
    }
}

/// One fixture's comparison: `Err` for a disagreement or a file z3 does not read, else words
/// for the tally: what z3 found against the expected verdict, and against bitmc's BMC.
fn z3_compare(python: &str, f: &Path, dir: &Path, k: usize) -> Option<Result<String, String>> {
    let (cfa, ps) = system(f, DataModel::Ilp32, PcEncoding::Binary)?;
    let path: PathBuf = dir.join(format!("{k}.vmt"));
    std::fs::write(&path, bitmc::ts::vmt::write(&cfa, &ps, &[])).expect("write");
    let z3 = z3_check(python, &path);
    let text = std::fs::read_to_string(f).unwrap_or_default();
    let expected = common::header(&text).verdict(Property::UnreachCall, DataModel::Ilp32);
    let ours = bitmc_bmc(&ps);
    let at = f.display();
    let verdict = match (&z3, expected) {
        (Z3::NotRead(e), _) => return Some(Err(format!("{at}: z3 does not read the export: {e}"))),
        (Z3::Bad(d), Some(true)) => {
            return Some(Err(format!("{at}: expected true, z3 finds bad at {d}")))
        }
        (Z3::Bad(_), Some(false)) => "false: found",
        (Z3::NoneUpToBound, Some(true)) => "true: none up to the bound",
        (Z3::NoneUpToBound, Some(false)) => "false: deeper than the bound",
        (Z3::Unknown(_), _) => "z3 out of time",
        (_, None) => "no expected verdict",
    };
    let bmc = match (&z3, ours) {
        (Z3::Bad(d), Some(b)) if Some(*d) != b => {
            return Some(Err(format!("{at}: z3 bad at {d}, bitmc's BMC {b:?}")))
        }
        (Z3::NoneUpToBound, Some(Some(b))) => {
            return Some(Err(format!("{at}: bitmc's BMC bad at {b}, z3 none")))
        }
        (Z3::Unknown(_), _) => "-",
        (_, Some(_)) => "same as bitmc's BMC",
        (_, None) => "bitmc's BMC out of time",
    };
    Some(Ok(format!("{verdict}, {bmc}")))
}

/// The opt-in peer check (`BITMC_VMT_Z3=1`; `BITMC_PYTHON` names a Python with the
/// z3-solver package, default `python3`): z3 reads every ILP32 export and runs BMC on it to
/// [`Z3_BOUND`]; it must find a bad state exactly where bitmc's BMC finds one (and none where
/// bitmc's finds none), and never in a fixture whose expected unreach-call verdict is true.
#[test]
fn z3_reads_the_exports_and_its_bmc_agrees() {
    if std::env::var("BITMC_VMT_Z3").as_deref() != Ok("1") {
        eprintln!("skipped: BITMC_VMT_Z3=1 is not set (needs `python3 -m pip install z3-solver`)");
        return;
    }
    let python = std::env::var("BITMC_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let dir = std::env::temp_dir().join(format!("bitmc-vmt-z3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let files = common::fixture_files();
    let results = common::parallel(&files, |k, f| z3_compare(&python, f, &dir, k));
    let _ = std::fs::remove_dir_all(&dir);
    let mut tally: std::collections::BTreeMap<String, usize> = Default::default();
    let mut failures = Vec::new();
    for r in results.into_iter().flatten() {
        match r {
            Ok(word) => *tally.entry(word).or_insert(0) += 1,
            Err(e) => failures.push(e),
        }
    }
    let read = tally.values().sum::<usize>();
    eprintln!(
        "z3: {read} exports read and agreeing, {} failing",
        failures.len()
    );
    for (words, n) in &tally {
        eprintln!("  {n:4}  {words}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(read >= 300, "only {read} exports checked");
}
