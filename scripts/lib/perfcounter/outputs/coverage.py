# SPDX-License-Identifier: MIT
"""scripts/profile --coverage FILE: line, function and branch coverage
of the run, exact, with nothing added to the firmware: each
instruction's executions (the exact profile) mapped through the image's
DWARF line table (target.lines) to its source lines, and each
conditional branch (target.disassembly) with the times the plugin saw
it go each way, written as an LCOV tracefile (what genhtml, lcov -a
and Codecov read), as Cobertura XML (GitLab, Jenkins) or as gcovr's
JSON (what gcovr --add-tracefile merges and renders).

Every line that compiled to code is in it, executed or not, of every
source file on this machine (not the C library's, built elsewhere)
that the include and omit globs choose. A line's count is the most
times any of its instructions ran (a for loop's line: its test's count,
one more than its body's). A function's count is the
times its first instruction ran (its calls, tail calls included); it is
recorded at its declaration line, as gcov does. At -O0 the lines match
gcov's for the same source, but for a function's closing brace, which
is a line of its own here (its epilogue) when gcov folds it into the
return; at -O2 they are what the machine code did: lines the optimizer
merged or moved count where their code went.
"""

import bisect
import fnmatch
import json
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from perfcounter.errors import Failure


def chosen(path, include=(), omit=()):
    """Whether a source file is covered: on this machine (not the C
    library's, built elsewhere), matching an include glob if there are
    any and no omit glob; a glob matches the absolute path or the path
    from the current directory."""
    if not os.path.isfile(path):
        return False
    names = {path, os.path.relpath(path)}

    def matches(globs):
        return any(fnmatch.fnmatch(n, g) for n in names for g in globs)
    return (not include or matches(include)) and not matches(omit)


def line_counts(result, include=(), omit=()):
    """{file: {line: executions}} of every line with code of the chosen
    source files."""
    profile = result.plugin
    if profile is None or profile.mode != "exact":
        raise Failure("coverage needs the exact profile (--sample=exact)")
    table = result.target.line_table
    here = {f for f in table.files if chosen(f, include, omit)}
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


@dataclass
class FileCoverage:
    """One source file's: {name: (line, calls)}, {line: executions},
    {(line, block, way): times or None if it never ran}."""
    functions: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    branches: dict = field(default_factory=dict)


def of_run(result, include=(), omit=()):
    """{file: FileCoverage} of a Result's exact profile, of the source
    files chosen() with the include and omit globs."""
    if not result.target.line_table.rows:
        raise Failure(f"{result.target.path} has no line table (DWARF): "
                      f"build it with -g for --coverage")
    counts = line_counts(result, include, omit)
    if not counts:
        raise Failure(f"no source file of {result.target.path} is on this "
                      f"machine and chosen by --coverage-include and "
                      f"--coverage-omit")
    profile, table = result.plugin, result.target.line_table
    files = {file: FileCoverage(lines=dict(lines))
             for file, lines in counts.items()}
    for (file, name), (line, address) in table.functions.items():
        if file in files:
            files[file].functions[name] = (
                line, profile.histogram.get(address, 0))
    for file, lines in branch_counts(result, counts).items():
        for line, sites in lines.items():
            for block, outcome in enumerate(sites):
                for way, times in enumerate(outcome or (None, None)):
                    files[file].branches[line, block, way] = times
    return files


def lcov(files, test_name=""):
    """The LCOV tracefile of {file: FileCoverage}."""
    out = []
    for file in sorted(files):
        c = files[file]
        functions = sorted((line, name, calls) for name, (line, calls)
                           in c.functions.items())
        out += [f"TN:{test_name}", f"SF:{file}"]
        out += [f"FN:{line},{name}" for line, name, _ in functions]
        out += [f"FNDA:{calls},{name}" for _, name, calls in functions]
        out += [f"FNF:{len(functions)}",
                f"FNH:{sum(1 for f in functions if f[2])}"]
        out += [f"BRDA:{line},{block},{way},{'-' if t is None else t}"
                for (line, block, way), t in sorted(c.branches.items())]
        out += [f"BRF:{len(c.branches)}",
                f"BRH:{sum(1 for t in c.branches.values() if t)}"]
        out += [f"DA:{line},{c.lines[line]}" for line in sorted(c.lines)]
        out += [f"LF:{len(c.lines)}",
                f"LH:{sum(1 for n in c.lines.values() if n)}",
                "end_of_record"]
    return "\n".join(out) + "\n"


def parse(text, origin="LCOV"):
    """{file: FileCoverage} of an LCOV tracefile (ours, or lcov's)."""
    files = {}
    c = None
    for number, line in enumerate(text.splitlines(), 1):
        tag, _, value = line.partition(":")
        try:
            if tag == "SF":
                c = files.setdefault(value, FileCoverage())
            elif tag == "FN":
                at, name = value.split(",", 1)
                c.functions[name] = (int(at), c.functions.get(
                    name, (0, 0))[1])
            elif tag == "FNDA":
                calls, name = value.split(",", 1)
                at = c.functions.get(name, (0, 0))[0]
                c.functions[name] = (at, int(calls))
            elif tag == "DA":
                at, count = value.split(",")[:2]
                c.lines[int(at)] = int(count)
            elif tag == "BRDA":
                at, block, way, times = value.split(",")
                c.branches[int(at), int(block), int(way)] = \
                    None if times == "-" else int(times)
        except (AttributeError, ValueError):
            raise Failure(f"{origin}:{number}: not an LCOV record: "
                          f"{line}") from None
    return files


def add(into, more):
    """Add {file: FileCoverage} more to into (runs, tests, shards)."""
    for file, c in more.items():
        t = into.setdefault(file, FileCoverage())
        for name, (line, calls) in c.functions.items():
            t.functions[name] = (line, t.functions.get(name, (0, 0))[1] +
                                 calls)
        for line, count in c.lines.items():
            t.lines[line] = t.lines.get(line, 0) + count
        for key, times in c.branches.items():
            before = t.branches.get(key)
            t.branches[key] = times if before is None else \
                before + (times or 0)
    return into


def write(path, files):
    """LCOV; Cobertura XML when path ends in .xml, gcovr's JSON when it
    ends in .json."""
    suffix = os.path.splitext(str(path))[1]
    writer = {".xml": cobertura, ".json": gcovr_json}.get(suffix, lcov)
    with open(path, "w") as f:
        f.write(writer(files))


# The version of gcovr's JSON format (gcovr 5.x's --json, which its
# --add-tracefile reads back)
GCOVR_FORMAT = "0.3"


def gcovr_json(files):
    """gcovr's JSON of {file: FileCoverage}: gcovr --add-tracefile reads
    and merges such files and renders them (--html-details, --txt,
    --cobertura, --sonarqube). A line's branches are its conditional
    branches' ways in order, as in LCOV: taken, then not taken (the
    fall-through)."""
    def branches(c, line):
        return [{"count": times or 0, "fallthrough": way == 1,
                 "throw": False}
                for (at, _, way), times in sorted(c.branches.items())
                if at == line]

    doc = {"gcovr/format_version": GCOVR_FORMAT, "files": []}
    for file in sorted(files):
        c = files[file]
        doc["files"].append({
            "file": file,
            "functions": [{"name": name, "lineno": line,
                           "execution_count": calls}
                          for name, (line, calls) in sorted(
                              c.functions.items())],
            "lines": [{"line_number": line, "count": c.lines[line],
                       "branches": branches(c, line),
                       "gcovr/noncode": False, "gcovr/excluded": False}
                      for line in sorted(c.lines)]})
    return json.dumps(doc, indent=1, sort_keys=True) + "\n"


def summary(files):
    """'lines 80.0% (40 of 50), functions 75.0% (3 of 4), branches
    70.0% (7 of 10) of 5 source files' of {file: FileCoverage}."""
    lines = [n for c in files.values() for n in c.lines.values()]
    calls = [n for c in files.values() for _, n in c.functions.values()]
    ways = [t for c in files.values() for t in c.branches.values()]
    return (f"lines {_share(sum(1 for n in lines if n), len(lines))}, "
            f"functions {_share(sum(1 for n in calls if n), len(calls))}, "
            f"branches {_share(sum(1 for t in ways if t), len(ways))} of "
            f"{len(files)} source file{'' if len(files) == 1 else 's'}")


def _share(part, whole):
    return f"{100 * part / whole:.1f}% ({part} of {whole})" if whole \
        else "none"


def cobertura(files):
    """The Cobertura XML of {file: FileCoverage} (what GitLab, Jenkins
    and Codecov read): a package per directory, a class per file, its
    functions as methods; nothing in it depends on the host or the
    time, so the same run gives the same bytes."""
    def rate(part, whole):
        return f"{part / whole:.4f}" if whole else "1"

    def counts(cs):
        lines = [n for c in cs for n in c.lines.values()]
        ways = [t for c in cs for t in c.branches.values()]
        return (sum(1 for n in lines if n), len(lines),
                sum(1 for t in ways if t), len(ways))

    def rates(element, cs):
        lh, lf, bh, bf = counts(cs)
        element.set("line-rate", rate(lh, lf))
        element.set("branch-rate", rate(bh, bf))
        element.set("complexity", "0")
        return lh, lf, bh, bf

    root = ET.Element("coverage")
    lh, lf, bh, bf = rates(root, files.values())
    for key, value in (("lines-covered", lh), ("lines-valid", lf),
                       ("branches-covered", bh), ("branches-valid", bf),
                       ("version", "perf-counter"), ("timestamp", 0)):
        root.set(key, str(value))
    ET.SubElement(ET.SubElement(root, "sources"), "source").text = "/"
    packages = ET.SubElement(root, "packages")
    by_dir = {}
    for file in sorted(files):
        by_dir.setdefault(os.path.dirname(file), []).append(file)
    for directory, names in sorted(by_dir.items()):
        package = ET.SubElement(packages, "package",
                                name=directory.lstrip("/").replace("/", "."))
        rates(package, [files[f] for f in names])
        classes = ET.SubElement(package, "classes")
        for file in names:
            c = files[file]
            cls = ET.SubElement(classes, "class",
                                name=os.path.basename(file),
                                filename=file.lstrip("/"))
            rates(cls, [c])
            methods = ET.SubElement(cls, "methods")
            for name, (line, calls) in sorted(c.functions.items(),
                                              key=lambda f: f[1]):
                method = ET.SubElement(methods, "method", name=name,
                                       signature="", complexity="0",
                                       **{"line-rate": "1" if calls
                                          else "0", "branch-rate": "1"})
                ET.SubElement(ET.SubElement(method, "lines"), "line",
                              number=str(line), hits=str(calls))
            lines = ET.SubElement(cls, "lines")
            ways = {}
            for (line, _, _), times in c.branches.items():
                ways.setdefault(line, []).append(times)
            for number in sorted(c.lines):
                attrs = {"number": str(number),
                         "hits": str(c.lines[number])}
                if number in ways:
                    hit = sum(1 for t in ways[number] if t)
                    attrs.update(branch="true", **{
                        "condition-coverage":
                            f"{100 * hit // len(ways[number])}% "
                            f"({hit}/{len(ways[number])})"})
                else:
                    attrs["branch"] = "false"
                ET.SubElement(lines, "line", attrs)
    ET.indent(root)
    return ('<?xml version="1.0" ?>\n<!DOCTYPE coverage SYSTEM '
            '"http://cobertura.sourceforge.net/xml/coverage-04.dtd">\n' +
            ET.tostring(root, encoding="unicode") + "\n")
