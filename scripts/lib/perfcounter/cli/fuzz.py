# SPDX-License-Identifier: MIT
"""scripts/fuzz: fuzz the device's register interface with libFuzzer.

The target (qemu-device/tests/qtest/fuzz/perf_counter_fuzz.c) drives two
cores on mps2-an385 with random accesses of every size and random steps
of virtual time, checking the core's invariants after each step, in a
QEMU built with AddressSanitizer and UBSan.

The corpus is two directories: tests/fuzz/corpus/ in the repository
(the inputs of the last long run, merged: every run starts there) and
build/fuzz/corpus/, where a run adds what it finds.  Concurrent runs may
share both; each keeps its own log.
"""

import os
import re
import subprocess
import sys
from dataclasses import dataclass

from perfcounter.build import cache
from perfcounter.build import qemu
from perfcounter.cli.common import ArgumentParser, main_guard
from perfcounter.messages import say
from perfcounter.paths import BUILD, REPO

TARGET = "perf-counter-fuzz"
KEPT_CORPUS = REPO / "tests" / "fuzz" / "corpus"
WORKDIR = BUILD / "fuzz"
DEFAULT_SECONDS = 600


@dataclass
class Outcome:
    ok: bool
    runs: int
    coverage: int
    corpus: int
    log: str


def run(seconds=None, runs=None):
    """Fuzz for seconds, or for runs inputs; return the Outcome (ok: no
    crash, no broken invariant, no sanitizer report)."""
    built = qemu.ensure_fuzzer_built()
    corpus = WORKDIR / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    KEPT_CORPUS.mkdir(parents=True, exist_ok=True)
    limits = ([f"-max_total_time={seconds}"] if seconds else []) + \
        ([f"-runs={runs}"] if runs else [])
    cmd = [str(built.fuzzer), f"--fuzz-target={TARGET}"] + limits + [
        "-print_final_stats=1", f"-artifact_prefix={WORKDIR}/",
        str(corpus), str(KEPT_CORPUS)]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, errors="replace")
    log = proc.stdout + proc.stderr
    cache.publish_text(WORKDIR / "last.log", log)

    def stat(name):
        m = re.search(rf"stat::{name}:\s+(\d+)", log)
        return int(m.group(1)) if m else 0

    coverage = re.findall(r"\bcov: (\d+)", log)
    sanitizer = re.search(r"ERROR: (AddressSanitizer|UndefinedBehavior"
                          r"Sanitizer)|runtime error:", log)
    return Outcome(ok=proc.returncode == 0 and not sanitizer,
                   runs=stat("number_of_executed_units"),
                   coverage=int(coverage[-1]) if coverage else 0,
                   corpus=len(os.listdir(corpus)) +
                   len(os.listdir(KEPT_CORPUS)), log=log)


def keep_corpus():
    """Merge what runs found into the repository's corpus, minimized
    (libFuzzer -merge=1: only inputs that add coverage)."""
    built = qemu.ensure_fuzzer_built()
    before = len(os.listdir(KEPT_CORPUS))
    proc = subprocess.run(
        [str(built.fuzzer), f"--fuzz-target={TARGET}", "-merge=1",
         str(KEPT_CORPUS), str(WORKDIR / "corpus")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
        errors="replace")
    if proc.returncode != 0:
        print(proc.stderr[-3000:], file=sys.stderr)
        return 1
    print(f"{KEPT_CORPUS.relative_to(REPO)}: {before} -> "
          f"{len(os.listdir(KEPT_CORPUS))} inputs")
    return 0


def main():
    p = ArgumentParser(
        prog="scripts/fuzz",
        description="Fuzz the perf-counter register interface and virtual "
        "time in a QEMU built with libFuzzer, AddressSanitizer and UBSan "
        "(built on first use, cached). Runs start from the corpus kept in "
        "tests/fuzz/corpus/ and what earlier runs found in build/fuzz/. "
        "Exits non-zero on a crash, a broken invariant or a sanitizer "
        "report; the input is saved in build/fuzz/ (crash-*).")
    p.add_argument("--seconds", type=int,
                   help=f"how long to fuzz (default: {DEFAULT_SECONDS}, "
                   f"unless --runs)")
    p.add_argument("--runs", type=int, metavar="N",
                   help="stop after N inputs (and after --seconds, if "
                   "given too)")
    p.add_argument("--keep-corpus", action="store_true",
                   help="merge build/fuzz/corpus into tests/fuzz/corpus "
                   "(minimized), to commit, and exit")
    args = p.parse_args()
    if args.keep_corpus:
        return keep_corpus()
    seconds = args.seconds or (None if args.runs else DEFAULT_SECONDS)
    say(f"fuzzing {TARGET}: " + (f"{args.runs} inputs" if args.runs
                                 else f"{seconds} s"))
    out = run(seconds, args.runs)
    print(f"{TARGET}: {out.runs} inputs"
          + (f" in at most {seconds} s" if seconds else "") + ", "
          f"coverage {out.coverage} edges, corpus {out.corpus} inputs: "
          + ("no crash, no sanitizer report" if out.ok else "FAILED"))
    if not out.ok:
        print(out.log[-4000:], file=sys.stderr)
        print(f"full log: {BUILD / 'fuzz' / 'last.log'}", file=sys.stderr)
    return 0 if out.ok else 1


if __name__ == "__main__":
    main_guard(main)
