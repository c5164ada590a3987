# SPDX-License-Identifier: MIT
"""What reading an image found, kept by the image's content (its
SHA-256) across runs: its symbols and what its DWARF says of its RTOS
take pyelftools a tenth of a second to a second to read, and CI runs
the same image many times. One JSON file per image and per FORMAT of
what is kept in it, in the cache (paths.CACHE); a file that cannot be
read or written is as if absent."""

import hashlib
import json
import os
import tempfile

from perfcounter.paths import CACHE

# Raise when what a key holds changes shape
FORMAT = 1
DIR = CACHE / "images"


def digest(data):
    return hashlib.sha256(data).hexdigest()


def _path(sha):
    return DIR / f"{sha}-{FORMAT}.json"


def _kept(sha):
    """What the image's file holds: {key: value}, or {}"""
    try:
        kept = json.loads(_path(sha).read_text())
    except (OSError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def get(sha, key):
    """What put() kept under key for the image, or None."""
    return _kept(sha).get(key)


def put(sha, key, value):
    """Keep value (JSON) under key for the image, next to what is kept."""
    kept = _kept(sha)
    kept[key] = value
    try:
        DIR.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=DIR, delete=False,
                                         suffix=".tmp") as out:
            json.dump(kept, out)
        os.replace(out.name, _path(sha))
    except OSError:
        pass
