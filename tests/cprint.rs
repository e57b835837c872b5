//! `bv::cprint::c_expr` against gcc: random terms over every operator and widths 1 to 128 are
//! printed as C, compiled into one program with UBSan (`-fsanitize=undefined
//! -fno-sanitize-recover=all`, so undefined behaviour in the printed C fails the test), and run
//! on random variable values; every result must equal bitmc's own evaluation. Half of the
//! assignments put garbage above each variable's width into its C parameter, which the printed
//! C must ignore.
//!
//! gcc is needed; when it is missing the differential test says so and skips (a failure under
//! `CI=true`). `BITMC_CPRINT_SEED=<n>` runs it on other random terms; `BITMC_KEEP_CPRINT=1`
//! keeps the generated C file (it is also kept when the test fails).

mod common;

use bitmc::bv::cprint::c_expr;
use bitmc::bv::value::{mask, signed_max, signed_min};
use bitmc::bv::{Evaluator, Node, Op, Sort, TermId, TermManager, VarId};
use common::{oracle_missing, Rng};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Instant;

const WIDTHS: [u32; 10] = [1, 3, 8, 16, 31, 32, 33, 64, 65, 128];
const BOOL_TERMS: usize = 300;
const BV_TERMS: usize = 200;
const ASSIGNMENTS: usize = 16;
const SEED: u64 = 0x5eed_c0de_2024_0001;

/// A random term generator over a fixed set of variables.
struct Gen {
    rng: Rng,
    /// Bit-vector variables: (width, term).
    vars: Vec<(u32, TermId)>,
    bools: Vec<TermId>,
}

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn width(&mut self) -> u32 {
        WIDTHS[self.below(WIDTHS.len() as u64) as usize]
    }

    fn u128(&mut self) -> u128 {
        (self.rng.next() as u128) << 64 | self.rng.next() as u128
    }

    /// An interesting value of `w` bits.
    fn value(&mut self, w: u32) -> u128 {
        let v = match self.below(10) {
            0 => 0,
            1 => 1,
            2 => mask(w),
            3 => signed_min(w),
            4 => signed_max(w),
            5 => signed_min(w).wrapping_add(1),
            6 => self.below(8) as u128,
            7 => mask(w).wrapping_sub(self.below(4) as u128),
            _ => self.u128(),
        };
        v & mask(w)
    }

    fn constant(&mut self, tm: &mut TermManager, w: u32) -> TermId {
        let v = match self.below(4) {
            0 => w as u128 - self.below(2) as u128, // around the width, for shifts
            _ => self.value(w),
        };
        tm.bv_const(v, w)
    }

    /// A variable or constant of width `w` (a variable's slice when no variable has `w` bits).
    fn leaf(&mut self, tm: &mut TermManager, w: u32) -> TermId {
        if self.below(3) == 0 {
            return self.constant(tm, w);
        }
        let same: Vec<TermId> = self
            .vars
            .iter()
            .filter(|(vw, _)| *vw == w)
            .map(|&(_, t)| t)
            .collect();
        if !same.is_empty() && self.below(4) != 0 {
            return same[self.below(same.len() as u64) as usize];
        }
        let wide: Vec<(u32, TermId)> = self
            .vars
            .iter()
            .copied()
            .filter(|(vw, _)| *vw >= w)
            .collect();
        let (vw, t) = wide[self.below(wide.len() as u64) as usize];
        let lo = self.below((vw - w + 1) as u64) as u32;
        tm.extract(t, lo + w - 1, lo)
    }

    fn bv(&mut self, tm: &mut TermManager, w: u32, depth: u32) -> TermId {
        if depth == 0 || self.below(6) == 0 {
            return self.leaf(tm, w);
        }
        let d = depth - 1;
        match self.below(21) {
            0 => {
                let a = self.bv(tm, w, d);
                tm.not(a)
            }
            1 => {
                let a = self.bv(tm, w, d);
                tm.neg(a)
            }
            k @ 2..=11 => {
                let op = [
                    Op::And,
                    Op::Or,
                    Op::Xor,
                    Op::Add,
                    Op::Sub,
                    Op::Mul,
                    Op::Udiv,
                    Op::Urem,
                    Op::Sdiv,
                    Op::Srem,
                ][k as usize - 2];
                let a = self.bv(tm, w, d);
                let b = self.bv(tm, w, d);
                tm.app(op, &[a, b])
            }
            k @ 12..=14 => {
                let op = [Op::Shl, Op::Lshr, Op::Ashr][k as usize - 12];
                let a = self.bv(tm, w, d);
                let b = match self.below(3) {
                    0 => {
                        let s = self.below(w as u64 + 2) as u128;
                        tm.bv_const(s, w)
                    }
                    1 => self.leaf(tm, w),
                    _ => self.bv(tm, w, d),
                };
                tm.app(op, &[a, b])
            }
            15 if w >= 2 => {
                let hw = 1 + self.below(w as u64 - 1) as u32;
                let hi = self.bv(tm, hw, d);
                let lo = self.bv(tm, w - hw, d);
                tm.concat(hi, lo)
            }
            16 => {
                let from = if self.below(2) == 0 {
                    let ws: Vec<u32> = WIDTHS.iter().copied().filter(|&x| x >= w).collect();
                    ws[self.below(ws.len() as u64) as usize]
                } else {
                    (w + self.below(10) as u32).min(128)
                };
                let a = self.bv(tm, from, d);
                let lo = self.below((from - w + 1) as u64) as u32;
                tm.extract(a, lo + w - 1, lo)
            }
            k @ 17..=18 => {
                let from = if self.below(2) == 0 {
                    let ws: Vec<u32> = WIDTHS.iter().copied().filter(|&x| x <= w).collect();
                    ws[self.below(ws.len() as u64) as usize]
                } else {
                    1 + self.below(w as u64) as u32
                };
                let a = self.bv(tm, from, d);
                if k == 17 {
                    tm.zext(a, w)
                } else {
                    tm.sext(a, w)
                }
            }
            _ => {
                let c = self.boolean(tm, d);
                let a = self.bv(tm, w, d);
                let b = self.bv(tm, w, d);
                tm.ite(c, a, b)
            }
        }
    }

    fn boolean(&mut self, tm: &mut TermManager, depth: u32) -> TermId {
        if depth == 0 {
            return match self.below(4) {
                0 => {
                    let i = self.below(self.bools.len() as u64) as usize;
                    self.bools[i]
                }
                1 => {
                    let b = self.below(2) == 1;
                    tm.bool_const(b)
                }
                _ => {
                    let w = self.width();
                    let a = self.leaf(tm, w);
                    let b = self.leaf(tm, w);
                    let op = [Op::Eq, Op::Ult, Op::Ule, Op::Slt, Op::Sle][self.below(5) as usize];
                    tm.app(op, &[a, b])
                }
            };
        }
        let d = depth - 1;
        match self.below(11) {
            k @ 0..=4 => {
                let op = [Op::Eq, Op::Ult, Op::Ule, Op::Slt, Op::Sle][k as usize];
                let w = self.width();
                let a = self.bv(tm, w, d);
                let b = self.bv(tm, w, d);
                tm.app(op, &[a, b])
            }
            5 => {
                let a = self.boolean(tm, d);
                tm.not(a)
            }
            k @ 6..=9 => {
                let op = [Op::And, Op::Or, Op::Xor, Op::Eq][k as usize - 6];
                let a = self.boolean(tm, d);
                let b = self.boolean(tm, d);
                tm.app(op, &[a, b])
            }
            _ => {
                let c = self.boolean(tm, d);
                let a = self.boolean(tm, d);
                let b = self.boolean(tm, d);
                tm.ite(c, a, b)
            }
        }
    }
}

/// The C type of a variable's parameter.
fn param_type(w: u32) -> &'static str {
    if w <= 64 {
        "unsigned long long"
    } else {
        "unsigned __int128"
    }
}

fn gcc_available() -> bool {
    Command::new("gcc")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn printed_c_agrees_with_evaluation_under_gcc_and_ubsan() {
    if !gcc_available() {
        oracle_missing("gcc is not installed: the C printer's differential test needs gcc");
        return;
    }
    let start = Instant::now();
    // `BITMC_CPRINT_SEED` replaces the fixed seed, to explore.
    let seed = std::env::var("BITMC_CPRINT_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(SEED);
    let mut tm = TermManager::new();
    let mut vars: Vec<(u32, TermId)> = Vec::new();
    for (i, &w) in WIDTHS.iter().enumerate() {
        vars.push((w, tm.var(format!("v{i}"), Sort::Bv(w))));
    }
    for &w in &[8, 32, 64, 128] {
        let i = vars.len();
        vars.push((w, tm.var(format!("v{i}"), Sort::Bv(w))));
    }
    let bools: Vec<TermId> = (0..2)
        .map(|k| tm.var(format!("v{}", vars.len() + k), Sort::Bool))
        .collect();
    let mut g = Gen {
        rng: Rng(seed, Vec::new()),
        vars: vars.clone(),
        bools: bools.clone(),
    };

    // The terms: bool roots (the use case) and bit-vector roots (whose whole value is compared).
    let mut terms: Vec<TermId> = Vec::new();
    let mut ops_seen = std::collections::HashSet::new();
    while terms.len() < BOOL_TERMS + BV_TERMS {
        let t = if terms.len() < BOOL_TERMS {
            g.boolean(&mut tm, 4)
        } else {
            let w = g.width();
            g.bv(&mut tm, w, 4)
        };
        if tm.const_value(t).is_some() || terms.contains(&t) {
            continue;
        }
        terms.push(t);
    }
    // Every application below the terms, once.
    let mut apps: Vec<TermId> = Vec::new();
    {
        let mut seen = std::collections::HashSet::new();
        let mut stack = terms.clone();
        while let Some(u) = stack.pop() {
            if seen.insert(u) {
                stack.extend_from_slice(tm.args(u));
                if !tm.args(u).is_empty() {
                    apps.push(u);
                }
            }
        }
    }
    for &t in &apps {
        if let Node::App(op, args) = tm.node(t) {
            let op = match op {
                Op::Extract { .. } => Op::Extract { hi: 0, lo: 0 },
                Op::Zext(_) => Op::Zext(0),
                Op::Sext(_) => Op::Sext(0),
                _ => op,
            };
            // By the sort of the last argument: bool or bit-vector connectives and `ite`s.
            ops_seen.insert((op, tm.sort(args[2]).is_bool()));
        }
    }
    assert!(
        ops_seen.len() == 31,
        "the generator covers only {} (operator, bool) pairs: {ops_seen:?}",
        ops_seen.len()
    );

    // The C program: one function per term taking every variable, and a main that reads the
    // assignments (hex halves per variable) and prints every result as hex halves.
    let all_vars: Vec<(VarId, u32)> = tm
        .vars()
        .iter()
        .enumerate()
        .map(|(i, v)| (VarId(i as u32), v.sort.width()))
        .collect();
    let name = |v: VarId| format!("v{}", v.0);
    let params: Vec<String> = all_vars
        .iter()
        .map(|&(v, w)| format!("{} {}", param_type(w), name(v)))
        .collect();
    let mut src = String::new();
    src.push_str("#include <stdio.h>\n");
    let mut exprs = Vec::new();
    let mut first_line = 0;
    for (i, &t) in terms.iter().enumerate() {
        let e = c_expr(&tm, t, &name);
        if i == 0 {
            first_line = src.lines().count() + 1;
        }
        let _ = writeln!(
            src,
            "static unsigned __int128 f{i}({}) {{ return {e}; }}",
            params.join(", ")
        );
        exprs.push(e);
    }
    let _ = writeln!(src, "static unsigned __int128 in[{}];", all_vars.len());
    src.push_str("int main(void) {\n  unsigned long long hi, lo;\n  for (;;) {\n");
    let _ = writeln!(src, "    for (int i = 0; i < {}; i++) {{", all_vars.len());
    src.push_str("      if (scanf(\"%llx %llx\", &hi, &lo) != 2) return 0;\n");
    src.push_str("      in[i] = (unsigned __int128)hi << 64 | lo;\n    }\n");
    let args: Vec<String> = all_vars
        .iter()
        .enumerate()
        .map(|(k, &(_, w))| format!("({})in[{k}]", param_type(w)))
        .collect();
    for i in 0..terms.len() {
        let _ = writeln!(
            src,
            "    {{ unsigned __int128 r = f{i}({}); printf(\"%llx %llx\\n\", (unsigned long long)(r >> 64), (unsigned long long)r); }}",
            args.join(", ")
        );
    }
    src.push_str("  }\n}\n");

    let dir = std::env::temp_dir().join(format!("bitmc-cprint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let c_file = dir.join("exprs.c");
    let bin = dir.join("exprs");
    std::fs::write(&c_file, &src).expect("write C file");
    let out = Command::new("gcc")
        .args([
            "-std=gnu11",
            "-O0",
            "-Wall",
            "-Wno-unused-function",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
        ])
        .arg(&c_file)
        .arg("-o")
        .arg(&bin)
        .output()
        .expect("run gcc");
    assert!(
        out.status.success(),
        "gcc rejects the printed C ({}):\n{}",
        c_file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let warnings = String::from_utf8_lossy(&out.stderr)
        .matches("warning:")
        .count();
    let compiled = start.elapsed();

    // The assignments: interesting values, with garbage above the width in half of them; in a
    // quarter of them every variable is the signed minimum or all ones (MIN / -1 in C).
    let mut assignments: Vec<Vec<u128>> = Vec::new(); // the C parameters' values
    for k in 0..ASSIGNMENTS {
        let mut row = Vec::new();
        for &(_, w) in &all_vars {
            let mut v = if k % 4 >= 2 {
                [signed_min(w), mask(w)][g.below(2) as usize]
            } else {
                g.value(w)
            };
            let bits = if w <= 64 { 64 } else { 128 };
            if k % 2 == 1 && w < bits {
                v |= (g.u128() << w) & mask(bits);
            }
            row.push(v);
        }
        assignments.push(row);
    }
    let mut input = String::new();
    for row in &assignments {
        for v in row {
            let _ = write!(input, "{:x} {:x} ", v >> 64, *v as u64);
        }
        input.push('\n');
    }
    let mut child = Command::new(&bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the compiled expressions");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write assignments");
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let ub_line = stderr
        .lines()
        .find_map(|l| l.split(':').nth(1)?.parse::<usize>().ok())
        .filter(|&l| l >= first_line && l < first_line + terms.len());
    assert!(
        out.status.success() && stderr.is_empty(),
        "the compiled expressions failed ({}): {}\n{}",
        out.status,
        stderr,
        ub_line
            .map(|l| format!(
                "in f{}: {}\n{}",
                l - first_line,
                tm.display(terms[l - first_line]),
                exprs[l - first_line]
            ))
            .unwrap_or_default()
    );

    let results: Vec<u128> = stdout
        .lines()
        .map(|l| {
            let (hi, lo) = l.split_once(' ').expect("two halves");
            (u128::from_str_radix(hi, 16).unwrap() << 64) | u128::from_str_radix(lo, 16).unwrap()
        })
        .collect();
    assert_eq!(results.len(), ASSIGNMENTS * terms.len(), "missing outputs");
    let mut mismatches = Vec::new();
    // Evaluations of sub-terms in the cases that C leaves undefined or that need a guard:
    // division by zero, signed MIN / -1, shifts by at least the width.
    let (mut div_zero, mut min_minus_one, mut wide_shift) = (0usize, 0usize, 0usize);
    let mut guarded_min_minus_one = 0usize; // at 32, 64 or 128 bits by a non-constant

    for (k, row) in assignments.iter().enumerate() {
        let mut ev = Evaluator::new(&tm);
        for (&(v, _), &x) in all_vars.iter().zip(row) {
            ev.set(v, x);
        }
        for &u in &apps {
            let Node::App(op, args) = tm.node(u) else {
                continue;
            };
            if tm.sort(args[0]).is_bool() || tm.sort(args[1]).is_bool() {
                continue;
            }
            let w = tm.width(args[0]);
            let (x, y) = (ev.eval(args[0]), ev.eval(args[1]));
            match op {
                Op::Udiv | Op::Urem | Op::Sdiv | Op::Srem if y == 0 => div_zero += 1,
                Op::Sdiv | Op::Srem if x == signed_min(w) && y == mask(w) => {
                    min_minus_one += 1;
                    if [32, 64, 128].contains(&w) && tm.const_value(args[1]).is_none() {
                        guarded_min_minus_one += 1;
                    }
                }
                Op::Shl | Op::Lshr | Op::Ashr if y >= w as u128 => wide_shift += 1,
                _ => {}
            }
        }
        for (i, &t) in terms.iter().enumerate() {
            let want = ev.eval(t);
            let got = results[k * terms.len() + i];
            if got != want {
                mismatches.push(format!(
                    "f{i} on assignment {k}: C gives {got:#x}, bitmc {want:#x}\n  term: {}\n  C:    {}",
                    tm.display(t),
                    exprs[i]
                ));
            }
        }
    }
    let chars: usize = exprs.iter().map(|e| e.len()).sum();
    eprintln!(
        "seed {seed}: {} terms ({} bool), {} evaluations, {} operator kinds, {} chars of C, {} gcc warnings, \
         {:.1}s (compiled after {:.1}s); sub-term evaluations dividing by 0: {}, MIN / -1: {} \
         ({} at 32, 64 or 128 bits by a non-constant), shifting by >= the width: {}",
        terms.len(),
        BOOL_TERMS,
        terms.len() * ASSIGNMENTS,
        ops_seen.len(),
        chars,
        warnings,
        start.elapsed().as_secs_f64(),
        compiled.as_secs_f64(),
        div_zero,
        min_minus_one,
        guarded_min_minus_one,
        wide_shift
    );
    assert!(
        div_zero > 0 && guarded_min_minus_one > 0 && wide_shift > 0,
        "the edge cases are not all exercised"
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(10)].join("\n")
    );
    if std::env::var_os("BITMC_KEEP_CPRINT").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Prints the term `f(tm, vars)` over variables named `x`, `y`, `z` of the given sorts.
fn show(sorts: &[Sort], f: impl Fn(&mut TermManager, &[TermId]) -> TermId) -> String {
    let mut tm = TermManager::new();
    let vs: Vec<TermId> = sorts
        .iter()
        .zip(["x", "y", "z"])
        .map(|(&s, n)| tm.var(n, s))
        .collect();
    let t = f(&mut tm, &vs);
    let names: Vec<String> = tm.vars().iter().map(|v| v.name.clone()).collect();
    c_expr(&tm, t, &|v: VarId| names[v.index()].clone())
}

#[test]
fn common_invariants_read_naturally() {
    let bv32 = Sort::Bv(32);
    assert_eq!(
        show(&[bv32, bv32], |tm, v| tm.slt(v[0], v[1])),
        "(int)x < (int)y"
    );
    assert_eq!(
        show(&[bv32], |tm, v| {
            let c = tm.bv_const_signed(-5, 32);
            tm.sle(c, v[0])
        }),
        "-5 <= (int)x"
    );
    assert_eq!(
        show(&[bv32, bv32], |tm, v| {
            let c = tm.bv_const(1, 32);
            let s = tm.add(v[0], c);
            tm.ne(s, v[1])
        }),
        "(unsigned int)y != (unsigned int)x + 1u"
    );
    assert_eq!(
        show(&[Sort::Bv(8), Sort::Bv(8)], |tm, v| tm.ult(v[0], v[1])),
        "((unsigned int)x & 255u) < ((unsigned int)y & 255u)"
    );
    assert_eq!(
        show(&[Sort::Bv(64), Sort::Bool], |tm, v| {
            let c = tm.bv_const(7, 64);
            let e = tm.eq(v[0], c);
            tm.or(e, v[1])
        }),
        "(y & 1) || (unsigned long long)x == 7ull"
    );
    // Names that are not identifiers are parenthesised.
    let mut tm = TermManager::new();
    let x = tm.var("x", bv32);
    let z = tm.bv_const(0, 32);
    let t = tm.eq(x, z);
    assert_eq!(
        c_expr(&tm, t, &|_| "s->x".to_string()),
        "(unsigned int)(s->x) == 0u"
    );
}

#[test]
fn deep_terms_print_without_recursion() {
    let mut tm = TermManager::new();
    let x = tm.var("x", Sort::Bv(16));
    let y = tm.var("y", Sort::Bv(16));
    let mut t = x;
    for i in 0..50_000 {
        t = if i % 2 == 0 {
            tm.add(t, y)
        } else {
            tm.xor(t, x)
        };
    }
    let z = tm.bv_const(3, 16);
    let root = tm.ult(t, z);
    let s = c_expr(&tm, root, &|v| format!("v{}", v.0));
    assert!(s.len() > 50_000 * 10, "{}", s.len());
    assert!(s.ends_with("< 3u"), "{}", &s[s.len() - 40..]);
}
