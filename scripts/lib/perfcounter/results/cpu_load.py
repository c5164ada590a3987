# SPDX-License-Identifier: MIT
"""CPU load over time: per task and interrupt handler, the virtual time
it ran in each window of the run (1 ms by default), from the switches
the plugin recorded (contexts.stretches): what RTOS trace tools draw as
their CPU load graph, here from the host with nothing added to the
firmware. In --json ("load"), on the timeline (a counter track, each
context's percent of each window), and its peaks under the tasks'
table.

A window's load is the time the context ran in it over the window's
length (the last window's: up to the end); a handler's time is its own (the handlers that preempted it
are theirs), so a window's loads add up to 100% per vCPU. When the
plugin dropped switches (a run longer than it keeps), the series stop
at the last one kept: who ran after it is not known.
"""

import json
from dataclasses import dataclass
from itertools import compress

from perfcounter.results import contexts, plugin_results, trace_time

DEFAULT_WINDOW_NS = 1_000_000


@dataclass
class Load:
    window_ns: int
    until_ns: int       # the series cover [0, until_ns)
    busy: dict          # {context id: [ns it ran in each window]}

    @property
    def windows(self):
        return -(-self.until_ns // self.window_ns)

    def length(self, k):
        """Window k's ns: the window's, but the last one's, cut at the
        end."""
        return min(self.window_ns, self.until_ns - k * self.window_ns)

    def peak(self, cid):
        """(context cid's highest share of a window, that window's index:
        the first such), from its ns (no share made per window: a 20 s
        run has 2.2 million)"""
        busy = self.busy[cid]
        most, at = None, None
        if len(busy) > 1:
            most_ns = max(busy[:-1])
            most, at = most_ns / self.window_ns, busy.index(most_ns)
        last = self.last_share(cid)
        if most is None or last > most:
            return last, len(busy) - 1
        return most, at

    def last_share(self, cid):
        """Context cid's share of the last window (cut at the end)"""
        busy = self.busy[cid]
        return busy[-1] / self.length(len(busy) - 1)


# The last Load made: the text, --json and the timeline each ask for it
_last = (None, None, None)


def of(profile, window_ns=None):
    """The Load of a PluginResults that followed tasks, in windows of
    window_ns (None: DEFAULT_WINDOW_NS); None without switches."""
    window_ns = window_ns or DEFAULT_WINDOW_NS
    if profile is None or not profile.switches or not profile.end_ns:
        return None
    with plugin_results.ANALYSING:
        if _last[0] is not profile or _last[1] != window_ns:
            until = until_ns(profile)
            busy = Busy(window_ns)
            busy.add(contexts.stretches(profile), until)
            given(profile, busy.load(until))
        return _last[2]


def until_ns(profile):
    """Where the series end: the run's end, or the last switch kept"""
    return profile.switches[-1][0] if profile.switches_dropped \
        else profile.end_ns


def given(profile, load):
    """load is of(profile, load.window_ns): made another way (as the run
    went: during_run.py)"""
    global _last
    _last = (profile, load.window_ns, load)


class Busy:
    """Each context's ns in each window, from the stretches as they come
    (of(), during_run.py)"""

    def __init__(self, window_ns):
        self.window_ns = window_ns
        self.rows = {}      # {context id: [ns in each window so far]}

    def add(self, stretches, until=None):
        """The stretches contexts.stretches() gives, in order; cut at
        until"""
        rows, window_ns = self.rows, self.window_ns
        for _, cid, start, end, _ in stretches:
            if until is not None and end > until:
                end = until
            row = rows.get(cid)
            if row is None:
                row = rows[cid] = []
            if end <= start:
                # no time: the stretch the last switch kept begins, cut
                # at until when later switches were dropped (on a
                # window's edge it made a window past the series' end)
                continue
            k = start // window_ns
            if end <= (k + 1) * window_ns:     # most: in one window
                if k >= len(row):
                    row += [0] * (k + 1 - len(row))
                row[k] += end - start
                continue
            last = (end - 1) // window_ns
            if last >= len(row):
                row += [0] * (last + 1 - len(row))
            while start < end:
                k = start // window_ns
                edge = min(end, (k + 1) * window_ns)
                row[k] += edge - start
                start = edge

    def load(self, until):
        """The Load of the stretches added, its series ending at until"""
        load = Load(self.window_ns, until, self.rows)
        windows = load.windows
        for row in self.rows.values():
            row += [0] * (windows - len(row))
        return load


def rows(load, profile, target, each=True):
    """--json's "load": the window, and each context's series (unless
    each is false: the text's table) and peak, in the order of the
    tasks' table. A series is sparse: the windows the context ran in,
    and its ns in each (most tasks of an RTOS sleep through most
    windows: 20 s of FreeRTOS's full demo has 184,340 such of
    1,960,098)."""
    names = contexts.labels(profile, target)
    series = []
    for c in contexts.used(profile):
        busy = load.busy.get(c.id)
        if busy is None:
            continue
        most, at = load.peak(c.id)
        row = {"name": names[c.id], "kind": c.kind}
        if each:
            row.update(windows=list(compress(range(len(busy)), busy)),
                       busy_ns=list(filter(None, busy)))
        row.update(mean=sum(busy) / load.until_ns, peak=most,
                   peak_at_ns=at * load.window_ns)
        series.append(row)
    return {"window_ns": load.window_ns, "until_ns": load.until_ns,
            "windows": load.windows, "contexts": series}


def dense(series, windows):
    """A --json series' ns in every one of the windows (0 where the
    context did not run)."""
    out = [0] * windows
    for k, ns in zip(series["windows"], series["busy_ns"]):
        out[k] = ns
    return out


def report(load, profile, target):
    """The lines under the tasks' table: each context's mean and peak."""
    table = rows(load, profile, target, each=False)
    if len(table["contexts"]) < 2:
        return ""
    w = max(len(r["name"]) for r in table["contexts"])
    lines = [f"\nCPU load in windows of {_time(load.window_ns)} "
             f"({table['windows']:,} windows, up to "
             f"{_time(load.until_ns)}):\n",
             f"  {'context':<{w}} {'mean':>7} {'peak':>7}  peak window at\n"]
    for r in table["contexts"]:
        lines.append(f"  {r['name']:<{w}} {100 * r['mean']:6.2f}% "
                     f"{100 * r['peak']:6.2f}%  {_time(r['peak_at_ns'])}\n")
    return "".join(lines)


def trace_events(load, profile, target, pid):
    """Chrome trace counter events: a "CPU load" track of each context's
    percent of each window (Perfetto stacks them).  A context's 0 is left
    out of a window after one where it was 0 too: Perfetto holds a
    counter's last value and chrome://tracing reads one left out as 0,
    so both read 0 there; the first window has every context's.  They
    come encoded, as JSON text (timeline.write: a 20 s run has 20,000
    windows of 109 contexts, 2.2 M values of which 0.38 M are kept)."""
    names = contexts.labels(profile, target)
    order = [c.id for c in contexts.used(profile) if c.id in load.busy]
    percents = _Percents(load.window_ns)
    values = [[] for _ in range(load.windows)]     # each window's
    for cid in order:
        _add_values(values, json.dumps(names[cid]) + ":", load, cid,
                    percents)
    head = f'{{"ph":"C","name":"CPU load %","pid":{pid},"tid":0,"ts":'
    return [f'{head}{trace_time.us(k * load.window_ns)},"args":{{' +
            ",".join(texts) + "}}"
            for k, texts in enumerate(values)]


def _add_values(values, key, load, cid, percents):
    """key + context cid's percent, as JSON, added to values[k] for each
    window k it is kept in (see trace_events); percents: the percents'
    texts by ns, shared by the contexts (the 20 s run's 109 contexts
    have 10,114 values in all)"""
    busy = load.busy[cid]
    if not busy:
        return
    texts = _Texts(key, percents)
    zero = texts[0]
    last = len(busy) - 1
    if not busy[0]:
        values[0].append(zero)
    # (a Python step per window the context ran in, and the 0 after:
    # most windows are a sleeping task's 0 after another)
    for k in compress(range(last), busy):
        values[k].append(texts[busy[k]])
        if not busy[k + 1]:
            values[k + 1].append(zero)
    if busy[last]:      # (the last window is cut at the end)
        values[last].append(key + _percent(load.last_share(cid)))


class _Percents(dict):
    """A window's percent as JSON, by its ns, each made as it is first
    asked for"""

    def __init__(self, window_ns):
        self.window_ns = window_ns

    def __missing__(self, ns):
        text = self[ns] = _percent(ns / self.window_ns)
        return text


class _Texts(dict):
    """key + a window's percent (of percents: _Percents), by its ns, each
    made as it is first asked for"""

    def __init__(self, key, percents):
        self.key = key
        self.percents = percents

    def __missing__(self, ns):
        text = self[ns] = self.key + self.percents[ns]
        return text


def _percent(share):
    return repr(round(100 * share, 3))


def _time(ns):
    if ns % 1_000_000 == 0:
        return f"{ns // 1_000_000} ms"
    if ns >= 1_000_000:
        return f"{ns / 1e6:.3f} ms"
    if ns % 1000 == 0:
        return f"{ns // 1000} us"
    if ns >= 1000:
        return f"{ns / 1e3:.3f} us"
    return f"{ns} ns"
