//! A counterexample as a C test harness: one file that, compiled by gcc together with the
//! program (`gcc program.c harness.c`, `-m32` for ILP32, with the sanitizer that reports the
//! property's violation), runs into the violation.
//!
//! The harness defines each `__VERIFIER_nondet_*` function the program calls (those of the CFA
//! the front end built, and those the program text names, so that it links): together they
//! return the counterexample's values as one sequence in call order — the order in which the
//! replay on the CFA consumed them ([`super::source_run`]) — each call checking that it is the
//! call of the function the counterexample made next, and ending the run with a diagnostic and
//! a code of its own when the program calls another function or more often than the
//! counterexample did. Each value is a C literal of its function's type under the task's data
//! model ([`literal`]). The error functions follow the oracle harness of the fixtures
//! (`fixtures/harness/harness.c`): `reach_error`, `__VERIFIER_error`, `__VERIFIER_assert` and
//! `__VERIFIER_assume` are weak (a program's own definition wins), the `assert` hooks of the C
//! library are replaced, and every normal end (`return` from `main`, `exit`, `abort`) exits
//! with one code. The file includes only the C library's headers: it stands alone.
//!
//! What a harness cannot set it states instead of claiming the violation: the values of
//! uninitialised locals the run reads (a compiled program's hold whatever its stack holds), and
//! the results of functions without a definition.

use crate::bv::value::to_signed;
use crate::cfa::{interp, Cfa, DataModel, HavocKind, IntType, Property};
use crate::witness::source_run::{depends_on_uninitialised, havoc_kinds, uninitialised_reads};
use crate::witness::trace::{c_name, c_type_in, format_value, Trace};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// The exit code of a run that ends normally (`return` from `main`, `exit(n)`, `abort()`).
pub const EXIT_NORMAL: i32 = 100;
/// The exit code of a run that reaches an error function.
pub const EXIT_ERROR: i32 = 101;
/// The exit code of a run in which a `__VERIFIER_assume` fails.
pub const EXIT_ASSUME: i32 = 102;
/// The exit code of a run that makes more nondet calls than the counterexample.
pub const EXIT_EXHAUSTED: i32 = 103;
/// The exit code of a run whose nondet call is of another function than the counterexample's.
pub const EXIT_DIVERGED: i32 = 104;

/// What a harness is written for.
pub struct Request<'a> {
    /// The program, as the gcc command names it.
    pub program: &'a Path,
    /// The harness file, as the gcc command names it.
    pub harness: &'a Path,
    pub property: Property,
    pub data_model: DataModel,
    /// The preprocessor's options the program was read with (`-I`, `-D`, `-U`).
    pub cpp_args: &'a [String],
    /// The program's text, for the nondet functions it names in code the CFA leaves out.
    pub source: Option<&'a str>,
}

/// A harness and what it cannot reproduce.
pub struct Harness {
    /// The C file.
    pub text: String,
    /// The command that builds and runs it.
    pub command: String,
    /// The uninitialised values the counterexample reads: `name = value (type, declared at)`.
    pub uninitialised: Vec<String>,
    /// The functions without a definition whose results the counterexample takes.
    pub undefined: Vec<String>,
}

impl Harness {
    /// Whether the harness reproduces the counterexample: it sets every value the run reads.
    pub fn reproduces(&self) -> bool {
        self.uninitialised.is_empty() && self.undefined.is_empty()
    }
}

/// gcc's options for a program and its harness: the data model's, and those with which the
/// compiled program reports the property's violation. A signed overflow wraps (`-fwrapv`) but
/// under `no-overflow`, where UBSan reports it.
pub fn gcc_options(property: Property, dm: DataModel) -> Vec<&'static str> {
    let mut o = vec!["-std=gnu11"];
    if dm == DataModel::Ilp32 {
        o.push("-m32");
    }
    match property {
        Property::UnreachCall => o.push("-fwrapv"),
        Property::NoOverflow => o.extend(["-fsanitize=undefined", "-fno-sanitize-recover=all"]),
        Property::DivByZero => o.extend([
            "-fwrapv",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
        ]),
        // -g: ASan's report names the line of the access.
        Property::ValidIndex => o.extend([
            "-g",
            "-fwrapv",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
        ]),
    }
    o
}

/// A value of an integer type as a C expression of exactly that type under a data model: a
/// literal with the suffix of the type (`5U`, `-7L`, `18446744073709551615ULL`), its minimum
/// as a difference (`(-2147483647 - 1)`), a cast for the types without literals (`(_Bool)1`,
/// `(signed char)-128`, `(unsigned short)65535`), and a 128-bit value from its two halves.
pub fn literal(value: u128, ty: IntType, dm: DataModel) -> String {
    let w = ty.width;
    let value = if w >= 128 {
        value
    } else {
        value & ((1u128 << w) - 1)
    };
    let signed = if ty.signed { to_signed(value, w) } else { 0 };
    let name = c_type_in(dm, ty);
    match w {
        1 => format!("(_Bool){value}"),
        8 | 16 if ty.signed => format!("({name}){signed}"),
        8 | 16 => format!("({name}){value}"),
        32 | 64 => {
            let long = match (w, dm) {
                (32, _) => "",
                (_, DataModel::Lp64) => "L",
                (_, DataModel::Ilp32) => "LL",
            };
            if !ty.signed {
                format!("{value}U{long}")
            } else if signed == -(1i128 << (w - 1)) {
                format!("(-{}{long} - 1)", (1u128 << (w - 1)) - 1)
            } else {
                format!("{signed}{long}")
            }
        }
        128 => {
            let (hi, lo) = ((value >> 64) as u64, value as u64);
            let unsigned = if hi == 0 {
                format!("(unsigned __int128){lo}ULL")
            } else {
                format!("(((unsigned __int128){hi:#x}ULL << 64) | {lo:#x}ULL)")
            };
            match i64::try_from(signed) {
                Ok(v) if ty.signed && v == i64::MIN => {
                    "((__int128)(-9223372036854775807LL - 1))".to_string()
                }
                Ok(v) if ty.signed => format!("((__int128){v}LL)"),
                // Converted modulo 2^128, as gcc does.
                _ if ty.signed => format!("((__int128){unsigned})"),
                _ => unsigned,
            }
        }
        _ => format!("({name}){value:#x}ULL"),
    }
}

/// A nondet function the harness defines.
struct Function {
    /// Its return type as C names it.
    c_type: String,
    ty: IntType,
}

impl Function {
    /// The member of the values' union that holds its results.
    fn member(name: &str) -> String {
        format!("v_{}", name.trim_start_matches("__VERIFIER_nondet_"))
    }
}

/// The nondet functions of a program: those its CFA calls and those its text names that have
/// a built-in type, by name.
fn functions(cfa: &Cfa, source: Option<&str>, dm: DataModel) -> BTreeMap<String, Function> {
    let mut out = BTreeMap::new();
    let mut add = |name: &str, ty: Option<IntType>| {
        let builtin = crate::frontend::nondet_type(name, dm);
        let (c_type, ty) = match (builtin, ty) {
            (Some(t), _) => (t.name().to_string(), t.int_type(dm)),
            (None, Some(ty)) => (c_type_in(dm, ty), ty),
            (None, None) => return,
        };
        out.entry(name.to_string())
            .or_insert(Function { c_type, ty });
    };
    for kind in havoc_kinds(cfa).values() {
        if let HavocKind::NondetCall { function, ty } = kind {
            add(function, Some(*ty));
        }
    }
    let text = source.unwrap_or_default();
    for (at, _) in text.match_indices("__VERIFIER_nondet_") {
        let preceded = text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let name: String = text[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !preceded {
            add(&name, None);
        }
    }
    out
}

/// `s` as the text of a C string literal.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            c => {
                let mut b = [0u8; 4];
                for x in c.encode_utf8(&mut b).bytes() {
                    let _ = write!(out, "\\{x:03o}");
                }
            }
        }
    }
    out.push('"');
    out
}

/// `s` safe inside a C comment.
fn in_comment(s: &str) -> String {
    s.replace("*/", "* /").replace('\n', " ")
}

/// A paragraph as lines of a C comment (` * `, about 90 columns wide).
fn wrapped(text: &str) -> String {
    let mut lines = vec![String::from(" *")];
    for word in in_comment(text).split_whitespace() {
        let last = lines.last_mut().expect("a line");
        if last.len() + word.len() >= 90 && last.len() > 3 {
            lines.push(format!(" * {word}"));
        } else {
            last.push(' ');
            last.push_str(word);
        }
    }
    lines.join("\n")
}

/// A path as a shell word.
fn shell_word(p: &Path) -> String {
    let s = p.display().to_string();
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-+=:,@".contains(c))
    {
        s
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command that builds the program with its harness and runs it.
fn command(req: &Request) -> String {
    let exe = req.harness.with_extension("");
    let exe = if exe == req.harness {
        req.harness.with_extension("out")
    } else {
        exe
    };
    let run = if exe.components().count() > 1 || exe.is_absolute() {
        shell_word(&exe)
    } else {
        format!("./{}", shell_word(&exe))
    };
    let mut words: Vec<String> = vec!["gcc".into()];
    words.extend(
        gcc_options(req.property, req.data_model)
            .iter()
            .map(|s| s.to_string()),
    );
    words.extend(req.cpp_args.iter().map(|a| shell_word(Path::new(a))));
    words.push(shell_word(req.program));
    words.push(shell_word(req.harness));
    words.push("-o".into());
    words.push(shell_word(&exe));
    format!("{} && {run}; echo \"exit code $?\"", words.join(" "))
}

/// What the compiled program does at the violation.
fn expected(property: Property) -> String {
    match property {
        Property::UnreachCall => format!(
            "stderr says `bitmc harness: reach_error() reached` (or names the other error \
             function reached) and the exit code is {EXIT_ERROR}"
        ),
        Property::NoOverflow => {
            "UBSan reports the signed overflow (`runtime error: signed integer overflow`, \
             or a left shift or negation that cannot be represented) and the exit code is 1"
                .into()
        }
        Property::DivByZero => {
            "UBSan reports the division by zero (`runtime error: division by zero`) and the \
             exit code is 1"
                .into()
        }
        Property::ValidIndex => {
            "UBSan reports the index out of bounds (`runtime error: index ... out of bounds`), \
             or ASan the access outside its array, and the exit code is 1"
                .into()
        }
    }
}

/// The harness of a counterexample: `steps`, its run on `original` (the CFA the front end
/// built) that reaches the error, and `trace`, that run as statements.
pub fn generate(original: &Cfa, steps: &[interp::Step], trace: &Trace, req: &Request) -> Harness {
    let dm = req.data_model;
    let inputs = trace.inputs();
    let functions = functions(original, req.source, dm);
    let uninitialised = assumed_uninitialised(original, steps, dm);
    let mut undefined: Vec<String> = Vec::new();
    for i in inputs.iter().filter(|i| !i.nondet) {
        if !undefined.contains(&i.function) {
            undefined.push(i.function.clone());
        }
    }
    let command = command(req);
    let mut s = header(req, trace, &command, &uninitialised, &undefined);
    let _ = writeln!(
        s,
        " * The __VERIFIER_nondet_* functions return the counterexample's values ({} in all) in\n \
         * the order of its calls, one sequence for all of them; each call checks that it is of\n \
         * the function the counterexample called next.\n *",
        inputs.len()
    );
    let _ = write!(
        s,
        "{}",
        HEADER_TAIL
            .replace("@NORMAL@", &EXIT_NORMAL.to_string())
            .replace("@ERROR@", &EXIT_ERROR.to_string())
            .replace("@ASSUME@", &EXIT_ASSUME.to_string())
            .replace("@EXHAUSTED@", &EXIT_EXHAUSTED.to_string())
            .replace("@DIVERGED@", &EXIT_DIVERGED.to_string())
    );
    values(&mut s, &functions, &inputs, dm);
    s.push_str(BODY);
    for (name, f) in &functions {
        let _ = writeln!(
            s,
            "\n{} {name}(void) {{ return bitmc_next({})->{}; }}",
            f.c_type,
            c_string(name),
            Function::member(name)
        );
    }
    Harness {
        text: s,
        command,
        uninitialised,
        undefined,
    }
}

/// The values of uninitialised locals the counterexample reads and its path depends on, as
/// `name = value (type, declared at …)`. Reads the path does not depend on (a `memset`
/// writing a whole array reads its old elements) leave nothing for the harness to set.
fn assumed_uninitialised(original: &Cfa, steps: &[interp::Step], dm: DataModel) -> Vec<String> {
    let reads = uninitialised_reads(original, &havoc_kinds(original), steps);
    let depends = !reads.is_empty()
        && depends_on_uninitialised(
            original,
            steps,
            crate::sat::Backend::Batsat,
            &crate::sat::Interrupter::new(),
        );
    reads
        .iter()
        .filter(|_| depends)
        .map(|r| {
            let info = original.var(r.var);
            let at = info
                .pos
                .as_ref()
                .map(|p| format!(", declared at {p}"))
                .unwrap_or_default();
            format!(
                "{} = {} ({}{at})",
                c_name(original, r.var),
                format_value(original, r.var, r.value),
                c_type_in(dm, info.ty)
            )
        })
        .collect()
}

/// The start of the header comment: the program, the command, and what the run shows (or
/// why it need not: `uninitialised` values and `undefined` functions a harness cannot set).
fn header(
    req: &Request,
    trace: &Trace,
    command: &str,
    uninitialised: &[String],
    undefined: &[String],
) -> String {
    let mut s = String::new();
    let program = in_comment(&req.program.display().to_string());
    let _ = writeln!(
        s,
        "/* bitmc test harness for {program}:\n * the counterexample of FALSE({}) as a run of the program.\n *",
        req.property
    );
    let _ = writeln!(
        s,
        " * Build and run (the program and this file in one command{}):\n *   {}\n *",
        match req.data_model {
            DataModel::Ilp32 => "; -m32: the data model is ILP32",
            DataModel::Lp64 => "; the data model is LP64",
        },
        in_comment(command)
    );
    let (pos, what) = trace.failure.clone().unwrap_or_default();
    let at = pos.map(|p| format!("{p}: ")).unwrap_or_default();
    let failure = in_comment(&format!("{at}{what} ({})", req.property));
    if uninitialised.is_empty() && undefined.is_empty() {
        let _ = writeln!(
            s,
            " * The run reaches the violation bitmc found:\n *   {failure}\n{}\n *",
            wrapped(&format!("There {}.", expected(req.property)))
        );
        return s;
    }
    let _ = writeln!(
        s,
        " * NOT A REPRODUCTION. The counterexample reaches\n *   {failure}\n * with values \
         a harness cannot set, so this run need not reach it:"
    );
    if !uninitialised.is_empty() {
        let _ = writeln!(
            s,
            " * it reads uninitialised locals, which hold whatever the stack holds in a \
             compiled\n * program; the counterexample assumed:"
        );
        for u in uninitialised {
            let _ = writeln!(s, " *   {}", in_comment(u));
        }
    }
    if !undefined.is_empty() {
        let _ = writeln!(
            s,
            " * it takes the results of functions without a definition (not defined here): {}",
            in_comment(&undefined.join(", "))
        );
    }
    let _ = writeln!(
        s,
        "{}\n *",
        wrapped(&format!(
            "Where the run does reach the violation, {}.",
            expected(req.property)
        ))
    );
    s
}

/// The union of the values (one member per function), the table of the counterexample's
/// calls in order, and their count.
fn values(
    s: &mut String,
    functions: &BTreeMap<String, Function>,
    inputs: &[&crate::witness::trace::Input],
    dm: DataModel,
) {
    let _ = writeln!(
        s,
        "/* A value the counterexample's call returned, one member per function. */\nunion bitmc_value {{\n    unsigned char none;"
    );
    for (name, f) in functions {
        let _ = writeln!(s, "    {} {};", f.c_type, Function::member(name));
    }
    let _ = writeln!(s, "}};\n");
    let _ = writeln!(
        s,
        "/* The counterexample's calls, in the order the program makes them: the function, where\n   \
         the call is, and the value it returns. */\nstatic const struct {{\n    const char *function;\n    \
         const char *call;\n    union bitmc_value value;\n}} bitmc_calls[] = {{"
    );
    for i in inputs {
        let at = i.pos.as_ref().map(|p| p.to_string()).unwrap_or_default();
        let (ty, member) = match functions.get(&i.function) {
            Some(f) => (f.ty, Function::member(&i.function)),
            // A function without a definition: its value is not used.
            None => (i.ty, "none".to_string()),
        };
        let value = if member == "none" {
            "0".to_string()
        } else {
            literal(i.value, ty, dm)
        };
        let _ = writeln!(
            s,
            "    {{{}, {}, {{.{member} = {value}}}}},",
            c_string(&i.function),
            c_string(&at)
        );
    }
    let _ = writeln!(s, "    {{0, 0, {{0}}}} /* end */\n}};\n");
    let _ = writeln!(
        s,
        "/* How many values the counterexample has. */\nstatic const unsigned long bitmc_count = {}UL;\n",
        inputs.len()
    );
}

/// The rest of the header comment.
const HEADER_TAIL: &str = r#" * Exit codes:
 *   @NORMAL@  the program ended normally (return from main, exit(n) for any n, abort()): it did
 *        not reach the violation
 *   @ERROR@  an error function was reached: reach_error(), __VERIFIER_error(), a failed assert()
 *        (__assert_fail) or a failed __VERIFIER_assert (when the program does not define it)
 *   @ASSUME@  a __VERIFIER_assume failed: the counterexample satisfies every assumption, so the
 *        program diverged from it
 *   @EXHAUSTED@  the program called nondet functions more often than the counterexample did
 *   @DIVERGED@  a nondet call is of another function than the counterexample's call at that point
 *   1    a sanitizer (UBSan, ASan) reported undefined behaviour and stopped the run
 * Diagnostics go to stderr, starting with "bitmc harness:".
 *
 * reach_error, __VERIFIER_error, __VERIFIER_assert and __VERIFIER_assume are weak: a definition
 * in the program wins (the error is then seen when it calls __assert_fail, as SV-COMP's
 * reach_error does, or one of the others).
 */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BITMC_EXIT_NORMAL @NORMAL@
#define BITMC_EXIT_ERROR @ERROR@
#define BITMC_EXIT_ASSUME @ASSUME@
#define BITMC_EXIT_EXHAUSTED @EXHAUSTED@
#define BITMC_EXIT_DIVERGED @DIVERGED@

"#;

/// The functions of every harness.
const BODY: &str = r#"/* How many nondet calls the program has made. */
static unsigned long bitmc_made;

static void bitmc_normal_end(void) { _exit(BITMC_EXIT_NORMAL); }

static void bitmc_on_abort(int sig) {
    (void)sig;
    _exit(BITMC_EXIT_NORMAL);
}

/* Before main: every normal end, abort() included, exits with BITMC_EXIT_NORMAL. */
__attribute__((constructor)) static void bitmc_start(void) {
    signal(SIGABRT, bitmc_on_abort);
    atexit(bitmc_normal_end);
}

/* An error function is reached. */
__attribute__((noreturn)) static void bitmc_reached(const char *what) {
    fprintf(stderr, "bitmc harness: %s reached\n", what);
    if (bitmc_made != bitmc_count)
        fprintf(stderr,
                "bitmc harness: after %lu nondet calls, but the counterexample makes %lu: the "
                "program diverged from it\n",
                bitmc_made, bitmc_count);
    _exit(BITMC_EXIT_ERROR);
}

/* The value of the program's next nondet call, a call of `function`. */
static const union bitmc_value *bitmc_next(const char *function) {
    unsigned long k = bitmc_made++;
    if (k >= bitmc_count) {
        fprintf(stderr,
                "bitmc harness: nondet call %lu (%s) is one more than the counterexample's %lu: "
                "the program diverged from the counterexample\n",
                k + 1, function, bitmc_count);
        _exit(BITMC_EXIT_EXHAUSTED);
    }
    if (strcmp(bitmc_calls[k].function, function) != 0) {
        fprintf(stderr,
                "bitmc harness: nondet call %lu is of %s, but the counterexample's call %lu is "
                "of %s (at %s): the program diverged from the counterexample\n",
                k + 1, function, k + 1, bitmc_calls[k].function, bitmc_calls[k].call);
        _exit(BITMC_EXIT_DIVERGED);
    }
    return &bitmc_calls[k].value;
}

__attribute__((weak, noreturn)) void reach_error(void) { bitmc_reached("reach_error()"); }

__attribute__((weak, noreturn)) void __VERIFIER_error(void) {
    bitmc_reached("__VERIFIER_error()");
}

__attribute__((weak)) void __VERIFIER_assert(int cond) {
    if (!cond) bitmc_reached("a failed __VERIFIER_assert");
}

__attribute__((weak)) void __VERIFIER_assume(int cond) {
    if (!cond) {
        fprintf(stderr,
                "bitmc harness: a __VERIFIER_assume failed after %lu nondet calls: the "
                "program diverged from the counterexample\n",
                bitmc_made);
        _exit(BITMC_EXIT_ASSUME);
    }
}

/* glibc's assert() calls __assert_fail: this definition replaces the C library's. */
__attribute__((noreturn)) void __assert_fail(const char *assertion, const char *file,
                                             unsigned int line, const char *function) {
    fprintf(stderr, "bitmc harness: assertion `%s` failed (%s:%u, in %s)\n", assertion, file,
            line, function);
    bitmc_reached("__assert_fail()");
}

__attribute__((noreturn)) void __assert_perror_fail(int errnum, const char *file,
                                                    unsigned int line, const char *function) {
    fprintf(stderr, "bitmc harness: assertion failed with error %d (%s:%u, in %s)\n", errnum,
            file, line, function);
    bitmc_reached("__assert_perror_fail()");
}

/* The BSD assert hook. */
__attribute__((noreturn)) void __assert(const char *assertion, const char *file, int line) {
    fprintf(stderr, "bitmc harness: assertion `%s` failed (%s:%d)\n", assertion, file, line);
    bitmc_reached("__assert()");
}

/* The nondet functions: the counterexample's values, in order. */
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn int(width: u32, signed: bool) -> IntType {
        IntType { width, signed }
    }

    #[test]
    fn literals_of_every_width_in_both_data_models() {
        for dm in [DataModel::Ilp32, DataModel::Lp64] {
            let l = |v: u128, w, s| literal(v, int(w, s), dm);
            // int: INT_MIN has no literal; -1 and INT_MAX have.
            assert_eq!(l(0x8000_0000, 32, true), "(-2147483647 - 1)");
            assert_eq!(l(0xffff_ffff, 32, true), "-1");
            assert_eq!(l(0x7fff_ffff, 32, true), "2147483647");
            assert_eq!(l(0xffff_ffff, 32, false), "4294967295U");
            // _Bool and char.
            assert_eq!(l(1, 1, false), "(_Bool)1");
            assert_eq!(l(0, 1, false), "(_Bool)0");
            assert_eq!(l(0x80, 8, true), "(signed char)-128");
            assert_eq!(l(0xff, 8, false), "(unsigned char)255");
            assert_eq!(l(0x8000, 16, true), "(short)-32768");
            // Bits above the width are not the value's.
            assert_eq!(l(0x1_0000_0005, 32, true), "5");
            assert_eq!(l(0x1ff, 8, true), "(signed char)-1");
        }
        // 64 bits: long in LP64, long long in ILP32.
        let l64 = |v: u128, s, dm| literal(v, int(64, s), dm);
        assert_eq!(
            l64(u128::from(u64::MAX), false, DataModel::Lp64),
            "18446744073709551615UL"
        );
        assert_eq!(
            l64(u128::from(u64::MAX), false, DataModel::Ilp32),
            "18446744073709551615ULL"
        );
        assert_eq!(
            l64(1 << 63, true, DataModel::Lp64),
            "(-9223372036854775807L - 1)"
        );
        assert_eq!(
            l64(1 << 63, true, DataModel::Ilp32),
            "(-9223372036854775807LL - 1)"
        );
        assert_eq!(l64(u128::from(u64::MAX), true, DataModel::Lp64), "-1L");
        assert_eq!(l64(u128::from(u64::MAX), true, DataModel::Ilp32), "-1LL");
        assert_eq!(l64(7, true, DataModel::Ilp32), "7LL");
        // 128 bits (LP64 only for gcc, written the same in both).
        for dm in [DataModel::Ilp32, DataModel::Lp64] {
            let l = |v: u128, s| literal(v, int(128, s), dm);
            assert_eq!(
                l(u128::MAX, false),
                "(((unsigned __int128)0xffffffffffffffffULL << 64) | 0xffffffffffffffffULL)"
            );
            assert_eq!(l(5, false), "(unsigned __int128)5ULL");
            assert_eq!(l(u128::MAX, true), "((__int128)-1LL)");
            assert_eq!(
                l(1 << 127, true),
                "((__int128)(((unsigned __int128)0x8000000000000000ULL << 64) | 0x0ULL))"
            );
            assert_eq!(
                l(u128::from(u64::MAX), true),
                "((__int128)(unsigned __int128)18446744073709551615ULL)"
            );
            assert_eq!(
                l((1u128 << 127) | (1 << 63), true),
                "((__int128)(((unsigned __int128)0x8000000000000000ULL << 64) | 0x8000000000000000ULL))"
            );
            assert_eq!(
                l(!0u128 << 63, true),
                "((__int128)(-9223372036854775807LL - 1))"
            );
        }
    }

    #[test]
    fn names_in_c_strings_and_comments_are_escaped() {
        assert_eq!(c_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(c_string("é"), "\"\\303\\251\"");
        assert_eq!(in_comment("x */ y"), "x * / y");
        assert_eq!(shell_word(Path::new("a b.c")), "'a b.c'");
        assert_eq!(shell_word(Path::new("dir/a.c")), "dir/a.c");
    }
}
