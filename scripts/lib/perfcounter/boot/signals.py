# SPDX-License-Identifier: MIT
"""SIGTERM, SIGINT and SIGHUP to the process that runs QEMU (a test
runner ending its emulator, Ctrl-C, a closed terminal): a run in
progress ends as the host-time timeout ends it, QEMU stopped in order
and every output written, marked as cut short; anywhere else the
process unwinds (SignalExit), its temporary files removed.  Either way
it exits with 128 + the signal's number, as a shell says it.  The
tools the outputs need run apart from the signals (perfcounter.apart)."""

import signal
import threading

TERMINATING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class SignalExit(Exception):
    """A terminating signal arrived while no run was in progress."""

    def __init__(self, signum):
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum


class StopRequest:
    """A request to end a run before the guest does, for launch() to
    wait on: reason says who asked (None: nobody yet), exit_code what the
    run then exits with."""

    def __init__(self):
        self.reason = None
        self.exit_code = 0
        self.wake = threading.Event()   # set when the request is made
        # a launch() began: from then on a signal stops its run, or
        # marks the run that ended, whose outputs are still written
        self.running = False

    def request(self, reason, exit_code=0):
        if self.reason is None:
            self.reason, self.exit_code = reason, exit_code
        self.wake.set()


class Signals(StopRequest):
    """The first terminating signal the process got.

        signals = Signals().install()
        exited = qemu_process.launch(cmd, board, stop=signals)
        signals.defer()         # the run has ended: write its outputs

    After defer(), a signal only marks the exit status: the outputs of
    the run that ended are all written (a runner that sends SIGTERM as
    the guest exits loses none of them; the tools they need run
    apart: perfcounter.apart).
    """

    deferred = False

    def defer(self):
        self.deferred = True

    def install(self):
        for signum in TERMINATING:
            signal.signal(signum, self._handle)
        return self

    def _handle(self, signum, frame):
        self.request(signal.Signals(signum).name, 128 + signum)
        if not self.running and not self.deferred:
            raise SignalExit(signum)
