# SPDX-License-Identifier: MIT
"""scripts/profile --baseline: compare a run with a stored --json file.

Every counter (each core's global counter, shown as "(total)", and each
section) is compared by every number the --json document gives it:
clocks, instructions, occurrences, and whatever numeric member a later
version of the document adds (event counts, say), with no change here;
only "section" (its number) and "seconds" and "percent" (made from the
clocks) are left out. One metric of one counter is a "value".

A value regresses when it grew by more than its absolute threshold AND
by more than its relative threshold (percent of the baseline's value);
both default to DEFAULT_REL % and DEFAULT_ABS. --threshold KEY=REL%[,ABS]
sets them, the most specific KEY winning:

  METRIC:SECTION   one metric of a section (by name or number), or of
                   the global counter with SECTION "total"
  METRIC:*         one metric of every section
  SECTION          every metric of a section ("total": the global one)
  *                every metric of every section

A run that a stop ended (scripts/profile --stop-after, --stop-at) also
compares its instructions to the stop, as the counter "(run to the
stop)", key "run": what firmware that never exits takes to get there.
A run with --cycles compares its estimated cycles, "(estimated cycles)",
key "run" too.

A profile that followed tasks and interrupt handlers (the --json
"contexts") also compares each one's instructions (and cycles), each
handler's worst run ("run_max") and worst latency ("latency_max", in
instructions), each one's busiest window of the
CPU load ("load_peak", in parts per million), each task's worst
response time ("response_max_ns", from its instances), as the counter
"task NAME" or "[irq] FUNCTION", core "tasks", key its name, and the
longest stretch with interrupts masked ("longest", in instructions),
key "(interrupts masked)"; and the heap
("heap"): its peak bytes in use ("peak_bytes") and its failed requests
("failures"), core and key "heap".

A test session's results (perfcounter.testing.results) compare the same
way: each test's run and each of its steps is a counter, core "tests",
key "NODEID::STEP" ("(test)" for the whole run), its instructions,
cycles and virtual ns the metrics, and a step's events (loads, calls,
memory_stalls...).

The functions of a --json document (its flat profile and each
function's cycles) are compared only when a threshold names them: key
"fn:NAME" (say fn:memset=2%, cycles:fn:memset=0%) or "fn:*" for every
function; "*" alone does not (a sampled profile's small functions move
with any change of the code). Core "functions", metrics self, total,
calls, cycles and cycles_instructions; a function the run no longer
ran counts 0.

Counts under -icount are exact, so any other change is real too: it is
shown, but fails nothing. A value of the baseline missing from the run
is a regression; a value only the run has is shown as new.
"""

import os
import re
import time
from dataclasses import dataclass

DEFAULT_REL = 1.0       # percent
DEFAULT_ABS = 0         # clocks
REGRESSION_EXIT = 3
TOTAL = "total"
RUN = "run"
TASKS = "tasks"
HEAP = "heap"
MASKED = "(interrupts masked)"
TESTS = "tests"
WHOLE_TEST = "(test)"
FUNCTIONS = "functions"
FUNCTION = "fn:"                        # a function's key: fn:NAME
EVERY_FUNCTION = FUNCTION + "*"
FUNCTION_METRICS = ("self", "total", "calls", "cycles",
                    "cycles_instructions")


@dataclass
class Threshold:
    """How far a counter may move before the gate fails: percent of
    the baseline, and an absolute slack."""
    rel: float = DEFAULT_REL
    abs: int = DEFAULT_ABS

    def __str__(self):
        return f"{self.rel:g}%, {self.abs}"


# Members of a counter that are not compared: its number, and what is
# made from its clocks
NOT_COMPARED = {"section", "seconds", "percent"}


def parse_threshold(text):
    """'[METRIC:]SECTION=REL%[,ABS]' -> (KEY, Threshold); ValueError if
    not."""
    key, sep, value = text.rpartition("=")
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)%\s*(?:,\s*(\d+)\s*)?", value)
    if not sep or not key or not m:
        raise ValueError(f"'{text}' is not [METRIC:]SECTION=REL%[,ABS] "
                         f"(say checksum=2%,100, instructions:*=0% or "
                         f"'*=0%')")
    return key, Threshold(float(m.group(1)), int(m.group(2) or 0))


@dataclass
class Row:
    """One counter of one core compared with its baseline."""
    core: str           # base, hex
    key: str            # section number, or "total"
    name: str           # what a reader calls it
    metric: str         # "clocks", "instructions", ...
    baseline: int       # the value; None if new
    current: int        # the value; None if missing
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


def _metrics(counter):
    """{metric: value} of a counter's numeric members."""
    return {k: v for k, v in counter.items() if k not in NOT_COMPARED
            and isinstance(v, (int, float)) and not isinstance(v, bool)}


def _functions_named(thresholds):
    """The function keys the thresholds name (EVERY_FUNCTION: all)."""
    named = set()
    for k in thresholds:
        section = k
        for metric in FUNCTION_METRICS:
            if k.startswith(metric + ":"):
                section = k[len(metric) + 1:]
        if section.startswith(FUNCTION):
            named.add(section)
    return named


def _values(doc, functions=()):
    """{(core base_hex, key, metric): (name, value)} of a --json
    document, in its order: each counter's metrics, clocks first; of
    its functions, those whose key is in functions (or all, with
    EVERY_FUNCTION there)."""
    out = {}
    for core in doc.get("cores", []):
        base = core["base_hex"]
        counters = [(TOTAL, "(total)", core["global"])] + [
            (str(s["section"]), s.get("name") or f"section {s['section']}",
             s) for s in core["sections"]]
        for key, name, counter in counters:
            metrics = _metrics(counter)
            for metric in sorted(metrics, key=lambda m: (m != "clocks", m)):
                out[(base, key, metric)] = (name, metrics[metric])
    # (an integer share: the gate compares counts)
    peaks = {c["name"]: round(c["peak"] * 1_000_000)
             for c in (doc.get("load") or {}).get("contexts", [])}
    for c in doc.get("contexts", []):
        name = c["name"] if c["kind"] == "handler" else f"task {c['name']}"
        metrics = {m: c[m] for m in ("instructions", "cycles") if m in c}
        if "run_instructions" in c:
            metrics["run_max"] = c["run_instructions"]["max"]
        if "run_cycles" in c:
            metrics["run_cycles_max"] = c["run_cycles"]["max"]
        if c["name"] in peaks:
            metrics["load_peak"] = peaks[c["name"]]
        if "latency" in c:
            metrics["latency_max"] = c["latency"]["instructions"]["max"]
        for metric, value in metrics.items():
            out[(TASKS, c["name"], metric)] = (name, value)
    if doc.get("masked"):
        out[(TASKS, MASKED, "longest")] = (
            MASKED, doc["masked"]["longest_instructions"])
    for t in (doc.get("instances") or {}).get("tasks", []):
        if t["instances"]:
            out[(TASKS, t["name"], "response_max_ns")] = (
                f"task {t['name']}", t["response_ns"]["max"])
    heap = doc.get("heap")
    if heap:
        for metric in ("peak_bytes", "failures"):
            out[(HEAP, HEAP, metric)] = ("(heap)", heap[metric])
    for nodeid, test in doc.get("tests", {}).items():
        for step, counts in [(WHOLE_TEST, test)] + list(
                test.get("steps", {}).items()):
            # a step's events too (loads, calls...), after the three
            for metric in ("instructions", "cycles", "ns") + tuple(sorted(
                    m for m, v in counts.items() if isinstance(v, int) and
                    m not in ("instructions", "cycles", "ns", "exit_code"))):
                if counts.get(metric) is not None:
                    out[(TESTS, f"{nodeid}::{step}", metric)] = (
                        f"{nodeid} {step}", counts[metric])
    named = {}
    for f in doc.get("functions", []):
        named[f["name"]] = named.get(f["name"], 0) + 1
    for f in doc.get("functions", []):
        key = FUNCTION + f["name"]
        if named[f["name"]] > 1 and f.get("address") is not None:
            key += f"@{f['address']:#x}"       # two static functions
        for metric in FUNCTION_METRICS:
            if f.get(metric) is not None and (
                    key in functions or EVERY_FUNCTION in functions):
                out[(FUNCTIONS, key, metric)] = (key, f[metric])
    run = doc.get("run") or {}
    if run.get("ended") == "stop" and run.get("instructions") is not None:
        out[(RUN, RUN, "instructions")] = ("(run to the stop)",
                                           run["instructions"])
    if doc.get("cycles"):
        out[(RUN, RUN, "cycles")] = ("(estimated cycles)",
                                     doc["cycles"]["cycles"])
    return out


def _every(key):
    """The wildcard section of key: total, fn:* or *."""
    if key == TOTAL:
        return TOTAL
    return EVERY_FUNCTION if key.startswith(FUNCTION) else "*"


def _threshold(thresholds, key, name, metric):
    every = _every(key)
    for k in (f"{metric}:{name}", f"{metric}:{key}", f"{metric}:{every}",
              name, key, every):
        if k in thresholds:
            return thresholds[k]
    return Threshold()


def compare(current, baseline, thresholds=None):
    """Rows comparing two --json documents, a row per value, in the
    baseline's order, then values only the run has."""
    thresholds = thresholds or {}
    named = _functions_named(thresholds)
    now = _values(current, named)
    before = _values(baseline, named)
    rows = []
    for (core, key, metric), (name, value) in before.items():
        got = now.get((core, key, metric))
        if got is None and core == FUNCTIONS and "functions" in current:
            got = (name, 0)                 # it no longer ran
        name = got[0] if got else name
        row = Row(core, key, name, metric, value,
                  got[1] if got else None,
                  _threshold(thresholds, key, name, metric))
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
    for (core, key, metric), (name, value) in now.items():
        if (core, key, metric) not in before:
            rows.append(Row(core, key, name, metric, None, value,
                            _threshold(thresholds, key, name, metric),
                            "new"))
    return rows


def unused_thresholds(rows, thresholds):
    """Threshold keys that name no value (a typo, most likely)."""
    known = {"*", TOTAL, RUN, EVERY_FUNCTION}
    for r in rows:
        every = _every(r.key)
        known |= {r.name, r.key, f"{r.metric}:{every}",
                  f"{r.metric}:{r.name}", f"{r.metric}:{r.key}"}
    return [k for k in thresholds if k not in known]


_MARK = {"same": "", "better": "improved", "worse": "worse (within "
         "threshold)", "regressed": "**REGRESSED**", "new": "new",
         "missing": "**MISSING**"}


def _num(v):
    return "" if v is None else f"{v:,}"


def markdown(rows, title="perf-counter: changes against the baseline"):
    """A Markdown table of the values that changed (all if none did),
    fit for a CI job summary."""
    changed = [r for r in rows if r.status != "same"]
    failed = [r for r in rows if r.failed]
    lines = [f"### {title}", ""]
    if failed:
        lines.append(f"{len(failed)} of {len(rows)} values regressed.")
    elif changed:
        lines.append(f"No regression; {len(changed)} of {len(rows)} "
                     f"values changed.")
    else:
        lines.append(f"No change in {len(rows)} values.")
    lines += ["", "| core | section | metric | baseline | run | "
              "change | change % | threshold (rel, abs) | status |",
              "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |"]
    # Nothing changed: the values that are not 0, for the record
    for r in changed or [r for r in rows if r.baseline or r.current]:
        pct = r.percent
        pct = "" if pct is None else ("inf" if pct == float("inf")
                                      else f"{pct:+.2f}%")
        delta = "" if r.delta is None else f"{r.delta:+,}"
        name = r.name.replace("|", "\\|")
        lines.append(f"| {r.core} | {name} | {r.metric} | "
                     f"{_num(r.baseline)} | "
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


def junit_suite(rows):
    """The rows as a JUnit test suite (junitparser's), one test case
    per value compared."""
    import socket

    import junitparser      # (these two only for --junit: 9 ms)
    suite = junitparser.TestSuite("perf-counter regression gate")
    for r in rows:
        case = junitparser.TestCase(f"{r.name}: {r.metric}",
                                    f"perf-counter.{r.core}", 0.0)
        case.system_out = (f"baseline {_num(r.baseline)} {r.metric}, "
                           f"run {_num(r.current)} {r.metric}, status "
                           f"{r.status}")
        if r.failed:
            failure = junitparser.Failure(
                f"{r.name}'s {r.metric} on the core at {r.core}: "
                + ("missing from the run" if r.status == "missing"
                   else f"{r.baseline} -> {r.current} {r.metric} "
                   f"({r.delta:+}, {r.percent:+.2f}%), over the "
                   f"threshold {r.threshold}"), "failure")
            case.result = [failure]
        suite.add_testcase(case)
    suite.hostname = socket.gethostname() or "localhost"
    suite.timestamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    suite.update_statistics()
    return suite
