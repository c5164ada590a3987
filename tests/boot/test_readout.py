# SPDX-License-Identifier: MIT
"""The host's readout of every core (the device's report-file, written
when QEMU exits) against what the guest itself prints, on every board;
firmware that prints nothing still gets its report from the host, and
a guest that hangs gets the partial readout of what it had counted when
its timeout stopped QEMU (SIGTERM, so that QEMU writes it)."""

import json
import re
import subprocess
import tempfile
from pathlib import Path

from perfcounter.boot import qemu_process
from perfcounter.results import readout
from bootlib import (HANGS_IN_A_SECTION, empty_section_clocks,
                     empty_section_most, expect_exit, run_image)
from perfcounter.paths import REPO

PER_BOARD = True
PROFILE = REPO / "scripts" / "profile"

# Prints nothing: no semihosting output, only the exit through crt0
SILENT = """\
#include "system.h"
#include "altera_avalon_performance_counter.h"

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;

    PERF_RESET(p);
    PERF_START_MEASURING(p);
    PERF_BEGIN(p, 2);
    PERF_END(p, 2);
    PERF_BEGIN(p, 2);
    PERF_END(p, 2);
    PERF_STOP_MEASURING(p);
    return 0;
}
"""


def guest_blocks(text):
    """The report tables the guest printed, as text."""
    blocks = re.findall(r"^--Performance Counter Report--\n"
                        r"Total Time:.*\n(?:[|+].*\n)+", text, re.M)
    assert blocks, "the guest printed no report:\n" + text
    return blocks


def boot_with_readout(ctx, board, example):
    result = run_image(ctx, board, f"firmware/examples/{example}.elf")
    expect_exit(result)
    cores = result.cores
    assert len(cores) == len(board.counters), (
        f"{len(cores)} readouts for {len(board.counters)} cores")
    return result.output, cores


def check_equal(ctx, board, example):
    output, cores = boot_with_readout(ctx, board, example)
    unmatched = readout.match_guest_reports(cores, output)
    assert not unmatched, (
        f"reports of the guest that match no core's readout: {unmatched}; "
        f"readouts: {cores}")
    blocks = guest_blocks(output)
    reported = [c for c in cores if c.reported]
    assert len(reported) == len(blocks), (
        f"{len(blocks)} reports printed, {len(reported)} cores matched")
    for block in blocks:
        rows = len(re.findall(r"^\|(?! Section)", block, re.M))
        texts = [readout.format_report(c, rows) for c in reported]
        assert block in texts, (
            "the host readout printed as a report differs from the "
            f"guest's:\n{block}\nhost:\n" + "\n".join(texts))


def test_host_readout_equals_guest_report(ctx, board):
    check_equal(ctx, board, "checksum")


def test_host_readout_equals_guest_reports_of_two_cores(ctx, board):
    check_equal(ctx, board, "two_cores")


def test_host_readout_counts_instructions_under_icount(ctx, board):
    _, cores = boot_with_readout(ctx, board, "checksum")
    core = cores[0]
    assert core.icount, "the readout says QEMU ran without -icount"
    assert core.clock_hz == board.freq
    # Busy code: one clock per instruction
    for s in core.sections[:3]:
        assert s.instructions == s.clocks, (
            f"section {s.number}: {s.instructions} instructions, "
            f"{s.clocks} clocks")
    assert core.sections[1].clocks == empty_section_clocks(board), \
        core.sections[1]


def test_silent_firmware_gets_its_report_from_the_host(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        main = Path(tmp) / "silent.c"
        main.write_text(SILENT)
        proc = subprocess.run([str(PROFILE), "--board", board.name, main],
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    base = board.counters[0][0]
    lines = proc.stdout.splitlines()
    assert lines[0] == (f"[perf-counter] host readout of the core at "
                        f"{base:#010x} (the guest printed none):"), \
        proc.stdout
    assert lines[1] == "--Performance Counter Report--", proc.stdout
    # An empty section ran twice (each its clock, or on Armv6-M up to
    # two: where GCC put the literal loads; on AArch64 what it scheduled
    # between the stores)
    m = re.search(r"^\|section 2 +\| *[0-9.e-]+\| *[0-9.]+\| +(\d+)\| +2\|$",
                  proc.stdout, re.M)
    assert m and 2 <= int(m[1]) <= 2 * empty_section_most(board), \
        proc.stdout
    assert re.search(r"^\|section 1 +\| +0\| +0\.00000\| +0\| +0\|$",
                     proc.stdout, re.M), proc.stdout
    # Nothing of the second core, which counted nothing
    assert proc.stdout.count("host readout") == 1, proc.stdout


def profile_hanging(board, program, tmp):
    """scripts/profile of a guest that never exits, stopped after 3 s;
    its --json document."""
    out = Path(tmp) / "run.json"
    proc = subprocess.run([str(PROFILE), "--board", board.name, "--timeout",
                           "3", "--json", out, program], cwd=tmp,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == qemu_process.TIMEOUT_EXIT, proc.stdout + proc.stderr
    assert "did not finish within 3" in proc.stderr, proc.stderr
    assert "no readout" not in proc.stderr, proc.stderr
    # QEMU's word on the SIGTERM that stopped it is ours: not shown
    assert "terminating on signal" not in proc.stderr, proc.stderr
    doc = json.loads(out.read_text())
    assert doc["timed_out"] is True and doc["exit_code"] == \
        qemu_process.TIMEOUT_EXIT, doc
    assert [c["base"] for c in doc["cores"]] == \
        [base for base, _ in board.counters], doc["cores"]
    return proc, doc


def test_hanging_guest_gets_its_partial_readout(ctx, board):
    image = ctx.firmware(board, "tests/firmware/hang.elf")
    with tempfile.TemporaryDirectory() as tmp:
        proc, doc = profile_hanging(board, image, tmp)
    assert "hanging" in proc.stdout
    # hang.c never touches the counter: no table of zeros
    assert all(c["global"]["clocks"] == 0 for c in doc["cores"])
    assert "host readout" not in proc.stdout, proc.stdout
    assert doc["run"]["ended"] == "timeout", doc["run"]


def test_partial_readout_counts_until_the_stop(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        main = Path(tmp) / "hangs.c"
        main.write_text(HANGS_IN_A_SECTION)
        proc, doc = profile_hanging(board, main, tmp)
    core = doc["cores"][0]
    one, two = core["sections"][:2]
    assert one["occurrences"] == two["occurrences"] == 1, core
    assert 0 < one["clocks"] < 100, one
    # Section 2 was still open: counted up to the stop, seconds of it
    assert two["clocks"] > 1_000_000, two
    assert core["global"]["clocks"] >= one["clocks"] + two["clocks"]
    row = re.search(r"^\|section 2 +\| *[0-9.e-]+\| *[0-9.]+\| +(\d+)\| +1\|$",
                    proc.stdout, re.M)
    assert row and int(row.group(1)) == two["clocks"], proc.stdout
