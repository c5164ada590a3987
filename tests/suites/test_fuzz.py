# SPDX-License-Identifier: MIT
"""A bounded run of the device's libFuzzer target (scripts/fuzz runs
longer ones): no crash, no broken invariant, no sanitizer report."""

import pytest

from perfcounter.cli import fuzz


@pytest.mark.slow
def test_fuzzing_finds_nothing(request):
    seconds = request.config.getoption("fuzz_seconds")
    if not seconds:
        pytest.skip("--fuzz-seconds 0")
    out = fuzz.run(seconds)
    print(f"fuzzing: {out.runs} inputs in {seconds} s, coverage "
          f"{out.coverage} edges")
    assert out.ok, out.log[-3000:]
