# SPDX-License-Identifier: MIT
"""scripts/profile --sample: where the time goes, with no code in the
guest.  The plugin records the pc (sampled or every instruction) and
the calls; this turns that into a gmon.out for the board's gprof,
collapsed stacks, and the flat profile printed after the guest's output.
"""

import argparse

import contexts
import elf
import flamegraph
import gmon
import gprof
import plugin
import speedscope
import stacks
import task_gmon
from common import Failure, say

DEFAULT_PERIOD = 1000


def period(text):
    """--sample's value: a number of counter clocks, or exact."""
    if text == "exact":
        return plugin.EXACT
    if text.isdigit() and int(text) > 0:
        return int(text)
    raise argparse.ArgumentTypeError(
        f"'{text}' is not a period: give a number of counter clocks (1 or "
        f"more) or exact")


class Profiler:
    """One profiled boot: the plugin's arguments, then its results."""

    def __init__(self, qemu, board, period, workdir):
        self.board = board
        self.period = period
        self.results = workdir / "profile.txt"
        self.qemu_args = plugin.qemu_args(qemu, board, self.results, period)

    def finish(self, image, gmon_path, stacks_path=None, unit="seconds",
               report=say, guest_gmon=None, flamegraph_path=None,
               speedscope_path=None, per_task=False):
        """Write gmon.out (and collapsed stacks), report what was written;
        return the Profile and gprof's flat profile.

        With guest_gmon (the gmon.out of a program built with -pg), its
        call arcs replace the ones followed host-side.  With per_task, a
        gmon.out per task and handler too, and the flat profile of each.
        """
        profile = plugin.read(self.results)
        arcs = profile.arcs
        if guest_gmon:
            if not guest_gmon.exists():
                raise Failure(
                    "the program wrote no gmon.out: build it with -pg "
                    "(scripts/profile --gprof does) and let it return from "
                    "main or call exit(), which writes the file")
            arcs = gmon.read_arcs(guest_gmon, self.board.address_bytes)
        size = gmon.write(gmon_path, profile.histogram, arcs,
                          *self.gmon_unit(unit),
                          address_bytes=self.board.address_bytes)
        what = "every instruction" if self.period == plugin.EXACT else \
            f"a sample every {self.period} clocks"
        report(f"profile: {profile.instructions} instructions, {what}; "
               f"{gmon_path} ({size} bytes); read it with: "
               f"{gprof.tool(self.board)} {image} {gmon_path}")
        if profile.depth_lost:
            report(f"profile: {profile.depth_lost} calls went deeper than "
                   f"the profiler follows; their time is charged to the "
                   f"deepest frame it kept")
        if stacks_path or flamegraph_path or speedscope_path:
            collapsed = stacks.collapse(profile, elf.read(image), self.board)
        if stacks_path:
            stacks.write(stacks_path, collapsed)
            report(f"profile: {len(collapsed)} call stacks in "
                   f"{stacks_path}")
        unit = "instructions" if self.period == plugin.EXACT else \
            "samples"
        if flamegraph_path:
            flamegraph_path.write_text(flamegraph.render(
                stacks.lines(collapsed), f"{image.name} on "
                f"{self.board.name}", unit))
            report(f"profile: flame graph in {flamegraph_path}")
        if speedscope_path:
            speedscope.write(speedscope_path, collapsed,
                             f"{image.name} on {self.board.name} ({unit})")
            report(f"profile: speedscope file in {speedscope_path} "
                   f"({speedscope_path.stat().st_size:,} bytes)")
        flat = gprof.run(self.board, image, gmon_path, "-p")
        flat += contexts.report(profile, elf.read(image), self.board)
        if per_task:
            written = task_gmon.write(profile, elf.read(image), self.board,
                                      gmon_path, self.gmon_unit(unit))
            report(f"profile: a gmon.out per task and handler: "
                   f"{len(written)} files, "
                   f"{task_gmon.pattern(gmon_path)}")
            flat += task_gmon.report(self.board, image, written)
        return profile, flat

    def gmon_unit(self, unit):
        """(rate, dimension, abbreviation) of gmon.out's histogram: a
        count is period counter clocks, so seconds are the counter's."""
        if unit == "clocks":
            return max(self.period, 1), "clocks", "c"
        return round(self.board.freq / max(self.period, 1)), "seconds", "s"
