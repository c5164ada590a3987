# SPDX-License-Identifier: MIT
"""The boards we profile on, and how QEMU is started for each.

What the firmware must agree on (counter base, sections, clock) is read
from the board's system.h, the one place it is written down.
"""

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from common import REPO, Failure

BOARDS_DIR = REPO / "firmware" / "boards"
NS_PER_SECOND = 1_000_000_000


@dataclass
class Board:
    name: str
    arch: str                  # qemu-system-<arch>
    cpu: str                   # for humans
    # Machine options, and what keeps the board quiet and headless
    qemu_args: list = field(default_factory=list)

    @property
    def dir(self) -> Path:
        return BOARDS_DIR / self.name

    @property
    def cross_file(self) -> Path:
        return self.dir / "cross.ini"

    def system_h(self):
        """The integer #defines of the board's system.h, by name."""
        text = (self.dir / "system.h").read_text()
        return {m.group(1): int(m.group(2), 0) for m in re.finditer(
            r"^#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)\s*$", text, re.M)}

    @property
    def counter(self):
        """(base, sections, clock Hz) of the board's performance counter."""
        d = self.system_h()
        try:
            return (d["PERFORMANCE_COUNTER_BASE"],
                    d["PERFORMANCE_COUNTER_HOW_MANY_SECTIONS"],
                    d["ALT_CPU_FREQ"])
        except KeyError as err:
            raise Failure(f"{self.dir / 'system.h'} does not define {err}")

    @property
    def icount_shift(self):
        """The -icount shift that makes one count one instruction."""
        freq = self.counter[2]
        shift = round(math.log2(NS_PER_SECOND / freq))
        if NS_PER_SECOND != freq << shift:
            raise Failure(
                f"ALT_CPU_FREQ {freq} in {self.dir / 'system.h'} is not "
                f"1e9 / 2^N Hz, so no -icount shift gives one count per "
                f"instruction")
        return shift


BOARDS = {b.name: b for b in [
    Board("mps2-an385", "arm", "Cortex-M3",
          # -nodefaults would leave the LAN9118 without a peer (a warning)
          ["-machine", "mps2-an385", "-net", "none"]),
]}
DEFAULT_BOARD = "mps2-an385"


def get(name):
    try:
        return BOARDS[name]
    except KeyError:
        raise Failure(f"unknown board '{name}'; boards: "
                      + ", ".join(BOARDS)) from None
