# SPDX-License-Identifier: MIT
"""Where a run ends when the firmware never exits, exactly and the same
on every run (the plugin's stop= and start=, stop.c): the options'
values, and what ended a run (the guest, a stop, or the host-time
--timeout) in words and in --json."""

import argparse
import re

MULTIPLIERS = {"": 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9}
# --stop-after's units: (the plugin's kind, the unit in its kind)
UNITS = {"": ("instructions", 1), "instructions": ("instructions", 1),
         "cycles": ("cycles", 1), "ns": ("time", 1), "us": ("time", 10**3),
         "ms": ("time", 10**6), "s": ("time", 10**9)}
AFTER_FORMS = ("N[k|M|G] instructions (say 20M), N[k|M|G]cycles with "
               "--cycles (say 5Mcycles), or virtual time (say 250ms, 2s, "
               "100us)")


def after(text):
    """--stop-after's value: (kind, count)."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKMG]?)\s*([a-z]*)", text.strip())
    if not m or m.group(3) not in UNITS:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a stop: give {AFTER_FORMS}")
    kind, unit = UNITS[m.group(3)]
    count = float(m.group(1)) * MULTIPLIERS[m.group(2)] * unit
    if count < 1 or count != int(count):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a whole number of {kind} from 1 up")
    return kind, int(count)


def place(text):
    """--stop-at's value: (SYMBOL or ADDRESS, K)."""
    where, _, nth = text.partition(":")
    if not where or (nth and not (nth.isdigit() and int(nth) > 0)):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not SYMBOL[:K] or ADDRESS[:K] (K from 1: the "
            f"K-th arrival)")
    return where, int(nth or 1)


def ordinal(n):
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def describe(config, stopped_by):
    """stop.c's 'stopped-by' in the user's words."""
    kind, _, rest = stopped_by.partition(" ")
    if kind == "pc":
        pc, nth = (int(v, 0) for v in rest.split())
        name = next((w for w, a, n in config.stop_pcs
                     if a == pc and n == nth), f"{pc:#x}")
        return f"the {ordinal(nth)} arrival at {name}"
    if kind == "time":
        return f"{int(rest.split()[0]) / 1e6:g} ms of virtual time"
    if kind == "input-end":
        return (f"the end of its input and "
                f"{config.stop_at_eof / 1e6:g} ms without output")
    return f"{int(rest):,} {kind}"


def summary(result):
    """One line: what ended the run and what it covers."""
    config, outcome = result.config, result.outcome
    if result.timed_out:
        how = (f"cut short by --timeout after {config.timeout:g} s of host "
               f"time (not repeatable: give a stop)")
    elif result.signal:
        how = (f"cut short by {result.signal} (not repeatable: give a "
               f"stop)")
    elif outcome.stopped_by:
        how = f"stopped after {describe(config, outcome.stopped_by)}"
    elif result.stopped_by_session:
        how = "stopped by its session, where the guest waited for it"
    elif result.exit_code and outcome.instructions == 0:
        how = (f"QEMU ended before the guest ran an instruction (exit "
               f"code {result.exit_code}; its message is above)")
    else:
        how = f"ended by the guest (exit code {result.exit_code})"
    covers = []
    if outcome.instructions is not None:
        covers.append(f"{outcome.instructions:,} instructions")
    if outcome.ns is not None:
        covers.append(f"{outcome.ns / 1e6:,.3f} ms of virtual time")
    text = f"run: {how}" + (f"; {', '.join(covers)}" if covers else "")
    if config.start_at:
        text += (f"; profiled from the first arrival at "
                 f"{config.start_at}" if outcome.start == "reached" else
                 f"; {config.start_at} was never reached, so nothing "
                 f"was profiled")
    return text


def json_run(result):
    """The run member of --json: how it ended and what it covers."""
    outcome = result.outcome
    run = {
        "ended": result.ended,
        "stopped_by": "session" if result.stopped_by_session
        else outcome.stopped_by,
        "instructions": outcome.instructions,
        "virtual_ns": outcome.ns,
    }
    if outcome.stopped_by:
        run["stop"] = stop_doc(result, outcome.stopped_by)
    if result.signal:
        run["signal"] = result.signal
    return run


def stop_doc(result, stopped_by):
    """The run's "stop" member: stop.c's 'stopped-by' with its parts
    named (a pc by its function and arrival)."""
    kind, _, rest = stopped_by.partition(" ")
    doc = {"kind": kind, "text": describe(result.config, stopped_by)}
    if kind == "pc":
        pc, nth = (int(v, 0) for v in rest.split())
        doc.update(address=pc, symbol=result.target.function_at(pc),
                   arrival=nth)
    elif kind == "time":
        doc["ns"] = int(rest.split()[0])
    elif kind in ("instructions", "cycles"):
        doc["count"] = int(rest)
    elif kind == "input-end":
        doc["quiet_ns"] = result.config.stop_at_eof
    return doc
