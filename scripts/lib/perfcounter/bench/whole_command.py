# SPDX-License-Identifier: MIT
"""scripts/bench --rtos ELF: what a user waits for, on real firmware
(and always on a large single-threaded program of ours).
Each mode of scripts/profile, timed as the whole command (the way a
user or CI runs it: reading the image, QEMU, writing the outputs)
against the plain command (no profile) and against raw QEMU (the plain
command's QEMU command line, the plugin loaded only to end the run at
the same instruction), run alternately, medians and spreads; and the
plain command's time outside QEMU's process (from the command's start
to QEMU's, and from QEMU's end to the command's: -v states QEMU's span
on the host's monotonic clock). As a user's shell runs it: with
Python's bytecode cached (without PYTHONDONTWRITEBYTECODE, which would
compile the package's modules on every command: 30 ms)."""

import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from perfcounter.build import firmware
from perfcounter.errors import Failure
from perfcounter.paths import REPO

STOP = "125M"       # instructions: a few seconds of a small RTOS demo
PROGRAM = REPO / "tests" / "programs" / "many_functions.c"
MODES = [
    ("--sample", ["--sample"]),
    ("--sample --stacks F", ["--sample", "--stacks", "stacks.txt"]),
    ("--sample=exact --stacks F", ["--sample=exact", "--stacks",
                                   "stacks.txt"]),
    ("--cycles", ["--cycles"]),
    ("everything (--sample=exact --stacks --cycles --json --timeline "
     "--flamegraph)", ["--sample=exact", "--stacks", "stacks.txt",
                       "--cycles", "--json", "run.json", "--timeline",
                       "timeline.json", "--flamegraph", "flame.svg"]),
]


def _env():
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _raw(plain, workdir):
    """The QEMU command the plain command runs, its plugin only ending
    the run (events off), its files in workdir."""
    proc = subprocess.run(plain + ["-v"], capture_output=True, text=True,
                          cwd=workdir, stdin=subprocess.DEVNULL, env=_env())
    found = re.search(r"running: (.*)", proc.stderr + proc.stdout)
    if proc.returncode or not found:
        raise Failure(f"{' '.join(plain)} failed: {proc.stderr[-2000:]}")
    cmd = []
    for arg in found[1].split():
        if "libperfctr.so" in arg:
            parts = arg.split(",")
            arg = ",".join([parts[0], "events=off"] +
                           [p for p in parts if p.startswith("stop=")])
        cmd.append(re.sub(r"(report-file=)[^,]*/", rf"\g<1>{workdir}/",
                          arg))
    return cmd


def _outside(output, began, ended):
    """(before, after): the plain command's host seconds before QEMU's
    process started and after it ended, from the QEMU process's span
    that -v states on the host's monotonic clock (began and ended: the
    command's, on that clock)."""
    m = re.search(r"QEMU's process from ([\d.]+) to ([\d.]+) s", output)
    if not m:
        raise Failure(f"scripts/profile -v did not state QEMU's span: "
                      f"{output[-2000:]}")
    return float(m[1]) - began, ended - float(m[2])


def program_rows(bench, board):
    """Add the rows of many_functions.c, built for board."""
    with tempfile.TemporaryDirectory() as tmp:
        image = firmware.build_app(board, [PROGRAM], firmware.AppOptions(),
                                   Path(tmp))
        rows(bench, image, board, f"{PROGRAM.name} (1,344 functions)")


def rows(bench, image, board, name=None):
    """Add the rows of image (an RTOS demo's ELF) on board, named name
    (by default, by its path)."""
    runs = min(bench.runs, 5)
    # (FreeRTOS's demos all build output/RTOSDemo.out: named by their
    # folder, build/gcc/output's grandparent)
    path = Path(image)
    if name is None:
        name = f"{path.parents[3].name}/{path.name}" \
            if path.name == "RTOSDemo.out" and len(path.parents) > 3 \
            else path.name
    with tempfile.TemporaryDirectory() as tmp:
        profile = [str(REPO / "scripts" / "profile"), str(image),
                   "--board", board.name, "--stop-after", STOP]
        commands = {"raw QEMU": _raw(profile, tmp), "plain": profile}
        commands.update((mode, profile + args) for mode, args in MODES)
        times = {what: [] for what in commands}
        outside = []
        for _ in range(runs):
            for what, cmd in commands.items():
                if what == "plain":
                    cmd = cmd + ["-v"]
                start = time.monotonic()
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      cwd=tmp, stdin=subprocess.DEVNULL,
                                      env=_env())
                end = time.monotonic()
                times[what].append(end - start)
                if proc.returncode:
                    raise Failure(f"{' '.join(cmd)} failed: "
                                  f"{proc.stderr[-2000:]}")
                if what == "plain":
                    outside.append(_outside(proc.stderr + proc.stdout,
                                            start, end))
    median = {what: statistics.median(t) for what, t in times.items()}

    def spread(what):
        return f"{min(times[what]):.3f} to {max(times[what]):.3f} s"

    raw, plain = median["raw QEMU"], median["plain"]
    bench.row(f"{name}, {STOP} instructions: raw QEMU (the plugin only "
              f"ending the run)", f"{raw:.3f} s", spread("raw QEMU"))
    before = [b for b, _ in outside]
    after = [a for _, a in outside]

    def ms(values):
        return (f"{1000 * statistics.median(values):.0f} ms "
                f"({1000 * min(values):.0f} to {1000 * max(values):.0f})")

    bench.row(f"{name}: the plain command (no profile)",
              f"{plain / raw:.2f}x raw QEMU ({plain:.3f} s)",
              f"{spread('plain')}; outside QEMU's process {ms(before)} "
              f"before it starts and {ms(after)} after it ends")
    for what, _ in MODES:
        bench.row(f"{name}: {what}",
                  f"{median[what] / plain:.2f}x plain "
                  f"({median[what]:.3f} s)",
                  f"{median[what] / raw:.2f}x raw QEMU; {spread(what)}")
