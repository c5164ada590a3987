# SPDX-License-Identifier: MIT
"""scripts/profile: build, boot and print a performance counter report."""

import argparse
import gc
import importlib
import os
import re
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

from perfcounter import boards, outputs
from perfcounter.build import firmware, qemu
from perfcounter.cli import terminal
from perfcounter.cli.common import ArgumentParser, main_guard
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.outputs import gate
from perfcounter.paths import BUILD
from perfcounter.boot import qemu_process, run, stops
from perfcounter.boot.signals import Signals
from perfcounter.boot.config import (DEFAULT_BAUD, DEFAULT_TIMELINE_EVENTS,
                                     DEFAULT_TIMEOUT, RunConfig, Serial)
from perfcounter.periods import DEFAULT_PERIOD, EXACT
from perfcounter.target import BuildOptions, Target

EXAMPLES = ["checksum", "two_cores", "event_sampling", "counter_extension"]
DEFAULT_QUIET_NS = 100_000_000
SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20}


def size(text):
    """A size in bytes: 4096, 0x1000, 128K or 1M."""
    m = re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)([KkMm]?)", text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a size (say 4096, 0x1000, 128K or 1M)")
    return int(m.group(1), 0) * SIZE_UNITS[m.group(2).upper()]


def seconds(text):
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not value > 0:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a positive number of seconds")
    return value


def counter(text):
    """BASE[:SECTIONS] of a core to add."""
    m = re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)(?::(\d+))?", text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not BASE[:SECTIONS] (say 0x40040000:3)")
    return int(m.group(1), 0), int(m.group(2) or 7)


def sample_period(text):
    """--sample's value: a number of counter clocks, or exact."""
    if text == "exact":
        return EXACT
    if text.isdigit() and int(text) > 0:
        return int(text)
    raise argparse.ArgumentTypeError(
        f"'{text}' is not a period: give a number of counter clocks (1 or "
        f"more) or exact")


def threshold(text):
    try:
        return gate.parse_threshold(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def events(text):
    if not text.isdigit() or not 1 <= int(text) <= 1 << 22:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a number of events from 1 to 4194304")
    return int(text)


def flags(text):
    import shlex
    try:
        return shlex.split(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"'{text}': {err}") from None


def parse_args(argv):
    p = ArgumentParser(
        prog="scripts/profile",
        # (not argparse's synopsis of every option: 27 lines above their
        # list, which every run's intermixed parse made, 0.9 ms)
        usage="%(prog)s [OPTION]... [FILE]...",
        description="Boot firmware on an emulated board with the "
        "performance counter core attached, headless, and print what the "
        "guest prints (its performance counter report). Exits with the "
        "guest's exit code. Without files, runs the bundled checksum "
        "example. The first run installs packages and builds QEMU.",
        epilog="Counts are exact and repeatable: QEMU runs with -icount so "
        "that one clock is one retired instruction (see docs/). Exit "
        "status: the guest's; 124 when it timed out; 3 when --baseline "
        "found a regression in a run that exited 0; 1 when a build, an "
        "image check or QEMU failed; 2 for a bad command line.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="C or assembly sources to compile with the library "
                   "for the board, or one ELF image to boot as it is")
    p.add_argument("--board", default=boards.DEFAULT_BOARD,
                   choices=list(boards.BOARDS), metavar="BOARD",
                   help="board to boot (default: %(default)s); see "
                   "--list-boards")
    p.add_argument("--example", choices=EXAMPLES, default=EXAMPLES[0],
                   help="bundled example to run when no FILE is given: "
                   "checksum (the AN 391 tutorial), two_cores (two "
                   "counter cores on one board), event_sampling (a "
                   "histogram of the pcs interrupted every 100 calls) or "
                   "counter_extension (a 32-bit count extended by its "
                   "overflow interrupt); default: %(default)s")
    p.add_argument("--list-boards", action="store_true",
                   help="list the boards with their CPU and counter clock, "
                   "then exit")
    p.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                   metavar="SECONDS",
                   help="the host-time safety net: stop a guest that has "
                   "not exited or reached a stop after this many host "
                   "seconds, write what it had, marked as cut short, and "
                   "exit with 124 (default: %(default)s)")
    build = p.add_argument_group(
        "building your sources", "as a compiler takes them; the board's "
        "system.h and the library's headers are on the include path")
    build.add_argument("-O", "--optimization", default="2",
                       choices=["0", "g", "1", "2", "3", "s"],
                       help="optimization level (default: %(default)s)")
    build.add_argument("-D", dest="defines", action="append", default=[],
                       metavar="NAME[=VALUE]",
                       help="define a macro, e.g. -D P_COUNTER_BASE="
                       "PERFORMANCE_COUNTER_BASE to map your own instance "
                       "name (repeatable)")
    build.add_argument("-I", dest="includes", action="append", default=[],
                       metavar="DIR", help="add DIR to the include path, "
                       "before the board's (repeatable)")
    build.add_argument("--cflags", type=flags, action="append", default=[],
                       metavar="FLAGS", help="more compiler flags, "
                       "e.g. --cflags='-Wall -Werror' (repeatable)")
    build.add_argument("--ldflags", type=flags, action="append", default=[],
                       metavar="FLAGS", help="more linker flags, e.g. "
                       "--ldflags=-lm (repeatable)")
    build.add_argument("--stack-size", type=size, metavar="SIZE",
                       help="the stack, e.g. 256K (default: 1M, from the "
                       "board's cross file)")
    build.add_argument("--heap-size", type=size, default=0, metavar="SIZE",
                       help="refuse to build unless the heap (the RAM left "
                       "between data and stack) has at least SIZE")
    build.add_argument("-o", "--output", type=Path, metavar="ELF",
                       help="also keep the built image as ELF")
    run = p.add_argument_group("running")
    run.add_argument("--add-counter", type=counter, action="append",
                     default=[], metavar="BASE[:SECTIONS]",
                     help="attach one more counter core at BASE (with 7 "
                     "sections unless SECTIONS); QEMU says where the board "
                     "has room if BASE is not free (repeatable)")
    run.add_argument("--cpu", metavar="CPU[,PROP=VALUE...]",
                     help="the core QEMU models, with its extensions, as "
                     "QEMU's -cpu takes it: rv32,zcd=off,zcmp=on for RISC-V "
                     "code using Zcmp (docs/boards.md); default: the "
                     "board's")
    run.add_argument("--no-icount", action="store_true",
                     help="run without -icount: faster for long programs, "
                     "but counts then follow host time and change run to "
                     "run")
    run.add_argument("--no-image-check", action="store_true",
                     help="boot an image even if it does not look "
                     "bootable on the board (other architecture, memory "
                     "map)")
    run.add_argument("--console", type=Path, metavar="FILE",
                     help="write what the guest prints on its UARTs to "
                     "FILE instead of the output (by default every UART "
                     "of the board is shown, in order with semihosting "
                     "output)")
    run.add_argument("--qemu-arg", action="append", default=[],
                     metavar="ARG",
                     help="pass ARG to QEMU (repeatable), e.g. "
                     "--qemu-arg=-d --qemu-arg=guest_errors")
    stop = p.add_argument_group(
        "stopping firmware that never exits", "at the same instruction "
        "on every run (docs/user-guide.md); the first stop reached ends "
        "the run, which then writes every output and exits 0")
    stop.add_argument("--stop-after", type=stops.after, action="append",
                      default=[], metavar="COUNT",
                      help="stop after COUNT: " + stops.AFTER_FORMS +
                      " (repeatable)")
    stop.add_argument("--stop-at", type=stops.place, action="append",
                      default=[], metavar="SYMBOL[:K]",
                      help="stop when the pc reaches SYMBOL (or an "
                      "address) for the K-th time (default 1), before "
                      "that instruction runs (repeatable)")
    stop.add_argument("--start-at", metavar="SYMBOL",
                      help="profile (--sample, --cycles) from the first "
                      "time the pc reaches SYMBOL (or an address), to "
                      "leave boot and start-up out")
    talk = p.add_argument_group(
        "talking to the firmware", "a UART's input arrives in virtual "
        "time, a byte each character time of the line (--baud), whenever "
        "the UART has room: the same input gives the same run; UART is "
        "QEMU's serial port number, the board's console by default "
        "(docs/testing-your-firmware.md)")
    talk.add_argument("--input", type=serial_file, action="append",
                      default=[], metavar="[UART:]FILE",
                      help="send FILE's bytes to the UART; - reads the "
                      "standard input to its end first (a pipe is not "
                      "read unless asked: CI shells feed their script "
                      "there); without --input, a terminal types into "
                      "the console as the keys come (not repeatable)")
    talk.add_argument("--uart-pty", type=serial_file, action="append",
                      default=[], metavar="[UART:]PATH",
                      help="serve the UART on a pseudo-terminal, with a "
                      "symlink to it at PATH, for a test runner that opens "
                      "a serial device (its input is not repeatable)")
    talk.add_argument("--uart-socket", type=serial_file, action="append",
                      default=[], metavar="[UART:]PATH",
                      help="serve the UART on a UNIX socket at PATH; the "
                      "guest starts once the runner connects")
    talk.add_argument("--baud", type=baud, default=DEFAULT_BAUD,
                      help="the line's speed: an input byte each 10 bits "
                      "of it (default: %(default)s, 86.8 us a byte)")
    talk.add_argument("--stop-at-eof", nargs="?", type=quiet,
                      const=DEFAULT_QUIET_NS, metavar="QUIET",
                      help="end the run once the input has all been taken "
                      "and the guest has sent nothing for QUIET of "
                      "virtual time (default 100ms: an interpreter may "
                      "think a while before it answers)")
    hot = p.add_argument_group(
        "finding hot spots", "with no code in the guest and no change to "
        "what it measures; gprof reads the gmon.out with the image")
    hot.add_argument("--sample", nargs="?", type=sample_period,
                     const=DEFAULT_PERIOD, metavar="PERIOD",
                     help="record the pc every PERIOD counter clocks "
                     f"(default {DEFAULT_PERIOD}), or at every "
                     "instruction with --sample=exact; write gmon.out "
                     "and print gprof's flat profile after the guest's "
                     "output")
    hot.add_argument("--cycles", action="store_true",
                     help="estimate the core's clock cycles with the "
                     "plugin's timing model (the Cortex-M and RISC-V "
                     "boards'; docs/cycles.md) "
                     "and print them for the run and per function after "
                     "the guest's output; the counter cores count them "
                     "as their clock (sections and report in estimated "
                     "cycles, instructions beside them)")
    hot.add_argument("--memory", metavar="PART",
                     help="with --cycles on a Cortex-M3/M4: code and "
                     "read-only data in PART's flash, with its wait states, "
                     "prefetch buffer and cache (stm32f103-72mhz, "
                     "stm32f407-168mhz, sam3x8e-84mhz...; docs/cycles.md); "
                     "default: SRAM, no wait")
    hot.add_argument("--wait-states", type=int, metavar="N",
                     choices=range(0, 101),
                     help="with --cycles: flash wait states (PART's "
                     "instead; without --memory, added to each "
                     "Cortex-M3/M4 pipeline refill)")
    hot.add_argument("--gprof", action="store_true",
                     help="the -pg workflow: build the sources with -pg, "
                     "so that the library counts every call in the guest, "
                     "and add those call counts to the pc samples (implies "
                     "--sample); prints gprof's call graph too")
    hot.add_argument("--gmon", type=Path, metavar="FILE",
                     help="write gmon.out to FILE (default: beside the "
                     "image; for sources, the image is kept in the current "
                     "directory unless -o says where)")
    hot.add_argument("--gprof-unit", choices=["seconds", "clocks"],
                     default="seconds",
                     help="what gprof's times are in: the counter's "
                     "seconds (default), or counter clocks, exact to the "
                     "clock")
    hot.add_argument("--per-task", action="store_true",
                     help="also write a gmon.out per task and interrupt "
                     "handler beside gmon.out (gmon.TASK.out) and print "
                     "gprof's flat profile of each (docs/tasks.md)")
    hot.add_argument("--flamegraph", type=Path, metavar="FILE",
                     help="also draw the call stacks as an SVG flame graph")
    hot.add_argument("--stacks", type=Path, metavar="FILE",
                     help="also write the call stacks, collapsed (the "
                     "input of flamegraph.pl and speedscope)")
    hot.add_argument("--speedscope", type=Path, metavar="FILE",
                     help="also write the call stacks in speedscope's "
                     "own JSON file format (open it at speedscope.app or "
                     "with the speedscope command)")
    hot.add_argument("--coverage", type=Path, metavar="FILE",
                     help="also write the run's line, function and "
                     "branch coverage, exact, as an LCOV tracefile "
                     "(genhtml, lcov), Cobertura XML if FILE ends in "
                     ".xml, gcovr's JSON if it ends in .json; needs the "
                     "image's DWARF (-g) and the exact profile, which it "
                     "turns on")
    hot.add_argument("--html", type=Path, metavar="FILE",
                     help="also write one self-contained HTML page of the "
                     "run: its sections, functions, flame graph (with "
                     "--sample), tasks and handlers; it opens offline")
    hot.add_argument("--annotate", action="append", default=[],
                     metavar="FUNCTION",
                     help="print FUNCTION's source lines and instructions "
                     "with what the profile counted at each, and with "
                     "--cycles each one's estimated cycles and stalls "
                     "(repeatable; turns on --sample=exact if no --sample "
                     "is given)")
    hot.add_argument("--hottest", action="store_true",
                     help="with --annotate: list the function's source "
                     "lines first, the costliest at the top (estimated "
                     "cycles with --cycles, else counts)")
    hot.add_argument("--load-window", type=virtual_time, metavar="TIME",
                     help="the windows of virtual time each task's and "
                     "handler's CPU load is given in (--sample; --json, "
                     "--timeline and the tasks' table; default 1ms)")
    hot.add_argument("--coverage-include", action="append", default=[],
                     metavar="GLOB",
                     help="with --coverage: only the source files whose "
                     "path (absolute, or from here) matches GLOB "
                     "(repeatable; say 'src/*')")
    hot.add_argument("--coverage-omit", action="append", default=[],
                     metavar="GLOB",
                     help="with --coverage: not the source files whose path "
                     "matches GLOB (repeatable; say '*/FreeRTOS/*')")
    run.add_argument("--qmp", type=Path, metavar="SOCKET",
                     help="serve QMP on the UNIX socket SOCKET while the "
                     "guest runs: scripts/readout SOCKET prints the live "
                     "counts of every core")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="show the QEMU command line, and the host time "
                     "the run and its results (all after QEMU's exit) "
                     "took")
    out = p.add_argument_group(
        "results", "read by the host from every core when QEMU exits, "
        "whether or not the guest prints (see docs/user-guide.md)")
    out.add_argument("--host-report", choices=["auto", "always", "never"],
                     default="auto",
                     help="print the host's readout of a core as the "
                     "report table: auto (default) when the guest printed "
                     "no report of a core that counted")
    out.add_argument("--chart", action="store_true",
                     help="print a text bar chart of each core's sections")
    out.add_argument("--svg", type=Path, metavar="FILE",
                     help="write an SVG bar chart of the sections")
    out.add_argument("--json", type=Path, metavar="FILE",
                     help="write the run and every core's numbers as JSON "
                     "(schemas/profile-report.schema.json)")
    out.add_argument("--timeline", type=Path, metavar="FILE",
                     help="write every START, STOP, BEGIN and END at its "
                     "virtual time as a Chrome trace (Perfetto UI, "
                     "chrome://tracing)")
    out.add_argument("--timeline-events", type=events,
                     default=DEFAULT_TIMELINE_EVENTS, metavar="N",
                     help="commands each core keeps for --timeline "
                     "(default: %(default)s; later ones are counted as "
                     "dropped)")
    out.add_argument("--baseline", type=Path, metavar="FILE",
                     help="compare with a --json file of an earlier run; "
                     "print a Markdown table of what changed (also "
                     f"appended to $GITHUB_STEP_SUMMARY) and exit "
                     f"{gate.REGRESSION_EXIT} on a regression")
    out.add_argument("--threshold", type=threshold, action="append",
                     default=[], metavar="[METRIC:]SECTION=REL%[,ABS]",
                     help="with --baseline: a section (name or number; "
                     "'*' every section, 'total' the global counter) "
                     "regresses when one of its numbers (clocks, "
                     "instructions, occurrences...; only METRIC if given) "
                     "grows by more than REL percent and more than ABS "
                     f"(default: {gate.DEFAULT_REL:g}%%,{gate.DEFAULT_ABS}; "
                     "repeatable; the most specific wins)")
    out.add_argument("--junit", type=Path, metavar="FILE",
                     help="with --baseline: also write the comparison as "
                     "JUnit XML, a test case per value (a metric of a "
                     "counter)")
    # As a compiler takes them: options and files in any order
    args = p.parse_intermixed_args(optional_values(argv))
    if (args.junit or args.threshold) and not args.baseline:
        p.error("--junit and --threshold go with --baseline")
    if args.qmp and not args.qmp.resolve().parent.is_dir():
        p.error(f"--qmp {args.qmp}: no such directory "
                f"{args.qmp.resolve().parent}")
    if args.qmp and (args.qmp.exists() or args.qmp.is_symlink()) and \
            not args.qmp.is_socket():
        p.error(f"--qmp {args.qmp}: exists and is not a socket")
    if args.baseline and not args.baseline.is_file():
        p.error(f"--baseline {args.baseline}: no such file")
    check_files(p, args)
    check_outputs(p, args)
    check_stops(p, args)
    return args


def optional_values(argv):
    """argv with '--sample X' or '--stop-at-eof X', where X is not such
    an option's value, read as the option's default and the file X:
    their values are optional, and what is not a value is a file (but a
    number that names no file: a bad value, '--sample 0')."""
    defaults = {"--sample": (sample_period, DEFAULT_PERIOD),
                "--stop-at-eof": (quiet, "100ms")}
    out = []
    for i, arg in enumerate(argv):
        out.append(arg)
        if arg in defaults and i + 1 < len(argv):
            parse, default = defaults[arg]
            value = argv[i + 1]
            try:
                parse(value)
            except argparse.ArgumentTypeError:
                if not value.startswith("-") and not (
                        value[:1].isdigit() and not Path(value).exists()):
                    out[-1] = f"{arg}={default}"
    return out


def serial_file(text):
    """[UART:]PATH: (UART or None for the console, PATH)."""
    uart, sep, path = text.partition(":")
    if sep and uart.isdigit():
        return int(uart), path
    return None, text


def baud(text):
    if not text.isdigit() or not 300 <= int(text) <= 10_000_000:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a baud rate from 300 to 10000000")
    return int(text)


def quiet(text):
    """--stop-at-eof's value: virtual time, in ns."""
    try:
        kind, ns = stops.after(text)
    except argparse.ArgumentTypeError:
        kind = None
    if kind != "time":
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a virtual time (say 10ms, 500us)")
    return ns


def virtual_time(text):
    """A length of virtual time (say 10ms, 500us), in ns."""
    ns = quiet(text)
    if not ns:
        raise argparse.ArgumentTypeError(f"'{text}' is no time at all")
    return ns


def check_stops(parser, args):
    kinds = {kind for kind, _ in args.stop_after}
    if "cycles" in kinds and not args.cycles:
        parser.error("--stop-after in cycles counts estimated cycles: add "
                     "--cycles")
    if "instructions" in kinds and args.no_icount:
        parser.error("--stop-after in instructions needs -icount: drop "
                     "--no-icount")
    if (args.memory or args.wait_states is not None) and not args.cycles:
        parser.error("--memory and --wait-states set the timing model's "
                     "memory: add --cycles")
    if args.start_at and args.sample is None and not args.cycles:
        parser.error("--start-at starts the profile: it goes with "
                     "--sample, --gprof or --cycles")


# The options naming a file the run writes
OUTPUT_FILES = ("console", "gmon", "stacks", "flamegraph", "speedscope",
                "coverage", "html", "svg", "json", "timeline", "junit")


def check_outputs(parser, args):
    """Refuse, before the run, an output file that could not be written:
    found only once the outputs are written, the run was lost."""
    for name in OUTPUT_FILES:
        path = getattr(args, name)
        if path is None:
            continue
        option = f"--{name} {path}"
        folder = path.resolve().parent
        if not folder.is_dir():
            parser.error(f"{option}: no such directory {folder}")
        if path.is_dir():
            parser.error(f"{option}: is a directory")
        if not os.access(folder, os.W_OK | os.X_OK) or \
                (path.exists() and not os.access(path, os.W_OK)):
            parser.error(f"{option}: not writable")


def check_files(parser, args):
    """Refuse, as a usage error, files that are missing or not sources
    or one image."""
    files = [Path(f) for f in args.files]
    for f in files:
        if not f.is_file():
            parser.error(f"{f}: no such file")
    for d in args.includes:
        if not Path(d).is_dir():
            parser.error(f"-I {d}: no such directory")
    for uart, path in args.input:
        given = path if uart is None else f"{uart}:{path}"
        if Path(path).is_dir():
            parser.error(f"--input {given}: is a directory")
        if path != "-" and not Path(path).is_file():
            parser.error(f"--input {given}: no such file")
    sources = [f for f in files if f.suffix in firmware.SOURCE_SUFFIXES]
    if len(sources) < len(files) and len(files) > 1:
        suffixes = ", ".join(sorted(firmware.SOURCE_SUFFIXES))
        parser.error(f"give C or assembly sources ({suffixes}), or one "
                     f"ELF image")
    if args.gprof and args.sample is None:
        args.sample = DEFAULT_PERIOD
    if args.annotate and args.sample is None:
        args.sample = EXACT
    if args.hottest and not args.annotate:
        parser.error("--hottest orders --annotate's lines: add --annotate "
                     "FUNCTION")
    if (args.coverage_include or args.coverage_omit) and not args.coverage:
        parser.error("--coverage-include and --coverage-omit choose the "
                     "files of --coverage: add --coverage FILE")
    if args.coverage:
        if args.sample not in (None, EXACT):
            parser.error("--coverage counts every instruction: give "
                         "--sample=exact or no --sample")
        args.sample = EXACT
    if (args.gmon or args.stacks or args.flamegraph or args.speedscope
            or args.per_task) and args.sample is None:
        parser.error("--gmon, --stacks, --flamegraph, --speedscope and "
                     "--per-task go with --sample or --gprof")
    if args.gprof and not args.files:
        parser.error("--gprof builds your sources with -pg, or boots an "
                     "image built with -pg: give them")
    building = args.defines or args.includes or args.cflags or \
        args.ldflags or args.stack_size is not None or args.heap_size \
        or args.output
    if building and not sources:
        parser.error("-D, -I, --cflags, --ldflags, --stack-size, "
                     "--heap-size and -o apply to sources to build; no "
                     "source was given")


def list_boards():
    print(f"{'board':<14} {'cpu':<11} {'counter clock':>16}  "
          f"{'-icount':<8} cores (base: sections)")
    for b in boards.BOARDS.values():
        cores = ", ".join(f"{base:#010x}: {n}" for base, n in b.counters)
        default = " (default)" if b.name == boards.DEFAULT_BOARD else ""
        print(f"{b.name:<14} {b.cpu:<11} {b.freq:>13} Hz  "
              f"shift={b.icount_shift:<2} {cores}{default}")


def app_options(args):
    return firmware.AppOptions(
        optimization=args.optimization, defines=args.defines,
        includes=args.includes,
        cflags=sum(args.cflags, []) + (["-pg"] if args.gprof else []),
        ldflags=sum(args.ldflags, []), stack_size=args.stack_size,
        heap_size=args.heap_size)


def choose_target(args, board, workdir):
    """The Target to boot: the bundled example, the given ELF, or the
    given sources built in workdir."""
    if not args.files:
        return Target(firmware.image(firmware.build(board),
                                     f"firmware/examples/{args.example}.elf"),
                      board)
    files = [Path(f) for f in args.files]
    if files[0].suffix not in firmware.SOURCE_SUFFIXES:
        return Target(files[0], board)
    image = firmware.build_app(board, files, app_options(args), workdir)
    keep = args.output
    if keep is None and args.sample is not None:
        keep = Path(files[0].stem + ".elf")     # gprof needs it
    if keep:
        import shutil
        shutil.copyfile(image, keep)
        image = keep
    return Target(image, board, BuildOptions(args.optimization))


def serials(args, board, workdir):
    """The Serials of --input, --uart-pty and --uart-socket, and of the
    terminal typing into the console when nothing else does."""
    found = {}

    def add(uart, **how):
        uart = board.console_uart if uart is None else uart
        if uart in found:
            raise Failure(f"UART {uart} is given twice (--input, "
                          f"--uart-pty, --uart-socket): one each")
        found[uart] = Serial(uart, **how)

    for uart, path in args.input:
        if path == "-":
            path = Path(workdir) / f"input-uart{uart or 0}"
            path.write_bytes(sys.stdin.buffer.read())
        add(uart, input=Path(path))
    for uart, path in args.uart_pty:
        link = Path(path)
        # A symlink left by an earlier run makes QEMU refuse to start
        if link.is_symlink():
            link.unlink()
        elif link.exists():
            raise Failure(f"--uart-pty {path}: exists and is not a symlink")
        add(uart, pty=link)
    for uart, path in args.uart_socket:
        add(uart, socket=Path(path))
    if board.console_uart not in found and terminal.usable():
        add(None, terminal=True)
    return tuple(found[u] for u in sorted(found))


def run_config(args, target, workdir):
    """The RunConfig of the command line."""
    return RunConfig(
        target, timeout=args.timeout, icount=not args.no_icount,
        profile=args.sample, cycles=args.cycles, memory=args.memory,
        stacks=outputs.needs_call_stacks(output_options(args, target)),
        wait_states=args.wait_states, stop_after=tuple(args.stop_after),
        stop_at=tuple(args.stop_at), start_at=args.start_at,
        add_counters=tuple(args.add_counter),
        timeline_events=args.timeline_events if args.timeline else 0,
        console=args.console, qmp=args.qmp, qemu_args=tuple(args.qemu_arg),
        # where the -pg program's gmon.out lands
        guest_cwd=Path(workdir) if args.gprof else None,
        serials=serials(args, target.board, workdir), baud=args.baud,
        stop_at_eof=args.stop_at_eof, cpu=args.cpu,
        annotated=tuple(args.annotate))


def output_options(args, target):
    return outputs.OutputOptions(
        gmon=args.gmon or target.path.parent / "gmon.out",
        stacks=args.stacks, flamegraph=args.flamegraph,
        speedscope=args.speedscope, per_task=args.per_task,
        gprof_unit=args.gprof_unit, gprof_call_graph=args.gprof,
        host_report=args.host_report, chart=args.chart, svg=args.svg,
        json=args.json, timeline=args.timeline, baseline=args.baseline,
        thresholds=dict(args.threshold), junit=args.junit,
        coverage=args.coverage, annotate=tuple(args.annotate),
        hottest=args.hottest, html=args.html,
        load_window_ns=args.load_window,
        coverage_files=(tuple(args.coverage_include),
                        tuple(args.coverage_omit)))


def _ahead_of_outputs(args, config):
    """What writing this run's outputs imports and reads of the image,
    and removing its run directory imports (while QEMU runs, not once
    it has ended)."""
    options = output_options(args, config.target)
    for name in outputs.writers(config, options):
        importlib.import_module(name)
    importlib.import_module("shutil")     # (run_directory's)
    outputs.read_ahead(config.target, config.profile == EXACT, options)


@contextmanager
def run_directory(parent):
    """A new directory in parent for one run's files, removed after it
    (tempfile's would import shutil, random and the compressors: 3.5 ms
    of every command's start)"""
    parent.mkdir(parents=True, exist_ok=True)
    while True:
        path = parent / f"run-{os.getpid()}-{os.urandom(3).hex()}"
        try:
            path.mkdir(mode=0o700)
            break
        except FileExistsError:
            continue
    try:
        yield str(path)
    finally:
        import shutil   # (once the outputs are written)
        shutil.rmtree(path, ignore_errors=True)


def announce(config):
    """What the user should know before the run: how it will end, where
    QMP is served, how tasks are named."""
    target = config.target
    if target.readable and not config.has_stop and \
            not target.exits_by_itself:
        say(f"{target.path} makes no semihosting call, so it cannot exit "
            f"by itself: the run ends at --timeout ({config.timeout:g} s "
            f"of host time), cut short and not repeatable; give a stop "
            f"(--stop-after, --stop-at) to end it at the same "
            f"instruction every time")
    if config.qmp:
        say(f"QMP on {config.qmp}: scripts/readout {config.qmp} prints "
            f"the live counts")
    for serial in config.serials:
        if serial.input is not None:
            say(f"uart{serial.uart}: {serial.input.stat().st_size:,} bytes "
                f"of input, a byte each {config.char_ns / 1000:g} us of "
                f"virtual time when the UART has room")
    if config.profile is not None and config.follow_tasks and \
            target.readable:
        layout = target.rtos_layout
        if isinstance(layout, str):
            say(f"tasks: {layout}: tasks are named by the function each "
                f"was running when first seen")
        elif layout:
            say(f"tasks: {layout.rtos}'s, named from its task control "
                f"blocks")


def main():
    # One run, then exit: what it makes it keeps to the end (a long run's
    # records and analyses, millions of tuples that Python's cycle
    # collector would walk again and again: 0.2 s of the full FreeRTOS
    # demo's results), and it makes no cycles worth collecting
    gc.disable()
    signals = Signals().install()
    args = parse_args(sys.argv[1:])
    if args.list_boards:
        list_boards()
        return 0
    board = boards.get(args.board)
    built = qemu.ensure_built()
    if args.html:
        from perfcounter.build import web
        web.ensure()
    with run_directory(BUILD / "runs") as workdir:
        target = choose_target(args, board, Path(workdir))
        if not args.no_image_check:
            target.check(args.qemu_arg)
        config = run_config(args, target, workdir)
        config.validate()
        if args.annotate:
            # (imported only then: with what it reads DWARF and
            # disassembles with, 2 ms of every command's start)
            from perfcounter.outputs import annotate
            for name in args.annotate:
                annotate.function_range(target, name)   # before the run
        announce(config)
        with terminal.keys_to_guest() if config.terminal else nullcontext():
            result = run(config, built, workdir, echo=True,
                         verbose=args.verbose, signals=signals,
                         meanwhile=lambda: _ahead_of_outputs(args, config))
        signals.defer()
        if result.qemu_died:
            raise Failure(qemu_process.died_message(result))
        if result.failed_to_start:
            raise Failure(f"QEMU did not start the guest (exit code "
                          f"{result.exit_code}): "
                          f"{result.qemu_first_error or 'no message'}")
        if result.timed_out:
            guest = " ".join(args.files) or f"the {args.example} example"
            say(qemu_process.timeout_message(guest, args.timeout))
        say(stops.summary(result))
        if args.console:
            say(f"the guest's UART output is in {args.console}")
        status = outputs.write(result, output_options(args, target))
        if args.verbose:
            if result.during_run_failure:
                say(f"the task analyses were made after the run: "
                    f"{result.during_run_failure}")
            # (its results: all that follows QEMU's exit, the plugin's
            # results read and the analyses finished as well as written)
            say(f"host time: the run {result.host_seconds:.3f} s, its "
                f"results {time.monotonic() - result.qemu_ended_at:.3f} "
                f"s; QEMU's "
                f"process from {result.qemu_started_at:.4f} to "
                f"{result.qemu_ended_at:.4f} s of the host's monotonic "
                f"clock")
        if signals.reason and not result.signal:
            say(f"{signals.reason} arrived once the run had ended: its "
                f"outputs are all written")
            return signals.exit_code
        return status


def main_then_exit():
    """main(), then the process ends at once: freeing what a long run
    made (millions of objects, one by one) took 0.36 s after the
    outputs of FreeRTOS's full demo were written, and nothing is left
    to do (the run directory is removed, QEMU has exited). Not under
    a profiler or a tracer (cProfile, coverage): they write at exit."""
    status = main()
    if sys.getprofile() or sys.gettrace():
        return status
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status or 0)


def command():
    """scripts/profile's entry point (python3 -m perfcounter.cli.profile
    does the same, 2 ms later: runpy)."""
    main_guard(main_then_exit)


if __name__ == "__main__":
    command()
