# SPDX-License-Identifier: MIT
"""The heap, from the host: every allocation and free through the
RTOS's allocator (FreeRTOS's pvPortMalloc/vPortFree, Zephyr's
k_malloc/k_free) and the C library's (malloc, calloc, realloc, free),
with the task or handler that made it, from the plugin's probes on
those functions (probe.c: their arguments at entry, their result at
return; a free counts at its entry, an allocation at its return).
Bytes in use over time, the peak and when, the largest
request, the requests that failed, and per task what it allocated and
still holds at the end.

Only the outermost allocator call of a context counts: an RTOS
allocator built on malloc (FreeRTOS's heap_3), or a realloc made of a
malloc and a free, is one request. Bytes are the sizes requested, not
what the allocator rounded them to or its headers.
"""

from dataclasses import dataclass, field

from perfcounter.results import contexts, plugin_results

# The allocators' functions, by what each does; the RTOS's first
ROLES = {"pvPortMalloc": "malloc", "vPortFree": "free",
         "k_malloc": "malloc", "k_free": "free",
         "malloc": "malloc", "calloc": "calloc", "realloc": "realloc",
         "free": "free"}


def probed(target):
    """{(start, end): name} of the image's allocator functions."""
    return {(start, end): name for start, end, name in target.function_ranges
            if name in ROLES}


@dataclass
class Heap:
    functions: list                 # the allocators the image has
    in_use: int = 0
    peak: int = 0
    peak_at_ns: int = 0
    largest: int = 0                # the largest request, failed or not
    allocations: int = 0
    frees: int = 0
    failures: int = 0               # requests that returned NULL
    series: list = field(default_factory=list)   # (ns, bytes in use)
    by_context: dict = field(default_factory=dict)  # id: [n, bytes, held]
    live: dict = field(default_factory=dict)     # pointer: (bytes, id)
    dropped: int = 0


@plugin_results.once_per_run
def of(profile, target):
    """The Heap of a run whose plugin probed the allocators; None if it
    did not."""
    if profile is None or not profile.probes:
        return None
    requests = Requests(target)
    if requests.heap is None:
        return None                 # its probes were the kernel objects'
    requests.add(profile.probes)
    return requests.ended(profile)


class Requests:
    """of() made as the probes come (during_run.py)"""

    def __init__(self, target):
        self.names = {start: name
                      for (start, _), name in probed(target).items()}
        self.heap = Heap(sorted(set(self.names.values()))) \
            if self.names else None
        self.pending = {}   # context: [(function, arguments)] of calls made

    def add(self, probes):
        """The plugin's probe records, in order"""
        heap, names, pending = self.heap, self.names, self.pending
        for returned, start, _, ns, cid, value0, value1 in probes:
            name = names.get(start)
            if name is None:
                continue
            values = (value0, value1)
            calls = pending.setdefault(cid, [])
            if not returned:
                if not calls and ROLES[name] == "free":
                    # Counted now: a free that yields (FreeRTOS resuming
                    # its scheduler) returns after others may reuse the
                    # block
                    _account(heap, "free", values, 0, cid, ns)
                    name = None
                calls.append((name, values))
                continue
            if not calls:
                continue    # a return whose call was before the start
            name, args = calls.pop()
            if not calls and name:      # the outermost, not counted yet
                _account(heap, ROLES[name], args, values[0], cid, ns)

    def ended(self, profile):
        """The Heap, once every probe record of profile was added"""
        self.heap.dropped = profile.probes_dropped
        return self.heap


def _account(heap, role, args, result, cid, ns):
    mine = heap.by_context.setdefault(cid, [0, 0, 0])
    if role in ("free", "realloc") and args[0] in heap.live:
        size, owner = heap.live.pop(args[0])
        heap.in_use -= size
        heap.by_context.setdefault(owner, [0, 0, 0])[2] -= size
        heap.frees += role == "free"
    if role == "free":
        heap.series.append((ns, heap.in_use))
        return
    size = args[0] * args[1] if role == "calloc" else \
        args[1] if role == "realloc" else args[0]
    heap.largest = max(heap.largest, size)
    if result:
        heap.live[result] = (size, cid)
        heap.in_use += size
        heap.allocations += 1
        mine[0] += 1
        mine[1] += size
        mine[2] += size
        if heap.in_use > heap.peak:
            heap.peak, heap.peak_at_ns = heap.in_use, ns
    elif size:
        heap.failures += 1
    heap.series.append((ns, heap.in_use))


def document(heap, profile, target, series=True):
    """--json's "heap" (without its series of bytes in use over time
    unless series)."""
    names = contexts.labels(profile, target)
    doc = {
        "functions": heap.functions, "peak_bytes": heap.peak,
        "peak_at_ns": heap.peak_at_ns, "in_use_bytes": heap.in_use,
        "largest_request": heap.largest, "allocations": heap.allocations,
        "frees": heap.frees, "failures": heap.failures,
        "dropped": heap.dropped,
        "by_context": [{"name": names.get(cid, f"context {cid}"),
                        "allocations": n, "bytes": size, "held_bytes": held}
                       for cid, (n, size, held) in
                       sorted(heap.by_context.items(),
                              key=lambda kv: (-kv[1][1], kv[0]))
                       if n or held]}
    if series:
        doc["series"] = [list(point) for point in heap.series]
    return doc


def report(heap, profile, target):
    """The lines printed after the tasks' table."""
    doc = document(heap, profile, target, series=False)
    lines = [f"\nHeap ({', '.join(heap.functions)}): peak "
             f"{heap.peak:,} bytes in use at {heap.peak_at_ns / 1e6:.3f} "
             f"ms, {heap.in_use:,} at the end; {heap.allocations:,} "
             f"allocations, {heap.frees:,} frees, {heap.failures:,} "
             f"failed; largest request {heap.largest:,} bytes\n"]
    for row in doc["by_context"]:
        lines.append(f"  {row['name']}: {row['allocations']:,} "
                     f"allocations, {row['bytes']:,} bytes, "
                     f"{row['held_bytes']:,} still held\n")
    if heap.dropped:
        lines.append(f"  (the plugin kept the first {len(profile.probes):,}"
                     f" calls: {heap.dropped:,} after them are not in "
                     f"it)\n")
    return "".join(lines)


def trace_events(heap, pid):
    """Chrome trace counter events: "heap bytes in use" at each change."""
    return [{"ph": "C", "name": "heap bytes in use", "pid": pid, "tid": 0,
             "ts": ns / 1000.0, "args": {"bytes": size}}
            for ns, size in heap.series if ns >= 0]
