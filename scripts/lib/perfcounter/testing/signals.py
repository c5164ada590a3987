# SPDX-License-Identifier: MIT
"""A test session cut short by a signal, as a CI runner's time limit
ends a job (SIGTERM to its process group) or a closed terminal ends it
(SIGHUP): pytest stops at once, as on Ctrl-C (SIGINT, which it handles
itself: noted the same), every fixture's teardown runs (each dut's QEMU ends, writing what it
counted) and the session's results are written, saying which signal
ended it and in which test.  pytest exits 128 + the signal's number, as
a shell says a process ended by it.  Only signals left at their default
are taken; one more while the session winds down is ignored, so that
its results are written whole.  A session that has booted no firmware
(the plugin is loaded in every pytest session of an environment that
installs the package) is left as it would be without it: a signal
ends it as by default, and Ctrl-C writes no results."""

import os
import signal

import pytest

SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Ending:
    """The session's signals, taken from install() to uninstall()."""

    def __init__(self):
        self.signal = None      # the one that cut the session short
        self.tests = ()         # the tests it cut short
        self.running = set()    # the tests that run now (under xdist, several)
        # The session boots firmware: this process's dut, a firmware
        # test's report (on xdist's controller), or --firmware given
        self.booted = False
        self._winding_down = False
        self._taken = {}

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

    def wind_down(self):
        """From here a signal changes nothing: the results are written."""
        self._winding_down = True

    def cut_short(self):
        """{"signal": name, "tests": [node id...]} if a signal cut the
        session short, or None (results.json's "cut_short")."""
        if self.signal is None:
            return None
        return {"signal": self.signal, "tests": list(self.tests)}

    def interrupted(self):
        """pytest's own KeyboardInterrupt (Ctrl-C, SIGINT) ends the
        session: noted as a signal of ours would be."""
        if not self.signal and self.booted:
            self._note(signal.SIGINT)

    def _note(self, signum):
        self.signal = signal.Signals(signum).name
        self.tests = tuple(sorted(self.running))

    def _cut_short(self, signum, frame):
        if not self.booted:
            # No firmware in this session: the signal as if untaken
            signal.signal(signum, self._taken.pop(signum))
            os.kill(os.getpid(), signum)
            return
        if self._winding_down or self.signal:
            return
        self._note(signum)
        pytest.exit(f"cut short by {self.signal}", returncode=128 + signum)
