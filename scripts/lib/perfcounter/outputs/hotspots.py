# SPDX-License-Identifier: MIT
"""scripts/profile --sample: where the time goes, with no code in the
guest.  The plugin records the pc (sampled or every instruction) and
the calls; this turns a run's profile into a gmon.out for the board's
gprof, collapsed stacks, a flame graph, a speedscope file, a gmon.out
per task, and the flat profile printed after the guest's output.
"""

from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.outputs import (flamegraph, gmon, gprof, speedscope,
                                 task_gmon)
from perfcounter.results import contexts, cpu_load, heap, instances, \
    kernel_objects, stacks
from perfcounter.boot.config import EXACT


def gmon_unit(result, unit):
    """(rate, dimension, abbreviation) of gmon.out's histogram: a count
    is period counter clocks, so seconds are the counter's."""
    period = max(result.config.profile, 1)
    if unit == "clocks":
        return period, "clocks", "c"
    return round(result.board.freq / period), "seconds", "s"


def write(result, options, report=say, unwritten=None, text=True):
    """Write gmon.out (options.gmon) and what else options ask for
    (stacks, flamegraph, speedscope, per_task), report what was written;
    return gprof's flat profile and the tasks' table, to print (without
    text, "": the files alone, as each test of a pytest session writes
    them, which ran gprof for a text nobody read).  A file that cannot be
    written is noted in unwritten (outputs.Unwritten), the others written
    all the same; without one, Failure once they are.

    With options.gprof_call_graph (the -pg workflow), the call arcs of
    the gmon.out the guest wrote (in config.guest_cwd) replace the ones
    followed host-side.
    """
    from perfcounter.outputs import Unwritten
    if unwritten is None:
        unwritten = Unwritten()
        printed = write(result, options, report, unwritten, text)
        unwritten.check()
        return printed
    profile = result.profile
    if profile is None:
        raise Failure(result.plugin_error or
                      f"the plugin wrote no profile ({result.plugin.mode})")
    config, target, board = result.config, result.target, result.board
    arcs = profile.arcs
    if options.gprof_call_graph:
        guest_gmon = config.guest_cwd / "gmon.out"
        if not guest_gmon.exists():
            raise Failure(
                "the program wrote no gmon.out: build it with -pg "
                "(scripts/profile --gprof does) and let it return from "
                "main or call exit(), which writes the file")
        arcs = gmon.read_arcs(guest_gmon, board.address_bytes)
    unit = gmon_unit(result, options.gprof_unit)
    what = "every instruction" if config.profile == EXACT else \
        f"a sample every {config.profile} clocks"
    flat_profile = per_task = None
    with unwritten.writing(options.gmon):
        size = gmon.write(options.gmon, profile.histogram, arcs, *unit,
                          address_bytes=board.address_bytes)
    if options.gmon not in unwritten:
        if text:
            flat_profile = gprof.start(target, options.gmon, "-p")
        report(f"profile: {profile.instructions} instructions, {what}; "
               f"{options.gmon} ({size} bytes); read it with: "
               f"{gprof.tool(board)} {target.path} {options.gmon}")
    if options.per_task:     # (the longest: begun early)
        pattern = task_gmon.pattern(options.gmon)
        with unwritten.writing(pattern):
            written = task_gmon.write(profile, target, options.gmon, unit)
            if text:
                per_task = task_gmon.start(target, written, unit)
    if profile.depth_lost:
        report(f"profile: {profile.depth_lost} calls went deeper than "
               f"the profiler follows; their time is charged to the "
               f"deepest frame it kept")
    if options.stacks or options.flamegraph or options.speedscope:
        collapsed = stacks.collapse(profile, target)
    if options.stacks:
        with unwritten.writing(options.stacks):
            stacks.write(options.stacks, collapsed)
            report(f"profile: {len(collapsed)} call stacks in "
                   f"{options.stacks}")
    counted = "instructions" if config.profile == EXACT else "samples"
    if options.flamegraph:
        with unwritten.writing(options.flamegraph):
            options.flamegraph.write_text(flamegraph.render(
                stacks.lines(collapsed),
                f"{target.path.name} on {board.name}", counted))
            report(f"profile: flame graph in {options.flamegraph}")
    if options.speedscope:
        with unwritten.writing(options.speedscope):
            speedscope.write(options.speedscope, collapsed,
                             f"{target.path.name} on {board.name} "
                             f"({counted})")
            report(f"profile: speedscope file in {options.speedscope} "
                   f"({options.speedscope.stat().st_size:,} bytes)")
    if options.per_task and pattern not in unwritten:
        report(f"profile: a gmon.out per task and handler: "
               f"{len(written)} files, {pattern}")
    if not text:
        return ""
    flat = contexts.report(profile, target)
    busy = cpu_load.of(profile, options.load_window_ns)
    if busy:
        flat += cpu_load.report(busy, profile, target)
    released = instances.of(profile, target)
    if released:
        flat += instances.report(released, profile, target)
    used = kernel_objects.of(profile, target)
    if used:
        flat += kernel_objects.report(used, profile, target)
    allocated = heap.of(profile, target)
    if allocated:
        flat += heap.report(allocated, profile, target)
    if per_task:
        flat += per_task()
    return (flat_profile() if flat_profile else "") + flat
