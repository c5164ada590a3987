# SPDX-License-Identifier: MIT
"""A test session split into N shards, one per CI machine: a stable
partition of the tests' node ids (the same on every machine, whatever
order they were collected in): in turn over the sorted ids, or
balanced by the host seconds each took when a durations file of an
earlier session is given."""

import json
import re
from pathlib import Path
from statistics import median

from perfcounter.errors import Failure


def parse(text):
    """'K/N' -> (K, N), K from 1 to N; ValueError if not."""
    m = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise ValueError(f"'{text}' is not K/N with K from 1 to N (say 2/4)")
    return int(m[1]), int(m[2])


def load_durations(path):
    """{node id: host seconds} of a durations file (results' or merged)."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as err:
        raise Failure(f"{path}: cannot read durations ({err})") from None
    return {k: float(v) for k, v in doc.get("durations", doc).items()}


def assign(nodeids, count, durations=None):
    """{node id: shard (0 to count - 1)}.  Without durations, in turn
    over the sorted ids; with them, longest first to the least loaded
    shard (ties to the lowest), the tests they lack counted at their
    median."""
    ids = sorted(set(nodeids))
    if not durations:
        return {n: i % count for i, n in enumerate(ids)}
    known = [durations[n] for n in ids if n in durations]
    typical = median(known) if known else 1.0
    cost = {n: durations.get(n, typical) for n in ids}
    load = [0.0] * count
    out = {}
    for n in sorted(ids, key=lambda n: (-cost[n], n)):
        shard = min(range(count), key=lambda s: (load[s], s))
        out[n] = shard
        load[shard] += cost[n]
    return out
