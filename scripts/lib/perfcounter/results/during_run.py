# SPDX-License-Identifier: MIT
"""The task analyses made while QEMU runs, on another core: the plugin
streams its records as it makes them (plugin_stream.py), and a thread
of this process reads them, follows the kernel objects' calls
(kernel_objects.Calls) and the allocators' (heap.Requests), walks the
task instances (instances.py), and makes the timeline's context and
instance slices (contexts.slice_tails, instances.slice_tail; for a run
that writes a timeline) and the CPU load in the default windows
(cpu_load.Busy) as they come. Once QEMU has exited, what is left is
the run's end: a long run's results no longer wait for walks of
millions of records made after it.

The analyses are the same functions, given the same records in the
same order, so the results are the same: the walk takes the records
made before each "through" point in the order its batch form sorts
them into. Anything that would make them differ (a record out of
order, a context seen twice, a stream cut short or restarted by
start=, a count unlike the results file's) leaves the analyses to be
made from the results file after the run, as they are without it.
"""

import bisect
import threading
from operator import itemgetter

STREAM = "plugin-stream.bin"
TAGS = ("switch", "probe", "store")

# The last run's, kept until the next one's: freeing the walk's millions
# of objects when run() returned took 0.15 s of a 20 s run's results
# (scripts/profile ends without freeing them)
_kept = None


class DuringRun:
    """The analyses of one run, begun before QEMU starts (start())."""

    def __init__(self, target, workdir, chunk=None, slices=True):
        self.target = target
        self.path = workdir / STREAM
        self.chunk = chunk      # records between two flushes; None: the
        #                         plugin's default
        self.slices = slices    # make the timeline's slices (else made
        #                         after the run if a timeline is written)
        self.exited = threading.Event()     # set once QEMU has exited
        self.records = {tag: [] for tag in TAGS}
        self.failed = None      # why the analyses cannot be used
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="perfcounter analyses")

    def plugin_options(self):
        """The plugin's arguments that stream the records here"""
        return [f"stream={self.path}"] + \
            ([f"stream-chunk={self.chunk}"] if self.chunk else [])

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        # (the cycle collector paused while the thread runs, as
        # plugin_results.read() pauses it: its collections walk every
        # record read so far, 0.35 s of the thread's 2.3 s on 125 M
        # instructions of the full FreeRTOS demo, for a caller that had
        # not paused it as scripts/profile does)
        from perfcounter.results.plugin_results import without_gc
        try:
            with without_gc():
                self._follow()
        except Exception as err:    # (any: the results file has it all)
            self.failed = f"{type(err).__name__}: {err}"

    def _follow(self):
        # (imported here, while QEMU starts: not before it)
        from perfcounter.results import contexts, cpu_load, heap, \
            instances, kernel_objects, plugin_stream
        # (the records kept packed: the analyses made as they come read
        # them once, and a run's outputs few of them again)
        self.records = {tag: plugin_stream.PackedRecords() for tag in TAGS}
        self.stretches = stretches = contexts.Stretches()
        self.tails = tails = []     # contexts.slice_tails()
        self.busy = busy = cpu_load.Busy(cpu_load.DEFAULT_WINDOW_NS)
        self.calls = calls = kernel_objects.Calls(self.target)
        self.requests = requests = heap.Requests(self.target)
        self.walk = walk = instances._Walk(())
        self.instance_tails = {}    # a task's key: instances.slice_tail()
        #                             of each of its completed instances
        self.states = states = getattr(self.target.rtos_layout, "states",
                                       None)
        if states is None:
            self.failed = "the image's RTOS has no state lists"
            return
        keys = set()
        self.contexts = []
        pending = [[], [], []]      # the walk's switches, stores, waits
        self.ended = False
        released = 0                # instructions of the last "through"
        for kind, data in plugin_stream.sections(self.path, self.exited):
            if kind == "context":
                cid, what, key = data
                if what == "task":
                    if key in keys:
                        self.failed = f"two tasks have the key {key:#x}"
                        return
                    keys.add(key)
                self.contexts.append(data)
                walk.add_context(cid, what, key)
            elif kind == "switch":
                self.records[kind].add(data)
                made = list(stretches.add([s[:4] for s in data]
                                          if len(data[0]) > 4 else data))
                if self.slices:
                    tails += [(was, contexts.slice_tail(start, end, insns))
                              for _, was, start, end, insns in made]
                busy.add(made)
                pending[0] += [(s[1], instances.SWITCH, s[0], s[3], None,
                                s[4] if len(s) > 4 else 0) for s in data]
            elif kind == "store":
                self.records[kind].add(data)
                pending[1] += [(r[0], instances.STORE, r[1], r[3], r[4],
                                r[5] if len(r) > 5 else 0) for r in data]
            elif kind == "probe":
                self.records[kind].add(data)
                if requests.heap is not None:
                    requests.add(data)
                was = len(calls.waits)
                calls.add(data)
                # a wait's object is known once every call is: resolved
                # when the walk is done (resolve_waits)
                pending[2] += [(insns, instances.WAIT, ns, cid, (at, None),
                                None) for insns, ns, cid, at in
                               calls.waits[was:]]
            elif kind in ("through", "end"):     # (end: all of them)
                if not all(_in_order(events, released)
                           for events in pending):
                    self.failed = "a record made before an earlier one"
                    return
                released = data or released
                walk.follow(_before(pending, data), states)
                if self.slices:
                    self._instance_tails()
                self.ended = kind == "end"
            else:
                self.failed = "the profile restarted (start=)"
                return

    def records_read(self):
        """Once QEMU has exited: the records of each kind the thread has
        read ({tag: [records]}), all of them unless it failed (waits
        for it to have walked them)."""
        self.exited.set()
        self._thread.join()
        return self.records

    def finish(self, profile):
        """Once QEMU has exited and profile (its PluginResults) is read:
        the analyses of it, the same as instances.of(),
        kernel_objects.of(), heap.of(), contexts.slice_tails() and
        cpu_load.of() would make, given to them for profile; nothing if
        they cannot be (self.failed says why)."""
        from perfcounter.results import contexts, cpu_load, heap, \
            instances, kernel_objects
        global _kept
        _kept = self
        self.records_read()
        if self.failed is None:
            self.failed = self._unlike(profile)
        if self.failed is not None:
            return
        objects = None
        if profile.probes and self.calls.probed:
            objects = self.calls.found()
            objects.dropped = profile.probes_dropped
        last = list(self.stretches.end(profile.end_ns,
                                       profile.end_instructions))
        if self.slices:
            self.tails += [(was, contexts.slice_tail(start, end, insns))
                           for _, was, start, end, insns in last]
            contexts.slice_tails.given(profile, self.target, self.tails)
        if profile.switches and profile.end_ns:
            until = cpu_load.until_ns(profile)
            self.busy.add(last, until)
            cpu_load.given(profile, self.busy.load(until))
        kernel_objects.of.given(profile, self.target, objects)
        heap.of.given(profile, self.target,
                      self.requests.ended(profile)
                      if profile.probes and self.requests.heap is not None
                      else None)
        found = None
        if profile.stores:
            self.walk.resolve_waits(self.calls.resolved)
            found = self.walk.finish(profile, self.states, objects)
            if self.slices:
                self._instance_tails()
                found.slice_tails = {
                    task.cid: self.instance_tails[task.key]
                    for task in found.tasks.values()}
        instances.of.given(profile, self.target, found)

    def _instance_tails(self):
        """The timeline's text of the instances completed since the last
        time (instances.slice_tails)"""
        from perfcounter.results import instances
        for task in self.walk.by_key.values():
            made = self.instance_tails.setdefault(task.key, [])
            if len(made) < len(task.done):
                made += [instances.slice_tail(inst)
                         for inst in task.done[len(made):]]

    def _unlike(self, profile):
        """Why profile's records are not the ones walked, or None"""
        if not self.ended:
            return "the stream has no end"
        for tag, kept in (("switch", profile.switches),
                          ("probe", profile.probes),
                          ("store", profile.stores)):
            if len(kept) != len(self.records[tag]):
                return f"{len(self.records[tag])} {tag} records streamed, " \
                    f"{len(kept)} in the results"
        if self.contexts != [(c.id, c.kind, c.key)
                             for c in profile.contexts.values()]:
            return "the contexts differ from the results'"
        return None


def _in_order(events, since):
    """Whether events (of one kind) were made in order, none before
    since"""
    for event in events:
        if event[0] < since:
            return False
        since = event[0]
    return True


def _before(pending, through):
    """The events of the pending lists made before instruction through
    (all if None), taken off them, in the order instances._events()
    sorts them into (at one instruction, a switch, a store, a wait)"""
    taken = []
    for events in pending:
        cut = len(events) if through is None else \
            bisect.bisect_left(events, through, key=itemgetter(0))
        taken += events[:cut]
        del events[:cut]
    return sorted(taken, key=itemgetter(0))
