# SPDX-License-Identifier: MIT
"""The suite's fixtures: the QEMU build (ctx.qemu), each board's
firmware (ctx.firmware), and the board matrix: a module that sets
PER_BOARD = True runs each test once per board (its id names the
board: -k mps2-an385), the others on the default board."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "scripts" / "lib"), str(REPO / "tests" / "boot")]

from perfcounter import boards  # noqa: E402
from perfcounter.build import firmware  # noqa: E402
from perfcounter.build import qemu  # noqa: E402

FUZZ_SECONDS = 30


def pytest_addoption(parser):
    parser.addoption("--board", action="append", choices=list(boards.BOARDS),
                     help="run the per-board tests on this board only "
                     "(repeatable; default: every board)")
    parser.addoption("--fuzz-seconds", type=int, default=FUZZ_SECONDS,
                     metavar="N", help="fuzz the device for N seconds "
                     "(default: %(default)s; 0: no fuzzing)")


def pytest_generate_tests(metafunc):
    if "board" not in metafunc.fixturenames or \
            not getattr(metafunc.module, "PER_BOARD", False):
        return
    names = metafunc.config.getoption("board") or list(boards.BOARDS)
    metafunc.definition.add_marker(pytest.mark.per_board)
    metafunc.parametrize("board", [boards.get(n) for n in names],
                         ids=names)


@pytest.fixture
def board():
    """The board of a test that does not run on every board."""
    return boards.get(boards.DEFAULT_BOARD)


class Context:
    """What boot tests get: the QEMU build, per-board firmware, and a
    cache for what several tests of a module read from one boot."""

    def __init__(self, built):
        self.qemu = built
        self._builddirs = {}
        self.cache = {}

    def firmware(self, board, relpath):
        if board.name not in self._builddirs:
            self._builddirs[board.name] = firmware.build(board)
        return firmware.image(self._builddirs[board.name], relpath)


@pytest.fixture(scope="session")
def built():
    """QEMU with the device, its qtests too (built once, cached)."""
    return qemu.ensure_built(qtests=True)


@pytest.fixture(scope="session")
def ctx(built):
    return Context(built)
