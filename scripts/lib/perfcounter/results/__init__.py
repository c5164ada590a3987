# SPDX-License-Identifier: MIT
"""The result of a run: how it ended, what the guest printed, every
counter core's readout and everything the plugin found.  Every output
writer (perfcounter.outputs) takes a Result."""

from dataclasses import dataclass, field

from perfcounter.results.plugin_results import Outcome


@dataclass
class Result:
    """One run of a RunConfig.

    exit_code: the guest's (124 when the host-time timeout cut it short,
    128 + N when QEMU died of signal N).  output: the guest's standard
    output (kept or captured; the UARTs' unless they went to a console
    file).  cores: the readout.Core of every counter core that wrote one.
    plugin: the plugin_results.PluginResults, None if the plugin wrote
    none (plugin_error says why).
    """
    config: object
    exit_code: int
    output: str
    timed_out: bool
    fault: str = None
    cores: list = field(default_factory=list)
    plugin: object = None
    plugin_error: str = None
    qemu_binary: str = None
    host_seconds: float = None
    steps: list = field(default_factory=list)   # a Session's Steps
    signal: str = None              # "SIGTERM"... when a signal ended it
    stopped_by_session: bool = False    # a Session ended it where the
    #                                     guest waited for it
    qemu_first_error: str = None    # QEMU's first line on stderr
    # cut short, QEMU did not stop within TERM_GRACE of SIGTERM: killed
    qemu_killed: bool = False
    # the signal QEMU's process died of, unable to write anything
    # ("SIGKILL": ours after TERM_GRACE, a kill -9, the OOM killer)
    qemu_died_of: str = None
    # run() made the task analyses as the run went (during_run.py); if
    # it could not, why (they are made from the results file after it)
    analysed_during_run: bool = False
    during_run_failure: str = None
    # When QEMU's process started and ended, on the host's monotonic
    # clock (time.monotonic(): one clock for every process of the host)
    qemu_started_at: float = None
    qemu_ended_at: float = None

    @property
    def target(self):
        return self.config.target

    @property
    def board(self):
        return self.config.board

    @property
    def outcome(self):
        """How the plugin saw the run end (empty if it wrote nothing)."""
        return self.plugin.outcome if self.plugin else Outcome()

    @property
    def ended(self):
        """What ended the run: "timeout", "signal", "stop" or "exit"."""
        if self.timed_out:
            return "timeout"
        if self.signal:
            return "signal"
        if self.outcome.stopped_by or self.stopped_by_session:
            return "stop"
        return "exit"

    @property
    def cut_short(self):
        """What cut the run short, in the user's words ("--timeout",
        "SIGTERM"), or None: its outputs hold what it had done."""
        return "--timeout" if self.timed_out else self.signal

    @property
    def failed_to_start(self):
        """QEMU exited with an error before the plugin could report
        anything (a refused option, a plugin that refused its own)."""
        return (not self.cut_short and self.exit_code != 0 and
                self.plugin is None and self.config.plugin and
                not self.qemu_died_of)

    @property
    def qemu_died(self):
        """The signal QEMU died of when nothing here cut the run short
        (a kill -9, the OOM killer, a crash), or None."""
        return None if self.cut_short else self.qemu_died_of

    @property
    def profile(self):
        """The PluginResults when the run was profiled, else None."""
        return self.plugin if self.plugin and self.plugin.profiled else None
