# SPDX-License-Identifier: MIT
"""scripts/test: run every test and end with 'N passed, N failed'.

Four kinds, all on real parts:
- host: unit tests of the firmware library's formatter (TAP);
- qtest: the device's qtest, and QEMU's device-introspect and qom tests,
  in QEMU's own framework (TAP), for each QEMU target;
- boot: real firmware booted in the real QEMU build, tests/boot/*.py;
  the tests of a module that sets PER_BOARD run once per board;
- style: QEMU's checkpatch.pl on the device's sources;
- fuzz: a bounded run of the device's libFuzzer target.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
import traceback

import boards
import cache
import firmware
import fuzz
import junit
import qemu
from common import (BUILD, REPO, ArgumentParser, Failure, main_guard, run,
                    say)

BOOT_TESTS = REPO / "tests" / "boot"
FUZZ_SECONDS = 30


class Results:
    def __init__(self, pattern):
        self.passed = 0
        self.failed = []
        self.pattern = re.compile(pattern) if pattern else None
        self.cases = []         # junit.Case of every result, for --junit
        self._last = time.monotonic()

    def wanted(self, name):
        return not self.pattern or self.pattern.search(name)

    def record(self, name, ok, detail=""):
        now = time.monotonic()
        # "qtest: perf-counter/x" or "boot/scripts/x": suite, then test
        if ": " in name:
            suite, _, test = name.partition(": ")
        else:
            suite, _, test = name.rpartition("/")
        self.cases.append(junit.Case(
            classname=suite.replace("/", "."), name=test or name,
            seconds=now - self._last,
            failure=None if ok else (detail or "failed")))
        self._last = now
        if ok:
            self.passed += 1
            print(f"PASS  {name}", flush=True)
        else:
            self.failed.append(name)
            print(f"FAIL  {name}", flush=True)
            for line in detail.rstrip().splitlines():
                print(f"      {line}")


def run_tap(results, prefix, cmd, env=None, timeout=600):
    """Run a TAP producer; record each 'ok'/'not ok' line as a test."""
    try:
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=timeout)
        out = proc.stdout
    except subprocess.TimeoutExpired as err:
        out = err.stdout.decode(errors="replace") if err.stdout else ""
        results.record(f"{prefix}: finished", False,
                       f"timed out after {timeout} s\n{out[-2000:]}")
        return
    seen = failed = 0
    since_last = []     # lines between results: the failure messages
    for line in out.splitlines():
        m = re.match(r"(not ok|ok) \d+ (?:- )?(.*)", line)
        if not m:
            if not line.startswith("# starting QEMU"):
                since_last.append(line)
            continue
        seen += 1
        failed += m.group(1) != "ok"
        results.record(f"{prefix}: {m.group(2).strip()}",
                       m.group(1) == "ok", "\n".join(since_last[-20:]))
        since_last = []
    if proc.returncode != 0 and not failed:
        results.record(f"{prefix}: exit status", False,
                       f"exit {proc.returncode}\n{out[-2000:]}")
    if seen == 0:
        results.record(f"{prefix}: ran", False,
                       f"no TAP results (exit {proc.returncode})\n"
                       + out[-2000:])


def host_tests(results):
    builddir = BUILD / "host"
    cache.build(builddir, "host", lambda interrupted: _build_host(
        builddir, interrupted), "the host unit tests")
    run_tap(results, "host/report",
            [str(builddir / "tests" / "host" / "test_report")])


def _build_host(builddir, interrupted):
    if interrupted and builddir.exists():
        shutil.rmtree(builddir)
    if not (builddir / "build.ninja").exists():
        run(["meson", "setup", str(builddir)], cwd=REPO,
            log=BUILD / "host-setup.log")
    run(["meson", "compile", "-C", str(builddir)], cwd=REPO,
        log=BUILD / "host-compile.log")


def qtests(results, built):
    for arch in qemu.ARCHES:
        env = dict(os.environ, QTEST_QEMU_BINARY=str(built.binary(arch)))
        for test in qemu.QTESTS:
            run_tap(results, "qtest", [str(built.build / test), "--tap", "-k"],
                    env=env)


def style_tests(results, built):
    """QEMU's checkpatch.pl on every C file of qemu-device/."""
    checkpatch = built.src / "scripts" / "checkpatch.pl"
    for path in sorted(qemu.DEVICE_DIR.rglob("*.[ch]")):
        proc = subprocess.run(["perl", str(checkpatch), "--no-tree", "-f",
                               str(path)], capture_output=True, text=True)
        results.record(f"style/checkpatch: {path.relative_to(REPO)}",
                       proc.returncode == 0, proc.stdout[-3000:])


def fuzz_test(results, seconds):
    out = fuzz.run(seconds)
    results.record(f"fuzz/{fuzz.TARGET}: {seconds} s without a crash, a "
                   f"broken invariant or a sanitizer report", out.ok,
                   out.log[-3000:])
    say(f"fuzzing: {out.runs} inputs, coverage {out.coverage} edges")


def load_module(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Context:
    """What boot tests get: the QEMU build and per-board firmware."""

    def __init__(self, built):
        self.qemu = built
        self._builddirs = {}
        self.cache = {}

    def firmware(self, board, relpath):
        if board.name not in self._builddirs:
            self._builddirs[board.name] = firmware.build(board)
        return firmware.image(self._builddirs[board.name], relpath)


def boot_tests(results, ctx, board_names):
    sys.path.insert(0, str(BOOT_TESTS))
    for path in sorted(BOOT_TESTS.glob("test_*.py")):
        module = load_module(path)
        tests = [(n, f) for n, f in vars(module).items()
                 if n.startswith("test_") and callable(f)]
        per_board = getattr(module, "PER_BOARD", False)
        for board_name in (board_names if per_board else [None]):
            board = boards.get(board_name or boards.DEFAULT_BOARD)
            for name, func in tests:
                label = f"boot/{path.stem[5:]}/"
                label += f"{board_name}/" if per_board else ""
                label += name[5:]
                if not results.wanted(label):
                    continue
                try:
                    func(ctx, board)
                    results.record(label, True)
                except AssertionError as err:
                    results.record(label, False, str(err) or
                                   traceback.format_exc(limit=-1))
                except Failure as err:
                    results.record(label, False, str(err))
                except Exception:
                    results.record(label, False, traceback.format_exc())


def main():
    p = ArgumentParser(
        prog="scripts/test",
        description="Install what is missing, build QEMU with the device "
        "(cached), and run every test: host unit tests, the device's qtest, "
        "and scripted boots of real firmware on every board. Ends with a "
        "line 'N passed, N failed'; exits non-zero if any test failed.")
    p.add_argument("-k", "--match", metavar="REGEX",
                   help="run only the boot tests whose name matches REGEX "
                   "(host and qtest suites always run)")
    p.add_argument("--board", action="append", choices=list(boards.BOARDS),
                   help="boot tests on this board only (repeatable; "
                   "default: every board)")
    p.add_argument("--fuzz-seconds", type=int, default=FUZZ_SECONDS,
                   metavar="N", help="fuzz the device for N seconds "
                   "(default: %(default)s; 0: no fuzzing)")
    p.add_argument("--junit", metavar="FILE",
                   help="also write the results as JUnit XML, a test case "
                   "per test (for CI)")
    args = p.parse_args()

    start = time.monotonic()
    results = Results(args.match)
    built = qemu.ensure_built(qtests=True)
    say("host unit tests")
    host_tests(results)
    say("qtests")
    qtests(results, built)
    say("QEMU coding style")
    style_tests(results, built)
    say("boot tests")
    boot_tests(results, Context(built), args.board or list(boards.BOARDS))
    if args.fuzz_seconds:
        say(f"fuzzing for {args.fuzz_seconds} s (scripts/fuzz for longer)")
        fuzz_test(results, args.fuzz_seconds)
    say(f"done in {time.monotonic() - start:.0f} s")
    if results.failed:
        print("\nfailed:\n" + "\n".join("  " + n for n in results.failed))
    if args.junit:
        junit.write(args.junit, "perf-counter", results.cases,
                    time.monotonic() - start)
        say(f"wrote {args.junit}")
    print(f"{results.passed} passed, {len(results.failed)} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    main_guard(main)
