# SPDX-License-Identifier: MIT
"""What scripts/profile makes of a run besides the guest's own output:
the host's readout of every core, and the files and pictures asked for
(--json, --timeline, --svg, --chart, --baseline with --junit)."""

import sys
from pathlib import Path

import boot
import charts
import firmware
import gate
import readout
import report_json
import contexts
import elf
import timeline
from common import say


def _wrote(path):
    say(f"wrote {path} ({Path(path).stat().st_size:,} bytes)")


def host_reports(cores, mode, timed_out=False):
    """Print the host's readout of each core that counted anything and
    that the guest printed no report of (mode "auto"; of a guest that
    timed out, whether it printed one or not: what it had counted when
    QEMU was stopped), of every core ("always"), or of none ("never")."""
    for core in cores:
        if mode == "never" or (mode == "auto" and (
                not core.used or (core.reported and not timed_out))):
            continue
        last = max((s.number for s in core.sections
                    if s.clocks or s.occurrences), default=1)
        why = "" if core.reported else " (the guest printed none)"
        what = "host readout"
        if timed_out:
            what, why = "partial host readout", \
                " (when the guest was stopped)"
        print(f"[perf-counter] {what} of the core at "
              f"{core.base:#010x}{why}:")
        print(readout.format_report(core, last), end="", flush=True)


def built_from_sources(args):
    files = getattr(args, "files", None) or []
    return bool(files) and all(Path(f).suffix in firmware.SOURCE_SUFFIXES
                               for f in files)


def warn_empty_sections(cores, optimization):
    """A section of the user's sources that was entered but measured 1
    clock or less: its code was most likely optimized away (a loop
    whose result is not used), which programs written for Nios II,
    built at -O0 or -Os there, do not expect.  Not a section named for
    the overhead it measures on purpose, empty (AN 391's pc_overhead)."""
    for core in cores:
        for s in core.sections:
            name = s.name or f"section {s.number}"
            if s.occurrences and s.clocks <= s.occurrences and \
                    "overhead" not in name.lower():
                level = f" at -O{optimization}"
                say(f"{name} (core {core.base:#010x}) measured "
                    f"{s.clocks} clock(s) in {s.occurrences} "
                    f"occurrence(s): the compiler{level} may have removed "
                    f"its code (a loop whose result is never used); "
                    f"Nios II programs are usually built with -O0 or -Os "
                    f"(scripts/profile -O 0), or use the result")


def produce(args, board, built, image, result, cores, run=None,
            profile=None):
    """Everything asked for; returns the exit status (the guest's, or
    gate.REGRESSION_EXIT for a regression in a run that exited 0).
    run: how the run ended (stops.json_run), for --json; profile: the
    plugin.Profile, whose tasks and handlers go to --json and
    --timeline."""
    tasks = None
    if profile and profile.contexts:
        tasks = (profile, elf.read(image), board)
    if not cores:
        say("no readout of the counters: QEMU was stopped before it "
            "could write one" + (f" (it did not stop within "
                                 f"{boot.TERM_GRACE} s of SIGTERM and was "
                                 f"killed)" if result.timed_out else ""))
    readout.match_guest_reports(cores, result.output)
    host_reports(cores, args.host_report, result.timed_out)
    if built_from_sources(args):
        warn_empty_sections(cores, args.optimization)
    if args.chart:
        print(charts.text(cores, unicode=_utf8(sys.stdout)), end="",
              flush=True)
    doc = None
    if args.json or args.baseline:
        doc = report_json.document(
            board, built.binary(board.arch), image,
            None if args.no_icount else board.icount_shift, result, cores,
            run)
        if tasks:
            doc["contexts"] = contexts.rows(*tasks)
    if args.json:
        report_json.write(args.json, doc)
        _wrote(args.json)
    if args.timeline:
        timeline.warn_dropped(cores)
        timeline.write(args.timeline, cores, {
            "board": board.name, "image": str(image),
            "clock_hz": board.freq}, tasks)
        _wrote(args.timeline)
    if args.svg:
        title = f"{Path(image).name} on {board.name}: clocks per section"
        Path(args.svg).write_text(charts.svg(cores, title))
        _wrote(args.svg)
    status = result.exit_code
    if args.baseline:
        regressed = check_baseline(args, doc)
        if regressed and status == 0:
            status = gate.REGRESSION_EXIT
    return status


def check_baseline(args, doc):
    """Compare with --baseline; print and publish the table; True if a
    counter regressed."""
    baseline = report_json.load(args.baseline)
    thresholds = dict(args.threshold)
    rows = gate.compare(doc, baseline, thresholds)
    for key in gate.unused_thresholds(rows, thresholds):
        say(f"--threshold {key}=...: no section of the run is called or "
            f"numbered {key}, with that metric")
    table = gate.markdown(rows)
    print(table, end="", flush=True)
    if gate.publish_summary(table):
        say("appended the table to $GITHUB_STEP_SUMMARY")
    if args.junit:
        gate.junit_suite(rows).write(str(args.junit), pretty=True)
        _wrote(args.junit)
    failed = [r for r in rows if r.failed]
    if failed:
        say(f"regression against {args.baseline}: "
            + ", ".join(f"{r.name} {r.metric} ({r.core})" for r in failed))
    return bool(failed)


def _utf8(stream):
    return (getattr(stream, "encoding", "") or "").lower().replace(
        "-", "") == "utf8"
