# SPDX-License-Identifier: MIT
"""scripts/bench, cycles: the timing models (docs/cycles.md) on whole
programs (tests/programs/cycles_workloads.c: sorting, CRC, matrix
multiply, a state machine, list processing, a hash), cycles per
iteration and IPC on each modelled core; and what counting cycles costs
the host, side by side with plain -icount in one run."""

import re
import tempfile
from pathlib import Path

from perfcounter import boards
from perfcounter.target import elf
from perfcounter.build import firmware
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "cycles_workloads.c"
CALLS = REPO / "tests" / "programs" / "bench_calls.c"
WORKLOADS = ["work_sort", "work_crc", "work_matrix", "work_fsm",
             "work_list", "work_hash"]


def measure(bench, board, work):
    """{workload: (cycles, instructions) per iteration}, and the totals."""
    image = firmware.build_app(board, [PROGRAM], firmware.AppOptions(),
                               work)
    functions = {name: (start, start + size)
                 for start, size, name in elf.read(image).functions}
    result = bench.run(board, image, cycles=True, counter_clock="time",
                       windows=tuple(functions[w] for w in WORKLOADS))
    iterations = int(re.search(r"iterations=(\d+)", result.output)[1])
    p = result.plugin
    per = {w: tuple(v / iterations for v in p.windows[functions[w]])
           for w in WORKLOADS}
    return per, (p.cycles, p.cycles_instructions)


def rows(bench):
    """Add the cycle rows."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for board in boards.with_cycle_model():
            bwork = work / board.name
            bwork.mkdir()
            per, (cycles, insns) = measure(bench, board, bwork)
            bench.row(
                f"estimated cycles per iteration, {board.cpu} "
                f"({board.name}, model {board.cycle_model}, -O2)",
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
        for what, image in [("fib(35), 30 M calls", fib),
                            ("compute loop, 200 M instructions", idle)]:
            with_it, without = bench.side_by_side(
                bench.command(board, image, cycles=True, windows=(),
                              counter_clock="time"),
                bench.command(board, image, plugin=False))
            bench.row(f"host time, cycle counting (cycles=m3, {what})",
                      f"{with_it:.3f} s", f"plain -icount: {without:.3f} s; "
                      f"+{100 * (with_it / without - 1):.0f}%")
