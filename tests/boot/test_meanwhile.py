# SPDX-License-Identifier: MIT
"""outputs.meanwhile: work begun on a thread of this process while the
caller goes on; what the work raised reaches the caller."""

import sys
import threading

import pytest

from perfcounter.errors import Failure
from perfcounter.outputs import meanwhile


def fail_with(err):
    raise err


def test_the_work_runs_on_a_thread_of_its_own_while_this_one_goes_on():
    started, go_on, ran_on = threading.Event(), threading.Event(), []

    def work(label):
        ran_on.append((label, threading.get_ident()))
        started.set()
        go_on.wait(10)

    interval = sys.getswitchinterval()
    done = meanwhile.begin(work, "read ahead")
    assert started.wait(10)     # (begun at once, without a join)
    assert ran_on == [("read ahead", ran_on[0][1])] and \
        ran_on[0][1] != threading.get_ident()
    # Python hands its lock over often meanwhile, and as before after
    assert sys.getswitchinterval() == \
        pytest.approx(meanwhile.Threaded.SWITCH_INTERVAL)
    go_on.set()
    done.result()
    done.result()       # (again: already joined)
    assert sys.getswitchinterval() == interval


def test_what_the_work_raised_is_raised_here():
    with pytest.raises(Failure, match="^no room on the disk$"):
        meanwhile.begin(fail_with, Failure("no room on the disk")).result()
    done = meanwhile.begin(fail_with, ValueError("a bug"))
    done.join()         # (waits, raises nothing)
    with pytest.raises(ValueError, match="a bug"):
        done.result()
