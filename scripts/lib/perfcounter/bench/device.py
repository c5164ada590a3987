# SPDX-License-Identifier: MIT
"""scripts/bench, the device: what a section costs the guest, what the
device costs the host (idle, and per access, with and without
-icount), and determinism and boot-to-report time on every board."""

import re

from perfcounter import boards
from perfcounter.build import firmware

ORIGINAL_EMPTY_SECTION = 18     # the HAL manual's pc_overhead example
ACCESS_ITERATIONS = 2_000_000   # tests/firmware/bench_access.c
ACCESSES = 2 * ACCESS_ITERATIONS


def _image(board, name):
    return firmware.image(firmware.build(board), name)


def rows(bench, board):
    """The guest's and the host's cost of the device on board."""
    def command(name, **options):
        return bench.command(board, _image(board, name), **options)

    _, out = bench.timed(command("tests/firmware/rules.elf"), 1)
    empty = int(re.search(r"^empty_section clocks=(\d+)$", out, re.M)[1])
    bench.row("empty section (`PERF_BEGIN; PERF_END`, -O2)",
              f"{empty} clock", f"the original part's documented example: "
              f"{ORIGINAL_EMPTY_SECTION} clocks")

    with_dev, without = bench.side_by_side(
        command("tests/firmware/bench_idle.elf"),
        command("tests/firmware/bench_idle.elf", counters=False))
    bench.row("compute-bound guest (200 M instructions), device attached, "
              "idle", f"{with_dev:.3f} s", f"without the device: "
              f"{without:.3f} s; ratio {with_dev / without:.3f}")

    for icount, how in [(True, " (BEGIN/END in a hot loop, -icount)"),
                        (False, ", without -icount")]:
        mmio, ram = bench.side_by_side(
            command("tests/firmware/bench_mmio.elf", icount=icount),
            command("tests/firmware/bench_ram.elf", icount=icount))
        bench.row(f"host time per counter access{how}",
                  f"{mmio / ACCESSES * 1e9:.0f} ns",
                  f"a store to RAM in the same loop: "
                  f"{ram / ACCESSES * 1e9:.1f} ns")


def boot_rows(bench, board):
    """Determinism on board, and boot-to-report time on every board."""
    example = bench.command(board, _image(
        board, "firmware/examples/checksum.elf"))
    outputs = {bench.timed(example, 1)[1] for _ in range(10)}
    bench.row("determinism: distinct reports in 10 runs of the example",
              str(len(outputs)))
    for b in boards.BOARDS.values():
        t = bench.timed(bench.command(b, _image(
            b, "firmware/examples/checksum.elf")))[0]
        bench.row(f"boot-to-report, checksum example, {b.name}",
                  f"{t * 1000:.0f} ms")
