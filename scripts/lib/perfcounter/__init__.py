# SPDX-License-Identifier: MIT
"""perfcounter: exact, repeatable instruction counts and cycle estimates
of firmware on emulated boards (QEMU with the perf-counter device and
its instrumentation plugin).

The pipeline, one subpackage a stage:

- target: the image on a board (read once: symbols, DWARF, the check
  that the board can boot it);
- boot: a RunConfig (every option of a run as one value, the one
  renderer of QEMU's command line and the plugin's arguments) and the
  QEMU process that runs it;
- results: the Result of a run (how it ended, each counter core's
  readout, everything the plugin found);
- outputs: the writers, each taking a Result (gmon.out, stacks, --json,
  the timeline, the regression gate...);
- build: QEMU and the firmware, built once and cached; bench: the
  benchmarks; cli: the command-line front ends (scripts/).

    import perfcounter
    from perfcounter import RunConfig, Target, boards

    target = Target("app.elf", boards.get("mps2-an385"))
    result = perfcounter.run(RunConfig(target, profile=perfcounter.EXACT,
                                       cycles=True))
    result.exit_code, result.cores[0].clocks, result.plugin.cycles
    perfcounter.outputs.write(result, perfcounter.OutputOptions(
        json=Path("run.json")))

docs/python-api.md documents it.
"""

from perfcounter import boards, outputs
from perfcounter.boot import run
from perfcounter.boot.config import DEFAULT_PERIOD, EXACT, RunConfig, Serial
from perfcounter.errors import Failure
from perfcounter.outputs import OutputOptions
from perfcounter.results import Result
from perfcounter.target import BuildOptions, Target

__all__ = ["boards", "outputs", "run", "DEFAULT_PERIOD", "EXACT",
           "RunConfig", "Serial", "Session", "Step", "Position",
           "ExpectTimeout", "GuestEnded", "Failure", "OutputOptions",
           "Result", "BuildOptions", "Target"]

# A Session and its kin are imported when first named: scripts/profile
# never uses them (their modules took 3 ms of every command)
_SESSION = ("Session", "Step", "Position", "ExpectTimeout", "GuestEnded")


def __getattr__(name):
    if name in _SESSION:
        from perfcounter.boot import session
        return getattr(session, name)
    raise AttributeError(f"module 'perfcounter' has no attribute '{name}'")
