# SPDX-License-Identifier: MIT
"""scripts/profile --cycles: the plugin's estimated cycles (its timing
model of the board's core, docs/cycles.md) for the whole run and for
each function of the image (a plugin window on each function's pcs:
the function's own cycles, its callees' not included)."""

from perfcounter.errors import Failure
from perfcounter.results import model_trust

TOP = 15                # functions shown


def report(result):
    """The text to print after the guest's output."""
    plugin = result.plugin
    if plugin is None:
        raise Failure(result.plugin_error)
    if not plugin.cycles_model:
        raise Failure(f"the plugin wrote no cycle estimate "
                      f"({plugin.mode})")
    names = result.config.cycle_windows
    memory = "" if plugin.cycles_memory == "sram" else \
        f"flash of {plugin.cycles_memory}, "
    lines = [f"cycles: {plugin.cycles} estimated cycles "
             f"({result.board.cpu}, model {plugin.cycles_model}, "
             f"{memory}{plugin.cycles_wait_states} wait state"
             f"{'' if plugin.cycles_wait_states == 1 else 's'}) for "
             f"{plugin.cycles_instructions} instructions, IPC "
             f"{ipc(plugin.cycles_instructions, plugin.cycles)}"]
    trust, hint = model_trust.of(plugin.cycles_model, plugin.cycles_memory)
    lines.append(f"cycles: {trust}")
    if hint:
        lines.append(f"cycles: {hint}")
    # a function's window, or its instructions' (--annotate's), summed
    summed = {}
    for w, (c, i) in plugin.windows.items():
        if c:
            name = names.get(w) or f"{w[0]:#x}-{w[1]:#x}"
            was = summed.get(name, (0, 0))
            summed[name] = (was[0] + c, was[1] + i)
    rows = sorted(((c, i, name) for name, (c, i) in summed.items()),
                  key=lambda r: (-r[0], r[2]))
    if rows:
        lines.append(f"{'cycles':>12} {'%':>6} {'instructions':>13} "
                     f"{'IPC':>5}  function (own code)")
    for c, i, name in rows[:TOP]:
        lines.append(f"{c:>12} {100 * c / plugin.cycles:>6.2f} "
                     f"{i:>13} {ipc(i, c):>5}  {name}")
    return "\n".join(lines) + "\n"


def ipc(instructions, cycles):
    return f"{instructions / cycles:.2f}" if cycles else "-"
