# SPDX-License-Identifier: MIT
"""scripts/merge: the results of a test session run as shards (each
machine's --perfcounter-results DIR) merged into the one an unsharded
session writes: results.json, junit.xml, durations.json, each test's
outputs, the profiles and coverage summed per image; and the regression gate
against an earlier session's results."""

import argparse
import shutil
import sys
from pathlib import Path

from perfcounter.cli.common import ArgumentParser, main_guard
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.outputs import gate
from perfcounter.testing import results, shards


def parse_args(argv):
    p = ArgumentParser(
        prog="scripts/merge",
        description="Merge the results of a test session that ran as "
        "shards (pytest --shard K/N, each with its own "
        "--perfcounter-results folder) into OUT, as one session on one "
        "machine would have written them (docs/testing-your-firmware.md).",
        epilog="Exit status: 0 when every test passed, 1 when one failed, "
        f"{gate.REGRESSION_EXIT} when --baseline found a regression.")
    p.add_argument("out", type=Path, metavar="OUT",
                   help="the folder to write")
    p.add_argument("shards", type=Path, nargs="+", metavar="SHARD",
                   help="each shard's results folder")
    p.add_argument("--baseline", type=Path, metavar="RESULTS",
                   help="compare every test's and step's counts with an "
                   "earlier session's (its results.json or folder); a "
                   "Markdown table, $GITHUB_STEP_SUMMARY too")
    p.add_argument("--threshold", type=threshold, action="append",
                   default=[], metavar="[METRIC:]NODEID::STEP=REL%[,ABS]",
                   help="with --baseline: how much a count may grow "
                   f"(default {gate.DEFAULT_REL:g}%%,{gate.DEFAULT_ABS}; "
                   "'*' every one; repeatable)")
    args = p.parse_args(argv)
    if args.threshold and not args.baseline:
        p.error("--threshold goes with --baseline")
    return args


def threshold(text):
    try:
        return gate.parse_threshold(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def main():
    args = parse_args(sys.argv[1:])
    docs = [results.load(s) for s in args.shards]
    doc = results.merge(docs)
    durations = {}
    for s in args.shards:
        path = s / results.DURATIONS
        if path.is_file():
            durations.update(shards.load_durations(path))
    out = args.out
    if out.resolve() in [s.resolve() for s in args.shards]:
        raise Failure(f"{out} is one of the shards: write elsewhere")
    tests = out / results.TESTS
    if tests.exists():
        shutil.rmtree(tests)
    for s in args.shards:
        if (s / results.TESTS).is_dir():
            shutil.copytree(s / results.TESTS, tests, dirs_exist_ok=True)
    results.write(out, doc, durations)
    results.sum_profiles(out, doc, [out])
    counts = {o: sum(t["outcome"] == o for t in doc["tests"].values())
              for o in ("passed", "failed", "error", "skipped")}
    say(f"{len(doc['tests'])} tests from {len(args.shards)} shards in "
        f"{out}: " + ", ".join(f"{n} {o}" for o, n in counts.items() if n))
    cut = doc.get("cut_short")
    if cut:
        say(f"cut short by {cut['signal']}: "
            f"{', '.join(cut['tests']) or 'no test'} did not end")
    status = 1 if counts["failed"] or counts["error"] or cut else 0
    if args.baseline:
        rows = gate.compare(doc, results.load(args.baseline),
                            dict(args.threshold))
        table = gate.markdown(rows, "perfcounter: test counts against "
                              "the baseline")
        print(table, end="")
        gate.publish_summary(table)
        if any(r.failed for r in rows):
            status = status or gate.REGRESSION_EXIT
    return status


if __name__ == "__main__":
    main_guard(main)
