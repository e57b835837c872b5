//! A word-level export read back by one of the tests' readers (`btor2_sim`, `vmt_sim`),
//! simulated side by side with the AIGER export of the same system (read by `aiger_sim`):
//! from the same initial state, on the same random inputs, every state word, the bad property
//! and the constraints must agree at every step. An AIGER bit is matched with its word by its
//! symbol, `word[b]` (a one-bit word, such as a one-hot program counter's `pc:L3`, is named
//! without a position).

#![allow(dead_code)]

use super::aiger_sim;
use super::common::Rng;
use super::word_ops::mask;
use std::collections::HashMap;

/// Values of words by name.
pub type Words = HashMap<String, u128>;

/// What a word-level system says about one step.
pub struct Step {
    /// Whether the state is bad.
    pub bad: bool,
    /// The next state.
    pub next: Words,
    /// Whether the system admits the step (its constraints hold in both states).
    pub admitted: bool,
}

/// A word-level system as a reader gives it.
pub trait WordSystem {
    /// The state words, (name, width).
    fn states(&self) -> Vec<(String, u32)>;
    /// The input words, (name, width).
    fn inputs(&self) -> Vec<(String, u32)>;
    /// The initial values of the states that have one (the others take any value).
    fn initial(&self) -> Result<Words, String>;
    /// Whether `state` is an initial state (its constraints hold), given the initial values.
    fn admits_initial(&self, state: &Words) -> Result<bool, String>;
    /// One step from `state` on `inputs`.
    fn step(&self, state: &Words, inputs: &Words) -> Result<Step, String>;
}

/// The symbol table of an ASCII AIGER file: (`i` or `l`, index) → name.
fn aiger_symbols(text: &str) -> HashMap<(char, usize), String> {
    let mut out = HashMap::new();
    for l in text.lines() {
        let mut it = l.splitn(2, ' ');
        let (Some(head), Some(name)) = (it.next(), it.next()) else {
            continue;
        };
        let mut cs = head.chars();
        let Some(kind @ ('i' | 'l')) = cs.next() else {
            continue;
        };
        if let Ok(k) = cs.as_str().parse::<usize>() {
            out.insert((kind, k), name.to_string());
        }
    }
    out
}

/// A bit's word and position from its AIGER name `word[b]`.
fn word_bit(name: &str) -> (String, u32) {
    if let Some((word, bit)) = name.rsplit_once('[') {
        if let Some(Ok(b)) = bit.strip_suffix(']').map(str::parse) {
            return (word.to_string(), b);
        }
    }
    (name.to_string(), 0)
}

/// The AIGER circuit with each latch and input placed in a word.
struct Bits {
    c: aiger_sim::Circuit,
    syms: HashMap<(char, usize), String>,
    latch_at: Vec<(String, u32)>,
    input_at: Vec<(String, u32)>,
}

/// What the circuit says about one step: bad, the constraints, the latches' next values.
struct BitStep {
    bad: bool,
    constraints: bool,
    next: Vec<bool>,
}

impl Bits {
    fn new(aag: &str, words: &dyn WordSystem) -> Result<Bits, String> {
        let c = aiger_sim::read(aag.as_bytes())?;
        let syms = aiger_symbols(aag);
        let states: HashMap<String, u32> = words.states().into_iter().collect();
        let inputs: HashMap<String, u32> = words.inputs().into_iter().collect();
        let place = |kind: char, k: usize, map: &HashMap<String, u32>| {
            let name = syms
                .get(&(kind, k))
                .ok_or(format!("{kind}{k} has no name"))?;
            let (w, b) = word_bit(name);
            // A BTOR2 symbol is one token: the export writes `_` for whitespace in a name.
            let w = if map.contains_key(&w) {
                w
            } else {
                w.chars()
                    .map(|c| if c.is_whitespace() { '_' } else { c })
                    .collect()
            };
            match map.get(&w) {
                Some(&width) if b < width => Ok((w, b)),
                _ => Err(format!("`{name}` is not a bit of a word of the export")),
            }
        };
        let latch_at = (0..c.latches.len())
            .map(|k| place('l', k, &states))
            .collect::<Result<_, String>>()?;
        let input_at = (0..c.inputs)
            .map(|k| place('i', k, &inputs))
            .collect::<Result<_, String>>()?;
        Ok(Bits {
            c,
            syms,
            latch_at,
            input_at,
        })
    }

    fn step(&self, state: &Words, inputs: &Words) -> Result<BitStep, String> {
        let c = &self.c;
        let lit = |vals: &[bool], l: u32| vals[(l / 2) as usize] ^ (l & 1 == 1);
        let bit = |words: &Words, (w, b): &(String, u32)| (words[w] >> b) & 1 == 1;
        let mut vals = vec![false; c.max_var + 1];
        for (k, at) in self.input_at.iter().enumerate() {
            vals[k + 1] = bit(inputs, at);
        }
        for (&(l, _, _), at) in c.latches.iter().zip(&self.latch_at) {
            vals[(l / 2) as usize] = bit(state, at);
        }
        for &(lhs, r0, r1) in &c.ands {
            vals[(lhs / 2) as usize] = lit(&vals, r0) && lit(&vals, r1);
        }
        Ok(BitStep {
            bad: lit(&vals, c.bad.first().copied().ok_or("no AIGER bad")?),
            constraints: c.constraints.iter().all(|&x| lit(&vals, x)),
            next: c.latches.iter().map(|&(_, n, _)| lit(&vals, n)).collect(),
        })
    }
}

/// Simulates the AIGER text `aag` and the word-level system `words` side by side `runs` times
/// for `steps` steps; the first disagreement.
pub fn compare(
    aag: &str,
    words: &dyn WordSystem,
    rng: &mut Rng,
    runs: usize,
    steps: usize,
) -> Result<(), String> {
    let bits = Bits::new(aag, words)?;
    let (states, inputs) = (words.states(), words.inputs());
    let initial = words.initial()?;
    for run in 0..runs {
        // The initial state: the words with an initial value take it, the others a random one.
        let mut cur: Words = (states.iter())
            .map(|(name, w)| {
                let v = initial.get(name).copied().unwrap_or_else(|| {
                    u128::from(rng.interesting()) | (u128::from(rng.next()) << 64)
                });
                (name.clone(), v & mask(*w))
            })
            .collect();
        let mut admitted = words.admits_initial(&cur)?;
        for step in 0..steps {
            let given: Words = (inputs.iter())
                .map(|(name, w)| (name.clone(), u128::from(rng.interesting()) & mask(*w)))
                .collect();
            let at = format!("run {run}, step {step}");
            let b = bits.step(&cur, &given)?;
            if b.constraints != admitted {
                return Err(format!(
                    "{at}: the constraints are {} in AIGER, {admitted} in the export",
                    b.constraints
                ));
            }
            if !admitted {
                break;
            }
            let w = words.step(&cur, &given)?;
            if b.bad != w.bad {
                return Err(format!(
                    "{at}: bad is {} in AIGER, {} in the export",
                    b.bad, w.bad
                ));
            }
            if w.bad {
                break;
            }
            for (k, (a, at_word)) in b.next.iter().zip(&bits.latch_at).enumerate() {
                let e = (w.next[&at_word.0] >> at_word.1) & 1 == 1;
                if *a != e {
                    let name = &bits.syms[&('l', k)];
                    return Err(format!(
                        "{at}: next {name} is {a} in AIGER, {e} in the export"
                    ));
                }
            }
            (cur, admitted) = (w.next, w.admitted);
        }
    }
    Ok(())
}
