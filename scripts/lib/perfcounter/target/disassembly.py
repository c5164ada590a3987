# SPDX-License-Identifier: MIT
"""What the image's machine code holds, read with the board's GNU
objdump from Debian's cross binutils: its conditional direct branches
(coverage's branch records list every one, executed or not) and a
function's instructions (--annotate).  The cross tools' names are here,
their one owner."""

import re

from perfcounter import apart
from perfcounter.errors import Failure
from perfcounter.target import image_cache

PREFIXES = {"arm": "arm-none-eabi-", "aarch64": "aarch64-linux-gnu-",
            "riscv32": "riscv64-unknown-elf-"}
_CONDITIONS = "eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le"
# The mnemonics of a conditional branch to a fixed target, per
# architecture (what the plugin counts taken and not taken)
CONDITIONAL = {
    "arm": re.compile(rf"b(?:{_CONDITIONS})(?:\.[nw])?|cbn?z"),
    "aarch64": re.compile(rf"b\.(?:{_CONDITIONS})|cbn?z|tbn?z"),
    "riscv32": re.compile(r"(?:c\.)?b(?:eq|ne|lt|ge|ltu|geu|eqz|nez|lez|"
                          r"gez|ltz|gtz|gt|le|gtu|leu)"),
}
_LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)")
# image_cache's key: raise when CONDITIONAL changes
BRANCHES_KEPT_AS = 1


def tool(board, name):
    """The board's cross tool name ('objdump', 'gprof'), installed."""
    import shutil   # (here: with the compressors it loads, 2 ms of a start)
    path = PREFIXES[board.arch] + name
    if not shutil.which(path):
        raise Failure(f"{path} is missing; it comes with Debian's cross "
                      f"binutils (scripts/lib/host-packages.sh installs it)")
    return path


def _objdump(target, *options):
    proc = apart.run([tool(target.board, "objdump"), "-d",
                      "--no-show-raw-insn", *options, str(target.path)],
                     text=True)
    if proc.returncode != 0:
        why = proc.stderr.strip() or apart.ended(proc.returncode)
        raise Failure(f"objdump could not read {target.path}: {why}")
    return proc.stdout.splitlines()


def conditional_branches(target):
    """The addresses of the image's conditional direct branches, kept by
    the image's content (objdump took 20 to 130 ms of each test of
    --firmware-coverage)."""
    image = target.readable
    key = f"conditional-branches-{BRANCHES_KEPT_AS}-{target.board.arch}"
    kept = image_cache.get(image.sha256, key, part="code") if image \
        else None
    if isinstance(kept, list) and all(isinstance(s, int) for s in kept):
        return kept
    conditional = CONDITIONAL[target.board.arch]
    sites = []
    for line in _objdump(target):
        m = _LINE.match(line)
        if m and conditional.fullmatch(m.group(2)):
            sites.append(int(m.group(1), 16))
    if image:
        image_cache.put(image.sha256, key, sites, part="code")
    return sites


def instructions(target, start, end):
    """[(address, 'mnemonic operands')] of the code from start to end."""
    out = []
    for line in _objdump(target, f"--start-address={start:#x}",
                         f"--stop-address={end:#x}"):
        m = _LINE.match(line)
        if m:
            text = line[m.end(1) + 1:].split()
            out.append((int(m.group(1), 16), " ".join(text)))
    return out
