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


def _range(base, size):
    return f"{base:#010x}-{base + size - 1:#010x}"


def _fits(segments, memory):
    return all(any(base <= s.addr and s.addr + s.size <= base + size
                   for base, size in memory) for s in segments)


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


def check(board, path, image):
    """Raise Failure saying what is wrong if board cannot boot image
    (the elf.Image of path)."""
    want = MACHINE[board.arch]
    if image.machine != want:
        fit = _boards_that_fit(image)
        hint = (f"boot it with --board {fit[0]}" if fit else
                f"rebuild it for {board.name} ({want}, {board.cpu})")
        raise Failure(f"{path} is built for {image.machine}, but "
                      f"{board.name} runs {want} code ({board.cpu}): {hint}")
    if not image.segments:
        raise Failure(f"{path} has nothing to load (no loadable segment)")
    outside = [s for s in image.segments if not _fits([s], board.memory)]
    if outside:
        s = outside[0]
        fit = [b for b in _boards_that_fit(image) if b != board.name]
        hint = (f"it was linked for {' or '.join(fit)}: use --board "
                f"{fit[0]}" if fit else
                f"link it for {board.name}'s memory (its cross file "
                f"{board.cross_file.relative_to(REPO)} says how)")
        memory = ", ".join(_range(b, n) for b, n in board.memory)
        raise Failure(f"{path} loads {_range(s.addr, s.size)}, outside "
                      f"{board.name}'s memory ({memory}): {hint}; {BYPASS}")
