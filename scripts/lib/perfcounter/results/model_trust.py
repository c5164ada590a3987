# SPDX-License-Identifier: MIT
"""How far to trust a timing model's estimate: what each model was
measured against on silicon and how far off it was (the table "Against
silicon" of docs/cycles.md, measured by scripts/bench's silicon
options; this module is its one summary in code), and what the run
itself says about it (the part its code ran from)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Measured:
    routines: str           # hand-written code against silicon, or None
    compiled: str = None    # compiled C (Embench, CoreMark), or None


# By the plugin's model name (docs/cycles.md, "Against silicon")
MEASURED = {
    "m0": Measured("within 2.3% (cortexm-AES on an STM32F0)"),
    "m0-small-mul": Measured("within 2.3% (cortexm-AES on an STM32F0, "
                             "as m0)"),
    "m3": Measured("within 2.8% (cortexm-AES on an STM32F1; Keccak and "
                   "NTTs on an Arduino Due, with --memory sam3x8e-12mhz)",
                   "CoreMark +3.2% (Arduino Due, --memory "
                   "sam3x8e-84mhz)"),
    "m4": Measured("within 1.2% (cortexm-AES on an STM32F4; Keccak and "
                   "NTTs on an STM32F407, with --memory stm32f407-24mhz)",
                   "Embench -2.6% (geometric mean, --memory "
                   "stm32f407-16mhz; huffbench and wikisort -9.9%, "
                   "the rest within 9%)"),
    "m7": Measured("+1.8 to +2.4% (cortexm-AES on an STM32H7)",
                   "CoreMark +1.2% and -3.1% (Teensy 4)"),
    "m33": Measured("within 1.1% (cortexm-AES on an RP2350)"),
    "m55": Measured(None),
    "e31": Measured(None, "Dhrystone -10.2% (HiFive1, SiFive's figure; "
                    "its compiler and C library differ, routines never "
                    "compared)"),
}
# Models whose figures against silicon are with the part's flash
NEEDS_PART = ("m3", "m4")


def of(model, memory):
    """(what the estimate rests on, a hint or None) for a run of model
    with code in memory ("sram" or a flash part's name)."""
    measured = MEASURED.get(model, Measured(None))
    if measured.routines is None and measured.compiled is None:
        said = (f"model {model}: not yet compared with silicon (no "
                f"published figure checked): a relative measure")
    elif measured.routines is None:
        said = f"model {model} against silicon: {measured.compiled}"
    else:
        said = f"model {model} against silicon: {measured.routines}"
        if measured.compiled:
            said += f"; {measured.compiled}"
    hint = None
    if memory == "sram":
        said += "; this run: no part, code and data at 0 wait states"
        if model in NEEDS_PART:
            hint = ("hint: with code in a part's flash the estimate moves "
                    "5 to 10% on the same routines: pass --memory PART "
                    "(docs/cycles.md, memory parts)")
    else:
        said += f"; this run: code in the flash of {memory}"
    return said, hint


def document(model, memory):
    """--json's "cycles"."trust"."""
    measured = MEASURED.get(model, Measured(None))
    said, hint = of(model, memory)
    return {"checked_against_silicon": measured.routines is not None or
            measured.compiled is not None,
            "routines": measured.routines, "compiled": measured.compiled,
            "part": None if memory == "sram" else memory,
            "summary": said, "hint": hint}
