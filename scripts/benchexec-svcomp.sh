#!/usr/bin/env bash
# Run bitmc under BenchExec on the public SV-COMP tasks (shared/bench/svcomp beside the
# checkout): install BenchExec from PyPI into a venv outside the repository, check the
# tool-info module with benchexec.test_tool_info, run contrib/benchexec/bitmc-svcomp.xml, and
# print the result table's statistics. See contrib/benchexec/README.md.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEFINITION="$REPO/contrib/benchexec/bitmc-svcomp.xml"
DEFAULT_TASKS="$REPO/../shared/bench/svcomp"
BENCHEXEC_VERSION=${BENCHEXEC_VERSION:-3.35}
CACHE=${BITMC_BENCHEXEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bitmc-benchexec}

usage() {
    cat <<EOF
Usage: scripts/benchexec-svcomp.sh [OPTIONS] [-- BENCHEXEC-ARGS...]

Options:
  --bitmc PATH      the bitmc binary (default: target/release/bitmc of this checkout)
  --timelimit S     CPU-time limit of one run in seconds (default: 60)
  --memlimit SIZE   memory limit of one run (default: 8GB)
  --cores N         CPU cores of one run (default: 2)
  --tasks DIR       SV-COMP task directory, laid out as sv-benchmarks' c/ (DIR/*/*.yml,
                    DIR/properties/*.prp) (default: ../shared/bench/svcomp beside the checkout)
  --out DIR         results, logs, witnesses and the working directory of the runs
                    (default: target/benchexec in the checkout)
  --no-container    run without BenchExec's container (witnesses are then not kept)
  -h, --help        this help

Arguments after -- go to benchexec, e.g. -- -r unreach-call (one run definition),
-- -t svcomp, or -- --read-only-dir DIR for a directory the runs must see below a hidden one.

Environment: BENCHEXEC_VERSION (default $BENCHEXEC_VERSION), BITMC_BENCHEXEC_CACHE
(default \${XDG_CACHE_HOME:-~/.cache}/bitmc-benchexec, holds the venv).
EOF
}

bitmc="$REPO/target/release/bitmc"
timelimit=60
memlimit=8GB
cores=2
tasks=""
out="$REPO/target/benchexec"
container=1
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --bitmc) bitmc=$2; shift 2 ;;
        --timelimit) timelimit=$2; shift 2 ;;
        --memlimit) memlimit=$2; shift 2 ;;
        --cores) cores=$2; shift 2 ;;
        --tasks) tasks=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-container) container=0; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "benchexec-svcomp: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done

[ -x "$bitmc" ] || { echo "benchexec-svcomp: no bitmc binary at $bitmc (see --bitmc)" >&2; exit 1; }

# BenchExec in its own venv, installed once per version.
venv="$CACHE/venv-$BENCHEXEC_VERSION"
if [ ! -x "$venv/bin/benchexec" ]; then
    echo "== installing BenchExec $BENCHEXEC_VERSION into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "benchexec==$BENCHEXEC_VERSION"
fi
py="$venv/bin/python"

# The runs see a copy of the binary named bitmc (the tool-info module looks for that name).
mkdir -p "$out/tool" "$out/work" "$out/results"
out=$(cd "$out" && pwd)
cp "$bitmc" "$out/tool/bitmc"
"$out/tool/bitmc" --version >&2

# Another task directory: a copy of the definition that includes its tasks.
definition="$DEFINITION"
if [ -n "$tasks" ]; then
    tasks=$(cd "$tasks" && pwd)
    definition="$out/bitmc-svcomp.xml"
    sed "s#\.\./\.\./\.\./shared/bench/svcomp#$tasks#" "$DEFINITION" > "$definition"
else
    tasks=$(cd "$DEFAULT_TASKS" && pwd)
fi

# Container mode: the whole file system read-only, the working directory of the runs an
# overlay (witnesses are written there and collected), /home hidden (the container's home
# directory is made there), the binary and the tasks visible even below a hidden /tmp.
if [ "$container" = 1 ]; then
    isolation=(--read-only-dir / --read-only-dir "$out/tool" --read-only-dir "$tasks"
               --hidden-dir /home --overlay-dir "$out/work")
else
    isolation=(--no-container)
fi

export PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}"
module=contrib.benchexec.bitmc
sample_task=$(find "$tasks" -mindepth 2 -maxdepth 2 -name '*.yml' | sort | head -n 1)

echo "== python3 -m benchexec.test_tool_info $module" >&2
(cd "$out/work" && "$py" -m benchexec.test_tool_info "$module" \
    --tool-directory ../tool "${isolation[@]}" \
    ${sample_task:+--task-definition "$sample_task"} \
    --tool-output "$REPO/contrib/benchexec/recorded/true.txt")

echo "== benchexec $(basename "$definition"): ${timelimit} s CPU time, $memlimit, $cores cores, one run at a time" >&2
(cd "$out/work" && "$venv/bin/benchexec" "$definition" \
    --tool-directory ../tool \
    --outputpath "$out/results/" \
    --timelimit "${timelimit}s" --memorylimit "$memlimit" --limitCores "$cores" \
    --numOfThreads 1 --no-compress-results \
    "${isolation[@]}" "${extra[@]}")

# One table over the run definitions of this benchmark, and a summary line for each.
latest=$(ls -t "$out"/results/*.results.*.xml | head -n 1)
stamp=${latest%%.results.*}
echo "== table-generator" >&2
"$venv/bin/table-generator" --format html --format csv \
    --name "$(basename "$stamp")" --outputpath "$out/results" "$stamp".results.*.xml
echo "== summary (per run definition; per-task verdicts in $stamp.verdicts.tsv)" >&2
"$py" "$REPO/contrib/benchexec/verdicts.py" --tsv "$stamp.verdicts.tsv" "$stamp".results.*.xml
