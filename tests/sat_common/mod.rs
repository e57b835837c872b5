//! Helpers shared by the SAT integration tests: a seeded RNG, a CNF and circuit builder,
//! instance generators with independent oracles, and the script runner that checks every answer
//! of a backend (models against the clauses, cores by re-solving them with another backend).
#![allow(dead_code)]

use bitmc::sat::{Backend, Interrupter, Lit, SatError, SolveResult, Solver, Var};

/// SplitMix64: small, seedable, good enough for instance generation.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % u64::from(n)) as u32
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
    /// A random literal over variables `0..n`.
    pub fn lit(&mut self, n: u32) -> Lit {
        Var(self.below(n)).pos().xor_sign(self.coin())
    }
    /// `k` distinct variables out of `0..n` (`k <= n`), as random-sign literals.
    pub fn distinct_lits(&mut self, n: u32, k: u32) -> Vec<Lit> {
        let mut vars: Vec<u32> = Vec::new();
        while vars.len() < k as usize {
            let v = self.below(n);
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        vars.into_iter()
            .map(|v| Var(v).pos().xor_sign(self.coin()))
            .collect()
    }
}

/// A clause list with its variable count.
#[derive(Clone, Debug, Default)]
pub struct Cnf {
    pub num_vars: u32,
    pub clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    pub fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }
    pub fn add(&mut self, clause: Vec<Lit>) {
        for l in &clause {
            self.num_vars = self.num_vars.max(l.var().0 + 1);
        }
        self.clauses.push(clause);
    }
}

/// Brute force: is there an assignment of `0..num_vars` satisfying `clauses` and `assumptions`?
pub fn brute_force(num_vars: u32, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    assert!(num_vars <= 20, "brute force is for tiny instances");
    let holds = |m: u32, l: &Lit| ((m >> l.var().0) & 1 == 1) != l.is_negated();
    (0u32..1 << num_vars).any(|m| {
        assumptions.iter().all(|l| holds(m, l))
            && clauses.iter().all(|c| c.iter().any(|l| holds(m, l)))
    })
}

/// Tseitin gates over a [`Cnf`].
#[derive(Default)]
pub struct Circuit {
    pub cnf: Cnf,
    zero: Option<Lit>,
}

impl Circuit {
    pub fn input(&mut self) -> Lit {
        self.cnf.new_var().pos()
    }
    pub fn word(&mut self, k: usize) -> Vec<Lit> {
        (0..k).map(|_| self.input()).collect()
    }
    /// The constant false literal.
    pub fn zero(&mut self) -> Lit {
        if let Some(z) = self.zero {
            return z;
        }
        let z = self.input();
        self.cnf.add(vec![!z]);
        self.zero = Some(z);
        z
    }
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.input();
        self.cnf.add(vec![!o, a]);
        self.cnf.add(vec![!o, b]);
        self.cnf.add(vec![o, !a, !b]);
        o
    }
    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }
    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.input();
        self.cnf.add(vec![!o, a, b]);
        self.cnf.add(vec![!o, !a, !b]);
        self.cnf.add(vec![o, !a, b]);
        self.cnf.add(vec![o, a, !b]);
        o
    }
    /// Ripple-carry sum of two words, truncated to their width.
    pub fn add_words(&mut self, a: &[Lit], b: &[Lit]) -> Vec<Lit> {
        let mut carry = self.zero();
        let mut out = Vec::new();
        for (&x, &y) in a.iter().zip(b) {
            let t = self.xor(x, y);
            out.push(self.xor(t, carry));
            let g = self.and(x, y);
            let p = self.and(t, carry);
            carry = self.or(g, p);
        }
        out
    }
    /// Shift-and-add product of two words, truncated to their width.
    pub fn mul_words(&mut self, a: &[Lit], b: &[Lit]) -> Vec<Lit> {
        let k = a.len();
        let zero = self.zero();
        let mut acc = vec![zero; k];
        for (i, &bi) in b.iter().enumerate() {
            let mut partial = vec![zero; k];
            for j in 0..k - i {
                partial[i + j] = self.and(a[j], bi);
            }
            acc = self.add_words(&acc, &partial);
        }
        acc
    }
    /// A literal that holds iff the words differ.
    pub fn differs(&mut self, a: &[Lit], b: &[Lit]) -> Lit {
        let mut d = self.zero();
        for (&x, &y) in a.iter().zip(b) {
            let x = self.xor(x, y);
            d = self.or(d, x);
        }
        d
    }
}

/// One step of a script run against a backend.
#[derive(Clone, Debug)]
pub enum Step {
    Add(Vec<Lit>),
    /// Freeze (`true`) or melt (`false`) a variable.
    Freeze(Var, bool),
    /// Solve under the assumptions; `expect` is an independent oracle's answer when known.
    Solve {
        assumptions: Vec<Lit>,
        expect: Option<bool>,
    },
}

/// A named sequence of steps; every backend must give the same answers on it.
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub name: String,
    pub steps: Vec<Step>,
}

impl Script {
    pub fn new(name: impl Into<String>) -> Script {
        Script {
            name: name.into(),
            steps: Vec::new(),
        }
    }
    pub fn add_all(&mut self, clauses: &[Vec<Lit>]) {
        self.steps
            .extend(clauses.iter().map(|c| Step::Add(c.clone())));
    }
    pub fn add(&mut self, clause: Vec<Lit>) {
        self.steps.push(Step::Add(clause));
    }
    pub fn solve(&mut self, assumptions: Vec<Lit>, expect: Option<bool>) {
        self.steps.push(Step::Solve {
            assumptions,
            expect,
        });
    }
    pub fn num_solves(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Solve { .. }))
            .count()
    }
}

/// A solver of `backend` holding `clauses`.
pub fn loaded(backend: Backend, clauses: &[Vec<Lit>]) -> Box<dyn Solver> {
    let mut s = backend.create(&Interrupter::new());
    for c in clauses {
        s.add_clause(c);
    }
    s
}

/// Check a SAT answer: every clause and every assumption is true in the model.
pub fn check_model(
    s: &dyn Solver,
    clauses: &[Vec<Lit>],
    assumptions: &[Lit],
) -> Result<(), String> {
    for c in clauses {
        if !c.iter().any(|&l| s.value(l) == Ok(Some(true))) {
            return Err(format!("clause {c:?} is not satisfied by the model"));
        }
    }
    for &a in assumptions {
        if s.value(a) != Ok(Some(true)) {
            return Err(format!(
                "assumption {a} is not true in the model: {:?}",
                s.value(a)
            ));
        }
    }
    Ok(())
}

/// The failed assumptions of an UNSAT answer, checked to be a core: `failed` answers for every
/// assumption, and the core alone is UNSAT for a fresh solver of another backend.
pub fn check_core(
    s: &dyn Solver,
    clauses: &[Vec<Lit>],
    assumptions: &[Lit],
) -> Result<Vec<Lit>, String> {
    let mut core = Vec::new();
    for &a in assumptions {
        match s.failed(a) {
            Ok(true) => core.push(a),
            Ok(false) => {}
            Err(e) => return Err(format!("failed({a}) of an assumption: {e}")),
        }
    }
    let backend = Backend::from_name(s.name()).ok_or("unknown backend name")?;
    let mut checker = loaded(backend.independent_of(), clauses);
    match checker.solve(&core) {
        SolveResult::Unsat => Ok(core),
        r => Err(format!(
            "core {core:?} re-solved by {} gives {r:?}",
            checker.name()
        )),
    }
}

/// A literal over `0..num_vars` that is not among `assumptions`, if there is one.
fn non_assumption(num_vars: u32, assumptions: &[Lit]) -> Option<Lit> {
    (0..num_vars)
        .flat_map(|v| [Var(v).pos(), Var(v).neg()])
        .find(|l| !assumptions.contains(l))
}

/// Check the answer of the last solve of `s` and the misuse errors around it.
fn check_answer(
    s: &dyn Solver,
    r: SolveResult,
    clauses: &[Vec<Lit>],
    assumptions: &[Lit],
) -> Result<(), String> {
    let any = Var(0).pos();
    match r {
        SolveResult::Sat => {
            check_model(s, clauses, assumptions)?;
            if !matches!(s.failed(any), Err(SatError::NoCore { .. })) {
                return Err(format!("failed after SAT gave {:?}", s.failed(any)));
            }
        }
        SolveResult::Unsat => {
            check_core(s, clauses, assumptions)?;
            if !matches!(s.value(any), Err(SatError::NoModel { .. })) {
                return Err(format!("value after UNSAT gave {:?}", s.value(any)));
            }
            if let Some(l) = non_assumption(s.num_vars(), assumptions) {
                if !matches!(s.failed(l), Err(SatError::NotAnAssumption { .. })) {
                    return Err(format!(
                        "failed({l}) of a non-assumption gave {:?}",
                        s.failed(l)
                    ));
                }
            }
        }
        SolveResult::Interrupted => return Err("interrupted without a reason".into()),
    }
    Ok(())
}

/// Run `script` on a fresh solver of `backend`, checking every answer; the answers in order.
pub fn run(backend: Backend, script: &Script) -> Result<Vec<SolveResult>, String> {
    let mut s = backend.create(&Interrupter::new());
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let mut answers = Vec::new();
    for step in &script.steps {
        match step {
            Step::Add(c) => {
                s.add_clause(c);
                clauses.push(c.clone());
            }
            Step::Freeze(v, true) => s.freeze(*v),
            Step::Freeze(v, false) => s.melt(*v),
            Step::Solve {
                assumptions,
                expect,
            } => {
                let r = s.solve(assumptions);
                let at = answers.len();
                check_answer(&*s, r, &clauses, assumptions)
                    .map_err(|e| format!("solve #{at}: {e}"))?;
                if let Some(e) = expect {
                    if (r == SolveResult::Sat) != *e {
                        return Err(format!("solve #{at}: {r:?}, the oracle says sat={e}"));
                    }
                }
                answers.push(r);
            }
        }
    }
    Ok(answers)
}

/// Run every script on every backend; all must succeed and agree. Returns the number of SAT and
/// UNSAT answers (of one backend), so a caller can check that its generator is not degenerate.
pub fn differential(scripts: &[Script]) -> (usize, usize) {
    let mut failures = Vec::new();
    let (mut sat, mut unsat) = (0, 0);
    for script in scripts {
        let mut reference: Option<(Backend, Vec<SolveResult>)> = None;
        for backend in Backend::ALL {
            match run(backend, script) {
                Err(e) => failures.push(format!("{} on {}: {e}", backend, script.name)),
                Ok(answers) => match &reference {
                    None => {
                        sat += answers.iter().filter(|&&r| r == SolveResult::Sat).count();
                        unsat += answers.iter().filter(|&&r| r == SolveResult::Unsat).count();
                        reference = Some((backend, answers));
                    }
                    Some((b0, a0)) if *a0 != answers => failures.push(format!(
                        "{}: {b0} answered {a0:?} but {backend} answered {answers:?}",
                        script.name
                    )),
                    Some(_) => {}
                },
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} scripts, per backend {sat} SAT and {unsat} UNSAT answers",
        scripts.len()
    );
    (sat, unsat)
}

/// Pigeonhole: `pigeons` pigeons in `holes` holes, at most one per hole; SAT iff pigeons <= holes.
pub fn pigeonhole(pigeons: u32, holes: u32) -> Cnf {
    let var = |p: u32, h: u32| Var(p * holes + h).pos();
    let mut cnf = Cnf::default();
    for p in 0..pigeons {
        cnf.add((0..holes).map(|h| var(p, h)).collect());
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                cnf.add(vec![!var(p, h), !var(q, h)]);
            }
        }
    }
    cnf
}
