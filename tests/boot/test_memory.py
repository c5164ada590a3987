# SPDX-License-Identifier: MIT
"""The memory systems of the Cortex-M3/M4 models (plugin argument
memory=PART, docs/cycles.md): code and read-only data in a part's flash.
The sequences of tests/firmware/arm/cycles.S, counted with a part and
without, against what the part's reference manual gives: each refill
and each load from flash waits W cycles, a line in the STM32F4's ART
waits none, and a part at 0 wait states changes nothing."""

import subprocess
import tempfile

from bootlib import command, cycle_sequences
from perfcounter.paths import REPO

PER_BOARD = True
IMAGE = "tests/firmware/cycles.elf"

# (part, wait states, instruction cache, data cache: lines of 16 bytes,
# what a load from SRAM not behind a load waits)
F103_72 = ("stm32f103-72mhz", 2, False, False, 0)    # RM0008 3.3.3
SAM3X_84 = ("sam3x8e-84mhz", 4, False, False, 1)     # SAM3X 18.4.2; fitted
F407_168 = ("stm32f407-168mhz", 5, True, True, 0)    # RM0090 3.4-3.5
PARTS = [F103_72, SAM3X_84, F407_168]
# Loads alternating between flash (a table) and SRAM, and between SRAM
# and where the STM32F4 has its SRAM2 (RM0090 2.3: its own bus port)
MIXED_BLOCKS = "ldr_flash_data"
SRAM2 = "ldr_sram2_data"


def with_flash(board):
    return board.cycle_model in ("m3", "m4")


def measured(ctx, board, part=None):
    """{sequence: cycles} of every sequence, with code in part's flash
    (None: SRAM)."""
    found, profile = cycle_sequences(ctx, board, part)
    assert profile.cycles_memory == (part or "sram")
    return {n: cycles for n, (cycles, _) in found.items()}


def refusal(ctx, board, part):
    """What QEMU says on its stderr when the plugin refuses part."""
    image = ctx.firmware(board, IMAGE)
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(command(ctx, board, image, tmp, cycles=True,
                                      counter_clock="time", memory=part),
                              capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    return proc.stderr


def test_each_taken_branch_waits_for_the_flash(ctx, board):
    """A loop on one line, taken 9 times: each refill reads the flash,
    1 + W cycles (TRM: P is the refill; the part adds W); in the ART
    the loop's line is there from the first iteration on.  Reaching the
    loop's line from straight code may wait up to one read more."""
    if not with_flash(board):
        return
    sram = measured(ctx, board)["branch_loop"]
    for part, wait, icache, _, _ in PARTS:
        extra = measured(ctx, board, part)["branch_loop"] - sram
        refills = 0 if icache else 9 * wait
        assert refills <= extra <= refills + 1 + wait, (part, extra)


def test_each_load_from_flash_waits(ctx, board):
    """8 literal loads against 8 from SRAM, both with code in flash: W
    more each, or W per 16-byte line the ART's data cache misses (the
    8 words are two lines); less the SAM3X's wait on the first load
    from SRAM."""
    if not with_flash(board):
        return
    for part, wait, _, dcache, sram in PARTS:
        counts = measured(ctx, board, part)
        extra = counts["ldr_literal"] - counts["ldr_independent"]
        assert extra == (2 if dcache else 8) * wait - sram, part


def test_zero_wait_states_change_nothing(ctx, board):
    """The same parts at a clock their flash runs at 0 wait states:
    nothing changes but loads pipelined behind a load of the other
    memory block (below)."""
    if not with_flash(board):
        return
    sram = measured(ctx, board)
    del sram[MIXED_BLOCKS], sram[SRAM2]
    for part in ["stm32f103-24mhz", "stm32f407-24mhz", "stm32f407-16mhz"]:
        counts = measured(ctx, board, part)
        del counts[MIXED_BLOCKS], counts[SRAM2]
        assert counts == sram, part


def test_a_load_behind_one_of_another_block_is_not_pipelined(ctx, board):
    """Loads alternating between a table in flash, read through a
    register, and SRAM: without a part the model cannot tell (all 7
    after the first pipeline); with one it sees the addresses, and none
    pipelines (jnk0le: "load pipelining happens only when targeting the
    same memory block by all loads"), a cycle more each."""
    if not with_flash(board):
        return
    sram = measured(ctx, board)[MIXED_BLOCKS]
    for part in ["stm32f103-24mhz", "stm32f407-24mhz", "stm32f407-16mhz"]:
        assert measured(ctx, board, part)[MIXED_BLOCKS] == sram + 7, part


def test_the_stm32f4_sram2_is_a_block_of_its_own(ctx, board):
    """Loads alternating between SRAM and the STM32F4's SRAM2 (16 KB at
    0x2001c000, where Embench's reference keeps its stack): none
    pipelines on the STM32F4 parts, a cycle more each; the STM32F103,
    one SRAM, pipelines all 7 after the first, as without a part.  (The
    mps2 boards have RAM there; the LM3S6965 has 64 KB.)"""
    if not with_flash(board) or not board.name.startswith("mps2"):
        return
    sram = measured(ctx, board)[SRAM2]
    assert measured(ctx, board, "stm32f103-24mhz")[SRAM2] == sram
    for part in ["stm32f407-16mhz", "stm32f407-24mhz"]:
        assert measured(ctx, board, part)[SRAM2] == sram + 7, part


def test_the_sam3x_sram_waits_for_loads_not_behind_a_load(ctx, board):
    """The Arduino Due's SAM3X8E at 0 wait states: a load from SRAM
    that is not pipelined behind another load takes a cycle more (fitted
    to silicon, docs/cycles.md); nothing else changes."""
    if not with_flash(board):
        return
    sram, due = measured(ctx, board), measured(ctx, board, "sam3x8e-12mhz")
    # the first of 8 loads; each of a chain; each after an ADD, a STR,
    # a MOVEQ
    loads = {"ldr_independent": 1, "ldr_dependent": 8, "ldr_after_alu": 4,
             "ldr_str": 4, "it_after_load": 4}
    for name in sram:
        want = sram[name] + loads.get(name, 0)
        if name in loads or name.startswith(
                ("alu", "branch", "mul_", "mla", "str_", "it_")):
            assert due[name] == want, name


def test_straight_code_waits_when_the_flash_is_slower(ctx, board):
    """32-bit instructions at one a cycle need 4 bytes a cycle; the
    STM32F1's 8-byte lines every 3 cycles (2 wait states) give 2.7: the
    sequence of 8 ADD.W takes longer, never shorter."""
    if not with_flash(board):
        return
    sram = measured(ctx, board)
    slow = measured(ctx, board, F103_72[0])
    assert slow["alu_independent"] > sram["alu_independent"]
    assert all(slow[n] >= sram[n] for n in sram), \
        {n: (slow[n], sram[n]) for n in sram if slow[n] < sram[n]}


def test_a_part_the_plugin_does_not_know_is_refused(ctx, board):
    if board.name != "mps2-an385":
        return
    err = refusal(ctx, board, "stm32f999")
    assert "bad argument 'memory=stm32f999': known parts are " \
        "stm32f103-24mhz" in err, err


def test_other_models_refuse_a_part(ctx, board):
    """Only the M3/M4 models read code from a part's flash."""
    if board.cycle_model not in ("m7", "m0"):
        return
    err = refusal(ctx, board, F103_72[0])
    assert "memory= is for the Cortex-M3 and M4 models" in err, err


def profile(*args):
    return subprocess.run([str(REPO / "scripts" / "profile")] + list(args),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120)


def test_profile_names_the_part_and_its_wait_states(ctx, board):
    """scripts/profile --cycles --memory PART [--wait-states N]: the
    summary says where the code ran; N replaces the part's."""
    if board.name != "mps2-an385":
        return
    for args, words in [
            ([], "model m3, 0 wait states)"),
            (["--memory", "stm32f103-72mhz"],
             "model m3, flash of stm32f103-72mhz, 2 wait states)"),
            (["--memory", "stm32f103-72mhz", "--wait-states", "1"],
             "model m3, flash of stm32f103-72mhz, 1 wait state)")]:
        proc = profile("--cycles", *args)
        assert proc.returncode == 0, proc.stderr
        assert words in proc.stdout, proc.stdout


def test_memory_without_cycles_is_refused(ctx, board):
    if board.name != "mps2-an385":
        return
    proc = profile("--memory", "stm32f103-72mhz")
    assert proc.returncode != 0
    assert "--memory and --wait-states set the timing model's memory: " \
        "add --cycles" in proc.stderr, proc.stderr
