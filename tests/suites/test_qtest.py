# SPDX-License-Identifier: MIT
"""The device's qtest and QEMU's own device-introspect and qom tests,
in QEMU's framework, for each QEMU target."""

import os

import pytest

from perfcounter.build import qemu
import tap


RUNS = [(arch, test) for test in qemu.QTESTS
        for arch in qemu.QTEST_ARCHES.get(test, qemu.ARCHES)]


@pytest.mark.parametrize("arch, test", RUNS,
                         ids=[f"{t.rpartition('/')[2]}-{a}" for a, t in RUNS])
def test_qtest(built, arch, test):
    env = dict(os.environ, QTEST_QEMU_BINARY=str(built.binary(arch)))
    failed, seen = tap.failures([str(built.build / test), "--tap", "-k"],
                                env=env)
    assert not failed, f"{len(failed)} of {seen} failed:\n" + \
        "\n".join(failed)
