# SPDX-License-Identifier: MIT
"""What a run gives besides the guest's own output, each written from
the run's Result (never from a command line): the profile (gmon.out,
stacks, flame graph, speedscope, per task) and gprof's flat profile,
the cycle estimate, the host's readout of every core, --json,
--timeline, the charts, and the regression gate against a baseline.

    status = outputs.write(result, OutputOptions(json=Path("run.json")))
"""

import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.boot import qemu_process

# Each writer is imported when its output is asked for: a plain run
# writes none of them, and importing them all took 0.08 s of it.


@dataclass
class OutputOptions:
    """Which outputs to write, and where.

    gmon: gmon.out's path (with a profile); stacks, flamegraph,
    speedscope: the call stacks' files; per_task: a gmon.out per task;
    gprof_unit: "seconds" or "clocks"; gprof_call_graph: the -pg
    workflow (the guest's own call counts, and gprof's call graph);
    host_report: "auto", "always" or "never"; chart: a text bar chart;
    svg, json, timeline: files; baseline: an earlier --json file to gate
    against, with thresholds ({key: gate.Threshold}) and junit;
    coverage: an LCOV tracefile (with the exact profile), of the
    source files coverage_files says: (include globs, omit globs);
    annotate: functions whose annotated listing to print (hottest: their
    source lines costliest first too); html: the report page;
    load_window_ns: the windows of the CPU load over time (tasks;
    None: cpu_load's default).
    """
    gmon: Path = None
    stacks: Path = None
    flamegraph: Path = None
    speedscope: Path = None
    per_task: bool = False
    gprof_unit: str = "seconds"
    gprof_call_graph: bool = False
    host_report: str = "auto"
    chart: bool = False
    svg: Path = None
    json: Path = None
    timeline: Path = None
    baseline: Path = None
    thresholds: dict = field(default_factory=dict)
    junit: Path = None
    coverage: Path = None
    coverage_files: tuple = ((), ())
    annotate: tuple = ()
    hottest: bool = False
    load_window_ns: int = None
    html: Path = None


def wrote(path):
    say(f"wrote {path} ({Path(path).stat().st_size:,} bytes)")


class Unwritten:
    """The output files that could not be written once the run had
    ended (a full disk, an I/O error): each is noted, what was written
    of it removed (a truncated --json is no report), the others are
    written all the same, and then check() fails in one line naming the
    first."""

    def __init__(self):
        self.files = []         # (path, why)

    @contextmanager
    def writing(self, path):
        """Write the output at path (in the with block), noting an
        OSError instead of raising it"""
        try:
            yield
        except OSError as err:
            self.files.append((path, err.strerror or str(err)))
            if Path(path).is_file():    # (not a device, nor a pattern)
                Path(path).unlink(missing_ok=True)

    def __contains__(self, path):
        return any(p == path for p, _ in self.files)

    def check(self):
        if self.files:
            (path, why), more = self.files[0], len(self.files) - 1
            raise Failure(f"cannot write {path}: {why}" +
                          (f" (and {more} other output"
                           f"{'s' if more > 1 else ''})" if more else ""))


def needs_call_stacks(options):
    """Whether options ask for an output made of call stacks (the
    collapsed stacks, the flame graphs, each function's total count in
    --json, the gate and the report): a run without them follows no
    call stacks, which costs far less (RunConfig.stacks)."""
    return bool(options.stacks or options.flamegraph or options.speedscope
                or options.json or options.baseline or options.html)


def writers(config, options):
    """The modules write() imports for config's run and options: to
    import ahead of it (on a thread while QEMU runs: a short run's end
    waited for them). One missed here is imported by write() all the
    same."""
    asked = [
        (True, ["results.readout"]),
        (config.profile is not None,
         ["outputs.annotate", "outputs.gprof", "outputs.hotspots"]),
        (config.cycles, ["outputs.cycles"]),
        (options.chart or options.svg, ["outputs.charts"]),
        (options.json or options.baseline or options.html,
         ["outputs.json_report"]),
        (options.html, ["outputs.html_report"]),
        (options.coverage, ["outputs.coverage"]),
        (options.timeline, ["outputs.timeline"]),
        (options.baseline, ["outputs.gate"]),
    ]
    return [f"perfcounter.{name}" for wanted, names in asked if wanted
            for name in names]


def read_ahead(target, exact, options):
    """Read what write() will need of target's image for options (its
    DWARF line table, its conditional branches), kept by the Target:
    called while QEMU runs, since an image not read before takes 0.3 to
    1.1 s (pyelftools, objdump), then the cache's few ms.  exact: the
    run counts every instruction (coverage's, the page's source)."""
    covered = options.coverage or (options.html and exact)
    if covered or options.annotate:
        target.line_table
    if covered:
        target.conditional_branches


def write(result, options):
    """Every output options asks for, in the order a person reads them;
    returns the exit status (the guest's, or gate.REGRESSION_EXIT for a
    regression in a run that exited 0)."""
    from perfcounter.results import readout
    from perfcounter.results.plugin_results import without_gc
    # (as the records were read: a long run's outputs make millions of
    # texts and tuples, and each full collection walked the run's records
    # again; scripts/profile runs without the collector at all)
    with without_gc():
        # the sections named as the guest's report names them, before
        # the timeline's writer reads their names
        readout.match_guest_reports(result.cores, result.output)
        unwritten = Unwritten()
        status = _write_in_order(result, options, unwritten)
    unwritten.check()
    return status


def _write_in_order(result, options, unwritten):
    """write()'s outputs; those that cannot be written noted in
    unwritten"""
    write_estimates(result, options, unwritten)
    cores = result.cores
    if not cores:
        say("no readout of the counters: QEMU was stopped before it "
            "could write one" + (f" (it did not stop within "
                                 f"{qemu_process.TERM_GRACE} s of SIGTERM "
                                 f"and was killed)" if result.qemu_killed
                                 else ""))
    host_reports(cores, options.host_report, result.cut_short)
    if result.target.built:
        warn_empty_sections(cores, result.target.built.optimization)
    if options.chart or options.svg:
        from perfcounter.outputs import charts
    if options.json or options.baseline or options.html:
        from perfcounter.outputs import json_report
    if options.chart:
        print(charts.text(cores, unicode=_utf8(sys.stdout)), end="",
              flush=True)
    doc = None
    if options.json or options.baseline or options.html:
        doc = json_report.document(result, options.load_window_ns)
    if options.json:
        with unwritten.writing(options.json):
            json_report.write(options.json, doc)
            wrote(options.json)
    rows = compare_baseline(options, doc) if options.baseline else None
    if options.html:
        from perfcounter.outputs import html_report
        with unwritten.writing(options.html):
            html_report.write(options.html, result, doc, rows)
            wrote(options.html)
    if options.coverage:
        from perfcounter.outputs import coverage
        files = coverage.of_run(result, *options.coverage_files)
        with unwritten.writing(options.coverage):
            coverage.write(options.coverage, files)
            kind = {".xml": "Cobertura XML", ".json": "gcovr JSON"}.get(
                Path(options.coverage).suffix, "LCOV")
            say(f"coverage: {coverage.summary(files)}; {kind} in "
                f"{options.coverage}")
    if options.timeline:
        # (in its turn: on a thread beside the others it took 20% longer,
        # the two taking turns for Python's lock; docs/performance.md)
        from perfcounter.outputs import timeline
        timeline.warn_dropped(cores)
        with unwritten.writing(options.timeline):
            timeline.write(options.timeline, result, options.load_window_ns)
            wrote(options.timeline)
    if options.svg:
        title = f"{result.target.path.name} on {result.board.name}: " \
            f"clocks per section"
        with unwritten.writing(options.svg):
            Path(options.svg).write_text(charts.svg(cores, title))
            wrote(options.svg)
    status = result.exit_code
    if options.baseline:
        regressed = report_baseline(options, rows, unwritten)
        if regressed and status == 0:
            from perfcounter.outputs import gate
            status = gate.REGRESSION_EXIT
    return status


def write_estimates(result, options, unwritten):
    """The profile and the cycle estimate, however the run ended; a run
    cut short says so, and one QEMU could not finish writing loses only
    what is missing (its files that cannot be written: in unwritten)."""
    config = result.config
    mark = f" (cut short by {result.cut_short})" if result.cut_short \
        else ""
    try:
        if config.profile is not None:
            from perfcounter.outputs import annotate, gprof, hotspots
            if mark:
                say("profile" + mark + ":")
            sys.stdout.write(hotspots.write(result, options,
                                            unwritten=unwritten))
            if options.gprof_call_graph and options.gmon not in unwritten:
                sys.stdout.write(gprof.run(result.target, options.gmon,
                                           "-q"))
            for name in options.annotate:
                sys.stdout.write(annotate.report(result, name,
                                                 options.hottest))
            sys.stdout.flush()
        if config.cycles:
            from perfcounter.outputs import cycles
            if mark:
                say("cycles" + mark + ":")
            sys.stdout.write(cycles.report(result))
            sys.stdout.flush()
    except Failure as err:
        if not result.cut_short:
            raise
        say(f"no profile of the run cut short: {err}")


def host_reports(cores, mode, cut_short=None):
    """Print the host's readout of each core that counted anything and
    that the guest printed no report of (mode "auto"; of a run cut short,
    whether it printed one or not: what it had counted when QEMU was
    stopped), of every core ("always"), or of none ("never")."""
    from perfcounter.results import readout
    for core in cores:
        if mode == "never" or (mode == "auto" and (
                not core.used or (core.reported and not cut_short))):
            continue
        last = max((s.number for s in core.sections
                    if s.clocks or s.occurrences), default=1)
        why = "" if core.reported else " (the guest printed none)"
        what = "host readout"
        if cut_short:
            what, why = "partial host readout", \
                " (when the guest was stopped)"
        print(f"[perf-counter] {what} of the core at "
              f"{core.base:#010x}{why}:")
        print(readout.format_report(core, last), end="", flush=True)


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


def compare_baseline(options, doc):
    """The gate's rows: the run's --json document against the
    baseline's; says which thresholds name nothing."""
    from perfcounter.outputs import gate, json_report
    baseline = json_report.load(options.baseline)
    thresholds = dict(options.thresholds)
    rows = gate.compare(doc, baseline, thresholds)
    for key in gate.unused_thresholds(rows, thresholds):
        say(f"--threshold {key}=...: no section of the run is called or "
            f"numbered {key}, with that metric")
    return rows


def report_baseline(options, rows, unwritten):
    """Print and publish the gate's table (and JUnit, if it can be
    written: unwritten notes it if not); True if a value regressed."""
    from perfcounter.outputs import gate
    table = gate.markdown(rows)
    print(table, end="", flush=True)
    if gate.publish_summary(table):
        say("appended the table to $GITHUB_STEP_SUMMARY")
    if options.junit:
        with unwritten.writing(options.junit):
            gate.junit_suite(rows).write(str(options.junit), pretty=True)
            wrote(options.junit)
    failed = [r for r in rows if r.failed]
    if failed:
        say(f"regression against {options.baseline}: "
            + ", ".join(f"{r.name} {r.metric} ({r.core})" for r in failed))
    return bool(failed)


def _utf8(stream):
    return (getattr(stream, "encoding", "") or "").lower().replace(
        "-", "") == "utf8"
