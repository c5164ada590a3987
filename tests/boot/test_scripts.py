# SPDX-License-Identifier: MIT
"""scripts/profile as a user runs it, and QEMU's refusal of bad
perf-counter properties (on the default board)."""

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perfcounter.boot import qemu_process
from perfcounter.boot.config import headless
from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"


def profile(*args, timeout=300):
    return subprocess.run([str(PROFILE)] + [str(a) for a in args],
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout)


def test_profile_runs_the_example(ctx, board):
    proc = profile()
    assert proc.returncode == 0, proc.stderr
    assert "--Performance Counter Report--" in proc.stdout, proc.stdout
    assert re.search(r"^\|pc_overhead +\| *[0-9.e-]+\| *[0-9.]+\| +1\| +1\|$",
                     proc.stdout, re.M), proc.stdout


def test_profile_builds_user_sources(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work.c"
        work.write_text(
            "int work(int n) { int s = 0; while (n--) s += n; return s; }\n")
        main = Path(tmp) / "main.c"
        main.write_text(
            '#include <stdio.h>\n'
            '#include "system.h"\n'
            '#include "altera_avalon_performance_counter.h"\n'
            'int work(int n);\n'
            'int main(void) {\n'
            '    void *p = (void *)PERFORMANCE_COUNTER_BASE;\n'
            '    PERF_RESET(p);\n'
            '    PERF_START_MEASURING(p);\n'
            '    PERF_BEGIN(p, 1);\n'
            '    int s = work(1000);\n'
            '    PERF_END(p, 1);\n'
            '    perf_print_formatted_report(p, alt_get_cpu_freq(), 1, '
            '"work");\n'
            '    return s == 499500 ? 3 : 1;\n'
            '}\n')
        proc = profile("--board", board.name, main, work)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "|work           |" in proc.stdout, proc.stdout


def test_user_sources_compiled_again_when_a_header_changes(ctx, board):
    """Compiled through ccache (build/firmware.py): a run after a
    header changed builds with the new one, and the compiler's warnings
    are shown on every run, the cached ones too."""
    with tempfile.TemporaryDirectory() as tmp:
        header = Path(tmp) / "value.h"
        main = Path(tmp) / "main.c"
        main.write_text('#include "value.h"\n'
                        'int main(void) { int unused; return VALUE; }\n')
        codes = []
        for value in (3, 5, 3):
            header.write_text(f"#define VALUE {value}\n")
            proc = profile("--board", board.name, main)
            codes.append(proc.returncode)
            assert "unused variable" in proc.stderr, proc.stderr
    assert codes == [3, 5, 3]


def test_profile_boots_an_elf(ctx, board):
    image = ctx.firmware(board, "tests/firmware/exit_code.elf")
    proc = profile(image)
    assert proc.returncode == 7, proc.stdout + proc.stderr
    assert "exiting with 7" in proc.stdout


def test_verbose_states_qemus_span_on_the_monotonic_clock(ctx, board):
    """-v's host time: QEMU's process from its start to its end, on the
    clock every process of the host shares (what scripts/bench reads
    the command's time before and after QEMU from), inside the
    command's own span and as long as the run it states; its results
    after it."""
    image = ctx.firmware(board, "tests/firmware/exit_code.elf")
    with tempfile.TemporaryDirectory() as tmp:
        began = time.monotonic()
        proc = profile("-v", "--sample", "--gmon", Path(tmp) / "gmon.out",
                       image)
        ended = time.monotonic()
    assert proc.returncode == 7, proc.stdout + proc.stderr
    found = re.search(r"host time: the run ([\d.]+) s, its results "
                      r"([\d.]+) s; QEMU's process from ([\d.]+) to "
                      r"([\d.]+) s of the host's monotonic clock",
                      proc.stderr)
    assert found, proc.stderr
    run, results, start, end = (float(x) for x in found.groups())
    assert began < start < end < ended, (began, start, end, ended)
    assert end - start <= run < ended - began, (run, start, end)
    # its results: from QEMU's exit on
    assert 0 < results < ended - end, (results, end, ended)


# scripts/profile's run of argv[1], saying on stderr which of our modules
# it had imported when it started QEMU's process
IMPORTED_AT_QEMUS_START = """
import sys
from perfcounter.boot import qemu_process
from perfcounter.cli import profile

popen = qemu_process.subprocess.Popen


def started(*args, **options):
    print(*sorted(m for m in sys.modules if m.startswith("perfcounter")),
          file=sys.stderr)
    qemu_process.subprocess.Popen = popen
    return popen(*args, **options)


qemu_process.subprocess.Popen = started
sys.argv = ["profile", sys.argv[1]]
sys.exit(profile.main())
"""


def test_a_plain_run_starts_qemu_before_importing_analyses(ctx, board):
    """Every command pays for what it imports before QEMU starts: a run
    without a profile leaves the analyses, the image's DWARF readers,
    its disassembly and the fault reports until they are wanted."""
    image = ctx.firmware(board, "tests/firmware/exit_code.elf")
    proc = subprocess.run(
        [sys.executable, "-c", IMPORTED_AT_QEMUS_START, str(image)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib")))
    assert proc.returncode == 7, proc.stdout + proc.stderr
    imported = set(proc.stderr.split("\n")[0].split())
    assert "perfcounter.cli.profile" in imported, proc.stderr
    left = {"perfcounter.outputs.annotate", "perfcounter.target.rtos",
            "perfcounter.target.lines", "perfcounter.target.disassembly",
            "perfcounter.boot.faults"}
    assert not imported & left, imported & left
    assert not any(m.startswith("perfcounter.results") for m in imported), \
        imported


def test_profile_stops_a_hanging_guest(ctx, board):
    image = ctx.firmware(board, "tests/firmware/hang.elf")
    proc = profile("--timeout", "3", image)
    assert proc.returncode == qemu_process.TIMEOUT_EXIT, proc.stdout + proc.stderr
    assert "did not finish within 3" in proc.stderr, proc.stderr


def test_profile_help_explains_options(ctx, board):
    proc = profile("--help")
    assert proc.returncode == 0, proc.stderr
    # one line of usage, not a synopsis of every option above their list
    assert proc.stdout.startswith(
        "usage: scripts/profile [OPTION]... [FILE]...\n\n"), proc.stdout
    for option in ["--board", "--list-boards", "--timeout", "--no-icount",
                   "--optimization", "--qemu-arg"]:
        assert option in proc.stdout, f"--help does not explain {option}"


def test_profile_rejects_unknown_board(ctx, board):
    proc = profile("--board", "no-such-board")
    assert proc.returncode == 2, proc.stderr
    assert "invalid choice: 'no-such-board'" in proc.stderr, proc.stderr


def refused(ctx, board, prop, *device_args):
    """QEMU must refuse these -device arguments with an error naming prop."""
    cmd = headless(ctx.qemu, board) + ["-S"]
    for dev in device_args:
        cmd += ["-device", dev]
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"QEMU accepted {device_args}") from None
    assert proc.returncode != 0, f"QEMU accepted {device_args}"
    assert f"'{prop}'" in proc.stderr, (
        f"the error does not name '{prop}': {proc.stderr}")


def test_bad_property_no_sections(ctx, board):
    refused(ctx, board, "num-sections", "perf-counter,num-sections=0")


def test_bad_property_too_many_sections(ctx, board):
    refused(ctx, board, "num-sections", "perf-counter,num-sections=64")


def test_bad_property_zero_frequency(ctx, board):
    refused(ctx, board, "clock-frequency", "perf-counter,clock-frequency=0")


def test_bad_property_absurd_frequency(ctx, board):
    refused(ctx, board, "clock-frequency",
            "perf-counter,clock-frequency=4000000000")


def test_bad_property_unknown_clock(ctx, board):
    refused(ctx, board, "clock", "perf-counter,clock=instructions")


def test_bad_property_cycles_without_a_timing_model(ctx, board):
    # headless() loads no plugin, so nothing estimates cycles
    refused(ctx, board, "clock", "perf-counter,clock=cycles")


def test_bad_property_unaligned_base(ctx, board):
    refused(ctx, board, "base", "perf-counter,base=0x40030004")


def test_bad_property_base_on_another_device(ctx, board):
    refused(ctx, board, "base", "perf-counter,base=0x40000000")


def test_bad_property_base_overlaps_other_counter(ctx, board):
    refused(ctx, board, "base", "perf-counter,base=0x40031000",
            "perf-counter,base=0x40031000")


def test_bad_property_timeline_too_long(ctx, board):
    refused(ctx, board, "timeline-size", "perf-counter,timeline-size=4194305")


def test_bad_property_report_file_in_no_directory(ctx, board):
    refused(ctx, board, "report-file",
            "perf-counter,report-file=/nonexistent/dir/report.json")


def test_bad_property_report_file_empty(ctx, board):
    refused(ctx, board, "report-file", "perf-counter,report-file=")
