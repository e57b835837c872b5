//! `Shape::c_text` against gcc: the C a correctness witness states for a proved candidate
//! invariant must mean exactly what the candidate means. Random instances of every template
//! over variables of 8, 16, 32 and 64 bits, signed and unsigned, are compiled (with UBSan, so
//! an overflow in the printed C fails the test) and evaluated on random values, often at the
//! types' boundaries; each result must equal `Shape::holds`.
//!
//! gcc is needed; when it is missing the test says so and skips (a failure under `CI=true`).

mod common;

use bitmc::aig::Aig;
use bitmc::cfa::PVar;
use bitmc::ts::templates::{Cmp, Shape, StateVar};
use common::{oracle_missing, Rng};
use std::fmt::Write as _;
use std::process::Command;

const SHAPES: usize = 400;
const VALUES: usize = 8;

/// The C type of a variable of `width` bits.
fn c_type(width: usize, signed: bool) -> &'static str {
    match (width, signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long long",
        _ => "unsigned long long",
    }
}

fn random_shape(rng: &mut Rng, vars: &[StateVar]) -> Shape {
    let n = vars.len() as u64;
    let v = |rng: &mut Rng| rng.below(n) as usize;
    let cmp = |rng: &mut Rng| [Cmp::Eq, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge][rng.below(5) as usize];
    let c = |rng: &mut Rng| (rng.interesting() as i64) as i128 >> rng.below(3);
    // Wrapping sums and pairs need one width and signedness: the same variable's kind.
    let like = |rng: &mut Rng, x: usize| {
        let same: Vec<usize> = (0..vars.len())
            .filter(|&j| {
                vars[j].bits.len() == vars[x].bits.len() && vars[j].signed == vars[x].signed
            })
            .collect();
        same[rng.below(same.len() as u64) as usize]
    };
    match rng.below(7) {
        0 => Shape::Const(v(rng), cmp(rng), c(rng)),
        1 => {
            let x = v(rng);
            Shape::Pair(x, cmp(rng), like(rng, x))
        }
        2 => Shape::Diff(v(rng), v(rng), cmp(rng), c(rng)),
        3 => Shape::SumCmp(v(rng), v(rng), cmp(rng), v(rng)),
        4 => Shape::Scaled(v(rng), 2 + rng.below(5) as i128, v(rng), cmp(rng), c(rng)),
        5 => {
            let x = v(rng);
            Shape::Sum3(x, like(rng, x), like(rng, x))
        }
        _ => {
            let x = v(rng);
            Shape::Sum4(x, like(rng, x), like(rng, x), like(rng, x))
        }
    }
}

#[test]
fn exact_c_of_candidates_agrees_with_their_meaning_under_gcc() {
    if Command::new("gcc").arg("--version").output().is_err() {
        oracle_missing("gcc");
        return;
    }
    let mut aig = Aig::new();
    let mut vars = Vec::new();
    for (i, &(w, signed)) in [
        (8, true),
        (8, false),
        (16, true),
        (16, false),
        (32, true),
        (32, false),
        (32, true),
        (64, true),
        (64, false),
    ]
    .iter()
    .enumerate()
    {
        vars.push(StateVar {
            name: format!("v{i}"),
            signed,
            bits: (0..w).map(|_| aig.input()).collect(),
            pvar: PVar(i as u32),
        });
    }
    let mut rng = Rng(0x7e3a_11c0_5eed_0042, Vec::new());
    let shapes: Vec<(Shape, String)> = (0..SHAPES)
        .filter_map(|_| {
            let s = random_shape(&mut rng, &vars);
            s.c_text(&vars).map(|t| (s, t))
        })
        .collect();
    assert!(shapes.len() > SHAPES / 2, "most instances have exact C");
    let values: Vec<Vec<u128>> = (0..VALUES)
        .map(|_| {
            vars.iter()
                .map(|v| {
                    let w = v.bits.len();
                    let x = if rng.below(2) == 0 {
                        rng.interesting()
                    } else {
                        rng.next()
                    };
                    (x as u128) & ((1u128 << w) - 1)
                })
                .collect()
        })
        .collect();
    let mut c = String::from("#include <stdio.h>\nint main(void) {\n");
    for (a, vals) in values.iter().enumerate() {
        let _ = writeln!(c, "  {{");
        for (v, &x) in vars.iter().zip(vals) {
            let ty = c_type(v.bits.len(), v.signed);
            // The raw bits, converted to the type (implementation-defined for signed types,
            // two's complement in gcc).
            let _ = writeln!(c, "    {ty} {} = ({ty}){x}ULL;", v.name);
        }
        for (k, (_, text)) in shapes.iter().enumerate() {
            let _ = writeln!(c, "    printf(\"{a} {k} %d\\n\", ({text}) ? 1 : 0);");
        }
        let _ = writeln!(c, "  }}");
    }
    c.push_str("  return 0;\n}\n");
    let dir = std::env::temp_dir().join(format!("bitmc-template-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("t.c");
    let bin = dir.join("t");
    std::fs::write(&src, &c).unwrap();
    let cc = Command::new("gcc")
        .args([
            "-O0",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
            "-o",
        ])
        .arg(&bin)
        .arg(&src)
        .output()
        .expect("gcc runs");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&bin).output().expect("the program runs");
    assert!(
        run.status.success(),
        "undefined behaviour in the printed C: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = String::from_utf8_lossy(&run.stdout);
    let mut checked = 0;
    for line in out.lines() {
        let f: Vec<usize> = line.split(' ').map(|x| x.parse().unwrap()).collect();
        let (a, k, got) = (f[0], f[1], f[2] == 1);
        let (shape, text) = &shapes[k];
        assert_eq!(
            got,
            shape.holds(&vars, &values[a]),
            "{text} on {:?} ({shape:?})",
            values[a]
        );
        checked += 1;
    }
    assert_eq!(checked, VALUES * shapes.len());
    let _ = std::fs::remove_dir_all(&dir);
}
