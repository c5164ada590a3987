# SPDX-License-Identifier: MIT
"""The pytest plugin as a user runs it (examples/pytest/test_shell.py,
the example of docs/testing-your-firmware.md, against the shell): its
tests pass, with each step's counts in the results and JUnit; the same
results under two xdist workers and as two shards merged by
scripts/merge, byte for byte; budgets; the gate on a regression."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perfcounter.outputs import coverage
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
        runs = [json.loads((tmp / "results" / "tests" / o / "run.json")
                           .read_text()) for o in outputs]
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
        # every event, the timing model's too
        assert step["calls"] > 0 and step["loads"] > 0
        assert step["memory_stalls"] > 0
        for count in ("cycles", "calls"):
            assert f'name="perfcounter.step.{name}.{count}" ' \
                f'value="{step[count]}"' in pytest_xml
    # each step's own functions (their cycles): where its cycles went
    for run in runs:
        (step,) = run["steps"].values()
        assert sum(f["cycles"] for f in step["functions"]) == step["cycles"]


def sessions(ctx, board, tmp, option, *more):
    """The results folders of the example run with option serially, more
    ways ((name, options)), as two shards, and the shards merged by
    scripts/merge (name "merged")."""
    runs = {}
    for name, options in [("serial", []), *more,
                          ("shard1", ["--shard", "1/2"]),
                          ("shard2", ["--shard", "2/2"])]:
        folder = tmp / name
        folder.mkdir()
        proc = pytest_run(ctx, board, folder, option, *options)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        runs[name] = folder / "results"
    merge = subprocess.run(
        [str(MERGE), str(tmp / "merged"), str(runs["shard1"]),
         str(runs["shard2"])], capture_output=True, text=True,
        timeout=300)
    assert merge.returncode == 0, merge.stderr
    runs["merged"] = tmp / "merged"
    return runs


def test_xdist_and_shards_give_the_unsharded_results_byte_for_byte(
        ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        runs = sessions(ctx, board, tmp, "--sample", ("xdist", ["-n", "2"]))
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


@pytest.mark.budget("fib", cycles=100, calls=1)
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
    calls = test["steps"]["fib"]["calls"]
    assert test["outcome"] == "failed"
    assert test["message"] == f"fib took {calls:,} calls, over its " \
        f"budget of 1; fib took {cycles:,} cycles, over its budget of 100"


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


# The programs print by semihosting, not on a UART: the run's output
BIG_TEST = """
def test_big(dut):
    result = dut.wait()
    assert result.exit_code == 0 and "big 1 7" in result.output
"""

ZCMP_TEST = """
import pytest


@pytest.mark.firmware(cpu="rv32,zcd=off,zcmp=on")
def test_with_zcmp(dut):
    result = dut.wait()
    assert result.exit_code == 0 and "zcmp 42" in result.output


def test_without(dut):
    result = dut.wait()
    assert result.exit_code == 0 and "zcmp 42" in result.output
"""


def plugin_command(folder, image, board, *options):
    """pytest with the plugin on folder's test_it.py: its argv and
    environment (results in folder/results)."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib"))
    return [sys.executable, "-m", "pytest", "-p", "perfcounter.testing.plugin",
            "-p", "no:cacheprovider", f"--firmware={image}", "--board", board,
            "--perfcounter-results", str(folder / "results"), *options,
            "test_it.py"], env


def plugin_run(folder, image, board, *options, tests):
    (folder / "test_it.py").write_text(tests)
    argv, env = plugin_command(folder, image, board, *options)
    return subprocess.run(argv, cwd=folder, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=600)


def signal_once(proc, flag, signum, poll=0.05, timeout=120, group=True):
    """signum to proc's process group (or, group false, to proc alone)
    once flag (a file its test writes) exists; what the session
    printed.  proc.ended_in: the seconds from the signal to its end."""
    for _ in range(round(60 / poll)):
        if flag.exists():
            break
        time.sleep(poll)
    sent = time.monotonic()
    if group:
        os.killpg(proc.pid, signum)
    else:
        os.kill(proc.pid, signum)
    output = proc.communicate(timeout=timeout)[0]
    proc.ended_in = time.monotonic() - sent
    return output


def plugin_group(folder, image, board, *options, **popen):
    """plugin_command's pytest started in a process group of its own
    (for a signal to it), its output piped."""
    argv, env = plugin_command(folder, image, board, *options)
    return subprocess.Popen(argv, cwd=folder, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, **popen)


def test_qemu_arguments_and_the_image_check(ctx):
    """--qemu-arg gives the micro:bit the RAM an image was linked for
    (tests/boot/test_inputs.py's), which the image check refuses
    without it, naming the option; --no-image-check boots it anyway."""
    from test_inputs import BIG_BSS
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "big.c").write_text(BIG_BSS)
        subprocess.run([str(REPO / "scripts" / "profile"), "--board",
                        "microbit", "big.c", "-o", "big.elf",
                        "--ldflags=-Wl,--defsym=__ram_size=0x10000"],
                       cwd=tmp, stdin=subprocess.DEVNULL,
                       capture_output=True)
        refused = plugin_run(tmp, tmp / "big.elf", "microbit",
                             tests=BIG_TEST)
        ram = ["--qemu-arg=-global",
               "--qemu-arg=nrf51-soc.sram-size=0x10000"]
        ran = plugin_run(tmp, tmp / "big.elf", "microbit", *ram,
                         tests=BIG_TEST)
        unchecked = plugin_run(tmp, tmp / "big.elf", "microbit", *ram,
                               "--no-image-check", tests=BIG_TEST)
    assert refused.returncode == 1, refused.stdout
    assert "nrf51-soc.sram-size" in refused.stdout
    assert "Traceback" not in refused.stdout
    assert refused.stdout.count("nrf51-soc.sram-size=0x10000 (") == 1
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert unchecked.returncode == 0, unchecked.stdout + unchecked.stderr


def test_a_qemu_that_refuses_to_start_fails_the_test_at_once(ctx, board):
    """QEMU refusing its command line (--qemu-arg=-bogus): the test
    errors at once with one line naming the cause, not after its
    --firmware-timeout.  (The dut waited that long, 60 s by default,
    then said "OSError: [Errno 9] Bad file descriptor" under a
    traceback.)"""
    image = ctx.firmware(board, "tests/firmware/shell.elf")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        proc = plugin_run(tmp, image, board.name, "--firmware-timeout=3600",
                          "--qemu-arg=-bogus", tests=BIG_TEST)
        left = sorted(p.name for p in (tmp / "results" / "tests").iterdir())
    assert proc.returncode == 1, proc.stdout
    assert "\nQEMU did not start the guest: qemu-system-" in proc.stdout
    assert ": -bogus: invalid option\n" in proc.stdout
    assert "Traceback" not in proc.stdout and "Error" not in proc.stdout
    assert left == []       # no run, no outputs


def test_a_marker_gives_a_test_its_cpu(ctx):
    """firmware(cpu=...) runs Zcmp code (tests/boot/test_cpu.py's) on
    riscv32-virt; the test without it meets the illegal instruction."""
    from test_cpu import SOURCES
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run([str(REPO / "scripts" / "profile"), "--board",
                        "riscv32-virt", *map(str, SOURCES), "-o",
                        "zcmp.elf"], cwd=tmp, stdin=subprocess.DEVNULL,
                       capture_output=True)
        proc = plugin_run(tmp, tmp / "zcmp.elf", "riscv32-virt",
                          "-rA", tests=ZCMP_TEST)
    assert proc.returncode == 1, proc.stdout
    assert "PASSED test_it.py::test_with_zcmp" in proc.stdout, proc.stdout
    assert "FAILED test_it.py::test_without" in proc.stdout, proc.stdout


def test_coverage_per_test_summed_and_merged(ctx, board):
    """--firmware-coverage: each test's LCOV, their sum per image equal
    to lcov -a's of them, and two shards merged by scripts/merge giving
    the serial session's sum byte for byte."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        runs = sessions(ctx, board, tmp, "--firmware-coverage")
        each = sorted((runs["serial"] / "tests").glob("*/coverage.info"))
        summed, = (runs["serial"] / "profile").glob("*/coverage.info")
        merged, = (tmp / "merged" / "profile").glob("*/coverage.info")
        args = [a for path in each for a in ("-a", str(path))]
        subprocess.run(["lcov", "-q", "--rc", "lcov_branch_coverage=1",
                        *args, "-o", str(tmp / "lcov.info")], check=True,
                       capture_output=True)
        ours, theirs = summed.read_text(), (tmp / "lcov.info").read_text()
        same = merged.read_bytes() == summed.read_bytes()
        steps = {p.name: coverage.parse(p.read_text()) for p in
                 (runs["serial"] / "tests").glob("*/coverage.*.info")}
    assert len(each) == 3
    assert same
    # each step's own: fib's body ran in the fib step, not in crc's
    source = (REPO / "tests/firmware/shell/shell.c").read_text().splitlines()
    start = next(n for n, text in enumerate(source, 1)
                 if text.startswith("static unsigned long long fib("))
    end = next(n for n in range(start, len(source))
               if source[n - 1] == "}")
    ran = {}
    for name in ("fib", "crc"):
        (file, c), = [(f, c) for f, c in steps[f"coverage.{name}.info"]
                      .items() if f.endswith("shell.c")]
        ran[name] = {n for n, count in c.lines.items()
                     if start < n < end and count}
    assert ran["fib"] and not ran["crc"]
    assert coverage.parse(ours) == coverage.parse(theirs)
    assert any(n for c in coverage.parse(ours).values()
               for n in c.lines.values())



READ_AHEAD = """
import glob, hashlib, time

from perfcounter.target import image_cache


def test_the_lines_are_read_while_it_runs(dut):
    dut.expect("> ")
    sha = hashlib.sha256(dut.config.target.path.read_bytes()).hexdigest()
    kept = str(image_cache.DIR / f"{sha}-*-lines.json")
    for _ in range(600):
        if glob.glob(kept):
            break
        time.sleep(0.05)
    assert glob.glob(kept), "not read while the test ran"
    dut.send_line("fib 20")
    dut.expect("6765")
"""


def test_coverage_reads_the_image_while_the_test_runs(ctx, board):
    """--firmware-coverage: the image's source lines and branches, a
    first test's 0.3 to 1.1 s of pyelftools and objdump, are read while
    it runs (here: while the firmware waits for input), not once it has
    ended (the image copied with bytes of its own appended: one the
    cache has not seen)."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        image = tmp / "shell.elf"
        image.write_bytes(ctx.firmware(board, "tests/firmware/shell.elf")
                          .read_bytes() + os.urandom(16))
        proc = plugin_run(tmp, image, board.name, "--firmware-coverage",
                          tests=READ_AHEAD)
        info = (tmp / "results" / "tests" / "test_it.py_test_the_lines_are"
                "_read_while_it_runs" / "coverage.info").read_text()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "shell.c" in info and "BRDA:" in info


CUT_SHORT = '''
from pathlib import Path


def test_answers(dut):
    dut.expect("> ")
    dut.send_line("fib 20")
    dut.expect(r"6765\\r\\n")


def test_waits_for_ever(dut):
    dut.expect("> ")
    Path("waiting").write_text("")
    dut.expect("never printed", timeout=1000)
'''


def _default_sigint():
    # A shell runs a background job with SIGINT ignored (CI's, say), and
    # Python then leaves it ignored: pytest would not see Ctrl-C
    signal.signal(signal.SIGINT, signal.SIG_DFL)


NO_FIRMWARE = '''
import time
from pathlib import Path


def test_passes():
    pass


def test_sleeps():
    Path("waiting").write_text("")
    time.sleep(120)
'''


def test_a_session_without_firmware_is_left_as_it_would_be(ctx, board):
    """The plugin is loaded in every pytest session of an environment
    that installs the package: one that boots no firmware, alone or
    under two xdist workers, ends on SIGTERM as it would without it
    (killed by the signal, not exit 143 after teardowns), and neither it
    nor a session that passes writes or removes results (an earlier
    firmware session's stay).  (It took SIGTERM, wrote results.json
    with "cut_short" in the working directory, and removed an earlier
    session's results at its start.)"""
    env = dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib"))
    for workers in ([], ["-n", "2"]):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "test_it.py").write_text(NO_FIRMWARE)
            earlier = tmp / "perfcounter-results"
            (earlier / "tests" / "test_fw.py_test_x").mkdir(parents=True)
            (earlier / "results.json").write_text("{}\n")
            command = [sys.executable, "-m", "pytest", "-p",
                       "perfcounter.testing.plugin", "-p",
                       "no:cacheprovider", *workers, "test_it.py"]
            passed = subprocess.run(command + ["-k", "passes"], cwd=tmp,
                                    env=env, stdin=subprocess.DEVNULL,
                                    capture_output=True, text=True)
            proc = subprocess.Popen(
                command + ["-k", "sleeps"], cwd=tmp, env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, start_new_session=True)
            for _ in range(1200):
                if (tmp / "waiting").exists():
                    break
                time.sleep(0.05)
            time.sleep(0.5)
            os.killpg(proc.pid, signal.SIGTERM)
            output, _ = proc.communicate(timeout=60)
            left = sorted(str(p.relative_to(tmp)) for p in
                          earlier.rglob("*"))
        assert passed.returncode == 0, passed.stdout + passed.stderr
        assert proc.returncode == -signal.SIGTERM, f"{workers}: {output}"
        assert left == ["perfcounter-results/results.json",
                        "perfcounter-results/tests",
                        "perfcounter-results/tests/test_fw.py_test_x"], \
            f"{workers}: {left}"


def test_a_signal_cuts_the_session_short_its_results_written(ctx, board):
    """A CI runner's time limit: SIGTERM to pytest's process group while
    a test waits for its firmware, alone and under two xdist workers
    (the tests of a file on one, in order), and to xdist's controller
    alone (as a container's stop sends it to pytest as its first
    process); and Ctrl-C (SIGINT, pytest's own).  pytest exits 143 (2
    on SIGINT); the test that ended is in results.json (valid,
    "cut_short" naming the signal and the test it cut short) and in
    junit.xml; nothing of the group is left running; scripts/merge of
    the results says the test did not end, exit 1.  (SIGTERM: pytest
    died at once, no results at all; SIGINT: results that looked
    whole; the controller alone: its workers ran on, the cut test's
    outputs were lost and the session took 10 s more to end.)"""
    image = ctx.firmware(board, "tests/firmware/shell.elf")
    xdist = ["-n", "2", "--dist", "loadfile"]
    for sent, workers, code, group in [
            (signal.SIGTERM, [], 143, True),
            (signal.SIGTERM, xdist, 143, True),
            (signal.SIGTERM, xdist, 143, False),
            (signal.SIGINT, [], 2, True)]:
        case = f"{sent.name} {workers} {'group' if group else 'controller'}"
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "test_it.py").write_text(CUT_SHORT)
            stale = tmp / "results" / "tests" / "test_it.py_test_gone"
            stale.mkdir(parents=True)   # an earlier session's test
            proc = plugin_group(tmp, image, board.name, *workers,
                                preexec_fn=_default_sigint)
            output = signal_once(proc, tmp / "waiting", sent, group=group)
            time.sleep(0.5)
            try:
                os.killpg(proc.pid, 0)
                left = True
            except ProcessLookupError:
                left = False
            doc = json.loads((tmp / "results" / "results.json").read_text())
            junit = (tmp / "results" / "junit.xml").read_text()
            cut = tmp / "results" / "tests" / \
                "test_it.py_test_waits_for_ever" / "run.json"
            outputs = (stale.exists(), cut.exists())
            merge = subprocess.run([str(MERGE), str(tmp / "merged"),
                                    str(tmp / "results")],
                                   capture_output=True, text=True)
        assert proc.returncode == code, f"{case}: {output}"
        assert proc.ended_in < 5, \
            f"{case}: the session ended {proc.ended_in:.1f} s after it"
        assert not left, f"{case}: part of the session still runs"
        assert not schema_errors(doc), schema_errors(doc)
        assert doc["cut_short"] == {
            "signal": sent.name,
            "tests": ["test_it.py::test_waits_for_ever"]}, case
        assert list(doc["tests"]) == ["test_it.py::test_answers"], case
        assert doc["tests"]["test_it.py::test_answers"]["outcome"] == \
            "passed", case
        assert 'name="test_answers"' in junit, case
        # the earlier session's test's outputs gone, the cut test's kept
        assert outputs == (False, True), f"{case}: {outputs}"
        assert merge.returncode == 1 and f"[perf-counter] cut short by " \
            f"{sent.name}: test_it.py::test_waits_for_ever did not end\n" \
            in merge.stderr, f"{case}: {merge.stderr}"


ANSWERED = """
from pathlib import Path


def test_answers(dut):
    dut.expect("> ")
    dut.send_line("fib 20")
    dut.expect(r"6765\\r\\n")
    Path("answered").write_text("")


def test_waits_for_ever(dut):
    dut.expect("> ")
    dut.expect("never printed", timeout=1000)
"""


def test_a_signal_as_a_test_ends_loses_nothing(ctx, board):
    """SIGTERM to the group just as a test's body has ended, when its
    dut writes its outputs, alone and under two xdist workers, and
    Ctrl-C (SIGINT, pytest's KeyboardInterrupt) alone: they are
    written whole all the same, and the test is in results.json either
    as it ended (the signal waited for its outputs, and xdist's
    controller for its report) or cut short, never neither.  (Its folder
    was left empty: the signal ended the fixture's teardown.)"""
    image = ctx.firmware(board, "tests/firmware/shell.elf")
    test = "test_it.py::test_answers"
    for sent, workers, code in [
            (signal.SIGTERM, [], 143),
            (signal.SIGTERM, ["-n", "2", "--dist", "loadfile"], 143),
            (signal.SIGINT, [], 2)]:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "test_it.py").write_text(ANSWERED)
            proc = plugin_group(tmp, image, board.name, *workers,
                                preexec_fn=_default_sigint)
            output = signal_once(proc, tmp / "answered", sent, poll=0.001)
            doc = json.loads((tmp / "results" / "results.json").read_text())
            run = tmp / "results" / "tests" / "test_it.py_test_answers" / \
                "run.json"
            ran = json.loads(run.read_text()) if run.exists() else None
        assert proc.returncode == code, f"{workers}: {output}"
        assert ran and ran["cores"], f"{sent.name} {workers}: {ran}"
        assert (test in doc["tests"]) != (test in doc["cut_short"]["tests"]),\
            f"{workers}: {doc}"
        if test in doc["tests"]:
            assert doc["tests"][test]["outcome"] == "passed", workers


HANGS = """
import time
from pathlib import Path

import pytest


@pytest.fixture
def hangs():
    yield
    Path("tearing-down").write_text("")
    time.sleep(600)


def test_hangs_at_its_end(dut, hangs):
    dut.expect("> ")
"""


def test_a_teardown_that_hangs_defers_a_signal_only_so_long(ctx, board):
    """A signal during a test's teardown waits for it (the dut's outputs
    written whole), but not for a teardown that hangs: after
    signals.DEFER_LIMIT the session ends all the same, exit 143, its
    results written (the test cut short)."""
    from perfcounter.testing.signals import DEFER_LIMIT
    image = ctx.firmware(board, "tests/firmware/shell.elf")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "test_it.py").write_text(HANGS)
        proc = plugin_group(tmp, image, board.name)
        output = signal_once(proc, tmp / "tearing-down", signal.SIGTERM,
                             timeout=DEFER_LIMIT + 60)
        doc = json.loads((tmp / "results" / "results.json").read_text())
        ran = (tmp / "results" / "tests" / "test_it.py_test_hangs_at_its_end"
               / "run.json").exists()
    assert proc.returncode == 143, output
    assert doc["cut_short"] == {"signal": "SIGTERM",
                                "tests": ["test_it.py::test_hangs_at_its_end"]}
    assert ran
