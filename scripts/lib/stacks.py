# SPDX-License-Identifier: MIT
"""Collapsed call stacks ("main;a;b 1234", one stack per line: the input
of flamegraph.pl and speedscope) from the profiler's call-stack tree.

A stack is named by the function of each call site from the root down,
then the function the counted instructions were in, so a tail call
shows the function that ran, and an interrupt handler shows above the
function it interrupted.
"""


def collapse(profile, image):
    """{"a;b;c": count} of a plugin.Profile, named from image's symbols."""
    names = {}

    def name(addr):
        if addr not in names:
            names[addr] = image.function_name(addr)
        return names[addr]

    paths = {}
    stacks = {}
    for (node, pc), count in profile.stacks.items():
        if node not in paths:
            paths[node] = [name(site) for site in profile.call_sites(node)]
        frames = paths[node] + [name(pc)]
        key = ";".join(frames)
        stacks[key] = stacks.get(key, 0) + count
    return stacks


def lines(stacks):
    """The collapsed lines, sorted."""
    return [f"{key} {stacks[key]}" for key in sorted(stacks)]


def write(path, stacks):
    with open(path, "w") as f:
        f.writelines(line + "\n" for line in lines(stacks))
