# SPDX-License-Identifier: MIT
"""scripts/profile --timeline: the cores' commands as a Chrome trace.

Writes the Trace Event Format that chrome://tracing, Perfetto UI
(ui.perfetto.dev, "Open trace file") and speedscope open: an object with
"traceEvents". One process per core ("perf-counter 0x40030000"), one
thread (track) per counter: tid 0 the global counter, from START to
STOP; tid N section N, from BEGIN to END. Each interval is a complete
("X") event; "ts" and "dur" are microseconds of QEMU's virtual time
(fractions down to the nanosecond). A RESET, a BEGIN on a begun section
and an END on a section not begun are instant ("i") events. Intervals
still open when QEMU exited end there, with args.open_at_exit.

With a profile that followed tasks and interrupt handlers, one more
process has a track per task and per handler, with a slice for each
stretch of virtual time it ran (contexts.py).
"""

import json
from itertools import chain, groupby

from perfcounter.results import contexts, cpu_load, heap, instances, \
    kernel_objects
from perfcounter.messages import say


def _us(ns):
    return ns / 1000.0


def core_events(pid, core):
    """Trace events of one core (a readout.Core with a timeline)."""
    names = {s.number: s.name for s in core.sections}
    events = []
    open_at = {}    # tid -> the event that opened its interval

    def label(tid):
        if tid == 0:
            return "measuring"
        return names.get(tid) or f"section {tid}"

    def close(tid, ev, at_exit=False):
        start = open_at.pop(tid)
        args = {"begin_ns": start["ns"], "end_ns": ev["ns"]}
        if "instructions" in start and "instructions" in ev:
            args["instructions"] = ev["instructions"] - start["instructions"]
        if at_exit:
            args["open_at_exit"] = True
        events.append({"ph": "X", "name": label(tid), "cat": "perf-counter",
                       "pid": pid, "tid": tid, "ts": _us(start["ns"]),
                       "dur": _us(ev["ns"] - start["ns"]), "args": args})

    def instant(tid, name, ev):
        events.append({"ph": "i", "s": "t", "name": name,
                       "cat": "perf-counter", "pid": pid, "tid": tid,
                       "ts": _us(ev["ns"])})

    for ev in core.timeline["events"]:
        kind = ev["event"]
        tid = ev.get("section", 0)
        if kind == "reset":
            for t in sorted(open_at):
                close(t, ev)
            instant(0, "RESET", ev)
        elif kind in ("start", "begin"):
            if tid in open_at:
                instant(tid, kind.upper() + " again", ev)
            else:
                open_at[tid] = ev
        elif tid in open_at:
            close(tid, ev)
        else:
            instant(tid, kind.upper() + (" (not running)" if tid == 0
                                         else " (not begun)"), ev)
    for t in sorted(open_at):
        close(t, {"ns": core.virtual_ns}, at_exit=True)
    if not events:
        return []
    events.sort(key=lambda e: (e["ts"], e["tid"]))
    return _metadata(pid, core, {e["tid"] for e in events}) + events


def _metadata(pid, core, tids):
    """Names of the core's process and of its tracks that have events."""
    names = {s.number: s.name for s in core.sections}
    meta = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
             "args": {"name": f"perf-counter {core.base:#010x}"}},
            {"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0,
             "args": {"sort_index": pid}}]
    for tid in sorted(tids | {0}):
        label = "global (START-STOP)" if tid == 0 else \
            f"section {tid}" + (f": {names[tid]}" if names.get(tid) else "")
        meta += [{"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                  "args": {"name": label}},
                 {"ph": "M", "name": "thread_sort_index", "pid": pid,
                  "tid": tid, "args": {"sort_index": tid}}]
    return meta


def trace(cores, metadata, tasks=None, load_window_ns=None):
    """The trace document of every core that kept a timeline, and of the
    tasks and handlers (tasks: (PluginResults, Target)) with their CPU
    load in windows of load_window_ns; the tasks' slices are JSON text
    already (see write)."""
    events = []
    dropped = {}
    for pid, core in enumerate(cores, 1):
        if core.timeline is None:
            continue
        events += core_events(pid, core)
        dropped[f"{core.base:#010x}"] = core.timeline["dropped"]
    if tasks:
        meta, slices = contexts.trace_parts(*tasks, len(cores) + 1)
        events += meta + [slices]
        dropped["contexts"] = tasks[0].switches_dropped
        busy = cpu_load.of(tasks[0], load_window_ns)
        if busy:
            events += cpu_load.trace_events(busy, *tasks, len(cores) + 1)
        allocated = heap.of(*tasks)
        if allocated:
            events += heap.trace_events(allocated, len(cores) + 1)
        released = instances.of(*tasks)
        if released:
            events += instances.trace_events(released, *tasks,
                                             len(cores) + 2)
        used = kernel_objects.of(*tasks)
        if used:
            events += kernel_objects.trace_events(used, *tasks,
                                                  len(cores) + 3)
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": dict(metadata, dropped_events=dropped)}


def warn_dropped(cores):
    """Say, per core, how many commands a full timeline dropped."""
    for core in cores:
        t = core.timeline
        if t and t["dropped"]:
            say(f"timeline of the core at {core.base:#010x} is capped: it "
                f"kept the first {len(t['events'])} commands and dropped "
                f"{t['dropped']} (raise --timeline-events, at most 4194304)")


# events joined into one text at a time when writing: one text of the
# whole trace (200 MB for a 20 s run) cost twice the writing in fresh
# pages and scattered reads
CHUNK = 4096


def _write_events(f, events):
    """Write the events to f, comma-separated JSON: contexts.py's slices
    come as contexts.Slices, others as text already, the rest are
    encoded a run at a time (a call per event took 1.7 s of a 20 s
    run's timeline)."""
    sep = ""
    for kind, run in groupby(events, key=type):     # str, dict or Slices
        if kind is contexts.Slices:
            texts = chain.from_iterable(s.chunks(CHUNK) for s in run)
        else:
            run = list(run)
            texts = (",".join(part) if kind is str else
                     json.dumps(part, separators=(",", ":"))[1:-1]
                     for part in (run[k:k + CHUNK]
                                  for k in range(0, len(run), CHUNK)))
        for text in texts:
            f.write(sep)
            f.write(text)
            sep = ","


def write(path, result, load_window_ns=None):
    """The trace of a run (a Result), compact: a long run's has a
    million context slices."""
    profile = result.profile
    tasks = (profile, result.target) if profile and profile.contexts \
        else None
    doc = trace(result.cores, {"board": result.board.name,
                               "image": str(result.target.path),
                               "clock_hz": result.board.freq}, tasks,
                load_window_ns)
    events = doc.pop("traceEvents")
    rest = json.dumps(doc, separators=(",", ":"))
    with open(path, "w") as f:
        f.write('{"traceEvents":[')
        _write_events(f, events)
        f.write("]," + rest[1:] + "\n")
