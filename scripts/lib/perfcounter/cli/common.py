# SPDX-License-Identifier: MIT
"""What every command-line front end shares: a bad command line
answered in one line (exit 2), a Failure in one line (exit 1)."""

import argparse
import os
import signal
import sys

from perfcounter.boot.signals import SignalExit
from perfcounter.errors import Failure


class PipeSafe:
    """A standard stream that, once its reader has gone (a test runner
    that closed its end of the pipe), writes to /dev/null instead of
    failing: what goes to files is still written."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def _gone(self):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main_guard(func):
    """Run func(); turn Failure into a one-line message and exit 1, a
    terminating signal into 128 + its number."""
    sys.stdout, sys.stderr = PipeSafe(sys.stdout), PipeSafe(sys.stderr)
    try:
        sys.exit(func())
    except Failure as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(1)
    except SignalExit as err:
        print(f"{err}", file=sys.stderr)
        sys.exit(128 + err.signum)
    except KeyboardInterrupt:
        print("interrupted by SIGINT", file=sys.stderr)
        sys.exit(128 + signal.SIGINT)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, given the terminal's width: argparse would import
    shutil to find it (and the compressors with it: 1.6 ms of every
    command's start, though only --help prints)."""

    def __init__(self, prog, **options):
        options.setdefault("width", _columns() - 2)     # (as argparse)
        super().__init__(prog, **options)


def _columns():
    """The terminal's width, found as shutil.get_terminal_size() does"""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a bad command line answered in one line (exit 2)."""

    def __init__(self, *args, **options):
        options.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **options)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} "
                  f"(see {self.prog} --help)\n")
