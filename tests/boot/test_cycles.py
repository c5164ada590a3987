# SPDX-License-Identifier: MIT
"""The timing models (plugin argument cycles=, docs/cycles.md), one rule
per test: hand-written sequences (tests/firmware/ARCH/cycles.S) whose
cycles the plugin counts in a window of pcs, against the count the
published tables give (docs/cycles.md quotes them), computed here from
the table's entries, never from the model's output."""

import json
import math
import re
import subprocess
import tempfile
from pathlib import Path

from bootlib import cycle_sequences, run
from perfcounter import EXACT
from perfcounter.paths import REPO
from perfcounter.target import elf

PER_BOARD = True
IMAGE = "tests/firmware/cycles.elf"
CLOCK_IMAGE = "tests/firmware/cycles_clock.elf"

# Cortex-M3 / Cortex-M4 TRM r2p1 / DDI 0439D, Table 3-1 and 3.3.2
ALU = 1             # MOV, ADD, CMP, logical, IT, NOP, not-taken B<c>
LOAD = 2            # LDR
STORE = 2           # STR with a register offset
STORE_IMM = 1       # "STR Rx,[Ry,#imm] is always one cycle"
STORE_THEN_LOAD = 1   # "stores cannot be pipelined with following load"
# An immediate-offset store after a load, measured (jnk0le: "store
# placed after load, removes the stall, making effective execution of
# 1 IPC"; so do the silicon Keccak counts, docs/cycles.md): free.  The
# TRM's example (LDR; STR 3 cycles) says 1.
STORE_AFTER_LOAD = 0
PIPELINED = 1       # "one cycle is removed from the cost of the next"
# Measured (jnk0le): "load pipelining happens only when targeting the
# same memory block by all loads"; a literal is in the code's memory
# Measured (eprint 2025/523, the Cortex-M4 optimization compendium): a
# multi-cycle instruction followed by three 32-bit instructions on odd
# halfwords, a cycle more
UNALIGNED_RUN = 1
ADDRESS_STALL = 1   # an address computed by the previous instruction
P = 1               # refill, to a 16-bit or word-aligned target
P_WIDE_ODD = 2      # refill, to a 32-bit target on an odd halfword
# P by when the target is known ("whether the processor manages to
# speculate the address early"; cmemu's measurements of a Cortex-M3,
# docs/cycles.md): B, B<c>, BL, BX lr in decode (P above); CBZ, CBNZ,
# BX of another register or of lr just written, in execute
P_EXECUTE = 2
# "LDR PC,[any] is always a blocking operation ... at least two cycles
# for the load, and three cycles for the pipeline reload" (3.3.2): a
# target loaded; TBB and TBH "at least six cycles": the load, the add
P_LOADED = 3
TABLE_BRANCH = 3
IT_FOLDED = 0       # "folded onto a preceding 16-bit Thumb instruction"
MUL = 1
MLA = {"m3": 2, "m4": 1}
UMULL = {"m3": (3, 5), "m4": (1, 1)}        # (small, large operands)
SMLAL = {"m3": (4, 7), "m4": (1, 1)}
DIV = (2, 12)


def multiple(n):
    return 1 + n    # LDM, STM, PUSH, POP: 1+N


def expected_m3(model):
    e = {
        "ldr_independent": LOAD + 7 * PIPELINED,
        "ldr_literal": LOAD + 7 * PIPELINED,    # from the pc, the same
        "ldr_literal_data": 8 * LOAD,           # no two of one block
        # the same through a register: only addresses show it (with a
        # part, tests/boot/test_memory.py)
        "ldr_flash_data": LOAD + 7 * PIPELINED,
        "ldr_sram2_data": LOAD + 7 * PIPELINED,
        "unaligned_run": LOAD + 3 * ALU + UNALIGNED_RUN,
        "unaligned_run_after_alu": 4 * ALU,
        # B<c> not taken: its target fetched in the place of the next word
        "unaligned_run_after_branch": 1 + 3 * ALU + UNALIGNED_RUN + ALU,
        "aligned_run": LOAD + 3 * ALU,
        "page_loads": LOAD + 7 * PIPELINED,     # across a page, the same
        "ldr_dependent": LOAD + 7 * (LOAD + ADDRESS_STALL),
        "ldr_after_alu": 4 * (ALU + LOAD + ADDRESS_STALL),
        "ldr_str": 4 * LOAD + 4 * STORE_AFTER_LOAD + 3 * STORE_THEN_LOAD,
        "str_imm": 8 * STORE_IMM,
        "str_reg": 8 * STORE,
        # movs; 10 x subs; 9 x bne taken; bne not taken
        "branch_loop": ALU + 10 * ALU + 9 * (1 + P) + 1,
        # movs; 10 x (subs, 4 x add); 9 x bne taken; bne not taken
        "branch_flags_early": ALU + 10 * 5 * ALU + 9 * (1 + P) + 1,
        "branch_loop_wide": ALU + 10 * ALU + 9 * (1 + P_WIDE_ODD) + 1,
        # movs; 10 x (cmp, beq not taken, subs); 9 bne taken, 1 not; nop
        "branch_not_taken": ALU + 10 * 3 * ALU + 9 * (1 + P) + 1 + ALU,
        "branch_forward_taken": (1 + P_EXECUTE) + ALU,    # CBZ
        # movs; 10 x (cmp, bne taken, subs, bne), 9 taken
        "branch_learned": ALU + 10 * (ALU + (1 + P) + ALU) + 9 * (1 + P) + 1,
        # each then a NOP at the target
        "load_pc": LOAD + P_LOADED + ALU,
        "pop_pc": multiple(2) + P_LOADED + ALU,
        "table_branch": TABLE_BRANCH + P_LOADED + ALU,
        "bx_lr": (1 + P) + ALU,
        "bx_register": (1 + P_EXECUTE) + ALU,
        "bx_lr_written": ALU + (1 + P_EXECUTE) + ALU,
        # BL; ADD.W where it returns (the BX lr is outside the window):
        # the return's refill to a 32-bit instruction on an odd halfword
        # takes a cycle more, charged with the call
        "call_return_word": (1 + P) + ALU,
        "call_return_odd": (1 + P) + (P_WIDE_ODD - P) + ALU,
        "mul": 4 * MUL,
        "mla": 4 * MLA[model],
        "umull_small": UMULL[model][0],
        "umull_large": UMULL[model][1],
        "umull_mixed": UMULL[model][1],         # both must be small
        "smlal_small": SMLAL[model][0],
        "smlal_large": SMLAL[model][1],
        "sdiv_small": DIV[0],
        "udiv_large": DIV[1],
        "it_folded": 4 * (ALU + IT_FOLDED + ALU),
        "it_not_folded": 4 * (ALU + ALU + ALU),
        # not folded after a load (cmemu: nor after a branch or a write
        # of sp)
        "it_after_load": 4 * (LOAD + ALU + ALU),
        "alu_independent": 8 * ALU,
        "alu_dependent": 8 * ALU,
        "load_use": 4 * (LOAD + ALU),
        "load_shifted_use": 4 * (LOAD + ALU),
        "extend_use": 8 * ALU,
        "store_made": 4 * (ALU + STORE_IMM),
        "shifted_pairs": 8 * ALU,
        "alu16_pairs": 16 * ALU,
        "page_pairs": 8 * ALU,
        "mul_alu": 4 * (MUL + ALU),
        "mul_mul": 8 * MUL,
    }
    for n in range(1, 9):
        # PUSH, STM, POP, LDM (with one register: PUSH, STR followed by
        # a load, POP, LDR: the same 2 cycles each)
        e[f"multiple_{n}"] = 4 * multiple(n)
    return e


# Cortex-M7, measured rules (jnk0le, STM32H743) and the model's stated
# assumptions (docs/cycles.md): two independent instructions issue
# together, except two loads, two stores, two multiplies; LDM/STM/PUSH/
# POP take ceil(N/2) and issue alone; a word load's result is ready 2
# cycles after it issues for an address (an assumption), 1 for the late
# ALU, 2 for a shifted operand (read by the early ALU); a store takes
# the value made in its cycle; two shifted operands do not pair; a
# mispredicted branch costs 8, 6 when the flags it reads were set 3
# cycles before it, and a 2-bit counter per branch predicts it (an
# assumption: the notes give no structure).
M7_MISPREDICT = 8
M7_MISPREDICT_FLAGS_EARLY = 6
M7_LOAD_LATENCY = 2     # to an address
M7_LOAD_TO_LATE = 1     # "word loads can be consumed by late ALU in next
#                         cycle"


def expected_m7():
    e = {
        "alu_independent": 8 // 2,
        "page_pairs": 8 // 2,           # across a page, the same
        "alu_dependent": 8,
        "ldr_independent": 8,           # two loads do not pair
        "ldr_literal": 8,
        "ldr_literal_data": 8,
        "ldr_flash_data": 8,
        "ldr_sram2_data": 8,
        # (ldr, add.w), (add.w, add.w) or (adds, add.w), (add.w, add.w)
        "unaligned_run": 2,
        "unaligned_run_after_alu": 2,
        "aligned_run": 2,
        "page_loads": 8,
        "ldr_dependent": 1 + 7 * M7_LOAD_LATENCY,
        "str_imm": 8,                   # two stores do not pair
        "mul_alu": 4,                   # a multiply pairs with an ALU op
        "mul_mul": 8,                   # two multiplies do not
        "mla": 4,                       # nor two MACs
        # movs; subs (waits for r0); then subs+bne pairs; the exit
        # mispredicted (a backward branch is predicted taken)
        "branch_loop": 1 + 1 + 9 * 1 + M7_MISPREDICT,
        # movs; 10 x ((subs, add), add, add, (add, bne)): the subs 3
        # cycles before the bne, whose exit costs less
        "branch_flags_early": 1 + 10 * 4 + M7_MISPREDICT_FLAGS_EARLY,
        # movs; 10 x ((cmp, bne), (subs, bne)) paired; the forward bne
        # mispredicted twice (its counter starts at the static guess,
        # not taken), the exit once
        "branch_learned": 1 + 10 * 2 + 3 * M7_MISPREDICT,
        # a word load's result is read by the late ALU the next cycle,
        # a shifted operand a cycle later (early ALU); each ADD beside
        # the next LDR
        "load_use": 1 + 4 * M7_LOAD_TO_LATE,
        "load_shifted_use": 1 + 4 * (M7_LOAD_TO_LATE + 1),
        # a plain extend reads late: each beside the next ADD
        "extend_use": 1 + 4,
        "store_made": 4,                # a store takes its data at once
        "shifted_pairs": 8,             # two shifted operands do not pair
    }
    for n in range(1, 9):
        e[f"multiple_{n}"] = 4 * math.ceil(n / 2)
    return e


# Cortex-M0 TRM (DDI 0432C), Table 3-1: no pipelining between
# instructions ("there is no load to use latency", jnk0le's measurements
# agree); the fast multiplier, as the STM32F0 and the nRF51 have it.
M0 = {"alu": 1, "load": 2, "store": 2, "mul": 1, "taken": 3, "not_taken": 1,
      "bl": 4, "bx": 3, "system": 4}


def expected_m0():
    e = {
        "ldr_independent": 8 * M0["load"],
        "ldr_dependent": 8 * M0["load"],
        "ldr_str": 4 * (M0["load"] + M0["store"]),
        "str_imm": 8 * M0["store"],
        "str_reg": 8 * M0["store"],
        # movs; 10 x subs; 9 x bne taken; bne not taken
        "branch_loop": M0["alu"] + 10 * M0["alu"] + 9 * M0["taken"] +
        M0["not_taken"],
        # movs; 10 x (cmp, beq not taken, subs); 9 bne taken, 1 not; nop
        "branch_not_taken": M0["alu"] +
        10 * (2 * M0["alu"] + M0["not_taken"]) + 9 * M0["taken"] +
        M0["not_taken"] + M0["alu"],
        # cmp; beq taken; nop
        "branch_forward_taken": M0["alu"] + M0["taken"] + M0["alu"],
        # bl; bx lr; b; nop
        "call_return": M0["bl"] + M0["bx"] + M0["taken"] + M0["alu"],
        "mul": 4 * M0["mul"],
        "mul_alu": 4 * (M0["mul"] + M0["alu"]),
        "alu_independent": 8 * M0["alu"],
        "alu_dependent": 8 * M0["alu"],
        "mrs": 4 * M0["system"],
        "dmb": 4 * M0["system"],
    }
    for n in range(1, 8):
        e[f"multiple_{n}"] = 4 * multiple(n)     # 1+N
    return e


# Cortex-M33, measured rules (jnk0le, RP2350, "pipeline cycle test"):
# one instruction a cycle, loads pipelined with a result 2 cycles after
# issue (a store may take it as data after 1); LDM/STM/PUSH/POP N; a
# 16-bit branch pairs with the 16-bit instruction before it: free when
# not taken, 2 cycles when taken after one that set the flags (1 after
# one that did not); unpaired 1, and 1 more when taken; IT pairs with
# whatever precedes it; multiplies and long multiplies 1 (results 2
# later); divisions the Armv7-M divider's 2 to 12 (no M33 figure is
# published).
M33_TAKEN_AFTER_FLAGS = 2
M33_LOAD_LATENCY = 2
M33_LOAD_PC = 2         # a load of the pc: 2 more than the load
M33_TABLE_BRANCH = 2    # TBB, TBH: the load and the add


def expected_m33():
    e = {
        "ldr_independent": 8,
        "ldr_literal": 8,
        "ldr_literal_data": 8,
        "ldr_flash_data": 8,
        "ldr_sram2_data": 8,
        "unaligned_run": 4,
        "unaligned_run_after_alu": 4,
        "unaligned_run_after_branch": 1 + 3 + 1,
        "aligned_run": 4,
        "page_loads": 8,
        "ldr_dependent": 1 + 7 * M33_LOAD_LATENCY,
        "ldr_after_alu": 4 * (ALU + 1),
        "ldr_str": 4 * (1 + 1),         # the store takes the load's data
        "str_imm": 8,
        "str_reg": 8,
        # movs; 10 x (subs, bne paired): 9 taken, the last not
        "branch_loop": 1 + 10 + 9 * M33_TAKEN_AFTER_FLAGS,
        # the bne paired with an ADD, which sets no flags: 1 when taken
        "branch_flags_early": 1 + 10 * 5 + 9 * 1,
        # subs.w is 32-bit: bne issues alone, 1 more when taken
        "branch_loop_wide": 1 + 10 * (1 + 1) + 9,
        # movs; 10 x (cmp, beq paired not taken, subs, bne paired); nop
        "branch_not_taken": 1 + 10 * 2 + 9 * M33_TAKEN_AFTER_FLAGS + 1,
        # cbz first in its block: alone, taken; nop
        "branch_forward_taken": 2 + 1,
        # movs; 10 x ((cmp, bne) paired taken, (subs, bne)), 9 taken
        "branch_learned": 1 + 10 * (1 + M33_TAKEN_AFTER_FLAGS) + 10 +
        9 * M33_TAKEN_AFTER_FLAGS,
        # each then a NOP at the target
        "load_pc": 1 + M33_LOAD_PC + 1,
        "pop_pc": 2 + M33_LOAD_PC + 1,
        "table_branch": M33_TABLE_BRANCH + M33_LOAD_PC + 1,
        # BX alone, 1 more taken; after the MOV that makes lr, a cycle
        # later
        "bx_lr": 1 + 1 + 1,
        "bx_register": 1 + 1 + 1,
        "bx_lr_written": 1 + 1 + 1 + 1,
        # BL alone, 1 more taken; ADD.W (the BX lr outside the window)
        "call_return_word": 2 + 1,
        "call_return_odd": 2 + 1,
        "mul": 4,
        "mla": 4,
        "umull_small": 1,
        "umull_large": 1,
        "umull_mixed": 1,
        "smlal_small": 1,
        "smlal_large": 1,
        "sdiv_small": DIV[0],
        "udiv_large": DIV[1],
        "it_folded": 4 * 2,             # IT pairs with the ADDS
        "it_not_folded": 4 * 2,         # and with the ADD.W
        "it_after_load": 4 * 2,         # and with the LDR
        "alu_independent": 8,
        "page_pairs": 8,
        "alu_dependent": 8,
        "alu16_pairs": 16,
        "mul_alu": 8,
        "mul_mul": 8,
        "load_use": 4 * (1 + M33_LOAD_LATENCY),
        "load_shifted_use": 4 * (1 + M33_LOAD_LATENCY),
        "extend_use": 8,
        "store_made": 8,
        "shifted_pairs": 8,
    }
    for n in range(1, 9):
        e[f"multiple_{n}"] = 4 * n
    return e


# Cortex-M55, Arm's scheduling model in LLVM (ARMScheduleM55.td): one
# instruction a cycle; two 16-bit ones together when either is a NOP,
# IT, 16-bit branch, move/add/subtract of a constant, MOV or extend and
# the second needs nothing the first writes (flags included); results 1
# cycle, loads, multiplies and two-stage operands 2; LDM/STM/PUSH/POP
# two registers a cycle; a taken branch 2 more (MispredictPenalty 3);
# divisions the Armv7-M divider's 2 to 12 (no M55 figure is published).
M55_LOAD_LATENCY = 2
M55_REFILL = 2
M55_LOAD_PC_REFILL = 3  # after a load of the pc (TBB's included)
M55_TABLE_BRANCH = 2    # TBB, TBH issue in 2 cycles


def expected_m55():
    e = {
        "ldr_independent": 8,
        "ldr_literal": 8,
        "ldr_literal_data": 8,
        "ldr_flash_data": 8,
        "ldr_sram2_data": 8,
        "unaligned_run": 4,
        "unaligned_run_after_alu": 4,             # a 32-bit pairs with none
        "unaligned_run_after_branch": 1 + 3 + 1,
        "aligned_run": 4,
        "page_loads": 8,
        "ldr_dependent": 1 + 7 * M55_LOAD_LATENCY,
        # adds; then 4 ldr, each waiting for its adds, the next adds
        # beside it
        "ldr_after_alu": 1 + 4,
        "ldr_str": 4 * (1 + M55_LOAD_LATENCY),  # the store waits
        "str_imm": 8,
        "str_reg": 8,
        # movs; 10 x (subs; bne waiting for its flags), 9 taken
        "branch_loop": 1 + 10 * 2 + 9 * M55_REFILL,
        # movs; 10 x ((subs, add), add, add, (add, bne)), 9 taken
        "branch_flags_early": 1 + 10 * 4 + 9 * M55_REFILL,
        "branch_loop_wide": 1 + 10 * 2 + 9 * M55_REFILL,
        # movs; 10 x (cmp; beq not taken; subs; bne), 9 taken; nop
        "branch_not_taken": 1 + 10 * 4 + 9 * M55_REFILL + 1,
        # cbz taken; nop
        "branch_forward_taken": 1 + M55_REFILL + 1,
        # movs; 10 x (cmp; bne taken; subs; bne), 9 taken
        "branch_learned": 1 + 10 * (2 + M55_REFILL) + 10 * 2 +
        9 * M55_REFILL,
        # each then a NOP at the target; POP of two registers in one cycle
        "load_pc": 1 + M55_LOAD_PC_REFILL + 1,
        "pop_pc": 1 + M55_LOAD_PC_REFILL + 1,
        "table_branch": M55_TABLE_BRANCH + M55_LOAD_PC_REFILL + 1,
        "bx_lr": 1 + M55_REFILL + 1,
        "bx_register": 1 + M55_REFILL + 1,
        "bx_lr_written": 1 + 1 + M55_REFILL + 1,    # BX waits for lr
        "call_return_word": 1 + M55_REFILL + 1,    # BL; ADD.W
        "call_return_odd": 1 + M55_REFILL + 1,
        "mul": 4,
        "mla": 4,
        "umull_small": 1,
        "umull_large": 1,
        "umull_mixed": 1,
        "smlal_small": 1,
        "smlal_large": 1,
        "sdiv_small": DIV[0],
        "udiv_large": DIV[1],
        # 4 x (adds, it, moveq), in pairs: (adds, it), (moveq, adds),
        # (it, moveq), and so on: moveq waits a cycle for the flags
        "it_folded": 12 // 2,
        # add.w alone, (it, moveq) together
        "it_not_folded": 4 * 2,
        # (ldr, it), (moveq, ldr), (it, moveq)... as it_folded
        "it_after_load": 12 // 2,
        "alu_independent": 8,
        "page_pairs": 8,
        "alu_dependent": 8,
        # 4 x ((lsls, movs), lsls, eors)
        "alu16_pairs": 4 * 3,
        "mul_alu": 8,
        "mul_mul": 8,
        "load_use": 4 * (1 + M55_LOAD_LATENCY),
        "load_shifted_use": 4 * (1 + M55_LOAD_LATENCY),
        "extend_use": 8,
        "store_made": 8,
        "shifted_pairs": 8,
    }
    for n in range(1, 9):
        e[f"multiple_{n}"] = 4 * math.ceil(n / 2)
    return e


# SiFive E31 Core Complex Manual, 3.2-3.3: single issue; LW result
# latency 2, LB/LH/LBU 3, MUL 5 (the multiplier blocks until done), DIV
# 2 to 33 (1 bit a cycle); a mispredicted control-flow instruction 3.
E31_LW, E31_LB, E31_MUL, E31_MISPREDICT = 2, 3, 5, 3
E31_DIV = (2, 33)


def expected_e31():
    return {
        "ldr_independent": 8,
        "ldr_dependent": 1 + 7 * E31_LW,
        "load_use": 4 * (1 + E31_LW),
        "load_byte_use": 4 * (1 + E31_LB),
        "ldr_str": 4 * (1 + E31_LW),
        "str_imm": 8,
        # li; 10 x addi; 9 bnez taken (predicted), the exit mispredicted
        "branch_loop": 1 + 10 + 10 + E31_MISPREDICT,
        # a forward branch is predicted not taken
        "branch_forward_taken": 1 + E31_MISPREDICT + 1,
        "mul": 3 * E31_MUL + 1,
        "mul_use": 4 * (1 + E31_MUL),
        "div_small": E31_DIV[0],
        "divu_large": E31_DIV[1],
        "alu_independent": 8,
    }


def expected(board):
    model = board.cycle_model
    if model == "m0":
        return expected_m0()
    if model in ("m3", "m4"):
        return expected_m3(model)
    if model == "m7":
        return expected_m7()
    if model == "m33":
        return expected_m33()
    if model == "m55":
        return expected_m55()
    if model == "e31":
        return expected_e31()
    return None


def measured(ctx, board):
    """{sequence: (cycles, instructions)} of every sequence of the
    image, booted once with a window on each, and the profile."""
    return cycle_sequences(ctx, board)


def check(ctx, board, names):
    want = expected(board)
    if want is None:
        return                          # no model for this core
    found, _ = measured(ctx, board)
    wrong = {n: (found[n][0], want[n]) for n in names
             if n in want and found[n][0] != want[n]}
    assert not wrong, "cycles (model, table): " + ", ".join(
        f"{n} {m} expected {t}" for n, (m, t) in wrong.items())


def test_loads_pipeline_unless_dependent(ctx, board):
    check(ctx, board, ["ldr_independent", "ldr_literal", "ldr_dependent",
                       "ldr_after_alu", "ldr_literal_data", "ldr_flash_data",
                       "ldr_sram2_data",
                       "load_use", "load_byte_use"])


def test_unaligned_32_bit_runs_after_a_multi_cycle_one(ctx, board):
    """The Cortex-M3/M4's fetch: three 32-bit instructions on odd
    halfwords right after a multi-cycle instruction, or after a B<c> not
    taken (which fetched its target instead of the next word), a cycle
    more; not after a single-cycle one, nor on whole words."""
    check(ctx, board, ["unaligned_run", "unaligned_run_after_alu",
                       "unaligned_run_after_branch", "aligned_run"])


def test_loads_followed_by_stores_and_stores(ctx, board):
    check(ctx, board, ["ldr_str", "str_imm", "str_reg"])


def test_taken_and_not_taken_branches(ctx, board):
    check(ctx, board, ["branch_loop", "branch_flags_early",
                       "branch_loop_wide", "branch_not_taken",
                       "branch_forward_taken", "call_return"])


def test_loads_to_the_pc_refill_late(ctx, board):
    """LDR pc, POP {pc} and TBB: the Cortex-M3/M4 learn their target
    from the load's data, and refill in 3 cycles, not 1."""
    check(ctx, board, ["load_pc", "pop_pc", "table_branch"])


def test_register_branches_refill_by_when_their_target_is_known(ctx, board):
    """BX lr: the Cortex-M3/M4 read lr in decode (refill 1); another
    register, or lr written by the instruction before, in execute (2)."""
    check(ctx, board, ["bx_lr", "bx_register", "bx_lr_written"])


def test_a_return_refills_as_a_branch_to_its_address(ctx, board):
    """A return to a 32-bit instruction on an odd halfword takes the
    cycle more a branch there does, on the Cortex-M3/M4: charged with
    the call, which knows where its return goes."""
    check(ctx, board, ["call_return_word", "call_return_odd"])


def test_operands_read_early_and_late(ctx, board):
    """The Cortex-M7's two ALU stages (jnk0le's measurements): a load's
    result is read by the late ALU the next cycle, a shifted operand a
    cycle later; a store takes the value made beside it; two shifted
    operands do not pair.  The other cores: their own rules."""
    check(ctx, board, ["load_use", "load_shifted_use", "extend_use",
                       "store_made", "shifted_pairs"])


def test_a_page_does_not_break_the_schedule(ctx, board):
    """QEMU ends a block at a 1 KiB page; the schedule goes on across
    it: 8 loads, and 8 independent ADDs, with a page after the third
    take what they take on one page."""
    if expected(board) is None or board.armv6m or board.arch != "arm":
        return
    symbols = elf.read(ctx.firmware(board, IMAGE)).symbols
    for name in ["page_loads", "page_pairs"]:
        assert ((symbols[f"cyc_{name}_start"] & ~1) + 12) % 1024 == 0
    check(ctx, board, ["page_loads", "page_pairs"])


def test_branches_the_predictor_learns(ctx, board):
    """A forward branch always taken: the M7's predictor learns it (a
    static guess would miss it 10 times, 80 cycles more); the others
    have no predictor and pay each taken branch."""
    check(ctx, board, ["branch_learned"])


def test_multiplies_and_divisions_by_operands(ctx, board):
    check(ctx, board, ["mul", "mla", "umull_small", "umull_large",
                       "umull_mixed",
                       "smlal_small", "smlal_large", "sdiv_small",
                       "udiv_large", "mul_use", "div_small", "divu_large",
                       "mul_alu", "mul_mul"])


def test_load_and_store_multiple_by_register_count(ctx, board):
    check(ctx, board, [f"multiple_{n}" for n in range(1, 9)])


def test_it_blocks_fold_after_16_bit_instructions(ctx, board):
    check(ctx, board, ["it_folded", "it_not_folded", "it_after_load"])


def test_dual_issue_of_independent_instructions(ctx, board):
    check(ctx, board, ["alu_independent", "alu_dependent", "alu16_pairs"])


def test_special_registers_and_barriers(ctx, board):
    check(ctx, board, ["mrs", "dmb"])


def test_every_sequence_has_a_table_count(ctx, board):
    """No sequence of the image goes unchecked on a modelled core."""
    want = expected(board)
    if want is None or board.name == "mps2-an500":
        return          # the M7 notes give rules for some classes only
    found, _ = measured(ctx, board)
    assert sorted(found) == sorted(want), set(found) ^ set(want)


def test_counts_are_identical_run_to_run(ctx, board):
    if expected(board) is None:
        return
    first = measured(ctx, board)[1]
    del ctx.cache[("cycle sequences", board.name, None, IMAGE)]
    again = measured(ctx, board)[1]
    assert (first.cycles, first.windows) == (again.cycles, again.windows)


def test_instructions_seen_are_the_executed_ones(ctx, board):
    """The model's instruction total matches the profiler's exact one."""
    if expected(board) is None:
        return
    _, profile = measured(ctx, board)
    assert profile.cycles_model == board.cycle_model
    assert profile.cycles > 0 and profile.cycles_instructions > 0
    result = run(ctx, board, ctx.firmware(board, IMAGE), profile=EXACT,
                 cycles=True, windows=(), counter_clock="time")
    assert result.exit_code == 0, result.output
    both = result.plugin
    assert both.cycles_instructions == both.instructions
    assert both.cycles == profile.cycles


def test_profile_cycles_prints_the_run_and_each_function(ctx, board):
    """scripts/profile --cycles as a user runs it (the default example):
    the estimate, and the counter core counting it as its clock."""
    with tempfile.TemporaryDirectory() as tmp:
        doc_path = Path(tmp) / "run.json"
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             "--cycles", "--json", str(doc_path)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
        doc = json.loads(doc_path.read_text()) if doc_path.exists() \
            else None
    if expected(board) is None:
        assert proc.returncode != 0
        assert "no cycle model for" in proc.stderr, proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    m = re.search(r"^cycles: (\d+) estimated cycles .* model (\w+), 0 wait "
                  r"states\) for (\d+) instructions", proc.stdout, re.M)
    assert m, proc.stdout
    assert m.group(2) == board.cycle_model
    rows = re.findall(r"^\s+(\d+)\s+[\d.]+\s+(\d+)\s+[\d.]+\s+main$",
                      proc.stdout, re.M)
    assert rows and 0 < int(rows[0][0]) < int(m.group(1)), proc.stdout
    # The report is in estimated cycles, the instructions beside them
    core = doc["cores"][0]
    assert core["clock"] == "cycles" and core["reported_by_guest"], core
    section = core["sections"][0]
    assert 0 < section["instructions"] != section["clocks"], section
    assert section["clocks"] <= core["global"]["clocks"] <= int(m.group(1))


# An assembly routine without .size (as Keccak's permutation in pqm4)
# that loops n times, and a program calling it
SIZELESS = {
    "thumb": """\
    .syntax unified
    .thumb
    .text
    .global spin
    .type spin, %function
    .thumb_func
spin:
1:  subs r0, r0, #1
    bne 1b
    bx lr
""",
    "riscv32": """\
    .text
    .global spin
    .type spin, @function
spin:
1:  addi a0, a0, -1
    bnez a0, 1b
    ret
""",
}
SIZELESS_MAIN = """\
void spin(unsigned n);

int main(void)
{
    spin(20000);
    return 0;
}
"""


def test_a_routine_without_a_size_has_its_row(ctx, board):
    """scripts/profile --cycles counts an assembly routine that has no
    .size (to the next function) in a row of its own."""
    if expected(board) is None:
        return
    isa = "riscv32" if board.arch == "riscv32" else board.isa
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "main.c").write_text(SIZELESS_MAIN)
        (Path(tmp) / "spin.S").write_text(SIZELESS[isa])
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             "--cycles", "main.c", "spin.S"], cwd=tmp,
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = re.findall(r"^\s+(\d+)\s+[\d.]+\s+(\d+)\s+[\d.]+\s+spin$",
                      proc.stdout, re.M)
    # its loop: 2 instructions an iteration, and the return
    assert rows and int(rows[0][1]) == 2 * 20000 + 1, proc.stdout


def clock_run(ctx, board):
    """cycles_clock.elf booted once with clock=cycles and a window on
    clock_loop and on each ADDS of clock_adds: (guest lines, windows,
    the core's readout, the instruction size)."""
    key = ("cycles_clock", board.name)
    if key in ctx.cache:
        return ctx.cache[key]
    image = ctx.firmware(board, CLOCK_IMAGE)
    symbols = elf.read(image).symbols
    size = 4 if board.arch == "riscv32" else 2
    loop = (symbols["clock_loop_start"] & ~1, symbols["clock_loop_end"] & ~1)
    adds_start = symbols["clock_adds_start"] & ~1
    adds = [(adds_start + i * size, adds_start + (i + 1) * size)
            for i in range(16)]
    assert (symbols["clock_adds_end"] & ~1) == adds[-1][1]
    result = run(ctx, board, image, cycles=True, windows=(loop, *adds))
    assert result.exit_code == 0, result.output
    profile, cores = result.plugin, result.cores
    windows = {"loop": profile.windows[loop],
               "adds": [profile.windows[w] for w in adds]}
    ctx.cache[key] = (result.output.splitlines(), windows, cores[0], size)
    return ctx.cache[key]


def test_a_section_counts_the_estimated_cycles_of_its_code(ctx, board):
    """clock=cycles: section 1 around a 10-iteration loop counts exactly
    the model's cycles of the same instructions (a window), which are
    the table's, and its 22 instructions beside them."""
    if expected(board) is None:
        return
    lines, windows, core, _ = clock_run(ctx, board)
    assert core.clock == "cycles"
    m = next(re.match(r"loop clocks=(\d+) instructions=(\d+)$", line)
             for line in lines if line.startswith("loop "))
    cycles, instructions = windows["loop"]
    assert (int(m.group(1)), int(m.group(2))) == (cycles, instructions)
    assert instructions == 22      # mov; 10 x (sub; branch); the END store
    end_store = expected(board)["str_imm"] // 8     # an immediate offset
    assert cycles == expected(board)["branch_loop"] + end_store


def clock_figures(ctx, board, pattern):
    """The numbers of the line of cycles_clock.elf's output that pattern
    matches"""
    lines = clock_run(ctx, board)[0]
    found = [m for m in map(re.compile(pattern).match, lines) if m]
    assert found, lines
    return [int(figure) for figure in found[0].groups()]


def test_a_guess_whose_other_way_ran_first_is_corrected(ctx, board):
    """A block at a branch's other way translated before the branch
    (ARCH/cycles_clock.S, guess_late_warm) is translated again with the
    check of the guess: guess_late counts what its copy guess_first
    does, each of its 9 wrong guesses included."""
    if expected(board) is None:
        return
    late, first = clock_figures(ctx, board, r"guess late=(\d+) first=(\d+)$")
    assert late == first > 0


def test_a_block_ended_at_its_device_access_counts_as_on_its_first_run(
        ctx, board):
    """Under icount QEMU leaves a block at a device access in its middle
    and, from then on, translates it to end there (patch 0037): the
    block is costed as it was whole, the store's cycle for the load
    after it included (ARCH/cycles_clock.S, io_store_load, run twice)."""
    if expected(board) is None:
        return
    first, again = clock_figures(ctx, board, r"io first=(\d+) again=(\d+)$")
    assert first == again > 0


def test_a_threshold_on_cycles_interrupts_at_the_instruction(ctx, board):
    """clock=cycles: a threshold of K clocks on a section interrupts
    right after the instruction whose estimated cycles reach K (from
    the model's per-instruction windows), exactly once; dependent ALU
    instructions cost 1 cycle each on the M3, M4 and E31."""
    if expected(board) is None:
        return
    lines, windows, _, size = clock_run(ctx, board)
    # each ADDS ran once per threshold: its cost in one run
    assert all(n == 3 and c % n == 0 for c, n in windows["adds"]), windows
    costs = [c // n for c, n in windows["adds"]]
    if board.cycle_model not in ("m7", "m55"):
        # (the M7 and the M55 issue the first beside the BEGIN store)
        assert costs == [ALU] * 16, costs
    taken = {int(m.group(1)): (int(m.group(2)), int(m.group(3)))
             for m in (re.match(r"threshold k=(\d+) taken=(\d+) "
                                r"offset=(-?\d+)$", line) for line in lines)
             if m}
    assert sorted(taken) == [1, 5, 16], lines
    for k, got in taken.items():
        reached = next(j for j in range(1, 17) if sum(costs[:j]) >= k)
        assert got == (1, reached * size), (k, got, costs)
