# SPDX-License-Identifier: MIT
"""What a test session of firmware writes (the pytest plugin's
--perfcounter-results DIR), and how the results of several sessions
(shards) merge into the one an unsharded session would have written.

    DIR/results.json    every test: its outcome and its run's counts, in
                        total and per step (instructions, estimated
                        cycles, virtual ns; a step's events too: loads,
                        calls...), exact and the same on every run;
                        and, if a signal cut the session short, which
                        and in which tests ("cut_short");
                        schemas/test-results.schema.json
    DIR/junit.xml       the same as JUnit XML (virtual seconds as each
                        test's time, the counts in its system-out):
                        nothing in it depends on the host, so shards
                        merge to the very bytes of an unsharded run
    DIR/durations.json  each test's host seconds, for balancing shards
    DIR/tests/ID/       each test's outputs (run.json, with each step's
                        counts and functions; gmon.out, stacks.txt and
                        each step's stacks.STEP.txt when it was
                        profiled; coverage.info with --firmware-coverage)
    DIR/profile/IMAGE/  the profiles of every test that booted IMAGE,
                        summed: gmon.out (gprof -s), stacks.txt and
                        coverage.info (LCOV)
"""

import json
import re
from pathlib import Path

from perfcounter.errors import Failure

# (the rest imported where it is used: the pytest plugin, loaded in
# every pytest session of an environment that installs the package,
# imports this module)

FORMAT = "perfcounter-tests"
VERSION = 1
RESULTS = "results.json"
JUNIT = "junit.xml"
DURATIONS = "durations.json"
TESTS = "tests"
PROFILE = "profile"
COVERAGE = "coverage.info"
# What a step and a run are counted in
COUNTS = ("instructions", "cycles", "ns")


def test_dir(nodeid):
    """The folder of a test's outputs, named after its node id."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_")


def document(tests, cut_short=None):
    """The results document of {node id: test}, tests sorted; cut_short:
    the signal that cut the session short and the tests it cut short
    ({"signal": "SIGTERM", "tests": [node id...]}), if one did."""
    doc = {"format": FORMAT, "version": VERSION,
           "tests": {n: tests[n] for n in sorted(tests)}}
    if cut_short:
        doc["cut_short"] = cut_short
    return doc


def load(path):
    """A results document (a file, or a results directory)."""
    path = Path(path)
    if path.is_dir():
        path = path / RESULTS
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise Failure(f"{path}: cannot read test results ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Failure(f"{path}: not perfcounter test results")
    if doc.get("version") != VERSION:
        raise Failure(f"{path}: results version {doc.get('version')}; this "
                      f"perfcounter reads version {VERSION}")
    return doc


def merge(docs):
    """One document of several sessions' (shards'): every test once."""
    tests = {}
    cut_short = None
    for doc in docs:
        for nodeid, test in doc["tests"].items():
            if nodeid in tests:
                raise Failure(f"{nodeid} is in two shards' results: each "
                              f"test belongs to one shard")
            tests[nodeid] = test
        if doc.get("cut_short"):
            cut_short = cut_short or {"signal": doc["cut_short"]["signal"],
                                      "tests": []}
            cut_short["tests"] = sorted(set(cut_short["tests"]) |
                                        set(doc["cut_short"]["tests"]))
    return document(tests, cut_short)


def junit(doc):
    """JUnit XML of a results document, made only of what the document
    holds, so that it depends on nothing of the host."""
    import xml.etree.ElementTree as ET
    tests = doc["tests"]
    counts = {o: sum(t["outcome"] == o for t in tests.values())
              for o in ("failed", "error", "skipped")}
    total_ns = sum(t.get("ns") or 0 for t in tests.values())
    suite = ET.Element("testsuite", {
        "name": "perfcounter", "tests": str(len(tests)),
        "failures": str(counts["failed"]), "errors": str(counts["error"]),
        "skipped": str(counts["skipped"]), "time": _seconds(total_ns)})
    for nodeid, test in tests.items():
        path, _, name = nodeid.rpartition("::")
        case = ET.SubElement(suite, "testcase", {
            "classname": path.replace("/", ".").removesuffix(".py"),
            "name": name, "time": _seconds(test.get("ns") or 0)})
        if test["outcome"] in ("failed", "error"):
            tag = "failure" if test["outcome"] == "failed" else "error"
            element = ET.SubElement(case, tag, {
                "message": (test.get("message") or "").splitlines()[0]
                if test.get("message") else test["outcome"]})
            element.text = test.get("message") or ""
        elif test["outcome"] == "skipped":
            ET.SubElement(case, "skipped",
                          {"message": test.get("message") or ""})
        # The counts: Jenkins' schema has no properties in a test case
        ET.SubElement(case, "system-out").text = "".join(
            f"{key} = {value}\n" for key, value in properties_of(test))
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode",
                       xml_declaration=True) + "\n"


def properties_of(test):
    """[(name, value)] of a test's run and steps: what the plugin
    attaches to pytest's report (and JUnit) as properties."""
    out = [(f"perfcounter.{k}", test[k]) for k in
           ("board", "image", "exit_code", "ended") + COUNTS
           if test.get(k) is not None]
    for step, counts in test.get("steps", {}).items():
        out += [(f"perfcounter.step.{step}.{k}", counts[k]) for k in COUNTS
                if counts.get(k) is not None]
        out += [(f"perfcounter.step.{step}.{k}", counts[k])
                for k in sorted(counts) if k not in COUNTS]
    return out


def test_of_properties(properties):
    """The test dict (less its outcome) of properties_of()'s pairs."""
    test = {"steps": {}}
    for key, value in properties:
        if not key.startswith("perfcounter."):
            continue
        key = key.removeprefix("perfcounter.")
        if key.startswith("step."):
            step, _, count = key.removeprefix("step.").rpartition(".")
            test["steps"].setdefault(step, {})[count] = value
        else:
            test[key] = value
    return test


def _seconds(ns):
    return f"{ns / 1e9:.9f}"


def write(folder, doc, durations=None):
    """results.json and junit.xml of doc (and durations.json) in folder;
    then the profiles of its tests, summed per image."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RESULTS).write_text(json.dumps(doc, indent=2) + "\n")
    (folder / JUNIT).write_text(junit(doc))
    if durations is not None:
        (folder / DURATIONS).write_text(json.dumps(
            {"durations": {n: durations[n] for n in sorted(durations)}},
            indent=2) + "\n")


def sum_profiles(folder, doc, sources):
    """folder/profile/IMAGE/{gmon.out,stacks.txt,coverage.info}: the
    profiles and coverage of every test of doc that has them (in the
    folders of sources, a test's outputs in SOURCE/tests/ID/), summed
    per image, in node id order."""
    import shutil
    from perfcounter.outputs import coverage
    by_image = {}
    for nodeid, test in doc["tests"].items():
        for source in sources:
            outputs = Path(source).resolve() / TESTS / test_dir(nodeid)
            if ((outputs / "gmon.out").is_file() or
                    (outputs / COVERAGE).is_file()) and test.get("image"):
                by_image.setdefault(test["image"], []).append(
                    (outputs, test["board"]))
                break
    folder = Path(folder) / PROFILE
    if folder.exists():
        shutil.rmtree(folder)
    for image, runs in by_image.items():
        out = folder / test_dir(Path(image).name)
        out.mkdir(parents=True)
        stacks = {}
        for outputs, _ in runs:
            path = outputs / "stacks.txt"
            for line in path.read_text().splitlines() if path.is_file() \
                    else []:
                key, _, count = line.rpartition(" ")
                stacks[key] = stacks.get(key, 0) + int(count)
        gmons = [o / "gmon.out" for o, _ in runs
                 if (o / "gmon.out").is_file()]
        if gmons:
            (out / "stacks.txt").write_text("".join(
                f"{k} {stacks[k]}\n" for k in sorted(stacks)))
            _gprof_sum(runs[0][1], image, gmons, out / "gmon.out")
        covered = {}
        for outputs, _ in runs:
            path = outputs / COVERAGE
            if path.is_file():
                coverage.add(covered, coverage.parse(path.read_text(),
                                                     str(path)))
        if covered:
            coverage.write(out / COVERAGE, covered)


def _gprof_sum(board_name, image, gmons, dest):
    """gprof -s of gmons (for image) into dest."""
    import subprocess
    import tempfile
    from perfcounter import boards
    from perfcounter.outputs import gprof
    tool = gprof.tool(boards.get(board_name))
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([tool, "-s", str(image)] +
                              [str(g) for g in gmons], cwd=tmp,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise Failure(f"{tool} -s failed: {proc.stderr.strip()}")
        data = bytearray((Path(tmp) / "gmon.sum").read_bytes())
    # gprof leaves the header's 12 spare bytes as its memory had them
    data[8:20] = bytes(12)
    Path(dest).write_bytes(bytes(data))
