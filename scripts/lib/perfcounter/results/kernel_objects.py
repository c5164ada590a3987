# SPDX-License-Identifier: MIT
"""Kernel objects, from the host: every queue send and receive,
semaphore and mutex give and take through FreeRTOS's queue functions,
with the task or handler that made it and what it returned, from the
plugin's probes on those functions (probe.c). Per object: its kind (as
created: a queue, a semaphore, a mutex), its name, and its operations
counted, failed ones apart (a send to a full queue, a take that timed
out), by context; on the timeline, an instant per operation.

An object is named as the RTOS's own debuggers name it: by its name in
the queue registry (vQueueAddToRegistry), by the global it is when
created static, else by the address of its control block. Only a
context's outermost call counts (a mutex's creation gives it once, in
it). The waits (vTaskPlaceOnEventList: a task blocking on an object's
list of waiters) name the object each blocked task instance waited on
(instances.py).
"""

import json
from dataclasses import dataclass, field

from perfcounter.results import contexts, plugin_results, trace_time

# FreeRTOS's queue functions (queue.c), by what a call of each does
ROLES = {"xQueueGenericSend": "send", "xQueueGenericSendFromISR": "send",
         "xQueueGiveFromISR": "give",
         "xQueueReceive": "receive", "xQueueReceiveFromISR": "receive",
         "xQueuePeek": "peek", "xQueuePeekFromISR": "peek",
         "xQueueSemaphoreTake": "take", "xQueueTakeMutexRecursive": "take",
         "xQueueGiveMutexRecursive": "give",
         "xQueueGenericCreate": "create", "xQueueGenericCreateStatic":
         "create", "xQueueCreateMutex": "create mutex",
         "xQueueCreateMutexStatic": "create mutex",
         "xQueueCreateCountingSemaphore": "create semaphore",
         "xQueueCreateCountingSemaphoreStatic": "create semaphore",
         "vQueueAddToRegistry": "register"}
# ... and tasks.c's, where a task blocks on an object's waiters
WAITS = ("vTaskPlaceOnEventList", "vTaskPlaceOnEventListRestricted")
# Calls that returned 0 failed (pdFAIL, errQUEUE_FULL, errQUEUE_EMPTY)
CAN_FAIL = ("send", "give", "receive", "take", "peek")
# The timeline's instants at most: a long run makes millions
MAX_INSTANTS = 200_000


def probed(target):
    """{(start, end): name} of the image's kernel object functions (with
    FreeRTOS's task waits)."""
    return {(start, end): name for start, end, name in target.function_ranges
            if name in ROLES or name in WAITS}


@dataclass
class KernelObject:
    handle: int
    kind: str = "queue"             # as created: queue, semaphore, mutex
    name: str = None                # its registry name or global
    created_by: int = None          # context id
    operations: dict = field(default_factory=dict)  # op: [calls, failed]
    by_context: dict = field(default_factory=dict)  # id: calls


@dataclass
class KernelObjects:
    objects: dict                   # handle: KernelObject
    events: list                    # (ns, handle, op, context id,
    #                                  failed): the first MAX_INSTANTS
    waits: list                     # (instructions, ns, context id,
    #                                  handle, "to send" or "to receive";
    #                                  or a list of no object known, and
    #                                  "waiters")
    dropped: int = 0


@plugin_results.once_per_run
def of(profile, target):
    """The KernelObjects of a run whose plugin probed the queue functions;
    None if it did not."""
    if profile is None or not profile.probes:
        return None
    calls = Calls(target, profile.probes_dropped)
    if not calls.probed:
        return None
    calls.add(profile.probes)
    return calls.found()


class Calls:
    """The probes' records read in order, as many times as they come
    (while the run goes: during_run.py), into the KernelObjects."""

    def __init__(self, target, dropped=0):
        self.target = target
        self.names = {start: name
                      for (start, _), name in probed(target).items()}
        # whether the image has FreeRTOS's queue functions
        self.probed = any(name in ROLES for name in self.names.values())
        self.waits_at = {start for start, name in self.names.items()
                         if name in WAITS}
        # {offset in an object: the waiters' way} of its waiters' lists
        self.lists = getattr(getattr(target.rtos_layout, "states", None),
                             "queue_waits", None) or {}
        self.objects = KernelObjects({}, [], [], dropped)
        self.pending = {}   # context: [(function, arguments)] of calls
        #                     made
        self.waits = []     # (instructions, ns, context id, the list's
        #                     address) of each task's wait

    def add(self, probes):
        """Follows the probes' records (in the order made) from where the
        last ones left off; the waits among them, as self.waits'."""
        names, waits_at, pending = self.names, self.waits_at, self.pending
        waits = self.waits
        for returned, start, insns, ns, cid, value0, value1 in probes:
            name = names.get(start)
            if name is None:
                continue
            if start in waits_at:
                if not returned:
                    waits.append((insns, ns, cid, value0))
                continue
            calls = pending.get(cid)
            if calls is None:
                calls = pending[cid] = []
            if not returned:
                calls.append((name, (value0, value1)))
                continue
            if not calls:
                continue        # a return whose call was before the start
            name, args = calls.pop()
            if not calls:
                _account(self.objects, self.target, name, args, value0, cid,
                         ns)

    def resolved(self, at):
        """(the object's handle, "to send" or "to receive") whose
        waiters' list is at at, or (at, "waiters") if none is known."""
        for offset, way in self.lists.items():
            if at - offset in self.objects.objects:
                return at - offset, way
        return at, "waiters"

    def found(self):
        """The KernelObjects of the records followed: each wait's list
        is in an object, the one it is a list of waiters of"""
        found = self.objects
        found.waits = [(insns, ns, cid) + self.resolved(at)
                       for insns, ns, cid, at in self.waits]
        return found


def _account(found, target, function, args, result, cid, ns):
    role = ROLES[function]
    if role.startswith("create"):
        if result:
            obj = found.objects[result] = KernelObject(result, created_by=cid)
            if role != "create":
                obj.kind = role.split()[1]
            elif args[1] == 0:          # items of no bytes
                obj.kind = "semaphore"
            static = _global_at(target, result)
            if static:
                obj.name = obj.name or static
        return
    obj = found.objects.get(args[0])
    if obj is None:
        obj = found.objects[args[0]] = KernelObject(args[0])
        obj.name = _global_at(target, args[0])
    if role == "register":
        text = _string(target, args[1])
        if text:
            obj.name = text
        return
    if role == "send" and function == "xQueueGenericSend" and args[1] == 0:
        role = "give"                   # xSemaphoreGive: no item
    failed = result == 0 and role in CAN_FAIL
    got = obj.operations.get(role)
    if got is None:
        got = obj.operations[role] = [0, 0]
    got[0] += 1
    got[1] += failed
    obj.by_context[cid] = obj.by_context.get(cid, 0) + 1
    # (only the first MAX_INSTANTS are drawn: FreeRTOS's full demo made
    # 426,000 in its 20 s run)
    if len(found.events) < MAX_INSTANTS:
        found.events.append((ns, obj.handle, role, cid, failed))


def _global_at(target, addr):
    """The data symbol addr is the start of, or None."""
    for name, (start, size) in target.elf.objects.items():
        if start == addr and size:
            return name
    return None


def _string(target, addr):
    """The C string the image has at addr (a registry name is a literal)."""
    text = target.elf.read(addr, 64) if addr else None
    if not text:
        return None
    text = text.split(b"\0", 1)[0]
    return text.decode("ascii", "replace") if text else None


def label(obj):
    return obj.name or f"{obj.kind} at {obj.handle:#x}"


def document(found, profile, target):
    """--json's "kernel_objects": each object that was used, busiest
    first."""
    names = contexts.labels(profile, target)
    out = []
    for obj in sorted(found.objects.values(),
                      key=lambda o: (-sum(c for c, _ in
                                          o.operations.values()), o.handle)):
        if not obj.operations:
            continue
        out.append({
            "name": label(obj), "kind": obj.kind, "handle": obj.handle,
            "created_by": names.get(obj.created_by),
            "operations": {op: {"calls": n, "failed": bad}
                           for op, (n, bad) in sorted(obj.operations.items())},
            "by_context": [{"name": names.get(cid, f"context {cid}"),
                            "calls": n}
                           for cid, n in sorted(obj.by_context.items(),
                                                key=lambda kv: -kv[1])]})
    return {"objects": out, "dropped": found.dropped}


def report(found, profile, target):
    """The lines printed after the tasks' table."""
    doc = document(found, profile, target)
    if not doc["objects"]:
        return ""
    rows = doc["objects"]
    w = max(len(r["name"]) for r in rows + [{"name": "object"}])
    ops = ("send", "receive", "give", "take", "peek")
    lines = [f"\nKernel objects ({len(rows)} used; calls, failed ones in "
             f"brackets):\n",
             f"  {'object':<{w}} {'kind':<9} " +
             " ".join(f"{op:>14}" for op in ops) + "  used most by\n"]
    for r in rows:
        cells = []
        for op in ops:
            got = r["operations"].get(op)
            cells.append("" if not got else f"{got['calls']:,}" + (
                f" [{got['failed']:,}]" if got["failed"] else ""))
        lines.append(f"  {r['name']:<{w}} {r['kind']:<9} " +
                     " ".join(f"{c:>14}" for c in cells) +
                     f"  {r['by_context'][0]['name']}\n")
    return "".join(lines)


def trace_events(found, profile, target, pid):
    """Chrome trace events: a process "kernel objects", a track per
    object, an instant per operation (its context and whether it
    failed); the first MAX_INSTANTS.  The instants come encoded, as JSON
    text (timeline.write; one json.dumps for them all took 0.3 s of the
    full demo's 4 s)."""
    names = contexts.labels(profile, target)
    tids = {}
    heads = {}      # (handle, op, failed): the text before "ts"'s value
    tails = {}      # context id: the text after it
    us = trace_time.us
    events = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
               "args": {"name": "kernel objects"}}]
    for ns, handle, op, cid, failed in found.events[:MAX_INSTANTS]:
        if ns < 0:
            continue
        head = heads.get((handle, op, failed))
        if head is None:
            tid = tids.get(handle)
            if tid is None:
                tid = tids[handle] = len(tids) + 1
                events.append({"ph": "M", "name": "thread_name", "pid": pid,
                               "tid": tid, "args": {
                                   "name": label(found.objects[handle])}})
            name = json.dumps(op + (" failed" if failed else ""))
            head = heads[handle, op, failed] = (
                f'{{"ph":"i","s":"t","name":{name},"cat":"kernel object",'
                f'"pid":{pid},"tid":{tid},"ts":')
        tail = tails.get(cid)
        if tail is None:
            by = json.dumps(names.get(cid, f"context {cid}"))
            tail = tails[cid] = f',"args":{{"by":{by}}}}}'
        events.append(head + us(ns) + tail)
    return events
