"""Tests of verdicts.py (the summary line and TSV from BenchExec result files)."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdicts  # noqa: E402

RESULTS = """<?xml version="1.0"?>
<result name="unreach-call.svcomp" benchmarkname="bitmc-svcomp" tool="bitmc">
  <run name="../../svcomp/loops/a.yml" properties="unreach-call" expectedVerdict="true">
    <column title="status" value="true"/>
    <column title="category" value="correct" hidden="true"/>
    <column title="cputime" value="1.5s"/>
    <column title="walltime" value="0.9s"/>
  </run>
  <run name="../../svcomp/loops/b.yml" properties="unreach-call" expectedVerdict="false">
    <column title="status" value="false(unreach-call)"/>
    <column title="category" value="correct" hidden="true"/>
  </run>
  <run name="../../svcomp/loops/c.yml" properties="unreach-call" expectedVerdict="true">
    <column title="status" value="false(unreach-call)"/>
    <column title="category" value="wrong" hidden="true"/>
  </run>
  <run name="../../svcomp/loops/d.yml" properties="unreach-call" expectedVerdict="false">
    <column title="status" value="TIMEOUT"/>
    <column title="category" value="error" hidden="true"/>
  </run>
  <run name="../../svcomp/loops/e.yml" properties="unreach-call" expectedVerdict="true">
    <column title="status" value="unknown"/>
    <column title="category" value="unknown" hidden="true"/>
  </run>
</result>
"""


class VerdictsTest(unittest.TestCase):
    def test_summary_and_tsv(self):
        with tempfile.TemporaryDirectory() as d:
            xml = os.path.join(d, "b.results.unreach-call.svcomp.xml")
            with open(xml, "w") as f:
                f.write(RESULTS)
            name, runs = verdicts.read_runs(xml)
            self.assertEqual(
                verdicts.summary(name, runs),
                "unreach-call.svcomp: 5 tasks, 2 correct (1 true, 1 false), 1 wrong, "
                "2 other (TIMEOUT 1, unknown 1), score -13 of 8",
            )
            tsv = os.path.join(d, "verdicts.tsv")
            with open(os.devnull, "w") as devnull:
                stdout, sys.stdout = sys.stdout, devnull
                try:
                    verdicts.main(["--tsv", tsv, xml])
                finally:
                    sys.stdout = stdout
            with open(tsv) as f:
                lines = f.read().splitlines()
            self.assertEqual(
                lines[0],
                "task\tproperty\texpected\tstatus\tcategory\tcputime\twalltime",
            )
            self.assertEqual(
                lines[1], "svcomp/loops/a.yml\tunreach-call\ttrue\ttrue\tcorrect\t1.5\t0.9"
            )
            self.assertEqual(len(lines), 6)


if __name__ == "__main__":
    unittest.main()
