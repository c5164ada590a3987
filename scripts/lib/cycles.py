# SPDX-License-Identifier: MIT
"""scripts/profile --cycles: the plugin's estimated cycles (its timing
model of the board's core, docs/cycles.md) for the whole run and for
each function of the image (a plugin window on each function's pcs:
the function's own cycles, its callees' not included)."""

import elf
import plugin
from common import Failure

MAX_WINDOWS = 256       # the plugin's limit (cycles.c)
TOP = 15                # functions shown


class Estimate:
    """One boot with the timing model: the plugin's arguments, then the
    report."""

    def __init__(self, qemu, board, image, workdir, wait_states=None,
                 memory=None, profiler=None):
        """With profiler (a hotspots.Profiler), its plugin estimates
        too (one plugin per QEMU); otherwise add self.qemu_args.
        memory: the flash part code runs from (None: SRAM)."""
        plugin.cycle_model(board)           # Failure if there is none
        self.board = board
        self.results = profiler.results if profiler else \
            workdir / "cycles.txt"
        functions = sorted((f for f in elf.read(image).functions if f[1]),
                           key=lambda f: -f[1])[:MAX_WINDOWS]
        self.names = {(start & ~1, (start & ~1) + size): name
                      for start, size, name in functions}
        self.qemu_args = plugin.qemu_args(
            qemu, board, self.results, plugin.NO_PROFILE, cycles=True,
            windows=sorted(self.names), wait_states=wait_states,
            memory=memory)
        if profiler:
            # the cycle options onto the profiler's -plugin argument
            ours = self.qemu_args[1].split(",out=", 1)[1].split(",", 1)[1]
            profiler.qemu_args[1] += "," + ours

    def report(self):
        """The text to print after the guest's output."""
        profile = plugin.read(self.results)
        if not profile.cycles_model:
            raise Failure(f"the plugin wrote no cycle estimate to "
                          f"{self.results}")
        memory = "" if profile.cycles_memory == "sram" else \
            f"flash of {profile.cycles_memory}, "
        lines = [f"cycles: {profile.cycles} estimated cycles "
                 f"({self.board.cpu}, model {profile.cycles_model}, "
                 f"{memory}{profile.cycles_wait_states} wait state"
                 f"{'' if profile.cycles_wait_states == 1 else 's'}) for "
                 f"{profile.cycles_instructions} instructions, IPC "
                 f"{ipc(profile.cycles_instructions, profile.cycles)}"]
        rows = sorted(((c, i, self.names[w]) for w, (c, i) in
                       profile.windows.items() if c),
                      key=lambda r: (-r[0], r[2]))
        if rows:
            lines.append(f"{'cycles':>12} {'%':>6} {'instructions':>13} "
                         f"{'IPC':>5}  function (own code)")
        for c, i, name in rows[:TOP]:
            lines.append(f"{c:>12} {100 * c / profile.cycles:>6.2f} "
                         f"{i:>13} {ipc(i, c):>5}  {name}")
        return "\n".join(lines) + "\n"


def ipc(instructions, cycles):
    return f"{instructions / cycles:.2f}" if cycles else "-"
