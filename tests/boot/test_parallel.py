# SPDX-License-Identifier: MIT
"""Concurrent runs each get their own right answer: many scripts/profile
runs of different programs at once, cold builds raced, a build killed
half-way and not trusted afterwards."""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perfcounter import boards
from perfcounter.messages import say
from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"
STANDIN = Path(__file__).parent / "helpers" / "standin_build.py"
BOARDS = list(boards.BOARDS)
RUNS = len(BOARDS)          # one a board

PROGRAM = r'''
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

static volatile unsigned sink;

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;

    PERF_RESET(p);
    PERF_START_MEASURING(p);
    PERF_BEGIN(p, 1);
    for (unsigned i = 0; i < ITERATIONS; i++)
        sink += i;
    PERF_END(p, 1);
    printf("program %s\n", NAME);
    perf_print_formatted_report(p, alt_get_cpu_freq(), 1, NAME);
    return EXIT_CODE;
}
'''


def start(args, env=None):
    return subprocess.Popen([str(PROFILE)] + [str(a) for a in args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_eight_concurrent_runs_each_answer_for_their_own_program(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for n in range(RUNS):
            # Each program differs in name, loop length, exit code and
            # board; all of them are called main.c
            d = Path(tmp) / f"p{n}"
            d.mkdir()
            (d / "main.c").write_text(PROGRAM)
            name = f"prog{n}"
            args = ["--board", BOARDS[n % len(BOARDS)],
                    "-D", f'NAME="{name}"',
                    "-D", f"ITERATIONS={100 * (n + 1)}",
                    "-D", f"EXIT_CODE={10 + n}", d / "main.c"]
            runs.append((name, n, args))
        began = time.monotonic()
        procs = [(name, n, start(args)) for name, n, args in runs]
        outputs = [(name, n, p.returncode, *p.communicate(timeout=300))
                   for name, n, p in procs]
        wall = time.monotonic() - began
    wrong = 0
    for name, n, _, out, err in outputs:
        code = procs[n][2].returncode
        if code != 10 + n or f"program {name}\n" not in out or \
                f"|{name}" not in out or out.count("program ") != 1:
            wrong += 1
            print(f"      run {n} ({name}): exit {code}\n{out}\n{err}")
    say(f"{RUNS} concurrent scripts/profile runs on {len(BOARDS)} boards: "
        f"{wall:.1f} s wall, {wrong} wrong answers")
    assert wrong == 0, f"{wrong} of {RUNS} runs answered for another program"


def test_two_cold_runs_build_the_firmware_once(ctx, board):
    with tempfile.TemporaryDirectory() as build:
        env = dict(os.environ, PERF_COUNTER_BUILD=build)
        procs = [start(["--board", "riscv32-virt"], env) for _ in range(2)]
        results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    for code, out, err in results:
        assert code == 0, err
        assert "--Performance Counter Report--" in out, out
    errs = "".join(err for _, _, err in results)
    assert errs.count("configuring firmware build") == 1, errs


def standin(top, seconds):
    return subprocess.Popen([sys.executable, str(STANDIN), str(top),
                             str(seconds)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_two_cold_runs_race_one_build(ctx, board):
    with tempfile.TemporaryDirectory() as top:
        procs = [standin(top, 3) for _ in range(2)]
        results = [(p.wait(timeout=60), *p.communicate()) for p in procs]
        builds = (Path(top) / "builds").read_text().splitlines()
    for code, out, err in results:
        assert code == 0, err
        assert "result: complete" in out, out
    assert builds == ["build interrupted=False"], builds
    errs = "".join(err for _, _, err in results)
    # The holder is named when it has written its pid yet
    assert re.search(r"waiting: (process \d+|another run) is building "
                     r"the stand-in build", errs), errs


def test_a_killed_build_is_built_again(ctx, board):
    with tempfile.TemporaryDirectory() as top:
        killed = standin(top, 30)
        assert killed.stdout.readline() == "building\n"
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        rebuild = standin(top, 0)
        rebuilt, why = rebuild.communicate(timeout=60)
        again = standin(top, 0)
        out, _ = again.communicate(timeout=60)
        builds = (Path(top) / "builds").read_text().splitlines()
    assert rebuild.returncode == 0, why
    assert "did not finish" in why, why
    assert "result: complete" in rebuilt, rebuilt
    assert builds == ["build interrupted=False",
                      "build interrupted=True"], builds
    assert again.returncode == 0 and "building" not in out, out
