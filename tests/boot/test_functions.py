# SPDX-License-Identifier: MIT
"""Per-function numbers in scripts/profile --json, on every board: the
flat profile (self, total, calls) and the call graph of a program whose
calls are known, each function's estimated cycles (--cycles) against
the exact profile's instructions, the run's cycle total without
--sample, and a stop named by its function and arrival."""

import json
import subprocess
import tempfile
from pathlib import Path

from bootlib import json_schema_errors
from perfcounter.paths import REPO
from perfcounter.target import elf

PER_BOARD = True

# main calls work 3 times, work calls leaf twice: leaf runs 6 times
CALLS = """\
static volatile int sink;

__attribute__((noinline)) void leaf(int n)
{
    for (int i = 0; i < n; i++) {
        sink += i;
    }
}

__attribute__((noinline)) void work(int n)
{
    leaf(n);
    leaf(n + 1);
    sink = 0;           /* no tail call */
}

int main(void)
{
    for (int k = 0; k < 3; k++) {
        work(100);
    }
    return 0;
}
"""


def profile_json(board, tmp, *args):
    """scripts/profile of CALLS with args and --json: (document, the
    image's symbols)."""
    source, image = Path(tmp) / "calls.c", Path(tmp) / "calls.elf"
    out = Path(tmp) / "run.json"
    source.write_text(CALLS)
    proc = subprocess.run(
        [str(REPO / "scripts" / "profile"), "--board", board.name,
         str(source), "-o", str(image), "--json", str(out), *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(out.read_text())
    assert not json_schema_errors(doc), json_schema_errors(doc)
    return doc, elf.read(image).symbols


def by_name(doc):
    return {f["name"]: f for f in doc["functions"]}


def test_flat_profile_call_graph_and_cycles_of_every_function(board):
    """An exact profile: the calls are the program's, self counts add
    up to every instruction, work's total is its own and leaf's; with
    --cycles each function's cycles are for exactly the instructions
    the profile counted in it (two counts made apart in the plugin)."""
    cycles = ["--cycles"] if board.cycle_model else []
    with tempfile.TemporaryDirectory() as tmp:
        doc, symbols = profile_json(board, tmp, "--sample=exact", *cycles)
    functions = by_name(doc)
    assert doc["profile"]["unit"] == "instructions"
    assert (functions["work"]["calls"], functions["leaf"]["calls"]) == \
        (3, 6), functions
    edges = {(e["caller"], e["callee"]): e["calls"]
             for e in doc["call_graph"]}
    assert edges[("main", "work")] == 3 and edges[("work", "leaf")] == 6
    assert functions["leaf"]["address"] == symbols["leaf"] & ~1
    assert sum(f["self"] for f in doc["functions"]) == \
        doc["profile"]["count"] == doc["profile"]["instructions"]
    work, leaf, main = functions["work"], functions["leaf"], \
        functions["main"]
    assert leaf["total"] == leaf["self"] > 600
    if board.arch == "riscv32":
        # picolibc's assembly routine without .type, named all the same
        assert functions["sys_semihost"]["calls"] > 0, functions
    assert work["total"] == work["self"] + leaf["total"]
    assert main["total"] >= main["self"] + work["total"]
    if not cycles:
        assert "cycles" not in doc and "cycles" not in leaf
        return
    for f in doc["functions"]:
        if f["self"] and f["address"] is not None:
            assert f["cycles_instructions"] == f["self"], f
            assert f["cycles"] > 0, f
    assert sum(f.get("cycles", 0) for f in doc["functions"]) <= \
        doc["cycles"]["cycles"]
    assert doc["cycles"]["model"] == board.cycle_model


def test_cycles_without_a_profile_have_the_total_and_every_function(
        board):
    """--cycles --json alone: the run's estimated cycles, each function
    that ran with its own, no flat profile."""
    if not board.cycle_model:
        return
    with tempfile.TemporaryDirectory() as tmp:
        doc, _ = profile_json(board, tmp, "--cycles")
    functions = by_name(doc)
    assert "profile" not in doc and "call_graph" not in doc
    assert doc["cycles"]["cycles"] > 0
    assert {"main", "work", "leaf"} <= set(functions)
    assert all("self" not in f for f in doc["functions"])
    assert functions["leaf"]["cycles_instructions"] > 600


def test_a_stop_is_named_by_its_function_and_arrival(board):
    with tempfile.TemporaryDirectory() as tmp:
        doc, symbols = profile_json(board, tmp, "--stop-at", "leaf:4",
                                    "--sample=exact")
        full, _ = profile_json(board, tmp, "--sample=exact")
    assert doc["run"]["ended"] == "stop"
    assert doc["run"]["stop"] == {
        "kind": "pc", "address": symbols["leaf"] & ~1, "symbol": "leaf",
        "arrival": 4, "text": "the 4th arrival at leaf"}, doc["run"]
    # leaf ran 3 times before the stop (100, 101, 100 iterations) of
    # the 6 of the whole run (603): twice as many instructions but one
    # iteration's
    iteration = by_name(full)["leaf"]["self"] - \
        2 * by_name(doc)["leaf"]["self"]
    assert 0 < iteration < 20, (by_name(full)["leaf"], by_name(doc)["leaf"])


def test_each_estimate_says_how_far_to_trust_it(board):
    """--cycles states the model, the part its code ran from, and the
    model's error against silicon (or that it was never compared); an
    M3 or M4 run without a part says to pass one."""
    if not board.cycle_model:
        return
    parts = {"m3": "stm32f103-24mhz", "m4": "stm32f407-24mhz"}
    with tempfile.TemporaryDirectory() as tmp:
        doc, _ = profile_json(board, tmp, "--cycles")
        with_part = profile_json(board, tmp, "--cycles", "--memory",
                                 parts[board.cycle_model])[0] \
            if board.cycle_model in parts else None
    trust = doc["cycles"]["trust"]
    assert trust["part"] is None
    assert trust["summary"].startswith(f"model {board.cycle_model}")
    assert trust["checked_against_silicon"] == (board.cycle_model != "m55")
    assert ("not yet compared with silicon" in trust["summary"]) == \
        (not trust["checked_against_silicon"])
    assert (trust["hint"] is not None) == (with_part is not None)
    if with_part:
        trust = with_part["cycles"]["trust"]
        assert trust["part"] == parts[board.cycle_model]
        assert trust["hint"] is None
        assert trust["summary"].endswith(
            f"code in the flash of {parts[board.cycle_model]}")
