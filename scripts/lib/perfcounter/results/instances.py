# SPDX-License-Identifier: MIT
"""Task instances and response times, from the host: what Tracealyzer
calls an actor instance. An instance of a task runs from its release
(the RTOS made it ready: a tick, a give, a queue send, an ISR) to its
completion (it blocked, was delayed or suspended, and was switched
out). Per task: the instances, each one's response time (release to
completion) and execution time (what the task itself ran in it), in
instructions, virtual time and, with --cycles, the timing model's
cycles; the rest of the response is waiting
ready, preempted by other tasks and handlers (by whom is counted), and
between two instances the task is blocked (delayed, suspended: the
list the RTOS put it in says which).

Where the task's state is comes from rtos.States: the RTOS keeps a task
in a list by its state (FreeRTOS: a ready list per priority, the
delayed lists, the suspended list), and the plugin records the kernel's
stores of those lists' addresses (watch.c), with the task or handler
that made them; who ran when comes from the switches (contexts.c).

An instance completes when its task, no longer ready, is switched out
for another task: its completion is the end of the task's last stretch
(what a handler ran before the switch is not the task's). A task made
ready again before it was switched out goes on in the same instance. An
instance still open at the end of the run (IDLE's, never blocked) is
given apart and in no statistic. One vCPU only.
"""

import json
from array import array
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter, itemgetter

from perfcounter.results import contexts, kernel_objects, plugin_results, \
    trace_time

NOT_READY = ("delayed", "suspended", "deleted")
SWITCH, STORE, WAIT, END = range(4)   # the kinds of _events(), in the
#                                       order of those at one instruction
CHECKPOINT = 64             # stretches between two of the walk's sums
# A semaphore's or mutex's waiters, in its words
SEMAPHORE_WAYS = {"to receive": "to take", "to send": "to give"}


@dataclass(slots=True)
class Instance:
    # (instructions, ns, model cycles or 0): a point of the run or a span
    release: tuple                  # when made ready
    first: int                      # the walk's first stretch after it
    ran: tuple = (0, 0, 0)          # what its task ran before it
    execution: tuple = (0, 0, 0)    # what its task ran in it
    last_ran: tuple = None          # its last stretch's end
    last: int = None                # the walk's stretch after that one
    end: tuple = None               # its completion
    ran_then: tuple = None          # what its task had run by last_ran
    response: tuple = None          # end - release (made at its end)


@dataclass
class Task:
    key: int                        # its control block
    cid: int                        # its context's id; None: never ran
    ready: bool = False
    blocked_by: str = None          # the list it was last put in
    waiting_on: tuple = None        # (object's handle, way) it waits on
    blocked_on: tuple = (None, None)    # ... when its last instance ended
    blocked_since: tuple = None     # its last instance's completion
    current: Instance = None
    done: list = field(default_factory=list)
    # what ran while its completed instances waited: id: [instructions, ns]
    preempted: dict = field(default_factory=dict)
    blocked: dict = field(default_factory=dict)     # (kind, object's
    #                                                   handle, way): [times, ns]


@dataclass
class Instances:
    tasks: dict                     # context id: Task
    dropped: int = 0                # the stores the plugin did not keep
    objects: object = None          # kernel_objects.KernelObjects, or None
    # {context id: [slice_tail() of each completed instance]}, made as
    # the run went (during_run.py)
    slice_tails: dict = field(default_factory=dict)


@plugin_results.once_per_run
def of(profile, target):
    """The Instances of a run whose plugin watched the RTOS's state lists;
    None if it did not, or ran several vCPUs."""
    layout = target.rtos_layout
    states = getattr(layout, "states", None)
    if profile is None or states is None or not profile.stores or \
            contexts.several_vcpus(profile):
        return None
    walk = _Walk((c.id, c.kind, c.key) for c in profile.contexts.values())
    objects = kernel_objects.of(profile, target)
    walk.follow(_events(profile, objects), states)
    return walk.finish(profile, states, objects)


def _events(profile, objects):
    """The switches, the state stores and the waits in the order they
    were made: (instructions, SWITCH / STORE / WAIT, ns, context id /
    address stored to / context id, None / value stored / (object's
    handle, way), the model's cycles or 0 / ... / None): with --cycles,
    each switch's and store's cycles; a wait needs none, it changes no
    state."""
    switch_cycles = profile.switch_cycles or [0] * len(profile.switches)
    store_cycles = profile.store_cycles or [0] * len(profile.stores)
    return sorted([(s[1], SWITCH, s[0], s[3], None, c)
                   for s, c in zip(profile.switches, switch_cycles)] +
                  [(insns, STORE, ns, addr, value, c)
                   for (insns, ns, _, addr, value), c in
                   zip(profile.stores, store_cycles)] +
                  [(insns, WAIT, ns, cid, (handle, way), None)
                   for insns, ns, cid, handle, way in
                   (objects.waits if objects else [])],
                  key=itemgetter(0))   # (stable: at one instruction, in
    #                                     the order of the kinds)


class _Walk:
    """Who ran when, through the switches and the state stores in order:
    each stretch a context ran kept (context, instructions, ns), so that
    an instance's preemptions are summed once, when it completes."""

    def __init__(self, contexts):
        self.ids = {}               # a task's key: its context's id
        self.handlers = set()
        self.by_key = {}
        self.open = {}              # context id: Task with an instance open
        # each stretch's (context id, instructions, ns), one after the
        # other: not a tuple each (1.2 M in FreeRTOS's full demo's 20 s
        # run, kept to its end, each one for Python's cycle collector to
        # walk when it next runs)
        self.stretches = array("q")
        self.made = 0               # stretches
        self.ran = {}               # context id: (instructions, ns, cycles)
        # ran after each CHECKPOINT stretches: a long window is summed
        # from two of them and the few stretches at its ends
        self.checkpoints = [{}]
        self.task_level = self.now = self.running = None
        for cid, kind, key in contexts:
            self.add_context(cid, kind, key)

    def add_context(self, cid, kind, key):
        """Context cid (kind "task" or "handler"; a task's control block
        is key): given before the walk, or before its first switch (as
        the run goes: a task made ready before it first ran gets its id)"""
        if kind == "handler":
            self.handlers.add(cid)
            return
        self.ids[key] = cid
        task = self.by_key.get(key)
        if task is not None and task.cid is None:
            task.cid = cid
            if task.current:
                self.open[cid] = task

    def follow(self, events, states):
        """Through _events(), in order, then the run's END (if it is
        known), in as many calls as need be: each event ends the stretch
        the context running ran since the one before"""
        stretches, ran, open_tasks = self.stretches, self.ran, self.open
        checkpoints, handlers = self.checkpoints, self.handlers
        kinds = states.lists.get
        running, was = self.running, self.now
        made = self.made
        for insns, kind_of_event, ns, what, value, cycles in events:
            if kind_of_event == WAIT:       # (changes no state)
                task = open_tasks.get(what)
                if task is not None:
                    task.waiting_on = value
                continue
            now = (insns, ns, cycles)
            if running is not None and now != was:
                d_insns, d_ns = insns - was[0], ns - was[1]
                stretches.extend((running, d_insns, d_ns))
                made = self.made = made + 1
                got = ran.get(running)
                got = ran[running] = \
                    (got[0] + d_insns, got[1] + d_ns,
                     got[2] + cycles - was[2]) if got else \
                    (d_insns, d_ns, cycles - was[2])
                if made % CHECKPOINT == 0:
                    checkpoints.append(dict(ran))
                task = open_tasks.get(running)
                if task is not None:
                    inst = task.current
                    inst.last_ran, inst.last, inst.ran_then = \
                        now, made, got
            was = self.now = now
            if kind_of_event == SWITCH:
                if what not in handlers:
                    self.task_switch(what)
                running = what
            elif kind_of_event == STORE:
                kind = kinds(value)
                if kind is not None:
                    self.store(what - (states.event_offset
                                       if kind == "pending"
                                       else states.state_offset), kind)
        self.running = running

    def finish(self, profile, states, objects):
        """The Instances, once every event is followed: the run's end
        ends the last stretch"""
        if profile.end_instructions is not None:
            self.follow([(profile.end_instructions, END, profile.end_ns,
                          None, None,
                          profile.cycles if profile.switch_cycles else 0)],
                         states)
        found = Instances({task.cid: task for task in self.by_key.values()
                           if task.cid is not None and
                           (task.done or task.current)},
                          profile.stores_dropped, objects)
        for task in found.tasks.values():
            if task.current:
                inst = task.current
                inst.execution = _less(self.ran.get(task.cid, (0, 0, 0)),
                                       inst.ran)
        return found

    def resolve_waits(self, resolved):
        """Each blocked time's wait, followed as (list's address, None),
        named resolved(address): (object's handle, way)"""
        for task in self.by_key.values():
            task.blocked = {
                (kind, *resolved(at)) if way is None and at is not None
                else (kind, at, way): got
                for (kind, at, way), got in task.blocked.items()}

    def task_switch(self, cid):
        """A switch to task cid (not to a handler): the task it preempted,
        no longer ready, completes its instance"""
        was = self.open.get(self.task_level)
        if was is not None and cid != self.task_level and not was.ready:
            self.complete(was)
        self.task_level = cid

    def store(self, key, kind):
        task = self.by_key.get(key)
        if task is None:
            task = self.by_key[key] = Task(key, self.ids.get(key))
        if kind in NOT_READY:
            task.ready = False
            task.blocked_by = kind
            if task.current and task.cid != self.task_level:
                self.complete(task)
            return
        if task.ready:
            return
        task.ready = True
        task.waiting_on = None          # (woken before it was switched out)
        if task.current is None:
            if task.blocked_since is not None:
                got = task.blocked.setdefault(
                    (task.blocked_by,) + task.blocked_on, [0, 0])
                got[0] += 1
                got[1] += self.now[1] - task.blocked_since[1]
            task.current = Instance(self.now, self.made,
                                    self.ran.get(task.cid, (0, 0, 0)))
            if task.cid is not None:
                self.open[task.cid] = task

    def complete(self, task):
        """Its instance ends where it last ran: what ran after, before the
        switch, is not waiting"""
        inst = task.current
        inst.end = inst.last_ran or self.now
        inst.response = _less(inst.end, inst.release)
        if inst.ran_then:
            inst.execution = _less(inst.ran_then, inst.ran)
        self._charge_preemptions(task, inst.first, inst.last or inst.first)
        task.done.append(inst)
        task.current = None
        self.open.pop(task.cid, None)
        task.blocked_since = inst.end
        task.blocked_on = task.waiting_on or (None, None)


    def _charge_preemptions(self, task, first, last):
        """Adds what each other context ran in the stretches first to last
        (excluded) to task.preempted"""
        by, mine = task.preempted, task.cid
        for cid, insns, ns in self._ran_in(first, last):
            if cid != mine:
                got = by.get(cid)
                if got is None:
                    by[cid] = [insns, ns]
                else:
                    got[0] += insns
                    got[1] += ns

    def _ran_in(self, first, last):
        """(id, instructions, ns) of what contexts ran in the stretches
        first to last (excluded): a long window's middle from two
        checkpoints (the contexts that ran in it), then its ends stretch
        by stretch"""
        low, high = -(-first // CHECKPOINT), last // CHECKPOINT
        if high - low < 2:
            return self._stretches(first, last)
        middle, was = [], self.checkpoints[low]
        for cid, (insns, ns, _) in self.checkpoints[high].items():
            before = was.get(cid)
            if before is None:
                middle.append((cid, insns, ns))
            elif insns != before[0] or ns != before[1]:
                middle.append((cid, insns - before[0], ns - before[1]))
        return chain(middle, self._stretches(first, low * CHECKPOINT),
                     self._stretches(high * CHECKPOINT, last))

    def _stretches(self, first, last):
        """(id, instructions, ns) of the stretches first to last
        (excluded)"""
        each = iter(self.stretches[3 * first:3 * last])
        return zip(each, each, each)


def _less(a, b):
    """a - b, of two (instructions, ns, cycles)"""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _spread(values):
    return {"min": min(values), "mean": sum(values) / len(values),
            "max": max(values)}


def rows(instances, profile, target, each=True):
    """--json's "instances": per task (busiest first), its completed
    instances' statistics, waiting and blocked time, and each instance
    (columns: release_ns, response_ns, execution_ns, response and
    execution instructions; with --cycles, response and execution
    cycles), unless each is false (the text's table: 148,000 instances
    in a 20 s run of FreeRTOS's full demo)."""
    names = contexts.labels(profile, target)
    out = []
    for c in contexts.used(profile):
        task = instances.tasks.get(c.id)
        if task is None:
            continue
        done = task.done
        row = {"name": names[c.id], "instances": len(done)}
        if done:
            # (no Python step per instance: a 20 s run has 148,000;
            # each figure's column made in one pass)
            response_insns, response_ns, response_cycles = zip(
                *map(attrgetter("response"), done))
            execution_insns, execution_ns, execution_cycles = zip(
                *map(attrgetter("execution"), done))
            worst = response_ns.index(max(response_ns))     # the first
            row.update({
                "response_instructions": _spread(response_insns),
                "response_ns": _spread(response_ns),
                "execution_instructions": _spread(execution_insns),
                "execution_ns": _spread(execution_ns),
                "worst": {"index": worst, "release_ns": done[worst].release[1],
                          "response_ns": response_ns[worst]},
                "preempted_by": [
                    {"name": names.get(cid, f"context {cid}"),
                     "instructions": insns, "ns": ns}
                    for cid, (insns, ns) in sorted(task.preempted.items(),
                                                   key=lambda kv: -kv[1][1])]})
            if each:
                row["each"] = {
                    "release_ns": [i.release[1] for i in done],
                    "response_ns": list(response_ns),
                    "execution_ns": list(execution_ns),
                    "response_instructions": list(response_insns),
                    "execution_instructions": list(execution_insns)}
            if profile.switch_cycles:
                # the model's cycles (--cycles), each figure as the
                # instructions' (a release's: to its block)
                row["response_cycles"] = _spread(response_cycles)
                row["execution_cycles"] = _spread(execution_cycles)
                if each:
                    row["each"]["response_cycles"] = list(response_cycles)
                    row["each"]["execution_cycles"] = \
                        list(execution_cycles)
        row["blocked"] = []
        for (kind, handle, way), (times, ns) in sorted(
                task.blocked.items(), key=lambda kv: -kv[1][1]):
            row["blocked"].append({"kind": kind, "times": times, "ns": ns})
            if handle is not None:
                row["blocked"][-1]["on"] = _object_label(instances, handle,
                                                         way)
        if task.current:
            row["open"] = {"release_ns": task.current.release[1],
                           "execution_instructions":
                           task.current.execution[0],
                           "execution_ns": task.current.execution[1]}
        out.append(row)
    return {"tasks": out, "dropped": instances.dropped}


def report(instances, profile, target):
    """The lines printed after the tasks' table."""
    doc = rows(instances, profile, target, each=False)
    table = [r for r in doc["tasks"] if r["instances"]]
    if not table:
        return ""
    w = max(len(r["name"]) for r in table + [{"name": "task"}])
    lines = ["\nTask instances, from made ready to switched out blocked "
             "(virtual time):\n",
             f"  {'task':<{w}} {'instances':>9} "
             f"{'response us min/mean/max':>26} "
             f"{'execution us min/mean/max':>26} {'worst at ms':>11}  "
             f"preempted most by\n"]
    for r in table:
        spans = [f"{x['min'] / 1e3:.1f}/{x['mean'] / 1e3:.1f}/"
                 f"{x['max'] / 1e3:.1f}"
                 for x in (r["response_ns"], r["execution_ns"])]
        most = r["preempted_by"][0] if r["preempted_by"] else None
        by = f"{most['name']} ({most['ns'] / 1e3:.1f} us)" if most else ""
        lines.append(f"  {r['name']:<{w}} {r['instances']:>9} "
                     f"{spans[0]:>26} {spans[1]:>26} "
                     f"{r['worst']['release_ns'] / 1e6:>11.3f}  {by}\n")
    if doc["dropped"]:
        lines.append(f"  (the plugin kept the first "
                     f"{len(profile.stores):,} state changes: "
                     f"{doc['dropped']:,} after them are not in it)\n")
    return "".join(lines)


def _object_label(instances, handle, way):
    """"TmrQ to receive", "Mutex to take", "list at 0x... waiters"."""
    obj = instances.objects.objects.get(handle) if instances.objects \
        else None
    if obj is None:
        return f"list at {handle:#x} {way}"
    if obj.kind != "queue":
        way = SEMAPHORE_WAYS.get(way, way)
    return f"{kernel_objects.label(obj)} {way}"


def trace_events(instances, profile, target, pid):
    """Chrome trace events: a process "task instances", a track per task
    and a slice per completed instance, from its release to its
    completion, with its execution in it (the slices encoded, as JSON
    text: timeline.write)."""
    names = contexts.labels(profile, target)
    events = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
               "args": {"name": "task instances (made ready to blocked)"}}]
    for tid, c in enumerate(contexts.used(profile), 1):
        task = instances.tasks.get(c.id)
        if task is None or not task.done:
            continue
        events += [{"ph": "M", "name": "thread_name", "pid": pid,
                    "tid": tid, "args": {"name": names[c.id]}},
                   {"ph": "M", "name": "thread_sort_index", "pid": pid,
                    "tid": tid, "args": {"sort_index": tid}}]
        head = (f'{{"ph":"X","name":{json.dumps(names[c.id])},'
                f'"cat":"instance","pid":{pid},"tid":{tid},')
        tails = instances.slice_tails.get(c.id, ())
        if len(tails) != len(task.done):
            tails = [slice_tail(inst) for inst in task.done]
        events += [head + tail for tail in tails]
    return events


def slice_tail(inst):
    """The text of a completed instance's slice but its head"""
    return f'{trace_time.span(inst.release[1], inst.end[1])},' \
        f'"args":{{"execution_ns":{inst.execution[1]!r},' \
        f'"execution_instructions":{inst.execution[0]!r},' \
        f'"response_instructions":{inst.response[0]!r}}}}}'
