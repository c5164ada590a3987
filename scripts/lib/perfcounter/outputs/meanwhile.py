# SPDX-License-Identifier: MIT
"""An output written while the others are (outputs.write: the timeline,
most of a long run's results).

Python runs one thread at a time: on a thread of its own, the timeline's
text and the profile's outputs take turns.  A child process forked from
this one writes it beside them instead, on another core, reading the
run's results as they are (a page is copied only when one side writes
to it): the full FreeRTOS demo's 20 s run, its results 1.65 -> 1.34 s.
A process that runs other threads (a test framework's, an application's)
gets a thread: a lock one of them held at the fork would stay held in
the child.  So does one on a machine short of memory: the child copies
each page it touches, up to all of them (that run's child: 754 MB of
its own beside the parent's 1,164 MB; on a thread the process peaked at
1,235 MB).
"""

import gc
import os
import pickle
import sys
import threading
import traceback

from perfcounter.errors import Failure


def begin(what, work, *args):
    """work(*args), begun at once apart from this thread (what: what it
    does, for a message); result() waits for it and raises what it
    raised, join() only waits."""
    if hasattr(os, "fork") and threading.active_count() == 1 and \
            _memory_to_copy():
        try:
            return Forked(what, work, args)
        except OSError:
            pass            # (no memory or process left for it)
    return Threaded(work, args)


def _memory_to_copy():
    """Whether the machine has as much memory available as this process
    uses (Linux's own figures; False where it has none)"""
    try:
        with open("/proc/self/statm") as f:
            resident = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 > resident
    except (OSError, ValueError, IndexError):
        pass
    return False


class Forked:
    """work(*args) in a child process"""

    def __init__(self, what, work, args):
        self.what = what
        self._raised = None
        self._ended = False
        read, write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()      # or the child's copy would write it again
        # The collector would walk every object in the child: each page
        # copied for nothing (objects a caller froze itself stay so)
        froze = gc.get_freeze_count() == 0
        if froze:
            gc.freeze()
        try:
            self.pid = os.fork()
        except OSError:
            if froze:
                gc.unfreeze()
            os.close(read)
            os.close(write)
            raise
        if self.pid == 0:
            os.close(read)
            _child(work, args, write)       # (never returns)
        if froze:
            gc.unfreeze()
        os.close(write)
        self._read = read

    def join(self):
        if self._ended:
            return
        self._ended = True
        with os.fdopen(self._read, "rb") as pipe:
            told = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        if told:
            self._raised = _unpickled(self.what, told)
        elif status:
            code = os.waitstatus_to_exitcode(status)
            self._raised = Failure(
                f"{self.what}: its process " +
                (f"was killed by signal {-code}" if code < 0 else
                 f"exited with status {code}"))

    def result(self):
        self.join()
        if self._raised is not None:
            raise self._raised


def _child(work, args, report):
    """work(*args) in the forked child, then its end: what it raised
    goes to the parent through report (a pipe), pickled."""
    try:
        with os.fdopen(report, "wb") as pipe:
            try:
                work(*args)
            except BaseException as err:    # (any: the parent raises it)
                told = (err, traceback.format_exc())
                try:
                    pipe.write(pickle.dumps(told))
                except Exception:
                    pipe.write(pickle.dumps((None, told[1])))
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    finally:
        os._exit(0)


def _unpickled(what, told):
    """The exception the child raised, its traceback as a note (the
    parent's own says only where it waited)"""
    try:
        err, where = pickle.loads(told)
    except Exception as why:
        return Failure(f"{what}: its process failed and what it said "
                       f"could not be read ({why})")
    if err is None:
        return Failure(f"{what} failed: {where.strip().splitlines()[-1]}")
    if not isinstance(err, Failure):
        err.add_note(f"In the process {what}:\n{where}")
    return err


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
