# SPDX-License-Identifier: MIT
"""Paths, messages and process helpers shared by every script."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("PERF_COUNTER_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME")
                     or Path.home() / ".cache") / "perf-counter")
# Firmware build directories live in the checkout, like any meson build
# (elsewhere with PERF_COUNTER_BUILD: the tests race cold builds there).
BUILD = Path(os.environ.get("PERF_COUNTER_BUILD") or REPO / "build")


class Failure(Exception):
    """An error to report in one line, without a traceback."""


def say(msg):
    print(f"[perf-counter] {msg}", file=sys.stderr, flush=True)


def run(cmd, log=None, cwd=None, env=None, progress=None):
    """Run cmd; on failure raise Failure naming the command and log.

    With log, output goes to that file.  With progress (a function of
    one output line), each line is also passed to it, for progress lines.
    """
    shown = " ".join(str(c) for c in cmd)
    if log is None:
        result = subprocess.run(cmd, cwd=cwd, env=env)
        if result.returncode != 0:
            raise Failure(f"command failed ({result.returncode}): {shown}")
        return
    log = Path(log)
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                errors="replace")
        for line in proc.stdout:
            out.write(line)
            if progress:
                progress(line)
        proc.wait()
    if proc.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        raise Failure(f"command failed ({proc.returncode}): {shown}\n"
                      + "\n".join("    " + t for t in tail)
                      + f"\n  full log: {log}")


def main_guard(func):
    """Run func(); turn Failure into a one-line message and exit 1."""
    try:
        sys.exit(func())
    except Failure as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a bad command line answered in one line (exit 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} "
                  f"(see {self.prog} --help)\n")
