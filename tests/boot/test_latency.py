# SPDX-License-Identifier: MIT
"""Interrupt latency from the host, on the Cortex-M boards: PendSV
pended (the NVIC tells the plugin) with interrupts masked for 0, 100
and 300 NOPs (tests/firmware/latency.c): three latencies exactly 100
and 300 instructions apart, and a fourth, pended, cleared and pended
again, counted from its second pend (the first's); in the text,
--json (valid) and the gate. The same on the RISC-V boards with the
CLINT's machine software interrupt (latency_riscv.c: its mip bit)."""

import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from bootlib import json_schema_errors
from perfcounter import boards
from perfcounter.outputs import gate
from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"
LATENCY_BOARDS = [b for b in boards.BOARDS if boards.get(b).cortex_m or
                  boards.get(b).arch == "riscv32"]
# The interrupt each one raises: its exception's name, what it prints
RAISED = {"arm": ("PendSV", "pendsv"),
          "riscv32": ("machine software", "msip")}


@pytest.mark.parametrize("board_name", LATENCY_BOARDS)
def test_latency_of_an_interrupt_masked_for_known_instructions(
        ctx, board_name):
    board = boards.get(board_name)
    image = ctx.firmware(board, "tests/firmware/latency.elf")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(PROFILE), image, "--board", board_name, "--sample",
             "--json", "run.json"], cwd=tmp, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        doc = json.loads((Path(tmp) / "run.json").read_text())
    exception, printed_as = RAISED[board.arch]
    assert f"{printed_as} taken 4 times" in proc.stdout
    assert not json_schema_errors(doc), json_schema_errors(doc)
    (pendsv,) = [c for c in doc["contexts"]
                 if c.get("exception") == exception]
    latency = pendsv["latency"]
    low = latency["instructions"]["min"]
    assert latency["count"] == 4 and low > 0
    assert latency["instructions"]["max"] == low + 300
    assert latency["instructions"]["mean"] == low + 400 / 4
    # in virtual time, at -icount's ns per instruction
    per = 2 ** board.icount_shift
    assert latency["ns"]["max"] - latency["ns"]["min"] == 300 * per
    printed = re.search(rf"^  {re.escape(pendsv['name'])} +4 +"
                        rf"{low}/\d+/{low + 300} ", proc.stdout, re.M)
    assert printed, proc.stdout
    # the stretches masked by the code: 0, 100, 300 and 20 + 50 NOPs
    # with a store or three, from the masking instruction to the one
    # that unmasks (counted in): the longest 302 instructions, in main
    masked = doc["masked"]
    assert masked["longest_instructions"] == 302
    assert masked["longest_ns"] == 302 * per
    assert masked["longest_in"] == "main"
    assert masked["times"] >= 4
    assert masked["instructions"] >= 2 + 102 + 302 + 74
    assert "the longest 302 instructions" in proc.stdout
    # the gate: a longer worst latency regressed
    worse = json.loads(json.dumps(doc))
    for c in worse["contexts"]:
        if c.get("exception") == exception:
            c["latency"]["instructions"]["max"] *= 2
    rows = {(r.key, r.metric): r for r in gate.compare(worse, doc)}
    assert rows[(pendsv["name"], "latency_max")].status == "regressed"
