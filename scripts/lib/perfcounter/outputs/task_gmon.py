# SPDX-License-Identifier: MIT
"""scripts/profile --per-task: a gmon.out for each task and interrupt
handler, beside the run's, from the call stacks rooted at it (the
plugin's contexts.c), and gprof's flat profile of each: made here
(flat_profile.py) once gprof printed the same for their sum, else by
gprof for each."""

import os
import re
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.results import contexts
from perfcounter.outputs import flat_profile
from perfcounter.outputs import gmon
from perfcounter.outputs import gprof


def histograms(profile):
    """{context id: {pc: count}}: what ran in each context."""
    context_of = {}
    out = {}
    for (node, pc), count in profile.stacks.items():
        if node not in context_of:
            context_of[node] = profile.call_sites(node)[1]
        cid = context_of[node]
        if cid is not None:
            histogram = out.setdefault(cid, {})
            histogram[pc] = histogram.get(pc, 0) + count
    return out


def path_for(gmon_path, label):
    """gmon.LABEL.out beside gmon_path, LABEL made a file name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-",
                  label.replace("[irq] ", "irq-")).strip("-.")
    return pattern(gmon_path, safe)


def pattern(gmon_path, part="*"):
    """gmon.*.out: the files beside gmon_path."""
    return gmon_path.with_name(f"{gmon_path.stem}.{part}{gmon_path.suffix}")


def write(profile, target, gmon_path, unit):
    """Write a gmon.out per context that ran (rate, dimension and
    abbreviation as the run's: unit); return [(label, path, {pc:
    count})], busiest first, handlers after tasks."""
    names = contexts.labels(profile, target)
    per_context = histograms(profile)
    written = []
    for c in contexts.used(profile):
        if c.id in per_context:
            path = path_for(gmon_path, names[c.id])
            gmon.write(path, per_context[c.id], {}, *unit,
                       address_bytes=target.board.address_bytes)
            written.append((names[c.id], path, per_context[c.id]))
    return written


def start(target, written, unit):
    """Start the flat profile of each context's gmon.out (write()'s
    written, in unit) and return at once: calling what it returns waits
    for them, the report.  gprof runs once, on the contexts' histograms
    summed; if it prints what flat_profile makes of them, each one's is
    made here, else gprof runs on each (15 to 30 ms each: the full
    FreeRTOS demo has 102)."""
    import tempfile     # (here: not imported by every run)
    import weakref
    summed = {}
    for _, _, histogram in written:
        for pc, count in histogram.items():
            summed[pc] = summed.get(pc, 0) + count
    fd, check_path = tempfile.mkstemp(prefix="gmon-summed-", suffix=".out")
    os.close(fd)
    try:
        gmon.write(check_path, summed, {}, *unit,
                   address_bytes=target.board.address_bytes)
        checked = gprof.start(target, check_path, "-p")
    except (OSError, Failure):
        os.unlink(check_path)
        return _by_gprof(target, written)

    def report():
        try:
            functions = flat_profile.functions(target)
            agreed = checked() == flat_profile.text(summed, functions,
                                                    *unit)
        except Exception:   # (any: gprof makes them all then)
            agreed = False
        finally:
            removed()
        if not agreed:
            return _by_gprof(target, written)()
        return _report(written, [flat_profile.text(histogram, functions,
                                                   *unit)
                                 for _, _, histogram in written])
    # (the sum's file removed by the report, or once the report is
    # dropped uncalled: another output failed first)
    removed = weakref.finalize(report, Path(check_path).unlink,
                               missing_ok=True)
    return report


def _report(written, flat):
    parts = ["\nFlat profile of each task and interrupt handler "
             "(--per-task):\n"]
    for (label, path, _), text in zip(written, flat):
        parts.append(f"\n{label} ({path}):\n")
        parts.append(text)
    return "".join(parts)


def _by_gprof(target, written):
    """start() with gprof on each context's gmon.out."""
    # On the cores but one while the run's analyses go on, then on this
    # thread too, from the last not yet begun; the pool imported only
    # then (3.5 ms of every --sample run's results)
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(max(1, (os.cpu_count() or 1) - 1))
    paths = [path for _, path, _ in written]
    begun = [pool.submit(gprof.run, target, path, "-p") for path in paths]

    def report():
        with pool:
            flat = [None] * len(paths)
            for k in reversed(range(len(paths))):
                if begun[k].cancel():
                    flat[k] = gprof.run(target, paths[k], "-p")
            return _report(written, [job.result() if text is None else text
                                     for text, job in zip(flat, begun)])
    return report
