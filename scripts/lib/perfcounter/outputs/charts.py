# SPDX-License-Identifier: MIT
"""Pictures of the sections without a network: a text bar chart for the
terminal (scripts/profile --chart) and an SVG bar chart (--svg FILE).

Bars are proportional to clocks; the longest bar is the core's total
(the global counter), so a bar's length is its share of the measured
time, as the report's % column says.
"""

from perfcounter.outputs.svg import escape

TEXT_WIDTH = 40         # characters of the longest bar


def _label(section):
    return section.name if section.name is not None \
        else f"section {section.number}"


def _rows(core):
    """(label, clocks) of the total and each section that counted."""
    rows = [("(total)", core.clocks)]
    rows += [(_label(s), s.clocks) for s in core.sections
             if s.clocks or s.occurrences or s.name is not None]
    return rows


def text(cores, unicode=True):
    """The text chart of every core that counted anything."""
    full, parts = ("\u2588", " \u258f\u258e\u258d\u258c\u258b\u258a\u2589") \
        if unicode else ("#", "")
    out = []
    for core in cores:
        if not core.used:
            continue
        rows = _rows(core)
        scale = max(c for _, c in rows) or 1
        name_w = max(len(n) for n, _ in rows)
        num_w = max(len(f"{c:,}") for _, c in rows)
        out.append(f"core {core.base:#010x}: clocks "
                   f"(one {full} = {scale / TEXT_WIDTH:,.4g} clocks)")
        for name, clocks in rows:
            # Anything counted shows, if only as a sliver
            eighths = max(round(clocks * TEXT_WIDTH * 8 / scale),
                          1 if clocks else 0)
            bar = full * (eighths // 8)
            if parts and eighths % 8:
                bar += parts[eighths % 8]
            elif not parts and eighths % 8 >= 4:
                bar += full
            pct = clocks * 100.0 / core.clocks if core.clocks else 0.0
            out.append(f"  {name:<{name_w}} {bar:<{TEXT_WIDTH + 1}}"
                       f"{clocks:>{num_w},} {pct:6.2f}%")
    return "\n".join(out) + ("\n" if out else "")


# SVG layout, in px
WIDTH = 800
LABEL_W = 200
VALUE_W = 150
BAR_H = 22
GAP = 6
TITLE_H = 40
CORE_H = 28
BAR_AREA = WIDTH - LABEL_W - VALUE_W - 20


def svg(cores, title):
    """An SVG bar chart of every core that counted anything: one group
    (class "core") per core, one rect (class "bar") per counter, its
    width proportional to the clocks, with data-clocks and a <title>."""
    used = [c for c in cores if c.used]
    body = []
    y = TITLE_H
    for core in used:
        rows = _rows(core)
        scale = max(c for _, c in rows) or 1
        body.append(f'<g class="core" data-base="{core.base:#010x}">')
        body.append(f'<text class="core-title" x="10" y="{y + 18}" '
                    f'font-weight="bold">perf-counter {core.base:#010x} '
                    f'({core.clock_hz:,} Hz)</text>')
        y += CORE_H
        for i, (name, clocks) in enumerate(rows):
            width = clocks * BAR_AREA / scale
            pct = clocks * 100.0 / core.clocks if core.clocks else 0.0
            fill = "#4e79a7" if i == 0 else "#f28e2b"
            tip = escape(f"{name}: {clocks:,} clocks ({pct:.3g}%)")
            body.append(
                f'<text class="label" x="{LABEL_W - 8}" y="{y + 16}" '
                f'text-anchor="end">{escape(name)}</text>')
            body.append(
                f'<rect class="bar" x="{LABEL_W}" y="{y}" '
                f'width="{width:.3f}" height="{BAR_H}" fill="{fill}" '
                f'data-name="{escape(name, attribute=True)}" '
                f'data-clocks="{clocks}"><title>{tip}</title></rect>')
            body.append(
                f'<text class="value" x="{LABEL_W + width + 6:.3f}" '
                f'y="{y + 16}">{clocks:,} ({pct:.3g}%)</text>')
            y += BAR_H + GAP
        body.append("</g>")
        y += GAP
    height = y + 10
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
            f'height="{height}" viewBox="0 0 {WIDTH} {height}" '
            f'font-family="sans-serif" font-size="13">\n'
            f'<rect width="100%" height="100%" fill="white"/>\n'
            f'<text class="title" x="10" y="24" font-size="16" '
            f'font-weight="bold">{escape(title)}</text>\n'
            + "\n".join(body) + "\n</svg>\n")
