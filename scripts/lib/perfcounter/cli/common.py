# SPDX-License-Identifier: MIT
"""What every command-line front end shares: a bad command line
answered in one line (exit 2), a Failure in one line (exit 1)."""

import argparse
import signal
import sys

from perfcounter.boot.signals import SignalExit
from perfcounter.errors import Failure


def main_guard(func):
    """Run func(); turn Failure into a one-line message and exit 1, a
    terminating signal into 128 + its number."""
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


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a bad command line answered in one line (exit 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} "
                  f"(see {self.prog} --help)\n")
