# SPDX-License-Identifier: MIT
"""QEMU's checkpatch.pl on every C file of qemu-device/."""

import subprocess

import pytest

from perfcounter.build import qemu
from perfcounter.paths import REPO

SOURCES = sorted(qemu.DEVICE_DIR.rglob("*.[ch]"))


@pytest.mark.parametrize("path", SOURCES,
                         ids=[str(p.relative_to(REPO)) for p in SOURCES])
def test_checkpatch(built, path):
    proc = subprocess.run(["perl", str(built.src / "scripts" /
                                       "checkpatch.pl"),
                           "--no-tree", "-f", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]
