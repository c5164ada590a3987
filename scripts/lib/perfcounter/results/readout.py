# SPDX-License-Identifier: MIT
"""The host's readout of every counter core.

The device writes its counters (and its timeline, if it keeps one) as
JSON to the file named by its "report-file" property when QEMU exits
(the RunConfig names them); the same document is its "report" QOM
property while QEMU runs (see docs/register-map.md).  This module reads
them back, finds which of the guest's own printed reports belongs to
which core, and prints a core's report in the HAL's table format,
exactly as the firmware's perf_print_formatted_report() would.
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfcounter.errors import Failure


@dataclass
class Section:
    number: int
    clocks: int
    occurrences: int
    instructions: int = None
    name: str = None        # from the guest's printed report, if any


@dataclass
class Core:
    base: int
    sections_count: int
    clock_hz: int
    icount: bool
    virtual_ns: int
    clocks: int             # the global counter
    occurrences: int        # global STARTs
    instructions: int = None
    sections: list = field(default_factory=list)
    timeline: dict = None   # {"capacity", "dropped", "events"} if kept
    reported: bool = False  # the guest printed a report that matches
    clock: str = "time"     # a clock: virtual time, or estimated "cycles"

    @property
    def used(self):
        return bool(self.occurrences or self.clocks or any(
            s.clocks or s.occurrences for s in self.sections))


def load(paths):
    """The cores whose readout files are at paths, in order; a core whose
    file is missing or empty (QEMU was killed) is left out."""
    cores = []
    for path in paths:
        try:
            text = Path(path).read_text()
        except FileNotFoundError:
            continue
        if text.strip():
            cores.append(parse(text, path))
    return cores


def parse(text, origin="readout"):
    """A Core from the device's JSON document."""
    try:
        doc = json.loads(text)
        g = doc["global"]
        core = Core(base=doc.get("base", 0),
                    sections_count=doc["num-sections"],
                    clock_hz=doc["clock-frequency"], icount=doc["icount"],
                    virtual_ns=doc["virtual-ns"], clocks=g["clocks"],
                    occurrences=g["occurrences"],
                    instructions=g.get("instructions"),
                    timeline=doc.get("timeline"),
                    clock=doc.get("clock", "time"))
        core.sections = [Section(s["section"], s["clocks"], s["occurrences"],
                                 s.get("instructions"))
                         for s in doc["sections"]]
    except (ValueError, KeyError, TypeError) as err:
        raise Failure(f"{origin}: not a perf-counter readout ({err})") \
            from None
    return core


# The firmware's table: "Total Time: ... (N clock-cycles)", then rows
_TOTAL = re.compile(r"^Total Time: .*\((\d+) clock-cycles\)$")
_ROW = re.compile(r"^\|(.*)\|\s*[^|]*\|\s*[^|]*\|\s*(\d+)\|\s*(\d+)\|$")


def guest_reports(text):
    """The reports the guest printed: [(total clocks, [(name, clocks,
    occurrences)])], in the order printed."""
    reports = []
    rows = None
    for line in text.splitlines():
        if line == "--Performance Counter Report--":
            rows = None
            continue
        m = _TOTAL.match(line)
        if m:
            rows = []
            reports.append((int(m.group(1)), rows))
            continue
        m = _ROW.match(line)
        if m and rows is not None and not line.startswith("| Section"):
            rows.append((m.group(1).rstrip(), int(m.group(2)),
                         int(m.group(3))))
    return reports


def match_guest_reports(cores, text):
    """Name the sections of every core whose numbers a report the guest
    printed shows (same total, same rows in order), and mark it
    reported. Returns the reports that match no core."""
    unmatched = []
    for total, rows in guest_reports(text):
        for core in cores:
            if core.reported or core.clocks != total or \
                    len(rows) > len(core.sections):
                continue
            if all((s.clocks, s.occurrences) == (c, o) for s, (_, c, o)
                   in zip(core.sections, rows)):
                for s, (name, _, _) in zip(core.sections, rows):
                    s.name = name
                core.reported = True
                break
        else:
            unmatched.append((total, rows))
    return unmatched


# The HAL's column widths: "%-15s|%5.3g|%11.5f|%15lld|%11u"
_WIDTHS = [15, 5, 11, 15, 11]


def format_report(core, sections=None):
    """The table perf_print_formatted_report() prints for core's first
    `sections` sections (all by default), with the names it printed, or
    'section N'; the same text (firmware/src/perfctr_report.c)."""
    rows = core.sections[:sections] if sections else core.sections
    cells = []
    for s in rows:
        percent = s.clocks * 100.0 / core.clocks if core.clocks else 0.0
        cells.append([s.name if s.name is not None else f"section {s.number}",
                      "%.3g" % percent, "%.5f" % (s.clocks / core.clock_hz),
                      str(s.clocks), str(s.occurrences)])
    width = list(_WIDTHS)
    for row in cells:
        width = [max(w, len(c)) for w, c in zip(width, row)]
    separator = "".join("+" + "-" * w for w in width) + "+"
    left = (width[1] - 1) // 2
    header = (f"|{' Section':<{width[0]}}|{'':>{left}}%"
              f"{'':>{width[1] - 1 - left}}|{'Time (sec)':>{width[2]}}|"
              f"{'Time (clocks)':>{width[3]}}|{'Occurrences':>{width[4]}}|")
    lines = ["--Performance Counter Report--",
             "Total Time: %3G seconds  (%d clock-cycles)"
             % (core.clocks / core.clock_hz, core.clocks),
             separator, header, separator]
    for row in cells:
        lines.append(f"|{row[0]:<{width[0]}}|" + "|".join(
            f"{c:>{w}}" for c, w in zip(row[1:], width[1:])) + "|")
        lines.append(separator)
    return "\n".join(lines) + "\n"
