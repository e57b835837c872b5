#!/usr/bin/env python3
"""Sums statistics that `bitmc -v` printed over the runs of a `bitmc bench` output directory.

Usage: bench-stats.py [--solved-by-all] OUT_DIR STAT [STAT ...]

For each configuration (a directory under OUT_DIR/logs), every run's standard error is read;
a line `STAT: VALUE` (STAT as printed, e.g. "ic3cfa SAT calls for relative induction")
contributes the numbers of VALUE, position by position ("120 -> 84", a size before and after,
is two numbers). A run stopped by the bench's time limit reports its statistics
too (bitmc answers SIGTERM with UNKNOWN and its statistics). Prints a markdown table: one row
per configuration, one column per statistic (its sums, separated by " / "), and how many runs
reported it.

With --solved-by-all, only the runs of tasks that every configuration solved count: totals
over runs stopped at the time limit grow with the speed of each query, not with the work
saved, so that is the fair comparison of work.
"""
import csv
import os
import re
import sys

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def solved_by_all(out_dir):
    """The log names (without extension) of the tasks every configuration solved."""
    rows = list(csv.DictReader(open(os.path.join(out_dir, "results.csv"))))
    configs = {r["config"] for r in rows}
    solved = {}
    for r in rows:
        if r["status"] == "correct":
            key = r["task"].replace("/", "__") + "." + r["property"] if r["property"] else r["task"].replace("/", "__")
            solved.setdefault(key, set()).add(r["config"])
    return {k for k, c in solved.items() if c == configs}


def sums(out_dir, stats, only=None):
    logs = os.path.join(out_dir, "logs")
    table = {}
    for config in sorted(os.listdir(logs)):
        totals = {s: [] for s in stats}
        runs = {s: 0 for s in stats}
        cdir = os.path.join(logs, config)
        for name in sorted(os.listdir(cdir)):
            if not name.endswith(".err"):
                continue
            if only is not None and name[: -len(".err")] not in only:
                continue
            with open(os.path.join(cdir, name), errors="replace") as f:
                lines = f.read().splitlines()
            for s in stats:
                prefix = s + ":"
                # The last report of a run counts (a portfolio prints one per phase).
                hits = [l for l in lines if l.startswith(prefix)]
                if not hits:
                    continue
                values = [float(x) for x in NUMBER.findall(hits[-1][len(prefix):])]
                acc = totals[s]
                acc.extend([0.0] * (len(values) - len(acc)))
                for i, v in enumerate(values):
                    acc[i] += v
                runs[s] += 1
        table[config] = (totals, runs)
    return table


def fmt(v):
    return f"{v:.0f}" if v == int(v) else f"{v:.2f}"


def main():
    args = sys.argv[1:]
    restrict = args[:1] == ["--solved-by-all"]
    if restrict:
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    out_dir, stats = args[0], args[1:]
    only = solved_by_all(out_dir) if restrict else None
    table = sums(out_dir, stats, only)
    print("| config | " + " | ".join(stats) + " |")
    print("|---|" + "--:|" * len(stats))
    for config, (totals, runs) in table.items():
        cells = [
            " / ".join(fmt(v) for v in totals[s]) + f" ({runs[s]} runs)" if runs[s] else "-"
            for s in stats
        ]
        print(f"| {config} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
