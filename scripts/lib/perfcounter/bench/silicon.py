# SPDX-License-Identifier: MIT
"""scripts/bench --cortexm-aes DIR: the timing models against cycle
counts measured on silicon.  jnk0le/cortexm-AES publishes the cycles
its hand-written assembly AES takes on STM32F0 (Cortex-M0), STM32F1
(Cortex-M3), STM32F4 (Cortex-M4), all at zero wait states, STM32H7
(Cortex-M7) and RP2350 (Cortex-M33), read from the cycle counter around
one call: in its README's "Base ciphers performance" table until 2022,
in doc/aes/*_details.md since.  Its code is not in this repository: DIR
is the user's checkout of it, and both the code and the figures are
read from it, so that they come from the same commit.
tests/programs/silicon_aes.c calls the ciphers the same way, with the
checkout's lookup tables, under the counter core with clock=cycles
(docs/cycles.md)."""

import re
import tempfile
from pathlib import Path

from perfcounter import boards
from perfcounter.build import firmware
from perfcounter.bench.checkout import commit as checkout_commit
from perfcounter.errors import Failure
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "silicon_aes.c"
REPOSITORY = "https://github.com/jnk0le/cortexm-AES"
ROUTINES = ["encrypt<128>", "encrypt<192>", "encrypt<256>",
            "setEncKey<128>"]

# (board, the checkout's cipher, the part its figures name, the part)
PUBLISHED = [
    ("mps2-an385", "CM3_1T", "STM32F1", "STM32F1, 0 wait states"),
    ("mps2-an386", "CM3_1T", "STM32F4", "STM32F4, 0 wait states"),
    ("mps2-an500", "CM7_1T", "STM32H7", "STM32H7"),
    ("mps2-an505", "CM33_1T", "RP2350", "RP2350"),
    ("microbit", "CM0_sBOX", "STM32F0", "STM32F0, 0 wait states"),
    ("microbit", "CM0_d4T", "STM32F0", "STM32F0, 0 wait states"),
]


def table_figures(text, part, cipher):
    """{routine: cycles} of the Markdown table column headed "PART
    (...) - CIPHER" in text: the first figure of a cell (0 wait states
    where it gives two), none the author marks as unsettled (*)."""
    figures = {}
    column = None
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|"):
            column = None
        elif column is None:
            for i, cell in enumerate(cells):
                if cell.startswith(part) and cell.endswith(f"- {cipher}"):
                    column = i
        elif len(cells) > column:
            routine = cells[0].strip("`")
            figure = re.match(r"(\d+)(/|$)", cells[column])
            if routine in ROUTINES and figure:
                figures.setdefault(routine, int(figure[1]))
    return figures


def published(checkout, part, cipher):
    """The checkout's figures for cipher on part, and where they are:
    its doc/aes/*_details.md first, then its README."""
    commit = checkout_commit(checkout) or "unknown commit"
    for doc in sorted((checkout / "doc" / "aes").glob("*_details.md")) + \
            [checkout / "README.md"]:
        if doc.is_file():
            figures = table_figures(doc.read_text(), part, cipher)
            if figures:
                return figures, f"{doc.relative_to(checkout)}, " \
                    f"commit {commit}"
    return {}, f"no figures for {cipher} on {part} (commit {commit})"


def sources(checkout, cipher):
    """The checkout's assembly for cipher, and the defines naming it."""
    directory = checkout / "aes" / "target" / cipher
    found = {"ENCRYPT": directory / f"{cipher}_AES_encrypt.S"}
    if not found["ENCRYPT"].is_file():
        raise Failure(f"{checkout} is not a checkout of "
                      f"jnk0le/cortexm-AES: it has no {found['ENCRYPT']}")
    # (named AES_128_ until 2024, AES128_ since)
    for name in ["AES128", "AES_128"]:
        schedule = directory / f"{cipher}_{name}_keyschedule_enc.S"
        if cipher != "CM7_1T" and schedule.is_file():
            found["KEYSCHEDULE"] = schedule
    # The tables the ciphers read (in aes/target/ until 2022)
    tables = [path for path in [checkout / "aes" / "lookup_tables.c",
                                checkout / "aes" / "target" /
                                "lookup_tables.c"] if path.is_file()]
    if not tables:
        raise Failure(f"{checkout} has no aes/lookup_tables.c")
    return ([found[name] for name in found] + tables[:1],
            [f"{name}={path.stem}" for name, path in found.items()])


def rows(bench, checkout):
    """Add a row per board: model and silicon cycles of each routine."""
    checkout = Path(checkout).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        for name, cipher, part, silicon in PUBLISHED:
            board = boards.get(name)
            figures, source = published(checkout, part, cipher)
            if not figures:
                bench.row(f"model against silicon, {cipher} AES ({name}, "
                    f"{board.cpu}; {silicon})", "not compared", source)
                continue
            files, defines = sources(checkout, cipher)
            work = Path(tmp) / f"{name}-{cipher}"
            work.mkdir()
            # (only the tables the cipher reads: the Cortex-M0's RAM is
            # 16 KiB)
            image = firmware.build_app(
                board, [PROGRAM] + files, firmware.AppOptions(
                    defines=defines, includes=[checkout],
                    cflags=["-fdata-sections"],
                    ldflags=["-Wl,--gc-sections"]), work)
            _, out = bench.timed(bench.command(board, image, cycles=True,
                                               windows=()), 1)
            model = {m[1]: int(m[2]) for m in
                     re.finditer(r"^(\S+) clocks=(\d+)$", out, re.M)}
            if "wrong" in out:
                raise Failure(f"{PROGRAM.name} on {name} computed a wrong "
                              f"result:\n{out}")
            # (routines the checkout has no code for are not measured)
            compared = [r for r in ROUTINES if r in figures and r in model]
            bench.row(f"model against silicon, {cipher} AES ({name}, "
                f"{board.cpu}; {silicon})",
                ", ".join(f"{r} {model[r]}" for r in compared),
                "silicon " + ", ".join(
                    f"{figures[r]} ({error(model[r], figures[r])})"
                    for r in compared) + f"; {REPOSITORY} ({source})")


def error(model, silicon):
    return f"{100 * (model / silicon - 1):+.1f}%"
