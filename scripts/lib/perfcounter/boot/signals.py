# SPDX-License-Identifier: MIT
"""SIGTERM, SIGINT and SIGHUP to the process that runs QEMU (a test
runner ending its emulator, Ctrl-C, a closed terminal): a run in
progress ends as the host-time timeout ends it, QEMU stopped in order
and every output written, marked as cut short; anywhere else the
process unwinds (SignalExit), its temporary files removed.  Either way
it exits with 128 + the signal's number, as a shell says it."""

import signal
import threading

TERMINATING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class SignalExit(Exception):
    """A terminating signal arrived while no run was in progress."""

    def __init__(self, signum):
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum


class Signals:
    """The first terminating signal the process got.

        signals = Signals().install()
        exited = qemu_process.launch(cmd, board, signals=signals)
    """

    def __init__(self):
        self.signum = None
        self.wake = threading.Event()   # set on a signal
        self.running = False            # a launch() is waiting on wake

    def install(self):
        for signum in TERMINATING:
            signal.signal(signum, self._handle)
        return self

    @property
    def name(self):
        return signal.Signals(self.signum).name if self.signum else None

    def _handle(self, signum, frame):
        if self.signum is None:
            self.signum = signum
        self.wake.set()
        if not self.running:
            raise SignalExit(signum)
