# SPDX-License-Identifier: MIT
"""scripts/bench, cycles: the timing models (docs/cycles.md) on whole
programs (tests/programs/cycles_workloads.c: sorting, CRC, matrix
multiply, a state machine, list processing, a hash), cycles per
iteration and IPC on each modelled core; and what counting cycles costs
the host, side by side with plain -icount in one run."""

import re
import tempfile
from pathlib import Path

import boards
import elf
import firmware
import plugin
from common import REPO

PROGRAM = REPO / "tests" / "programs" / "cycles_workloads.c"
CALLS = REPO / "tests" / "programs" / "bench_calls.c"
WORKLOADS = ["work_sort", "work_crc", "work_matrix", "work_fsm",
             "work_list", "work_hash"]


def measure(built, board, command, timed, work):
    """{workload: (cycles, instructions) per iteration}, and the totals."""
    image = firmware.build_app(board, [PROGRAM], firmware.AppOptions(),
                               work)
    functions = {name: (start & ~1, (start & ~1) + size)
                 for start, size, name in elf.read(image).functions}
    results = work / f"cycles-{board.name}.txt"
    _, out = timed(command(board, image, plugin.qemu_args(
        built, board, results, plugin.NO_PROFILE, cycles=True,
        windows=[functions[w] for w in WORKLOADS])), 1)
    iterations = int(re.search(r"iterations=(\d+)", out)[1])
    p = plugin.read(results)
    per = {w: tuple(v / iterations for v in p.windows[functions[w]])
           for w in WORKLOADS}
    return image, per, (p.cycles, p.cycles_instructions)


def rows(built, runs, command, timed, side_by_side, row):
    """Add the cycle rows with row(what, value, note); command(board,
    image, extra) is the -icount QEMU command."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        images = {}
        for name in plugin.CYCLE_MODELS:
            board = boards.get(name)
            bwork = work / name
            bwork.mkdir()
            images[name], per, (cycles, insns) = measure(
                built, board, command, timed, bwork)
            row(f"estimated cycles per iteration, {board.cpu} "
                f"({name}, model {plugin.CYCLE_MODELS[name]}, -O2)",
                ", ".join(f"{w[5:]} {c:.0f}" for w, (c, _) in per.items()),
                "IPC " + ", ".join(f"{w[5:]} {i / c:.2f}" for w, (c, i) in
                                   per.items()) +
                f"; whole program {cycles} cycles, IPC {insns / cycles:.2f}")
        # The cost on compute-bound images: long enough to time
        board = boards.get(boards.DEFAULT_BOARD)
        # Long enough that QEMU's start-up is not most of the time
        fib = firmware.build_app(board, [CALLS], firmware.AppOptions(
            defines=["FIB_N=35"]), work)
        idle = firmware.image(firmware.build(board),
                              "tests/firmware/bench_idle.elf")
        results = work / "cost.txt"
        for what, image in [("fib(35), 30 M calls", fib),
                            ("compute loop, 200 M instructions", idle)]:
            with_it, without = side_by_side(
                command(board, image, plugin.qemu_args(
                    built, board, results, plugin.NO_PROFILE, cycles=True)),
                plugin.without(command(board, image)), runs)
            row(f"host time, cycle counting (cycles=m3, {what})",
                f"{with_it:.3f} s", f"plain -icount: {without:.3f} s; "
                f"+{100 * (with_it / without - 1):.0f}%")
