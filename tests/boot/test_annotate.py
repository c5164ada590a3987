# SPDX-License-Identifier: MIT
"""--annotate on every board: a function's source lines and
instructions (tests/programs/coverage.c's sum_to, a loop of 10 with a
branch taken 4 times one way, 6 the other) with each instruction's
executions, adding up to the function's own instructions in --json;
with --cycles each instruction's cycles and stalls, adding up to the
function's cycles, and --hottest's lines in order."""

import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from perfcounter.paths import REPO

PER_BOARD = True
SOURCE = REPO / "tests" / "programs" / "coverage.c"


def test_annotate_counts_each_instruction_under_its_line(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             str(SOURCE), "-O", "0", "--annotate", "sum_to", "--json",
             "run.json"], cwd=tmp, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        doc = json.loads((Path(tmp) / "run.json").read_text())
    listing = proc.stdout[proc.stdout.index("annotate: sum_to"):]
    head = re.match(r"annotate: sum_to \(0x[0-9a-f]+-0x[0-9a-f]+\), "
                    r"([\d,]+) executions in (\d+) instructions", listing)
    assert head, listing
    own = {f["name"]: f for f in doc["functions"]}["sum_to"]["self"]
    assert int(head.group(1).replace(",", "")) == own
    # each line's instructions under it, with their executions
    blocks = {}
    line = None
    for row in listing.splitlines()[2:]:
        source = re.match(r"\s+coverage\.c:(\d+): (.*)$", row)
        if source:
            line = int(source.group(1))
            blocks.setdefault(line, (source.group(2), []))
            continue
        insn = re.match(r"\s+(\d*)\s+(?:[\d.]+%)?\s+[0-9a-f]+: \S", row)
        if insn and line:
            blocks[line][1].append(int(insn.group(1) or 0))
    assert blocks[31][0] == "total += i;" and set(blocks[31][1]) == {4}
    assert blocks[33][0] == "total -= 1;" and set(blocks[33][1]) == {6}
    assert max(blocks[29][1]) == 11         # the loop's test
    assert sum(sum(counts) for _, counts in blocks.values()) == own


def test_annotate_names_a_function_that_is_not_there(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             str(SOURCE), "--annotate", "no_such_function"], cwd=tmp,
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
    # refused before the run: nothing of the guest's is printed
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == (
        "error: --annotate no_such_function: no function of that name in "
        "coverage.elf"), proc.stderr
    assert "run:" not in proc.stderr and not proc.stdout, proc.stdout


def annotated(board, tmp, *options):
    proc = subprocess.run(
        [str(REPO / "scripts" / "profile"), "--board", board.name,
         str(SOURCE), "-O", "0", "--cycles", "--json", "run.json",
         *options], cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((Path(tmp) / "run.json").read_text())
    return proc.stdout, {f["name"]: f for f in doc["functions"]}, doc


def test_annotate_gives_each_instruction_its_cycles(ctx, board):
    if not board.cycle_model:
        pytest.skip(f"{board.name} has no timing model")
    with tempfile.TemporaryDirectory() as tmp:
        out, functions, doc = annotated(board, tmp, "--annotate", "sum_to",
                                        "--hottest")
        _, plain, plain_doc = annotated(board, tmp, "--sample=exact")
    listing = out[out.index("annotate: sum_to"):]
    head = re.match(r"annotate: sum_to \(0x[0-9a-f]+-0x[0-9a-f]+\), "
                    r"([\d,]+) executions in (\d+) instructions, ([\d,]+) "
                    r"estimated cycles", listing)
    assert head, listing
    total = int(head.group(3).replace(",", ""))
    # the function's cycles: its instructions' (their windows), the
    # same as its one window's without --annotate; nothing else moves
    assert total == functions["sum_to"]["cycles"] == plain["sum_to"]["cycles"]
    assert functions == plain and doc["cycles"] == plain_doc["cycles"]
    rows = [re.match(r"\s+(\d+)\s+[\d.]+%\s+(\d+)\s+(\d+)\s+[0-9a-f]+: \S", r)
            for r in listing.splitlines()]
    insns = [tuple(map(int, m.groups())) for m in rows if m]
    assert sum(c for _, c, _ in insns) == total
    assert all(stalls == max(0, c - n) for n, c, stalls in insns)
    # --hottest: the source lines first, by cycles
    hot = listing.split("source line, hottest first\n")[1].split("\n\n")[0]
    line_cycles = [int(r.split()[2]) for r in hot.splitlines()]
    assert line_cycles == sorted(line_cycles, reverse=True)
    assert sum(line_cycles) == total
