# SPDX-License-Identifier: MIT
"""Where the project's files are, where builds and caches go, and how
a file that others may be reading is written."""

import itertools
import os
import stat
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


_PUBLISHED = itertools.count()     # (a thread's name apart from another's)


def publish(path, data):
    """Write data (text or bytes) to path whole: a reader, and a run
    beside this one writing the same file (a default gmon.out beside a
    shared image), sees the old file or the new one, never a part.
    What is not a plain file (a device such as /dev/full, a pipe, a
    symbolic link) is written through, as open() would."""
    path = Path(path)
    mode = "wb" if isinstance(data, bytes) else "w"
    try:
        replaceable = stat.S_ISREG(path.lstat().st_mode)
    except FileNotFoundError:
        replaceable = True
    if not replaceable:
        with open(path, mode) as f:
            f.write(data)
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{next(_PUBLISHED)}.tmp")
    try:
        with open(tmp, mode) as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
