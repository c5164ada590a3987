# SPDX-License-Identifier: MIT
"""scripts/bench --cortexm-aes DIR: the timing models against cycle
counts measured on silicon.  jnk0le/cortexm-AES publishes, in its
README's "Base ciphers performance" table, the cycles its hand-written
assembly AES takes on STM32F1 (Cortex-M3), STM32F4 (Cortex-M4), both at
zero wait states, and STM32H7 (Cortex-M7), read from DWT CYCCNT around
one call, and in doc/aes/*_details.md on STM32F0 (Cortex-M0, zero wait
states) and RP2350 (Cortex-M33).  Its code is not in this repository:
DIR is the user's checkout of it, and tests/programs/silicon_aes.c calls
it the same way, with the checkout's lookup tables, under the counter
core with clock=cycles (docs/cycles.md)."""

import re
import tempfile
from pathlib import Path

import boards
import firmware
import plugin
from common import REPO, Failure

PROGRAM = REPO / "tests" / "programs" / "silicon_aes.c"
REPOSITORY = "https://github.com/jnk0le/cortexm-AES"
README = f"{REPOSITORY} (README, commit 011057d)"
CM33_DETAILS = f"{REPOSITORY} (doc/aes/CM33_details.md, commit b245d67)"
CM0_DETAILS = f"{REPOSITORY} (doc/aes/CM0_details.md, commit b18b7a4)"

# (board, the checkout's cipher directory and prefix, silicon, cycles,
# where they are published)
PUBLISHED = [
    ("mps2-an385", "CM3_1T", "STM32F1, 0 wait states", {
        "encrypt<128>": 657, "encrypt<192>": 779, "encrypt<256>": 901,
        "setEncKey<128>": 302}, README),
    ("mps2-an386", "CM3_1T", "STM32F4, 0 wait states", {
        "encrypt<128>": 669, "encrypt<192>": 793, "encrypt<256>": 917,
        "setEncKey<128>": 305}, README),
    # Its CM7 key schedule's figure is marked "not fixed yet"
    ("mps2-an500", "CM7_1T", "STM32H7", {
        "encrypt<128>": 302, "encrypt<192>": 358, "encrypt<256>": 414},
        README),
    ("mps2-an505", "CM33_1T", "RP2350", {
        "encrypt<128>": 574, "encrypt<256>": 790, "setEncKey<128>": 271},
        CM33_DETAILS),
    ("microbit", "CM0_sBOX", "STM32F0, 0 wait states", {
        "encrypt<128>": 1646, "encrypt<256>": 2306, "setEncKey<128>": 399},
        CM0_DETAILS),
    ("microbit", "CM0_d4T", "STM32F0, 0 wait states", {
        "encrypt<128>": 1152, "encrypt<256>": 1588, "setEncKey<128>": 439},
        CM0_DETAILS),
]


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


def rows(built, checkout, command, timed, row):
    """Add a row per board: model and silicon cycles of each routine;
    command(board, image, extra, device_props) is the QEMU command."""
    checkout = Path(checkout).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        for name, cipher, silicon, published, source in PUBLISHED:
            board = boards.get(name)
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
            _, out = timed(command(
                board, image, plugin.qemu_args(
                    built, board, work / "cycles.txt", plugin.NO_PROFILE,
                    cycles=True),
                lambda base: ",clock=cycles"), 1)
            model = {m[1]: int(m[2]) for m in
                     re.finditer(r"^(\S+) clocks=(\d+)$", out, re.M)}
            if "wrong" in out or not set(published) <= set(model):
                raise Failure(f"{PROGRAM.name} on {name} did not measure "
                              f"every routine:\n{out}")
            row(f"model against silicon, {cipher} AES ({name}, "
                f"{board.cpu}; {silicon})",
                ", ".join(f"{r} {model[r]}" for r in published),
                "silicon " + ", ".join(
                    f"{published[r]} ({100 * (model[r] / published[r] - 1):+.1f}%)"
                    for r in published) + f"; {source}")
