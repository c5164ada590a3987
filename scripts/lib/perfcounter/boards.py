# SPDX-License-Identifier: MIT
"""The boards we profile on, and how QEMU is started for each.

What the firmware must agree on (the cores' bases and sections, the
counter clock) is read from the board's system.h, the one place it is
written down; which system.h a board uses, from its Meson cross file.
"""

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.paths import REPO

BOARDS_DIR = REPO / "firmware" / "boards"
INCLUDE_DIR = REPO / "firmware" / "include"
NS_PER_SECOND = 1_000_000_000


@dataclass(frozen=True)
class RamOption:
    """How a QEMU option sizes one of a board's RAMs (at base): -m SIZE,
    or -global PROPERTY=SIZE."""
    base: int
    flag: str                   # "-m" or "-global"
    prop: str = None            # the -global's property

    def size_in(self, qemu_args):
        """The size qemu_args give the RAM, or None."""
        size = None
        for flag, value in zip(qemu_args, list(qemu_args)[1:]):
            if flag != self.flag:
                continue
            if self.prop:
                name, _, value = value.partition("=")
                if name != self.prop:
                    continue
            size = _size(value.removeprefix("size="))
        return size

    def args(self, size):
        value = f"{size:#x}" if self.prop else f"{size // MiB}M"
        return [self.flag, f"{self.prop}={value}" if self.prop else value]


def _size(text):
    """QEMU's size: a number, hex, or with a K/M/G suffix (in bytes)."""
    m = re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)([KMGkmg]?)[bB]?", text.strip())
    if not m:
        return None
    return int(m.group(1), 0) << {"": 0, "k": 10, "m": 20, "g": 30}[
        m.group(2).lower()]


@dataclass
class Board:
    """A board scripts/profile boots: its QEMU machine and what the
    profiler and the library need to know of it."""
    name: str
    arch: str                  # qemu-system-<arch>
    cpu: str                   # for humans
    # Machine options, and what keeps the board quiet and headless
    qemu_args: list = field(default_factory=list)
    # Warnings QEMU always prints for this board, not worth showing
    stderr_noise: list = field(default_factory=list)
    # [(base, size)] of the RAM QEMU gives the board (with its defaults),
    # where an image may be loaded
    memory: list = field(default_factory=list)
    # The Arm instruction set the board's code is in (the profiler's
    # decoder): thumb, a32 for Arm state, a64 for AArch64
    isa: str = "thumb"
    # The UARTs the machine has (QEMU's serial_hd(0) to (uarts - 1));
    # one more can add a device (virt's second UART)
    uarts: int = 1
    # A load or store where nothing answers faults (QEMU ignores them on
    # the boards it marks ignore_memory_transaction_failures)
    bus_faults: bool = True
    # The plugin's timing model of the core (docs/cycles.md); None: none
    cycle_model: str = None
    # The UART the board's firmware uses as its console (its first)
    console_uart: int = 0
    # The option that sizes its RAM, where one does
    ram_option: RamOption = None
    # Where a Cortex-M core finds its vector table at reset (its VTOR)
    vector_base: int = 0

    def memory_for(self, qemu_args=()):
        """The memory, with the RAM as qemu_args size it."""
        size = self.ram_option.size_in(qemu_args) if self.ram_option \
            else None
        if size is None:
            return list(self.memory)
        return [(base, size if base == self.ram_option.base else n)
                for base, n in self.memory]

    @property
    def cortex_m(self):
        return self.cpu.startswith("Cortex-M")

    @property
    def armv6m(self):
        """Armv6-M (the Cortex-M0): Thumb without IT blocks, conditional
        loads and stores, divides, the DWT's cycle counter or the ITM."""
        return self.cpu == "Cortex-M0"

    @property
    def dwt(self):
        """Whether the core has the DWT's cycle counter and the ITM."""
        return self.cortex_m and not self.armv6m

    @property
    def address_bytes(self):
        """The width of a code address (gmon.out's pcs)."""
        return 8 if self.arch == "aarch64" else 4

    @property
    def cross_file(self) -> Path:
        return BOARDS_DIR / f"{self.name}.ini"

    @property
    def system_h(self) -> Path:
        m = re.search(r"^board_dir\s*=\s*'([^']+)'",
                      self.cross_file.read_text(), re.M)
        if not m:
            raise Failure(f"{self.cross_file} sets no board_dir")
        return BOARDS_DIR / m.group(1) / "system.h"

    @property
    def headers(self):
        """The board's system.h and the headers it includes."""
        return _headers(self.system_h)

    def defines(self):
        """The integer #defines of the board's system.h and the headers it
        includes, by name (read once: a run asks five times)."""
        return dict(_defines(self.system_h))

    @property
    def freq(self):
        try:
            return self.defines()["ALT_CPU_FREQ"]
        except KeyError:
            raise Failure(f"{self.system_h} does not define ALT_CPU_FREQ") \
                from None

    @property
    def counters(self):
        """[(base, sections)] of every core system.h declares, in order.

        Cores are PERFORMANCE_COUNTER_BASE, PERFORMANCE_COUNTER_1_BASE...
        each with its _HOW_MANY_SECTIONS.
        """
        d = self.defines()
        found = []
        for name in sorted(d, key=lambda n: (len(n), n)):
            m = re.fullmatch(r"PERFORMANCE_COUNTER(_\d+)?_BASE", name)
            if not m:
                continue
            sections = f"PERFORMANCE_COUNTER{m.group(1) or ''}" \
                "_HOW_MANY_SECTIONS"
            if sections not in d:
                raise Failure(f"{self.system_h} defines {name} but not "
                              f"{sections}")
            found.append((d[name], d[sections]))
        if not found:
            raise Failure(f"{self.system_h} declares no "
                          f"PERFORMANCE_COUNTER_BASE")
        return found

    @property
    def icount_shift(self):
        """The -icount shift that makes one count one instruction."""
        shift = round(math.log2(NS_PER_SECOND / self.freq))
        if NS_PER_SECOND != self.freq << shift:
            raise Failure(
                f"ALT_CPU_FREQ {self.freq} in {self.system_h} is not "
                f"1e9 / 2^N Hz, so no -icount shift gives one count per "
                f"instruction")
        return shift


_LINE = re.compile(r'^#\s*(?:define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)\s*'
                   r'|include\s+"([^"]+)"\s*)$', re.M)


@lru_cache
def _defines(system_h):
    return {m.group(1): int(m.group(2), 0) for header in _headers(system_h)
            for m in _LINE.finditer(header.read_text()) if m.group(1)}


def _headers(header, seen=()):
    """header and the headers it includes ("..."), in the order the
    compiler reads them: each found beside the one that includes it,
    or in the library's include directory."""
    found = [header]
    for m in _LINE.finditer(header.read_text()):
        if not m.group(3):
            continue
        for folder in (header.parent, INCLUDE_DIR):
            included = folder / m.group(3)
            if included.is_file() and included not in seen + (header,):
                found += _headers(included, seen + (header,))
                break
    return found


MiB = 1 << 20
# hw/arm/mps2.c: SSRAM1 and SSRAM2/3 with their mirrors, then block RAM
# and PSRAM, which differ between the FPGA images
MPS2_SSRAM = [(0x00000000, 8 * MiB), (0x20000000, 8 * MiB)]
MPS2_AN385_RAM = MPS2_SSRAM + [(0x01000000, 64 * 1024),
                               (0x21000000, 16 * MiB)]
MPS2_AN500_RAM = MPS2_SSRAM + [(0x60000000, 16 * MiB)]
# hw/arm/mps2-tz.c, AN505: SSRAM1 and its alias, SSRAM2 and 3, each at
# its non-secure address and its Secure alias (+0x10000000), and the
# board's RAM at 0x80000000
MPS2_AN505_RAM = [(0x00000000, 8 * MiB), (0x10000000, 8 * MiB),
                  (0x28000000, 4 * MiB), (0x38000000, 4 * MiB),
                  (0x80000000, 16 * MiB)]
# hw/arm/armsse.c and mps2-tz.c, AN547: the SSE-300's ITCM and DTCM,
# the board's SRAM and SRAM 2, each at its non-secure address and its
# Secure alias (+0x10000000)
MPS3_AN547_RAM = [(0x00000000, 512 * 1024), (0x10000000, 512 * 1024),
                  (0x01000000, 2 * MiB), (0x11000000, 2 * MiB),
                  (0x20000000, 512 * 1024), (0x30000000, 512 * 1024),
                  (0x21000000, 4 * MiB), (0x31000000, 4 * MiB)]
# hw/arm/nrf51_soc.c: the nRF51822's 256 KiB of flash and 16 KiB of SRAM
NRF51822_MEMORY = [(0x00000000, 256 * 1024), (0x20000000, 16 * 1024)]
# hw/riscv/sifive_e.c: the XIP flash (a ROM here) and the 16 KiB DTIM
SIFIVE_E_MEMORY = [(0x20000000, 512 * MiB), (0x80000000, 16 * 1024)]
# hw/arm/stellaris.c, LM3S6965: 256 KiB of flash, 64 KiB of SRAM
LM3S6965_MEMORY = [(0x00000000, 256 * 1024), (0x20000000, 64 * 1024)]
VIRT_RAM_SIZE = 128 * MiB       # QEMU's default -m
# hw/arm/raspi.c: 512 MiB from 0, less the VideoCore's 64 MiB at the top
RASPI_RAM = [(0x00000000, 448 * MiB)]


def _mps2(name, cpu, memory, model, uarts=5, vector_base=0):
    # The board's LAN9118 is always there; nothing here gives it a peer
    # (hw/arm/mps2.c and mps2-tz.c: five CMSDK APB UARTs, six on the AN547)
    return Board(name, "arm", cpu, ["-machine", name],
                 ["warning: nic lan9118.0 has no peer"], memory, uarts=uarts,
                 cycle_model=model, vector_base=vector_base)


BOARDS = {b.name: b for b in [
    _mps2("mps2-an385", "Cortex-M3", MPS2_AN385_RAM, "m3"),
    _mps2("mps2-an386", "Cortex-M4", MPS2_AN385_RAM, "m4"),
    _mps2("mps2-an500", "Cortex-M7", MPS2_AN500_RAM, "m7"),
    # hw/arm/mps2-tz.c (the SSE-200's second Cortex-M33 is the AN521's)
    # (the SSE-200's and SSE-300's init-svtor: 0x10000000)
    _mps2("mps2-an505", "Cortex-M33", MPS2_AN505_RAM, "m33",
          vector_base=0x10000000),
    _mps2("mps3-an547", "Cortex-M55", MPS3_AN547_RAM, "m55", uarts=6,
          vector_base=0x10000000),
    # Its three PL011 UARTs (stellaris.c: a fourth on none of its parts);
    # its Ethernet controller, which nothing here gives a peer
    Board("lm3s6965evb", "arm", "Cortex-M3",
          ["-machine", "lm3s6965evb", "-nodefaults"],
          ["warning: nic stellaris_enet.0 has no peer"], LM3S6965_MEMORY,
          uarts=3, bus_faults=False, cycle_model="m3"),
    # Its UART (hw/arm/nrf51_soc.c, which also covers the I/O and
    # private regions with "unimplemented" devices: a store there is
    # ignored)
    Board("microbit", "arm", "Cortex-M0",
          ["-machine", "microbit", "-nodefaults"], [], NRF51822_MEMORY,
          bus_faults=False, cycle_model="m0",
          ram_option=RamOption(0x20000000, "-global",
                               "nrf51-soc.sram-size")),
    # No random seeds in the device tree, so that runs stay identical:
    # dtb-randomness=off on arm, a fixed -seed on riscv (which lacks it)
    Board("arm-virt", "arm", "Cortex-A15",
          ["-machine", "virt,dtb-randomness=off", "-cpu", "cortex-a15",
           "-nodefaults"], [], [(0x40000000, VIRT_RAM_SIZE)],
          ram_option=RamOption(0x40000000, "-m")),
    # AArch64 at EL1, the virt board's GICv2 (its default with this CPU)
    Board("aarch64-virt", "aarch64", "Cortex-A53",
          ["-machine", "virt,dtb-randomness=off", "-cpu", "cortex-a53",
           "-nodefaults"], [], [(0x40000000, VIRT_RAM_SIZE)], isa="a64",
          ram_option=RamOption(0x40000000, "-m")),
    Board("riscv32-virt", "riscv32", "rv32imac",
          ["-machine", "virt", "-bios", "none", "-seed", "1",
           "-nodefaults"], [], [(0x80000000, VIRT_RAM_SIZE)],
          cycle_model="e31", ram_option=RamOption(0x80000000, "-m")),
    # The FE310 (hw/riscv/sifive_e.c): code in the XIP flash, data in
    # the DTIM; its two UARTs
    Board("sifive_e", "riscv32", "E31 (rv32imac)",
          ["-machine", "sifive_e", "-nodefaults"], [], SIFIVE_E_MEMORY,
          uarts=2, cycle_model="e31"),
    # The PL011 and the auxiliary mini UART
    Board("raspi1ap", "arm", "ARM1176JZF-S",
          ["-machine", "raspi1ap", "-nodefaults"], [], RASPI_RAM,
          isa="a32", uarts=2),
]}
DEFAULT_BOARD = "mps2-an385"


def with_cycle_model():
    """The boards that have a timing model."""
    return [b for b in BOARDS.values() if b.cycle_model]


def get(name):
    try:
        return BOARDS[name]
    except KeyError:
        raise Failure(f"unknown board '{name}'; boards: "
                      + ", ".join(BOARDS)) from None
