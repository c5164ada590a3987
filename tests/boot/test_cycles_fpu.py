# SPDX-License-Identifier: MIT
"""The FPU in the timing models (docs/cycles.md): the sequences of
tests/firmware/arm/cycles_fpu.S on the Cortex-M4 against the TRM's
table 7-1, and the Cortex-M7's loads and stores against jnk0le's
measurements ("vldm behaves as regular ldm"), computed here from the
tables, never from the model's output."""

import math

from bootlib import cycle_sequences
from test_cycles import LOAD, PIPELINED, STORE_IMM, multiple

PER_BOARD = True
IMAGE = "tests/firmware/cycles_fpu.elf"

# Cortex-M4 TRM (DDI 0439D), table 7-1, and its notes: an arithmetic
# result "consumed by the following instruction" a cycle later (not as
# a multiply-accumulate's addend, consumed a cycle later anyway);
# "integer-only instructions following VDIV or VSQRT complete
# out-of-order"
FP_ALU = 1          # VADD, VSUB, VMUL, VABS, VNEG, VCMP, VCVT, VMOV
FP_MAC = 3          # VMLA, VMLS, VFMA... (chained and fused)
FP_DIV = 14         # VDIV, VSQRT
FP_LATE = 1
VLDR_DOUBLE = 3     # VLDR.64, VSTR.64: as LDRD, 1+2
# A move between one core and one s register: 1, as measured (the
# Cortex-M4 optimization compendium: "moving between a CPU register and
# an FPU register always takes one cycle"; the table says 2); two
# registers (a pair, or a double) 2
VMOV_ONE = 1
VMOV_TWO = 2


def expected_m4():
    return {
        # as LDR: the first 2, each pipelined after it 1
        "fp_vldr": LOAD + 7 * PIPELINED,
        "fp_vldr_double": 4 * VLDR_DOUBLE,
        "fp_vstr": 8 * STORE_IMM,
        "fp_vldm": 4 * multiple(8),                 # 1+N words
        "fp_vpush_vpop": 2 * multiple(8),           # d8-d11: 8 words
        "fp_vmov_to_core": 8 * VMOV_ONE,
        "fp_vmov_from_core": 8 * VMOV_ONE,
        "fp_vmov_pair": 4 * VMOV_TWO,
        "fp_add_independent": 8 * FP_ALU,
        "fp_add_dependent": FP_ALU + 7 * (FP_LATE + FP_ALU),
        "fp_mac_chain": 4 * FP_MAC,                 # each the next's addend
        "fp_mul_then_mac": 2 * (FP_ALU + FP_LATE + FP_MAC),
        "fp_mul_to_addend": 2 * (FP_ALU + FP_MAC),
        "fp_div_use": FP_DIV + FP_LATE + FP_ALU,
        # the eight ADDS run while the FPU divides
        "fp_div_overlap": FP_DIV + FP_ALU,
        "fp_sqrt_use": FP_DIV + FP_LATE + VMOV_ONE,
        "fp_compare": FP_ALU + 1,                   # VCMP; VMRS
    }


def expected_m7():
    """Loads and stores only: the M7 model has no rules of its own for
    FP arithmetic (docs/cycles.md)."""
    return {
        "fp_vldr": 8,                           # two loads do not pair
        "fp_vstr": 8,                           # nor two stores
        "fp_vldm": 4 * math.ceil(8 / 2),        # as LDM: two words a cycle
        "fp_vpush_vpop": 2 * math.ceil(8 / 2),
    }


EXPECTED = {"m4": expected_m4, "m7": expected_m7}
# The models of the cores with an FPU (the image is built for them)
FPU_MODELS = ("m4", "m7", "m33", "m55")


def expected(board):
    model = board.cycle_model
    return EXPECTED[model]() if model in EXPECTED else None


def check(ctx, board, names):
    want = expected(board)
    if want is None:
        return
    found, _ = cycle_sequences(ctx, board, image=IMAGE)
    wrong = {n: (found[n][0], want[n]) for n in names
             if n in want and found[n][0] != want[n]}
    assert not wrong, "cycles (model, table): " + ", ".join(
        f"{n} {m} expected {t}" for n, (m, t) in wrong.items())


def test_fp_loads_and_stores_as_the_cores_of_as_many_words(ctx, board):
    check(ctx, board, ["fp_vldr", "fp_vldr_double", "fp_vstr", "fp_vldm",
                       "fp_vpush_vpop"])


def test_moves_between_core_and_fpu_registers(ctx, board):
    check(ctx, board, ["fp_vmov_to_core", "fp_vmov_from_core",
                       "fp_vmov_pair", "fp_compare"])


def test_an_arithmetic_result_is_late_to_the_next(ctx, board):
    check(ctx, board, ["fp_add_independent", "fp_add_dependent",
                       "fp_mul_then_mac", "fp_mul_to_addend",
                       "fp_mac_chain"])


def test_division_and_square_root_keep_the_fpu_busy(ctx, board):
    check(ctx, board, ["fp_div_use", "fp_div_overlap", "fp_sqrt_use"])


def test_every_m4_sequence_has_a_table_count(ctx, board):
    """No sequence of the image goes unchecked on the M4."""
    if board.cycle_model != "m4":
        return
    found, _ = cycle_sequences(ctx, board, image=IMAGE)
    assert sorted(found) == sorted(expected_m4())


def test_the_sequences_ran(ctx, board):
    """Each sequence ran once to the end, its instructions all counted
    (the FPU enabled: a disabled one faults at the first); on the M33
    and M55 too, whose models count FP instructions by their core's
    classes (loads, stores, an ALU operation)."""
    if board.cycle_model not in FPU_MODELS:
        return
    found, _ = cycle_sequences(ctx, board, image=IMAGE)
    assert found["fp_vldr"][1] == 8 and found["fp_div_overlap"][1] == 10
