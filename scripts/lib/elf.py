# SPDX-License-Identifier: MIT
"""Just enough of ELF to check an image before it is booted and to name
the function an address is in: the header, the loadable segments and
the function symbols of 32-bit little-endian images."""

import bisect
import struct
from dataclasses import dataclass, field
from pathlib import Path

MAGIC = b"\x7fELF"
CLASS32 = 1
LITTLE_ENDIAN = 1
EXECUTABLE = 2
MACHINES = {3: "x86", 8: "MIPS", 40: "Arm", 62: "x86-64", 183: "AArch64",
            243: "RISC-V", 113: "Nios II"}
PT_LOAD = 1
PF_X = 1
SHT_SYMTAB = 2
STT_FUNC = 2


class NotElf(Exception):
    """The file is not an ELF image we can read; the message says why."""


@dataclass
class Segment:
    addr: int           # physical (load) address
    size: int           # bytes in memory
    executable: bool
    data: bytes         # the bytes in the file


@dataclass
class Image:
    path: Path
    machine: str
    segments: list
    functions: list = field(default_factory=list)   # sorted (addr, size, name)
    symbols: dict = field(default_factory=dict)     # name: value

    def function_name(self, addr):
        """The name of the function containing addr, or addr in hex."""
        found = self.function_at(addr)
        return found.split("+")[0] if found else f"{addr:#x}"

    def function_at(self, addr):
        """The function containing addr, as 'name+0xoff', or None."""
        starts = [f[0] for f in self.functions]
        i = bisect.bisect_right(starts, addr) - 1
        if i < 0:
            return None
        start, size, name = self.functions[i]
        if addr >= start + max(size, 1):
            return None
        return name if addr == start else f"{name}+{addr - start:#x}"


def read(path):
    """Read path as a 32-bit little-endian ELF executable; NotElf if it
    is not one."""
    path = Path(path)
    data = path.read_bytes()
    if data[:4] != MAGIC:
        shown = data[:4].hex(" ") if data else "nothing: it is empty"
        raise NotElf(f"{path} is not an ELF image (it starts with {shown})")
    if len(data) < 52:
        raise NotElf(f"{path} is a truncated ELF file")
    if data[4] != CLASS32 or data[5] != LITTLE_ENDIAN:
        kind = {1: "32-bit", 2: "64-bit"}.get(data[4], "unknown class")
        kind += " big-endian" if data[5] != LITTLE_ENDIAN else ""
        raise NotElf(f"{path} is a {kind} ELF image for "
                     f"{_machine(data, data[5])}; the boards run 32-bit "
                     f"little-endian Arm or RISC-V code")
    (e_type, e_machine, _, _, e_phoff, e_shoff, _, _, e_phentsize, e_phnum,
     e_shentsize, e_shnum, _) = struct.unpack_from("<HHIIIIIHHHHHH", data, 16)
    machine = _machine(data, LITTLE_ENDIAN)
    if e_type != EXECUTABLE:
        raise NotElf(f"{path} is an ELF file but not an executable image "
                     f"(an object file or a library?): link it first")
    image = Image(path, machine, [])
    for i in range(e_phnum):
        (p_type, p_offset, _, p_paddr, p_filesz, p_memsz, p_flags,
         _) = struct.unpack_from("<IIIIIIII", data, e_phoff + i * e_phentsize)
        if p_type == PT_LOAD and p_memsz:
            image.segments.append(Segment(
                p_paddr, p_memsz, bool(p_flags & PF_X),
                data[p_offset:p_offset + p_filesz]))
    _read_symbols(image, data, e_shoff, e_shentsize, e_shnum)
    return image


def _machine(data, endian):
    number = int.from_bytes(data[18:20], "little" if endian == LITTLE_ENDIAN
                            else "big")
    return MACHINES.get(number, f"machine {number}")


def _read_symbols(image, data, shoff, shentsize, shnum):
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize)
                for i in range(shnum)] if shoff else []
    for sh in sections:
        if sh[1] != SHT_SYMTAB:
            continue
        strtab = sections[sh[6]]
        strings = data[strtab[4]:strtab[4] + strtab[5]]
        for off in range(sh[4], sh[4] + sh[5], 16):
            st_name, st_value, st_size, st_info = struct.unpack_from(
                "<IIIB", data, off)
            end = strings.find(b"\0", st_name)
            name = strings[st_name:end].decode(errors="replace")
            if not name:
                continue
            image.symbols[name] = st_value
            if st_info & 0xf == STT_FUNC:
                # Thumb functions have bit 0 set
                image.functions.append((st_value & ~1, st_size, name))
    image.functions.sort()
