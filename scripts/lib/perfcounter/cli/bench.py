# SPDX-License-Identifier: MIT
"""scripts/bench: measure the project, print a table (Markdown).

Every figure is measured in this run, side by side; wall-clock times
are medians of several runs.
"""

import argparse
import time
from pathlib import Path

from perfcounter import boards
from perfcounter.bench import (coremark, cycles, device, dhrystone, embench,
                               firmware, pipetest, pqc, profiling,
                               pytest_sessions, setup, silicon,
                               whole_command)
from perfcounter.bench.harness import Harness
from perfcounter.build import firmware as firmware_build
from perfcounter.build import qemu
from perfcounter.cli.common import ArgumentParser, main_guard


def runs(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a number of runs (1 or more)")
    return int(text)


def checkout(text):
    """A checkout's folder, there: refused before the bench's first row,
    not minutes into it."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no such directory")
    return text


def elf_file(text):
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"{text}: no such file")
    return text


def main():
    p = ArgumentParser(
        prog="scripts/bench",
        description="Measure guest cost, host cost, determinism and setup "
        "time, and print them as a Markdown table (docs/performance.md "
        "holds the last one).")
    p.add_argument("--cold", action="store_true",
                   help="also time a QEMU build from scratch (source "
                   "download included) in a temporary cache: minutes")
    p.add_argument("--runs", type=runs, default=11,
                   help="runs per wall-clock figure (default: %(default)s)")
    p.add_argument("--cortexm-aes", metavar="DIR", type=checkout,
                   help="also compare the timing models with the cycles "
                   "jnk0le/cortexm-AES publishes for real Cortex-M3, M4 "
                   "and M7 chips; DIR is your checkout of it "
                   "(docs/cycles.md)")
    p.add_argument("--coremark", metavar="DIR", type=checkout,
                   help="also compare the Cortex-M7 and M3 timing models "
                   "with CoreMark built with GCC on a Teensy 4.0 "
                   "(Cortex-M7) and an Arduino Due (Cortex-M3); DIR is "
                   "your checkout of PaulStoffregen/CoreMark, which "
                   "publishes them (docs/cycles.md)")
    p.add_argument("--embench", metavar="DIR", type=checkout,
                   help="also compare the Cortex-M4 and M7 timing models "
                   "with Embench IoT's baseline, its benchmarks' cycles "
                   "on an STM32F4 (Cortex-M4) built with GCC; DIR is "
                   "your checkout of embench/embench-iot (docs/cycles.md)")
    p.add_argument("--dilithium-mm", metavar="DIR", type=checkout,
                   help="also compare the Cortex-M3 and M4 timing models "
                   "with the cycles UIC-ESLAS/Dilithium-Multi-Moduli "
                   "publishes for its Keccak and NTTs on an Arduino Due "
                   "and an STM32F407; DIR is your checkout of it "
                   "(docs/cycles.md)")
    p.add_argument("--rtos", metavar="ELF", type=elf_file, action="append",
                   default=[],
                   help="also time every mode of scripts/profile as a whole "
                   "command on ELF, firmware that never exits (FreeRTOS's "
                   "MPS2 blinky or full demo, built by its own Makefile), "
                   "against the plain command and raw QEMU; repeatable")
    p.add_argument("--dhrystone", metavar="DIR", type=checkout,
                   help="also compare the E31 model with the HiFive1's "
                   "Dhrystone as SiFive published it; DIR is your checkout "
                   "of sifive/freedom-e-sdk's legacy SDK (with "
                   "software/dhrystone; docs/cycles.md)")
    p.add_argument("--firmware", metavar="ELF", type=elf_file,
                   help="also time a long profiled run of ELF, firmware "
                   "for the default board that never exits (FreeRTOS's "
                   "full demo, say), and writing its results, side by "
                   "side (docs/performance.md)")
    p.add_argument("--pipetest", metavar="DIR", type=checkout,
                   help="also run jnk0le's published DWT harness, the "
                   "pipeline cycle test templates, with the timing models; "
                   "DIR is your checkout of jnk0le/random (docs/dwt.md)")
    args = p.parse_args()
    start = time.perf_counter()
    built = qemu.ensure_built()
    board = boards.get(boards.DEFAULT_BOARD)
    firmware_build.build(board)
    warm = time.perf_counter() - start
    with Harness(built, args.runs) as bench:
        # What users wait for first: whole commands on real firmware
        whole_command.program_rows(bench, board)
        for image in args.rtos:
            whole_command.rows(bench, Path(image).resolve(), board)
        pytest_sessions.rows(bench, board)
        device.rows(bench, board)
        profiling.rows(bench, board)
        cycles.rows(bench)
        # Against silicon: each option a user's checkout of a project
        # that publishes cycle counts (docs/cycles.md)
        if args.cortexm_aes:
            silicon.rows(bench, args.cortexm_aes)
        if args.embench:
            embench.rows(bench, args.embench)
        if args.coremark:
            coremark.rows(bench, args.coremark)
        if args.dhrystone:
            dhrystone.rows(bench, args.dhrystone)
        if args.dilithium_mm:
            pqc.rows(bench, args.dilithium_mm)
        if args.firmware:
            firmware.rows(bench, Path(args.firmware).resolve(), board)
        if args.pipetest:
            pipetest.rows(bench, args.pipetest)
        device.boot_rows(bench, board)
        setup.rows(bench, warm, args.cold)
        print(bench.table())
    return 0


if __name__ == "__main__":
    main_guard(main)
