# SPDX-License-Identifier: MIT
"""Where the project's files are, and where builds and caches go."""

import os
from pathlib import Path

# The checkout: the firmware, the QEMU device and the schemas are read
# from it (an editable install points here too)
REPO = Path(__file__).resolve().parents[3]
CACHE = Path(os.environ.get("PERF_COUNTER_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME")
                     or Path.home() / ".cache") / "perf-counter")
# Firmware build directories live in the checkout, like any meson build
# (elsewhere with PERF_COUNTER_BUILD: the tests race cold builds there).
BUILD = Path(os.environ.get("PERF_COUNTER_BUILD") or REPO / "build")
