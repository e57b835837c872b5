"""Per-task verdicts and a one-line summary per run definition from BenchExec result files.

    python3 contrib/benchexec/verdicts.py [--tsv FILE] RESULTS.xml...

reads the `*.results.*.xml` files that benchexec writes (plain or .bz2), prints for each run
definition one line such as

    unreach-call.svcomp: 53 tasks, 33 correct (17 true, 16 false), 0 wrong, 20 other (TIMEOUT 18,
    unknown 2), score 50 of 87

and with `--tsv` writes one row per run (task, property, expected, status, category, CPU and
wall time in seconds), the task named `DIR/FOLDER/TASK.yml` as `bitmc bench DIR` names it, to
compare the two. Needs BenchExec (for the SV-COMP scores).
"""

import argparse
import bz2
import collections
import sys
import xml.etree.ElementTree as ElementTree

import benchexec.result as result


def read_runs(path):
    """The run definition's name and its runs (dicts of attributes and column values)."""
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rb") as f:
        root = ElementTree.parse(f).getroot()
    runs = []
    for run in root.findall("run"):
        values = {c.get("title"): c.get("value") for c in run.findall("column")}
        runs.append(
            {
                "task": "/".join(run.get("name").split("/")[-3:]),
                "property": run.get("properties", ""),
                "expected": run.get("expectedVerdict", ""),
                "status": values.get("status", ""),
                "category": values.get("category", ""),
                "cputime": values.get("cputime", "").rstrip("s"),
                "walltime": values.get("walltime", "").rstrip("s"),
            }
        )
    return root.get("name") or path, runs


def score(run):
    """The SV-COMP score of a run and the most it could have scored."""
    prop = result.Property(None, True, run["property"])
    expected = result.ExpectedResult.from_str(run["expected"])
    got = prop.compute_score(run["category"], run["status"]) if run["status"] else 0
    return got or 0, prop.max_score(expected) or 0


def summary(name, runs):
    correct = [r for r in runs if r["category"] == result.CATEGORY_CORRECT]
    wrong = [r for r in runs if r["category"] == result.CATEGORY_WRONG]
    others = collections.Counter(
        r["status"] for r in runs if r not in correct and r not in wrong
    )
    true = sum(1 for r in correct if r["status"] == result.RESULT_TRUE_PROP)
    points = [score(r) for r in runs]
    other_text = ", ".join(f"{s} {n}" for s, n in others.most_common())
    return (
        f"{name}: {len(runs)} tasks, {len(correct)} correct ({true} true, "
        f"{len(correct) - true} false), {len(wrong)} wrong, "
        f"{sum(others.values())} other ({other_text or 'none'}), "
        f"score {sum(p for p, _ in points)} of {sum(m for _, m in points)}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="benchexec's *.results.*.xml files")
    parser.add_argument("--tsv", help="write the per-task verdicts to this file")
    args = parser.parse_args(argv)

    rows = []
    for path in args.results:
        name, runs = read_runs(path)
        print(summary(name, runs))
        rows += runs
    if args.tsv:
        fields = ["task", "property", "expected", "status", "category", "cputime", "walltime"]
        with open(args.tsv, "w") as f:
            f.write("\t".join(fields) + "\n")
            for r in sorted(rows, key=lambda r: (r["task"], r["property"])):
                f.write("\t".join(r[k] for k in fields) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
