# SPDX-License-Identifier: MIT
"""scripts/bench --dhrystone DIR: the E31 model (sifive_e) against
Dhrystone on SiFive's HiFive1 (FE310-G000), as SiFive published it in
the README of its legacy freedom-e-sdk ("1.55 DMIPS/MHz": 729,927
Dhrystones a second at 268.7 MHz, built by the SDK's
software/dhrystone/Makefile, code in the SPI flash behind the 16 KiB
instruction cache, read-only data in the DTIM).

DIR is the user's checkout of sifive/freedom-e-sdk at a commit that has
software/dhrystone (v201908 and before); the figure is read from its
README when it states one, else from FIGURE (with where it is from).
dhry_1.c and dhry_2.c are built with the Makefile's flags and
tests/programs/dhrystone_board.c (ours, in place of its dhry_stubs.c),
and run under the counter core with clock=cycles: the model's cycles
for the loop between its two time() calls, over its runs. A DMIPS is
1,757 Dhrystones a second (the VAX 11/780's)."""

import re
import tempfile
from pathlib import Path

from perfcounter import boards
from perfcounter.bench import guest_counts
from perfcounter.bench.checkout import version as checkout_version
from perfcounter.build import firmware
from perfcounter.errors import Failure
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "dhrystone_board.c"
REPOSITORY = "https://github.com/sifive/freedom-e-sdk"
RUNS = 2000
VAX_DHRYSTONES = 1757
# The README at 2f8c697 (2017-11-20) to 4ba3d24 (2019-03-07), when it
# said no figure of its own
FIGURE = (729927.0, 268694323, "README.md of sifive/freedom-e-sdk at "
          "2f8c697 (2017-11-20)")
# software/dhrystone/Makefile: CFLAGS and DHRY_CFLAGS (rv32imac, ilp32)
FLAGS = ["-fno-common", "-mcmodel=medany", "-mexplicit-relocs",
         "-DNOENUM", "-falign-functions=4", "-DTIME", "-fno-inline",
         "-fno-builtin-printf", "-Wno-implicit"]


def published(checkout):
    """(Dhrystones per second, Hz, where) the checkout's README says."""
    readme = checkout / "README.md"
    text = readme.read_text() if readme.is_file() else ""
    per_second = re.search(r"Dhrystones per Second:\s+([\d.]+)", text)
    hz = re.search(r"core freq at (\d+) Hz", text)
    if per_second and hz:
        return (float(per_second[1]), int(hz[1]),
                f"README.md, {checkout_version(checkout)}")
    return FIGURE


def build(board, checkout, work):
    sources = checkout / "software" / "dhrystone"
    if not (sources / "dhry_1.c").is_file():
        raise Failure(f"{checkout} is not a checkout of {REPOSITORY} with "
                      f"software/dhrystone (its legacy SDK, v201908 or "
                      f"before)")
    return firmware.build_app(board, [sources / "dhry_1.c",
                                      sources / "dhry_2.c", PROGRAM],
                              firmware.AppOptions(
        optimization="3", includes=[sources],
        defines=[f"DHRY_RUNS={RUNS}"], cflags=FLAGS + ["-w"],
        ldflags=["-Wl,--wrap=scanf"]), work)


def rows(bench, checkout):
    """Add the E31's Dhrystone row."""
    checkout = Path(checkout).resolve()
    board = boards.get("sifive_e")
    per_second, hz, where = published(checkout)
    silicon = per_second / VAX_DHRYSTONES / (hz / 1e6)
    what = f"Dhrystone 2.1, -O3 -fno-inline, {board.cpu} model ({board.name})"
    with tempfile.TemporaryDirectory() as tmp:
        try:
            image = build(board, checkout, Path(tmp))
        except Failure as e:
            bench.row(what, "failed", f"build failed: {e}")
            return
        ran, why = guest_counts.run(
            bench.command(board, image, cycles=True, windows=()),
            r"^dhrystone cycles=(\d+) instructions=(\d+) runs=(\d+)$",
            "the second time()", 600)
    if ran is None:
        bench.row(what, "failed", why)
        return
    cycles, instructions, runs = (int(n) for n in ran[0].groups())
    model = runs * 1e6 / cycles / VAX_DHRYSTONES
    bench.row(what, f"{model:.3f} DMIPS/MHz ({cycles / runs:.1f} cycles "
              f"a run, CPI {cycles / instructions:.2f})",
              f"HiFive1 (FE310-G000) at {hz / 1e6:.1f} MHz, code in "
              f"SPI flash behind the instruction cache: {silicon:.3f} "
              f"({100 * (model / silicon - 1):+.1f}%); here "
              f"{firmware.compiler_version(board)}, there SiFive's GCC "
              f"of 2017; silicon: {where}")
