# SPDX-License-Identifier: MIT
"""scripts/profile --per-task: a gmon.out for each task and interrupt
handler, beside the run's, from the call stacks rooted at it (the
plugin's contexts.c), and gprof's flat profile of each."""

import os
import re

from perfcounter.results import contexts
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
    abbreviation as the run's: unit); return [(label, path)], busiest
    first, handlers after tasks."""
    names = contexts.labels(profile, target)
    per_context = histograms(profile)
    written = []
    for c in contexts.used(profile):
        if c.id in per_context:
            path = path_for(gmon_path, names[c.id])
            gmon.write(path, per_context[c.id], {}, *unit,
                       address_bytes=target.board.address_bytes)
            written.append((names[c.id], path))
    return written


def start(target, written):
    """Start gprof on each context's gmon.out and return at once:
    calling what it returns waits for their flat profiles, the report."""
    # gprof once per context (the full FreeRTOS demo's 102 take 15 to 30
    # ms each): on the cores but one while the run's analyses go on, then
    # on this thread too, from the last not yet begun; the pool imported
    # only then (3.5 ms of every --sample run's results)
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(max(1, (os.cpu_count() or 1) - 1))
    paths = [path for _, path in written]
    begun = [pool.submit(gprof.run, target, path, "-p") for path in paths]

    def report():
        with pool:
            flat = [None] * len(paths)
            for k in reversed(range(len(paths))):
                if begun[k].cancel():
                    flat[k] = gprof.run(target, paths[k], "-p")
            parts = ["\nFlat profile of each task and interrupt handler "
                     "(--per-task):\n"]
            for (label, path), text, job in zip(written, flat, begun):
                parts.append(f"\n{label} ({path}):\n")
                parts.append(job.result() if text is None else text)
        return "".join(parts)
    return report
