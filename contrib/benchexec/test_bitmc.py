"""Tests of the BenchExec tool-info module for bitmc (bitmc.py beside this file).

`determine_result` is checked on outputs recorded from real bitmc runs (recorded/*.txt,
stdout and stderr merged as BenchExec stores them; recorded/README.md says how each was made)
and on outputs of the current binary (`CurrentBinaryTest`: the command line `cmdline` builds,
run on fixtures; the binary is `$BITMC_BINARY`, else `target/release/bitmc` or
`target/debug/bitmc` of the checkout; skipped without one, a failure under CI=true),
`cmdline` on hand-made tasks and limits. Needs BenchExec (`pip install benchexec`):

    python3 -m pytest contrib/benchexec
    python3 -m unittest discover -s contrib/benchexec
"""

import os
import stat
import subprocess
import sys
import tempfile
import unittest

import benchexec.result as result
from benchexec.tools.template import BaseTool2, UnsupportedFeatureException
from benchexec.util import ProcessExitCode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bitmc  # noqa: E402

RECORDED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recorded")

# (recorded output, bitmc's exit code, the status BenchExec is given)
RECORDED_RUNS = [
    ("true.txt", 0, result.RESULT_TRUE_PROP),
    ("false-unreach-call.txt", 10, result.RESULT_FALSE_REACH),
    ("false-no-overflow.txt", 10, result.RESULT_FALSE_OVERFLOW),
    ("false-div-by-zero.txt", 10, "false(div-by-zero)"),
    ("false-valid-index.txt", 10, "false(valid-index)"),
    ("unknown-timeout.txt", 20, result.RESULT_TIMEOUT),
    ("unknown-memory.txt", 20, "OUT OF MEMORY"),
    ("unknown-bound.txt", 20, result.RESULT_UNKNOWN),
    ("unknown-undefined-behaviour.txt", 20, result.RESULT_UNKNOWN),
    ("internal-error.txt", 3, "ERROR (internal)"),
    ("unsupported.txt", 1, "ERROR (unsupported)"),
    ("syntax-error.txt", 1, "ERROR (input)"),
    ("frontend-thread-error.txt", 1, "ERROR (internal)"),
    ("usage-error.txt", 2, "ERROR (usage)"),
    # with --svcomp, as the tool-info module runs bitmc
    ("svcomp-true.txt", 0, result.RESULT_TRUE_PROP),
    ("svcomp-true-kinduction.txt", 0, result.RESULT_TRUE_PROP),
    ("svcomp-false-unreach-call.txt", 10, result.RESULT_FALSE_REACH),
    ("svcomp-false-no-overflow.txt", 10, result.RESULT_FALSE_OVERFLOW),
    ("svcomp-unknown-timeout.txt", 20, result.RESULT_TIMEOUT),
    ("svcomp-unsupported-property.txt", 1, "ERROR (unsupported)"),
]


def recorded_lines(name):
    with open(os.path.join(RECORDED, name), encoding="utf-8") as f:
        return f.readlines()


def make_run(lines, code=None, signal=None, termination_reason=None):
    if signal is not None:
        exit_code = ProcessExitCode.create(signal=signal)
    else:
        exit_code = ProcessExitCode.create(value=code)
    return BaseTool2.Run(
        ["bitmc", "verify", "--svcomp", "program.c"],
        exit_code,
        BaseTool2.RunOutput(lines),
        termination_reason,
    )


def task(files=("program.c",), property_file=None, options=None):
    return BaseTool2.Task.with_files(
        list(files), property_file=property_file, options=options
    )


class DetermineResultTest(unittest.TestCase):
    def setUp(self):
        self.tool = bitmc.Tool()

    def status(self, lines, code=None, **kwargs):
        return self.tool.determine_result(make_run(lines, code, **kwargs))

    def test_recorded_runs(self):
        for name, code, expected in RECORDED_RUNS:
            with self.subTest(output=name):
                self.assertEqual(self.status(recorded_lines(name), code), expected)

    def test_false_results_are_classified_as_false(self):
        for name, code, expected in RECORDED_RUNS:
            if name.startswith("false-"):
                self.assertEqual(
                    result.get_result_classification(expected),
                    result.RESULT_CLASS_FALSE,
                )

    def test_empty_output(self):
        for code in (0, 10, 20):
            with self.subTest(exit_code=code):
                self.assertEqual(self.status([], code), "ERROR (no verdict)")

    def test_empty_output_of_an_error_exit(self):
        self.assertEqual(self.status([], 3), "ERROR (internal)")
        self.assertEqual(self.status([], 1), "ERROR (input)")
        # BenchExec itself turns a bare ERROR into ERROR (EXIT CODE).
        self.assertEqual(self.status([], 134), result.RESULT_ERROR)

    def test_verdict_contradicting_the_exit_code(self):
        self.assertEqual(
            self.status(recorded_lines("true.txt"), 10),
            "ERROR (verdict contradicts exit code)",
        )
        self.assertEqual(
            self.status(recorded_lines("false-unreach-call.txt"), 0),
            "ERROR (verdict contradicts exit code)",
        )
        self.assertEqual(
            self.status(recorded_lines("unknown-bound.txt"), 0),
            "ERROR (verdict contradicts exit code)",
        )

    def test_stderr_lines_after_the_verdict(self):
        lines = recorded_lines("true.txt") + ["note: the witness has no invariants\n"]
        self.assertEqual(self.status(lines, 0), result.RESULT_TRUE_PROP)

    def test_unknown_unsupported(self):
        lines = [
            "UNKNOWN (unsupported: heap memory (`malloc`)) (portfolio, 0.01 s)\n",
            "UNKNOWN\n",
        ]
        self.assertEqual(self.status(lines, 20), "ERROR (unsupported)")

    def test_unknown_timeout_as_svcomp_mode_spells_it(self):
        lines = ["UNKNOWN (timeout) (portfolio, 12.00 s)\n", "UNKNOWN\n"]
        self.assertEqual(self.status(lines, 20), result.RESULT_TIMEOUT)

    def test_killed_by_benchexec_before_a_verdict(self):
        lines = recorded_lines("unknown-timeout.txt")[:2]  # progress lines only
        for reason in ("cputime", "walltime", "memory"):
            with self.subTest(termination_reason=reason):
                status = self.status(lines, signal=9, termination_reason=reason)
                self.assertEqual(status, result.RESULT_ERROR)

    def test_stopped_by_benchexec_after_a_verdict(self):
        # bitmc answers SIGTERM with UNKNOWN; BenchExec reports TIMEOUT for unknown.
        lines = recorded_lines("unknown-timeout.txt")
        status = self.status(lines, 20, termination_reason="cputime")
        self.assertEqual(status, result.RESULT_UNKNOWN)

    def test_killed_by_a_signal(self):
        lines = recorded_lines("true.txt")
        self.assertEqual(self.status(lines, signal=6), result.RESULT_ERROR)

    def test_panic(self):
        lines = ["thread 'main' panicked at src/main.rs:1:1:\n", "boom\n"]
        self.assertEqual(self.status(lines, 101), "ERROR (internal)")


class CmdlineTest(unittest.TestCase):
    def setUp(self):
        self.tool = bitmc.Tool()
        self.no_limits = BaseTool2.ResourceLimits()

    def cmdline(self, t, options=(), rlimits=None):
        return self.tool.cmdline(
            "bitmc", list(options), t, rlimits or self.no_limits
        )

    def test_minimal(self):
        self.assertEqual(
            self.cmdline(task()), ["bitmc", "verify", "--svcomp", "program.c"]
        )

    def test_svcomp_task(self):
        t = task(
            property_file="properties/no-overflow.prp",
            options={"language": "C", "data_model": "LP64"},
        )
        limits = BaseTool2.ResourceLimits(cputime=900, cputime_hard=900)
        self.assertEqual(
            self.cmdline(t, rlimits=limits),
            [
                "bitmc",
                "verify",
                "--svcomp",
                "--property",
                "properties/no-overflow.prp",
                "--data-model",
                "LP64",
                "--timeout",
                "855",
                "program.c",
            ],
        )

    def test_timeout_below_the_smallest_limit(self):
        cases = [
            (BaseTool2.ResourceLimits(cputime=20, cputime_hard=20), "19"),
            (BaseTool2.ResourceLimits(cputime=60, cputime_hard=60, walltime=90), "57"),
            (BaseTool2.ResourceLimits(walltime=20), "19"),
            (BaseTool2.ResourceLimits(cputime=1, cputime_hard=1), "1"),
        ]
        for limits, expected in cases:
            with self.subTest(limits=limits):
                cmd = self.cmdline(task(), rlimits=limits)
                self.assertEqual(cmd[cmd.index("--timeout") + 1], expected)

    def test_options_given_in_the_benchmark_win(self):
        t = task(
            property_file="unreach-call.prp",
            options={"language": "C", "data_model": "ILP32"},
        )
        limits = BaseTool2.ResourceLimits(cputime=60, cputime_hard=60)
        options = ["--timeout=10", "--data-model", "LP64", "--engine", "pdr"]
        cmd = self.cmdline(t, options, limits)
        self.assertEqual(
            cmd,
            ["bitmc", "verify", "--svcomp", "--property", "unreach-call.prp"]
            + options
            + ["program.c"],
        )

    def test_task_without_data_model(self):
        for options in (None, {"language": "C"}):
            with self.subTest(options=options):
                cmd = self.cmdline(task(options=options))
                self.assertNotIn("--data-model", cmd)

    def test_unsupported_tasks(self):
        with self.assertRaises(UnsupportedFeatureException):
            self.cmdline(task(options={"language": "Java"}))
        with self.assertRaises(UnsupportedFeatureException):
            self.cmdline(task(options={"language": "C", "data_model": "ILP64"}))
        with self.assertRaises(UnsupportedFeatureException):
            self.cmdline(task(files=("a.c", "b.c")))


class ExecutableAndVersionTest(unittest.TestCase):
    def fake_bitmc(self, directory):
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "bitmc")
        with open(path, "w") as f:
            f.write("#!/bin/sh\necho 'bitmc 0.1.0'\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_tool_directory_and_checkout(self):
        tool = bitmc.Tool()
        with tempfile.TemporaryDirectory() as d:
            direct = self.fake_bitmc(os.path.join(d, "bin"))
            locator = BaseTool2.ToolLocator(tool_directory=os.path.join(d, "bin"))
            self.assertEqual(os.path.abspath(tool.executable(locator)), direct)

            built = self.fake_bitmc(os.path.join(d, "repo", "target", "release"))
            locator = BaseTool2.ToolLocator(tool_directory=os.path.join(d, "repo"))
            self.assertEqual(os.path.abspath(tool.executable(locator)), built)
            self.assertEqual(tool.version(built), "0.1.0")

    def test_engine_column(self):
        tool = bitmc.Tool()
        engine = r"\(([^(),]+), [0-9.]+ s\)$"
        for name, engine_name in [
            ("true.txt", "ic3cfa:cadical"),
            ("unknown-timeout.txt", "portfolio"),
            ("unknown-bound.txt", "bmc:cadical"),
        ]:
            output = BaseTool2.RunOutput(recorded_lines(name))
            self.assertEqual(tool.get_value_from_output(output, engine), engine_name)


CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def current_binary():
    """The bitmc binary under test, or None."""
    given = os.environ.get("BITMC_BINARY")
    if given:
        return given
    for profile in ("release", "debug"):
        path = os.path.join(CHECKOUT, "target", profile, "bitmc")
        if os.access(path, os.X_OK):
            return path
    return None


class CurrentBinaryTest(unittest.TestCase):
    """determine_result on what the current binary prints for the command line cmdline
    builds: every verdict, an unsupported program, a usage error."""

    def setUp(self):
        self.binary = current_binary()
        if self.binary is None:
            if os.environ.get("CI", "").lower() in ("true", "1"):
                self.fail("no bitmc binary (set BITMC_BINARY or build the checkout)")
            self.skipTest("no bitmc binary: set BITMC_BINARY or build the checkout")
        self.tool = bitmc.Tool()
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def run_task(self, fixture, prp=None, options=()):
        property_file = None
        if prp is not None:
            property_file = os.path.join(self.dir.name, "property.prp")
            with open(property_file, "w") as f:
                f.write(prp + "\n")
        t = task(files=(os.path.join(CHECKOUT, fixture),), property_file=property_file)
        limits = BaseTool2.ResourceLimits(walltime=60)
        cmd = self.tool.cmdline(self.binary, list(options), t, limits)
        p = subprocess.run(
            cmd,
            cwd=self.dir.name,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
        )
        lines = p.stdout.splitlines(keepends=True)
        run = BaseTool2.Run(
            cmd, ProcessExitCode.create(value=p.returncode), BaseTool2.RunOutput(lines), None
        )
        return self.tool.determine_result(run), p.stdout

    def test_verdicts_of_the_current_binary(self):
        overflow = "CHECK( init(main()), LTL(G ! overflow) )"
        cases = [
            ("fixtures/c/loops/count_to_n.c", None, result.RESULT_TRUE_PROP),
            ("fixtures/c/control/short_circuit_reach.c", None, result.RESULT_FALSE_REACH),
            ("fixtures/c/overflow/add_nondet.c", overflow, result.RESULT_FALSE_OVERFLOW),
            ("fixtures/c/control/short_circuit_reach.c", overflow, result.RESULT_TRUE_PROP),
            ("fixtures/c/errors/double.c", None, "ERROR (unsupported)"),
        ]
        for fixture, prp, expected in cases:
            with self.subTest(fixture=fixture, property=prp):
                status, out = self.run_task(fixture, prp)
                self.assertEqual(status, expected, out)

    def test_unknown_and_usage_error_of_the_current_binary(self):
        # A bound too small for the counterexample: BMC alone answers UNKNOWN.
        status, out = self.run_task(
            "fixtures/c/control/short_circuit_reach.c",
            options=["--engine", "bmc", "--max-depth", "0"],
        )
        self.assertEqual(status, result.RESULT_UNKNOWN, out)
        status, out = self.run_task(
            "fixtures/c/loops/count_to_n.c", options=["--no-such-option"]
        )
        self.assertEqual(status, "ERROR (usage)", out)


if __name__ == "__main__":
    unittest.main()
