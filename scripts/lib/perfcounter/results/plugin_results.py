# SPDX-License-Identifier: MIT
"""The one reader of what the instrumentation plugin writes when QEMU
exits (its out= file; the format is docs/plugin-results.md): the
profile, the tasks and handlers, the estimated cycles, and how the run
ended."""

import gc
import struct
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property

from perfcounter.errors import Failure

FORMAT_LINE = "perfctr-profile 2"


@dataclass
class Outcome:
    """How the run ended, as the plugin saw it (stop.c's stop_write)."""
    instructions: int = None    # retired, when -icount knew them
    ns: int = None              # virtual time
    stopped_by: str = None      # "instructions N", "pc 0xA K"...
    start: str = None           # "reached" or "not-reached"


@dataclass
class Context:
    """A task or an exception handler the plugin followed (contexts.c)."""
    id: int
    kind: str                       # "task" or "handler"
    number: int                     # a handler's exception number
    root: int                       # its call stacks' root node
    first_pc: int                   # where it first ran; 0 if not known
    key: int                        # a task's control block, or its sp
    stack_base: int                 # its stack's lowest address; 0
    instructions: int
    cycles: int
    switches_in: int
    runs: int                       # a handler's runs
    run_min: int                    # instructions of one run
    run_max: int
    run_total: int
    run_cycles_min: int
    run_cycles_max: int
    sp_low: int                     # its deepest stack pointer; 0
    sp_high: int
    stack_used: int                 # bytes: a task's from its highest sp
    #                                 to its lowest, a handler's most in
    #                                 one run, from its sp at entry
    name: str                       # the RTOS's name for a task
    # a handler's latency, from its exception pended to its entry:
    # (count, min, max, total) in instructions and in virtual ns
    latency: tuple = None
    latency_ns: tuple = None


@dataclass
class PluginResults:
    """Everything in the plugin's results file."""
    mode: str = ""                  # "exact", "sample" or "none"
    period: int = 1                 # instructions per count
    instructions: int = 0           # executed in all
    depth_lost: int = 0             # calls deeper than the plugin tracks
    histogram: dict = field(default_factory=dict)   # pc: count
    arcs: dict = field(default_factory=dict)        # (site, callee): calls
    branches: dict = field(default_factory=dict)    # (site, taken): times
    nodes: dict = field(default_factory=dict)       # node: (parent, site)
    stacks: dict = field(default_factory=dict)      # (node, pc): count
    # whether stacks are call stacks; False (stacks=flat): each holds
    # only its context's root node, the calls counted in arcs all the same
    call_stacks: bool = True
    cycles_model: str = ""          # the timing model, if one ran
    cycles_memory: str = ""         # the flash part it had code in
    cycles_wait_states: int = 0
    cycles: int = 0                 # estimated cycles in all
    cycles_instructions: int = 0    # instructions the model saw
    windows: dict = field(default_factory=dict)  # (start, end): (cyc, insns)
    contexts: dict = field(default_factory=dict)     # id: Context
    switches: list = field(default_factory=list)     # (ns, insns, vcpu, id)
    switch_cycles: list = field(default_factory=list)   # the model's, each
    switches_dropped: int = 0
    probes: list = field(default_factory=list)  # (returned, start, insns,
    #          ns, context, value0, value1): an entry's first two arguments,
    #          a return's value (and 0); the switches, probes and
    #          stores a sequence of them (from a stream:
    #          plugin_stream.PackedRecords)
    probes_dropped: int = 0
    stores: list = field(default_factory=list)  # (insns, ns, context id,
    #                                             address, value): watch=
    stores_dropped: int = 0
    store_cycles: list = field(default_factory=list)    # the model's, each
    # stretches with interrupts masked (mask.c): (times, instructions in
    # all, the longest's instructions, its ns, where it began)
    masked: tuple = None
    # the plugin's stream= file, if the switches, probes' and stores'
    # records are there (complete), not repeated in the results file
    stream: str = None
    end_ns: int = None              # virtual time when the profile ended
    end_instructions: int = None
    outcome: Outcome = field(default_factory=Outcome)

    @property
    def profiled(self):
        """Whether it holds a profile (pcs, arcs, stacks)."""
        return self.mode in ("exact", "sample")

    @cached_property
    def roots(self):
        """{root node: the context whose call stacks start there}"""
        return {c.root: c.id for c in self.contexts.values()}

    @cached_property
    def _call_sites(self):
        return {}       # node: call_sites(node)

    def call_sites(self, node):
        """The call sites from the root down to node (a tuple), and the
        context whose call stack it is in (None if it is in none); each
        node's kept, and made from its parent's (each output made of the
        stacks asks for every node: 25,913 in the full FreeRTOS demo's
        exact profile of 125 M instructions)"""
        known, roots, nodes = self._call_sites, self.roots, self.nodes
        below = []              # the nodes not known yet, up from node
        up = node
        while up not in known:
            if not up or up in roots:
                known[up] = (), roots[up] if up else None
                break
            below.append(up)
            up = nodes[up][0]
        sites, context = known[up]
        for n in reversed(below):
            sites += nodes[n][1],
            known[n] = sites, context
        return known[node]


def read(path, streamed=None):
    """The PluginResults the plugin wrote to path; Failure if there are
    none (QEMU failed to start, or was killed before it could write).
    streamed: {tag: [records]} already read from its stream=
    (during_run.py), used for a block of as many records, the same
    last, and for those the file says are in the stream, if as many;
    else they are read from the stream file."""
    try:
        data = open(path, "rb").read()
    except FileNotFoundError:
        raise Failure("the profiler wrote no results: QEMU ended before it "
                      "could") from None
    except OSError as err:
        raise Failure(f"cannot read the profiler's results {path}: "
                      f"{err.strerror}") from None
    if not data.startswith(FORMAT_LINE.encode() + b"\n"):
        raise Failure(f"{path} is not a profile the plugin wrote")
    with without_gc():
        return _read(data, path, streamed or {})


def _read(data, path, streamed):
    p = PluginResults()
    in_stream = {}      # tag: the count of its first records, in p.stream
    blocks = {}         # tag: its records in the file (after the stream's)
    for tag, found in _sections(data, path, streamed):
        if tag is None:
            _read_lines(p, found, in_stream)
        else:
            blocks[tag] = found
    if in_stream:
        for tag, found in _streamed(path, p.stream, in_stream,
                                    streamed).items():
            blocks[tag] = [*found, *blocks[tag]] if blocks.get(tag) \
                else found
    for tag, found in blocks.items():
        _records(p, tag, found)
    return p


def _records(p, tag, found):
    """A kind's records into p"""
    if tag == "switch":
        p.switches, p.switch_cycles = _cycles_apart(found, 4)
    elif tag == "store":
        p.stores, p.store_cycles = _cycles_apart(found, 5)
    elif tag == "probe":
        p.probes = found


def _streamed(path, stream, counts, streamed):
    """{tag: its records} for each tag of counts ({tag: how many}): the
    first ones the stream file stream holds, as the results file at path
    says; those of streamed if as many, else read from the file (as far
    as it has them: a snapshot's stream goes on)."""
    got = {tag: streamed[tag] for tag, count in counts.items()
           if tag in streamed and len(streamed[tag]) == count}
    if len(got) == len(counts):
        return got
    from perfcounter.results import plugin_stream
    if stream is None:
        raise Failure(f"{path} has records in a stream it does not name")
    read = {tag: [] for tag in counts if tag not in got}
    exited = threading.Event()
    exited.set()
    try:
        for kind, records in plugin_stream.sections(stream, exited):
            if kind in read:
                read[kind] += records
                if all(len(read[tag]) >= counts[tag] for tag in read):
                    break
    except plugin_stream.CutShort as err:
        raise Failure(f"{path} has its records in {stream}: {err}") \
            from None
    except OSError as err:
        raise Failure(f"cannot read the profiler's records {stream}: "
                      f"{err.strerror}") from None
    for tag, records in read.items():
        if len(records) < counts[tag]:
            raise Failure(f"{stream} holds {len(records)} {tag} records, "
                          f"not the {counts[tag]} {path} says")
        got[tag] = records[:counts[tag]]
    return got


def _cycles_apart(records, fields):
    """(records of their first fields, [each one's model cycles]: the
    field after those, with cycles=; else [])"""
    if not records or len(records[0]) == fields:
        return records, []
    from perfcounter.results.plugin_stream import PackedRecords
    if isinstance(records, PackedRecords):
        return records.fields(0, fields), \
            [cycles for cycles, in records.fields(fields, 1)]
    return [r[:fields] for r in records], [r[fields] for r in records]


def _sections(data, path, streamed):
    """The file in order: (None, its text lines) between blocks of
    records, (TAG, the block's records as tuples) for each block (those
    of streamed[TAG] if they are the same)."""
    pos = 0
    while pos < len(data):
        at = pos if data.startswith(b"records ", pos) else \
            data.find(b"\nrecords ", pos) + 1
        if at <= 0:
            at = len(data)
        if at > pos:
            yield None, data[pos:at].decode().splitlines()
        if at == len(data):
            return
        eol = data.find(b"\n", at)
        if eol < 0:
            raise Failure(f"{path} is cut short in a records line")
        try:
            _, tag, count, fields = data[at:eol].decode().split()
            if fields.strip("qQ"):
                raise ValueError(fields)
            layout = struct.Struct("<" + fields)
            pos = eol + 1 + layout.size * int(count)
        except ValueError:
            raise Failure(f"{path}: a records line the plugin did not "
                          f"write: {data[at:eol][:80]!r}") from None
        if pos >= len(data) or data[pos:pos + 1] != b"\n":
            raise Failure(f"{path} is cut short in its {tag} records")
        known = streamed.get(tag)
        if known is not None and len(known) == int(count) and \
                (not known or
                 known[-1] == layout.unpack_from(data, pos - layout.size)):
            yield tag, known
        else:
            yield tag, list(layout.iter_unpack(
                memoryview(data)[eol + 1:pos]))
        pos += 1


def _read_lines(p, lines, in_stream):
    """The text records of lines into p (in_stream: {tag: count} of the
    records-in-stream lines)"""
    # The profile's tables first: an exact run of FreeRTOS's full demo
    # writes 240,000 of their lines (a call stack's pc, a node, a pc)
    stacks, nodes, histogram = p.stacks, p.nodes, p.histogram
    for line in lines:
        parts = line.split()
        tag = parts[0]
        if tag == "stack":
            stacks[int(parts[1], 0), int(parts[2], 0)] = int(parts[3])
            continue
        if tag == "node":
            nodes[int(parts[1])] = (int(parts[2]), int(parts[3], 0))
            continue
        if tag == "pc":
            histogram[int(parts[1], 0)] = int(parts[2])
            continue
        fields = parts[1:]
        if tag == "context":
            nums = [int(f, 0) for f in fields[2:19]]
            c = Context(int(fields[0]), fields[1], *nums,
                        name=line.split(None, 20)[20]
                        if len(fields) > 19 else "")
            p.contexts[c.id] = c
            continue
        if tag == "latency":
            nums = [int(f) for f in fields]
            c = p.contexts.get(nums[0])
            if c:
                c.latency = tuple(nums[1:5])
                c.latency_ns = (nums[1],) + tuple(nums[5:8])
            continue
        if tag == "stopped-by":
            p.outcome.stopped_by = line.partition(" ")[2]
            continue
        if tag == "start":
            p.outcome.start = fields[-1]
            continue
        if tag == "stream":
            p.stream = line.partition(" ")[2]
            continue
        if tag == "records-in-stream":
            in_stream[fields[0]] = int(fields[1])
            continue
        if tag in ("mode", "stacks", "cycles-model", "cycles-memory"):
            values = fields
        else:
            values = [int(f, 0) for f in fields]
        if tag == "mode":
            p.mode = values[0]
        elif tag == "stacks":
            p.call_stacks = values[0] == "on"
        elif tag == "cycles-model":
            p.cycles_model = values[0]
        elif tag == "cycles-memory":
            p.cycles_memory = values[0]
        elif tag == "cycles-wait-states":
            p.cycles_wait_states = values[0]
        elif tag == "cycles":
            p.cycles = values[0]
        elif tag == "cycles-instructions":
            p.cycles_instructions = values[0]
        elif tag == "window":
            p.windows[values[0], values[1]] = (values[2], values[3])
        elif tag == "period":
            p.period = values[0]
        elif tag == "instructions":
            p.instructions = values[0]
        elif tag == "depth-lost":
            p.depth_lost = values[0]
        elif tag == "arc":
            p.arcs[values[0], values[1]] = values[2]
        elif tag == "branch":
            p.branches[values[0], bool(values[1])] = values[2]
        elif tag == "switches-dropped":
            p.switches_dropped = values[0]
        elif tag == "probes-dropped":
            p.probes_dropped = values[0]
        elif tag == "stores-dropped":
            p.stores_dropped = values[0]
        elif tag == "masked":
            p.masked = tuple(values)
        elif tag == "contexts-end":
            p.end_ns, p.end_instructions = values
        elif tag == "run-instructions":
            p.outcome.instructions = values[0]
        elif tag == "run-ns":
            p.outcome.ns = values[0]


def _less(later, earlier):
    """{key: later's count less earlier's}, without the keys left at 0"""
    out = {}
    for key, count in later.items():
        left = count - earlier.get(key, 0)
        if left:
            out[key] = left
    return out


def _windows_less(later, earlier):
    out = {}
    for key, (cycles, instructions) in later.items():
        was = earlier.get(key, (0, 0))
        if instructions - was[1]:
            out[key] = (cycles - was[0], instructions - was[1])
    return out


def between(earlier, later):
    """The PluginResults of what ran between two snapshots of one run
    (a Session's step): every count later's less earlier's; the call
    tree's nodes and the contexts are later's, each context's sums
    (instructions, cycles, switches in, runs) less earlier's and its
    extremes (a run's longest, the stack's depth) the run's so far;
    the switches made in between."""
    p = PluginResults(
        mode=later.mode, period=later.period,
        instructions=later.instructions - earlier.instructions,
        depth_lost=later.depth_lost - earlier.depth_lost,
        histogram=_less(later.histogram, earlier.histogram),
        arcs=_less(later.arcs, earlier.arcs),
        branches=_less(later.branches, earlier.branches),
        nodes=later.nodes,
        stacks=_less(later.stacks, earlier.stacks),
        call_stacks=later.call_stacks,
        cycles_model=later.cycles_model,
        cycles_memory=later.cycles_memory,
        cycles_wait_states=later.cycles_wait_states,
        cycles=later.cycles - earlier.cycles,
        cycles_instructions=later.cycles_instructions
        - earlier.cycles_instructions,
        windows=_windows_less(later.windows, earlier.windows),
        switches=later.switches[len(earlier.switches):],
        switch_cycles=later.switch_cycles[len(earlier.switch_cycles):],
        probes=later.probes[len(earlier.probes):],
        stores=later.stores[len(earlier.stores):],
        store_cycles=later.store_cycles[len(earlier.store_cycles):],
        end_ns=later.end_ns, end_instructions=later.end_instructions,
        outcome=later.outcome)
    for id, c in later.contexts.items():
        was = earlier.contexts.get(id)
        if was:
            c = replace(c, instructions=c.instructions - was.instructions,
                        cycles=c.cycles - was.cycles,
                        switches_in=c.switches_in - was.switches_in,
                        runs=c.runs - was.runs,
                        run_total=c.run_total - was.run_total)
        p.contexts[id] = c
    return p


@contextmanager
def without_gc():
    """Python's cycle collector paused: reading and analysing a long
    run's records makes millions of tuples, none in a cycle, and each
    full collection walked all of them (0.2 to 0.3 s of the full
    FreeRTOS demo's results)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# Held while an analysis is made: a caller's threads may ask for the
# same one, and it is made once.
ANALYSING = threading.RLock()


def once_per_run(analysis):
    """analysis(profile, target), made once for the last profile given:
    the text, --json, the timeline and the other analyses each ask for
    it of the same run."""
    last = [None, None]

    def made(profile, target):
        with ANALYSING:
            if profile is None or last[0] is not profile:
                with without_gc():
                    last[:] = [profile, analysis(profile, target)]
            return last[1]

    def given(profile, target, value):
        """value is analysis(profile, target): made another way (as the
        run went: during_run.py)"""
        last[:] = [profile, value]
    made.__doc__ = analysis.__doc__
    made.given = given
    return made
