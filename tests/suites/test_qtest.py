# SPDX-License-Identifier: MIT
"""The device's qtest and QEMU's own device-introspect and qom tests,
in QEMU's framework, for each QEMU target."""

import os

import pytest

import qemu
import tap


@pytest.mark.parametrize("arch", qemu.ARCHES)
@pytest.mark.parametrize("test", qemu.QTESTS,
                         ids=[t.rpartition("/")[2] for t in qemu.QTESTS])
def test_qtest(built, arch, test):
    env = dict(os.environ, QTEST_QEMU_BINARY=str(built.binary(arch)))
    failed, seen = tap.failures([str(built.build / test), "--tap", "-k"],
                                env=env)
    assert not failed, f"{len(failed)} of {seen} failed:\n" + \
        "\n".join(failed)
