# SPDX-License-Identifier: MIT
"""A user's checkout of a project whose published figures the bench
compares with (scripts/bench --cortexm-aes, --dilithium-mm, --embench,
--coremark):
which version of it the figures and the code come from."""

import subprocess
from pathlib import Path


def _git(checkout, *args):
    proc = subprocess.run(["git", "-C", str(checkout)] + list(args),
                          capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


def commit(checkout):
    """The checkout's short commit; None if it is not the top of a git
    work tree of its own (a copy, or a folder inside another one)."""
    top = _git(checkout, "rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != Path(checkout).resolve():
        return None
    return _git(checkout, "rev-parse", "--short=7", "HEAD")


def version(checkout):
    """Its tag if HEAD has one, else "commit C", else its folder's name."""
    at = commit(checkout)
    if at is None:
        return Path(checkout).name
    tag = _git(checkout, "describe", "--tags", "--exact-match")
    return tag or f"commit {at}"
