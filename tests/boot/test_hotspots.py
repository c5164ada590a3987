# SPDX-License-Identifier: MIT
"""Host-side profiling (scripts/profile --sample) on every board, read
through the board's stock gprof: a program of known call structure
(tests/firmware/ARCH/callgraph.S) gives exact self counts and call
counts, samples agree with the exact profile, the output is identical
run to run, and profiling changes nothing the guest measures."""

import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from bootlib import run_image
from perfcounter import DEFAULT_PERIOD, EXACT, OutputOptions
from perfcounter.outputs import gprof, hotspots
from perfcounter.paths import REPO
from perfcounter.results import functions, stacks

PER_BOARD = True
IMAGE = "tests/firmware/callgraph.elf"
FUNCTIONS = ["callgraph_run", "callgraph_a", "callgraph_b", "callgraph_c"]
# Each function's own instructions (see the .S files)
SELF = {"arm": [3034, 12000, 6000, 400020],
        "riscv32": [3039, 17000, 6000, 400030],
        "aarch64": [3035, 13000, 6000, 400020]}
CALLS = {"callgraph_a": 1000, "callgraph_b": 3000, "callgraph_c": 10}


def profiled(ctx, board, period, run=0):
    """Boot the program with the profiler (period None: without);
    return what it printed, gmon.out's bytes, gprof's flat profile (in
    clocks, and in seconds), call graph, and the collapsed stacks."""
    key = ("hotspots", board.name, period, run)
    if key in ctx.cache:
        return ctx.cache[key]
    result = run_image(ctx, board, IMAGE, profile=period)
    assert result.exit_code == 0, result.output
    found = {"output": result.output}
    if period is not None:
        with tempfile.TemporaryDirectory() as tmp:
            gmon = Path(tmp) / "gmon.out"
            flame = Path(tmp) / "flame.svg"
            found["flat"] = hotspots.write(result, OutputOptions(
                gmon=gmon, gprof_unit="clocks", flamegraph=flame),
                report=quiet)
            found["flamegraph"] = flame.read_text()
            found["gmon"] = gmon.read_bytes()
            found["graph"] = gprof.run(result.target, gmon, "-q")
            found["instructions"] = result.profile.instructions
            found["stacks"] = stacks.collapse(result.profile, result.target)
            hotspots.write(result, OutputOptions(gmon=gmon), report=quiet)
            found["flat_seconds"] = gprof.run(result.target, gmon, "-p")
    ctx.cache[key] = found
    return found


def quiet(message):
    pass


def flat(text):
    """gprof's flat profile as {name: (% time, self)}."""
    rows = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) in (4, 7) and words[0].replace(".", "").isdigit():
            rows[words[-1]] = (float(words[0]), float(words[2]))
    return rows


def called(text):
    """gprof's call graph as {name: times called}, from each function's
    primary line: [index] %time self children called name [index]
    (self and children are -nan in a profile of no samples)."""
    calls = {}
    for m in re.finditer(r"^\[\d+\]\s+[\d.]+\s+\S+\s+\S+\s+"
                         r"(\d+)(?:\+\d+)?\s+(\S+)", text, re.M):
        calls[m.group(2)] = int(m.group(1))
    return calls


def test_exact_profile_gives_each_function_its_own_instructions(ctx, board):
    rows = flat(profiled(ctx, board, EXACT)["flat"])
    got = [rows.get(f, (0, 0))[1] for f in FUNCTIONS]
    assert got == SELF[board.arch], dict(zip(FUNCTIONS, got))


def test_call_counts_are_exact_without_pg(ctx, board):
    for period in (EXACT, DEFAULT_PERIOD):
        calls = called(profiled(ctx, board, period)["graph"])
        got = {f: calls.get(f) for f in CALLS}
        assert got == CALLS, (period, got)
        assert calls.get("callgraph_run") == 1, calls


# A sampled share misses by what falls in the periods a function shares
# with others: callgraph_a and _b share about 21 periods of 1000 (the
# default), where a few instructions more before them (a change of the
# board support) move a sample from one to the other, about 0.2 points
# each, and can make them miss by a point.  A sample every 100
# instructions makes a point more than five times what that moves.
SHARES_PERIOD = 100


def test_sampled_shares_are_within_1_point_of_exact(ctx, board):
    exact = flat(profiled(ctx, board, EXACT)["flat_seconds"])
    sampled = flat(profiled(ctx, board, SHARES_PERIOD)["flat_seconds"])
    for f in FUNCTIONS:
        share, exact_share = sampled.get(f, (0, 0))[0], exact[f][0]
        assert abs(share - exact_share) <= 1.0, (f, share, exact_share)


def test_gprof_seconds_are_the_counter_seconds(ctx, board):
    rows = flat(profiled(ctx, board, EXACT)["flat_seconds"])
    # callgraph_c's 400020 or so clocks, in seconds to gprof's 2 decimals
    own = SELF[board.arch][3]
    assert rows["callgraph_c"][1] == round(own / board.freq, 2), rows


def test_gmon_out_is_identical_over_two_runs(ctx, board):
    for period in (EXACT, DEFAULT_PERIOD):
        first = profiled(ctx, board, period)["gmon"]
        assert first == profiled(ctx, board, period, run=1)["gmon"], period


def test_profiling_does_not_change_what_the_guest_measures(ctx, board):
    plain = profiled(ctx, board, None)["output"]
    assert "callgraph_run" in plain, plain
    for period in (EXACT, DEFAULT_PERIOD):
        assert profiled(ctx, board, period)["output"] == plain, period


def test_collapsed_stacks_add_up_to_every_instruction(ctx, board):
    found = profiled(ctx, board, EXACT)
    collapsed = found["stacks"]
    assert sum(collapsed.values()) == found["instructions"]
    b = [n for s, n in collapsed.items()
         if s.endswith("main;callgraph_run;callgraph_a;callgraph_b")]
    assert b == [SELF[board.arch][2]], {
        s: n for s, n in collapsed.items() if "callgraph" in s}


def test_samples_are_one_per_period(ctx, board):
    # one sample at a jittered place in each period (profile.c): the
    # last period may or may not have reached its sample
    found = profiled(ctx, board, DEFAULT_PERIOD)
    periods = found["instructions"] // DEFAULT_PERIOD
    assert sum(found["stacks"].values()) in (periods, periods + 1), \
        (sum(found["stacks"].values()), periods)


def test_pg_workflow_gives_exact_call_counts(ctx, board):
    """scripts/profile --gprof as a user runs it: the sources built with
    -pg, the guest's call counts added to the host's samples."""
    source = REPO / "tests" / "programs" / "callgraph_pg.c"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             "--gprof", str(source)], cwd=tmp, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert (Path(tmp) / "gmon.out").exists(), os.listdir(tmp)
        assert (Path(tmp) / "callgraph_pg.elf").exists(), os.listdir(tmp)
    assert "--Performance Counter Report--" in proc.stdout, proc.stdout
    calls = called(proc.stdout)
    got = {f: calls.get(f) for f in ("callee_a", "callee_b", "callee_c")}
    assert got == {"callee_a": 1000, "callee_b": 3000, "callee_c": 10}, \
        proc.stdout
    rows = flat(proc.stdout)
    assert rows["callee_c"][0] > 50, rows    # where the time goes


def test_flame_graph_draws_the_exact_stacks(ctx, board):
    svg = ET.fromstring(profiled(ctx, board, EXACT)["flamegraph"])
    frames = {r.get("data-name"): int(r.get("data-count"))
              for r in svg.iter("{http://www.w3.org/2000/svg}rect")
              if r.get("data-name", "").startswith("callgraph_")}
    assert frames == dict(zip(FUNCTIONS, [
        sum(SELF[board.arch]), sum(SELF[board.arch][1:3]),
        SELF[board.arch][2], SELF[board.arch][3]])), frames


def test_a_profile_without_call_stacks_is_the_same_profile(ctx, board):
    """stacks=False (the command line's when no output needs call
    stacks): the same samples, calls, tasks, handlers and switches as
    with them, on a program of calls and on one of tasks and handlers,
    each context's samples at its root; followed without call stacks
    (flat) on a Cortex-M, and with them elsewhere, as the results say."""
    flat = board.cpu.startswith("Cortex-M")
    for image in (IMAGE, "tests/firmware/tasks.elf"):
        runs = [run_image(ctx, board, image, profile=1000, stacks=stacks)
                for stacks in (True, False)]
        for result in runs:
            assert result.exit_code == 0, result.output
        full, without = (r.profile for r in runs)
        assert without.call_stacks is not flat and full.call_stacks
        assert without.histogram == full.histogram
        assert without.arcs == full.arcs and without.arcs
        assert without.switches == full.switches
        assert without.instructions == full.instructions
        assert len(without.contexts) == len(full.contexts) >= 1
        for c in without.contexts.values():
            assert replace(c, root=0) == \
                replace(full.contexts[c.id], root=0)
        by_context = {}
        for (node, pc), count in full.stacks.items():
            key = full.call_sites(node)[1], pc
            by_context[key] = by_context.get(key, 0) + count
        if flat:
            assert set(without.nodes) <= set(without.roots)
            assert {(without.roots[node], pc): count for (node, pc), count
                    in without.stacks.items()} == by_context
            assert stacks.collapse(without, runs[1].target) == {}
            assert all(f.total is None for f in functions.table(runs[1]))
            assert any(f.total for f in functions.table(runs[0]))


def test_a_run_shorter_than_the_period_has_a_profile_of_no_samples(
        ctx, board, tmp_path):
    """Not one sample (a run shorter than the sampling period): gprof
    still reads gmon.out (it refuses one without a histogram), says
    no time accumulated, and the calls are counted all the same."""
    result = run_image(ctx, board, IMAGE, profile=10 ** 9)
    assert result.exit_code == 0, result.output
    assert not result.profile.histogram
    gmon = tmp_path / "gmon.out"
    text = hotspots.write(result, OutputOptions(gmon=gmon), report=quiet)
    assert "no time accumulated" in text, text
    assert called(gprof.run(result.target, gmon, "-q")) == \
        called(profiled(ctx, board, 1000)["graph"])


@pytest.mark.parametrize("level", ["s", "2"])
def test_armv6m_branches_with_link_that_are_no_calls(ctx, level):
    """Armv6-M's only far branch is BL: GCC crosses a long function's
    body with it (at -Os and -O2); its switch goes through
    __gnu_thumb1_case_uqi or _uhi, which return into the case, past
    their return address (tests/programs/armv6m_branches.c on the
    micro:bit's Cortex-M0).
    The exact stacks hold big() once, below main: a BL taken for a call,
    or a return not taken for one, would nest another frame in it."""
    source = REPO / "tests" / "programs" / "armv6m_branches.c"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", "microbit",
             str(source), "-O", level, "-o", "branches.elf",
             "--sample=exact",
             "--stacks", "stacks.txt"], cwd=tmp, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        code = subprocess.run(
            ["arm-none-eabi-objdump", "-d", "branches.elf"], cwd=tmp,
            capture_output=True, text=True, check=True).stdout
        stacks = (Path(tmp) / "stacks.txt").read_text()
    # the program does what it is for: BL from big into big, a switch
    # through the helper
    assert re.search(r"\sbl\s+[0-9a-f]+ <big\+0x[0-9a-f]+>", code), code
    assert re.search(r"\sbl\s+[0-9a-f]+ <__gnu_thumb1_case_", code), code
    frames = [line.rsplit(" ", 1)[0] for line in stacks.splitlines()
              if ";big" in line]
    assert "_start;main;big" in frames, frames
    assert [f for f in frames
            if re.fullmatch(r"_start;main;big;__gnu_thumb1_case_u[qh]i",
                            f)], frames
    assert not [f for f in frames if f.count(";") > 3], frames


def test_longjmp_unwinds_the_frames_it_leaves(ctx, board):
    """longjmp out of a recursion 6 deep, 50 times
    (tests/programs/longjmp_unwind.c): its return to setjmp's caller
    unwinds the recursion's frames, so work() runs below main, not
    under 300 frames of down()."""
    source = REPO / "tests" / "programs" / "longjmp_unwind.c"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             str(source), "--sample=exact", "--stacks", "stacks.txt"],
            cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        stacks = (Path(tmp) / "stacks.txt").read_text()
    frames = [line.rsplit(" ", 1)[0].split(";")
              for line in stacks.splitlines()]
    assert [f for f in frames if f[-1] == "work"] and \
        all(f[-2] == "main" for f in frames if f[-1] == "work"), stacks
    assert max(f.count("down") for f in frames) == 6, stacks
    assert "deeper than" not in proc.stderr + proc.stdout


def call_graph_arcs(graph):
    """{(caller, callee): calls} from gprof's call graph (-b -q)."""
    arcs = {}
    for entry in graph.split("-----"):
        primary = None
        for line in entry.splitlines():
            m = re.match(r"\[\d+\]\s.*?\s(\S+) \[\d+\]$", line)
            if m:
                primary = m.group(1)
                continue
            m = re.match(r"\s+(?:[\d.]+\s+[\d.]+\s+)?(\d+)(?:/\d+)?"
                         r"\s+(\S+) \[\d+\]$", line)
            if m and primary:
                arcs[primary, m.group(2)] = int(m.group(1))
    return arcs


def test_sampled_call_stacks_and_counts_are_the_exact_ones(ctx, board):
    """Calls of every kind (tests/programs/calls_followed.c: direct, from
    a loop, in an IT block taken every other time, through a pointer, a
    recursion left by longjmp).  Sampled every 7 instructions, the
    profile holds only call stacks the exact profile holds, and gprof
    counts each call the program makes, as the exact profile does (on
    a Cortex-M, sampling follows calls lazily: profile.c), and so does
    a sampled profile without call stacks (no --stacks: on a Cortex-M
    no frame made at all)."""
    source = REPO / "tests" / "programs" / "calls_followed.c"
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode, period in (("exact", "exact"), ("7", "7"), ("flat", "7")):
            build = [str(source), "-o", "calls.elf"] if mode == "exact" \
                else ["calls.elf"]
            stacks = ["--stacks", f"{mode}.txt"] if mode != "flat" else []
            proc = subprocess.run(
                [str(REPO / "scripts" / "profile"), "--board", board.name,
                 *build, f"--sample={period}", *stacks,
                 "--gmon", f"{mode}.out"],
                cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
                text=True, timeout=300)
            assert proc.returncode == 0, proc.stderr
            stacks = (Path(tmp) / f"{mode}.txt").read_text() \
                if stacks else ""
            graph = subprocess.run(
                [gprof.tool(board), "-b", "-q", "calls.elf", f"{mode}.out"],
                cwd=tmp, capture_output=True, text=True, check=True).stdout
            # (the program's calls: the C library's exit differs on RISC-V)
            found[mode] = ({line.rsplit(" ", 1)[0]
                            for line in stacks.splitlines()
                            if ";main" in line}, call_graph_arcs(graph))
        assert (Path(tmp) / "flat.out").read_bytes() == \
            (Path(tmp) / "7.out").read_bytes()
    (exact_stacks, exact_arcs), (sampled_stacks, sampled_arcs) = \
        found["exact"], found["7"]
    assert sampled_arcs == exact_arcs
    assert found["flat"][1] == exact_arcs
    assert sum(n for (_, callee), n in exact_arcs.items()
               if callee == "leaf") == 5500, exact_arcs
    assert exact_arcs["nested", "leaf"] == 3000, exact_arcs
    assert exact_arcs["conditional", "leaf"] == 500, exact_arcs
    assert exact_arcs["recurse", "recurse"] == 4000, exact_arcs
    assert sampled_stacks <= exact_stacks, sampled_stacks - exact_stacks
    assert len(sampled_stacks) >= 10, sampled_stacks
    assert any(s.endswith("main;work") for s in sampled_stacks)
    assert max(s.count("recurse") for s in exact_stacks) == 5


def test_gprofs_copies_for_the_flat_profile_keep_to_their_bytes(
        ctx, board, monkeypatch):
    """gprof.flat_profile_image's copies: one per image, made once and used
    again, and only the ones used last kept, up to KEPT_BYTES."""
    from perfcounter import Target
    targets = [Target(ctx.firmware(board, image), board) for image in
               (IMAGE, "tests/firmware/tasks.elf", "tests/firmware/heap.elf")]
    with tempfile.TemporaryDirectory() as tmp:
        monkeypatch.setattr(gprof, "IMAGES", Path(tmp) / "sizes")
        sizes = [gprof.flat_profile_image(t).stat().st_blocks * 512  # on disk
                 for t in targets]
        monkeypatch.setattr(gprof, "IMAGES", Path(tmp) / "kept")
        monkeypatch.setattr(gprof, "KEPT_BYTES", sum(sizes) - 1)
        first, second = (gprof.flat_profile_image(t) for t in targets[:2])
        made = second.stat().st_mtime_ns
        os.utime(first, ns=(made - 10**9, made - 10**9))    # made before
        assert gprof.flat_profile_image(targets[0]) == first     # used again
        assert first.stat().st_mtime_ns > made
        third = gprof.flat_profile_image(targets[2])
        assert first.exists() and third.exists() and not second.exists()
        assert third.parent == first.parent == Path(tmp) / "kept"
