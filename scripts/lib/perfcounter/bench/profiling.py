# SPDX-License-Identifier: MIT
"""scripts/bench, profiling: what -pg costs the guest, and what host-side
profiling and event counting cost the host, side by side on a
call-heavy image (tests/programs/bench_calls.c) and a compute loop
(tests/programs/bench_loop.c) against plain -icount and against QEMU's
own hotblocks plugin."""

import re
import tempfile
from pathlib import Path

from perfcounter.boot.config import EXACT
from perfcounter.build import firmware
from perfcounter.build import qemu
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "bench_calls.c"
LOOP = REPO / "tests" / "programs" / "bench_loop.c"
PERIODS = [100, 1000, 10000]


def section_clocks(output):
    return int(re.search(r"clocks=(\d+)", output)[1])


def rows(bench, board):
    """Add the profiling rows on board."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        plain = firmware.build_app(board, [PROGRAM], firmware.AppOptions(),
                                   work)
        plain = plain.rename(work / "plain.elf")
        pg = firmware.build_app(board, [PROGRAM], firmware.AppOptions(
            cflags=["-pg"]), work)
        clocks = section_clocks(bench.timed(bench.command(board, plain),
                                            1)[1])
        profiled = bench.run(board, plain, profile=1000)
        calls = sum(profiled.plugin.arcs.values())
        # The -pg image writes gmon.out where QEMU runs
        with_pg = bench.timed(bench.command(board, pg), 1, cwd=work)[1]
        extra = section_clocks(with_pg) - clocks
        bench.row(f"guest clocks added by `-pg` (fib(32), {calls} calls)",
                  f"{extra} ({extra / calls:.1f} per call, "
                  f"+{100 * extra / clocks:.0f}%)",
                  f"host-side profiling: "
                  f"{section_clocks(profiled.output) - clocks}; "
                  f"without profiling {clocks} clocks")

        loop = firmware.build_app(board, [LOOP], firmware.AppOptions(),
                                  work).rename(work / "loop.elf")

        def against_plain(what, image=plain, name="fib(32)", **options):
            with_it, without = bench.side_by_side(
                bench.command(board, image, **options),
                bench.command(board, image, plugin=False))
            bench.row(f"host time, {what} ({name})", f"{with_it:.3f} s",
                      f"plain -icount: {without:.3f} s; "
                      f"{100 * (with_it / without - 1):+.0f}%")

        def counting(level):
            return bench.command(board, firmware.build_app(
                board, [PROGRAM], firmware.AppOptions(
                    cflags=[f"-DEVENTS={level}"]),
                work).rename(work / f"events{level}.elf"))

        for what, cmd in [
                ("events plugin loaded, no event selected",
                 bench.command(board, plain)),
                ("counting loads", counting(1)),
                ("counting loads, branches and taken branches",
                 counting(2))]:
            with_it, without = bench.side_by_side(
                cmd, bench.command(board, plain, plugin=False))
            bench.row(f"host time, {what} (fib(32))", f"{with_it:.3f} s",
                      f"-icount without the plugin: {without:.3f} s; "
                      f"{100 * (with_it / without - 1):+.0f}%")

        for period in PERIODS:
            against_plain(f"sampling every {period} clocks, with call "
                          f"stacks", profile=period)
        against_plain("sampling every 1000 clocks, no call stacks",
                      profile=1000, stacks=False)
        against_plain("exact profile (every instruction), with call stacks",
                      profile=EXACT)
        against_plain("QEMU's hotblocks plugin (per-block counts)",
                      plugin=False, qemu_args=(
                          "-plugin", str(bench.qemu.build / qemu.HOTBLOCKS)))
        for what, period, stacks in [
                ("sampling every 1000 clocks, no call stacks", 1000, False),
                ("sampling every 1000 clocks, with call stacks", 1000,
                 True),
                ("exact profile (every instruction), with call stacks",
                 EXACT, True)]:
            against_plain(what, loop, "CRC-32 loop", profile=period,
                          stacks=stacks)
