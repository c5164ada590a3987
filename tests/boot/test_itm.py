# SPDX-License-Identifier: MIT
"""printf over SWO: the Cortex-M ITM's stimulus ports on the MPS2
boards (hw/misc/armv7m_itm.c; tests/firmware/itm.c), their bytes in the
run's output in the guest's order, only once TRCENA, ITMENA and the
port's TER bit are set."""

import subprocess

import pytest

from perfcounter import boards
from perfcounter.paths import REPO

IMAGE = "tests/firmware/itm.elf"


@pytest.mark.parametrize("board_name", [
    name for name, b in boards.BOARDS.items() if b.dwt])
def test_stimulus_port_writes_reach_the_output(ctx, board_name):
    image = ctx.firmware(boards.get(board_name), IMAGE)
    proc = subprocess.run(
        [str(REPO / "scripts" / "profile"), "--board", board_name, image],
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # bytes, 32- and 16-bit writes, before the guest's semihosting
    # output; nothing of the writes made while disabled ("x", "y")
    assert proc.stdout.startswith("itm: hello word!\nready_before 0\n"
                                  "done\n"), proc.stdout
