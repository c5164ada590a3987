# SPDX-License-Identifier: MIT
"""scripts/bench --dilithium-mm DIR: the Cortex-M3 and M4 timing models
against the cycles UIC-ESLAS/Dilithium-Multi-Moduli, the artifact of
"Revisiting Keccak and Dilithium Implementations on ARMv7-M" (TCHES
2024), publishes for its assembly on silicon: an Arduino Due (SAM3X8E,
Cortex-M3 at 12 MHz, flash at 0 wait states with 64-bit reads,
M3/common/hal-opencm3.c) and an STM32F407 Discovery (Cortex-M4 at 24
MHz, 0 wait states, the ART caches on, M4/common/hal-stm32f4.c).  Its
M3/poly_benchmarks.txt and M4/poly_benchmarks.txt hold the figures as
LaTeX macros, \\def\\crypto_sign_<scheme><impl><name>{9\\,979}, in
blocks appended by each run; we read them from the checkout, so code
and figures come from the same commit.  Its crypto_sign/f_speed.c
reads SysTick (hal_get_time()) around one call; tests/programs/
silicon_pqc.c puts a section of the counter core, with clock=cycles,
around the same call (docs/cycles.md).  Its code is not in this
repository: DIR is the user's checkout of it."""

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from perfcounter import boards
from perfcounter.build import firmware
from perfcounter.bench.checkout import commit as checkout_commit
from perfcounter.errors import Failure
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "silicon_pqc.c"
REPOSITORY = "UIC-ESLAS/Dilithium-Multi-Moduli"

# The sections of a block: the Keccak permutation each was built with
# (make KECCAK=1, the default, links theirs; KECCAK=0 XKCP's)
THEIRS = "with"
XKCP = "without"

# The parts as the artifact sets them up (M3/common/hal-opencm3.c,
# M4/common/hal-stm32f4.c), and the model's memory preset for each
DUE = ("Arduino Due (SAM3X8E), 12 MHz, flash 0 wait states, 64-bit "
       "reads", "sam3x8e-12mhz")
DISCOVERY = ("STM32F407 Discovery, 24 MHz, flash 0 wait states, ART "
             "caches on", "stm32f407-24mhz")

# Their NTTs in the m3plant directory, as poly.c wraps them
M3PLANT_SOURCES = ["poly.c", "ntt.c", "smallpoly.c", "ntt_asm.S",
                   "intt_asm.S", "ntt_leaktime.S", "pointwise_mul.S",
                   "pointwise_smull.S", "small_ntt_769.S",
                   "small_ntt_3329.S"]
# The M4 NTT keeps values in FPU registers: the assembler needs the FPU
# (softfp: calls stay those of the soft-float library)
M4_FPU = ["-mfloat-abi=softfp", "-mfpu=fpv4-sp-d16"]


@dataclass
class Build:
    """One image: the checkout's files for a core and what it measures."""
    board: str
    core: str           # the checkout's directory: M3 or M4
    impl: str           # its crypto_sign/dilithium2/<impl>
    keccak: str         # THEIRS or XKCP
    variant: str        # silicon_pqc.c's -D: M3PLANT, M4OLD, KECCAK_ONLY
    silicon: tuple      # the part, and its memory preset
    # printed name: the figure's name in poly_benchmarks.txt
    routines: dict
    sources: list = field(default_factory=list)   # in the impl directory
    cflags: list = field(default_factory=list)    # compiling only
    lto: bool = False   # as their Makefile builds (M4: -flto)


BUILDS = [
    Build("mps2-an385", "M3", "m3plant", THEIRS, "M3PLANT", DUE, {
        "keccak": "keccak_permute",
        "ntt": "ntt", "invntt": "invntt", "basemul": "basemul",
        "ntt_leaktime": "ntt_leaktime",
        "invntt_leaktime": "invntt_leaktime",
        "basemul_leaktime": "basemul_leaktime",
        "small_ntt": "small_ntt", "small_invntt": "small_invntt",
        "multi_moduli_ntt": "multi_moduli_ntt"}, M3PLANT_SOURCES),
    # XKCP's figure is under the m3 implementation, the run without
    # their Keccak
    Build("mps2-an385", "M3", "m3", XKCP, "KECCAK_ONLY", DUE,
          {"keccak": "keccak_permute"}),
    Build("mps2-an386", "M4", "old", THEIRS, "M4OLD", DISCOVERY, {
        "keccak": "_keccak", "NTT": "_NTT", "iNTT": "_iNTT",
        "basemul": "_basemul"},
        ["poly.c", "ntt.S", "pointwise_mont.S"], M4_FPU, lto=True),
    Build("mps2-an386", "M4", "old", XKCP, "KECCAK_ONLY", DISCOVERY,
          {"keccak": "_keccak"}, lto=True),
]


@dataclass
class Figure:
    value: int
    written: str        # the block's date
    section: str        # THEIRS, XKCP, or None: a block without sections


def read_figures(path):
    """{macro name: [Figure]} of every exact figure in path, in the
    file's order ("346k" and the like are rounded: left out)."""
    figures = {}
    written = section = None
    for line in path.read_text(errors="replace").splitlines():
        block = re.match(r"%.* written on (\S+ \d\d:\d\d)", line)
        part = re.match(r"% Benchmarking measurements (with|without) "
                        r"Keccak optimization", line)
        entry = re.match(r"\\def\\(\w+)\{([\d\\,]+)\}\s*$", line)
        if block:
            written, section = block[1], None
        elif part:
            section = part[1]
        elif entry and written:
            figures.setdefault(entry[1], []).append(Figure(
                int(re.sub(r"\D", "", entry[2])), written, section))
    return figures


def newest(figures, macro, keccak):
    """The figure of macro from the newest block that has it, measured
    with keccak: a block without sections ran their Makefile's default,
    their Keccak."""
    found = [f for f in figures.get(macro, [])
             if (f.section or THEIRS) == keccak]
    return max(found, key=lambda f: f.written, default=None)


def macro_name(build, name):
    return f"crypto_sign_dilithium2_{build.impl}{name}"


def checkout_files(checkout, build):
    """The sources to compile with silicon_pqc.c, and their includes."""
    common = checkout / build.core / "common"
    impl = checkout / build.core / "crypto_sign" / "dilithium2" / build.impl
    permutation = common / ("keccakf1600.S" if build.keccak == THEIRS
                            else "keccakf1600_XKCP.S")
    files = [impl / name for name in build.sources] + [permutation]
    for path in files:
        if not path.is_file():
            raise Failure(f"{checkout} is not a checkout of {REPOSITORY} "
                          f"as this bench knows it: it has no {path}")
    return files, [impl, common]


def build_image(checkout, build, work):
    board = boards.get(build.board)
    files, includes = checkout_files(checkout, build)
    lto = ["-flto"] if build.lto else []
    return board, firmware.build_app(
        board, [PROGRAM] + files, firmware.AppOptions(
            optimization="3", defines=[build.variant], includes=includes,
            # (poly.c's other functions call what we do not compile)
            cflags=["-ffunction-sections", "-fdata-sections"] +
            build.cflags + lto,
            ldflags=["-Wl,--gc-sections", "-O3"] + lto), work)


def measure(bench, checkout, build, work):
    """{printed name: the model's cycles} of build's routines."""
    board, image = build_image(checkout, build, work)
    _, out = bench.timed(bench.command(board, image, cycles=True,
                                       windows=(),
                                       memory=build.silicon[1]), 1)
    model = {m[1]: int(m[2]) for m in
             re.finditer(r"^(\S+) clocks=(\d+)$", out, re.M)}
    if "wrong" in out or not set(build.routines) <= set(model):
        raise Failure(f"{PROGRAM.name} on {build.board} did not measure "
                      f"every routine:\n{out}")
    return model


def compared(build, model, figures, source):
    """The row's note: each routine against its figure, and the blocks
    the figures come from."""
    parts, blocks = [], []
    for name, figure_name in build.routines.items():
        macro = macro_name(build, figure_name)
        figure = newest(figures, macro, build.keccak)
        if figure is None:
            parts.append(f"{name}: no {macro} measured with "
                         f"{'their' if build.keccak == THEIRS else 'XKCP'}"
                         f" Keccak in {source}")
            continue
        parts.append(f"{name} {figure.value} "
                     f"({100 * (model[name] / figure.value - 1):+.1f}%)")
        block = (f"the block of {figure.written} UTC" +
                 (f", {figure.section} Keccak optimization"
                  if figure.section else ""))
        if block not in blocks:
            blocks.append(block)
    return (f"silicon {', '.join(parts)}; {source}, " +
            "; ".join(blocks) +
            "; silicon is hal_get_time() before and after the call, so "
            "it includes one timer read (tens of cycles), the model a "
            "counter section around the same call")


def rows(bench, checkout):
    """Add a row per image: model and silicon cycles of each routine."""
    checkout = Path(checkout).resolve()
    at = checkout_commit(checkout)
    with tempfile.TemporaryDirectory() as tmp:
        for n, build in enumerate(BUILDS):
            benchmarks = checkout / build.core / "poly_benchmarks.txt"
            if not benchmarks.is_file():
                raise Failure(f"{checkout} is not a checkout of "
                              f"{REPOSITORY}: it has no {benchmarks}")
            source = f"{REPOSITORY} {build.core}/poly_benchmarks.txt" + \
                (f" (commit {at})" if at else "")
            work = Path(tmp) / str(n)
            work.mkdir()
            model = measure(bench, checkout, build, work)
            permutation = ("their Keccak" if build.keccak == THEIRS
                           else "XKCP's Keccak")
            bench.row(f"model against silicon, Dilithium-Multi-Moduli "
                f"{build.core} {build.impl}, {permutation} "
                f"({build.board}, {boards.get(build.board).cpu}, "
                f"--memory {build.silicon[1]}; {build.silicon[0]})",
                ", ".join(f"{r} {model[r]}" for r in build.routines),
                compared(build, model, read_figures(benchmarks), source))
