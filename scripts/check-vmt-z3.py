#!/usr/bin/env python3
"""An outside reader of bitmc's VMT export: z3's SMT-LIB parser reads each file, and a small
bounded model check with z3 looks for a bad state.

Usage: check-vmt-z3.py [--bound N] [--timeout S] FILE.vmt...

Needs the z3-solver package (`python3 -m pip install z3-solver`). The VMT annotations (`:next`,
`:init`, `:trans`, `:invar-property`) are found by a scan of the top-level commands; everything
else — sorts, operators, definitions — is z3's reading of the file: the annotated definitions
are asserted after the file's own text and z3 parses the whole, so the formulas checked are
z3's. Then, from the state where the `:init` formula holds, depth by depth up to the bound,
z3 decides whether the property can be false, each depth's inputs and state fresh copies of the
file's variables (`x@k`), consecutive states related by the `:trans` formula.

One line per file on stdout, tab-separated:
    FILE  ok  states=S  inputs=I  bad=K        the property fails first at depth K
    FILE  ok  states=S  inputs=I  bad=none     not up to the bound
    FILE  ok  states=S  inputs=I  unknown=K    z3 gave up at depth K (time limit)
    FILE  error  MESSAGE                       the file is not read
Exit code 0 when every file was read, 1 otherwise.
"""

import argparse
import sys
import time

import z3


def sexprs(text):
    """The top-level s-expressions of `text` as nested lists of atoms (quoted symbols without
    their bars)."""
    stack, i, n = [[]], 0, len(text)
    while i < n:
        c = text[i]
        if c == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif c.isspace():
            i += 1
        elif c == "(":
            stack.append([])
            i += 1
        elif c == ")":
            done = stack.pop()
            stack[-1].append(done)
            i += 1
        elif c == "|":
            j = text.index("|", i + 1)
            stack[-1].append(text[i + 1 : j])
            i = j + 1
        elif c == '"':
            j = i + 1
            while text[j] != '"' or text[j + 1 : j + 2] == '"':
                j += 2 if text[j] == '"' else 1
            stack[-1].append(text[i : j + 1])
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "();|\"":
                j += 1
            stack[-1].append(text[i:j])
            i = j
    if len(stack) != 1:
        raise ValueError("unbalanced parentheses")
    return stack[0]


def annotations(commands):
    """The `:next` pairs and the names of the `:init`, `:trans` and property definitions."""
    nexts, init, trans, prop = [], None, None, None
    for cmd in commands:
        if not (isinstance(cmd, list) and cmd and cmd[0] == "define-fun" and len(cmd) == 5):
            continue
        name, body = cmd[1], cmd[4]
        if not (isinstance(body, list) and body and body[0] == "!"):
            continue
        attrs = body[2:]
        for key, value in zip(attrs[0::2], attrs[1::2]):
            if key == ":next":
                nexts.append((body[1], value))
            elif key == ":init":
                init = name
            elif key == ":trans":
                trans = name
            elif key == ":invar-property":
                prop = name
    return nexts, init, trans, prop


def quote(name):
    return "|" + name + "|"


def read(path):
    """z3's reading of a VMT file: (init, trans, prop, [(state, next)], inputs)."""
    text = open(path, encoding="utf-8").read()
    nexts, init, trans, prop = annotations(sexprs(text))
    if init is None or trans is None or prop is None:
        raise ValueError("no :init, :trans or :invar-property definition")
    extra = [f"(assert {quote(init)})", f"(assert {quote(trans)})", f"(assert {quote(prop)})"]
    extra += [f"(assert (= {quote(c)} {quote(x)}))" for c, x in nexts]
    got = z3.parse_smt2_string(text + "\n" + "\n".join(extra) + "\n")
    if len(got) != 3 + len(nexts):
        raise ValueError(f"z3 read {len(got)} assertions, expected {3 + len(nexts)}")
    pairs = [(eq.arg(0), eq.arg(1)) for eq in got[3:]]
    for cur, nxt in pairs:
        if not (z3.is_const(cur) and z3.is_const(nxt)):
            raise ValueError(f"a :next annotation over {cur} and {nxt}, not variables")
    known = {str(v) for p in pairs for v in p}
    inputs, seen, stack = [], set(), list(got[:3])
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            if str(e) not in known:
                known.add(str(e))
                inputs.append(e)
        stack.extend(e.children())
    return got[0], got[1], got[2], pairs, inputs


def bmc(model, bound, timeout):
    """('bad', k), ('none', bound) or ('unknown', k)."""
    init, trans, prop, pairs, inputs = model
    deadline = time.monotonic() + timeout

    def frame(k):
        s = [(c, z3.Const(f"{c}@{k}", c.sort())) for c, _ in pairs]
        return s + [(i, z3.Const(f"{i}@{k}", i.sort())) for i in inputs]

    def nexts(k):
        return [(x, z3.Const(f"{c}@{k}", c.sort())) for c, x in pairs]

    solver = z3.Solver()
    solver.add(z3.substitute(init, *frame(0)) if frame(0) else init)
    for k in range(bound + 1):
        left = deadline - time.monotonic()
        if left <= 0:
            return "unknown", k
        solver.set("timeout", max(1, int(left * 1000)))
        bad = z3.Not(prop)
        bad = z3.substitute(bad, *frame(k)) if frame(k) else bad
        solver.push()
        solver.add(bad)
        answer = solver.check()
        solver.pop()
        if answer == z3.sat:
            return "bad", k
        if answer == z3.unknown:
            return "unknown", k
        step = frame(k) + nexts(k + 1)
        solver.add(z3.substitute(trans, *step) if step else trans)
    return "none", bound


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bound", type=int, default=20, help="the deepest depth checked")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per file")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    z3.set_param("warning", False)
    failed = False
    for path in args.files:
        try:
            model = read(path)
        except (ValueError, z3.Z3Exception, OSError) as e:
            print(f"{path}\terror\t{str(e).splitlines()[0] if str(e) else type(e).__name__}")
            failed = True
            continue
        kind, k = bmc(model, args.bound, args.timeout)
        print(f"{path}\tok\tstates={len(model[3])}\tinputs={len(model[4])}\t{kind}={k if kind != 'none' else 'none'}")
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
