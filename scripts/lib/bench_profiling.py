# SPDX-License-Identifier: MIT
"""scripts/bench, profiling: what -pg costs the guest, and what host-side
profiling and event counting cost the host, side by side on a
call-heavy image (tests/programs/bench_calls.c) and a compute loop
(tests/programs/bench_loop.c) against plain -icount and against QEMU's
own hotblocks plugin."""

import re
import subprocess
import tempfile
from pathlib import Path

import firmware
import plugin
import qemu
from common import REPO

PROGRAM = REPO / "tests" / "programs" / "bench_calls.c"
LOOP = REPO / "tests" / "programs" / "bench_loop.c"
PERIODS = [100, 1000, 10000]


def section_clocks(output):
    return int(re.search(r"clocks=(\d+)", output)[1])


def rows(built, board, runs, command, timed, side_by_side, row):
    """Add the profiling rows with row(what, value, note); command(image,
    extra) is the -icount QEMU command."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        plain = firmware.build_app(board, [PROGRAM], firmware.AppOptions(),
                                   work)
        plain = plain.rename(work / "plain.elf")
        pg = firmware.build_app(board, [PROGRAM], firmware.AppOptions(
            cflags=["-pg"]), work)
        base = command(plain)
        _, out = timed(base, 1)
        clocks = section_clocks(out)
        results = work / "profile.txt"
        _, profiled = timed(command(plain, plugin.qemu_args(
            built, board, results, 1000)), 1)
        calls = sum(plugin.read(results).arcs.values())
        # The -pg image writes gmon.out where QEMU runs
        with_pg = subprocess.run(command(pg), cwd=work, check=True,
                                 capture_output=True, text=True).stdout
        extra = section_clocks(with_pg) - clocks
        row(f"guest clocks added by `-pg` (fib(32), {calls} calls)",
            f"{extra} ({extra / calls:.1f} per call, "
            f"+{100 * extra / clocks:.0f}%)",
            f"host-side profiling: {section_clocks(profiled) - clocks}; "
            f"without profiling {clocks} clocks")

        loop = firmware.build_app(board, [LOOP], firmware.AppOptions(),
                                  work).rename(work / "loop.elf")

        def against_plain(what, args, image=plain, name="fib(32)"):
            with_it, without = side_by_side(
                command(image, args), plugin.without(command(image)), runs)
            row(f"host time, {what} ({name})", f"{with_it:.3f} s",
                f"plain -icount: {without:.3f} s; "
                f"{100 * (with_it / without - 1):+.0f}%")

        def counting(level):
            return command(firmware.build_app(
                board, [PROGRAM], firmware.AppOptions(
                    cflags=[f"-DEVENTS={level}"]),
                work).rename(work / f"events{level}.elf"))

        for what, cmd in [
                ("events plugin loaded, no event selected", base),
                ("counting loads", counting(1)),
                ("counting loads, branches and taken branches",
                 counting(2))]:
            with_it, without = side_by_side(cmd, plugin.without(base), runs)
            row(f"host time, {what} (fib(32))", f"{with_it:.3f} s",
                f"-icount without the plugin: {without:.3f} s; "
                f"{100 * (with_it / without - 1):+.0f}%")

        for period in PERIODS:
            against_plain(f"sampling every {period} clocks, with call "
                          f"stacks", plugin.qemu_args(built, board, results,
                                                      period))
        against_plain("sampling every 1000 clocks, no call stacks",
                      plugin.qemu_args(built, board, results, 1000,
                                       stacks=False))
        against_plain("exact profile (every instruction), with call stacks",
                      plugin.qemu_args(built, board, results))
        against_plain("QEMU's hotblocks plugin (per-block counts)",
                      ["-plugin", str(built.build / qemu.HOTBLOCKS)])
        for what, period, stacks in [
                ("sampling every 1000 clocks, no call stacks", 1000, False),
                ("sampling every 1000 clocks, with call stacks", 1000,
                 True),
                ("exact profile (every instruction), with call stacks",
                 plugin.EXACT, True)]:
            against_plain(what, plugin.qemu_args(built, board, results,
                                                 period, stacks=stacks),
                          loop, "CRC-32 loop")
