# SPDX-License-Identifier: MIT
"""An output written while the others are (outputs.write: the timeline,
most of a long run's results), on a thread of its own.

Python runs one thread at a time, so the timeline's text and the
profile's outputs take turns.  A child process forked to write it on
the other core was tried (2026-11-27 to 28) and given up: each page
either process then writes is copied, and a reference count is a
write, so both copy most of a long run's heap.  On a VM where a page
fault costs 12 us, the full FreeRTOS demo's 20 s run with every output
wrote its outputs in 4.49..5.28 s with the child against 3.17..3.39 s
on a thread; a child also held up to as much memory again as the
parent (docs/performance.md).
"""

import sys
import threading


def begin(work, *args):
    """work(*args), begun at once apart from this thread; result() waits
    for it and raises what it raised, join() only waits."""
    return Threaded(work, args)


class Threaded:
    """work(*args) on a thread of its own"""

    # how often Python hands its lock to another thread meanwhile (5 ms
    # by default): each file this one opens or process it starts waited
    # that long for the lock back (--per-task's 102 gmon.out files took
    # 1 s instead of 0.07 s to write)
    SWITCH_INTERVAL = 0.0001

    def __init__(self, work, args):
        self._raised = None
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(self.SWITCH_INTERVAL)
        self._thread = threading.Thread(
            target=self._run, args=(work, args), daemon=True,
            name=work.__qualname__)
        self._thread.start()

    def _run(self, work, args):
        try:
            work(*args)
        except BaseException as err:
            self._raised = err
        finally:
            sys.setswitchinterval(self._interval)

    def join(self):
        self._thread.join()

    def result(self):
        self.join()
        if self._raised is not None:
            raise self._raised
