# SPDX-License-Identifier: MIT
"""The task analyses made as the run goes (results/during_run.py), on
every board: the plugin streams its switches, probes' and stores'
records to a file as it makes them (stream=, records/stream.h), and a
thread walks them while QEMU runs. The stream holds the records the
results file holds without it, in order, with its "through" points
kept, and the results file written at exit leaves them to it; the instances, the
kernel objects, the heap, the timeline's context slices and the CPU
load made from it are those made from the results file after the run,
whatever the flushes; a stream cut short or restarted leaves them to
be made after the run. On tests/firmware/tasks.c (a tick handler that
sends to a queue and gives a semaphore, tasks that block on them, an
idle task that allocates)."""

import random
import re
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from perfcounter import EXACT, RunConfig, Target, boot
from perfcounter.boot.config import headless
from perfcounter.errors import Failure
from perfcounter.results import contexts, cpu_load, heap, instances, \
    kernel_objects, plugin_results, plugin_stream
from perfcounter.results.during_run import DuringRun

PER_BOARD = True
TASKS = "tests/firmware/tasks.elf"
TAGS = {"switch": 1, "probe": 2, "store": 0}    # where the instructions are


def run(ctx, board, chunk=None, slices=True, **options):
    """(the Result, the stream's sections, the results file read again:
    a profile of its own, whose analyses are made from it, the stream's
    bytes; slices: whether the thread makes the timeline's slices)"""
    target = Target(ctx.firmware(board, TASKS), board)
    config = RunConfig(target, profile=EXACT, **options)
    with tempfile.TemporaryDirectory() as tmp:
        during = DuringRun(target, Path(tmp), chunk=chunk,
                           slices=slices).start()
        started = time.monotonic()
        try:
            exited = boot.launch(config, ctx.qemu, tmp, during=during)
        finally:
            during.exited.set()
        result = boot.collect(config, exited, ctx.qemu, tmp, started, during)
        assert result.exit_code == 0, result.output
        stream = list(plugin_stream.sections(during.path, during.exited))
        again = plugin_results.read(config.plugin_results(tmp))
        if result.analysed_during_run:
            # given: the thread's, not made again from the profile
            profile = result.plugin
            assert kernel_objects.of(profile, target) is \
                during.calls.objects
            found = instances.of(profile, target)
            assert all(task is during.walk.by_key[task.key]
                       for task in found.tasks.values())
            if slices:
                assert contexts.slice_tails(profile, target) is during.tails
                assert all(found.slice_tails[cid] is during.instance_tails[
                    task.key] for cid, task in found.tasks.items())
            else:   # (made when the timeline asks, the same: analyses())
                assert not during.tails and not during.instance_tails
            assert cpu_load.of(profile).busy is during.busy.rows
            assert heap.of(profile, target) is during.requests.heap
        return result, stream, again, during.path.read_bytes()


def test_the_stream_holds_the_results_records_in_order(ctx, board):
    result, stream, again, _ = run(ctx, board, chunk=7)
    assert result.analysed_during_run, result.during_run_failure
    kinds = [kind for kind, _ in stream]
    assert kinds[-1] == "end" and "restart" not in kinds
    assert kinds.count("through") >= 20, kinds
    got = {tag: [] for tag in TAGS}
    named, through = set(), 0
    for kind, data in stream:
        if kind == "context":
            named.add(data[0])
        elif kind == "through":
            assert data >= through
            through = data
        elif kind in TAGS:
            # made after the last "through": at its instruction or later
            assert all(r[TAGS[kind]] >= through for r in data)
            got[kind] += data
            if kind == "switch":
                assert {s[3] for s in data} <= named   # named first
    assert got["switch"] == again.switches and len(again.switches) > 50
    assert got["probe"] == again.probes and again.probes
    assert got["store"] == again.stores and again.stores
    contexts = [data for kind, data in stream if kind == "context"]
    assert contexts == [(c.id, c.kind, c.key)
                        for c in again.contexts.values()]


def test_packed_records_read_as_the_list_they_hold():
    """Host only: a stream's records kept as its blocks' bytes read as the
    list of tuples they hold, by index and slice from any block (some
    empty), a field at a time, and with the model's cycles given apart
    (cycles=)"""
    layout = struct.Struct("<QqQQQ")
    rng = random.Random(7)
    records = [(rng.getrandbits(40), rng.getrandbits(40) - (1 << 39),
                rng.getrandbits(8), rng.getrandbits(64), rng.getrandbits(64))
               for _ in range(1000)]
    packed, at = plugin_stream.PackedRecords(), 0
    for size in (0, 3, 100, 1, 0, 500, 396):
        packed.add(plugin_stream.Block(layout, b"".join(
            layout.pack(*r) for r in records[at:at + size])))
        at += size
    assert len(packed) == 1000 and list(packed) == records == packed
    for i in range(-1000, 1000):
        assert packed[i] == records[i], i
    for i in (1000, -1001):
        with pytest.raises(IndexError):
            packed[i]
    for start in range(-5, 1005, 7):
        for stop in (None, -1, 0, 3, 103, 104, 500, 999, 1000, 2000):
            assert packed[start:stop] == records[start:stop]
            assert packed[start:stop:2] == records[start:stop:2]
    first, cycles = plugin_results._cycles_apart(packed, 4)
    for field in range(5):      # (field 1 signed, some negative)
        assert list(packed.column(field)) == [r[field] for r in records]
    some = packed.fields(1, 2)
    assert list(some.column(0)) == [r[1] for r in records]
    assert list(first) == [r[:4] for r in records] and \
        first[-1] == records[-1][:4] and first[3:5] == \
        [r[:4] for r in records[3:5]]
    assert cycles == [r[4] for r in records]
    assert plugin_results._cycles_apart(records, 4) == \
        ([r[:4] for r in records], cycles)


def test_the_results_file_leaves_the_records_to_the_stream(ctx, board):
    target = Target(ctx.firmware(board, TASKS), board)
    config = RunConfig(target, profile=EXACT)
    with tempfile.TemporaryDirectory() as tmp:
        # the same run without a stream: its records in the results file
        exited = boot.launch(config, ctx.qemu, tmp)
        alone = boot.collect(config, exited, ctx.qemu, tmp, 0).plugin
        data = config.plugin_results(tmp).read_bytes()
        assert b"\nrecords switch " in data and alone.stream is None
        during = DuringRun(target, Path(tmp))
        follow = during._follow

        def late():
            exited.wait()       # behind: nothing read when QEMU exits
            follow()
        during._follow = late
        exited = threading.Event()
        during.start()
        try:
            done = boot.launch(config, ctx.qemu, tmp, during=during)
        finally:
            exited.set()
        result = boot.collect(config, done, ctx.qemu, tmp, 0, during)
        assert result.analysed_during_run, result.during_run_failure
        data = config.plugin_results(tmp).read_bytes()
        assert b"\nrecords " not in data
        for tag, got in (("switch", alone.switches),
                         ("probe", alone.probes), ("store", alone.stores)):
            assert f"\nrecords-in-stream {tag} {len(got)}\n".encode() \
                in data
        assert result.plugin.stream == str(during.path)
        # the thread's records, once it has read them all: not read
        # again, kept packed, read as lists of tuples
        for tag, got, kept in (
                ("switch", result.plugin.switches, alone.switches),
                ("probe", result.plugin.probes, alone.probes),
                ("store", result.plugin.stores, alone.stores)):
            assert got is during.records[tag]
            assert isinstance(got, plugin_stream.PackedRecords)
            assert len(got) == len(kept) > 2 and list(got) == kept and \
                got[1:3] == kept[1:3] and got[-1] == kept[-1], tag
        # read again without them: from the stream file it names
        again = plugin_results.read(config.plugin_results(tmp))
        for profile in (result.plugin, again):
            assert (profile.switches, profile.probes, profile.stores,
                    profile.switch_cycles, profile.store_cycles) == \
                (alone.switches, alone.probes, alone.stores, [], [])
        # a stream cut short, or gone, is named
        whole = during.path.read_bytes()
        during.path.write_bytes(whole[:-20])
        with pytest.raises(Failure, match=f"has its records in "
                           f"{during.path}: .* ends before its end line"):
            plugin_results.read(config.plugin_results(tmp))
        during.path.unlink()
        with pytest.raises(Failure, match=f"the plugin made no "
                           f"{during.path}$"):
            plugin_results.read(config.plugin_results(tmp))


def test_a_results_file_has_the_records_after_the_streams(ctx, board):
    """As at a snapshot, or once a write to the stream failed: the results
    file says how many of the first records the stream holds, then has
    the rest; the stream may go on past them, without its end yet."""
    target = Target(ctx.firmware(board, TASKS), board)
    config = RunConfig(target, profile=EXACT)
    with tempfile.TemporaryDirectory() as tmp:
        during = DuringRun(target, Path(tmp), chunk=7).start()
        try:
            exited = boot.launch(config, ctx.qemu, tmp, during=during)
        finally:
            during.exited.set()
        whole = boot.collect(config, exited, ctx.qemu, tmp, 0, during).plugin
        results = config.plugin_results(tmp)
        data, stream = results.read_bytes(), during.path.read_bytes()
        # the stream as it was at its middle flush
        ends = [m.end() for m in re.finditer(rb"\nthrough \d+\n", stream)]
        during.path.write_bytes(stream[:ends[len(ends) // 2]])
        held = {tag: [] for tag in TAGS}
        packed = plugin_stream.PackedRecords()  # (as the thread keeps them)
        with pytest.raises(plugin_stream.CutShort):
            for kind, records in plugin_stream.sections(during.path,
                                                        during.exited):
                if kind in held:
                    held[kind] += records
                if kind == "probe":
                    packed.add(records)
        made = {"switch": whole.switches, "probe": whole.probes,
                "store": whole.stores}
        for tag, records in made.items():
            first = len(held[tag])
            assert 0 < first < len(records) and \
                records[:first] == held[tag], tag
            fields = re.search(rb"records %s \d+ ([qQ]+)\n" % tag.encode(),
                               stream)[1]
            rest = b"".join(struct.pack("<" + fields.decode(), *r)
                            for r in records[first:])
            data = data.replace(
                b"records-in-stream %s %d\n" % (tag.encode(), len(records)),
                b"records-in-stream %s %d\nrecords %s %d %s\n%s\n" % (
                    tag.encode(), first, tag.encode(),
                    len(records) - first, fields, rest))
        results.write_bytes(data)
        # read from the file; given all of them; given the stream's
        for streamed in (None, during.records, dict(held, probe=packed)):
            again = plugin_results.read(results, streamed)
            assert (again.switches, again.probes, again.stores) == \
                (whole.switches, whole.probes, whole.stores)


class _Unwritable:
    """A stream no write to succeeds on"""

    def plugin_options(self):
        return ["stream=/dev/full", "stream-chunk=7"]


def test_a_stream_that_cannot_be_written_leaves_its_records_in_the_results(
        ctx, board):
    target = Target(ctx.firmware(board, TASKS), board)
    config = RunConfig(target, profile=EXACT)
    with tempfile.TemporaryDirectory() as tmp:
        alone = boot.collect(config, boot.launch(config, ctx.qemu, tmp),
                             ctx.qemu, tmp, 0).plugin
        exited = boot.launch(config, ctx.qemu, tmp, during=_Unwritable())
        result = boot.collect(config, exited, ctx.qemu, tmp, 0)
        data = config.plugin_results(tmp).read_bytes()
    assert exited.first_error == \
        "perfctr: cannot write /dev/full: No space left on device; the " \
        "records not in it are kept", exited.first_error
    assert b"records-in-stream" not in data and result.plugin_error is None
    got = result.plugin
    assert (got.switches, got.probes, got.stores) == \
        (alone.switches, alone.probes, alone.stores) and alone.probes


def analyses(profile, target):
    """What the text, --json and the timeline show of the instances and
    kernel objects, and the timeline's context slices"""
    found = instances.of(profile, target)
    objects = kernel_objects.of(profile, target)
    load = cpu_load.of(profile)
    allocated = heap.of(profile, target)
    return (heap.document(allocated, profile, target),
            contexts.trace_events(profile, target, 3),
            cpu_load.rows(load, profile, target), load.busy,
            instances.rows(found, profile, target),
            instances.trace_events(found, profile, target, 4),
            kernel_objects.document(objects, profile, target),
            kernel_objects.trace_events(objects, profile, target, 5),
            objects.waits)


def test_the_analyses_made_as_it_runs_are_those_made_after_it(ctx, board):
    target = Target(ctx.firmware(board, TASKS), board)
    for chunk, slices in ((1, True), (7, False), (None, True)):
        result, _, again, _ = run(ctx, board, chunk, slices)
        assert result.analysed_during_run, result.during_run_failure
        during = analyses(result.plugin, target)
        after = analyses(again, target)
        assert during == after, chunk
    allocated, slices, load, _, rows, _, objects, _, waits = after
    assert len(slices) > 100 and load["contexts"]
    # what they hold: instances of each task, objects, named waits
    assert all(t["instances"] >= 1 for t in rows["tasks"]
               if t["name"] != "idle"), rows
    assert objects["objects"] and waits
    # idle's request at each tick
    assert [(r["name"], r["held_bytes"]) for r in allocated["by_context"]] \
        == [("idle", 0)] and allocated["allocations"] >= 20, allocated
    assert any(t["blocked"] and "on" in t["blocked"][0]
               for t in rows["tasks"]), rows


def test_a_stream_cut_short_or_restarted_leaves_them_to_after(ctx, board):
    target = Target(ctx.firmware(board, TASKS), board)
    result, _, again, whole = run(ctx, board, chunk=7)
    with tempfile.TemporaryDirectory() as tmp:
        during = DuringRun(target, Path(tmp))
        during.path.write_bytes(whole[:len(whole) * 2 // 3])
        during.exited.set()
        during.start().finish(again)
        assert during.failed.startswith("CutShort: ") and \
            "ends before its end line" in during.failed, during.failed
    # not given: made from the results file, the same
    assert analyses(again, target) == analyses(result.plugin, target)
    # start=: the plugin ends the stream where the profile restarts
    result, stream, _, _ = run(ctx, board, start_at="main")
    assert stream[-1] == ("restart", None)
    assert not result.analysed_during_run
    assert result.during_run_failure == "the profile restarted (start=)"
    assert instances.of(result.plugin, target) is not None
    # run() streams only where the stream can be used
    config = RunConfig(target, profile=EXACT)
    assert config.analysed_during_run
    assert not RunConfig(target, profile=EXACT,
                         start_at="main").analysed_during_run


def test_the_plugin_refuses_a_stream_it_cannot_write(ctx, board):
    plugin = str(ctx.qemu.plugin)
    for options, message in (
            ("stream=s.bin", "perfctr: stream= needs profile= and one "
                             "vCPU"),
            ("profile=exact,out=r.txt,stream=s.bin,stream-chunk=0",
             "give a count of records, 1 or more"),
            ("profile=exact,out=r.txt,stream=no/such/dir/s.bin",
             "perfctr: cannot write no/such/dir/s.bin: No such file or "
             "directory")):
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.run(
                headless(ctx.qemu, board) + ["-plugin", f"{plugin},{options}"],
                cwd=tmp,
                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                timeout=60)
        assert proc.returncode != 0 and message in proc.stderr, proc.stderr
