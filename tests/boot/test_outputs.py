# SPDX-License-Identifier: MIT
"""scripts/profile's results for people and CI: --json against its
schema, --timeline as a Chrome trace, --speedscope against speedscope's
published file-format schema, the --baseline regression gate
(a planted regression, an unchanged run, thresholds) with --junit
against the Jenkins JUnit schema, --chart, --svg, and the JUnit XML of
scripts/test."""

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import bootlib
from bootlib import json_schema_errors as schema_errors
from perfcounter import boards
from perfcounter.outputs import gate, gmon
from perfcounter.results import readout
from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"
JUNIT_XSD = REPO / "schemas" / "vendor" / "junit-10.xsd"
SPEEDSCOPE_SCHEMA = REPO / "schemas" / "vendor" / "speedscope" / \
    "file-format-schema.json"
SVG = "{http://www.w3.org/2000/svg}"

# A loop of LOOPS iterations as section 1 ("work"), an empty section 2
LOOP = """\
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

#ifndef LOOPS
#define LOOPS 100
#endif

static volatile int sink;

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    int i;

    PERF_RESET(p);
    PERF_START_MEASURING(p);
    PERF_BEGIN(p, 1);
    for (i = 0; i < LOOPS; i++) {
        sink += i;
    }
    PERF_END(p, 1);
    PERF_BEGIN(p, 2);
    PERF_END(p, 2);
    perf_print_formatted_report(p, alt_get_cpu_freq(), 2, "work", "empty");
    return 0;
}
"""


def profile(*args, env=None, timeout=300, cwd=None):
    return subprocess.run([str(PROFILE)] + [str(a) for a in args],
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, cwd=cwd,
                          env=dict(os.environ, **(env or {})))


def ok(proc, code=0):
    assert proc.returncode == code, (
        f"exit {proc.returncode}, expected {code}\n{proc.stdout}"
        f"{proc.stderr}")
    return proc


def xsd_errors(path):
    """xmllint's complaints about path against the JUnit schema."""
    proc = subprocess.run(["xmllint", "--noout", "--schema", str(JUNIT_XSD),
                           str(path)], capture_output=True, text=True)
    return "" if proc.returncode == 0 else proc.stderr


def guest_rows(stdout):
    return readout.guest_reports(stdout)


# --json

def test_json_document_validates_and_says_everything(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        out, elf = Path(tmp) / "run.json", Path(tmp) / "main.elf"
        (Path(tmp) / "main.c").write_text(LOOP)
        proc = ok(profile(Path(tmp) / "main.c", "-o", elf, "--json", out))
        doc = json.loads(out.read_text())
        image_sha = hashlib.sha256(elf.read_bytes()).hexdigest()
    errors = schema_errors(doc)
    assert not errors, f"--json does not fit its schema: {errors}"
    assert doc["board"] == board.name and doc["cpu"] == board.cpu
    assert doc["counter_clock_hz"] == board.freq
    assert doc["icount"] == {"enabled": True, "shift": board.icount_shift}
    assert re.fullmatch(r"10\.0\.\d+", doc["qemu"]["version"]), doc["qemu"]
    assert doc["image"]["sha256"] == image_sha, doc["image"]
    assert doc["exit_code"] == 0 and not doc["timed_out"]
    assert [c["base"] for c in doc["cores"]] == \
        [base for base, _ in board.counters]
    core = doc["cores"][0]
    assert core["reported_by_guest"] is True
    (total, rows), = guest_rows(proc.stdout)
    assert core["global"]["clocks"] == total
    for s, (name, clocks, occurrences) in zip(core["sections"], rows):
        assert (s["name"], s["clocks"], s["occurrences"]) == \
            (name, clocks, occurrences), (s, name, clocks, occurrences)
        assert s["instructions"] == s["clocks"]
    assert core["sections"][1]["clocks"] == 1    # the empty section
    assert core["sections"][2]["name"] is None   # not in the report


@pytest.mark.parametrize("board_name", list(boards.BOARDS))
def test_json_validates_on_every_board(ctx, board_name):
    """The fullest document each board gives (call stacks, tasks and
    handlers, with --cycles where the board has a model) fits the
    schema, names the board, and is laid out as json.dumps(indent=2)
    lays it out."""
    board = boards.get(board_name)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        ok(profile(ctx.firmware(board, "tests/firmware/tasks.elf"),
                   "--board", board.name, "--sample", "--json", out,
                   *(["--cycles"] if board.cycle_model else [])))
        text = out.read_text()
    doc = json.loads(text)
    # (json_report writes it itself, faster: as json would)
    assert text == json.dumps(doc, indent=2) + "\n"
    errors = schema_errors(doc)
    assert not errors, f"--json does not fit its schema: {errors}"
    assert (doc["board"], doc["arch"], doc["cpu"]) == \
        (board.name, board.arch, board.cpu)
    assert doc["contexts"] and doc["run"]["ended"] == "exit"
    functions = {f["name"]: f for f in doc["functions"]}
    assert functions["main"]["calls"] == 1 and doc["call_graph"]
    if board.cycle_model:
        assert doc["cycles"]["cycles"] >= functions["main"]["cycles"] > 0


def test_json_schema_refuses_a_broken_document(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        ok(profile("--json", out))
        doc = json.loads(out.read_text())
    assert not schema_errors(doc)
    broken = json.loads(json.dumps(doc))
    del broken["board"]
    broken["cores"][0]["sections"][0]["clocks"] = -1
    broken["image"]["sha256"] = "not a digest"
    errors = schema_errors(broken)
    assert len(errors) == 3, errors


# --timeline

def trace_problems(doc):
    """What breaks the Trace Event Format (the JSON Object Format of
    Google's "Trace Event Format" document) in doc."""
    problems = []
    if not isinstance(doc, dict) or not isinstance(
            doc.get("traceEvents"), list):
        return ["no traceEvents list"]
    if doc.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        problems.append("displayTimeUnit is neither ms nor ns")
    for i, e in enumerate(doc["traceEvents"]):
        where = f"event {i} ({e})"
        if e.get("ph") not in ("B", "E", "X", "i", "I", "M", "C"):
            problems.append(f"{where}: unknown ph")
        if not isinstance(e.get("name"), str):
            problems.append(f"{where}: no name")
        if not all(isinstance(e.get(k), int) for k in ("pid", "tid")):
            problems.append(f"{where}: pid and tid must be integers")
        if e.get("ph") == "M":
            if e["name"] not in ("process_name", "thread_name",
                                 "process_sort_index", "thread_sort_index",
                                 "process_labels") or \
                    not isinstance(e.get("args"), dict):
                problems.append(f"{where}: bad metadata event")
            continue
        if not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
            problems.append(f"{where}: ts must be microseconds")
        if e.get("ph") == "X" and not (
                isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0):
            problems.append(f"{where}: X needs a duration")
        if e.get("ph") == "i" and e.get("s", "t") not in ("g", "p", "t"):
            problems.append(f"{where}: bad instant scope")
    return problems


def test_timeline_is_a_chrome_trace_of_every_command(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "trace.json"
        proc = ok(profile("--example", "two_cores", "--timeline", out))
        doc = json.loads(out.read_text())
    assert not trace_problems(doc), trace_problems(doc)
    events = doc["traceEvents"]
    meta = {(e["pid"], e["tid"], e["name"]): e["args"] for e in events
            if e["ph"] == "M"}
    # A process per core, named after its base
    assert meta[(1, 0, "process_name")]["name"] == "perf-counter 0x40030000"
    assert meta[(2, 0, "process_name")]["name"] == "perf-counter 0x40031000"
    # A track per section, named as the guest's report names it
    assert meta[(1, 1, "thread_name")]["name"] == \
        "section 1: insertion sort", meta
    assert meta[(2, 3, "thread_name")]["name"] == "section 3: memset"
    spans = {(e["pid"], e["tid"]): e for e in events if e["ph"] == "X"}
    assert len(spans) == 8, spans      # 2 globals, 6 sections, once each
    # Each span's instructions are the section's count in the report
    reports = guest_rows(proc.stdout)
    for pid, (total, rows) in enumerate(reports, 1):
        assert spans[(pid, 0)]["args"]["instructions"] == total
        for tid, (name, clocks, _) in enumerate(rows, 1):
            span = spans[(pid, tid)]
            assert span["name"] == name
            assert span["args"]["instructions"] == clocks
            # ts and dur: microseconds of virtual time (shift=5: 32 ns)
            assert abs(span["dur"] - clocks * 0.032) < 1e-6, span
    # Sections sit inside their core's global span
    for (pid, tid), span in spans.items():
        outer = spans[(pid, 0)]
        assert outer["ts"] <= span["ts"] and \
            span["ts"] + span["dur"] <= outer["ts"] + outer["dur"] + 1e-9
    assert doc["otherData"]["dropped_events"] == \
        {"0x40030000": 0, "0x40031000": 0}


def test_timeline_capped_says_how_many_were_dropped(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        full, capped = Path(tmp) / "full.json", Path(tmp) / "capped.json"
        ok(profile("--timeline", full, "--json", Path(tmp) / "f.json"))
        recorded = json.loads((Path(tmp) / "f.json").read_text())[
            "cores"][0]["timeline"]["recorded"]
        proc = ok(profile("--timeline", capped, "--timeline-events", "3"))
        doc = json.loads(capped.read_text())
    assert recorded > 3
    dropped = recorded - 3
    assert (f"timeline of the core at 0x40030000 is capped: it kept the "
            f"first 3 commands and dropped {dropped}") in proc.stderr, \
        proc.stderr
    assert doc["otherData"]["dropped_events"]["0x40030000"] == dropped
    assert not trace_problems(doc)


def test_trace_checks_catch_a_broken_trace(ctx, board):
    assert trace_problems({"traceEvents": [
        {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1}]})
    assert trace_problems({"traceEvents": [
        {"ph": "Q", "name": "a", "pid": 1, "tid": 1, "ts": 1}]})
    assert trace_problems([])


# --speedscope

def speedscope_errors(doc):
    """What speedscope's own schema (vendored from its npm package) says
    is wrong with doc."""
    import jsonschema
    schema = json.loads(SPEEDSCOPE_SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    return [e.message for e in
            jsonschema.Draft7Validator(schema).iter_errors(doc)]


def test_speedscope_file_validates_and_equals_the_stacks(ctx, board):
    image = ctx.firmware(board, "tests/firmware/callgraph.elf")
    with tempfile.TemporaryDirectory() as tmp:
        out, collapsed = Path(tmp) / "prof.json", Path(tmp) / "stacks.txt"
        proc = ok(profile(image, "--sample=exact", "--gmon",
                          Path(tmp) / "gmon.out", "--speedscope", out,
                          "--stacks", collapsed))
        doc = json.loads(out.read_text())
        lines = collapsed.read_text().splitlines()
    errors = speedscope_errors(doc)
    assert not errors, f"--speedscope does not fit speedscope's schema: " \
        f"{errors}"
    assert f"profile: speedscope file in {out}" in proc.stderr, proc.stderr
    prof, = doc["profiles"]
    frames = [f["name"] for f in doc["shared"]["frames"]]
    assert len(set(frames)) == len(frames), frames
    assert prof["type"] == "sampled" and prof["name"].endswith(
        "(instructions)")
    # Every sample names frames that exist, and the samples with their
    # weights are the collapsed stacks, line for line
    assert len(prof["samples"]) == len(prof["weights"]) == len(lines)
    rebuilt = sorted(";".join(frames[i] for i in sample) + f" {weight}"
                     for sample, weight in zip(prof["samples"],
                                               prof["weights"]))
    assert rebuilt == sorted(lines)
    assert prof["startValue"] == 0 and \
        prof["endValue"] == sum(prof["weights"])
    # callgraph_b's own instructions, exactly (see callgraph.S)
    b = [w for sample, w in zip(prof["samples"], prof["weights"])
         if [frames[i] for i in sample][-4:] ==
         ["main", "callgraph_run", "callgraph_a", "callgraph_b"]]
    assert b == [6000], b


def test_speedscope_schema_refuses_a_broken_file(ctx, board):
    from perfcounter.outputs import speedscope
    doc = speedscope.document({"main;a": 3, "main": 1}, "x")
    assert not speedscope_errors(doc)
    broken = json.loads(json.dumps(doc))
    del broken["profiles"][0]["weights"]
    broken["profiles"][0]["unit"] = "clocks"
    del broken["shared"]["frames"][0]["name"]
    errors = speedscope_errors(broken)
    assert len(errors) >= 2, errors
    assert speedscope_errors({"$schema": doc["$schema"], "profiles": []})


# --baseline, --threshold, --junit

def loop_baseline(tmp, loops=100):
    main = Path(tmp) / "main.c"
    main.write_text(LOOP)
    base = Path(tmp) / "base.json"
    ok(profile(main, "-D", f"LOOPS={loops}", "--json", base))
    return main, base


def test_gate_passes_an_unchanged_run(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        main, base = loop_baseline(tmp)
        xml = Path(tmp) / "gate.xml"
        proc = ok(profile(main, "--baseline", base, "--junit", xml))
        problems = xsd_errors(xml)
        suite = ET.parse(xml).getroot()
    # 12 counters (2 cores: the global one, 5 sections), each compared
    # by clocks, instructions and occurrences
    assert "No change in 36 values." in proc.stdout, proc.stdout
    assert not problems, problems
    assert (suite.get("tests"), suite.get("failures")) == ("36", "0")


def test_gate_catches_a_planted_regression(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        main, base = loop_baseline(tmp)
        xml = Path(tmp) / "gate.xml"
        summary = Path(tmp) / "summary.md"
        proc = ok(profile(main, "-D", "LOOPS=110", "--baseline", base,
                          "--junit", xml,
                          env={"GITHUB_STEP_SUMMARY": str(summary)}),
                  gate.REGRESSION_EXIT)
        problems = xsd_errors(xml)
        suite = ET.parse(xml).getroot()
        published = summary.read_text()
    assert "4 of 36 values regressed." in proc.stdout, proc.stdout
    row = re.search(r"^\| 0x40030000 \| work \| clocks \| ([\d,]+) \| "
                    r"([\d,]+) \| "
                    r"\+([\d,]+) \| \+[\d.]+% \| 1%, 0 \| "
                    r"\*\*REGRESSED\*\* \|$",
                    proc.stdout, re.M)
    assert row, proc.stdout
    before, after, delta = (int(g.replace(",", "")) for g in row.groups())
    assert after - before == delta > 0
    assert re.search(r"^\| 0x40030000 \| work \| instructions \| .*"
                     r"\*\*REGRESSED\*\* \|$", proc.stdout, re.M)
    assert "| (total) | clocks |" in proc.stdout and \
        "| empty |" not in proc.stdout and "occurrences" not in proc.stdout
    assert published.strip() in proc.stdout and "REGRESSED" in published
    assert "regression against" in proc.stderr
    assert not problems, problems
    assert suite.get("failures") == "4"
    failed = [c.get("name") for c in suite.iter("testcase")
              if c.find("failure") is not None]
    assert sorted(failed) == ["(total): clocks", "(total): instructions",
                              "work: clocks", "work: instructions"], failed


def test_gate_thresholds_allow_what_they_say(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        main, base = loop_baseline(tmp)
        # 5 more iterations: a few % more; allowed by 20% on both
        proc = ok(profile(main, "-D", "LOOPS=105", "--baseline", base,
                          "--threshold", "work=20%",
                          "--threshold", "total=20%"))
        assert "No regression; 4 of 36 values changed." in proc.stdout, \
            proc.stdout
        assert "worse (within threshold)" in proc.stdout
        # ... but not by an absolute allowance alone
        proc = ok(profile(main, "-D", "LOOPS=105", "--baseline", base,
                          "--threshold", "1=0%,5", "--threshold",
                          "total=50%"), gate.REGRESSION_EXIT)
        for metric in ("clocks", "instructions"):
            assert re.search(rf"\| work \| {metric} \|.*\| 0%, 5 \| "
                             rf"\*\*REGRESSED\*\* \|", proc.stdout), \
                proc.stdout
        # and a faster run is no regression
        proc = ok(profile(main, "-D", "LOOPS=50", "--baseline", base))
        assert "improved" in proc.stdout, proc.stdout


def test_gate_catches_a_regression_in_instructions_alone(ctx, board):
    """The same run against a baseline whose "work" retired 50 fewer
    instructions (planted in the stored --json): its clocks are the
    same, its instructions regressed, and only a threshold for that
    metric lets it pass."""
    with tempfile.TemporaryDirectory() as tmp:
        main, base = loop_baseline(tmp)
        doc = json.loads(base.read_text())
        work = doc["cores"][0]["sections"][0]
        assert work["name"] == "work" and work["instructions"] > 500
        work["instructions"] -= 50
        base.write_text(json.dumps(doc))
        xml = Path(tmp) / "gate.xml"
        proc = ok(profile(main, "--baseline", base, "--junit", xml),
                  gate.REGRESSION_EXIT)
        failed = [c.get("name") for c in ET.parse(xml).getroot().iter(
            "testcase") if c.find("failure") is not None]
        assert failed == ["work: instructions"], failed
        assert "1 of 36 values regressed." in proc.stdout, proc.stdout
        assert re.search(r"^\| 0x40030000 \| work \| instructions \| "
                         r"([\d,]+) \| ([\d,]+) \| \+50 \| .*"
                         r"\*\*REGRESSED\*\* \|$", proc.stdout, re.M), \
            proc.stdout
        assert "| clocks |" not in proc.stdout     # unchanged: not shown
        assert "work instructions (0x40030000)" in proc.stderr, proc.stderr
        # A threshold for that metric of that section, or of every one
        for allow in ("instructions:work=20%", "instructions:1=0%,50",
                      "instructions:*=20%"):
            proc = ok(profile(main, "--baseline", base, "--threshold",
                              allow))
            assert "worse (within threshold)" in proc.stdout, (allow,
                                                               proc.stdout)
        # ... but not one for another metric
        proc = ok(profile(main, "--baseline", base, "--threshold",
                          "clocks:work=20%"), gate.REGRESSION_EXIT)


def test_gate_options_are_checked(ctx, board):
    proc = profile("--junit", "x.xml")
    assert proc.returncode == 2 and "--baseline" in proc.stderr, proc.stderr
    proc = profile("--baseline", "/nonexistent.json")
    assert proc.returncode == 2 and "no such file" in proc.stderr
    proc = profile("--baseline", REPO / "README.md", "--threshold", "work")
    assert proc.returncode == 2 and "SECTION=REL%" in proc.stderr
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "x.json"
        other.write_text('{"format": "something else"}')
        proc = profile("--baseline", other)
    assert proc.returncode == 1 and "not a scripts/profile --json" in \
        proc.stderr, proc.stderr


def test_gate_unit_rules(ctx, board):
    def doc(clocks):
        return {"cores": [{"base_hex": "0x1", "global": {"clocks": 1000},
                           "sections": [{"section": 1, "name": "a",
                                         "clocks": clocks}]}]}
    rows = {r.key: r for r in gate.compare(doc(101), doc(100))}
    assert rows["1"].status == "worse"          # +1% is not over 1%
    rows = {r.key: r for r in gate.compare(doc(102), doc(100))}
    assert rows["1"].status == "regressed"
    rows = {r.key: r for r in gate.compare(
        doc(102), doc(100), {"a": gate.Threshold(1.0, 2)})}
    assert rows["1"].status == "worse"          # +2 is not over 2
    rows = {r.key: r for r in gate.compare({"cores": []}, doc(100))}
    assert rows["1"].status == "missing" and rows["1"].failed
    assert gate.parse_threshold("my=sec=2.5%,10") == \
        ("my=sec", gate.Threshold(2.5, 10))
    assert rows["1"].metric == "clocks"


def test_gate_compares_every_numeric_member(ctx, board):
    """A member a later document adds (an event count, say) is compared
    with no change to the gate; derived members are not; the most
    specific threshold wins."""
    def doc(misses, seconds=0.5):
        section = {"section": 1, "name": "a", "clocks": 100,
                   "instructions": 90, "occurrences": 1, "seconds": seconds,
                   "percent": 10.0, "cache_misses": misses, "label": "x",
                   "flag": True}
        return {"cores": [{"base_hex": "0x1",
                           "global": {"clocks": 1000, "occurrences": 1},
                           "sections": [section]}]}
    rows = {(r.key, r.metric): r for r in gate.compare(doc(12, 0.9),
                                                        doc(10))}
    assert sorted(rows) == [("1", "cache_misses"), ("1", "clocks"),
                            ("1", "instructions"), ("1", "occurrences"),
                            ("total", "clocks"), ("total", "occurrences")]
    assert rows[("1", "cache_misses")].status == "regressed"
    assert rows[("1", "clocks")].status == "same"
    t = {"a": gate.Threshold(50.0), "cache_misses:*": gate.Threshold(10.0),
         "cache_misses:a": gate.Threshold(30.0)}
    rows = {(r.key, r.metric): r for r in gate.compare(doc(12), doc(10), t)}
    assert rows[("1", "cache_misses")].threshold == gate.Threshold(30.0)
    assert rows[("1", "cache_misses")].status == "worse"
    del t["cache_misses:a"]
    rows = {(r.key, r.metric): r for r in gate.compare(doc(12), doc(10), t)}
    assert rows[("1", "cache_misses")].status == "regressed"
    assert rows[("1", "clocks")].threshold == gate.Threshold(50.0)
    # Only in the run: new, no regression; only in the baseline: missing
    old = doc(10)
    del old["cores"][0]["sections"][0]["cache_misses"]
    rows = {(r.key, r.metric): r for r in gate.compare(doc(12), old)}
    assert rows[("1", "cache_misses")].status == "new"
    rows = {(r.key, r.metric): r for r in gate.compare(old, doc(12))}
    assert rows[("1", "cache_misses")].failed
    assert gate.unused_thresholds(
        gate.compare(doc(1), doc(1)), {"cache_misses:a": 1, "misses:a": 1,
                                       "instructions:total": 1}) == \
        ["misses:a", "instructions:total"]


def test_gate_compares_the_functions_a_threshold_names(ctx, board):
    """Per-function figures (--json's "functions") are compared when a
    threshold names them (fn:NAME, fn:*), not otherwise; a function the
    run no longer runs counts 0."""
    with tempfile.TemporaryDirectory() as tmp:
        main = Path(tmp) / "main.c"
        main.write_text(LOOP)
        base = Path(tmp) / "base.json"
        # (in tmp: a profile of sources keeps main.elf, and gmon.out
        # beside it, where it runs)
        ok(profile(main, "--sample=exact", "--json", base, cwd=tmp))
        loose = ["--threshold", "*=50%", "--threshold", "total=50%"]
        proc = ok(profile(main, "-D", "LOOPS=110", "--sample=exact",
                          "--baseline", base, *loose, cwd=tmp))
        assert "fn:" not in proc.stdout, proc.stdout
        proc = ok(profile(main, "-D", "LOOPS=110", "--sample=exact",
                          "--baseline", base, *loose,
                          "--threshold", "fn:main=1%", cwd=tmp),
                  gate.REGRESSION_EXIT)
    assert re.search(r"^\| functions \| fn:main \| self \| .*"
                     r"\*\*REGRESSED\*\* \|$", proc.stdout, re.M), \
        proc.stdout
    assert "fn:memcpy" not in proc.stdout
    baseline = {"functions": [{"name": "f", "address": 1, "self": 5},
                              {"name": "g", "address": 2, "self": 5}]}
    run = {"functions": [{"name": "f", "address": 1, "self": 6}]}
    rows = {r.key: r for r in gate.compare(
        run, baseline, {"fn:*": gate.Threshold(10.0)})}
    assert (rows["fn:f"].status, rows["fn:g"].status) == \
        ("regressed", "better")
    assert rows["fn:g"].current == 0


# JUnit XML of scripts/test (pytest's --junitxml)

SAMPLE_TESTS = """
def test_passes():
    pass

def test_fails():
    assert False, "assertion <failed> & \\x01 bad bytes\\nsecond line"
"""


def test_junit_of_the_test_runner_validates(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "test_sample.py").write_text(SAMPLE_TESTS)
        xml = Path(tmp) / "tests.xml"
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p",
                        "no:cacheprovider", f"--junitxml={xml}",
                        "test_sample.py"], cwd=tmp, capture_output=True,
                       check=False)
        problems = xsd_errors(xml)
        suite = ET.parse(xml).getroot().find("testsuite")
        # The schema does reject what is not JUnit
        bad = Path(tmp) / "bad.xml"
        bad.write_text('<testsuite name="x" tests="1"><testcase/>'
                       '</testsuite>')
        rejected = xsd_errors(bad)
    assert not problems, problems
    assert rejected, "xmllint accepted a testsuite without failures/errors"
    cases = [(c.get("classname"), c.get("name")) for c in
             suite.iter("testcase")]
    assert cases == [("test_sample", "test_passes"),
                     ("test_sample", "test_fails")], cases
    assert suite.get("failures") == "1" and suite.get("tests") == "2"


# The writers scripts/profile imports while QEMU runs

WRITERS_AHEAD = """
import importlib, sys
from pathlib import Path
import perfcounter
from perfcounter import RunConfig, Target, boards, outputs
image, board, tmp = sys.argv[1], boards.get(sys.argv[2]), Path(sys.argv[3])
config = RunConfig(Target(image, board), profile=perfcounter.EXACT,
                   cycles=True)
result = perfcounter.run(config)
options = outputs.OutputOptions(
    gmon=tmp / "gmon.out", stacks=tmp / "stacks.txt",
    flamegraph=tmp / "flame.svg", speedscope=tmp / "speedscope.json",
    per_task=tmp / "tasks", json=tmp / "run.json", timeline=tmp / "t.json",
    chart=True, svg=tmp / "chart.svg", html=tmp / "report.html",
    coverage=tmp / "lcov.info", annotate=("main",),
    baseline=tmp / "baseline.json")
outputs.write(result, outputs.OutputOptions(gmon=tmp / "baseline.out",
                                            json=tmp / "baseline.json"))
named = outputs.writers(config, options)
for name in named:
    importlib.import_module(name)
before = set(sys.modules)
outputs.write(result, options)
print(len(named), sorted(m for m in set(sys.modules) - before
                         if m.startswith("perfcounter")))
"""


def test_writers_named_ahead_are_every_one_write_imports(ctx, board):
    """outputs.writers() names what outputs.write() imports (scripts/
    profile imports them while QEMU runs): every output asked for, no
    module of ours is left for write() to import."""
    image = ctx.firmware(board, "tests/firmware/callgraph.elf")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [sys.executable, "-c", WRITERS_AHEAD, str(image), board.name,
             tmp], capture_output=True, text=True,
            env=dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib")))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "11 []", out.stdout


# --chart and --svg

def test_a_gmon_out_is_replaced_whole(tmp_path):
    """A gmon.out written over another is replaced, not rewritten in
    place: gprof reading the old one (the default gmon.out beside an
    image that runs beside each other share) reads it whole."""
    path = tmp_path / "gmon.out"
    gmon.write(path, {0x100: 1}, {(0x100, 0x200): 1}, 1000)
    with open(path, "rb") as reader:
        old = path.read_bytes()
        gmon.write(path, {0x100: 5, 0x300: 7}, {(0x100, 0x300): 3}, 1000)
        assert reader.read() == old
    assert gmon.read_arcs(path) == {(0x100, 0x300): 3}
    assert [p.name for p in tmp_path.iterdir()] == ["gmon.out"]
    # what is not a plain file is written through: a link stays a link
    link = tmp_path / "link.out"
    link.symlink_to(path)
    gmon.write(link, {0x100: 2}, {(0x100, 0x400): 4}, 1000)
    assert link.is_symlink() and gmon.read_arcs(path) == {(0x100, 0x400): 4}


@pytest.mark.parametrize("counts", [
    (1, 65_535, 0), (65_536, 0, 3), (3 * 65_535, 2 * 65_535, 0),
    (3 * 65_535 + 7, 65_535, 9), (10 ** 8, 10 ** 6, 50 * 65_535)])
def test_a_bin_past_65535_is_carried_by_repeated_records(tmp_path, counts):
    """gprof's bins are 16-bit: a count past 65535 (an exact profile's
    busy loop) is carried by records of the same range repeated, which
    gprof adds up, and as few of them as hold the largest count."""
    histogram = {0x100 + 2 * k: n for k, n in enumerate(counts) if n}
    path = tmp_path / "gmon.out"
    gmon.write(path, histogram, {}, 1000)
    assert bootlib.gmon_histogram(path, 4)[0] == histogram
    records = gmon.histogram_records(histogram, 1000)
    assert len(records) == -(-max(counts) // gmon.BIN_MAX)


def test_text_chart_bars_are_proportional(ctx, board):
    proc = ok(profile("--chart", env={"PYTHONIOENCODING": "utf-8"}))
    lines = proc.stdout.splitlines()
    start = lines.index("core 0x40030000: clocks (one \u2588 = 359.2 clocks)")
    bars = {}
    for line in lines[start + 1:start + 5]:
        m = re.match(r"  (.+?) +([\u2588\u2589-\u258f]*) +([\d,]+) +"
                     r"[\d.]+%$", line)
        assert m, line
        cells = len(m.group(2).rstrip("\u258f")) or (1 if m.group(2)
                                                    else 0)
        bars[m.group(1)] = (cells, int(m.group(3).replace(",", "")))
    assert bars["(total)"] == (40, 14370), bars
    assert bars["1st checksum_test"][0] == 40   # 99.8% of 40 cells
    assert bars["ts_overhead"] == (1, 17), bars  # a sliver: counted
    assert "core 0x40031000" not in proc.stdout  # counted nothing


def test_svg_chart_bars_are_proportional(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "chart.svg"
        ok(profile("--example", "two_cores", "--svg", svg))
        root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG}svg"
    cores = root.findall(f"{SVG}g[@class='core']")
    assert [g.get("data-base") for g in cores] == \
        ["0x40030000", "0x40031000"]
    for g in cores:
        bars = g.findall(f"{SVG}rect[@class='bar']")
        labels = [t.text for t in g.findall(f"{SVG}text[@class='label']")]
        assert labels[0] == "(total)" and len(labels) == len(bars) == 4
        total = int(bars[0].get("data-clocks"))
        full = float(bars[0].get("width"))
        for bar in bars:
            clocks = int(bar.get("data-clocks"))
            assert abs(float(bar.get("width")) - full * clocks / total) \
                < 0.01, (bar.attrib, full, total)
            assert f"{clocks:,} clocks" in bar.find(f"{SVG}title").text
    labels = [t.text for t in root.iter(f"{SVG}text")]
    for name in ["insertion sort", "shell sort", "qsort", "memcpy",
                 "memcmp", "memset"]:
        assert name in labels, labels
