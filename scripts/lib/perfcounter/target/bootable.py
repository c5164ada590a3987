# SPDX-License-Identifier: MIT
"""Whether a board can boot an image, checked before it is booted: a
file QEMU cannot run on the board (another architecture, another
memory map) is refused at once with what is wrong and what to do,
instead of a hang, a register dump or a timeout.  Firmware that prints on a UART and never exits is fine:
calls_semihosting() tells whether it can exit by itself."""

from perfcounter import boards
from perfcounter.errors import Failure
from perfcounter.paths import REPO

MACHINE = {"arm": "Arm", "aarch64": "AArch64", "riscv32": "RISC-V"}
# The instructions that call semihosting (docs: "Arm semihosting", the
# RISC-V semihosting spec), as they lie in the image's bytes
SEMIHOSTING_CALLS = {
    "Arm": [bytes.fromhex("abbe"),          # Thumb: bkpt 0xab
            bytes.fromhex("abdf"),          # Thumb: svc 0xab
            bytes.fromhex("563412ef")],     # Arm: svc 0x123456
    "AArch64": [bytes.fromhex("00005ed4")],     # hlt 0xf000
    # slli zero, zero, 0x1f; ebreak; srai zero, zero, 7
    "RISC-V": [bytes.fromhex("1310f001" "73001000" "13507040")],
}
# picolibc's semihosting layer (--oslib=semihost)
SEMIHOSTING_SYMBOLS = {"sys_semihost", "sys_semihost_exit"}
BYPASS = "--no-image-check boots it anyway"
# How far past its RAM's base an image may reach for the option that
# sizes it to be the answer (rather than another board)
RAM_REACH = 256 << 20


def _range(base, size):
    return f"{base:#010x}-{base + size - 1:#010x}"


def _ranges(segment):
    """(start, size, what) of what a segment needs of the board's memory,
    as a loader sees its program header: its file's bytes where they
    are loaded (p_paddr, p_filesz), and all of it where it runs (p_vaddr,
    p_memsz: .data and .bss in RAM, their initial values in ROM)."""
    out = []
    if segment.data:
        out.append((segment.addr, len(segment.data), "loads"))
    if segment.size and (segment.vaddr != segment.addr or
                         segment.size > len(segment.data)):
        out.append((segment.vaddr, segment.size, "needs"))
    return out


def _inside(start, size, memory):
    return any(base <= start and start + size <= base + n
               for base, n in memory)


def _starts_inside(start, memory):
    return any(base <= start < base + n for base, n in memory)


def _fits(segments, memory):
    return all(_inside(start, size, memory) for s in segments
               for start, size, _ in _ranges(s))


def _boards_that_fit(image):
    return [b.name for b in boards.BOARDS.values()
            if MACHINE[b.arch] == image.machine
            and _fits(image.segments, b.memory)]


def calls_semihosting(image):
    """Whether the image can exit by itself (and print through the
    debugger's channel): it makes semihosting calls."""
    if image.symbols.keys() & SEMIHOSTING_SYMBOLS:
        return True
    calls = SEMIHOSTING_CALLS.get(image.machine, [])
    return any(call in s.data for s in image.segments if s.executable
               for call in calls)


def check(board, path, image, qemu_args=(), vector_table=None):
    """Raise Failure saying what is wrong if board cannot boot image
    (the elf.Image of path), with the memory qemu_args give it; a
    Cortex-M's vector_table (initial sp, reset pc) must point into it."""
    want = MACHINE[board.arch]
    if image.machine != want:
        fit = _boards_that_fit(image)
        hint = (f"boot it with --board {fit[0]}" if fit else
                f"rebuild it for {board.name} ({want}, {board.cpu})")
        raise Failure(f"{path} is built for {image.machine}, but "
                      f"{board.name} runs {want} code ({board.cpu}): {hint}")
    if not image.segments:
        raise Failure(f"{path} has nothing to load (no loadable segment)")
    memory = board.memory_for(qemu_args)
    outside = [(start, size, what) for s in image.segments
               for start, size, what in _ranges(s)
               if not _inside(start, size, memory)]
    if vector_table and not any(base < vector_table[0] <= base + n
                                for base, n in memory):
        # (the stack grows down from it: its first push is below it)
        outside.append((vector_table[0] - 4, 4, "has its initial stack "
                        "pointer at"))
    if outside:
        start, size, what = outside[0]
        raise Failure(f"{path} {what} {_range(start, size)}, outside "
                      f"{board.name}'s memory ("
                      + ", ".join(_range(b, n) for b, n in memory) + "): "
                      + _hint(board, image, outside, memory)
                      + f"; {BYPASS}")


def _hint(board, image, outside, memory):
    """What to do: widen the board's RAM, when what does not fit begins
    in it and an option sizes it; boot another board the image fits;
    or link it for this one."""
    option = board.ram_option
    if option and all(option.base <= start < option.base + RAM_REACH
                      for start, _, _ in outside):
        end = max(start + size for start, size, _ in outside)
        need = -(-(end - option.base) // 4096) * 4096
        args = " ".join(f"--qemu-arg={a}" for a in option.args(need))
        return (f"the board has that memory with more RAM: {args} "
                f"(QEMU's {option.flag}"
                + (f" {option.prop}" if option.prop else "") + ")")
    fit = [b for b in _boards_that_fit(image) if b != board.name]
    if fit and not all(_starts_inside(start, memory)
                       for start, _, _ in outside):
        return f"it was linked for {' or '.join(fit)}: use --board {fit[0]}"
    return (f"link it for {board.name}'s memory (its cross file "
            f"{board.cross_file.relative_to(REPO)} says how)")
