# SPDX-License-Identifier: MIT
"""What reading an image found, kept by the image's content (its
SHA-256) across runs: its symbols and what its DWARF says of its RTOS
take pyelftools a tenth of a second to a second to read, and CI runs
the same image many times. One JSON file per image and per FORMAT of
what is kept in it, and one per part kept apart (its source lines and
its branches: up to megabytes that only some runs read), in the cache
(paths.CACHE); a file that cannot be read or written is as if absent.
The files used last are kept, up to KEPT_BYTES (the digests up to
DIGESTS_KEPT_BYTES): trimmed when an image is read anew (which
pyelftools makes slow anyway), once a day at most."""

import json
import os
import time

from perfcounter.paths import CACHE, publish, trim

# Raise when what a key holds changes shape
FORMAT = 1
DIR = CACHE / "images"
DIGESTS = CACHE / "image-digests"     # file identity: SHA-256
RACY_NS = 1_000_000_000
# (the full FreeRTOS demo's file is 70 KB; a digest takes a block)
KEPT_BYTES = 64 << 20
DIGESTS_KEPT_BYTES = 16 << 20
TRIM_EVERY_SECONDS = 24 * 3600


def content(path):
    """(path's bytes, their SHA-256): the digest is kept by the file's
    identity (device, inode, size, modification and change times, taken
    before it is read), so that the same file is hashed once: importing
    hashlib alone (OpenSSL) took 3 ms of every command. Not for a file
    changed in the last RACY_NS: the kernel's clock for those times
    moves by ticks, and the same file rewritten within one would keep
    its identity (git calls such entries racily clean). OSError if path
    cannot be read."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        data = f.read()
    known = DIGESTS / (f"{st.st_dev}-{st.st_ino}-{st.st_size}-"
                       f"{st.st_mtime_ns}-{st.st_ctime_ns}")
    try:
        sha = known.read_text()
        if len(sha) == 64 and len(data) == st.st_size:
            os.utime(known)     # (used: trim() keeps it)
            return data, sha
    except OSError:
        pass
    import hashlib
    sha = hashlib.sha256(data).hexdigest()
    if len(data) == st.st_size and \
            time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS:
        _write(known, sha)
    return data, sha


def _path(sha, part=None):
    return DIR / (f"{sha}-{FORMAT}.json" if part is None else
                  f"{sha}-{FORMAT}-{part}.json")


def _kept(sha, part=None):
    """What the image's file (or its file part) holds: {key: value}, or
    {}; the file marked used (trim() keeps the ones used last)"""
    path = _path(sha, part)
    try:
        kept = json.loads(path.read_text())
        os.utime(path)
    except (OSError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def get(sha, key, part=None):
    """What put() kept under key for the image (in its file part), or
    None."""
    return _kept(sha, part).get(key)


def put(sha, key, value, part=None):
    """Keep value (JSON) under key for the image, next to what is kept;
    part: in a file of that name apart, for a value large enough to slow
    what every run reads (the symbols, the RTOS's layout)."""
    kept = _kept(sha, part)
    kept[key] = value
    _write(_path(sha, part), json.dumps(kept))
    # At most once a day (a stamp's time): listing 11,000 files took
    # 0.1 s, the time pyelftools takes to read a small image
    stamp = DIR / ".trimmed"
    try:
        due = time.time() - stamp.stat().st_mtime > TRIM_EVERY_SECONDS
    except OSError:
        due = True
    if due:
        _write(stamp, "")
        trim(DIR, "*.json", KEPT_BYTES)
        trim(DIGESTS, "*", DIGESTS_KEPT_BYTES)


def _write(path, text):
    """path holds text, whole or not at all (runs in parallel share the
    cache)"""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        publish(path, text)
    except OSError:
        pass
