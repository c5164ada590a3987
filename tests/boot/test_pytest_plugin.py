# SPDX-License-Identifier: MIT
"""The pytest plugin as a user runs it (examples/pytest/test_shell.py,
the example of docs/testing-your-firmware.md, against the shell): its
tests pass, with each step's counts in the results and JUnit; the same
results under two xdist workers and as two shards merged by
scripts/merge, byte for byte; budgets; the gate on a regression."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from perfcounter.paths import REPO

EXAMPLE = REPO / "examples" / "pytest" / "test_shell.py"
SCHEMA = REPO / "schemas" / "test-results.schema.json"
JUNIT_XSD = REPO / "schemas" / "vendor" / "junit-10.xsd"
MERGE = REPO / "scripts" / "merge"


def pytest_run(ctx, board, folder, *options, tests=EXAMPLE):
    """pytest with the plugin on the example's copy in folder; the
    process (results in folder/results)."""
    shutil.copy(tests, folder / "test_shell.py")
    env = dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib"))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "perfcounter.testing.plugin",
         "-p", "no:cacheprovider",
         f"--firmware={ctx.firmware(board, 'tests/firmware/shell.elf')}",
         "--board", board.name, "--perfcounter-results",
         str(folder / "results"), *options, "test_shell.py"],
        cwd=folder, env=env, stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=600)


def schema_errors(doc):
    import jsonschema
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    return [e.message for e in
            jsonschema.Draft7Validator(schema).iter_errors(doc)]


def files(folder):
    return {name: (folder / name).read_bytes()
            for name in ("results.json", "junit.xml")}


def test_the_example_passes_with_each_steps_counts(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        proc = pytest_run(ctx, board, tmp, "--junitxml", "pytest.xml")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        doc = json.loads((tmp / "results" / "results.json").read_text())
        xsd = subprocess.run(["xmllint", "--noout", "--schema",
                              str(JUNIT_XSD),
                              str(tmp / "results" / "junit.xml")],
                             capture_output=True, text=True)
        pytest_xml = (tmp / "pytest.xml").read_text()
        outputs = sorted(p.name for p in (tmp / "results" / "tests")
                         .iterdir())
    assert "3 passed" in proc.stdout
    assert xsd.returncode == 0, xsd.stderr
    assert not schema_errors(doc), schema_errors(doc)
    tests = doc["tests"]
    assert len(tests) == 3 and len(outputs) == 3
    for nodeid, test in tests.items():
        assert test["outcome"] == "passed" and test["board"] == board.name
        (name, step), = test["steps"].items()
        assert nodeid.split("[")[1].startswith(name)
        assert step["instructions"] > 0 and step["cycles"] > 0
        assert f'name="perfcounter.step.{name}.cycles" ' \
            f'value="{step["cycles"]}"' in pytest_xml


def test_xdist_and_shards_give_the_unsharded_results_byte_for_byte(
        ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        runs = {}
        for name, options in [("serial", ["--sample"]),
                              ("xdist", ["--sample", "-n", "2"]),
                              ("shard1", ["--sample", "--shard", "1/2"]),
                              ("shard2", ["--sample", "--shard", "2/2"])]:
            folder = tmp / name
            folder.mkdir()
            proc = pytest_run(ctx, board, folder, *options)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            runs[name] = folder / "results"
        merge = subprocess.run(
            [str(MERGE), str(tmp / "merged"), str(runs["shard1"]),
             str(runs["shard2"])], capture_output=True, text=True,
            timeout=300)
        assert merge.returncode == 0, merge.stderr
        serial, xdist, merged = (files(runs["serial"]), files(runs["xdist"]),
                                 files(tmp / "merged"))
        shard_sizes = [len(json.loads(files(runs[s])["results.json"])
                           ["tests"]) for s in ("shard1", "shard2")]
        profiles = [{p.relative_to(d): p.read_bytes()
                     for p in (d / "profile").rglob("*") if p.is_file()}
                    for d in (runs["serial"], tmp / "merged")]
    assert sorted(shard_sizes) == [1, 2]
    assert xdist == serial
    assert merged == serial
    assert profiles[0] and profiles[0] == profiles[1]


BUDGET = '''
import pytest


@pytest.mark.budget("fib", cycles=100)
def test_over_budget(dut):
    dut.expect("> ")
    with dut.step("fib"):
        dut.send_line("fib 20")
        dut.expect(r"6765\\r\\n")
'''


def test_a_budget_fails_the_test_that_exceeds_it(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "budget.py").write_text(BUDGET)
        proc = pytest_run(ctx, board, tmp, tests=tmp / "budget.py")
        doc = json.loads((tmp / "results" / "results.json").read_text())
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert not schema_errors(doc), schema_errors(doc)
    test, = doc["tests"].values()
    cycles = test["steps"]["fib"]["cycles"]
    assert test["outcome"] == "failed"
    assert test["message"] == f"fib took {cycles:,} cycles, over its " \
        f"budget of 100"


def test_the_gate_fails_a_step_that_got_slower(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        proc = pytest_run(ctx, board, tmp)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        baseline = json.loads((tmp / "results" / "results.json")
                              .read_text())
        nodeid = sorted(baseline["tests"])[0]
        step = next(iter(baseline["tests"][nodeid]["steps"].values()))
        step["cycles"] = step["cycles"] * 9 // 10     # it was 10% faster
        (tmp / "baseline.json").write_text(json.dumps(baseline))
        gate = subprocess.run(
            [str(MERGE), str(tmp / "merged"), str(tmp / "results"),
             "--baseline", str(tmp / "baseline.json")],
            capture_output=True, text=True, timeout=300,
            env={k: v for k, v in os.environ.items()
                 if k != "GITHUB_STEP_SUMMARY"})
    assert gate.returncode == 3, gate.stdout + gate.stderr
    assert "1 of" in gate.stdout and "**REGRESSED**" in gate.stdout
