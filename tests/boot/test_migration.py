# SPDX-License-Identifier: MIT
"""Snapshots and migration keep every counter, flag and configuration.

tests/firmware/migrate.c runs sections through a long computation. The
test saves the running VM to a file with QMP's migrate, mid-way, then
restores it in a new QEMU with -incoming: the counts the guest prints
at the end must be byte for byte those of an uninterrupted run.  On
raspi1ap they include the ARM1176 performance monitor's counts.
tests/firmware/migrate_events.c does the same with the events state:
event counts, an armed threshold, a pending overflow flag.
"""

import subprocess
import tempfile
import time
from pathlib import Path

from bootlib import (assert_counts, c_defines, command, expect_exit,
                     load_size, parse_records, run_image)
from perfcounter.boot.qmp import connect

PER_BOARD = True
IMAGE = "tests/firmware/migrate.elf"
EVENTS_IMAGE = "tests/firmware/migrate_events.elf"
PERFCTR_FLAG_OVF = 2


def saved_and_restored(ctx, board, image_path, marker):
    """(uninterrupted output, output saved mid-run and restored): the
    guest prints "started", then spins long enough to be saved in QEMU
    and restored in another, then prints lines with marker."""
    reference = run_image(ctx, board, image_path)
    expect_exit(reference)
    image = ctx.firmware(board, image_path)
    with tempfile.TemporaryDirectory() as tmp:
        sock, sock2 = Path(tmp) / "qmp.sock", Path(tmp) / "qmp2.sock"
        state = Path(tmp) / "vm.state"
        cmd = command(ctx, board, image, tmp)
        first = subprocess.Popen(
            cmd + ["-qmp", f"unix:{sock},server=on,wait=off"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        try:
            with connect(sock, wait=10) as qmp:
                # Into its spin (0.6 s or more on this fast a host)
                assert first.stdout.readline() == "started\n"
                time.sleep(0.1)
                qmp.execute("stop")
                qmp.execute("migrate", uri=f"file:{state}")
                while True:
                    status = qmp.execute("query-migrate").get("status")
                    if status == "completed":
                        break
                    assert status != "failed", "migration failed"
                    time.sleep(0.02)
                qmp.execute("quit")
            before = "started\n" + first.stdout.read()
            first.wait(timeout=10)
        finally:
            first.kill()
        assert marker not in before, (
            "the guest finished before it could be saved:\n" + before)
        # The VM was saved stopped, so it is restored stopped: resume it
        second = subprocess.Popen(
            cmd + ["-incoming", f"file:{state}",
                   "-qmp", f"unix:{sock2},server=on,wait=off"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        try:
            with connect(sock2, wait=10) as qmp:
                while qmp.execute("query-status")["status"] == "inmigrate":
                    time.sleep(0.02)
                qmp.execute("cont")
            after, errors = second.communicate(timeout=60)
        finally:
            second.kill()
    assert second.returncode == 0, errors
    return reference.output, before + after


def test_migration_keeps_counts_exact(ctx, board):
    reference, restored = saved_and_restored(ctx, board, IMAGE, "counter0")
    if board.name == "raspi1ap":
        assert "arm11_pmu ccnt=" in reference, reference
    assert restored == reference, (
        f"uninterrupted:\n{reference}\nsaved and restored:\n{restored}")


def test_migration_keeps_events_thresholds_and_flags(ctx, board):
    """Saved with section 1's loads counted and its threshold armed,
    section 2's overflow flag pending (the line high, not yet enabled),
    sections 2 and 3 counting instructions and loads: the flags are
    kept, the threshold interrupts at the same load, and every count is
    the uninterrupted run's."""
    d = c_defines("tests/firmware/migrate_events.c")
    reference, restored = saved_and_restored(ctx, board, EVENTS_IMAGE,
                                             "migrate_events")
    assert restored == reference, (
        f"uninterrupted:\n{reference}\nsaved and restored:\n{restored}")
    rec = parse_records(restored)["migrate_events"][0]
    assert_counts(rec, loads_before=2 * d["LOOPS"], status_irq=1, flags1=0,
                  flags2=PERFCTR_FLAG_OVF, overflows=1, taken=1,
                  offset=d["THRESHOLD_K"] * load_size(board))
    # Preset short of the wrap before the spin: the high word is 1
    assert rec["instructions2"] >> 32 == 1, restored
    # Loads counted across the save: the loop's at least
    assert rec["loads3"] >= d["SPIN_LOADS"], restored
