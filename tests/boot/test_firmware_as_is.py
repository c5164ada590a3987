# SPDX-License-Identifier: MIT
"""Firmware as it is (tests/firmware/uart_ticker: its own startup, no
semihosting, output only on the UART, a 1 kHz tick, never exits)
profiled by scripts/profile on every board: its output shown, each kind
of stop exact and the same on every run, every output written when
--timeout cuts a run short, and a sampled profile that does not alias
with the tick."""

import json
import subprocess
import tempfile
from pathlib import Path

from perfcounter.boot import qemu_process
from perfcounter.paths import REPO

PER_BOARD = True
PROFILE = REPO / "scripts" / "profile"
TICKER = "tests/firmware/uart_ticker/uart_ticker.elf"
TICK_HZ = 1000


def profile(ctx, board, *args, cwd):
    image = ctx.firmware(board, TICKER)
    return subprocess.run(
        [str(PROFILE), "--board", board.name, *map(str, args), image],
        cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=300)


def ran(proc, status=0):
    assert proc.returncode == status, proc.stdout + proc.stderr
    return proc


def stacks_of(path):
    """{leaf function: count} of a collapsed stacks file."""
    leaves = {}
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        leaf = stack.rpartition(";")[2]
        leaves[leaf] = leaves.get(leaf, 0) + int(count)
    return leaves


def test_uart_output_is_shown_and_a_stop_at_a_symbol_ends_the_run(
        ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        proc = ran(profile(ctx, board, "--stop-at", "report:3", cwd=tmp))
    # report(300) has not run: the run stopped before its first instruction
    assert proc.stdout == "uart_ticker: started\ntick 100\ntick 200\n", \
        proc.stdout
    assert "run: stopped after the 3rd arrival at report;" in proc.stderr, \
        proc.stderr
    assert "cannot exit by itself" not in proc.stderr, proc.stderr


def test_console_option_sends_the_uart_to_a_file(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        console = Path(tmp) / "uart.txt"
        proc = ran(profile(ctx, board, "--stop-at", "report:2",
                           "--console", console, cwd=tmp))
        text = console.read_text()
    assert text == "uart_ticker: started\ntick 100\n", text
    assert "tick" not in proc.stdout, proc.stdout


def test_stops_are_exact_and_each_run_is_the_same(ctx, board):
    instructions = board.freq // 20             # 50 ms at one a clock
    stops = [("--stop-after", str(instructions)), ("--stop-after", "30ms"),
             ("--stop-at", "report:2")]
    with tempfile.TemporaryDirectory() as tmp:
        for stop in stops:
            runs = []
            for run in range(2):
                out = Path(tmp) / f"{run}"
                out.mkdir(exist_ok=True)
                proc = ran(profile(ctx, board, *stop, "--sample",
                                   "--gmon", "gmon.out", "--stacks",
                                   "stacks.txt", "--json", "run.json",
                                   cwd=out))
                doc = json.loads((out / "run.json").read_text())
                runs.append((proc.stdout, (out / "gmon.out").read_bytes(),
                             (out / "stacks.txt").read_text(), doc["run"],
                             doc["cores"]))
            assert runs[0] == runs[1], stop
            run = runs[0][3]
            assert run["ended"] == "stop", run
            if stop[1] == str(instructions):
                assert run["instructions"] == instructions, run
            if stop[1] == "30ms":
                assert run["virtual_ns"] == 30_000_000, run
            # nothing waits: every clock is an instruction
            assert run["virtual_ns"] == run["instructions"] << \
                board.icount_shift, run


def test_a_stop_in_estimated_cycles_is_exact(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        proc = profile(ctx, board, "--cycles", "--stop-after", "200kcycles",
                       cwd=tmp)
    if not board.cycle_model:
        assert proc.returncode == 1 and "no cycle model" in proc.stderr, \
            proc.stderr
        return
    ran(proc)
    assert "run: stopped after 200,000 cycles;" in proc.stderr, proc.stderr
    # the stop follows the instruction that reached the count
    cycles = int(proc.stdout.split("cycles: ")[1].split()[0])
    assert 200_000 <= cycles < 200_000 + 40, proc.stdout


def cycles_and_instructions(ctx, board, *stop, cwd):
    """A --cycles run's estimated cycles and instructions at stop."""
    proc = ran(profile(ctx, board, "--cycles", *stop, "--json", "run.json",
                       cwd=cwd))
    run = json.loads((Path(cwd) / "run.json").read_text())["run"]
    return int(proc.stdout.split("cycles: ")[1].split()[0]), \
        run["instructions"]


def test_cycles_to_a_stop_in_instructions_grow_with_it(ctx, board):
    """Estimated cycles at --stop-after N, for consecutive N: each stop
    ends after exactly N instructions and adds the next instruction's
    cycles to the last, never less (the stop does not change where
    blocks end before it)."""
    if not board.cycle_model:
        return
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(2_999_994, 3_000_007):
            cycles, instructions = cycles_and_instructions(
                ctx, board, "--stop-after", n, cwd=tmp)
            assert instructions == n
            counts.append(cycles)
    steps = [b - a for a, b in zip(counts, counts[1:])]
    assert all(0 <= step < 40 for step in steps), (counts, steps)


def test_a_stop_in_instructions_counts_as_a_stop_at_a_symbol(ctx, board):
    """A stop after the instructions a stop at report:3 ran ends at the
    same instruction with the same estimated cycles."""
    if not board.cycle_model:
        return
    with tempfile.TemporaryDirectory() as tmp:
        at = cycles_and_instructions(ctx, board, "--stop-at", "report:3",
                                     cwd=tmp)
        after = cycles_and_instructions(ctx, board, "--stop-after", at[1],
                                        cwd=tmp)
    assert at == after


def test_a_stop_at_a_symbol_counts_every_cycle_before_it(ctx, board):
    """The cycles to the stop at report:2, given as a stop in cycles,
    end the run at the same instruction: no cost of the instructions
    before the stop was left out (or added twice)."""
    if not board.cycle_model:
        return
    with tempfile.TemporaryDirectory() as tmp:
        at = ran(profile(ctx, board, "--cycles", "--stop-at", "report:2",
                         "--json", "at.json", cwd=tmp))
        cycles = int(at.stdout.split("cycles: ")[1].split()[0])
        after = ran(profile(ctx, board, "--cycles", "--stop-after",
                            f"{cycles}cycles", "--json", "after.json",
                            cwd=tmp))
        runs = [json.loads((Path(tmp) / f).read_text())["run"]
                for f in ("at.json", "after.json")]
    assert runs[0]["instructions"] == runs[1]["instructions"], runs
    assert f"cycles: {cycles} " in after.stdout, after.stdout


def test_a_timeout_still_writes_every_output(ctx, board):
    files = {"--stacks": "stacks.txt", "--flamegraph": "flame.svg",
             "--speedscope": "speedscope.json", "--json": "run.json",
             "--timeline": "timeline.json", "--gmon": "gmon.out"}
    with tempfile.TemporaryDirectory() as tmp:
        args = [a for option, name in files.items() for a in (option, name)]
        proc = ran(profile(ctx, board, "--timeout", "2", "--sample", *args,
                           cwd=tmp), qemu_process.TIMEOUT_EXIT)
        for name in files.values():
            assert (Path(tmp) / name).stat().st_size > 0, name
        doc = json.loads((Path(tmp) / "run.json").read_text())
        leaves = stacks_of(Path(tmp) / "stacks.txt")
    assert "uart_ticker: started\ntick 100\n" in proc.stdout, proc.stdout
    assert "cut short by --timeout" in proc.stderr, proc.stderr
    assert doc["run"]["ended"] == "timeout" and doc["timed_out"], doc["run"]
    assert doc["run"]["instructions"] > 0, doc["run"]
    assert leaves.get("tick_handler") and leaves.get("background_work"), \
        leaves


def test_sampling_does_not_alias_with_the_tick(ctx, board):
    """The sampling period divides the tick's: periodic samples would
    fall at the same place of every tick, in the handler always or
    never.  The sampled share of the handler is within a point of its
    exact share (3%)."""
    period = board.freq // TICK_HZ // 10
    shares = []
    with tempfile.TemporaryDirectory() as tmp:
        for sample in ("exact", str(period)):
            ran(profile(ctx, board, "--stop-after", "300ms",
                        f"--sample={sample}", "--stacks", "stacks.txt",
                        cwd=tmp))
            leaves = stacks_of(Path(tmp) / "stacks.txt")
            shares.append(100 * leaves["tick_handler"] /
                          sum(leaves.values()))
    exact, sampled = shares
    assert 2.5 < exact < 3.5, shares
    assert abs(sampled - exact) <= 1.0, shares


def test_the_profile_can_start_at_a_symbol(ctx, board):
    """--start-at leaves what ran before out: from the first report to
    the second, the profile covers 100 ticks, not the run."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = ran(profile(ctx, board, "--stop-at", "report:2",
                           "--start-at", "report", "--sample=exact",
                           "--stacks", "stacks.txt", "--json", "run.json",
                           cwd=tmp))
        doc = json.loads((Path(tmp) / "run.json").read_text())
        leaves = stacks_of(Path(tmp) / "stacks.txt")
    covered = int(proc.stderr.split("profile: ")[1].split()[0])
    assert covered == sum(leaves.values()), (covered, leaves)
    assert covered < doc["run"]["instructions"], (covered, doc["run"])
    per_tick = board.freq // TICK_HZ
    assert abs(covered - 100 * per_tick) < per_tick, (covered, per_tick)
    assert "profiled from the first arrival at report" in proc.stderr


def test_a_ci_gate_works_on_firmware_that_never_exits(ctx, board):
    """--baseline on a run a stop ended: the instructions to the stop
    are a value of the gate, same on a second run, a regression against
    a baseline that took 1% fewer."""
    with tempfile.TemporaryDirectory() as tmp:
        stop = ("--stop-at", "report:2")
        ran(profile(ctx, board, *stop, "--json", "base.json", cwd=tmp))
        same = ran(profile(ctx, board, *stop, "--baseline", "base.json",
                           "--junit", "gate.xml", cwd=tmp))
        assert "<testsuite" in (Path(tmp) / "gate.xml").read_text()
        doc = json.loads((Path(tmp) / "base.json").read_text())
        doc["run"]["instructions"] = doc["run"]["instructions"] * 99 // 100
        (Path(tmp) / "faster.json").write_text(json.dumps(doc))
        slower = profile(ctx, board, *stop, "--baseline", "faster.json",
                         cwd=tmp)
    row = [line for line in same.stdout.splitlines()
           if "(run to the stop)" in line]
    assert len(row) == 1 and "| +0 | +0.00% |" in row[0], same.stdout
    assert slower.returncode == 3, slower.stdout + slower.stderr
    assert "regression against faster.json: (run to the stop) " \
        "instructions (run)" in slower.stderr, slower.stderr
