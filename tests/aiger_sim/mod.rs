//! An AIGER 1.9 reader and simulator written for the tests only (it shares no code with
//! bitmc's `aig` module), to check the witnesses `bitmc solve --witness` writes: the witness's
//! initial state and inputs, simulated on the circuit, must raise the bad property it names
//! with every invariant constraint holding up to that step.

#![allow(dead_code)]

/// A circuit: `M` variables; inputs are the variables `1..=I` in order.
pub struct Circuit {
    pub inputs: usize,
    /// (current-state literal, next-state literal, reset: 0, 1, or the latch's own literal).
    pub latches: Vec<(u32, u32, u32)>,
    pub outputs: Vec<u32>,
    pub bad: Vec<u32>,
    pub constraints: Vec<u32>,
    /// (lhs, rhs0, rhs1), in an order where the fanins come first.
    pub ands: Vec<(u32, u32, u32)>,
    pub max_var: usize,
}

fn num(s: &str) -> Result<u32, String> {
    s.parse().map_err(|_| format!("not a number: `{s}`"))
}

/// Read an ASCII (`aag`) or binary (`aig`) AIGER file.
pub fn read(data: &[u8]) -> Result<Circuit, String> {
    let mut pos = 0;
    let line = |pos: &mut usize| -> Result<String, String> {
        let end = data[*pos..]
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("unexpected end of file")?;
        let l = String::from_utf8_lossy(&data[*pos..*pos + end])
            .trim()
            .to_string();
        *pos += end + 1;
        Ok(l)
    };
    let header = line(&mut pos)?;
    let words: Vec<&str> = header.split_whitespace().collect();
    let binary = match words.first() {
        Some(&"aig") => true,
        Some(&"aag") => false,
        _ => return Err(format!("bad header `{header}`")),
    };
    let n: Vec<usize> = words[1..]
        .iter()
        .map(|w| num(w).map(|v| v as usize))
        .collect::<Result<_, _>>()?;
    if n.len() < 5 {
        return Err(format!("bad header `{header}`"));
    }
    let (m, i, l, o, a) = (n[0], n[1], n[2], n[3], n[4]);
    let (b, c) = (
        n.get(5).copied().unwrap_or(0),
        n.get(6).copied().unwrap_or(0),
    );
    if n.get(7).is_some_and(|&j| j > 0) || n.get(8).is_some_and(|&f| f > 0) {
        return Err("justice and fairness properties are not simulated".into());
    }
    if !binary {
        for k in 0..i {
            let v = num(&line(&mut pos)?)?;
            if v as usize != 2 * (k + 1) {
                return Err(format!("input {k} is {v}: only inputs in order are read"));
            }
        }
    }
    let mut latches = Vec::new();
    for k in 0..l {
        let t = line(&mut pos)?;
        let f: Vec<u32> = t.split_whitespace().map(num).collect::<Result<_, _>>()?;
        let (cur, rest) = if binary {
            (2 * (i + k + 1) as u32, &f[..])
        } else {
            (f[0], &f[1..])
        };
        let next = *rest.first().ok_or("latch without next state")?;
        let reset = rest.get(1).copied().unwrap_or(0);
        latches.push((cur, next, reset));
    }
    let lits = |count: usize, pos: &mut usize| -> Result<Vec<u32>, String> {
        (0..count).map(|_| num(&line(pos)?)).collect()
    };
    let outputs = lits(o, &mut pos)?;
    let bad = lits(b, &mut pos)?;
    let constraints = lits(c, &mut pos)?;
    let mut ands = Vec::new();
    for k in 0..a {
        if binary {
            let lhs = 2 * (i + l + k + 1) as u32;
            let mut delta = || -> Result<u32, String> {
                let (mut x, mut shift) = (0u32, 0);
                loop {
                    let byte = *data.get(pos).ok_or("unexpected end of the and gates")?;
                    pos += 1;
                    x |= u32::from(byte & 0x7f) << shift;
                    if byte & 0x80 == 0 {
                        return Ok(x);
                    }
                    shift += 7;
                }
            };
            let r0 = lhs - delta()?;
            let r1 = r0 - delta()?;
            ands.push((lhs, r0, r1));
        } else {
            let t = line(&mut pos)?;
            let f: Vec<u32> = t.split_whitespace().map(num).collect::<Result<_, _>>()?;
            ands.push((f[0], f[1], f[2]));
        }
    }
    if !binary {
        // An ASCII file may list gates in any order: evaluate them in topological order.
        ands.sort_by_key(|g| g.0);
    }
    Ok(Circuit {
        inputs: i,
        latches,
        outputs,
        bad,
        constraints,
        ands,
        max_var: m,
    })
}

/// Evaluate a literal over the variable values.
fn lit(vals: &[bool], l: u32) -> bool {
    vals[(l / 2) as usize] ^ (l & 1 == 1)
}

/// Simulate a witness (`1`, `b<k>`, the initial state, one input line per step, `.`) and
/// say at which step the bad property `k` (or output `k` when the file has no bad section)
/// holds with every constraint holding until then.
pub fn check_witness(c: &Circuit, witness: &str) -> Result<usize, String> {
    let mut lines = witness
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('c'));
    if lines.next() != Some("1") {
        return Err("the witness does not start with `1`".into());
    }
    let prop = lines.next().ok_or("no property line")?;
    let k: usize = prop
        .strip_prefix('b')
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("property line `{prop}`"))?;
    let bad = if c.bad.is_empty() { &c.outputs } else { &c.bad };
    let bad = *bad.get(k).ok_or_else(|| format!("no property {k}"))?;
    let init = lines.next().ok_or("no initial state line")?;
    if init.len() != c.latches.len() {
        return Err(format!(
            "the initial state has {} values for {} latches",
            init.len(),
            c.latches.len()
        ));
    }
    let mut state: Vec<bool> = Vec::new();
    for (&(cur, _, reset), ch) in c.latches.iter().zip(init.chars()) {
        let given = match ch {
            '0' | 'x' => false,
            '1' => true,
            _ => return Err(format!("initial state value `{ch}`")),
        };
        let v = match reset {
            0 => false,
            1 => true,
            r if r == cur => given,
            r => return Err(format!("latch reset {r} is not 0, 1 or the latch")),
        };
        if reset <= 1 && ch != 'x' && given != v {
            return Err(format!(
                "the initial state gives a latch with reset {reset} the value {ch}"
            ));
        }
        state.push(v);
    }
    let mut step = 0;
    for frame in lines {
        if frame == "." {
            break;
        }
        if frame.len() != c.inputs {
            return Err(format!(
                "step {step} has {} input values for {} inputs",
                frame.len(),
                c.inputs
            ));
        }
        let mut vals = vec![false; c.max_var + 1];
        for (k, ch) in frame.chars().enumerate() {
            vals[k + 1] = match ch {
                '0' | 'x' => false,
                '1' => true,
                _ => return Err(format!("input value `{ch}`")),
            };
        }
        for (&(cur, _, _), &v) in c.latches.iter().zip(&state) {
            vals[(cur / 2) as usize] = v;
        }
        for &(lhs, r0, r1) in &c.ands {
            vals[(lhs / 2) as usize] = lit(&vals, r0) && lit(&vals, r1);
        }
        if let Some(i) = c.constraints.iter().position(|&l| !lit(&vals, l)) {
            return Err(format!("constraint {i} fails at step {step}"));
        }
        if lit(&vals, bad) {
            return Ok(step);
        }
        state = c
            .latches
            .iter()
            .map(|&(_, next, _)| lit(&vals, next))
            .collect();
        step += 1;
    }
    Err(format!(
        "the bad property {k} does not hold within the witness's {step} steps"
    ))
}
