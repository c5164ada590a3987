# SPDX-License-Identifier: MIT
"""scripts/bench --coremark DIR: the timing models against CoreMark
built with GCC and run on silicon.  PaulStoffregen/CoreMark, EEMBC's
CoreMark as an Arduino sketch, publishes in its README the iterations
per second it ran at on boards built with their Arduino cores' default
settings; among them a Cortex-M7 with its code in tightly-coupled
memory (Teensy 4.0), which is what the M7 model assumes, and a
Cortex-M3 running from flash behind wait states (Arduino Due), which
--memory sam3x8e-84mhz models.

Its code is not in this repository: DIR is the user's checkout, and the
code and the figures both come from it, so that they are of one commit.
Its core_*.c are built with its core_portme.h and
tests/programs/coremark_board.c (ours, in place of its core_portme.c,
which reads Arduino's millis()), and run under the counter core with
clock=cycles.  What the README does not say (clock, compiler, flags,
memory) is in PLATFORMS, with where it is from."""

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from perfcounter import boards
from perfcounter.build import firmware
from perfcounter.bench import guest_counts
from perfcounter.bench.checkout import version as checkout_version
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "coremark_board.c"
REPOSITORY = "https://github.com/PaulStoffregen/CoreMark"

# A model's cycles are exact: a few iterations say what a 10 s run
# would (an M7 iteration is about 150 k cycles)
ITERATIONS = 20
RUN_TIMEOUT = 900


@dataclass
class Platform:
    """A board of the README, and what its figure was built and run
    with, as its Arduino core's defaults were when the figure was
    published (the README: "each board with its default settings",
    the repository's issue 2)."""
    name: str           # in the README's table (or a label, with elsewhere)
    part: str
    mhz: int
    compiler: str
    flags: list         # the Arduino core's speed flags, default menu
    board: str          # ours
    memory: str         # our --memory preset; None: zero wait states
    # (iterations per second, where) of a figure not in the README
    elsewhere: tuple = None


PLATFORMS = [
    # Teensyduino 1.47 to 1.55: GCC 5.4.1 (the version its CoreMark
    # prints, the repository's pull request 8); Teensy 4.0's default
    # "Faster" is -O2; code in ITCM, data and stack in DTCM
    Platform("Teensy 4.0", "i.MX RT1062 (Cortex-M7), code in ITCM",
             600, "GCC 5.4.1", ["-O2"], "mps2-an500", None),
    # The same board with a newer compiler and one more flag, from the
    # repository's issues: a second compiler, a check on the first
    Platform("Teensy 4.x", "i.MX RT1062 (Cortex-M7), code in ITCM",
             600, "GCC 10.3.1", ["-O2", "-funroll-all-loops"],
             "mps2-an500", None,
             elsewhere=(2542.75, f"{REPOSITORY}/issues/14")),
    # Arduino SAM core 1.6: GCC 4.8.3, -Os; SystemInit sets 4 flash
    # wait states at 84 MHz
    Platform("Arduino Due", "SAM3X8E (Cortex-M3), flash 4 wait states",
             84, "GCC 4.8.3", ["-Os"], "mps2-an385", "sam3x8e-84mhz"),
]


def published(checkout):
    """{README board name: iterations per second} of the checkout."""
    readme = checkout / "README.md"
    core = checkout / "core_main.c"
    if not readme.is_file() or not core.is_file():
        raise Failure(f"{checkout} is not a checkout of {REPOSITORY}: "
                      f"it has no README.md or core_main.c")
    figures = {}
    for line in readme.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.fullmatch(r"\d+\.\d+", cells[1]):
            figures[cells[0]] = float(cells[1])
    return figures


def build(board, checkout, platform, work):
    """The image of CoreMark for board, built with platform's flags."""
    sources = sorted(p for p in checkout.glob("core_*.c")
                     if p.name != "core_portme.c") + [PROGRAM]
    level = platform.flags[0][2:]
    return firmware.build_app(board, sources, firmware.AppOptions(
        optimization=level, includes=[checkout],
        defines=[f"COREMARK_ITERATIONS={ITERATIONS}"],
        # -w: the checkout's warnings are not ours
        cflags=platform.flags[1:] + ["-w"],
        ldflags=["-Wl,--gc-sections"]), work)


def run(cmd):
    """((cycles, instructions, iterations), None) of one run of cmd, or
    (None, why not)."""
    ran, why = guest_counts.run(
        cmd, r"^coremark cycles=(\d+) instructions=(\d+) "
        r"iterations=(\d+)$", "stop_time", RUN_TIMEOUT)
    if ran is None:
        return None, why
    counts, out = ran
    # Its own checks of the results, its 10 s rule aside (coremark_board.c)
    wrong = [line for line in re.findall(r"^.*(?:ERROR|Cannot validate)"
                                         r".*$", out, re.M)
             if "at least 10 secs" not in line]
    if wrong or "seedcrc" not in out:
        return None, "; ".join(wrong) or "no results printed"
    return tuple(int(n) for n in counts.groups()), None


def rows(bench, checkout):
    """Add a row per platform of the checkout's README that PLATFORMS
    knows."""
    checkout = Path(checkout).resolve()
    figures = published(checkout)
    version = checkout_version(checkout)
    with tempfile.TemporaryDirectory() as tmp:
        for n, platform in enumerate(PLATFORMS):
            silicon, where = platform.elsewhere or \
                (figures.get(platform.name), f"README.md, {version}")
            board = boards.get(platform.board)
            what = (f"CoreMark, {' '.join(platform.flags)}, "
                    f"{board.cpu} model ({board.name}"
                    + (f", --memory {platform.memory}"
                       if platform.memory else "") + ")")
            if silicon is None:
                bench.row(what, "-", f"no figure for {platform.name} in "
                    f"the checkout's README")
                continue
            say(f"{what}: building and running")
            work = Path(tmp) / str(n)
            work.mkdir()
            counts, why = measure(bench, board, checkout, platform, work)
            if counts is None:
                bench.row(what, "failed", why)
                continue
            cycles, instructions, iterations = counts
            model = iterations * 1e6 / cycles
            there = silicon / platform.mhz
            bench.row(what, f"{model:.3f} CoreMark/MHz "
                f"(CPI {cycles / instructions:.2f})",
                f"{platform.name}, {platform.part}, {platform.mhz} MHz: "
                f"{there:.3f} ({100 * (model / there - 1):+.1f}%); "
                + built_how(board, platform) + f"; silicon: {where}")


def measure(bench, board, checkout, platform, work):
    try:
        image = build(board, checkout, platform, work)
    except Failure as e:
        return None, f"build failed: {e}"
    return run(bench.command(board, image, cycles=True, windows=(),
                             memory=platform.memory))


def built_how(board, platform):
    """What differs between the builds."""
    return (f"here {firmware.compiler_version(board)} and the checkout's "
            f"code, there {platform.compiler}; both "
            f"{' '.join(platform.flags)}")
