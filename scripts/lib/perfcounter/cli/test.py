# SPDX-License-Identifier: MIT
"""scripts/test: every test on pytest, on both cores (pytest-xdist),
ending with the line 'N passed, N failed'.

The suite is tests/ (tests/conftest.py: fixtures and the board matrix):
- suites/: the host unit tests (TAP), the device's qtest and QEMU's
  device-introspect and qom tests (QEMU's framework), QEMU's
  checkpatch.pl on the device's sources, a bounded fuzzing run;
- boot/: real firmware booted in the real QEMU build, each module's
  tests once per board where it sets PER_BOARD.

Every argument goes to pytest (-k, -x, --lf, --board B, --fuzz-seconds
N...); --junit FILE is pytest's --junitxml. QEMU, its qtests and the
fuzzer are built first, here, so that the workers find them built.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from perfcounter.build import qemu
from perfcounter.cli.common import main_guard
from perfcounter.messages import say
from perfcounter.paths import REPO


# pytest's exit statuses that end a session before its tests ran
STOPPED = {2: "it was interrupted", 3: "it failed inside",
           4: "its arguments were refused"}


def own_options(argv):
    """What this front end reads of argv (--junit, --fuzz-seconds; -n)
    and what goes on to pytest: all of it but --junit, as --junitxml."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--junit", "--junitxml")
    p.add_argument("--fuzz-seconds", type=int, default=1)
    p.add_argument("-n", "--numprocesses")
    ours, _ = p.parse_known_args(argv)
    rest = argparse.ArgumentParser(add_help=False)
    rest.add_argument("--junit", "--junitxml")
    _, passed_on = rest.parse_known_args(argv)
    return ours, passed_on


def counts(junit_xml):
    """(passed, failed, skipped) of pytest's JUnit XML."""
    try:
        root = ET.parse(junit_xml).getroot()
    except (OSError, ET.ParseError):
        return 0, 0, 0
    suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
    tests = failed = skipped = 0
    for s in suites:
        tests += int(s.get("tests", 0))
        failed += int(s.get("failures", 0)) + int(s.get("errors", 0))
        skipped += int(s.get("skipped", 0))
    return tests - failed - skipped, failed, skipped


def main():
    ours, argv = own_options(sys.argv[1:])
    if any(a in ("-h", "--help") for a in argv):
        return subprocess.run([sys.executable, "-m", "pytest", *argv],
                              cwd=REPO).returncode
    start = time.monotonic()
    qemu.ensure_built(qtests=True)
    if ours.fuzz_seconds:
        qemu.ensure_fuzzer_built()
    workers = [] if ours.numprocesses else \
        ["-n", str(os.cpu_count() or 1), "--dist", "loadscope"]
    with tempfile.TemporaryDirectory() as tmp:
        xml = ours.junit or os.path.join(tmp, "junit.xml")
        cmd = [sys.executable, "-m", "pytest", *workers, "-r", "fE",
               f"--junitxml={xml}", *argv]
        say("running: " + " ".join(cmd[1:]))
        status = subprocess.run(cmd, cwd=REPO).returncode
        passed, failed, skipped = counts(xml)
    say(f"done in {time.monotonic() - start:.0f} s")
    if status in STOPPED and not (passed or failed or skipped):
        # ("0 passed, 0 failed" would read as a run that found nothing)
        print(f"error: pytest ran no test: {STOPPED[status]} (exit "
              f"{status}; its message above)", file=sys.stderr)
        return status
    if ours.junit:
        say(f"wrote {ours.junit}")
    print(f"{passed} passed, {failed} failed"
          + (f", {skipped} skipped" if skipped else ""))
    return status


if __name__ == "__main__":
    main_guard(main)
