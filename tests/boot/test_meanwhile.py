# SPDX-License-Identifier: MIT
"""outputs.meanwhile: the timeline written beside the other outputs, in
a forked process when nothing else runs threads and the memory allows,
on a thread otherwise; what the work raised, or how its process died,
reaches the caller."""

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from perfcounter.errors import Failure
from perfcounter.outputs import meanwhile
from perfcounter.paths import REPO


def write_pid(path):
    Path(path).write_text(str(os.getpid()))


def fail_with(err):
    raise err


def killed():
    os.kill(os.getpid(), signal.SIGKILL)


class Unpicklable(Exception):
    def __init__(self):
        super().__init__("cannot cross")
        self.callback = lambda: None


def test_forked_work_runs_in_another_process(tmp_path):
    done = meanwhile.Forked("writing pid", write_pid, (tmp_path / "pid",))
    done.result()
    assert int((tmp_path / "pid").read_text()) not in (os.getpid(), 0)
    done.result()       # (again: already joined)


def test_what_forked_work_raised_is_raised_here():
    with pytest.raises(Failure, match="^no room on the disk$"):
        meanwhile.Forked("writing x", fail_with,
                         (Failure("no room on the disk"),)).result()
    with pytest.raises(ValueError, match="a bug") as raised:
        meanwhile.Forked("writing x", fail_with,
                         (ValueError("a bug"),)).result()
    # where it was raised, in the child
    assert "In the process writing x:" in raised.value.__notes__[0]
    assert "fail_with" in raised.value.__notes__[0]


def test_forked_work_that_cannot_say_what_failed_still_fails():
    with pytest.raises(Failure, match="^writing x failed: .*Unpicklable: "
                                      "cannot cross$"):
        meanwhile.Forked("writing x", fail_with, (Unpicklable(),)).result()


def test_a_forked_process_killed_is_a_failure():
    with pytest.raises(Failure, match="^writing t.json: its process was "
                                      "killed by signal 9$"):
        meanwhile.Forked("writing t.json", killed, ()).result()


def test_a_process_with_other_threads_gets_a_thread(tmp_path):
    # A lock another thread holds at a fork stays held in the child:
    # this pytest worker runs threads of its own, so start one to be sure
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        done = meanwhile.begin("writing pid", write_pid, tmp_path / "pid")
        assert isinstance(done, meanwhile.Threaded)
        done.result()
    finally:
        stop.set()
        other.join()
    assert int((tmp_path / "pid").read_text()) == os.getpid()
    with pytest.raises(ValueError, match="a bug"):
        meanwhile.begin("writing x", fail_with, ValueError("a bug")).result()


@pytest.mark.parametrize("memory, kind", [("enough", "Forked"),
                                          ("short", "Threaded")])
def test_a_process_alone_forks_if_the_memory_allows(memory, kind):
    # (a child copies each page it touches: up to all of them)
    code = ("import os\n"
            "from perfcounter.outputs import meanwhile\n"
            "assert meanwhile._memory_to_copy()\n"
            + ("meanwhile._memory_to_copy = lambda: False\n"
               if memory == "short" else "") +
            "done = meanwhile.begin('x', os.getpid)\n"
            "done.result()\n"
            "print(type(done).__name__)\n")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib")))
    assert out.stdout == kind + "\n", out.stdout + out.stderr
