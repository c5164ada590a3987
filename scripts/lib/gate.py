# SPDX-License-Identifier: MIT
"""scripts/profile --baseline: compare a run with a stored --json file.

Every counter (each core's global counter, shown as "(total)", and each
section) is compared by clocks. A counter regresses when its clocks
grew by more than its absolute threshold AND by more than its relative
threshold (percent of the baseline's clocks); both default to
DEFAULT_REL % and DEFAULT_ABS clocks, and --threshold SECTION=REL%[,ABS]
sets them per section (by name or number; "*" for every section, and
"total" for the global counter). Counts under -icount are exact, so
any other change is real too: it is shown, but fails nothing. A counter
of the baseline missing from the run is a regression.
"""

import os
import re
from dataclasses import dataclass

from junit import Case

DEFAULT_REL = 1.0       # percent
DEFAULT_ABS = 0         # clocks
REGRESSION_EXIT = 3
TOTAL = "total"


@dataclass
class Threshold:
    rel: float = DEFAULT_REL
    abs: int = DEFAULT_ABS

    def __str__(self):
        return f"{self.rel:g}%, {self.abs}"


def parse_threshold(text):
    """'SECTION=REL%[,ABS]' -> (SECTION, Threshold); ValueError if not."""
    key, sep, value = text.rpartition("=")
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)%\s*(?:,\s*(\d+)\s*)?", value)
    if not sep or not key or not m:
        raise ValueError(f"'{text}' is not SECTION=REL%[,ABS] "
                         f"(say checksum=2%,100 or '*=0%')")
    return key, Threshold(float(m.group(1)), int(m.group(2) or 0))


@dataclass
class Row:
    core: str           # base, hex
    key: str            # section number, or "total"
    name: str           # what a reader calls it
    baseline: int       # clocks; None if new
    current: int        # clocks; None if missing
    threshold: Threshold
    status: str = "same"  # same, better, worse (within threshold),
    #                       regressed, new, missing

    @property
    def delta(self):
        if self.baseline is None or self.current is None:
            return None
        return self.current - self.baseline

    @property
    def percent(self):
        d = self.delta
        if d is None:
            return None
        return d * 100.0 / self.baseline if self.baseline else \
            (0.0 if d == 0 else float("inf"))

    @property
    def failed(self):
        return self.status in ("regressed", "missing")


def _counters(doc):
    """{(core base_hex, key): (name, clocks)} of a --json document."""
    out = {}
    for core in doc.get("cores", []):
        base = core["base_hex"]
        out[(base, TOTAL)] = ("(total)", core["global"]["clocks"])
        for s in core["sections"]:
            out[(base, str(s["section"]))] = (
                s.get("name") or f"section {s['section']}", s["clocks"])
    return out


def _threshold(thresholds, key, name):
    for k in (name, key, "*" if key != TOTAL else TOTAL):
        if k in thresholds:
            return thresholds[k]
    return thresholds.get(TOTAL if key == TOTAL else "*", Threshold())


def compare(current, baseline, thresholds=None):
    """Rows comparing two --json documents, in the baseline's order,
    then counters only the run has."""
    thresholds = thresholds or {}
    now = _counters(current)
    before = _counters(baseline)
    rows = []
    for (core, key), (name, clocks) in before.items():
        got = now.get((core, key))
        row = Row(core, key, got[0] if got else name, clocks,
                  got[1] if got else None,
                  _threshold(thresholds, key, got[0] if got else name))
        if got is None:
            row.status = "missing"
        elif row.delta == 0:
            row.status = "same"
        elif row.delta < 0:
            row.status = "better"
        elif row.delta > row.threshold.abs and \
                row.percent > row.threshold.rel:
            row.status = "regressed"
        else:
            row.status = "worse"
        rows.append(row)
    for (core, key), (name, clocks) in now.items():
        if (core, key) not in before:
            rows.append(Row(core, key, name, None, clocks,
                            _threshold(thresholds, key, name), "new"))
    return rows


def unused_thresholds(rows, thresholds):
    """Threshold keys that name no counter (a typo, most likely)."""
    known = {"*", TOTAL}
    for r in rows:
        known |= {r.name, r.key}
    return [k for k in thresholds if k not in known]


_MARK = {"same": "", "better": "improved", "worse": "worse (within "
         "threshold)", "regressed": "**REGRESSED**", "new": "new",
         "missing": "**MISSING**"}


def _num(v):
    return "" if v is None else f"{v:,}"


def markdown(rows, title="perf-counter: changes against the baseline"):
    """A Markdown table of the counters that changed (all if none did),
    fit for a CI job summary."""
    changed = [r for r in rows if r.status != "same"]
    failed = [r for r in rows if r.failed]
    lines = [f"### {title}", ""]
    if failed:
        lines.append(f"{len(failed)} of {len(rows)} counters regressed.")
    elif changed:
        lines.append(f"No regression; {len(changed)} of {len(rows)} "
                     f"counters changed.")
    else:
        lines.append(f"No change in {len(rows)} counters.")
    lines += ["", "| core | section | baseline (clocks) | run (clocks) | "
              "change | change % | threshold (rel, abs) | status |",
              "| --- | --- | ---: | ---: | ---: | ---: | --- | --- |"]
    # Nothing changed: the counters that counted anything, for the record
    for r in changed or [r for r in rows if r.baseline or r.current]:
        pct = r.percent
        pct = "" if pct is None else ("inf" if pct == float("inf")
                                      else f"{pct:+.2f}%")
        delta = "" if r.delta is None else f"{r.delta:+,}"
        name = r.name.replace("|", "\\|")
        lines.append(f"| {r.core} | {name} | {_num(r.baseline)} | "
                     f"{_num(r.current)} | {delta} | {pct} | "
                     f"{r.threshold} | {_MARK[r.status]} |")
    return "\n".join(lines) + "\n"


def publish_summary(text):
    """Append text to the GitHub Actions job summary, if there is one."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if path:
        with open(path, "a") as f:
            f.write(text + "\n")
    return path


def junit_cases(rows):
    """JUnit test cases, one per counter compared."""
    cases = []
    for r in rows:
        failure = None
        if r.failed:
            failure = (f"{r.name} on the core at {r.core}: "
                       + ("missing from the run" if r.status == "missing"
                          else f"{r.baseline} -> {r.current} clocks "
                          f"({r.delta:+}, {r.percent:+.2f}%), over the "
                          f"threshold {r.threshold}"))
        cases.append(Case(classname=f"perf-counter.{r.core}", name=r.name,
                          failure=failure,
                          output=f"baseline {_num(r.baseline)} clocks, run "
                          f"{_num(r.current)} clocks, status {r.status}"))
    return cases
