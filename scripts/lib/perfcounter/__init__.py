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

import importlib

__all__ = ["boards", "outputs", "run", "DEFAULT_PERIOD", "EXACT",
           "RunConfig", "Serial", "Session", "Step", "Position",
           "ExpectTimeout", "GuestEnded", "Failure", "OutputOptions",
           "Result", "BuildOptions", "Target"]

# Each name is imported when first named: importing any submodule runs
# this file first, which imported every writer and analysis with them
# (perfcounter.build.qemu alone: 31 ms, now 14)
_HOMES = {
    "boards": "perfcounter.boards", "outputs": "perfcounter.outputs",
    "run": "perfcounter.boot", "DEFAULT_PERIOD": "perfcounter.periods",
    "EXACT": "perfcounter.periods", "RunConfig": "perfcounter.boot.config",
    "Serial": "perfcounter.boot.config", "Failure": "perfcounter.errors",
    "OutputOptions": "perfcounter.outputs",
    "Result": "perfcounter.results", "BuildOptions": "perfcounter.target",
    "Target": "perfcounter.target",
    **{name: "perfcounter.boot.session" for name in
       ("Session", "Step", "Position", "ExpectTimeout", "GuestEnded")},
}


def __getattr__(name):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(
            f"module 'perfcounter' has no attribute '{name}'")
    module = importlib.import_module(home)
    value = module if home == f"perfcounter.{name}" else \
        getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
