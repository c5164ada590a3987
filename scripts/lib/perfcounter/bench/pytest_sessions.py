# SPDX-License-Identifier: MIT
"""What a CI job's pytest session waits for: tests that drive firmware
through the pytest plugin's dut fixture (the shell of
tests/firmware/shell.elf: its prompt, a command, its answer), each test
booting its own QEMU. Timed as the whole session, a test's share is
the session's time less that of the same session with every test
deselected (pytest's own start and the plugin's), over TESTS tests:
plain, with --sample and with --firmware-coverage, the sessions run
alternately, medians and spreads."""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perfcounter.build import firmware
from perfcounter.errors import Failure
from perfcounter.paths import REPO

TESTS = 20
TEST_FILE = f'''
import pytest


@pytest.mark.parametrize("n", range({TESTS}))
def test_fib(dut, n):
    dut.expect("> ")
    dut.send_line("fib 10")
    dut.expect(r"55\\r\\n")
'''
MODES = [("plain", []), ("--sample", ["--sample"]),
         ("--firmware-coverage", ["--firmware-coverage"])]


def rows(bench, board):
    """Add the rows of pytest sessions on board (5 runs at most)."""
    image = firmware.image(firmware.build(board), "tests/firmware/shell.elf")
    runs = min(bench.runs, 5)
    env = dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "test_shell.py").write_text(TEST_FILE)
        session = [sys.executable, "-m", "pytest", "-p",
                   "perfcounter.testing.plugin", "-p", "no:cacheprovider",
                   "-q", f"--firmware={image}", "--board", board.name,
                   "test_shell.py"]
        commands = [("no test", session + ["-k", "no_such_test"])] + \
            [(name, session + options) for name, options in MODES]
        # (once each first: the image's lines and branches read into
        # the cache, as any session but a CI machine's first finds them)
        times = {name: [] for name, _ in commands}
        for k in range(runs + 1):
            for name, cmd in commands:
                start = time.perf_counter()
                proc = subprocess.run(cmd, cwd=tmp, env=env,
                                      stdin=subprocess.DEVNULL,
                                      capture_output=True, text=True)
                took = time.perf_counter() - start
                if proc.returncode not in (0, 5):   # (5: none selected)
                    raise Failure(f"{' '.join(cmd)} failed: "
                                  f"{proc.stdout[-2000:]}")
                if k:
                    times[name].append(took)
    empty = statistics.median(times["no test"])
    plain = None
    for name, _ in MODES:
        per_test = [(t - empty) / TESTS for t in times[name]]
        median = statistics.median(per_test)
        plain = plain or median
        ratio = "" if name == "plain" else f"{median / plain:.2f}x plain; "
        bench.row(f"a pytest session of {TESTS} tests driving the shell "
                  f"on {board.name} (the dut fixture), {name}: each test",
                  f"{1000 * median:.0f} ms",
                  f"{ratio}{1000 * min(per_test):.0f} to "
                  f"{1000 * max(per_test):.0f} ms; the session "
                  f"{statistics.median(times[name]):.2f} s, of which "
                  f"{empty:.2f} s pytest's own start and end")
