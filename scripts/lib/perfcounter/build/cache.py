# SPDX-License-Identifier: MIT
"""Shared builds, made safe for concurrent runs.

Every cached build (Debian's QEMU source, the QEMU builds, each board's
firmware build) is built by one run at a time, under a lock that the
others wait on, saying so when the wait is not a moment's.  A build is trusted only once it is
published: a stamp beside it (PATH.published, what it was built from)
is written atomically after the build succeeded.  A build that did not
finish (killed, disk full, a failed step) leaves its marker
(PATH.incomplete) behind; the next run sees it, says so, and has the
builder start again without trusting what is there.

The lock is an flock(2) on PATH.lock: the kernel releases it when its
holder dies, so a killed run never blocks the others.
"""

import fcntl
import os
import time
from contextlib import contextmanager
from pathlib import Path

from perfcounter.messages import say
from perfcounter.paths import publish

QUIET_SECONDS = 1           # a wait this short goes unsaid
REPORT_EVERY_SECONDS = 30


def _beside(path, suffix):
    path = Path(path)
    return path.with_name(path.name + suffix)


def _try_lock(lock):
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


@contextmanager
def locked(path, what):
    """Hold PATH.lock; while another run holds it, wait and say so."""
    lock_path = _beside(path, ".lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a+") as lock:
        start = time.monotonic()
        said = False
        next_report = start + QUIET_SECONDS
        while not _try_lock(lock):
            # A check that an up-to-date build is up to date holds the
            # lock a moment: only a real wait is worth a line
            if time.monotonic() >= next_report:
                lock.seek(0)
                # Empty if the holder has not written its pid yet
                holder = lock.read().strip() or "another run"
                say(f"still waiting for {what} "
                    f"({time.monotonic() - start:.0f} s)" if said else
                    f"waiting: {holder} is building {what} "
                    f"(lock {lock_path})")
                said = True
                next_report += REPORT_EVERY_SECONDS
            time.sleep(0.1)
        if said:
            say(f"{what}: ready after waiting "
                f"{time.monotonic() - start:.1f} s")
        lock.truncate(0)
        lock.write(f"process {os.getpid()}")
        lock.flush()
        try:
            yield
        finally:
            lock.truncate(0)


def published(path, key):
    """Whether path holds a complete build of key."""
    try:
        return _beside(path, ".published").read_text() == key
    except OSError:
        return False


def build(path, key, builder, what, lock=None):
    """Build path with builder(interrupted) under the lock, then publish
    key for it.  interrupted is True when an earlier build of path did
    not finish: builder must not trust what that one left.  lock (a
    path) is the lock to hold, path's own by default; builds that share
    a tree share a lock."""
    with locked(lock or path, what):
        _build_locked(path, key, builder, what)


def ensure(path, key, builder, what, lock=None):
    """Make path a published build of key, building it as build() does
    unless it is one already (perhaps built by the run we waited for).
    Returns whether this call built anything."""
    if published(path, key):
        return False
    with locked(lock or path, what):
        if published(path, key):
            return False
        _build_locked(path, key, builder, what)
    return True


def _build_locked(path, key, builder, what):
    marker = _beside(path, ".incomplete")
    interrupted = marker.exists()
    if interrupted:
        say(f"the last build of {what} did not finish (interrupted or "
            f"failed): not trusting what it left, building again")
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    _beside(path, ".published").unlink(missing_ok=True)
    builder(interrupted)
    publish_text(_beside(path, ".published"), key)
    marker.unlink()


def publish_text(path, text):
    """Write path atomically (its folder made): a reader sees the old
    file or the new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    publish(path, text)
