# SPDX-License-Identifier: MIT
"""The Cortex-M DWT's counters on the Cortex-M boards
(hw/misc/armv7m_dwt.c; tests/firmware/dwt.c): CYCCNT counts the counter
core's clock, one per
instruction under -icount and the timing model's cycles with
--cycles, exactly over the same instructions as the plugin's window;
the architecture's identity between CYCCNT and the 8-bit event
counters; DEMCR.TRCENA, CYCCNTENA and the Cortex-M7's lock.
"""

import re

import pytest

from perfcounter import boards
import bootlib
from perfcounter.target import elf

IMAGE = "tests/firmware/dwt.elf"
BOARDS = [name for name, b in boards.BOARDS.items() if b.dwt]
LOOP_INSTRUCTIONS = 22          # mov; 10 x (subs; bne); the second read


def run(ctx, board_name, cycles):
    """{line's first word: its numbers} the program printed, and the
    plugin's window on dwt_loop (cycles, instructions) with cycles."""
    key = ("dwt", board_name, cycles)
    if key in ctx.cache:
        return ctx.cache[key]
    board = boards.get(board_name)
    image = ctx.firmware(board, IMAGE)
    symbols = elf.read(image).symbols
    window = (symbols["dwt_loop_start"] & ~1, symbols["dwt_loop_end"] & ~1)
    result, windows = bootlib.run_with_windows(ctx, board, image, [window],
                                               cycles)
    printed = {}
    for line in result.output.splitlines():
        words = line.split()
        if words:
            printed[words[0]] = [int(w, 0) for w in words[1:]
                                 if re.fullmatch(r"(0x)?[0-9a-f]+", w)]
    found = (printed, windows.get(window), symbols)
    ctx.cache[key] = found
    return found


@pytest.mark.parametrize("board_name", BOARDS)
def test_cyccnt_counts_each_instruction_under_icount(ctx, board_name):
    printed, _, _ = run(ctx, board_name, False)
    assert printed["loop"] == [LOOP_INSTRUCTIONS]
    # the interval adds the reads' and writes' own instructions
    cyccnt, cpi, exc, sleep, lsu, fold = printed["interval"]
    assert cyccnt > LOOP_INSTRUCTIONS
    assert (cpi, exc, sleep, lsu, fold) == (0, 0, 0, 0, 0)


@pytest.mark.parametrize("board_name", BOARDS)
def test_cyccnt_counts_the_models_cycles_with_cycles(ctx, board_name):
    printed, window, _ = run(ctx, board_name, True)
    # the window adds up dwt_loop's 4 calls, the same each time
    cycles, instructions = window
    assert instructions == 4 * LOOP_INSTRUCTIONS and cycles % 4 == 0
    assert printed["loop"] == [cycles // 4]
    assert cycles != instructions


@pytest.mark.parametrize("board_name", BOARDS)
def test_the_architectures_identity_holds(ctx, board_name):
    """instructions = CYCCNT - CPICNT - EXCCNT - SLEEPCNT - LSUCNT +
    FOLDCNT, modulo 256, the instructions being CYCCNT's count of the
    same interval without --cycles."""
    plain, _, _ = run(ctx, board_name, False)
    instructions = plain["interval"][0]
    cyccnt, cpi, exc, sleep, lsu, fold = run(ctx, board_name,
                                             True)[0]["interval"]
    assert (cyccnt - cpi - exc - sleep - lsu + fold) % 256 == \
        instructions % 256
    assert cyccnt != instructions
    model = boards.get(board_name).cycle_model
    # the Cortex-M7 pairs instructions: fewer cycles, counted as folded
    if model == "m7":
        assert fold > 0 and cyccnt < instructions
    elif model in ("m33", "m55"):
        # the M33's and M55's loads take one cycle: the extra cycles are
        # CPI's
        assert cpi > 0 and lsu == 0 and cyccnt > instructions
    else:
        # the CYCCNT loads' second cycles are the LSU's, the rest CPI's
        assert cpi > 0 and lsu > 0 and cyccnt > instructions
    assert exc == sleep == 0


@pytest.mark.parametrize("board_name", BOARDS)
def test_enables_lock_ids_and_the_8_bit_counters(ctx, board_name):
    printed, _, symbols = run(ctx, board_name, False)
    ctrl, lsr, *ids = printed["ctrl"]
    # NOTRCPKT and NOEXTTRIG; no comparators; CYCCNT and the event
    # counters present
    assert ctrl == 0x0c000000
    assert ids == [0x02, 0xb0, 0x3b, 0x00, 0x0d, 0xe0, 0x05, 0xb1]
    m7 = board_name == "mps2-an500"
    # the M7's DWT resets locked: a write before LAR's key is ignored
    assert lsr == (0x3 if m7 else 0)
    assert printed["locked_write"] == [0 if m7 else 1234]
    assert printed["without_trcena"] == [0]
    assert printed["disabled"] == [0]
    assert printed["wrap"] == [0xff]
    main = symbols["main"] & ~1
    image = elf.read(ctx.firmware(boards.get(board_name), IMAGE))
    assert image.function_name(printed["pcsr"][0]) == "main", \
        hex(printed["pcsr"][0])
    assert main <= printed["pcsr"][0]
