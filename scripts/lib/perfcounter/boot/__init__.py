# SPDX-License-Identifier: MIT
"""Run a RunConfig: boot its target in QEMU, wait for the end (the
guest's exit, a stop, the host-time timeout), and read back every
counter core's readout and the plugin's results into a Result.

    from perfcounter import RunConfig, Target, boards, run
    result = run(RunConfig(Target("app.elf", boards.get("mps2-an385")),
                           profile=EXACT))
    result.exit_code, result.cores[0].clocks, result.profile.histogram
"""

import importlib
import threading
import time
from pathlib import Path

from perfcounter.build import qemu as qemu_build
from perfcounter.errors import Failure
from perfcounter.boot import qemu_process
from perfcounter.boot.config import EXACT, RunConfig
from perfcounter.boot.served_sockets import ServedSockets

__all__ = ["EXACT", "RunConfig", "run"]

# The stop request of a Session that ends a run (Result.stopped_by_session)
SESSION = "session"


def run(config, qemu=None, workdir=None, echo=False, verbose=False,
        signals=None, meanwhile=None):
    """Boot config's target, wait for the run to end, return its Result.

    qemu: a built QEMU (built if need be); workdir: where the run's
    files go (a temporary directory by default, removed after reading).
    With echo, the guest's output is passed on to standard output as it
    comes (and kept); otherwise it is captured.  verbose shows the
    command line.  signals (an installed signals.Signals) cuts the run
    short on SIGTERM, SIGINT or SIGHUP, as the timeout does.
    meanwhile: a function called on a thread of its own while QEMU runs
    (what the caller needs once the run is over: its imports, say),
    done before the results are read.
    """
    config.validate()
    qemu = qemu or qemu_build.ensure_built()
    if workdir is None:
        import tempfile     # (scripts/profile gives one: 3.5 ms less)
        with tempfile.TemporaryDirectory() as tmp:
            return run(config, qemu, tmp, echo, verbose, signals,
                       meanwhile)
    started = time.monotonic()
    during = None
    if config.analysed_during_run:
        from perfcounter.results.during_run import DuringRun
        # (the timeline's slices only for a timeline: a tenth of the
        # thread's work)
        during = DuringRun(config.target, Path(workdir),
                           slices=config.timeline_events > 0).start()
    ahead = threading.Thread(target=_ahead, args=(meanwhile,), daemon=True)
    try:
        exited = launch(config, qemu, workdir, echo=echo, verbose=verbose,
                        stop=signals, during=during,
                        started=lambda proc: ahead.start())
    finally:
        if during:
            during.exited.set()
        if ahead.ident is not None:
            ahead.join()
    return collect(config, exited, qemu, workdir, started, during)


def _ahead(meanwhile):
    """While QEMU runs: import what reading its results needs, then the
    caller's meanwhile (a command's writers: 7 to 13 ms of a short
    run's end). Whatever fails here is done again, and said, after."""
    try:
        importlib.import_module("perfcounter.results.plugin_results")
        importlib.import_module("perfcounter.results.readout")
        if meanwhile:
            meanwhile()
    except Exception:   # (any: the caller meets it again)
        pass


def launch(config, qemu, workdir, echo=False, verbose=False, stop=None,
           started=None, during=None):
    """Run QEMU for config until the run ends: how it Exited (the
    qemu_process options, for run() and a Session; during: the
    DuringRun its plugin streams its records to)."""
    config.write_files(workdir)
    with ServedSockets(config.serials, config.qmp) as served:
        def begun(proc):
            served.close_ours()
            if started:
                started(proc)
        return qemu_process.launch(
            config.command(qemu, Path(workdir), during, served.fds),
            config.board, timeout=config.timeout, capture=not echo,
            keep=echo, verbose=verbose, image=config.target.readable,
            cwd=config.guest_cwd, console=config.console, stop=stop,
            terminal=config.terminal, started=begun,
            pass_fds=tuple(served.fds.values()))


def collect(config, exited, qemu, workdir, started, during=None):
    """The Result of a run that Exited: every core's readout and the
    plugin's results read from workdir (started: its monotonic start;
    during: the DuringRun that followed its stream)."""
    # (imported once the run is over: 4 ms less before QEMU starts)
    from perfcounter.results import Result, plugin_results, readout
    workdir = Path(workdir)
    for serial in config.serials:
        # QEMU leaves its pty's symlink when the guest exits
        if serial.pty and Path(serial.pty).is_symlink():
            Path(serial.pty).unlink()
    stopped = exited.stopped or ""
    result = Result(config, exited.exit_code, exited.output,
                    exited.timed_out, exited.fault,
                    qemu_binary=str(qemu.binary(config.board.arch)),
                    host_seconds=time.monotonic() - started,
                    signal=stopped if stopped.startswith("SIG") else None,
                    stopped_by_session=stopped == SESSION,
                    qemu_first_error=exited.first_error,
                    qemu_killed=exited.killed,
                    qemu_died_of=exited.died_of,
                    qemu_started_at=exited.started_at,
                    qemu_ended_at=exited.ended_at)
    result.cores = readout.load(config.report_file(workdir, base)
                                for base, _ in config.cores)
    try:
        result.plugin = plugin_results.read(
            config.plugin_results(workdir),
            streamed=during.records_read() if during else None)
    except Failure as err:
        result.plugin_error = str(err)
    if during and result.plugin:
        during.finish(result.plugin)
        result.analysed_during_run = during.failed is None
        result.during_run_failure = during.failed
    return result
