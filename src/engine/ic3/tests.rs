//! The IC3 template on a variant of its own: explicit transition systems over 4-bit states,
//! cubes of bit literals, relative induction by enumeration, literal dropping without CTGs.
//! Its verdicts must agree with breadth-first reachability, and its invariants must contain
//! the initial states, exclude the bad ones and be closed under the transitions.

use super::{mic, run, Frames, Gen, Ic3, Mic, ObId, Order, Pred, Query, Queue};
use crate::engine::Interrupted;

const STATES: u8 = 16;
const BITS: u8 = 4;

/// A literal: bit `.0` has value `.1`.
type Lit = (u8, bool);

struct Toy {
    succ: Vec<Vec<u8>>,
    init: Vec<u8>,
    bad: Vec<u8>,
    frames: Frames<Lit>,
}

#[derive(Debug, PartialEq)]
enum Answer {
    Safe(usize),
    Unsafe(usize),
    Bound,
}

fn full(s: u8) -> Vec<Lit> {
    (0..BITS).map(|b| (b, s >> b & 1 == 1)).collect()
}

fn satisfies(s: u8, cube: &[Lit]) -> bool {
    cube.iter().all(|&(b, v)| (s >> b & 1 == 1) == v)
}

impl Toy {
    /// Whether state `s` is in the frame `F_level` (`F_0` the initial states).
    fn in_frame(&self, s: u8, level: usize) -> bool {
        if level == 0 {
            return self.init.contains(&s);
        }
        !self.frames.from(0, level).any(|(_, c)| satisfies(s, c))
    }

    /// A state of `F_level ∧ ¬cube` with a successor in `cube`.
    fn relind(&self, cube: &[Lit], level: usize) -> Option<u8> {
        (0..STATES).find(|&s| {
            self.in_frame(s, level)
                && !satisfies(s, cube)
                && self.succ[usize::from(s)]
                    .iter()
                    .any(|&t| satisfies(t, cube))
        })
    }

    fn excludes_init(&self, cube: &[Lit]) -> bool {
        !self.init.iter().any(|&s| satisfies(s, cube))
    }
}

impl Ic3 for Toy {
    type Lit = Lit;
    type Ob = Vec<Lit>;
    type Proof = ();
    type Model = u8;
    type Cex = usize;
    type Answer = Answer;

    fn frames(&self) -> &Frames<Lit> {
        &self.frames
    }

    fn order(&self) -> Order {
        Order::Shallowest
    }

    fn start(&mut self) -> Result<Option<Answer>, Interrupted> {
        let bad_init = self.init.iter().any(|s| self.bad.contains(s));
        Ok(bad_init.then_some(Answer::Unsafe(0)))
    }

    fn open_round(&mut self, k: usize) -> Result<Option<Answer>, Interrupted> {
        Ok((k > usize::from(STATES) + 1).then_some(Answer::Bound))
    }

    fn seed(&mut self, _: usize, _: &mut Queue<Vec<Lit>>) {}

    fn next_goal(&mut self, k: usize) -> Result<Option<Vec<Lit>>, Interrupted> {
        let goal = self.bad.iter().find(|&&s| self.in_frame(s, k));
        Ok(goal.map(|&s| full(s)))
    }

    fn counterexample(&mut self, depth: usize) -> Result<Option<Answer>, Interrupted> {
        Ok(Some(Answer::Unsafe(depth)))
    }

    fn invariant(&mut self, level: usize) -> Answer {
        Answer::Safe(level + 1)
    }

    fn popped(&mut self) -> Result<(), Interrupted> {
        Ok(())
    }

    fn initial(&self, level: usize, depth: usize) -> Option<usize> {
        (level == 0).then_some(depth)
    }

    fn excluded(&self, cube: &Vec<Lit>, level: usize) -> bool {
        self.frames.excludes(0, level, cube)
    }

    fn query(&mut self, cube: &Vec<Lit>, level: usize) -> Result<Query<(), u8>, Interrupted> {
        Ok(match self.relind(cube, level - 1) {
            None => Query::Holds(()),
            Some(s) => Query::Fails(s),
        })
    }

    fn predecessor(
        &mut self,
        queue: &Queue<Vec<Lit>>,
        id: ObId,
        _: usize,
        s: u8,
    ) -> Result<Pred<Vec<Lit>, usize>, Interrupted> {
        Ok(match self.init.contains(&s) {
            true => Pred::Initial(queue.depth(id) + 1),
            false => Pred::Obligation(full(s)),
        })
    }

    fn generalise(
        &mut self,
        cube: &Vec<Lit>,
        level: usize,
        _: (),
    ) -> Result<Vec<Lit>, Interrupted> {
        let order = cube.clone();
        mic(self, cube.clone(), &order, 1, 0, level, 0)
    }

    fn store(
        &mut self,
        _: &mut Vec<Lit>,
        level: usize,
        cube: Vec<Lit>,
    ) -> Result<usize, Interrupted> {
        self.frames.add(0, level, cube);
        Ok(level)
    }

    fn push(&mut self, _: usize, level: usize, cube: Vec<Lit>) -> Result<(), Interrupted> {
        if self.relind(&cube, level).is_none() {
            self.frames.add(0, level + 1, cube);
        }
        Ok(())
    }
}

impl Mic for Toy {
    type Lit = Lit;
    type Model = u8;

    fn ctg_max(&self) -> usize {
        0
    }

    fn admissible(&mut self, c: &[Lit]) -> Result<bool, Interrupted> {
        Ok(!c.is_empty() && self.excludes_init(c))
    }

    fn query(&mut self, c: &[Lit], level: usize, _: usize) -> Result<Gen<Lit, u8>, Interrupted> {
        Ok(match self.relind(c, level - 1) {
            None => Gen::Holds(c.to_vec()),
            Some(s) => Gen::Fails(s),
        })
    }

    fn block_ctg(&mut self, _: &[Lit], _: &u8, _: usize, _: usize) -> Result<bool, Interrupted> {
        Ok(false)
    }

    fn down(&mut self, _: Vec<Lit>, _: u8) -> Option<Vec<Lit>> {
        None
    }
}

/// A system from a seed (a linear congruential generator): one to three successors a state.
fn system(seed: u64) -> Toy {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % n) as u8
    };
    let succ = (0..STATES)
        .map(|_| (0..1 + next(3)).map(|_| next(16)).collect())
        .collect();
    Toy {
        succ,
        init: vec![next(16)],
        bad: vec![next(16), next(16)],
        frames: Frames::new(1),
    }
}

/// The states reachable from the initial ones.
fn reachable(t: &Toy) -> Vec<bool> {
    let mut seen = vec![false; usize::from(STATES)];
    let mut todo = t.init.clone();
    while let Some(s) = todo.pop() {
        if !std::mem::replace(&mut seen[usize::from(s)], true) {
            todo.extend(&t.succ[usize::from(s)]);
        }
    }
    seen
}

#[test]
fn verdicts_agree_with_reachability_and_invariants_are_inductive() {
    let (mut safe, mut unsafe_) = (0, 0);
    for seed in 0..300 {
        let mut t = system(seed);
        let answer = run(&mut t).expect("no stop");
        let reach = reachable(&t);
        let bad_reachable = t.bad.iter().any(|&s| reach[usize::from(s)]);
        match answer {
            Answer::Unsafe(_) => {
                assert!(bad_reachable, "seed {seed}: a spurious counterexample");
                unsafe_ += 1;
            }
            Answer::Safe(level) => {
                assert!(!bad_reachable, "seed {seed}: a wrong proof");
                let inv = |s: u8| t.in_frame(s, level);
                assert!(t.init.iter().all(|&s| inv(s)), "seed {seed}");
                assert!(t.bad.iter().all(|&s| !inv(s)), "seed {seed}");
                let closed = (0..STATES)
                    .filter(|&s| inv(s))
                    .all(|s| t.succ[usize::from(s)].iter().all(|&u| inv(u)));
                assert!(closed, "seed {seed}: the invariant is not inductive");
                safe += 1;
            }
            Answer::Bound => panic!("seed {seed}: no answer within the bound"),
        }
    }
    assert!(safe > 30 && unsafe_ > 30, "{safe} safe, {unsafe_} unsafe");
}
