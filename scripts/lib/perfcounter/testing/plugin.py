# SPDX-License-Identifier: MIT
"""pytest plugin: test firmware on an emulated board, each test driving
it through the dut fixture (a perfcounter Session) with the same numbers
on every run.

    def test_fib(dut):
        dut.expect("> ")
        with dut.step("fib") as step:
            dut.send_line("fib 20")
            dut.expect(r"fib\\(20\\) = 6765\\r\\n")
        assert step.cycles <= 20000

    pytest --firmware build/shell.elf --board mps2-an385

Registered by its entry point (pytest11) when the package is installed,
or with -p perfcounter.testing.plugin from a checkout (scripts/lib on
PYTHONPATH).  Options: --firmware, --board, --cpu, --qemu-arg,
--no-image-check, --cycles/--no-cycles, --sample, --sample-period,
--firmware-coverage,
--firmware-timeout, --perfcounter-results DIR, --shard K/N and
--shard-durations FILE; markers firmware(...) and budget(...).  Each
test's counts go to pytest's report as properties (so to --junitxml),
and the session writes DIR (perfcounter.testing.results), from the
controller under pytest-xdist, also when SIGTERM or SIGHUP cuts it short
(perfcounter.testing.signals).  docs/testing-your-firmware.md.
"""

from pathlib import Path

import pytest

from perfcounter import boards
from perfcounter.periods import DEFAULT_PERIOD, EXACT
from perfcounter.errors import Failure
from perfcounter.testing import results, signals

# (what boots firmware and writes its outputs is imported by the dut
# fixture: every pytest session of an environment that installs the
# package loads the plugin, and importing it all took 85 ms)

DEFAULT_RESULTS = "perfcounter-results"
DEFAULT_TIMEOUT = 60.0
# How long xdist's controller, cut short by a signal, takes its workers'
# reports as they wind down (each stops its QEMU and writes the outputs)
WORKERS_GRACE = 5.0
_ENDING = pytest.StashKey[signals.Ending]()
_QEMU = pytest.StashKey[object]()


def _period(text):
    return EXACT if text == "exact" else int(text)


def pytest_addoption(parser):
    group = parser.getgroup("perfcounter", "firmware on an emulated board "
                            "(perfcounter)")
    group.addoption("--firmware", metavar="ELF",
                    help="the firmware image the dut fixture boots (a "
                    "test's firmware marker may name another)")
    try:
        group.addoption("--board", default=boards.DEFAULT_BOARD,
                        choices=list(boards.BOARDS),
                        help="the board it boots on (default: "
                        "%(default)s)")
    except ValueError:
        pass    # a conftest of its own has one (perf-counter's suite)
    group.addoption("--cpu", metavar="CPU",
                    help="QEMU's -cpu with its extensions, in place of the "
                    "board's core (say rv32,zcd=off,zcmp=on)")
    group.addoption("--qemu-arg", action="append", default=[],
                    metavar="ARG",
                    help="one more argument to QEMU (repeat it: "
                    "--qemu-arg=-global "
                    "--qemu-arg=nrf51-soc.sram-size=262144)")
    group.addoption("--no-image-check", dest="image_check",
                    action="store_false", default=None,
                    help="boot the firmware even if it does not look "
                    "bootable on the board")
    group.addoption("--cycles", action="store_true", default=None,
                    help="estimate cycles with the board's timing model "
                    "(the default where it has one)")
    group.addoption("--no-cycles", dest="cycles", action="store_false",
                    help="count instructions only")
    group.addoption("--sample", action="store_true", default=None,
                    help="profile each test: gmon.out and call stacks in "
                    "its results")
    group.addoption("--firmware-coverage", action="store_true",
                    help="each test's line, function and branch coverage "
                    "of the firmware (exact: it counts every "
                    "instruction), as LCOV in its results, summed per "
                    "image")
    group.addoption("--sample-period", type=_period, default=DEFAULT_PERIOD,
                    metavar="PERIOD",
                    help="with --sample: a sample every PERIOD clocks "
                    "(default: %(default)s), or exact")
    group.addoption("--firmware-timeout", type=float,
                    default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="host seconds a test's run may take, and an "
                    "expect() may wait (default: %(default)s)")
    group.addoption("--perfcounter-results", default=DEFAULT_RESULTS,
                    metavar="DIR",
                    help="where the session writes its results: "
                    "results.json, junit.xml, durations.json, each test's "
                    "outputs (default: %(default)s)")
    group.addoption("--shard", metavar="K/N",
                    help="run the K-th of N shards of the tests (a stable "
                    "partition, the same on every machine)")
    group.addoption("--shard-durations", metavar="FILE",
                    help="balance the shards by the host seconds each test "
                    "took (an earlier session's durations.json)")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "firmware(image=None, board=None, cycles=None, "
        "sample=None, uart=None, timeout=None, cpu=None, qemu_args=None, "
        "image_check=None): how the dut fixture boots this test's "
        "firmware, instead of the command line's")
    config.addinivalue_line(
        "markers", "budget(step=None, instructions=None, cycles=None, "
        "ns=None): fail the test when the step (the whole test without "
        "one) takes more")
    if config.getoption("shard"):
        from perfcounter.testing import shards
        try:
            shards.parse(config.getoption("shard"))
        except ValueError as err:
            raise pytest.UsageError(f"--shard: {err}") from None
    ending = config.stash[_ENDING] = signals.Ending()
    ending.booted = bool(config.getoption("firmware"))
    ending.install()
    config.pluginmanager.register(ending, "perfcounter-ending")
    if not hasattr(config, "workerinput"):     # the controller, or alone
        config.pluginmanager.register(Collector(config, ending),
                                      "perfcounter-collector")


def pytest_unconfigure(config):
    ending = config.stash.get(_ENDING, None)
    if ending:
        ending.uninstall()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """A shard with no test (more shards than tests) is not a failure."""
    if session.config.getoption("shard") and \
            exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.OK


def pytest_collection_modifyitems(config, items):
    if not config.getoption("shard"):
        return
    from perfcounter.testing import shards
    k, n = shards.parse(config.getoption("shard"))
    path = config.getoption("shard_durations")
    durations = shards.load_durations(path) if path else None
    where = shards.assign([i.nodeid for i in items], n, durations)
    kept = [i for i in items if where[i.nodeid] == k - 1]
    config.hook.pytest_deselected(items=[i for i in items
                                         if where[i.nodeid] != k - 1])
    items[:] = kept


# The command-line option of each firmware marker argument
_OPTIONS = {"image": "firmware", "board": "board", "cycles": "cycles",
            "sample": "sample", "timeout": "firmware_timeout", "uart": None,
            "cpu": "cpu", "qemu_args": "qemu_arg",
            "image_check": "image_check"}


def _option(item, name, default=None):
    """A firmware marker's value, else the command line's."""
    marker = item.get_closest_marker("firmware")
    if marker:
        if name == "image" and marker.args:
            return marker.args[0]
        if marker.kwargs.get(name) is not None:
            return marker.kwargs[name]
    option = _OPTIONS[name]
    value = item.config.getoption(option) if option else None
    return default if value is None else value


def _results_dir(config):
    return Path(config.getoption("perfcounter_results"))


@pytest.fixture
def dut(request):
    """A Session of the test's firmware: booted, waiting at its first
    instruction; stopped after the test (if it has not ended), its
    counts recorded."""
    import shutil
    from perfcounter.boot.config import RunConfig
    from perfcounter.boot.session import Session
    from perfcounter.target import Target
    item = request.node
    image = _option(item, "image")
    if not image:
        pytest.fail("no firmware: give --firmware ELF or "
                    "@pytest.mark.firmware(ELF)", pytrace=False)
    board_name = _option(item, "board", boards.DEFAULT_BOARD)
    board = boards.get(board_name if isinstance(board_name, str)
                       else board_name[0])
    cycles = _option(item, "cycles")
    sample = _option(item, "sample")
    if sample is True:
        sample = item.config.getoption("sample_period")
    covered = item.config.getoption("firmware_coverage")
    if covered:
        if sample not in (None, EXACT):
            pytest.fail("--firmware-coverage counts every instruction: "
                        "--sample-period exact, or no --sample",
                        pytrace=False)
        sample = EXACT
    timeout = float(_option(item, "timeout"))
    qemu_args = tuple(_option(item, "qemu_args", ()))
    target = Target(Path(image).resolve(), board)
    if _option(item, "image_check", True):
        refusal = None
        try:
            target.check(qemu_args)
        except Failure as err:
            refusal = str(err)
        if refusal:     # outside the except: one message, not two
            pytest.fail(refusal, pytrace=False)
    config = RunConfig(target, timeout=timeout, profile=sample,
                       cycles=bool(board.cycle_model) if cycles is None
                       else cycles, cpu=_option(item, "cpu"),
                       qemu_args=qemu_args)
    ending = item.config.stash[_ENDING]
    ending.booted = True
    # (a signal while QEMU starts or the outputs are written waits for
    # that: a test cut short still has them all)
    refusal = None
    with ending.deferred():
        outputs = _results_dir(item.config) / results.TESTS / \
            results.test_dir(item.nodeid)
        if outputs.exists():
            shutil.rmtree(outputs)
        outputs.mkdir(parents=True)
        session = Session(config, qemu=_qemu(item.config),
                          uart=_option(item, "uart"), host_timeout=timeout)
        try:
            session.start()
        except Failure as err:
            session.close()
            outputs.rmdir()     # (no run: nothing in it)
            refusal = str(err)
    if refusal:
        ending.take_deferred()      # (which ended QEMU, if one came)
        pytest.fail(refusal, pytrace=False)
    try:
        ending.take_deferred()
        if covered:
            _read_ahead(target, outputs / results.COVERAGE)
        item._perfcounter_session = session
        yield session
    finally:
        with ending.deferred():
            result = session.result or session.stop()
            test = summary(result, session)
            item.user_properties.extend(results.properties_of(test))
            _write_outputs(outputs, result, test, covered, session.steps)
            session.close()


def _qemu(config):
    """The built QEMU, made sure of once a session (4 ms a test)"""
    built = config.stash.get(_QEMU, None)
    if built is None:
        from perfcounter.build import qemu
        built = config.stash[_QEMU] = qemu.ensure_built()
    return built


def _read_ahead(target, covered):
    """What the test's coverage reads of its image, read while the
    test runs (its first test: 0.3 to 1.1 s; then the cache's ms)"""
    from perfcounter.outputs import OutputOptions, meanwhile, read_ahead

    def read():
        try:
            read_ahead(target, True, OutputOptions(coverage=covered))
        except Exception:   # (any: the test's outputs meet it again)
            pass
    meanwhile.begin(read)


def summary(result, session):
    """The test's dict of results (less its outcome): its run's counts,
    in all and per step."""
    outcome = result.outcome
    return {
        "board": result.board.name,
        "image": str(result.target.path),
        "exit_code": result.exit_code,
        "ended": result.ended,
        "instructions": outcome.instructions,
        "cycles": result.plugin.cycles if result.plugin and
        result.plugin.cycles_model else None,
        "ns": outcome.ns,
        "steps": {s.name: {"instructions": s.instructions,
                           "cycles": s.cycles, "ns": s.ns,
                           **{e: n for e, n in sorted((s.counts or {}).items())
                              if e not in results.COUNTS}}
                  for s in session.steps},
    }


def _write_outputs(folder, result, test, covered, steps):
    from perfcounter.results.plugin_results import without_gc
    with without_gc():      # (as outputs.write(): a long test's records)
        _write_test_outputs(folder, result, test, covered, steps)


def _write_test_outputs(folder, result, test, covered, steps):
    from perfcounter.outputs import (OutputOptions, coverage, hotspots,
                                     json_report)
    from perfcounter.results import stacks
    doc = json_report.document(result)
    doc["steps"] = test["steps"]
    for step in steps:
        rows = step.functions()
        if rows and step.name in doc["steps"]:
            doc["steps"][step.name]["functions"] = [
                json_report.function_doc(f) for f in rows]
        if step.stacks():
            stacks.write(folder / f"stacks.{results.test_dir(step.name)}.txt",
                         step.stacks())
    json_report.write(folder / "run.json", doc)
    if result.profile is not None:
        hotspots.write(result, OutputOptions(
            gmon=folder / "gmon.out", stacks=folder / "stacks.txt"),
            report=lambda message: None, text=False)
    if covered:
        coverage.write(folder / results.COVERAGE, coverage.of_run(result))
        for step in steps:
            if step.profile:
                coverage.write(folder / f"coverage.{results.test_dir(step.name)}"
                               f".info", coverage.of_run(step))


@pytest.hookimpl(hookwrapper=True)
def pytest_pyfunc_call(pyfuncitem):
    """After the test's body: its budget markers, against its steps."""
    yield
    session = getattr(pyfuncitem, "_perfcounter_session", None)
    if session is None:
        return
    over = []
    for marker in pyfuncitem.iter_markers("budget"):
        step = marker.kwargs.get("step") or (marker.args[0] if marker.args
                                             else None)
        span = _span(session, step)
        for count, limit in sorted(marker.kwargs.items()):
            if count == "step":
                continue
            took = _measure(span, count)
            if took > limit:
                over.append(f"{step or 'the test'} took {took:,} {count}, "
                            f"over its budget of {limit:,}")
    if over:
        pytest.fail("; ".join(over), pytrace=False)


def _measure(span, count):
    """A step's count: instructions, cycles, ns, or an event's."""
    from perfcounter.results import events
    if count in results.COUNTS:
        return getattr(span, count)
    if count not in events.NAMES:
        known = ", ".join(results.COUNTS + tuple(
            e for e in events.NAMES if e and e not in results.COUNTS))
        pytest.fail(f"a budget on {count!r}, which is not counted; budgets "
                    f"are on {known}", pytrace=False)
    if span.counts is None:
        pytest.fail(f"a budget on {count!r} is a step's (budget(STEP, "
                    f"{count}=N)); a whole test has "
                    f"{', '.join(results.COUNTS)}", pytrace=False)
    return span.counts.get(count, 0)


def _span(session, step):
    if step is None:
        from perfcounter.boot.session import Position, Step
        return Step("test", Position(), session.position)
    found = [s for s in session.steps if s.name == step]
    if not found:
        pytest.fail(f"a budget for step {step!r}, which the test did not "
                    f"make (dut.step({step!r}))", pytrace=False)
    return found[-1]


class Collector:
    """The session's results, gathered from every test's reports (on the
    controller under pytest-xdist) and written when it ends."""

    def __init__(self, config, ending):
        self.config = config
        self.ending = ending
        self.tests = {}
        self.durations = {}
        self.started = set()    # every test this session began
        self._cleared = False

    def _booted(self):
        """The session boots firmware: the results an earlier session
        left in the folder, which this one writes again, go now (a
        session that boots none leaves them as they are)."""
        self.ending.booted = True
        if self._cleared:
            return
        self._cleared = True
        folder = _results_dir(self.config)
        import shutil
        shutil.rmtree(folder / results.PROFILE, ignore_errors=True)
        for name in (results.RESULTS, results.JUNIT, results.DURATIONS):
            (folder / name).unlink(missing_ok=True)

    def _prune(self, folder):
        """The outputs earlier sessions' tests left in folder's tests/
        go (those of every test this session began stay, those it cut
        short too: their dut wrote them while this session ran)."""
        import shutil
        began = {results.test_dir(n) for n in self.started}
        tests = folder / results.TESTS
        for path in tests.iterdir() if tests.is_dir() else ():
            if path.name not in began:
                shutil.rmtree(path, ignore_errors=True)

    def pytest_runtest_logstart(self, nodeid):
        self.ending.running.add(nodeid)
        self.started.add(nodeid)

    def pytest_runtest_logfinish(self, nodeid):
        self.ending.running.discard(nodeid)

    def pytest_keyboard_interrupt(self, excinfo):
        self.ending.interrupted()

    def pytest_runtest_logreport(self, report):
        test = self.tests.setdefault(report.nodeid, {"outcome": "passed"})
        found = results.test_of_properties(report.user_properties)
        if len(found) > 1 or found["steps"]:
            test.update(found)
        if report.when == "call":
            self.durations[report.nodeid] = round(report.duration, 3)
            if report.outcome != "passed":
                test["outcome"] = report.outcome
        elif report.failed:
            test["outcome"] = "error"
        elif report.skipped:
            test["outcome"] = "skipped"
        if (report.failed or report.skipped) and "message" not in test:
            test["message"] = report.longreprtext
        if "board" in test:
            self._booted()

    # (first: under xdist, before its controller tears the workers down,
    # which waits 10 s for them and then kills them)
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session):
        self.ending.wind_down()
        if self.ending.signal:
            self._reports_in_flight()
        tests = {n: t for n, t in self.tests.items() if "board" in t}
        if not tests and not self.ending.signal:
            return
        self._booted()
        folder = _results_dir(self.config)
        self._prune(folder)
        doc = results.document(tests, self.ending.cut_short())
        results.write(folder, doc, {n: self.durations[n] for n in tests
                                    if n in self.durations})
        try:
            results.sum_profiles(folder, doc, [folder])
        except Failure as err:
            self.config.get_terminal_writer().line(f"perfcounter: {err}")

    def _reports_in_flight(self):
        """Under pytest-xdist, the session cut short by a signal: the
        reports the workers send as they wind down (a test that ended as
        the signal came, its counts in its teardown's report), taken
        before the results are written, for WORKERS_GRACE at most."""
        dsession = self.config.pluginmanager.getplugin("dsession")
        events = getattr(dsession, "queue", None)
        workers = set(getattr(dsession, "_active_nodes", ()))
        if events is None:
            return
        _signal_workers(workers, self.ending.signal)
        import queue
        import time
        deadline = time.monotonic() + WORKERS_GRACE
        while workers:
            try:
                name, kwargs = events.get(
                    timeout=max(0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if name in ("workerfinished", "errordown"):
                workers.discard(kwargs.get("node"))
            elif name in ("logstart", "testreport", "logfinish"):
                getattr(dsession, f"worker_{name}")(**kwargs)

    def pytest_terminal_summary(self, terminalreporter):
        tests = {n: t for n, t in self.tests.items() if "board" in t}
        if tests:
            terminalreporter.write_line(
                f"perfcounter: {len(tests)} firmware tests' results in "
                f"{_results_dir(self.config)}")


def _signal_workers(workers, name):
    """The signal that cut the controller short (name), sent to each
    xdist worker too, which ends its test as the controller did: a
    signal to the controller alone (a container's stop, to pytest as
    its first process) left them running their tests, to be killed
    with their outputs unwritten.  One that came to the whole group
    too is ignored the second time.  Ctrl-C is the terminal's, to the
    group already: a second one would cut a teardown short."""
    import signal
    signum = signal.Signals[name]
    if signum == signal.SIGINT:
        return
    for worker in workers:
        try:    # (each worker runs what it is sent on a thread of its own)
            worker.gateway.remote_exec(
                f"import os; os.kill(os.getpid(), {int(signum)})")
        except Exception:   # (any: a worker gone already)
            pass
