# SPDX-License-Identifier: MIT
"""The target of a run: a firmware image on a board.

The image is read once (its header, loadable segments and symbols,
with Debian's pyelftools) and its DWARF only when something asks (the
RTOS's task layout); everything downstream (stops, call stacks, task
names, fault messages, the cycle windows) asks the Target, not the file.
"""

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.target import bootable, elf

# (disassembly, lines and rtos are imported where asked for: a run
# without a profile needs none, 2 ms of every command's start)


@dataclass(frozen=True)
class BuildOptions:
    """How the image was built from the user's sources, when it was: what
    the messages about its sections refer to."""
    optimization: str = "2"


class Target:
    """An image to boot on a board.

        target = Target("app.elf", boards.get("mps2-an385"))
        target.check()              # refuses what the board cannot boot
        target.address("main")      # 0x...: as the profiler sees pcs
    """

    def __init__(self, image, board, built=None):
        """image: the ELF file; board: a boards.Board; built: the
        BuildOptions when it was built from sources here."""
        self.path = Path(image)
        self.board = board
        self.built = built

    def __repr__(self):
        return f"Target({str(self.path)!r}, {self.board.name!r})"

    @cached_property
    def elf(self):
        """The elf.Image; Failure if the file is not one we can read."""
        try:
            return elf.read(self.path)
        except elf.NotElf as err:
            raise Failure(f"{err}. scripts/profile boots ELF images (.elf) "
                          f"built for the board, or builds C and assembly "
                          f"sources (.c, .S) for it") from None
        except OSError as err:
            raise Failure(f"cannot read {self.path}: {err.strerror}") \
                from None

    @cached_property
    def readable(self):
        """The elf.Image, or None if the file cannot be read as one (an
        image booted with the check off)."""
        try:
            return self.elf
        except Failure:
            return None

    def check(self, qemu_args=()):
        """Raise Failure saying what is wrong if the board cannot boot
        the image (not an ELF, another architecture, outside the memory
        the board has, with qemu_args)."""
        bootable.check(self.board, self.path, self.elf, qemu_args,
                       self.vector_table)

    @property
    def exits_by_itself(self):
        """Whether it can end the run itself: it makes semihosting calls
        (None if the image cannot be read)."""
        image = self.readable
        return bootable.calls_semihosting(image) if image else None

    @cached_property
    def vector_table(self):
        """A Cortex-M image's (initial stack pointer, reset handler), from
        the vector table the core reads at reset; None on other cores, or
        when the image loads nothing there."""
        image = self.readable
        if not image or not self.board.cortex_m:
            return None
        words = image.read(self.board.vector_base, 8)
        if words is None:
            return None
        return (int.from_bytes(words[:4], "little"),
                int.from_bytes(words[4:], "little") & ~1)

    @property
    def boot_pc(self):
        """Where the core starts: a Cortex-M's reset handler, else the
        ELF's entry point."""
        table = self.vector_table
        return table[1] if table else (self.readable.entry
                                       if self.readable else 0)

    @cached_property
    def functions(self):
        """[(start, size, name)] of its functions, sorted by start."""
        image = self.readable
        return image.functions if image else []

    @cached_property
    def function_ranges(self):
        """[(start, end, name)] of the image's sized functions, in order
        and apart: of aliases, the one every output names (the longest,
        then the name last in order: elf.Image.function_at's), each
        ending where the next begins at the latest.  What the plugin's
        functions= says."""
        by_start = {}
        for start, size, name in sorted(self.functions):
            if size:
                by_start[start] = (size, name)      # the last one stays
        starts = sorted(by_start)
        out = []
        for i, start in enumerate(starts):
            size, name = by_start[start]
            end = start + size
            if i + 1 < len(starts):
                end = min(end, starts[i + 1])
            out.append((start, end, name))
        return out

    def address(self, where):
        """The pc of a symbol (a function: its first instruction) or of
        an address, as the plugin sees pcs (no Thumb bit)."""
        return elf.address(self.readable, where)

    def function_name(self, addr):
        image = self.readable
        return image.function_name(addr) if image else f"{addr:#x}"

    def function_at(self, addr):
        """addr as 'function+0xoff', or None outside every function."""
        image = self.readable
        return image.function_at(addr) if image else None

    @cached_property
    def line_table(self):
        """Its source lines (lines.LineTable), read from DWARF once."""
        from perfcounter.target import lines
        return lines.read(self.path)

    @cached_property
    def conditional_branches(self):
        """The addresses of its conditional direct branches (objdump)."""
        from perfcounter.target import disassembly
        return disassembly.conditional_branches(self)

    @cached_property
    def rtos_layout(self):
        """The rtos.Layout of the RTOS it runs, None, or a str saying what
        is missing for one it seems to run (read from DWARF once)."""
        from perfcounter.target import rtos
        image = self.readable
        return rtos.layout(image) if image else None
