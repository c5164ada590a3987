# SPDX-License-Identifier: MIT
"""scripts/bench --firmware ELF: a long profiled run of firmware that
never exits (FreeRTOS's full demo for mps2-an385, say), with every
output a user asks of one: what the run itself takes, and what turning
its results into per-task gmon.out files, call stacks, a flame graph,
a speedscope file and a timeline takes, side by side (the first should
cost more than the second)."""

import re
import statistics
import subprocess
import tempfile
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.paths import REPO

GUEST_SECONDS = 20


def rows(bench, image, board):
    """Add the rows of profiled runs of image on board (3 at most: each
    takes minutes)."""
    runs = min(bench.runs, 3)
    ran, results = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        cmd = [str(REPO / "scripts" / "profile"), str(image), "--board",
               board.name, "--stop-after", f"{GUEST_SECONDS}s", "--sample",
               "--per-task", "--gmon", str(out / "gmon.out"),
               "--stacks", str(out / "stacks.txt"),
               "--flamegraph", str(out / "flame.svg"),
               "--speedscope", str(out / "speedscope.json"),
               "--timeline", str(out / "timeline.json"),
               "--console", str(out / "console.txt"), "-v"]
        for _ in range(runs):
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, cwd=tmp)
            m = re.search(r"host time: the run ([\d.]+) s, its results "
                          r"([\d.]+) s", proc.stderr + proc.stdout)
            if proc.returncode != 0 or not m:
                raise Failure(f"{' '.join(cmd)} failed: "
                              f"{proc.stderr[-2000:]}")
            ran.append(float(m[1]))
            results.append(float(m[2]))
    run, post = statistics.median(ran), statistics.median(results)
    bench.row(f"host time, {GUEST_SECONDS} s of guest time of {Path(image).name} "
        f"profiled with call stacks per task (--sample --per-task), its "
        f"results written (gmon.out per task, stacks, flame graph, "
        f"speedscope, timeline)",
        f"{post:.2f} s", f"the run itself: {run:.2f} s; results "
        f"{100 * post / run:.0f}% of it")
