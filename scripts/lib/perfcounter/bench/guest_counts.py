# SPDX-License-Identifier: MIT
"""One run of a program the bench built from a user's checkout
(scripts/bench --embench, --coremark): the line of counts it printed
when its timed part ended, or why there is none."""

import re
import subprocess


def run(cmd, counts, mark, timeout):
    """((match of the regular expression counts in the output, stdout),
    None), or (None, why not); mark names where the counts are printed,
    for the message."""
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"no exit in {timeout} s"
    found = re.search(counts, proc.stdout, re.M)
    if not found:
        said = (proc.stdout + proc.stderr).strip()[-200:]
        return None, (f"exited {proc.returncode} before {mark}"
                      + (f": {said}" if said else ""))
    return (found, proc.stdout), None
