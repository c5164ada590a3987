# SPDX-License-Identifier: MIT
"""scripts/bench --embench DIR: the Cortex-M4 and M7 timing models
against Embench IoT's published baseline, compiled C measured on
silicon.  Embench's reference platform is an STM32F4 Discovery
(Cortex-M4, FPU unused) at 16 MHz, zero wait states, its benchmarks
built with GCC; baseline-data/speed.json gives the milliseconds each
took between start_trigger() and stop_trigger(), read from DWT CYCCNT.

Its code is not in this repository: DIR is the user's checkout, and the
code, the flags and the figures all come from it, so that they are of
one commit.  Each benchmark of src/*/ is built with the checkout's
support/main.c and support/beebsc.c and tests/programs/embench_board.c
(ours), scaled for the reference clock as that version scales the work
(CPU_MHZ until 1.0, GLOBAL_SCALE_FACTOR after), and run under the
counter core with clock=cycles (docs/cycles.md)."""

import json
import math
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from perfcounter import boards
from perfcounter.build import firmware
from perfcounter.bench import guest_counts
from perfcounter.bench.checkout import version as checkout_version
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.paths import REPO

PROGRAM = REPO / "tests" / "programs" / "embench_board.c"
REPOSITORY = "https://github.com/embench/embench-iot"


@dataclass
class Setup:
    """A board the benchmarks run on, and how like the reference."""
    board: str
    meaning: str            # what its difference from the baseline is
    memory: str = None      # the model's memory part (--memory)
    ldflags: tuple = ()     # where the program's data and stack go
    stack_size: int = None


# The M4 model is compared with its own core, as the reference runs
# it: Embench's board support leaves the STM32F407 as after reset (16
# MHz, 0 wait states, the ART's prefetch and caches off), and its linker
# script (STM32F407IGHX_FLASH.ld) makes RAM the 128 KB from 0x20000000
# with the stack at its top: in SRAM2, on a bus of its own, while data
# and the heap are in SRAM1 (a load does not pipeline with one of the
# other).  The M7's figures say how much faster the model makes an M7
# than that M4 (no M7 figures are published).
SETUPS = [Setup("mps2-an386", "the model's error", "stm32f407-16mhz",
                ("-Wl,--defsym=__ram_size=0x20000",), 0x4000),
          Setup("mps2-an500",
                "an M7 against an M4: a speed-up, not an error")]

# A benchmark takes about 4 s on the reference at 16 MHz: 64 M cycles,
# under a minute on the models; more than this is a hang
RUN_TIMEOUT = 900

# The README's speed flags that say how code is generated; the board's
# own -mcpu, -mthumb and -mfloat-abi=soft stay (the README's typos, such
# as "mfloat-abi=soft" without its dash, are skipped with them)
KEPT_FLAGS = re.compile(r"-O\w*|-f[\w-]+|-march=[\w.+-]+")


@dataclass
class Reference:
    """What the checkout says of its reference platform and build."""
    version: str
    mhz: int
    compiler: str           # as the README says: "GCC 9.2.0, GNU ..."
    optimization: str       # -O level
    cflags: list            # KEPT_FLAGS of the README, -O aside
    scale: str              # the define that scales the work to mhz
    milliseconds: dict      # by benchmark


def reference(checkout):
    """The checkout's reference platform, speed flags and baseline."""
    readme = checkout / "doc" / "README.md"
    speed = checkout / "baseline-data" / "speed.json"
    if not readme.is_file() or not speed.is_file():
        raise Failure(f"{checkout} is not a checkout of embench-iot: it "
                      f"has no {readme.relative_to(checkout)} or "
                      f"{speed.relative_to(checkout)}")
    text = readme.read_text()
    clock = re.search(r"clock speed of (\d+) ?MHz", text)
    compiler = re.search(r"compiled using (GCC .*?)\.\s", text, re.S)
    flags = re.search(r"For the speed benchmarks, the compiler flags used "
                      r"are:\s*```(.*?)```", text, re.S)
    if not clock or not compiler or not flags:
        raise Failure(f"{readme} does not say the reference platform's "
                      f"clock, compiler and speed flags as embench-iot "
                      f"1.0 to 2.0 do")
    kept = KEPT_FLAGS.findall(flags[1])
    levels = [f[2:] for f in kept if f.startswith("-O")]
    return Reference(
        version=checkout_version(checkout), mhz=int(clock[1]),
        compiler=" ".join(compiler[1].split()) +
        # (1.0's: "known as the "nanolib" configuration"; later ones use
        # the standard one "rather than the _nanolib_ configuration")
        (" (nanolib)" if re.search(r'"nanolib"\s+configuration', text)
         else ""),
        optimization=levels[-1] if levels else "2",
        cflags=[f for f in kept if not f.startswith("-O")],
        scale=scale_define(checkout),
        milliseconds={name: float(ms) for name, ms in
                      json.loads(speed.read_text()).items()})


def scale_define(checkout):
    """How this version scales each benchmark's iterations: by CPU_MHZ
    (up to 1.0) or by a global scale factor (later), set to the
    reference's MHz for the reference's figures."""
    crc = checkout / "src" / "crc32" / "crc_32.c"
    text = crc.read_text() if crc.is_file() else ""
    for define in ["GLOBAL_SCALE_FACTOR", "CPU_MHZ"]:
        if define in text:
            return define
    raise Failure(f"{crc} scales its work by neither CPU_MHZ nor "
                  f"GLOBAL_SCALE_FACTOR: another Embench version?")


def benchmarks(checkout):
    """Each benchmark directory of the checkout, by name."""
    return sorted(d for d in (checkout / "src").iterdir() if d.is_dir())


def build(setup, checkout, ref, benchmark, work):
    """The image of benchmark (a directory) for setup, built as the
    reference was (Failure if it does not build)."""
    support = checkout / "support"
    # As Embench's own build: the benchmark's files first, then the
    # board and the harness; -w: the checkout's warnings are not ours
    sources = sorted(benchmark.glob("*.c")) + \
        [PROGRAM, support / "main.c", support / "beebsc.c"]
    # -march, when the README gives one, selects the library as well
    march = [f for f in ref.cflags if f.startswith("-march=")]
    options = firmware.AppOptions(
        optimization=ref.optimization,
        defines=[f"{ref.scale}={ref.mhz}", "WARMUP_HEAT=1"],
        includes=[support], cflags=ref.cflags + ["-w"],
        ldflags=march + ["-Wl,--gc-sections", "-Wl,--wrap=verify_benchmark",
                         *setup.ldflags],
        stack_size=setup.stack_size)
    return firmware.build_app(boards.get(setup.board), sources, options,
                              work)


def run(cmd):
    """((cycles, instructions), None) of one run of cmd, or (None, why
    not)."""
    ran, why = guest_counts.run(
        cmd, r"^embench cycles=(\d+) instructions=(\d+)$", "stop_trigger",
        RUN_TIMEOUT)
    if ran is None:
        return None, why
    counts, out = ran
    verdict = re.search(r"^embench verify=(-?\d+)$", out, re.M)
    if not verdict or verdict[1] != "1":
        # 0: wrong results; -1: the benchmark checks nothing
        return None, (f"verify_benchmark returned "
                      f"{verdict[1] if verdict else 'nothing'}")
    return (int(counts[1]), int(counts[2])), None


def rows(bench, checkout):
    """Add a row per benchmark and board, and one of their geometric
    mean."""
    checkout = Path(checkout).resolve()
    ref = reference(checkout)
    with tempfile.TemporaryDirectory() as tmp:
        for setup in SETUPS:
            board = boards.get(setup.board)
            name = setup.board + (f", --memory {setup.memory}"
                                  if setup.memory else "")
            ratios, failed = [], []
            for benchmark in benchmarks(checkout):
                what = (f"Embench {ref.version}: {benchmark.name}, "
                        f"{board.cpu} model ({name})")
                say(f"{what}: building and running")
                work = Path(tmp) / f"{setup.board}-{benchmark.name}"
                work.mkdir()
                counts, why = measure(bench, setup, checkout, ref,
                                      benchmark, work)
                silicon = baseline_cycles(ref, benchmark.name)
                if counts is None:
                    failed.append(benchmark.name)
                    bench.row(what, "failed", why)
                    continue
                cycles, instructions = counts
                model = f"{cycles} cycles (CPI {cycles / instructions:.2f})"
                if silicon is None:
                    bench.row(what, model, "no baseline figure")
                else:
                    ratios.append(cycles / silicon)
                    bench.row(what, model,
                              f"STM32F4 (Cortex-M4): {silicon} "
                              f"({100 * (cycles / silicon - 1):+.1f}%)")
            bench.row(f"Embench {ref.version}, {board.cpu} model ({name}): "
                      f"geometric mean of model / STM32F4 cycles",
                      f"{geomean(ratios):.3f}" if ratios else "-",
                      f"{setup.meaning}; {len(ratios)} benchmarks; failed: "
                      f"{', '.join(failed) or 'none'}; "
                      + built_how(board, ref))


def measure(bench, setup, checkout, ref, benchmark, work):
    """((cycles, instructions), None) of benchmark on setup's model, or
    (None, why not)."""
    try:
        image = build(setup, checkout, ref, benchmark, work)
    except Failure as e:
        return None, f"build failed: {e}"
    options = {"memory": setup.memory} if setup.memory else {}
    return run(bench.command(boards.get(setup.board), image, cycles=True,
                             windows=(), **options))


def baseline_cycles(ref, name):
    """The reference's cycles for benchmark name (None if it has none)."""
    ms = ref.milliseconds.get(name)
    return None if ms is None else round(ms * ref.mhz * 1000)


def built_how(board, ref):
    """What differs between the builds, and where the figures are from."""
    return (f"here {firmware.compiler_version(board)} and picolibc "
            f"(Debian's), there "
            f"{ref.compiler}; flags -O{ref.optimization} "
            f"{' '.join(ref.cflags)} with the board's -mcpu, "
            f"{ref.scale}={ref.mhz}; baseline: {REPOSITORY} "
            f"baseline-data/speed.json, ms at {ref.mhz} MHz")


def geomean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))
