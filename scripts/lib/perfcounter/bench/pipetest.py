# SPDX-License-Identifier: MIT
"""scripts/bench --pipetest DIR: a published harness that times itself
with the DWT against the timing models.  jnk0le's "pipeline cycle test"
templates (repository jnk0le/random, folder "pipeline cycle test") are
the harness behind his Cortex-M pipeline measurements: each reads
CYCCNT around 1000 iterations of a loop that takes 20 cycles on its
core, subtracts the overhead outside the loop and returns the cycles,
20000 on silicon as written.  Its code is not in this repository: DIR
is the user's checkout, built unmodified with
tests/programs/pipetest_main.c and run with --cycles, where CYCCNT
counts the model's cycles (docs/dwt.md)."""

import re
import tempfile
from pathlib import Path

from perfcounter import boards
from perfcounter.build import firmware
from perfcounter.errors import Failure
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "pipetest_main.c"
SOURCE = "jnk0le/random, pipeline cycle test (README: 20 cycles x 1000)"
SILICON = 20000

# board: the template, and the compiler options its instructions need
TEMPLATES = {
    "mps2-an385": ("CM3_pipetest_tmpl", []),
    "mps2-an386": ("CM3_pipetest_tmpl", []),
    # These save the FPU's callee-saved registers
    "mps2-an500": ("CM7_pipetest_tmpl",
                   ["-mfloat-abi=softfp", "-mfpu=fpv5-d16"]),
    "mps2-an505": ("CM33_pipetest_tmpl",
                   ["-mfloat-abi=softfp", "-mfpu=fpv5-sp-d16"]),
}


def printed(out):
    found = re.search(r"^template cycles=(\d+)$", out, re.M)
    if not found:
        raise Failure(f"{PROGRAM.name} printed no cycles:\n{out}")
    return int(found[1])


def rows(bench, checkout):
    """Add a row per board: what the unmodified template prints with the
    model's cycles and with one per instruction."""
    folder = Path(checkout).resolve() / "pipeline cycle test"
    with tempfile.TemporaryDirectory() as tmp:
        for name, (template, cflags) in TEMPLATES.items():
            board = boards.get(name)
            source = folder / f"{template}.S"
            if not source.is_file():
                raise Failure(f"{checkout} is not a checkout of "
                              f"jnk0le/random: it has no {source}")
            work = Path(tmp) / name
            work.mkdir()
            image = firmware.build_app(
                board, [PROGRAM, source], firmware.AppOptions(
                    defines=[f"TEMPLATE={template}"], cflags=cflags), work)
            cycles = printed(bench.timed(bench.command(
                board, image, cycles=True, windows=(),
                counter_clock="time"), 1)[1])
            instructions = printed(bench.timed(bench.command(board, image),
                                               1)[1])
            bench.row(f"published DWT harness, {template} ({name}, {board.cpu}) "
                f"with --cycles", str(cycles),
                f"silicon {SILICON} ({100 * (cycles / SILICON - 1):+.2f}%); "
                f"without --cycles (one per instruction) {instructions}; "
                f"{SOURCE}")
