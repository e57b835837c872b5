//! Helpers shared by the integration tests: a deterministic generator, random AIGER files and
//! a reference evaluator for them.
#![allow(dead_code)]

use bitmc::aig::aiger::{AigerFile, AndGate, Latch, Symbol, SymbolKind};
use bitmc::bv::value;
use std::path::{Path, PathBuf};

/// `../shared/bench/aiger`, found relative to the checkout; `None` (with a note) when it is
/// absent, and a failure under `BITMC_REQUIRE_BENCH=1` (see `.ci/run`).
pub fn bench_aiger() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/aiger");
    if p.is_dir() {
        return Some(p);
    }
    let ci = std::env::var("BITMC_REQUIRE_BENCH").is_ok_and(|v| v == "1");
    assert!(
        !ci,
        "{} is absent; with BITMC_REQUIRE_BENCH=1 (set by .ci/run when ../shared/bench exists) it must be there",
        p.display()
    );
    eprintln!("SKIPPED: {} is absent", p.display());
    None
}

/// splitmix64: a small deterministic generator (no dependency, reproducible failures).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
    pub fn u128(&mut self) -> u128 {
        (self.next() as u128) << 64 | self.next() as u128
    }
    /// An operand of `w` bits from a mix of distributions: uniform, short (random bit length),
    /// small, and near the signed/unsigned extremes.
    pub fn operand(&mut self, w: u32) -> u128 {
        let m = value::mask(w);
        let v = match self.below(6) {
            0 | 1 => self.u128(),
            2 => self.u128() >> (self.below(128) as u32),
            3 => self.below(w as u64 + 3) as u128,
            4 => value::signed_min(w)
                .wrapping_add(self.below(5) as u128)
                .wrapping_sub(2),
            _ => m.wrapping_sub(self.below(5) as u128),
        };
        v & m
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i as u64 + 1) as usize);
        }
    }
}

/// A random well-formed AIGER file with scattered variable numbers (ASCII only: `M` has
/// slack, AND gates are out of topological order), every section, symbols and comments.
pub fn random_aiger(rng: &mut Rng, max_size: u64) -> AigerFile {
    let ni = rng.below(max_size + 1) as usize;
    let nl = rng.below(max_size + 1) as usize;
    let na = rng.below(4 * max_size + 1) as usize;
    let slack = rng.below(4) as usize;
    let mut vars: Vec<u32> = (1..=(ni + nl + na + slack) as u32).collect();
    rng.shuffle(&mut vars);
    let max_var = vars.len() as u32;
    let (ins, rest) = vars.split_at(ni);
    let (lat, rest) = rest.split_at(nl);
    let ands_vars = &rest[..na];
    // Defined literals in a topological order: constants, inputs, latches, then gates.
    let mut avail: Vec<u32> = vec![0];
    avail.extend(ins.iter().chain(lat).map(|v| 2 * v));
    let pick = |rng: &mut Rng, avail: &[u32]| {
        avail[rng.below(avail.len() as u64) as usize] ^ rng.bool() as u32
    };
    let mut ands = Vec::new();
    for &v in ands_vars {
        let (a, b) = (pick(rng, &avail), pick(rng, &avail));
        ands.push(AndGate {
            lhs: 2 * v,
            rhs0: a,
            rhs1: b,
        });
        avail.push(2 * v);
    }
    rng.shuffle(&mut ands);
    let latches = lat
        .iter()
        .map(|&v| {
            let reset = match rng.below(3) {
                0 => 0,
                1 => 1,
                _ => 2 * v,
            };
            Latch {
                lit: 2 * v,
                next: pick(rng, &avail),
                reset,
            }
        })
        .collect();
    let lits = |rng: &mut Rng, n: u64| {
        (0..rng.below(n + 1))
            .map(|_| pick(rng, &avail))
            .collect::<Vec<_>>()
    };
    let outputs = lits(rng, 3);
    let bad = lits(rng, 3);
    let constraints = lits(rng, 2);
    let justice = (0..rng.below(3)).map(|_| lits(rng, 3)).collect();
    let fairness = lits(rng, 2);
    let mut file = AigerFile {
        max_var,
        inputs: ins.iter().map(|v| 2 * v).collect(),
        latches,
        outputs,
        bad,
        constraints,
        justice,
        fairness,
        ands,
        symbols: Vec::new(),
        comments: Vec::new(),
    };
    let kinds = [
        (SymbolKind::Input, file.inputs.len()),
        (SymbolKind::Latch, file.latches.len()),
        (SymbolKind::Output, file.outputs.len()),
        (SymbolKind::Bad, file.bad.len()),
        (SymbolKind::Constraint, file.constraints.len()),
        (SymbolKind::Justice, file.justice.len()),
        (SymbolKind::Fairness, file.fairness.len()),
    ];
    for (kind, n) in kinds {
        for index in 0..n as u32 {
            if rng.below(2) == 0 {
                let name = format!(
                    "{}{} name with spaces [{}]",
                    kind.letter() as char,
                    index,
                    rng.below(100)
                );
                file.symbols.push(Symbol { kind, index, name });
            }
        }
    }
    rng.shuffle(&mut file.symbols);
    if rng.bool() {
        file.comments = vec![
            "made by the test generator".into(),
            String::new(),
            format!("seed-ish {}", rng.below(1000)),
        ];
    }
    file
}

/// The values of every file variable given input and latch values, by fixpoint iteration over
/// the gates in file order (independent of any topological sort).
pub fn reference_eval(f: &AigerFile, inputs: &[bool], latches: &[bool]) -> Vec<bool> {
    let mut val = vec![false; f.max_var as usize + 1];
    for (&i, &x) in f.inputs.iter().zip(inputs) {
        val[(i >> 1) as usize] = x;
    }
    for (l, &x) in f.latches.iter().zip(latches) {
        val[(l.lit >> 1) as usize] = x;
    }
    let lit = |val: &[bool], l: u32| val[(l >> 1) as usize] ^ (l & 1 == 1);
    for _ in 0..=f.ands.len() {
        let mut changed = false;
        for g in &f.ands {
            let v = lit(&val, g.rhs0) && lit(&val, g.rhs1);
            if val[(g.lhs >> 1) as usize] != v {
                val[(g.lhs >> 1) as usize] = v;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    val
}

/// The literal's value in a valuation from [`reference_eval`].
pub fn ref_lit(val: &[bool], l: u32) -> bool {
    val[(l >> 1) as usize] ^ (l & 1 == 1)
}
