//! Differential test on generated programs: random integer expressions over variables of every
//! integer type (mixed signedness and widths, literals with suffixes, casts, every operator,
//! `?:`, `&&`, `||`; statements with compound assignments and `++`/`--`) are compiled with gcc (LP64, and ILP32
//! with `-m32`) and run on random nondet sequences; the CFA interpreter must reach the same
//! outcome. The programs have no undefined behaviour under `-fwrapv`: divisors are nonzero
//! constants other than -1, shift amounts are masked below 16.

mod common;

use bitmc::cfa::{run_with, DataModel, Outcome, RunOptions};
use bitmc::frontend::{lower_source, FrontendOptions};
use common::Rng;
use std::path::Path;
use std::process::Command;

const PROGRAMS: u64 = 40;
const RUNS: usize = 25;

const TYPES: [(&str, &str); 11] = [
    ("_Bool", "bool"),
    ("char", "char"),
    ("signed char", "schar"),
    ("unsigned char", "uchar"),
    ("short", "short"),
    ("unsigned short", "ushort"),
    ("int", "int"),
    ("unsigned int", "uint"),
    ("long", "long"),
    ("unsigned long", "ulong"),
    ("long long", "longlong"),
];

struct Gen {
    rng: Rng,
    vars: Vec<String>,
}

impl Gen {
    fn pick<'a>(&mut self, xs: &'a [&'a str]) -> &'a str {
        xs[self.rng.below(xs.len() as u64) as usize]
    }

    fn literal(&mut self) -> String {
        if self.rng.below(6) == 0 {
            return self
                .pick(&["'a'", "'\\xff'", "'\\200'", "'\\n'", "'\\0'", "'~'"])
                .to_string();
        }
        let v = match self.rng.below(4) {
            0 => self.rng.below(10),
            1 => self.rng.interesting() & 0xffff_ffff,
            2 => self.rng.below(300),
            _ => self.rng.interesting(),
        };
        let suffix = self.pick(&["", "", "u", "l", "ul", "ll", "ull"]);
        if v > 0xffff_ffff && !suffix.contains("ll") {
            format!("{v}ull")
        } else if self.rng.below(3) == 0 {
            format!("{v:#x}{suffix}")
        } else {
            format!("{v}{suffix}")
        }
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.below(4) == 0 {
            return if self.rng.below(3) == 0 {
                self.literal()
            } else {
                let i = self.rng.below(self.vars.len() as u64) as usize;
                self.vars[i].clone()
            };
        }
        let a = self.expr(depth - 1);
        match self.rng.below(11) {
            0..=3 => {
                let op = self.pick(&[
                    "+", "-", "*", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=",
                ]);
                let b = self.expr(depth - 1);
                format!("({a} {op} {b})")
            }
            4 => {
                let d = self.pick(&["3", "7", "-5", "2u", "10l", "13ll", "-9", "255", "65536"]);
                let op = self.pick(&["/", "%"]);
                format!("({a} {op} {d})")
            }
            5 => {
                let op = self.pick(&["<<", ">>"]);
                let b = self.expr(depth - 1);
                format!("({a} {op} ((int)({b}) & 15))")
            }
            6 => {
                let t = TYPES[self.rng.below(TYPES.len() as u64) as usize].0;
                format!("(({t})({a}))")
            }
            7 => {
                let op = self.pick(&["-", "~", "!", "+"]);
                format!("({op}{a})")
            }
            8 => {
                let b = self.expr(depth - 1);
                let c = self.expr(depth - 1);
                format!("({a} ? {b} : {c})")
            }
            9 => {
                let op = self.pick(&["&&", "||"]);
                let b = self.expr(depth - 1);
                format!("({a} {op} {b})")
            }
            _ => {
                let op = self.pick(&["&&", "||"]);
                let b = self.expr(depth - 1);
                format!("(!{a} {op} {b})")
            }
        }
    }

    fn program(&mut self) -> String {
        let mut decls = String::new();
        let mut body = String::new();
        let n = 2 + self.rng.below(4);
        for i in 0..n {
            let (t, nd) = TYPES[self.rng.below(TYPES.len() as u64) as usize];
            let name = format!("v{i}");
            decls.push_str(&format!("extern {t} __VERIFIER_nondet_{nd}(void);\n"));
            body.push_str(&format!("  {t} {name} = __VERIFIER_nondet_{nd}();\n"));
            self.vars.push(name);
        }
        for k in 0..(4 + self.rng.below(6)) {
            // Expressions are pure; each statement modifies one variable once, so nothing is
            // unsequenced.
            let e = self.expr(3);
            let i = self.rng.below(self.vars.len() as u64) as usize;
            let v = self.vars[i].clone();
            match self.rng.below(4) {
                0 => {
                    let (t, _) = TYPES[self.rng.below(TYPES.len() as u64) as usize];
                    body.push_str(&format!(
                        "  {t} r{k} = {e};\n  mix((unsigned long long)r{k});\n"
                    ));
                }
                1 => {
                    let op = self.pick(&["+=", "-=", "*=", "&=", "|=", "^=", "="]);
                    body.push_str(&format!("  mix((unsigned long long)({v} {op} {e}));\n"));
                }
                2 => {
                    let op = self.pick(&["++", "--"]);
                    let pre = self.rng.below(2) == 0;
                    let x = if pre {
                        format!("{op}{v}")
                    } else {
                        format!("{v}{op}")
                    };
                    body.push_str(&format!("  mix((unsigned long long)({x}));\n"));
                }
                _ => {
                    let d = self.pick(&["<<=", ">>=", "/=", "%="]);
                    let rhs = if d.starts_with('<') || d.starts_with('>') {
                        format!("((int)({e}) & 15)")
                    } else {
                        self.pick(&["3", "-7", "5u", "11"]).to_string()
                    };
                    body.push_str(&format!("  {v} {d} {rhs};\n"));
                }
            }
        }
        for v in &self.vars {
            body.push_str(&format!("  mix((unsigned long long){v});\n"));
        }
        format!(
            "extern void reach_error(void);\n{decls}unsigned long long digest;\n\
             void mix(unsigned long long v) {{ digest = (digest ^ v) * 1099511628211ull; }}\n\
             int main(void) {{\n{body}  if ((digest ^ (digest >> 29)) & 1) reach_error();\n  return 0;\n}}\n"
        )
    }
}

#[test]
fn generated_programs_agree_with_gcc() {
    let dir = std::env::temp_dir().join(format!("bitmc-random-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err()
        || Command::new("gcc").arg("--version").output().is_err()
    {
        eprintln!("SKIPPED: gcc is not installed: the differential test needs gcc");
        return;
    }
    let harness = {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let shared = root.join("fixtures/harness/harness.c");
        if shared.exists() {
            shared
        } else {
            root.join("tests/data/harness/harness.c")
        }
    };
    let mut failures = Vec::new();
    let mut compared = 0;
    for p in 0..PROGRAMS {
        let mut g = Gen {
            rng: Rng(0xC0FFEE + p * 7919, Vec::new()),
            vars: Vec::new(),
        };
        let src = g.program();
        if std::env::var("BITMC_DUMP").is_ok() {
            eprintln!("{src}");
        }
        let file = dir.join(format!("p{p}.c"));
        if std::fs::write(&file, &src).is_err() {
            continue;
        }
        for dm in [DataModel::Lp64, DataModel::Ilp32] {
            let bin = dir.join(format!("p{p}-{}", dm.name()));
            let mut cmd = Command::new("gcc");
            cmd.args([
                "-std=gnu11",
                "-O0",
                "-fwrapv",
                "-w",
                "-Dmain=bitmc_fixture_main",
            ]);
            if dm == DataModel::Ilp32 {
                cmd.arg("-m32");
            }
            let ok = cmd
                .arg(&file)
                .arg(&harness)
                .arg("-o")
                .arg(&bin)
                .output()
                .is_ok_and(|o| o.status.success());
            if !ok {
                if dm == DataModel::Lp64 {
                    failures.push(format!("gcc rejects program {p}:\n{src}"));
                }
                continue;
            }
            let opts = FrontendOptions {
                data_model: dm,
                ..Default::default()
            };
            let cfa = match lower_source(&src, "p.c", &opts) {
                Ok(l) => l.cfa,
                Err(e) => {
                    failures.push(format!("program {p}: {e}\n{src}"));
                    continue;
                }
            };
            let mut rng = Rng(p + 1, Vec::new());
            for _ in 0..RUNS {
                let seq: Vec<u64> = (0..g.vars.len()).map(|_| rng.interesting()).collect();
                let vals: Vec<u128> = seq.iter().map(|&v| u128::from(v)).collect();
                let ro = RunOptions {
                    step_limit: 100_000,
                    uninit_zero: true,
                    record: false,
                };
                let want = match run_with(&cfa, &vals, ro).0 {
                    Outcome::Error { .. } => 101,
                    Outcome::Exit => 100,
                    o => {
                        failures.push(format!("program {p} ({dm}): unexpected {o:?}"));
                        break;
                    }
                };
                let list: Vec<String> = seq.iter().map(|v| v.to_string()).collect();
                let got = Command::new(&bin)
                    .env("BITMC_NONDET", list.join(","))
                    .output()
                    .ok()
                    .and_then(|o| o.status.code());
                compared += 1;
                if got != Some(want) {
                    failures.push(format!(
                        "program {p} ({dm}) on {seq:?}: gcc {got:?}, interpreter {want}\n{src}"
                    ));
                    break;
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("random programs: {PROGRAMS} programs, {compared} executions compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
