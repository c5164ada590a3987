# SPDX-License-Identifier: MIT
"""The heap from the host, on every board: tests/firmware/heap.c's
fixed sequence of malloc, calloc, realloc and free, whose figures are
known in advance, followed through the plugin's probes on the C
library's allocator with nothing added to the firmware: the peak and
when, what is held at the end, the failed request, the task that made
them; in the text, --json (valid) and a timeline counter."""

import json
import subprocess
import tempfile
from pathlib import Path

from bootlib import json_schema_errors
from perfcounter.outputs import gate
from perfcounter.paths import REPO

PER_BOARD = True
PROFILE = REPO / "scripts" / "profile"
HEAP = "tests/firmware/heap.elf"
# Bytes in use after each call of heap.c's sequence
IN_USE = [100, 300, 200, 280, 480, 480, 80, 144, 64]


def test_the_heap_of_a_known_sequence(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(PROFILE), ctx.firmware(board, HEAP), "--board", board.name,
             "--sample", "--json", "run.json", "--timeline", "tl.json"],
            cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        doc = json.loads((Path(tmp) / "run.json").read_text())
        trace = json.loads((Path(tmp) / "tl.json").read_text())
    assert "heap: allocated, the 1 GiB request failed" in proc.stdout
    assert not json_schema_errors(doc), json_schema_errors(doc)
    heap = doc["heap"]
    assert {"malloc", "free", "calloc", "realloc"} <= set(heap["functions"])
    assert [size for _, size in heap["series"]] == IN_USE
    assert heap["peak_bytes"] == 480 and heap["in_use_bytes"] == 64
    assert (heap["allocations"], heap["frees"], heap["failures"]) == \
        (5, 3, 1)
    assert heap["largest_request"] == 1 << 30
    (owner,) = heap["by_context"]
    assert owner == {"name": owner["name"], "allocations": 5,
                     "bytes": 100 + 200 + 80 + 400 + 64, "held_bytes": 64}
    times = [ns for ns, _ in heap["series"]]
    assert times == sorted(times) and heap["peak_at_ns"] == times[4]
    counter = [e["args"]["bytes"] for e in trace["traceEvents"]
               if e.get("name") == "heap bytes in use"]
    assert counter == IN_USE
    assert "peak 480 bytes in use" in proc.stdout
    # the gate: a run whose heap peaked higher regressed
    more = json.loads(json.dumps(doc))
    more["heap"]["peak_bytes"] += 100
    rows = {r.metric: r for r in gate.compare(more, doc)
            if r.core == gate.HEAP}
    assert rows["peak_bytes"].status == "regressed"
    assert rows["failures"].status == "same"
