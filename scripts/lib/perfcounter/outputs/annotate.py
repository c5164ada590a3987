# SPDX-License-Identifier: MIT
"""scripts/profile --annotate FUNCTION: a function's source lines and
machine code with what the profile counted at each instruction
(executions in an exact profile, samples in a sampled one) and its
share of the function's, as perf annotate shows them: the instructions
in address order, each run of them from one source line under that
line's text (the image's DWARF line table, target.lines). With
--cycles each instruction has a window of its own (RunConfig.annotated):
its estimated cycles and stalls (its cycles beyond one per execution;
0 where it issued beside another, a dual-issuing core's fewer).
With --hottest the function's source lines come first, the costliest
(cycles, else counts) at the top."""

import bisect

from perfcounter.errors import Failure
from perfcounter.target import disassembly, lines


def report(result, name, hottest=False):
    """The annotated listing of the function name (text)."""
    target, profile = result.target, result.plugin
    if profile is None or not profile.profiled:
        raise Failure("--annotate needs a profile (--sample)")
    start, end = function_range(target, name)
    code = disassembly.instructions(target, start, end)
    counts = [profile.histogram.get(pc, 0) for pc, _ in code]
    total = sum(counts)
    unit = "executions" if profile.mode == "exact" else "samples"
    costs = _costs(result, [pc for pc, _ in code] + [end])
    cycles = f", {sum(c for c, _ in costs):,} estimated cycles" \
        if costs else ""
    out = [f"annotate: {name} ({start:#x}-{end:#x}), {total:,} {unit} in "
           f"{len(code)} instructions{cycles}"]
    where = _lines(target)
    if hottest:
        out += _hottest(code, counts, costs, where, unit, total)
    out.append(f"{unit:>12} {'share':>6}" +
               (f" {'cycles':>10} {'stalls':>8}" if costs else "") +
               "  source line / instruction")
    blank = " " * (20 if costs else 0)
    shown = None
    for i, ((pc, text), count) in enumerate(zip(code, counts)):
        source = where(pc)
        if source and source != shown:
            shown = source
            file, line = source
            out.append(f"{'':>12} {'':>6}{blank}  {file.rsplit('/', 1)[-1]}:"
                       f"{line}: {lines.source_line(file, line).strip()}")
        share = f"{100 * count / total:.1f}%" if total and count else ""
        row = f"{count if count else '':>12} {share:>6}"
        if costs:
            c, n = costs[i]
            row += f" {c if c else '':>10} {max(0, c - n) if c else '':>8}"
        out.append(f"{row}    {pc:8x}: {text}")
    return "\n".join(out) + "\n"


def line_cycles(result):
    """{(file, line): estimated cycles} of the annotated functions'
    source lines (their instructions' windows); {} without them."""
    plugin, config = result.plugin, result.config
    if plugin is None or not plugin.cycles_model or config is None:
        return {}
    where = _lines(result.target)
    out = {}
    for span in config.instruction_windows:
        source = where(span[0])
        cycles = plugin.windows.get(span, (0, 0))[0]
        if source and cycles:
            out[source] = out.get(source, 0) + cycles
    return out


def _costs(result, pcs):
    """[(cycles, instructions)] of each instruction from pcs (and the
    end), its own window's; [] without them (no --cycles)."""
    plugin, config = result.plugin, result.config
    if not plugin.cycles_model or config is None:
        return []
    spans = list(zip(pcs, pcs[1:]))
    if not all(s in config.instruction_windows for s in spans):
        return []
    return [plugin.windows.get(s, (0, 0)) for s in spans]


def _hottest(code, counts, costs, where, unit, total):
    """The function's source lines, the costliest first."""
    by_line = {}
    for i, ((pc, _), count) in enumerate(zip(code, counts)):
        source = where(pc)
        if source is None:
            continue
        c, n = costs[i] if costs else (0, 0)
        was = by_line.get(source, (0, 0, 0))
        by_line[source] = (was[0] + count, was[1] + c,
                           was[2] + max(0, c - n))
    rows = sorted(by_line.items(), key=lambda r: (-r[1][1], -r[1][0], r[0]))
    out = [f"{unit:>12} {'share':>6}" +
           (f" {'cycles':>10} {'stalls':>8}" if costs else "") +
           "  source line, hottest first"]
    for (file, line), (count, c, stalls) in rows:
        if not count:
            continue
        share = f"{100 * count / total:.1f}%" if total else ""
        row = f"{count:>12} {share:>6}"
        if costs:
            row += f" {c:>10} {stalls:>8}"
        out.append(f"{row}  {file.rsplit('/', 1)[-1]}:{line}: "
                   f"{lines.source_line(file, line).strip()}")
    return out + [""]


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
