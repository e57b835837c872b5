#!/usr/bin/env python3
"""Export SV-COMP tasks as AIGER files for `bitmc bench`, with their expected verdicts.

    scripts/export-aiger.py OUT_DIR TASK_DIR... [--bitmc PATH] [--property unreach-call]

Every task file (`.yml`) under the task directories that checks the property is exported with
`bitmc aiger TASK --property P -o OUT_DIR/NAME.aig`; `OUT_DIR/EXPECTED.tsv` lists each file with
`safe` or `unsafe`, the form `bitmc bench` reads. Then bitmc's engines and peers run on the
same files, e.g. `bitmc bench OUT_DIR --timeout 60 --config pdr='--engine pdr' --peer abc-pdr`.
"""
import argparse
import pathlib
import re
import subprocess
import sys


def expected(task: pathlib.Path, prop: str):
    """The expected verdict of `prop` in an SV-COMP task file, or None (a small reader of the
    `properties` list: `property_file` and `expected_verdict` entries)."""
    current = None
    for line in task.read_text().splitlines():
        m = re.match(r"\s*-?\s*property_file:\s*(\S+)", line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"\s*expected_verdict:\s*(\S+)", line)
        if m and current and prop in current:
            return "safe" if m.group(1).lower() == "true" else "unsafe"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--bitmc", default="bitmc")
    ap.add_argument("--property", default="unreach-call")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for d in a.dirs:
        for task in sorted(pathlib.Path(d).rglob("*.yml")):
            verdict = expected(task, a.property)
            if verdict is None:
                continue
            name = task.stem + ".aig"
            r = subprocess.run(
                [a.bitmc, "aiger", str(task), "--property", a.property, "-o", str(out / name)],
                capture_output=True,
                text=True,
            )
            if r.returncode != 0:
                first = (r.stderr.strip().splitlines() or [""])[0]
                print(f"{task}: not exported: {first}", file=sys.stderr)
                continue
            rows.append((name, verdict))
    with open(out / "EXPECTED.tsv", "w") as f:
        f.write("file\tverdict\n")
        for name, verdict in rows:
            f.write(f"{name}\t{verdict}\n")
    print(f"{len(rows)} tasks exported to {out}")


if __name__ == "__main__":
    main()
