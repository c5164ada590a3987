# SPDX-License-Identifier: MIT
"""Snapshots and migration keep every counter, flag and configuration.

tests/firmware/migrate.c runs sections through a long computation. The
test saves the running VM to a file with QMP's migrate, mid-way, then
restores it in a new QEMU with -incoming: the counts the guest prints
at the end must be byte for byte those of an uninterrupted run.  On
raspi1ap they include the ARM1176 performance monitor's counts.
"""

import json
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import boot
from bootlib import expect_exit, run_image

PER_BOARD = True
IMAGE = "tests/firmware/migrate.elf"


class Qmp:
    def __init__(self, path):
        deadline = time.monotonic() + 10
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        self.reader = self.sock.makefile("r")
        self.reader.readline()              # greeting
        self.execute("qmp_capabilities")

    def execute(self, command, **arguments):
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = json.loads(self.reader.readline())
            if "event" in reply:
                continue
            assert "error" not in reply, f"{command}: {reply['error']}"
            return reply["return"]


def test_migration_keeps_counts_exact(ctx, board):
    reference = run_image(ctx, board, IMAGE)
    expect_exit(reference)
    image = ctx.firmware(board, IMAGE)
    with tempfile.TemporaryDirectory() as tmp:
        sock, sock2 = Path(tmp) / "qmp.sock", Path(tmp) / "qmp2.sock"
        state = Path(tmp) / "vm.state"
        cmd = boot.command(ctx.qemu, board, image)
        first = subprocess.Popen(
            cmd + ["-qmp", f"unix:{sock},server=on,wait=off"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        try:
            qmp = Qmp(sock)
            # Let the guest get well into its sections
            assert first.stdout.readline() == "started\n"
            time.sleep(0.3)
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
        assert "counter0" not in before, (
            "the guest finished before it could be saved:\n" + before)
        # The VM was saved stopped, so it is restored stopped: resume it
        second = subprocess.Popen(
            cmd + ["-incoming", f"file:{state}",
                   "-qmp", f"unix:{sock2},server=on,wait=off"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        try:
            qmp = Qmp(sock2)
            while qmp.execute("query-status")["status"] == "inmigrate":
                time.sleep(0.02)
            qmp.execute("cont")
            after, errors = second.communicate(timeout=60)
        finally:
            second.kill()
    assert second.returncode == 0, errors
    if board.name == "raspi1ap":
        assert "arm11_pmu ccnt=" in reference.output, reference.output
    assert before + after == reference.output, (
        f"uninterrupted:\n{reference.output}\n"
        f"saved and restored:\n{before}{after}")
