# SPDX-License-Identifier: MIT
"""Where a run ends when the firmware never exits, exactly and the same
on every run (the plugin's stop= and start=, stop.c), and what ended
it: the guest, a stop, or the host-time --timeout."""

import argparse
import re
from dataclasses import dataclass

from common import Failure

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


def address(image, where):
    """The pc of a symbol (a function: its first instruction) or of an
    address, as the plugin sees pcs (no Thumb bit)."""
    if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", where):
        return int(where, 0) & ~1
    if image is None:
        raise Failure(f"'{where}': symbols need an ELF image that can be "
                      f"read (not --no-image-check)")
    if where not in image.symbols:
        near = sorted(n for n in image.symbols if where.lower() in n.lower())
        hint = f"; did you mean {', '.join(near[:5])}?" if near else ""
        raise Failure(f"'{where}' is not a symbol of the image{hint}")
    return image.symbols[where] & ~1


def ordinal(n):
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


@dataclass
class Outcome:
    """What the plugin says of the run (stop.c's stop_write)."""
    instructions: int = None    # retired, when -icount knew them
    ns: int = None              # virtual time
    stopped_by: str = None      # "instructions N", "pc 0xA K"...
    start: str = None           # "reached" or "not-reached"


def read(path):
    """The Outcome in the plugin's results file (none if it wrote none)."""
    outcome = Outcome()
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return outcome
    for line in lines:
        tag, _, value = line.partition(" ")
        if tag == "run-instructions":
            outcome.instructions = int(value)
        elif tag == "run-ns":
            outcome.ns = int(value)
        elif tag == "stopped-by":
            outcome.stopped_by = value
        elif tag == "start":
            outcome.start = value.split()[-1]
    return outcome


class Stops:
    """The stops and start of one run: the plugin's options, and the
    words that say how the run ended."""

    def __init__(self, after_list, at_list, start, image):
        self.after = list(after_list)
        self.at = [(where, address(image, where), nth)
                   for where, nth in at_list]
        self.start = (start, address(image, start)) if start else None

    def __bool__(self):
        return bool(self.after or self.at)

    def plugin_options(self):
        return [f"stop={kind}:{count}" for kind, count in self.after] + \
            [f"stop=pc:{pc:#x}:{nth}" for _, pc, nth in self.at] + \
            ([f"start={self.start[1]:#x}"] if self.start else [])

    def describe(self, stopped_by):
        """stop.c's 'stopped-by' in the user's words."""
        kind, _, rest = stopped_by.partition(" ")
        if kind == "pc":
            pc, nth = (int(v, 0) for v in rest.split())
            name = next((w for w, a, n in self.at if a == pc and n == nth),
                        f"{pc:#x}")
            return f"the {ordinal(nth)} arrival at {name}"
        if kind == "time":
            return f"{int(rest.split()[0]) / 1e6:g} ms of virtual time"
        return f"{int(rest):,} {kind}"

    def summary(self, outcome, result, timeout):
        """One line: what ended the run and what it covers."""
        if result.timed_out:
            how = (f"cut short by --timeout after {timeout:g} s of host "
                   f"time (not repeatable: give a stop)")
        elif outcome.stopped_by:
            how = f"stopped after {self.describe(outcome.stopped_by)}"
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
        if self.start:
            text += (f"; profiled from the first arrival at "
                     f"{self.start[0]}" if outcome.start == "reached" else
                     f"; {self.start[0]} was never reached, so nothing "
                     f"was profiled")
        return text


def json_run(outcome, result):
    """The run member of --json: how it ended and what it covers."""
    return {
        "ended": "timeout" if result.timed_out else
                 "stop" if outcome.stopped_by else "exit",
        "stopped_by": outcome.stopped_by,
        "instructions": outcome.instructions,
        "virtual_ns": outcome.ns,
    }
