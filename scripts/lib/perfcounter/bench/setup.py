# SPDX-License-Identifier: MIT
"""scripts/bench, setup: what building QEMU from scratch takes (timed
now with --cold, or as the last build recorded it), and a warm start."""

import os
import subprocess
import sys
import tempfile
import time

from perfcounter.paths import REPO


def rows(bench, warm, cold=False):
    """warm: the seconds the warm setup of this run took; cold: build
    QEMU from scratch in a temporary cache and time it."""
    if cold:
        with tempfile.TemporaryDirectory() as cache:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "from perfcounter.build "
                            "import qemu; qemu.ensure_built()"], check=True,
                           env=dict(os.environ, PERF_COUNTER_CACHE=cache,
                                    PYTHONPATH=str(REPO / "scripts" /
                                                   "lib")))
            bench.row("cold QEMU build (source download, copy, configure, "
                      "compile)", f"{time.perf_counter() - start:.0f} s")
    else:
        recorded = bench.qemu.build_time()
        bench.row("cold QEMU build (copy, configure, compile; as recorded "
                  "by the last build from scratch; --cold to measure)",
                  f"{recorded:.0f} s" if recorded else "not recorded")
    bench.row("warm setup (packages checked, QEMU and firmware up to date)",
              f"{warm:.2f} s", "in-process; scripts/profile adds the "
              "package check and Python start-up")
