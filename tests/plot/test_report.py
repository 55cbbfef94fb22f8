#!/usr/bin/env python3
"""scripts/mpiwrite_report.py (the one reader of the report JSON) and scripts/job_summary.py
(the job scripts' summary) against the fixtures beside this file and the golden reports.

Standard library only, like the reader: no matplotlib needed.
Run from any directory:  python3 /path/to/tests/plot/test_report.py
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from json_tokens import with_token  # tests/plot, beside this file

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.normpath(os.path.join(HERE, "..", "..", "scripts"))
GOLDEN = os.path.normpath(os.path.join(HERE, "..", "golden"))
sys.path.insert(0, SCRIPTS)
import job_summary  # noqa: E402
import mpiwrite_report as mr  # noqa: E402


def fixture(name):
    return os.path.join(HERE, name)


def raw(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Files(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpiwrite-report-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def write(self, name, doc):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    def assert_refused(self, text, *message_parts):
        """The text is refused by load() with one line holding every part."""
        with self.assertRaises(mr.ReportError) as caught:
            mr.load(self.write("hostile.json", text))
        message = str(caught.exception)
        self.assertNotIn("\n", message)
        self.assertLess(len(message), 400, message)
        for part in message_parts:
            self.assertIn(part, message)


class ReadingTest(Files):
    """What a point holds, as the reader gives it."""

    def test_points_carry_their_own_figures(self):
        for name in ("compare_v4.json", "sweep.json", "compare.json"):
            doc = mr.load(fixture(name))
            want = {p["label"]: p for p in raw(fixture(name))["points"]}
            points = mr.read_points(doc)
            self.assertEqual(len(points), len(want), name)
            for p in points:
                w = want[p.label]
                self.assertEqual((p.ranks, p.threads), (w["ranks"], w["threads"]), name)
                ms = w["summary"]["makespan_s"]
                self.assertEqual((p.mean, p.median), (ms["mean"], ms["median"]), name)
                center = ms["median"] if mr.uses_medians(doc) else ms["mean"]
                self.assertEqual(p.center, center, f"{name} {p.label}")
                self.assertEqual(p.last.files, w["repetitions"][-1]["files"])
                self.assertEqual(p.last.files_per_s, w["repetitions"][-1]["files_per_s"])

    def test_a_sweeps_points_have_threads_the_config_has_not(self):
        doc = mr.load(fixture("sweep.json"))
        self.assertEqual([p.threads for p in mr.read_points(doc)], [1, 2, 4, 8])

    def test_unmeasured_points_are_listed_apart(self):
        doc = mr.load(fixture("compare_interrupted.json"))
        self.assertEqual([u[0] for u in mr.read_unmeasured(doc)], ["1x1", "1x4"])
        self.assertNotIn("1x1", [p.label for p in mr.read_points(doc)])

    def test_kinds_hosts_and_layouts(self):
        run = mr.load(os.path.join(GOLDEN, "report.json"))
        self.assertEqual(mr.kind_of(run), "run")
        self.assertEqual(mr.hosts(run), [("node1", 2)])
        layouts = mr.load(os.path.join(GOLDEN, "compare_layouts.json"))
        self.assertEqual({p.layout for p in mr.read_points(layouts)}, {"shared", "rank"})
        del run["kind"]  # a report without a kind that holds one point is a run
        self.assertEqual(mr.kind_of(run), "run")

    def test_fields_of_the_wrong_type_are_none(self):
        doc = raw(fixture("compare_v4.json"))
        p = doc["points"][0]
        p["threads"], p["repetitions"][-1]["files"] = "4", -3
        p["summary"]["makespan_s"]["mean"] = True
        (first, *_) = mr.read_points(mr.parse("x", json.dumps(doc)))
        self.assertEqual((first.threads, first.last.files, first.mean), (None, None, None))

    def test_control_characters_in_strings_become_question_marks(self):
        doc = raw(fixture("sweep.json"))
        doc["context"]["hosts"][0]["host"] = "evil\u001b]0;x\u0007"
        self.assertEqual(mr.hosts(mr.parse("x", json.dumps(doc)))[0][0], "evil?]0;x?")

    def test_the_command_prints_a_json_line_per_point(self):
        proc = subprocess.run([sys.executable, os.path.join(SCRIPTS, "mpiwrite_report.py"),
                               fixture("sweep.json")], capture_output=True, text=True,
                              timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = [json.loads(line) for line in proc.stdout.splitlines()]
        self.assertEqual([x["threads"] for x in lines], [1, 2, 4, 8])


class RefusalTest(Files):
    """Every refusal is one line, before any field is read (moved here from test_plot.py)."""

    def test_missing_file_and_not_json(self):
        with self.assertRaisesRegex(mr.ReportError, "absent.json: no such file"):
            mr.load(os.path.join(self.tmp, "absent.json"))
        self.assert_refused('{"schema_version": 2,', "not valid JSON")
        self.assert_refused("[1, 2]", "not an mpiwrite report", "not an object")

    def test_schema_versions(self):
        doc = raw(fixture("sweep.json"))
        for version in (1, 6):
            doc["schema_version"] = version
            self.assert_refused(json.dumps(doc), f"schema_version {version}")
        del doc["schema_version"]
        self.assert_refused(json.dumps(doc), "no schema_version")

    def test_endless_input_is_refused_at_its_first_byte(self):
        with self.assertRaisesRegex(mr.ReportError, r"not valid JSON \(it starts with"):
            mr.load("/dev/zero")

    def test_unterminated_strings_are_refused_at_once(self):
        """'"' then 80,000 escaped quotes: the nesting check was quadratic (minutes)."""
        started = time.monotonic()
        self.assert_refused('"' + '\\"' * 80000, "not valid JSON")
        self.assertLess(time.monotonic() - started, 30)

    def test_huge_integers_are_refused(self):
        doc = raw(fixture("compare.json"))
        self.assert_refused(with_token(doc, ["unknown"], "7" * 5000), "(5000 digits)")
        path = ["points", 0, "summary", "makespan_s", "mean"]
        self.assert_refused(with_token(doc, path, str(10 ** 400)), "an integer beyond 64 bits",
                            "(401 digits)")

    def test_non_finite_numbers_are_refused(self):
        doc = raw(fixture("compare_v4.json"))
        for token in ("NaN", "Infinity", "-Infinity", "1e400", "-1e400"):
            with self.subTest(token=token):
                self.assert_refused(with_token(doc, ["points", 0, "summary", "speedup"], token),
                                    "not an mpiwrite report")

    def test_deep_nesting_is_refused(self):
        doc = raw(fixture("sweep.json"))
        for depth in (65, 50000):
            with self.subTest(depth=depth):
                self.assert_refused(with_token(doc, ["unknown"], "[" * depth + "]" * depth),
                                    "nested deeper than 64 levels")
        # Brackets inside strings are text, not nesting; 64 levels are read.
        mr.parse("x", with_token(doc, ["unknown"], json.dumps("[" * 100 + '\\"[')))
        mr.parse("x", with_token(doc, ["unknown"], "[" * 63 + "]" * 63))


class JobSummaryTest(Files):
    """The summary the job scripts print: each point with its own ranks and threads."""

    def test_each_point_says_its_own_threads(self):
        lines = job_summary.summary(mr.load(fixture("sweep.json")))
        self.assertTrue(lines[0].startswith("sweep: 4 ranks on "), lines[0])
        points = [x for x in lines if x.startswith("point ")]
        for threads, line in zip((1, 2, 4, 8), points):
            self.assertIn(f"4 ranks x {threads} thread", line)
        self.assertEqual(len(points), 4)

    def test_hosts_and_unmeasured_points(self):
        doc = raw(fixture("compare_interrupted.json"))
        doc["context"]["hosts"] = [{"host": "a", "rank_count": 1}, {"host": "b", "rank_count": 1}]
        for p in doc["points"]:
            for r in p["repetitions"]:
                r["hosts"] = [{"host": h, "files": 50, "bytes": 700, "slowest_rank_s": 0.5}
                              for h in ("a", "b")]
        text = "\n".join(job_summary.summary(mr.parse("x", json.dumps(doc))))
        self.assertIn("on a (1 ranks), b (1 ranks)", text)
        self.assertIn("  host b: 50 files, 700 B, slowest rank 0.500000 s", text)
        self.assertIn("1x4 (threads): 1 rank x 4 threads, not measured", text)

    def test_a_refused_report_is_one_line_and_exit_2(self):
        proc = subprocess.run([sys.executable, os.path.join(SCRIPTS, "job_summary.py"),
                               self.write("bad.json", "NaN")], capture_output=True, text=True,
                              timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stdout, "")
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("job_summary.py: error:", proc.stderr)


if __name__ == "__main__":
    unittest.main()
