# SPDX-License-Identifier: MIT
"""An output written while the others are (outputs.write: the timeline,
most of a long run's results)."""

import sys
import threading


def begin(what, work, *args):
    """work(*args), begun at once apart from this thread (what: what it
    does, for a message); result() waits for it and raises what it
    raised, join() only waits."""
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
