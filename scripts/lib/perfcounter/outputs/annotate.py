# SPDX-License-Identifier: MIT
"""scripts/profile --annotate FUNCTION: a function's source lines and
machine code with what the profile counted at each instruction
(executions in an exact profile, samples in a sampled one) and its
share of the function's, as perf annotate shows them: the instructions
in address order, each run of them from one source line under that
line's text (the image's DWARF line table, target.lines)."""

import bisect

from perfcounter.errors import Failure
from perfcounter.target import disassembly, lines


def report(result, name):
    """The annotated listing of the function name (text)."""
    target, profile = result.target, result.plugin
    if profile is None or not profile.profiled:
        raise Failure("--annotate needs a profile (--sample)")
    start, end = function_range(target, name)
    code = disassembly.instructions(target, start, end)
    counts = [profile.histogram.get(pc, 0) for pc, _ in code]
    total = sum(counts)
    unit = "executions" if profile.mode == "exact" else "samples"
    out = [f"annotate: {name} ({start:#x}-{end:#x}), {total:,} {unit} in "
           f"{len(code)} instructions",
           f"{unit:>12} {'share':>6}  source line / instruction"]
    where = _lines(target)
    shown = None
    for (pc, text), count in zip(code, counts):
        source = where(pc)
        if source and source != shown:
            shown = source
            file, line = source
            out.append(f"{'':>12} {'':>6}  {file.rsplit('/', 1)[-1]}:"
                       f"{line}: {lines.source_line(file, line).strip()}")
        share = f"{100 * count / total:.1f}%" if total and count else ""
        out.append(f"{count if count else '':>12} {share:>6}    "
                   f"{pc:8x}: {text}")
    return "\n".join(out) + "\n"


def function_range(target, name):
    """(start, end) of the function name; Failure if there is none."""
    found = next(((s, e) for s, e, n in target.function_ranges
                  if n == name), None)
    if found is None:
        raise Failure(f"--annotate {name}: no function of that name in "
                      f"{target.path}")
    return found


def _lines(target):
    """pc -> (file, line) of the line table's row holding it, or None
    (a function's entry row: its own line, not the declaration's)."""
    rows = target.line_table.rows
    starts = [r[0] for r in rows]

    def where(pc):
        i = bisect.bisect_right(starts, pc) - 1
        if i < 0 or pc >= rows[i][1]:
            return None
        return rows[i][2], rows[i][3]
    return where
