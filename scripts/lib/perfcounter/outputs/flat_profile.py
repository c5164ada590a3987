# SPDX-License-Identifier: MIT
"""gprof's flat profile (gprof -b -p) of a histogram without call arcs,
made here: the text the board's gprof prints, byte for byte, for
--per-task's gmon.out files, without starting gprof for each (the full
FreeRTOS demo's 102 took 15 to 30 ms each, on the cores the run's
analyses use).

It models GNU gprof 2.40 (binutils' gprof/corefile.c, symtab.c and
hist.c): its functions are the image's text symbols, global or weak,
or local with a name gprof accepts, one per address; a sample is
credited to the function whose address is the last at or below its
pc; the functions are listed by time, then by name; zero lines are
left out.  The model is trusted only as far as gprof agrees with it:
task_gmon.py runs gprof once, on the tasks' histograms summed, and
makes the tasks' profiles here only if gprof printed exactly what
text() makes of that sum; otherwise gprof makes each.
"""

import bisect
import struct
from dataclasses import dataclass

from perfcounter.target import image_cache

# Raised when what functions() keeps changes (in the image cache)
MODEL_VERSION = 1


@dataclass
class Functions:
    """gprof's function symbols of an image: starts sorted, names
    beside them.  gprof credits a 2-byte bin (a gmon.out's, gmon.py) to
    the last function that starts in it or below, by their addresses
    halved; not to the last function (gprof reads its end past its
    table)."""
    starts: list
    names: list

    def __post_init__(self):
        self._bins = [start >> 1 for start in self.starts]

    def index(self, pc):
        """The function pc's bin is credited to, or None."""
        i = bisect.bisect_right(self._bins, pc >> 1) - 1
        return i if 0 <= i < len(self._bins) - 1 else None


def functions(target):
    """Functions of target's image (read once per image: the cache)."""
    key = f"gprof-functions-{MODEL_VERSION}"
    kept = image_cache.get(target.elf.sha256, key)
    if kept is None:
        kept = _read(target.path)
        image_cache.put(target.elf.sha256, key, kept)
    return Functions(*kept)


# Sections whose symbols bfd calls anything but text by their name
# (coff_section_type), whatever their flags say
_NOT_TEXT_PREFIXES = (b".drectve", b".edata", b".idata", b".pdata")
SHT_SYMTAB = 2
SHF_EXECINSTR = 0x4
SHN_UNDEF, SHN_LORESERVE, SHN_ABS = 0, 0xff00, 0xfff1
STT_OBJECT, STT_FUNC, STT_SECTION, STT_FILE, STT_GNU_IFUNC = 1, 2, 3, 4, 10
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
EM_ARM = 40


def _read(path):
    """[starts, names] of the little-endian ELF image at path, as gprof's
    symtab_finalize leaves its table (read with struct: pyelftools took
    a quarter of a second for the full FreeRTOS demo)."""
    data = open(path, "rb").read()
    wide = data[4] == 2
    machine = struct.unpack_from("<H", data, 0x12)[0]
    shoff, = struct.unpack_from("<Q" if wide else "<I", data,
                                0x28 if wide else 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from(
        "<HHH", data, 0x3a if wide else 0x2e)
    header = struct.Struct("<IIQQQQIIQQ" if wide else "<IIIIIIIIII")
    sections = [header.unpack_from(data, shoff + k * shentsize)
                for k in range(shnum)]
    _, _, _, _, names_at, _, _, _, _, _ = sections[shstrndx]
    text = [_text(data[names_at + name:data.index(b"\0", names_at + name)],
                  flags)
            for name, _, flags, *_ in sections]
    candidates = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != SHT_SYMTAB or not entsize:
            continue
        strings_at = sections[link][4]
        symbol = struct.Struct("<IBBHQQ" if wide else "<IIIBBH")
        for order in range(1, size // entsize):
            fields = symbol.unpack_from(data, offset + order * entsize)
            if wide:
                name, info, _, shndx, value, _ = fields
            else:
                name, value, _, info, _, shndx = fields
            kind, bind = info & 0xf, info >> 4
            if kind in (STT_SECTION, STT_FILE, STT_GNU_IFUNC) or \
                    shndx == SHN_UNDEF or \
                    (shndx >= SHN_LORESERVE and shndx != SHN_ABS):
                continue
            if bind == STB_WEAK:        # (nm's W: text to gprof)
                if kind == STT_OBJECT:
                    continue
                static = False
            elif bind in (STB_GLOBAL, STB_LOCAL):
                if shndx == SHN_ABS or not text[shndx]:
                    continue
                static = bind == STB_LOCAL
                if static and not _static_name(data, strings_at + name):
                    continue
            else:
                continue
            if machine == EM_ARM and kind == STT_FUNC:
                value &= ~1     # (bfd clears a Thumb function's bit 0)
            candidates.append((value, kind == STT_FUNC, static, order,
                               _string(data, strings_at + name)))
    return _finalized(candidates)


def _string(data, at):
    return data[at:data.index(b"\0", at)].decode("utf-8", "replace")


def _text(name, flags):
    """Whether bfd calls a symbol in a section of that name and those
    flags a text symbol ('t', 'T')."""
    for prefix in _NOT_TEXT_PREFIXES:
        after = name[len(prefix):len(prefix) + 1]
        if name.startswith(prefix) and (after in (b"", b".", b"$") or
                                        after.isdigit()):
            return False
    return bool(flags & SHF_EXECINSTR)


def _static_name(data, i):
    """Whether gprof's core_sym_class takes a local text symbol's name,
    at i in the image's bytes (in its string table): its scan of the
    name, which past a name ending in .DIGITS goes on into the next
    string of the table, as gprof's does."""
    if i >= len(data) or data[i] == 0:
        return False
    if data[i:i + 14] == b"__gnu_compiled" or \
            data[i:i + 15] == b"___gnu_compiled":
        return False
    while i < len(data) and data[i]:
        if data[i] == ord("$"):
            return False
        while i < len(data) and data[i] == ord("."):
            digit_seen = False
            end = data.find(b"\0", i)
            rest = data[i:end if end >= 0 else len(data)]
            if len(rest) > 7 and rest.startswith(b".clone."):
                i += 6
            elif len(rest) > 11 and rest.startswith(b".constprop."):
                i += 10
            i += 1
            while i < len(data) and data[i]:
                c = data[i]
                if digit_seen and c == ord("."):
                    break
                if 0x30 <= c <= 0x39:
                    digit_seen = True
                else:
                    return False
                i += 1
        i += 1
    return True


def _finalized(candidates):
    """gprof's symtab_finalize: by address, functions first, globals
    first; one symbol per address (a global over a static, a function
    over a label, a name without a leading underscore)."""
    # (gprof's qsort is glibc's merge sort: stable, the symbols' order)
    candidates.sort(key=lambda c: (c[0], not c[1], c[2]))
    kept = []
    for addr, is_func, static, _, name in candidates:
        if kept and kept[-1][0] == addr:
            _, k_func, k_static, k_name = kept[-1]
            if (not static and k_static) or (
                    static == k_static and (
                        (is_func and not k_func) or (
                            is_func == k_func and (
                                (name[:1] != "_" and k_name[:1] == "_") or
                                (name[:1] and name[1:2] != "_" and
                                 k_name[1:2] == "_"))))):
                kept[-1] = (addr, is_func, static, name)
            continue
        kept.append((addr, is_func, static, name))
    return [[k[0] for k in kept], [k[3] for k in kept]]


def text(histogram, funcs, rate, dimension="seconds", abbrev="s"):
    """gprof -b -p's output for {pc: count} (no arcs) with funcs
    (Functions), rate counts a dimension."""
    time = {}
    total = 0.0
    for pc in sorted(histogram):
        count = histogram[pc]
        if not count:
            continue
        total += count
        i = funcs.index(pc)
        if i is not None:
            time[i] = time.get(i, 0.0) + count
    hz = rate
    unit = f"T{abbrev}/call"
    lines = ["Flat profile:\n",
             f"\nEach sample counts as {'%g' % (1.0 / hz)} {dimension}.\n"]
    if total <= 0.0:
        lines.append(" no time accumulated\n\n")
        total = 1.0
    lines.append("%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n" % (
        "%  ", "cumulative", "self  ", "", "self  ", "total ", ""))
    lines.append("%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n" % (
        "time", dimension, dimension, "calls", unit, unit, "name"))
    accum = 0.0
    names = funcs.names
    for i in sorted(time, key=lambda i: (-time[i], names[i].encode())):
        t = time[i]
        accum += t
        lines.append("%6.2f %9.2f %8.2f %8.8s %8.8s %8.8s  %s\n" % (
            100 * t / total, accum / hz, t / hz, "", "", "", names[i]))
    return "".join(lines)
