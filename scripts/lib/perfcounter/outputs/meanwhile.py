# SPDX-License-Identifier: MIT
"""Work begun on a thread of its own while the caller goes on: what a
test's outputs will read of its image, read while the test runs (the
pytest plugin).

Not the timeline any more: beside the other outputs, the two took turns
for Python's lock, and the 20 s run of FreeRTOS's full demo wrote its
outputs in 1.55 to 1.87 s against 1.25 to 1.48 s one after the other
(docs/performance.md); a child forked to write it copied most of the
heap, each page a fault of 12 us on a VM.
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
    # by default): each time this one waits for the guest, a file or a
    # process, it waited that long for the lock back (--per-task's 102
    # gmon.out files took 1 s instead of 0.07 s to write)
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
