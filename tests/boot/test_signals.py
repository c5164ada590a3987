# SPDX-License-Identifier: MIT
"""How a run ends when it is not the guest that ends it: SIGTERM,
SIGINT and SIGHUP to scripts/profile (alone, or to its process group as
a test runner or a terminal sends them) end the guest as --timeout
does, every output written and marked, the run directory removed, exit
128 + N; a QEMU that does not start is one line naming the cause."""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from bootlib import json_schema_errors as schema_errors
from perfcounter.outputs import gprof
from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"
TICKER = "tests/firmware/uart_ticker/uart_ticker.elf"


def interrupted(ctx, board, signum, group, tmp):
    """Run the ticker with every output asked for, send signum once it
    has ticked 100 times (to scripts/profile, to its whole process
    group, or with group "qemu" to its QEMU alone); the process, its
    stdout and stderr."""
    build = Path(tmp) / "build"
    proc = subprocess.Popen(
        [str(PROFILE), ctx.firmware(board, TICKER), "--board", board.name,
         "--sample", "--gmon", "gmon.out", "--stacks", "stacks.txt",
         "--json", "run.json", "--timeline", "timeline.json"],
        cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        env=dict(os.environ, PERF_COUNTER_BUILD=str(build)))
    name = signal.Signals(signum).name
    try:
        first = ""
        while "tick 100\n" not in first:     # 100 ms of its ticks
            line = proc.stdout.readline()
            assert line, first + proc.stderr.read()
            first += line
        if group == "qemu":
            qemu = int(subprocess.run(["pgrep", "-P", str(proc.pid)],
                                      capture_output=True, text=True).stdout)
            os.kill(qemu, signum)
        elif group:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            pytest.fail(f"scripts/profile did not end after {name}: "
                        f"{err}", pytrace=False)
    finally:
        proc.kill()
    assert not any((build / "runs").iterdir()), "the run directory is left"
    return proc, first + out, err


@pytest.mark.parametrize("signum, group", [
    (signal.SIGTERM, False), (signal.SIGINT, True), (signal.SIGHUP, False),
    (signal.SIGTERM, True)], ids=["TERM", "INT-group", "HUP", "TERM-group"])
def test_a_signal_ends_the_run_with_every_output_written(ctx, board, signum,
                                                          group):
    name = signal.Signals(signum).name
    with tempfile.TemporaryDirectory() as tmp:
        proc, out, err = interrupted(ctx, board, signum, group, tmp)
        written = {p.name: p.stat().st_size for p in Path(tmp).iterdir()
                   if p.is_file()}
        assert "run.json" in written, err
        doc = json.loads((Path(tmp) / "run.json").read_text())
    assert proc.returncode == 128 + signum, err
    assert {"gmon.out", "stacks.txt", "run.json", "timeline.json"} <= \
        set(written) and all(written.values()), written
    assert not schema_errors(doc), schema_errors(doc)
    assert doc["run"]["ended"] == "signal" and doc["run"]["signal"] == name
    assert doc["exit_code"] == 128 + signum and not doc["timed_out"]
    assert doc["run"]["instructions"] > 0
    assert f"run: cut short by {name}" in err, err
    assert f"profile (cut short by {name})" in err, err
    assert "ended by the guest" not in err and "terminating on" not in err
    assert "tick 100" in out


def ticking(ctx, board, folder):
    """scripts/profile running the ticker (--json run.json, in folder),
    once it has ticked 10 times: the process, and its QEMU's pid."""
    proc = subprocess.Popen(
        [str(PROFILE), ctx.firmware(board, TICKER), "--board", board.name,
         "--json", "run.json"], cwd=folder,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        while not proc.stdout.readline().startswith("tick 10"):
            assert proc.poll() is None, proc.stderr.read()
        return proc, int(subprocess.run(["pgrep", "-P", str(proc.pid)],
                                        capture_output=True,
                                        text=True).stdout)
    except BaseException:
        proc.kill()
        raise


def test_a_signal_to_qemu_alone_cuts_the_run_short_all_the_same(ctx, board):
    """SIGTERM aimed at QEMU alone (a kill of its own, or its parent's
    death): the run was cut short all the same, and says so: exit 143,
    every output written, --json's "ended" "signal", QEMU's line naming
    who sent it passed on.  (The run said the guest had ended it, exit
    0.)"""
    with tempfile.TemporaryDirectory() as tmp:
        proc, out, err = interrupted(ctx, board, signal.SIGTERM, "qemu", tmp)
        doc = json.loads((Path(tmp) / "run.json").read_text())
        written = {p.name for p in Path(tmp).iterdir() if p.is_file()}
    assert proc.returncode == 143, err
    assert {"gmon.out", "stacks.txt", "run.json", "timeline.json"} <= \
        written, written
    assert doc["run"]["ended"] == "signal" and \
        doc["run"]["signal"] == "SIGTERM", doc["run"]
    assert "run: cut short by SIGTERM" in err, err
    assert ": terminating on signal 15 from pid " in err, err
    assert "ended by the guest" not in err, err


def test_qemu_killed_by_sigkill_is_said_so(ctx, board, tmp_path):
    """SIGKILL to QEMU as the guest runs (a kill -9, the system's OOM
    killer): one line that says so, exit 1.  (It said "QEMU did not
    start the guest (exit code 137): no message".)"""
    proc, qemu = ticking(ctx, board, tmp_path)
    try:
        os.kill(qemu, signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 1, err
    assert err.splitlines()[-1] == "error: QEMU died of SIGKILL (a kill -9, " \
        "or the system ran out of memory): it wrote no counts, profile or " \
        "results", err
    assert "did not start" not in err, err


def test_a_qemu_that_outlives_sigterm_is_killed_and_said_so(ctx, board,
                                                            tmp_path):
    """A QEMU that does not stop on SIGTERM (here stopped with
    SIGSTOP, as a hung one) is killed after TERM_GRACE; the run says
    why it has no readout.  A QEMU stopped before it wrote one, but
    which did stop (a timeout of 1 ms, on firmware that never exits:
    the example could end first on a loaded host), is not said to be
    killed."""
    proc, qemu = ticking(ctx, board, tmp_path)
    try:
        os.kill(qemu, signal.SIGSTOP)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "no readout of the counters: QEMU was stopped before it could " \
        "write one (it did not stop within 5 s of SIGTERM and was killed)" \
        in err, err
    quick = subprocess.run([str(PROFILE), ctx.firmware(board, TICKER),
                            "--board", board.name,
                            "--timeout", "0.001"], cwd=tmp_path,
                           capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=60)
    assert quick.returncode == 124, quick.stderr
    assert "cut short by --timeout" in quick.stderr and \
        "was killed" not in quick.stderr, quick.stderr


def test_qemu_refusing_to_start_is_one_line_naming_the_cause(ctx, board):
    proc = subprocess.run([str(PROFILE), "--cycles", "--memory",
                           "no-such-part"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("error: QEMU did not start the guest (exit code "
                           "1): perfctr: bad argument 'memory=no-such-part'"
                           ), proc.stderr
    assert "run:" not in proc.stderr and "wrote no" not in proc.stderr
    # (nor QEMU's word that the plugin would not load: it said why)
    assert "Could not load plugin" not in proc.stderr, proc.stderr


def test_a_reader_gone_loses_no_output(ctx, board):
    """A runner that stops reading (closes its end of the pipe, as
    `| head` does): the run goes on without its stdout, the ticks the
    guest writes after are dropped, and every file output is written."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [str(PROFILE), ctx.firmware(board, TICKER), "--board",
             board.name, "--stop-after", "300ms", "--json", "run.json"],
            cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        try:
            while proc.stdout.readline() not in ("tick 10\n", ""):
                pass
            proc.stdout.close()
            err = proc.stderr.read()
            proc.wait(timeout=60)
        finally:
            proc.kill()
        doc = json.loads((Path(tmp) / "run.json").read_text())
    assert proc.returncode == 0, err
    assert "Broken" not in err and "Traceback" not in err, err
    assert doc["run"]["ended"] == "stop", doc["run"]
    assert doc["run"]["virtual_ns"] >= 300_000_000, doc["run"]


def test_a_signal_as_the_run_ends_loses_no_output(ctx, board):
    """SIGTERM once the guest has exited, while the outputs are being
    written (a runner's timeout racing the guest's exit): they are all
    written, the signal said in one line and in the exit status.  The
    --json file is a FIFO: scripts/profile waits at it, the signal
    surely in that window, until the test reads it."""
    with tempfile.TemporaryDirectory() as tmp:
        fifo = Path(tmp) / "run.json"
        os.mkfifo(fifo)
        proc = subprocess.Popen(
            [str(PROFILE), "--board", board.name, "--sample=exact",
             "--gmon", "gmon.out", "--json", fifo, "--timeline",
             "timeline.json"], cwd=tmp, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            err = ""
            while "] run: ended by the guest" not in err:
                line = proc.stderr.readline()
                assert line, err
                err += line
            proc.send_signal(signal.SIGTERM)
            doc = json.loads(fifo.read_text())
            out, rest = proc.communicate(timeout=60)
        finally:
            proc.kill()
        written = {p.name: p.stat().st_size for p in Path(tmp).iterdir()
                   if p.is_file()}
    err += rest
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert set(written) == {"gmon.out", "timeline.json"} and \
        all(written.values()), written
    assert doc["run"]["ended"] == "exit", doc["run"]
    assert err.splitlines()[-1] == ("[perf-counter] SIGTERM arrived once "
                                    "the run had ended: its outputs are all "
                                    "written"), err


def test_ctrl_c_while_gprof_runs_loses_no_output(ctx, board, tmp_path):
    """SIGINT to the whole process group (a terminal's Ctrl-C; a runner
    ending its job sends SIGTERM so) once the guest has exited, while
    gprof reads the profile: gprof runs in a process group of its own
    and finishes, every output is written.  gprof here is the board's,
    behind a script that waits until the signal has been sent."""
    real = shutil.which(gprof.tool(board))
    ready, go = tmp_path / "ready", tmp_path / "go"
    wrapper = tmp_path / "bin" / gprof.tool(board)
    wrapper.parent.mkdir()
    wrapper.write_text(f"#!/bin/sh\ntouch {ready}\n"
                       f"while [ ! -e {go} ]; do sleep 0.01; done\n"
                       f'exec {real} "$@"\n')
    wrapper.chmod(0o755)
    proc = subprocess.Popen(
        [str(PROFILE), "--board", board.name, "--sample", "--gmon",
         "gmon.out", "--json", "run.json"], cwd=tmp_path,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        env=dict(os.environ, PATH=f"{wrapper.parent}:{os.environ['PATH']}"))
    try:
        deadline = time.monotonic() + 300
        while not ready.exists() and proc.poll() is None and \
                time.monotonic() < deadline:
            time.sleep(0.01)
        assert ready.exists(), proc.communicate()[1]
        os.killpg(proc.pid, signal.SIGINT)
        go.touch()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signal.SIGINT, err
    assert "Flat profile:" in out and "main" in out, out + err
    assert "failed" not in err, err
    assert err.splitlines()[-1] == ("[perf-counter] SIGINT arrived once "
                                    "the run had ended: its outputs are all "
                                    "written"), err
    doc = json.loads((tmp_path / "run.json").read_text())
    assert doc["run"]["ended"] == "exit" and doc["exit_code"] == 0
    assert (tmp_path / "gmon.out").stat().st_size > 0
