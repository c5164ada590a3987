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


def trim(directory, pattern, kept_bytes):
    """Remove the files of directory matching pattern that were used
    before the last kept_bytes of them (on disk; a file's use is its
    modification time, which its users touch): a cache of one file per
    image would otherwise grow with every build."""
    files = []
    for path in Path(directory).glob(pattern):
        try:
            st = path.stat()
        except OSError:
            continue        # (another run removed it)
        files.append((st.st_mtime_ns, st.st_blocks * 512, path))
    kept = 0
    for _, size, path in sorted(files, reverse=True):
        kept += size
        if kept > kept_bytes:
            path.unlink(missing_ok=True)
