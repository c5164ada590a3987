# SPDX-License-Identifier: MIT
"""Per function: the flat profile (self and total counts, calls), the
call graph's edges and the estimated cycles of each function that ran,
from the plugin's results and the image's symbols. gprof prints the
same profile from gmon.out; this is it for programs (--json, the gate).

A count is an instruction in an exact profile and a sample in a sampled
one (PluginResults.mode); "self" counts the function's own code,
"total" also the code it called (once per count however often the
function is on the stack: recursion does not double it), from the call
stacks.
"""

from dataclasses import dataclass


@dataclass
class Function:
    name: str
    address: int = None         # its first instruction; None if no symbol
    self: int = None            # counts in its own code; None if the
    #                             run had no profile
    total: int = None           # with its callees'; None without call
    #                             stacks
    calls: int = None           # calls into it
    cycles: int = None          # its own code's estimated cycles
    cycles_instructions: int = None


# The row of the pcs no function covers (a boot ROM, assembly without
# .type)
OUTSIDE = "(outside every function)"


class _Namer:
    """A pc's function: (address, name) once looked up; (None, OUTSIDE)
    outside every function."""

    def __init__(self, target):
        self.image = target.readable
        self.known = {}

    def __call__(self, pc):
        if pc not in self.known:
            found = self.image.function_containing(pc) if self.image \
                else None
            self.known[pc] = found or (None, OUTSIDE)
        return self.known[pc]


def table(result):
    """[Function] of each function that ran, by address (then OUTSIDE):
    Result's profile and cycles."""
    profile, target = result.plugin, result.target
    if profile is None:
        return []
    namer = _Namer(target)
    rows = {}

    def row(key):
        if key not in rows:
            rows[key] = Function(key[1], key[0])
            if profile.profiled:
                rows[key].self, rows[key].calls = 0, 0
                if profile.stacks and profile.call_stacks:
                    rows[key].total = 0
        return rows[key]

    if profile.cycles_model:
        # a function's window, or its instructions' (--annotate's)
        names = result.config.cycle_windows
        for (start, end), (cycles, instructions) in profile.windows.items():
            if instructions and names.get((start, end)):
                r = row(namer(start))
                r.cycles = (r.cycles or 0) + cycles
                r.cycles_instructions = (r.cycles_instructions or 0) + \
                    instructions
    if profile.profiled:
        for pc, count in profile.histogram.items():
            row(namer(pc)).self += count
        for (_, callee), calls in profile.arcs.items():
            row(namer(callee)).calls += calls
        if profile.call_stacks:
            # (each count to each function on its stack once: those of
            # the call sites a node at a time, its own if not one of them)
            paths = _frames(profile, namer)
            at_node = {}
            for (node, pc), count in profile.stacks.items():
                at_node[node] = at_node.get(node, 0) + count
                key = namer(pc)
                if key not in paths[node]:
                    row(key).total += count
            for node, count in at_node.items():
                for key in paths[node]:
                    row(key).total += count
    return sorted(rows.values(), key=lambda r: (r.address is None,
                                                r.address or 0, r.name))


def _frames(profile, namer):
    """{node: the set of functions of its call sites}"""
    paths = {}
    for node, _ in profile.stacks:
        if node not in paths:
            sites, _ = profile.call_sites(node)
            paths[node] = {namer(site) for site in sites}
    return paths


def call_graph(result):
    """[(caller, callee, calls)] of the profile's arcs, by function
    (names), the most called first."""
    profile = result.plugin
    if profile is None or not profile.profiled:
        return []
    namer = _Namer(result.target)
    edges = {}
    for (site, callee), calls in profile.arcs.items():
        key = (namer(site)[1], namer(callee)[1])
        edges[key] = edges.get(key, 0) + calls
    return sorted(((a, b, n) for (a, b), n in edges.items()),
                  key=lambda e: (-e[2], e[0], e[1]))
