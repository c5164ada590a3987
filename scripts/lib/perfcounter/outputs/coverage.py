# SPDX-License-Identifier: MIT
"""scripts/profile --coverage FILE: line, function and branch coverage
of the run, exact, with nothing added to the firmware: each
instruction's executions (the exact profile) mapped through the image's
DWARF line table (target.lines) to its source lines, and each
conditional branch (target.disassembly) with the times the plugin saw
it go each way, written as an LCOV tracefile (what genhtml, lcov -a
and Codecov read).

Every line that compiled to code is in it, executed or not, of every
source file that is on this machine (the C library's sources, built
elsewhere, are not, and are left out). A line's
count is the most times any of its instructions ran (a for loop's line:
its test's count, one more than its body's). A function's count is the
times its first instruction ran (its calls, tail calls included); it is
recorded at its declaration line, as gcov does. At -O0 the lines match
gcov's for the same source, but for a function's closing brace, which
is a line of its own here (its epilogue) when gcov folds it into the
return; at -O2 they are what the machine code did: lines the optimizer
merged or moved count where their code went.
"""

import bisect
import os

from perfcounter.errors import Failure


def line_counts(result):
    """{file: {line: executions}} of every line with code whose source
    is on this machine (not the C library's, built elsewhere)."""
    profile = result.plugin
    if profile is None or profile.mode != "exact":
        raise Failure("coverage needs the exact profile (--sample=exact)")
    table = result.target.line_table
    here = {f for f in table.files if os.path.isfile(f)}
    pcs = sorted(profile.histogram)
    counts = {}
    for start, end, file, line in table.rows:
        if file not in here:
            continue
        lo = bisect.bisect_left(pcs, start)
        hi = bisect.bisect_left(pcs, end, lo)
        ran = max((profile.histogram[pc] for pc in pcs[lo:hi]), default=0)
        lines = counts.setdefault(file, {})
        lines[line] = max(lines.get(line, 0), ran)
    return counts


def branch_counts(result, files):
    """{file: {line: [(taken, not taken) or None if it never ran]}} of
    every conditional branch of files' lines, in address order."""
    profile, table = result.plugin, result.target.line_table
    starts = [r[0] for r in table.rows]
    out = {}
    for site in result.target.conditional_branches:
        # the row holding it: the last that starts at or before it (a
        # function's entry row is there twice: its own line's is last)
        i = bisect.bisect_right(starts, site) - 1
        if i < 0 or site >= table.rows[i][1]:
            continue
        _, _, file, line = table.rows[i]
        if file not in files:
            continue
        ran = profile.histogram.get(site, 0)
        out.setdefault(file, {}).setdefault(line, []).append(
            (profile.branches.get((site, True), 0),
             profile.branches.get((site, False), 0)) if ran else None)
    return out


def lcov(result, test_name=""):
    """The LCOV tracefile's text."""
    counts = line_counts(result)
    if not counts:
        raise Failure(f"{result.target.path} has no line table (DWARF): "
                      f"build it with -g for --coverage")
    profile, table = result.plugin, result.target.line_table
    branches = branch_counts(result, counts)
    out = []
    for file in sorted(counts):
        out += [f"TN:{test_name}", f"SF:{file}"]
        functions = sorted((line, name, profile.histogram.get(address, 0))
                           for (f, name), (line, address)
                           in table.functions.items() if f == file)
        out += [f"FN:{line},{name}" for line, name, _ in functions]
        out += [f"FNDA:{ran},{name}" for _, name, ran in functions]
        out += [f"FNF:{len(functions)}",
                f"FNH:{sum(1 for f in functions if f[2])}"]
        found = hit = 0
        for line, sites in sorted(branches.get(file, {}).items()):
            for block, outcome in enumerate(sites):
                for branch, times in enumerate(outcome or (None, None)):
                    out.append(f"BRDA:{line},{block},{branch},"
                               f"{'-' if times is None else times}")
                    found += 1
                    hit += bool(times)
        out += [f"BRF:{found}", f"BRH:{hit}"]
        lines = counts[file]
        out += [f"DA:{line},{lines[line]}" for line in sorted(lines)]
        out += [f"LF:{len(lines)}",
                f"LH:{sum(1 for n in lines.values() if n)}",
                "end_of_record"]
    return "\n".join(out) + "\n"


def write(path, result):
    with open(path, "w") as f:
        f.write(lcov(result))


def summary(result):
    """'lines 80.0% (40 of 50), functions 75.0% (3 of 4), branches
    ...'."""
    counts = line_counts(result)
    found = sum(len(lines) for lines in counts.values())
    hit = sum(1 for lines in counts.values() for n in lines.values() if n)
    table, histogram = result.target.line_table, result.plugin.histogram
    entries = [address for (file, _), (_, address)
               in table.functions.items() if file in counts]
    called = sum(1 for address in entries if histogram.get(address))
    ways = [times for lines in branch_counts(result, counts).values()
            for sites in lines.values() for outcome in sites
            for times in (outcome or (0, 0))]
    return (f"lines {_share(hit, found)}, functions "
            f"{_share(called, len(entries))}, branches "
            f"{_share(sum(1 for t in ways if t), len(ways))} of "
            f"{len(counts)} source files")


def _share(part, whole):
    return f"{100 * part / whole:.1f}% ({part} of {whole})" if whole \
        else "none"
