# SPDX-License-Identifier: MIT
"""What every measurement of scripts/bench shares: the built QEMU, how
many runs a wall-clock figure takes, the QEMU command of a run (from a
RunConfig), timing one command or two side by side, and the table's
rows."""

import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from perfcounter.boot import run
from perfcounter.boot.config import RunConfig
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.target import Target


class Harness:
    """One bench run: rows added in order, printed as a Markdown table.

        with Harness(qemu, runs=11) as bench:
            plain = bench.command(board, image, plugin=False)
            t, out = bench.timed(plain)
            bench.row("what", f"{t:.3f} s", "compared with")
    """

    def __init__(self, qemu, runs):
        self.qemu = qemu
        self.runs = runs
        self.rows = []
        self._tmp = tempfile.TemporaryDirectory()
        self.workdir = Path(self._tmp.name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._tmp.cleanup()

    def row(self, what, value, note=""):
        self.rows.append((what, value, note))
        say(f"{what}: {value}")

    def table(self):
        return "\n".join(["| what | measured | compared with |",
                          "| --- | --- | --- |"] +
                         [f"| {w} | {v} | {n} |" for w, v, n in self.rows])

    def command(self, board, image, **options):
        """The QEMU command of a run of image on board (RunConfig's
        options), writing its files in the harness's work directory."""
        config = RunConfig(Target(image, board), **options)
        config.write_files(self.workdir)
        return config.command(self.qemu, self.workdir)

    def run(self, board, image, **options):
        """Boot image on board once; the Result (output captured)."""
        return run(RunConfig(Target(image, board), **options), self.qemu)

    def timed(self, cmd, runs=None, cwd=None):
        """Median wall time of running the QEMU command cmd (runs times,
        the harness's number by default); its last output."""
        times = []
        for _ in range(runs or self.runs):
            start = time.perf_counter()
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, cwd=cwd)
            times.append(time.perf_counter() - start)
            if proc.returncode != 0:
                raise Failure(f"{' '.join(cmd)} failed: {proc.stderr}")
        return statistics.median(times), proc.stdout

    def side_by_side(self, cmd_a, cmd_b, runs=None):
        """Median wall times of two commands, run alternately (so that
        load from elsewhere falls on both alike)."""
        a, b = [], []
        for _ in range(runs or self.runs):
            a.append(self.timed(cmd_a, 1)[0])
            b.append(self.timed(cmd_b, 1)[0])
        return statistics.median(a), statistics.median(b)
