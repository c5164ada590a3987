# SPDX-License-Identifier: MIT
"""One step of a build (a compiler, meson, ninja, apt-get source): run
it with its output in a log, and fail in one message naming the command
and the end of its log."""

import os
import subprocess
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.paths import CACHE

# The compilers of every build step share a ccache of ours, not the
# user's own (~/.cache/ccache), whatever their ccache.conf says: a
# user's sources go through it (firmware.build_app), and Meson wraps a
# build machine's compiler in it when it finds it
CCACHE = {"CCACHE_DIR": str(CACHE / "ccache"),
          "CCACHE_CONFIGPATH": os.devnull}


def environment():
    """The environment a build step runs in: ours, with CCACHE."""
    return dict(os.environ, **CCACHE)


def run(cmd, log=None, cwd=None, progress=None):
    """Run cmd; on failure raise Failure naming the command and log.

    With log, output goes to that file.  With progress (a function of
    one output line), each line is also passed to it, for progress lines.
    """
    shown = " ".join(str(c) for c in cmd)
    if log is None:
        result = subprocess.run(cmd, cwd=cwd, env=environment())
        if result.returncode != 0:
            raise Failure(f"command failed ({result.returncode}): {shown}")
        return
    log = Path(log)
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=environment(),
                                stdout=subprocess.PIPE,
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
