# SPDX-License-Identifier: MIT
"""The firmware library's unit tests on the host (tests/host/, TAP)."""

import shutil

from perfcounter.build import cache
import tap
from perfcounter.build.step import run
from perfcounter.paths import BUILD, REPO


def _build(builddir, interrupted):
    if interrupted and builddir.exists():
        shutil.rmtree(builddir)
    if not (builddir / "build.ninja").exists():
        run(["meson", "setup", str(builddir)], cwd=REPO,
            log=BUILD / "host-setup.log")
    run(["meson", "compile", "-C", str(builddir)], cwd=REPO,
        log=BUILD / "host-compile.log")


def test_report_formatter():
    builddir = BUILD / "host"
    cache.build(builddir, "host", lambda interrupted: _build(
        builddir, interrupted), "the host unit tests")
    failed, seen = tap.failures([str(builddir / "tests" / "host" /
                                     "test_report")])
    assert not failed, f"{len(failed)} of {seen} failed:\n" + \
        "\n".join(failed)
