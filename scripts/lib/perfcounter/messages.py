# SPDX-License-Identifier: MIT
"""The package's own messages: one line each, on standard error, apart
from what the guest prints on standard output."""

import sys


def say(msg):
    print(f"[perf-counter] {msg}", file=sys.stderr, flush=True)
