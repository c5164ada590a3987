# SPDX-License-Identifier: MIT
"""scripts/bench: measure the project, print a table (Markdown).

Every figure is measured in this run, side by side; wall-clock times
are medians of several runs.
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import boards
import bench_coremark
import bench_cycles
import bench_embench
import bench_firmware
import bench_pipetest
import bench_pqc
import bench_profiling
import bench_silicon
import boot
import firmware
import qemu
from common import ArgumentParser, Failure, main_guard, say

ORIGINAL_EMPTY_SECTION = 18     # the HAL manual's pc_overhead example
ACCESS_ITERATIONS = 2_000_000   # tests/firmware/bench_access.c
ACCESSES = 2 * ACCESS_ITERATIONS


def timed(cmd, runs):
    """Median wall time of running the QEMU command cmd; its last output."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise Failure(f"{' '.join(cmd)} failed: {proc.stderr}")
    return statistics.median(times), proc.stdout


def side_by_side(cmd_a, cmd_b, runs):
    """Median wall times of two commands, run alternately (so that load
    from elsewhere falls on both alike)."""
    a, b = [], []
    for _ in range(runs):
        a.append(timed(cmd_a, 1)[0])
        b.append(timed(cmd_b, 1)[0])
    return statistics.median(a), statistics.median(b)


def without_device(cmd):
    out, skip = [], False
    for arg in cmd:
        if skip:
            skip = False
        elif arg == "-device":
            skip = True
        else:
            out.append(arg)
    return out


def main():
    p = ArgumentParser(
        prog="scripts/bench",
        description="Measure guest cost, host cost, determinism and setup "
        "time, and print them as a Markdown table (docs/performance.md "
        "holds the last one).")
    p.add_argument("--cold", action="store_true",
                   help="also time a QEMU build from scratch (source "
                   "download included) in a temporary cache: minutes")
    p.add_argument("--runs", type=int, default=11,
                   help="runs per wall-clock figure (default: %(default)s)")
    p.add_argument("--cortexm-aes", metavar="DIR",
                   help="also compare the timing models with the cycles "
                   "jnk0le/cortexm-AES publishes for real Cortex-M3, M4 "
                   "and M7 chips; DIR is your checkout of it "
                   "(docs/cycles.md)")
    p.add_argument("--coremark", metavar="DIR",
                   help="also compare the Cortex-M7 and M3 timing models "
                   "with CoreMark built with GCC on a Teensy 4.0 "
                   "(Cortex-M7) and an Arduino Due (Cortex-M3); DIR is "
                   "your checkout of PaulStoffregen/CoreMark, which "
                   "publishes them (docs/cycles.md)")
    p.add_argument("--embench", metavar="DIR",
                   help="also compare the Cortex-M4 and M7 timing models "
                   "with Embench IoT's baseline, its benchmarks' cycles "
                   "on an STM32F4 (Cortex-M4) built with GCC; DIR is "
                   "your checkout of embench/embench-iot (docs/cycles.md)")
    p.add_argument("--dilithium-mm", metavar="DIR",
                   help="also compare the Cortex-M3 and M4 timing models "
                   "with the cycles UIC-ESLAS/Dilithium-Multi-Moduli "
                   "publishes for its Keccak and NTTs on an Arduino Due "
                   "and an STM32F407; DIR is your checkout of it "
                   "(docs/cycles.md)")
    p.add_argument("--firmware", metavar="ELF",
                   help="also time a long profiled run of ELF, firmware "
                   "for the default board that never exits (FreeRTOS's "
                   "full demo, say), and writing its results, side by "
                   "side (docs/performance.md)")
    p.add_argument("--pipetest", metavar="DIR",
                   help="also run jnk0le's published DWT harness, the "
                   "pipeline cycle test templates, with the timing models; "
                   "DIR is your checkout of jnk0le/random (docs/dwt.md)")
    args = p.parse_args()
    rows = []

    def row(what, value, note=""):
        rows.append((what, value, note))
        say(f"{what}: {value}")

    start = time.perf_counter()
    built = qemu.ensure_built()
    board = boards.get(boards.DEFAULT_BOARD)
    builddir = firmware.build(board)
    warm = time.perf_counter() - start

    def command(name, b=board, bdir=builddir, icount=True):
        return boot.command(built, b, firmware.image(bdir, name), icount)

    # Guest cost
    _, out = timed(command("tests/firmware/rules.elf"), 1)
    empty = int(re.search(r"^empty_section clocks=(\d+)$", out, re.M)[1])
    row("empty section (`PERF_BEGIN; PERF_END`, -O2)", f"{empty} clock",
        f"the original part's documented example: "
        f"{ORIGINAL_EMPTY_SECTION} clocks")

    # Host cost: idle device
    cmd = command("tests/firmware/bench_idle.elf")
    with_dev, without = side_by_side(cmd, without_device(cmd), args.runs)
    row("compute-bound guest (200 M instructions), device attached, idle",
        f"{with_dev:.3f} s", f"without the device: {without:.3f} s; "
        f"ratio {with_dev / without:.3f}")

    # Host cost: accesses
    mmio, ram = side_by_side(command("tests/firmware/bench_mmio.elf"),
                             command("tests/firmware/bench_ram.elf"),
                             args.runs)
    row("host time per counter access (BEGIN/END in a hot loop, -icount)",
        f"{mmio / ACCESSES * 1e9:.0f} ns",
        f"a store to RAM in the same loop: {ram / ACCESSES * 1e9:.1f} ns")
    mmio, ram = side_by_side(
        command("tests/firmware/bench_mmio.elf", icount=False),
        command("tests/firmware/bench_ram.elf", icount=False), args.runs)
    row("host time per counter access, without -icount",
        f"{mmio / ACCESSES * 1e9:.0f} ns",
        f"a store to RAM in the same loop: {ram / ACCESSES * 1e9:.1f} ns")

    # Profiling
    bench_profiling.rows(
        built, board, args.runs,
        lambda image, extra=(): boot.command(built, board, image,
                                             extra=extra), timed,
        side_by_side, row)

    # Timing models
    bench_cycles.rows(
        built, args.runs,
        lambda b, image, extra=(): boot.command(built, b, image,
                                                extra=extra), timed,
        side_by_side, row)

    # Against silicon: each option a user's checkout of a project that
    # publishes cycle counts (docs/cycles.md)
    def with_props(b, image, extra, props):
        return boot.command(built, b, image, extra=extra,
                            device_props=props)

    if args.cortexm_aes:
        bench_silicon.rows(built, args.cortexm_aes, with_props, timed, row)
    if args.embench:
        bench_embench.rows(built, args.embench, with_props, row)
    if args.coremark:
        bench_coremark.rows(built, args.coremark, with_props, row)
    if args.dilithium_mm:
        bench_pqc.rows(built, args.dilithium_mm, with_props, timed, row)

    if args.firmware:
        bench_firmware.rows(Path(args.firmware).resolve(), board,
                            min(args.runs, 3), row)

    if args.pipetest:
        bench_pipetest.rows(
            built, args.pipetest,
            lambda b, image, extra: boot.command(built, b, image,
                                                 extra=extra),
            timed, row)

    # Determinism and boot-to-report
    example = command("firmware/examples/checksum.elf")
    outputs = {timed(example, 1)[1] for _ in range(10)}
    row("determinism: distinct reports in 10 runs of the example",
        str(len(outputs)))
    for b in boards.BOARDS.values():
        t = timed(command("firmware/examples/checksum.elf", b,
                          firmware.build(b)), args.runs)[0]
        row(f"boot-to-report, checksum example, {b.name}", f"{t * 1000:.0f} ms")

    # Setup
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import qemu; "
                            "qemu.ensure_built()"], check=True,
                           cwd=Path(__file__).parent,
                           env=dict(os.environ, PERF_COUNTER_CACHE=cache))
            row("cold QEMU build (source download, copy, configure, "
                "compile)", f"{time.perf_counter() - start:.0f} s")
    else:
        cold = built.build_time()
        row("cold QEMU build (copy, configure, compile; as recorded by the "
            "last build from scratch; --cold to measure)",
            f"{cold:.0f} s" if cold else "not recorded")
    row("warm setup (packages checked, QEMU and firmware up to date)",
        f"{warm:.2f} s", "in-process; scripts/profile adds the package "
        "check and Python start-up")

    print("| what | measured | compared with |")
    print("| --- | --- | --- |")
    for what, value, note in rows:
        print(f"| {what} | {value} | {note} |")
    return 0


if __name__ == "__main__":
    main_guard(main)
