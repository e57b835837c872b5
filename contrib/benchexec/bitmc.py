"""BenchExec tool-info module for bitmc, a bit-precise model checker for C.

BenchExec runs one task as

    bitmc verify --svcomp [--property PROPERTY_FILE] [--data-model ILP32|LP64]
                 [--timeout S] OPTIONS... PROGRAM

where the property file, the data model (from the task's `options`) and the time limit come
from BenchExec. `--svcomp` makes bitmc follow SV-COMP's conventions: its standard output ends
with a verdict line (`TRUE`, `FALSE(PROPERTY)` or `UNKNOWN`), and it writes `witness.yml` and
`witness.graphml` into the working directory (collect them with
`<resultfiles>**/witness.*</resultfiles>`; BenchExec does that in container mode only).

The verdict line must agree with bitmc's exit code:

    0   TRUE                   -> true
    10  FALSE(p)               -> false(p)
    20  UNKNOWN                -> unknown, or TIMEOUT / OUT OF MEMORY when the line before it
                                  (`UNKNOWN (REASON) (ENGINE, T s)`) names bitmc's own time
                                  limit or memory as the reason, or ERROR (unsupported)
    1   error in the input     -> ERROR (unsupported) (C or property), ERROR (internal) or
                                  ERROR (input)
    2   command-line misuse    -> ERROR (usage)
    3   internal error         -> ERROR (internal)

A verdict line that contradicts the exit code, or no verdict line at all, is an error. When
BenchExec itself stops the run (time or memory limit) or a signal ends it, the module answers
ERROR (or the verdict printed before BenchExec stopped it), and BenchExec reports its own status
(TIMEOUT, OUT OF MEMORY, KILLED BY SIGNAL n) instead (beside that verdict).

To use it from a bitmc checkout, put the repository's root on PYTHONPATH and name the module
`contrib.benchexec.bitmc` (BenchExec takes a name without a dot for one of its own modules).
"""

import re

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.template import ToolNotFoundException, UnsupportedFeatureException

# bitmc's exit codes (src/cli/mod.rs).
EXIT_SAFE = 0
EXIT_UNSAFE = 10
EXIT_UNKNOWN = 20
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

# The data models of SV-COMP task definitions, spelled as `--data-model` takes them.
DATA_MODELS = ("ILP32", "LP64")

# Status strings for the causes of a missing verdict that BenchExec has no constant for.
RESULT_OUT_OF_MEMORY = "OUT OF MEMORY"  # as BenchExec reports a run killed at its memory limit
ERROR_UNSUPPORTED = f"{result.RESULT_ERROR} (unsupported)"
ERROR_INTERNAL = f"{result.RESULT_ERROR} (internal)"
ERROR_INPUT = f"{result.RESULT_ERROR} (input)"
ERROR_USAGE = f"{result.RESULT_ERROR} (usage)"
ERROR_NO_VERDICT = f"{result.RESULT_ERROR} (no verdict)"
ERROR_MISMATCH = f"{result.RESULT_ERROR} (verdict contradicts exit code)"

_VERDICT = re.compile(r"^(TRUE|UNKNOWN|FALSE\(([a-z-]+)\))$")

# How much of a time limit is left to bitmc's own limit for its last words (a verdict line
# and the witnesses): 5 %, at least 1 s.
_TIMEOUT_MARGIN = 0.05
_TIMEOUT_MARGIN_MIN = 1.0


class Tool(benchexec.tools.template.BaseTool2):
    """
    Tool info for bitmc, a bit-precise model checker for C programs without heap.
    Runs `bitmc verify --svcomp` with the task's property file and data model, and reads the
    verdict from the last line of its output (TRUE, FALSE(property), UNKNOWN).
    """

    def executable(self, tool_locator):
        # A directory holding the binary, or a bitmc checkout with a release build.
        try:
            return tool_locator.find_executable("bitmc")
        except ToolNotFoundException as not_found:
            try:
                return tool_locator.find_executable("bitmc", subdir="target/release")
            except ToolNotFoundException:
                raise not_found from None

    def name(self):
        return "bitmc"

    def project_url(self):
        return None  # bitmc has no public web page yet

    def version(self, executable):
        # `bitmc --version` prints `bitmc 0.1.0`.
        text = self._version_from_tool(executable)
        return text.split()[-1] if text else ""

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "verify"]
        if "--svcomp" not in options:
            cmd.append("--svcomp")
        if task.property_file and not _has_option(options, "--property"):
            cmd += ["--property", task.property_file]
        data_model = _data_model(task)
        if data_model and not _has_option(options, "--data-model"):
            cmd += ["--data-model", data_model]
        timeout = _timeout(rlimits)
        if timeout is not None and not _has_option(options, "--timeout"):
            cmd += ["--timeout", f"{timeout:g}"]
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        lines = [line.strip() for line in run.output]
        found = _last_verdict(lines)
        code = run.exit_code.value  # None when the process was killed by a signal

        if run.was_terminated:
            # Stopped by BenchExec at a limit: it reports its own status (TIMEOUT, OUT OF
            # MEMORY) in place of ERROR or unknown, and a verdict given before beside it.
            return _verdict_status(found[1]) if found else result.RESULT_ERROR
        if code is None:
            # Killed by a signal: BenchExec reports which (ABORTED, KILLED BY SIGNAL n, ...).
            return result.RESULT_ERROR

        if code == EXIT_SAFE:
            return _expect(found, "TRUE")
        if code == EXIT_UNSAFE:
            return _expect(found, "FALSE")
        if code == EXIT_UNKNOWN:
            status = _expect(found, "UNKNOWN")
            if status != result.RESULT_UNKNOWN:
                return status
            return _unknown_status(_reason_line(lines, found[0]))
        if code == EXIT_INTERNAL:
            return ERROR_INTERNAL
        if code == EXIT_USAGE:
            return ERROR_USAGE
        if code == EXIT_ERROR:
            return _input_error_status(lines)
        if any("panicked at" in line for line in lines):
            return ERROR_INTERNAL
        # BenchExec adds the exit code: ERROR (n).
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        """The first group of `identifier` (a regular expression) in the last line it matches."""
        pattern = re.compile(identifier)
        for line in reversed(output):
            match = pattern.search(line.strip())
            if match:
                return match.group(1) if match.groups() else match.group(0)
        return None


def _has_option(options, name):
    """Whether `name` is among `options`, as `NAME VALUE` or `NAME=VALUE`."""
    return any(o == name or o.startswith(name + "=") for o in options)


def _data_model(task):
    """`ILP32` or `LP64` from the task's options, or None (bitmc's default is ILP32)."""
    options = task.options
    if not isinstance(options, dict):
        return None  # a task without options (format 1.0, or a plain program)
    language = options.get("language")
    if language is not None and language != "C":
        raise UnsupportedFeatureException(
            f"bitmc verifies C programs, not language '{language}' (task {task})"
        )
    data_model = options.get("data_model")
    if data_model is None:
        return None
    if data_model not in DATA_MODELS:
        raise UnsupportedFeatureException(
            f"Unsupported data_model '{data_model}' for task {task}"
        )
    return data_model


def _timeout(rlimits):
    """bitmc's own time limit (wall-clock seconds): a little below the run's smallest limit.

    BenchExec's `timelimit` is CPU time, which bitmc's portfolio uses faster than wall-clock
    time when it runs on several cores; BenchExec then stops it first, and reports TIMEOUT.
    """
    limits = [t for t in (rlimits.cputime, rlimits.walltime) if t]
    if not limits:
        return None
    limit = min(limits)
    margin = max(_TIMEOUT_MARGIN_MIN, limit * _TIMEOUT_MARGIN)
    return max(1, int(limit - margin))


def _last_verdict(lines):
    """The index and text of the last verdict line, or None."""
    for i in range(len(lines) - 1, -1, -1):
        if _VERDICT.match(lines[i]):
            return i, lines[i]
    return None


def _verdict_status(verdict):
    """BenchExec's status for a verdict line."""
    if verdict == "TRUE":
        return result.RESULT_TRUE_PROP
    if verdict == "UNKNOWN":
        return result.RESULT_UNKNOWN
    prop = _VERDICT.match(verdict).group(2)
    if prop == "unreach-call":
        return result.RESULT_FALSE_REACH
    if prop == "no-overflow":
        return result.RESULT_FALSE_OVERFLOW
    # div-by-zero, valid-index: no SV-COMP constant, the same spelling.
    return f"{result.RESULT_FALSE_PROP}({prop})"


def _expect(found, kind):
    """The status of the verdict `found` if it is of `kind` (TRUE, FALSE, UNKNOWN)."""
    if found is None:
        return ERROR_NO_VERDICT
    verdict = found[1]
    if not verdict.startswith(kind):
        return ERROR_MISMATCH
    return _verdict_status(verdict)


def _reason_line(lines, verdict_index):
    """The `UNKNOWN (REASON) (ENGINE, T s)` line printed before the verdict line, or ''."""
    for line in reversed(lines[:verdict_index]):
        if line.startswith("UNKNOWN ("):
            return line
    return ""


def _unknown_status(reason_line):
    """unknown, or the status that BenchExec gives the same cause of a missing verdict."""
    if reason_line.startswith("UNKNOWN (timeout"):
        return result.RESULT_TIMEOUT
    if reason_line.startswith("UNKNOWN (memory"):
        return RESULT_OUT_OF_MEMORY
    if reason_line.startswith("UNKNOWN (unsupported"):
        return ERROR_UNSUPPORTED
    return result.RESULT_UNKNOWN


def _input_error_status(lines):
    """The status of exit code 1: the program uses unsupported C, or the input is wrong."""
    errors = [line for line in lines if "error" in line]
    if any("unsupported:" in line or "not checked by bitmc" in line for line in errors):
        return ERROR_UNSUPPORTED  # a feature of C, or a property bitmc does not check
    if any("internal error" in line for line in errors):
        return ERROR_INTERNAL
    return ERROR_INPUT
