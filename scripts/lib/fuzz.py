# SPDX-License-Identifier: MIT
"""scripts/fuzz: fuzz the device's register interface with libFuzzer.

The target (qemu-device/tests/qtest/fuzz/perf_counter_fuzz.c) drives two
cores on mps2-an385 with random accesses of every size and random steps
of virtual time, checking the core's invariants after each step, in a
QEMU built with AddressSanitizer and UBSan.
"""

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass

import qemu
from common import BUILD, main_guard, say

TARGET = "perf-counter-fuzz"


@dataclass
class Outcome:
    ok: bool
    runs: int
    coverage: int
    corpus: int
    log: str


def run(seconds, corpus=None):
    """Fuzz for seconds; return the Outcome (ok: no crash, no report)."""
    built = qemu.ensure_fuzzer_built()
    workdir = BUILD / "fuzz"
    corpus = corpus or workdir / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    cmd = [str(built.fuzzer), f"--fuzz-target={TARGET}",
           f"-max_total_time={seconds}", "-print_final_stats=1",
           f"-artifact_prefix={workdir}/", str(corpus)]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, errors="replace",
                          timeout=seconds + 300)
    log = proc.stdout + proc.stderr
    (workdir / "last.log").write_text(log)

    def stat(name):
        m = re.search(rf"stat::{name}:\s+(\d+)", log)
        return int(m.group(1)) if m else 0

    coverage = re.findall(r"\bcov: (\d+)", log)
    sanitizer = re.search(r"ERROR: (AddressSanitizer|UndefinedBehavior"
                          r"Sanitizer)|runtime error:", log)
    return Outcome(ok=proc.returncode == 0 and not sanitizer,
                   runs=stat("number_of_executed_units"),
                   coverage=int(coverage[-1]) if coverage else 0,
                   corpus=len(list(corpus.iterdir())), log=log)


def main():
    p = argparse.ArgumentParser(
        prog="scripts/fuzz",
        description="Fuzz the perf-counter register interface and virtual "
        "time in a QEMU built with libFuzzer, AddressSanitizer and UBSan "
        "(built on first use, cached). The corpus is kept in build/fuzz/, "
        "so each run starts where the last one stopped. Exits non-zero on "
        "a crash, a broken invariant or a sanitizer report; the input is "
        "saved in build/fuzz/ (crash-*).")
    p.add_argument("--seconds", type=int, default=600,
                   help="how long to fuzz (default: %(default)s)")
    args = p.parse_args()
    say(f"fuzzing {TARGET} for {args.seconds} s")
    out = run(args.seconds)
    print(f"{TARGET}: {out.runs} inputs in {args.seconds} s, "
          f"coverage {out.coverage} edges, corpus {out.corpus} inputs: "
          + ("no crash, no sanitizer report" if out.ok else "FAILED"))
    if not out.ok:
        print(out.log[-4000:], file=sys.stderr)
        print(f"full log: {BUILD / 'fuzz' / 'last.log'}", file=sys.stderr)
    return 0 if out.ok else 1


if __name__ == "__main__":
    main_guard(main)
