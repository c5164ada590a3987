# SPDX-License-Identifier: MIT
"""Run a TAP producer (QEMU's qtests, the host unit tests): what failed,
with the lines before each failure."""

import re
import subprocess


def failures(cmd, env=None, timeout=600):
    """The failed TAP results of cmd, with what it printed before each;
    a run that gave no result or exited non-zero is a failure too."""
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          errors="replace", timeout=timeout)
    failed, seen, since_last = [], 0, []
    for line in proc.stdout.splitlines():
        m = re.match(r"(not ok|ok) \d+ (?:- )?(.*)", line)
        if not m:
            if not line.startswith("# starting QEMU"):
                since_last.append(line)
            continue
        seen += 1
        if m.group(1) != "ok":
            failed.append(m.group(2).strip() + "\n" +
                          "\n".join(since_last[-20:]))
        since_last = []
    if not seen:
        failed.append(f"no TAP results (exit {proc.returncode})\n"
                      + proc.stdout[-2000:])
    elif proc.returncode and not failed:
        failed.append(f"exit {proc.returncode}\n{proc.stdout[-2000:]}")
    return failed, seen
