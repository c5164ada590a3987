# SPDX-License-Identifier: MIT
"""Collapsed call stacks ("main;a;b 1234", one stack per line: the input
of flamegraph.pl and speedscope) from the profiler's call-stack tree.

A stack is named by its task or interrupt handler ("Rx", "[irq]
SysTick_Handler": contexts.py), then by the function of each call site
from there down, then the function the counted instructions were in, so
a tail call shows the function that ran.
"""

from perfcounter.results import contexts


def collapse(profile, target):
    """{"a;b;c": count} of a PluginResults, named from target's
    symbols; {} if it followed no call stacks (stacks=flat)."""
    if not profile.call_stacks:
        return {}
    image = target.elf
    names = {}
    context_names = contexts.labels(profile, target)

    def name(addr):
        if addr not in names:
            names[addr] = image.function_name(addr)
        return names[addr]

    paths = {}
    keys = {}           # (node, function): its stack's name
    stacks = {}
    for (node, pc), count in profile.stacks.items():
        function = names.get(pc) or name(pc)
        key = keys.get((node, function))
        if key is None:
            if node not in paths:
                sites, context = profile.call_sites(node)
                paths[node] = (context_names.get(context),
                               [name(site) for site in sites])
            label, path = paths[node]
            frames = path + [function]
            if label and frames[0] != label:
                frames.insert(0, label)     # not for a task named by it
            key = keys[node, function] = ";".join(frames)
        stacks[key] = stacks.get(key, 0) + count
    return stacks


def lines(stacks):
    """The collapsed lines, sorted."""
    return [f"{key} {stacks[key]}" for key in sorted(stacks)]


def write(path, stacks):
    with open(path, "w") as f:
        f.writelines(line + "\n" for line in lines(stacks))
