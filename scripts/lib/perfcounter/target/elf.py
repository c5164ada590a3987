# SPDX-License-Identifier: MIT
"""What the scripts read of an ELF image, with Debian's pyelftools: to
check it before it is booted and to name the function an address is
in: the header, the loadable segments and the symbols of little-endian
images (32-bit, and AArch64's 64-bit)."""

import bisect
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.target import image_cache

MAGIC = b"\x7fELF"
MACHINES = {"EM_386": "x86", "EM_MIPS": "MIPS", "EM_ARM": "Arm",
            "EM_X86_64": "x86-64", "EM_AARCH64": "AArch64",
            "EM_RISCV": "RISC-V", "EM_ALTERA_NIOS2": "Nios II"}


class NotElf(Exception):
    """The file is not an ELF image we can read; the message says why."""


@dataclass
class Segment:
    """A loadable segment of an ELF image."""
    addr: int           # physical (load) address, where data is loaded
    size: int           # bytes in memory, from vaddr
    executable: bool
    data: bytes         # the bytes in the file
    vaddr: int = None   # where it is in memory (.data: RAM, loaded in ROM)

    def __post_init__(self):
        if self.vaddr is None:
            self.vaddr = self.addr


@dataclass
class Image:
    """What an ELF image holds that the tools use: its machine, its
    segments and its symbols."""
    path: Path
    machine: str
    segments: list
    functions: list = field(default_factory=list)   # sorted (addr, size, name)
    symbols: dict = field(default_factory=dict)     # name: value
    objects: dict = field(default_factory=dict)     # data: name: (addr, size)
    entry: int = 0                                  # where it starts
    routines: set = field(default_factory=set)      # functions that are
    #                                                 assembly labels
    sha256: str = None                              # of the file
    _starts: list = field(default=None, repr=False, compare=False)

    def function_name(self, addr):
        """The name of the function containing addr, or addr in hex."""
        found = self.function_containing(addr)
        return found[1] if found else f"{addr:#x}"

    def read(self, addr, size):
        """The size bytes the image loads at addr, or None."""
        for s in self.segments:
            if s.addr <= addr and addr + size <= s.addr + len(s.data):
                return s.data[addr - s.addr:addr - s.addr + size]
        return None

    def function_containing(self, addr):
        """(start, name) of the function containing addr, or None."""
        if self._starts is None:
            self._starts = [f[0] for f in self.functions]
        i = bisect.bisect_right(self._starts, addr) - 1
        if i < 0:
            return None
        start, size, name = self.functions[i]
        if addr >= start + max(size, 1):
            return None
        return start, name

    def function_at(self, addr):
        """The function containing addr, as 'name+0xoff', or None."""
        found = self.function_containing(addr)
        if not found:
            return None
        start, name = found
        return name if addr == start else f"{name}+{addr - start:#x}"


def address(image, where):
    """The pc of a symbol (a function: its first instruction) or of an
    address, as the plugin sees pcs (no Thumb bit)."""
    if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", where):
        return int(where, 0) & ~1
    if image is None:
        raise Failure(f"'{where}': symbols need an ELF image that can be "
                      f"read (not --no-image-check)")
    if where not in image.symbols:
        near = sorted(n for n in image.symbols if where.lower() in n.lower())
        hint = f"; did you mean {', '.join(near[:5])}?" if near else ""
        raise Failure(f"'{where}' is not a symbol of the image{hint}")
    return image.symbols[where] & ~1


def read(path):
    """Read path as a little-endian ELF executable, 32-bit or AArch64's
    64-bit (with Debian's pyelftools); NotElf if it is not one. What an
    earlier run read of the same image comes from the cache: pyelftools
    is not even imported then (25 ms of every command)."""
    path = Path(path)
    data, sha = image_cache.content(path)
    if data[:4] != MAGIC:
        shown = data[:4].hex(" ") if data else "nothing: it is empty"
        raise NotElf(f"{path} is not an ELF image (it starts with {shown})")
    image = _restored(path, data, sha)
    if image is None:
        image, layout = _parsed(path, data, sha)
        image_cache.put(sha, "layout", layout)
        image_cache.put(sha, "symbols", _kept_symbols(image))
    return image


def _parsed(path, data, sha):
    """The Image with its symbols, and its layout as the cache keeps it"""
    from elftools.common.exceptions import ELFError
    from elftools.elf.constants import P_FLAGS
    from elftools.elf.elffile import ELFFile
    try:
        elf = ELFFile(io.BytesIO(data))
        header = elf.header
        machine = MACHINES.get(header.e_machine,
                               f"machine {header.e_machine}")
        wide = elf.elfclass == 64 and machine == "AArch64"
        if not (elf.elfclass == 32 or wide) or not elf.little_endian:
            kind = f"{elf.elfclass}-bit" + \
                ("" if elf.little_endian else " big-endian")
            raise NotElf(f"{path} is a {kind} ELF image for {machine}; "
                         f"the boards run little-endian Arm (32-bit), "
                         f"AArch64 or RISC-V (32-bit) code")
        if header.e_type != "ET_EXEC":
            raise NotElf(f"{path} is an ELF file but not an executable "
                         f"image (an object file or a library?): link it "
                         f"first")
        layout = {"machine": machine, "entry": header.e_entry & ~1,
                  "segments": [
                      (s["p_paddr"], s["p_memsz"],
                       bool(s["p_flags"] & P_FLAGS.PF_X), s["p_offset"],
                       s["p_filesz"], s["p_vaddr"])
                      for s in elf.iter_segments()
                      if s["p_type"] == "PT_LOAD" and s["p_memsz"]]}
        image = _image(path, data, sha, layout)
        _read_symbols(image, elf)
    except (ELFError, ValueError, EOFError) as err:
        raise NotElf(f"{path} is a truncated or damaged ELF file "
                     f"({err})") from None
    return image, layout


def _image(path, data, sha, layout):
    """The Image of layout, its segments' bytes from data"""
    return Image(path, layout["machine"], [
        Segment(paddr, memsz, executable, data[offset:offset + filesz],
                vaddr)
        for paddr, memsz, executable, offset, filesz, vaddr in
        layout["segments"]], entry=layout["entry"], sha256=sha)


def _restored(path, data, sha):
    """The Image as the cache kept it, or None."""
    layout = image_cache.get(sha, "layout")
    kept = image_cache.get(sha, "symbols")
    if not (layout and kept):
        return None
    try:
        image = _image(path, data, sha, layout)
    except (TypeError, KeyError, ValueError):
        return None
    return image if _restore_symbols(image, kept) else None


def _read_symbols(image, elf):
    from elftools.elf.constants import SH_FLAGS
    code = {i for i, section in enumerate(elf.iter_sections())
            if section["sh_flags"] & SH_FLAGS.SHF_EXECINSTR}
    labels = []
    for section in elf.iter_sections("SHT_SYMTAB"):
        for symbol in section.iter_symbols():
            if not symbol.name:
                continue
            image.symbols[symbol.name] = symbol["st_value"]
            kind = symbol["st_info"]["type"]
            if kind == "STT_FUNC":
                # Thumb functions have bit 0 set
                image.functions.append((symbol["st_value"] & ~1,
                                        symbol["st_size"], symbol.name))
            elif kind == "STT_OBJECT":
                image.objects[symbol.name] = (symbol["st_value"],
                                              symbol["st_size"])
            elif kind == "STT_NOTYPE" and symbol["st_shndx"] in code and \
                    symbol["st_info"]["bind"] == "STB_GLOBAL":
                labels.append((symbol["st_value"], symbol.name))
    image.functions = _sized(sorted(image.functions), image.segments)
    routines = _routines(labels, image)
    image.routines = {name for _, _, name in routines}
    image.functions = _sized(sorted(image.functions + routines),
                             image.segments)


def _kept_symbols(image):
    return {"symbols": image.symbols, "objects": image.objects,
            "functions": image.functions, "routines": sorted(image.routines)}


def _restore_symbols(image, kept):
    """Whether what the cache kept could be restored."""
    try:
        image.symbols = kept["symbols"]
        image.objects = {name: tuple(v)
                         for name, v in kept["objects"].items()}
        image.functions = [tuple(f) for f in kept["functions"]]
        image.routines = set(kept["routines"])
    except (TypeError, KeyError, ValueError, AttributeError):
        image.symbols, image.objects, image.functions = {}, {}, []
        image.routines = set()
        return False
    return True


def _routines(labels, image):
    """Of global labels in code (assembly without .type: picolibc's
    sys_semihost on RISC-V), those outside every function and in
    loaded code, as functions without a size: gprof names them so. Not
    a linker script's markers (__text_end), which mark no code."""
    starts = [f[0] for f in image.functions]
    out = []
    for addr, name in sorted(labels):
        i = bisect.bisect_right(starts, addr) - 1
        inside = i >= 0 and addr < starts[i] + max(image.functions[i][1], 1)
        loaded = any(s.executable and s.addr <= addr < s.addr + s.size
                     for s in image.segments)
        if not inside and loaded and not name.startswith("__"):
            out.append((addr, 0, name))
    return out


def _sized(functions, segments):
    """functions, those without a size (assembly without .size) reaching
    to the next function, or to the end of their segment."""
    starts = sorted({start for start, _, _ in functions})
    sized = []
    for start, size, name in functions:
        if not size:
            ends = [s.addr + s.size for s in segments
                    if s.executable and s.addr <= start < s.addr + s.size]
            i = bisect.bisect_right(starts, start)
            if ends and i < len(starts):
                ends.append(starts[i])
            size = min(ends) - start if ends else 0
        sized.append((start, size, name))
    return sized
