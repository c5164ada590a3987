# SPDX-License-Identifier: MIT
"""The events the CPU's counters and the counter cores count, by the
number QEMU's hook gives each (PerfctrEvent, in
qemu-device/include/accel/tcg/perfctr-hook.h, which owns them; the
device's EVSEL and the firmware's PERFCTR_EVENT_* use the same numbers;
docs/register-map.md says what each counts)."""

NAMES = (
    None,                       # 0: none
    "instructions",
    "loads",
    "stores",
    "branches",
    "calls",
    "returns",
    "taken_branches",
    "exceptions",
    "cycles",
    "conditional_branches",
    "direct_jumps",
    "indirect_jumps",
    "multiplies",
    "divides",
    "exception_returns",
    "retired_branches",
    "memory_stalls",
)


def named(mask, counts):
    """{name: count} of the events whose bit is set in mask (bit e for
    event e), from counts indexed by event number."""
    return {name: counts[e] for e, name in enumerate(NAMES)
            if name and mask & (1 << e)}
