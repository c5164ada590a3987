# SPDX-License-Identifier: MIT
"""A test session cut short by a signal, as a CI runner's time limit
ends a job (SIGTERM to its process group) or a closed terminal ends it
(SIGHUP): pytest stops at once, as on Ctrl-C (SIGINT, which it handles
itself: noted the same), every fixture's teardown runs (each dut's QEMU
ends, writing what it counted) and the session's results are written,
saying which signal ended it and in which tests.  pytest exits 128 +
the signal's number, as a shell says a process ended by it.  Only
signals left at their default are taken; one more while the session
winds down is ignored, so that its results are written whole.

A signal while a dut's QEMU starts or during a test's teardown (the
dut writing its outputs: a test's end, where a CI job's limit often
falls) waits for that, DEFER_LIMIT at most (Ctrl-C too): the outputs
are whole, and a test whose outputs were being written is reported as
it ended (under pytest-xdist, the controller takes the reports its
workers send as they wind down, and passes SIGTERM or SIGHUP on to
them: one sent to it alone left them running their tests).

A session that has booted no firmware (the plugin is loaded in every
pytest session of an environment that installs the package) is left
as it would be without it: a signal ends it as by default, and Ctrl-C
writes no results."""

import os
import signal
import threading
from contextlib import contextmanager

import pytest

SIGNALS = (signal.SIGTERM, signal.SIGHUP)
# How long a signal waits for what defers it (a teardown that hangs):
# then it is taken wherever the session is
DEFER_LIMIT = 10.0


class Ending:
    """The session's signals, taken from install() to uninstall() (a
    pytest plugin of every process of the session)."""

    def __init__(self):
        self.signal = None      # the one that cut the session short
        # The tests that run now (under xdist, several): once a signal
        # came, those it cut short (they never end)
        self.running = set()
        # The session boots firmware: this process's dut, a firmware
        # test's report (on xdist's controller), or --firmware given
        self.booted = False
        self._winding_down = False
        self._taken = {}
        self._deferring = 0
        self._deferred = None   # the signal that came meanwhile
        self._overdue = None    # a Timer: DEFER_LIMIT, then it is taken
        self._late = False      # it has waited DEFER_LIMIT

    def install(self):
        try:
            for signum in SIGNALS:
                if signal.getsignal(signum) is signal.SIG_DFL:
                    self._taken[signum] = signal.signal(signum,
                                                        self._cut_short)
        except ValueError:
            pass                # not the main thread: no handler of ours

    def uninstall(self):
        for signum, handler in self._taken.items():
            signal.signal(signum, handler)
        self._taken = {}

    @contextmanager
    def deferred(self):
        """A signal that comes in here is only noted: take_deferred()
        takes it.  Ctrl-C too: pytest's KeyboardInterrupt, raised
        wherever the test was, would cut the deferred work short."""
        ctrl_c = self._deferring == 0 and self.booted and \
            self._handles_sigint(signal.default_int_handler, self._cut_short)
        self._deferring += 1
        try:
            yield
        finally:
            self._deferring -= 1
            if ctrl_c:
                self._handles_sigint(self._cut_short,
                                     signal.default_int_handler)

    @staticmethod
    def _handles_sigint(now, then):
        """SIGINT's handler made then if it is now; whether it was."""
        try:
            if signal.getsignal(signal.SIGINT) == now:
                signal.signal(signal.SIGINT, then)
                return True
        except ValueError:
            pass                # not the main thread
        return False

    def take_deferred(self):
        """Cut the session short now if a signal came while deferred()."""
        if self._deferred is not None and not self._deferring:
            signum, self._deferred = self._deferred, None
            self._overdue.cancel()
            self._cut_short(signum, None)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self):
        """A test's teardown runs whole: pytest.exit between two of its
        steps dropped the finalizer it had taken off its list, and a
        dut's then never wrote the test's outputs."""
        with self.deferred():
            yield

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self):
        """A signal that came while a test's outputs were written: taken
        once the test is reported (after the Collector has seen it end:
        it is not one the signal cut short)."""
        self.take_deferred()

    def wind_down(self):
        """From here a signal changes nothing: the results are written."""
        self._winding_down = True

    def cut_short(self):
        """{"signal": name, "tests": [node id...]} if a signal cut the
        session short, or None (results.json's "cut_short")."""
        if self.signal is None:
            return None
        return {"signal": self.signal, "tests": sorted(self.running)}

    def interrupted(self):
        """pytest's own KeyboardInterrupt (Ctrl-C, SIGINT) ends the
        session: noted as a signal of ours would be."""
        if not self.signal and self.booted:
            self.signal = signal.SIGINT.name

    def _too_late(self, signum):
        self._late = True
        os.kill(os.getpid(), signum)

    def _cut_short(self, signum, frame):
        if not self.booted:
            # No firmware in this session: the signal as if untaken
            signal.signal(signum, self._taken.pop(signum))
            os.kill(os.getpid(), signum)
            return
        if self._winding_down or self.signal:
            return
        if self._deferring and not self._late:
            if self._deferred is None:
                self._deferred = signum
                self._overdue = threading.Timer(DEFER_LIMIT, self._too_late,
                                                (signum,))
                self._overdue.daemon = True
                self._overdue.start()
            return
        self._deferred = None
        if signum == signal.SIGINT:
            raise KeyboardInterrupt     # (pytest's own, as by default)
        self.signal = signal.Signals(signum).name
        pytest.exit(f"cut short by {self.signal}", returncode=128 + signum)
