# SPDX-License-Identifier: MIT
"""Read a guest's fault report into one line: what faulted, where, and
in which function.

The reports are what picolibc's crt0 prints on the guest's stdout on
Cortex-M ("ARM fault: KIND" then registers) and RISC-V ("RISCV fault"
then registers with mepc, mcause, mtval), what
firmware/boards/arm-vbar/fault.c prints on Cortex-A in the Cortex-M
form, the library's own line on the virt boards in programs that check
their counter's base (firmware/src/perfctr_require_core.c), and QEMU's
own "qemu: fatal: WHY" and register dump on its stderr when a fault
cannot be taken at all (a Cortex-M lockup).
"""

import re

HEADER = re.compile(r"^(ARM|RISCV) fault(?::\s*(.*?))?\s*$"
                    r"|^(qemu)[\w-]*: fatal: (.*?)\s*$"
                    r"|^perf-counter: the program's (access) to "
                    r"0x([0-9a-f]+) at pc 0x([0-9a-f]+) faulted")
REGISTER = re.compile(r"^\s*(?:x\d+\s+)?([\w/]+):?\s+0x([0-9a-fA-F]+)\s*$")
# QEMU's dump: "R15=0000001c" on Arm, " pc       80000000" on RISC-V
QEMU_PC = re.compile(r"\bR15=([0-9a-f]{8})|^\s*pc\s+([0-9a-f]+)\s*$")
# The RISC-V privileged spec's mcause exception codes
RISCV_CAUSES = {
    0: "instruction address misaligned", 1: "instruction access fault",
    2: "illegal instruction", 3: "breakpoint",
    4: "load address misaligned", 5: "load access fault",
    6: "store address misaligned", 7: "store access fault",
    8: "environment call from U-mode", 11: "environment call from M-mode",
    12: "instruction page fault", 13: "load page fault",
    15: "store page fault",
}
# Causes whose mtval is the address that faulted
RISCV_ADDRESS_CAUSES = {0, 1, 4, 5, 6, 7, 12, 13, 15}
RISCV_ILLEGAL = 2
# The extensions an illegal instruction most likely belongs to, by its
# encoding (mask, match, what): what a core without them refuses
RISCV_EXTENSIONS = [
    (0xE003, 0xA002, "Zcmp's cm.push/cm.pop (or D's c.fsdsp): --cpu "
     "rv32,zcd=off,zcmp=on"),
    (0xE003, 0x8000, "Zcb's compressed loads and stores: --cpu rv32,zcb=on"),
    (0xFC63, 0x9C61, "Zcb's compressed arithmetic: --cpu rv32,zcb=on"),
    (0x007F, 0x0053, "F or D (floating point): --cpu rv32,f=on,d=on"),
    (0x007F, 0x0007, "F or D's loads (floating point)"),
    (0x007F, 0x0027, "F or D's stores (floating point)"),
    (0x007F, 0x0057, "V (vectors)"),
    (0x007F, 0x002F, "A (atomics)"),
    (0xFE00007F, 0x02000033, "M (multiply and divide)"),
]


def is_header(line):
    return HEADER.match(line) is not None


def _registers(lines):
    regs = {}
    for line in lines:
        m = REGISTER.match(line)
        if m:
            regs[m.group(1).lower()] = int(m.group(2), 16)
    return regs


def reason(lines, image=None):
    """One line for the fault report lines (the header first); image
    (an elf.Image) names the functions."""
    m = HEADER.match(lines[0])
    regs = _registers(lines[1:])
    address = None
    if m.group(5):
        kind = "access where nothing answers"
        address, pc = int(m.group(6), 16), int(m.group(7), 16)
    elif m.group(3):
        kind = m.group(4)
        pcs = [p for line in lines[1:] for p in QEMU_PC.findall(line)]
        pc = int("".join(pcs[0]), 16) if pcs else None
    elif m.group(1) == "RISCV":
        cause = regs.get("mcause")
        kind = RISCV_CAUSES.get(cause, f"mcause {cause:#x}"
                                if cause is not None else "unknown cause")
        pc = regs.get("mepc")
        address = regs.get("mtval") if cause in RISCV_ADDRESS_CAUSES \
            else None
        if cause == RISCV_ILLEGAL:
            kind += _riscv_instruction(regs.get("mtval"), pc, image)
    else:
        kind = m.group(2) or "unknown"
        pc = regs.get("pc")
        address = regs.get("addr")
    text = f"guest fault: {kind}"
    if pc is not None:
        text += f" at pc {pc:#010x}{_in(image, pc)}"
    if address is not None:
        text += f", address {address:#010x}"
    return text


def _riscv_instruction(tval, pc, image):
    """ 0xWORD (the extension it belongs to) of an illegal instruction:
    mtval, where QEMU puts it, or the image's bytes at pc."""
    word = tval
    if not word and image and pc is not None:
        data = image.read(pc, 4) or image.read(pc, 2)
        word = int.from_bytes(data, "little") if data else None
    if not word:
        return ""
    if word & 3 != 3:
        word &= 0xFFFF      # compressed: 16 bits
    text = f" {word:#06x}" if word <= 0xFFFF else f" {word:#010x}"
    for mask, match, what in RISCV_EXTENSIONS:
        # (a compressed pattern for a compressed word, and the other way)
        if word & mask == match and (match & 3 == 3) == (word & 3 == 3):
            return text + f" ({what})"
    return text


def _in(image, addr):
    name = image.function_at(addr) if image else None
    return f" in {name}" if name else ""
