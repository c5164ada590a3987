# SPDX-License-Identifier: MIT
"""A run's configuration: every option of one boot as one value, and the
one place that renders it as a QEMU command line, the plugin's
arguments among them, quoting what QEMU's option syntax needs quoted.

    config = RunConfig(target, profile=EXACT, cycles=True,
                       stop_at=(("report", 3),))
    config.write_files(workdir)         # what the command reads
    argv = config.command(qemu, workdir)

Nothing else builds a -plugin or a -device argument, and nothing parses
one back.
"""

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from perfcounter.boot.served_sockets import QMP
from perfcounter.errors import Failure
from perfcounter.periods import EXACT

DEFAULT_TIMEOUT = 60    # host seconds
# Events the device keeps per core when a timeline is asked for
DEFAULT_TIMELINE_EVENTS = 100_000
# Where the plugin writes what it found (docs/plugin-results.md)
PLUGIN_RESULTS = "plugin-results.txt"
FUNCTIONS = "functions.txt"
# A character on a serial line: 10 bits (start, 8 data, stop)
BITS_PER_CHARACTER = 10
DEFAULT_BAUD = 115200


def quoted(value):
    """value as one item of a QEMU option (-device a=1,b=2): a comma in
    it is written twice."""
    return str(value).replace(",", ",,")


@dataclass(frozen=True)
class Serial:
    """How one of the board's UARTs meets the host; a UART no Serial
    names sends its output to the run's output (or the console file).

    uart: the UART (QEMU's serial port number; the board's console is
      board.console_uart).
    input: a file whose bytes the UART receives in virtual time (read to
      its end before the guest starts: the same input, the same run).
    control: the UNIX socket of a controller that drives the guest in
      lockstep (perfcounter.session).
    pty: serve the UART on a pseudo-terminal, a symlink to it at pty.
    socket: serve it on a UNIX socket at socket (QEMU waits for the
      client before the guest starts).
    terminal: the run's terminal types into it, as the keys come (not
      repeatable).
    """
    uart: int = 0
    input: Path = None
    control: Path = None
    pty: Path = None
    socket: Path = None
    terminal: bool = False

    @property
    def in_virtual_time(self):
        """Whether its input arrives in virtual time (perfctr-serial)."""
        return self.input is not None or self.control is not None


@dataclass(frozen=True)
class RunConfig:
    """Everything one boot of a target does, measures and stops at.

    target: the perfcounter.Target (image and board).
    profile: None (no profile), EXACT (every instruction) or a sampling
      period in counter clocks; stacks: follow the call stacks (the
      flame graph's, each function's total count); without them every
      call is still counted (gprof's call graph) and the tasks and
      handlers followed, at a fraction of the cost on a Cortex-M.
    cycles: estimate cycles with the board's timing model; windows: the
      (start, end) pc ranges to total apart (default: the image's largest
      functions); memory, wait_states: the flash part code runs from.
    counter_clock: what the counter cores count, "time" or "cycles"
      (default: "cycles" when cycles is on).
    stop_after: ((kind, count),...): instructions, cycles or time (ns);
      stop_at: ((symbol or address, nth),...); start_at: where the profile
      and cycles start.
    events: count the device's selectable events (the plugin's default).
    follow_tasks: name tasks by the RTOS the image runs (when
      profiling).
    plugin, counters: load the plugin, attach the counter cores (both by
      default; without them, only what QEMU itself costs, for the bench).
    cpu: QEMU's -cpu for the board's core, with its extensions (say
      "rv32,zcd=off,zcmp=on"); the board's by default.
    heap: follow the heap through the image's allocators (when
      profiling; results.heap).
    annotated: (function name,...): each of their instructions a window
      of its own (--annotate's cycles per instruction); the function's
      cycles are their sum.
    serials: (Serial,...): the UARTs that receive input or are served
      to a test runner; baud: their line's speed, which sets the virtual
      time between two input bytes; stop_at_eof: end the run this many
      ns of virtual time after the input (of every Serial with input)
      has all been taken and the guest has sent nothing since.
    """
    target: object
    timeout: float = DEFAULT_TIMEOUT
    icount: bool = True
    profile: int = None
    stacks: bool = True
    cycles: bool = False
    windows: tuple = None
    memory: str = None
    wait_states: int = None
    counter_clock: str = None
    stop_after: tuple = ()
    stop_at: tuple = ()
    start_at: str = None
    add_counters: tuple = ()
    timeline_events: int = 0
    console: Path = None
    qmp: Path = None
    qemu_args: tuple = ()
    events: bool = True
    follow_tasks: bool = True
    guest_cwd: Path = None
    plugin: bool = True
    counters: bool = True
    serials: tuple = ()
    baud: int = DEFAULT_BAUD
    stop_at_eof: int = None
    cpu: str = None
    annotated: tuple = ()
    heap: bool = True

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    @property
    def board(self):
        return self.target.board

    @property
    def has_stop(self):
        """Whether something other than the guest ends the run exactly."""
        return bool(self.stop_after or self.stop_at or
                    self.stop_at_eof is not None)

    def validate(self):
        """Raise Failure for what cannot be run: --cycles on a board
        without a model, a stop or start at a symbol the image lacks,
        what only the plugin measures without it."""
        if not self.plugin and (self.profile is not None or self.cycles or
                                self.stop_after or self.stop_at or
                                self.start_at):
            raise Failure("profiles, cycles, stops and starts are the "
                          "plugin's: they need plugin=True")
        uarts = [s.uart for s in self.serials]
        for serial in self.serials:
            if not 0 <= serial.uart < self.board.uarts:
                raise Failure(f"{self.board.name} has UARTs 0 to "
                              f"{self.board.uarts - 1}, not {serial.uart}")
            if uarts.count(serial.uart) > 1:
                raise Failure(f"UART {serial.uart} is given twice: one "
                              f"input, pty or socket a UART")
            if serial.input is not None and \
                    not Path(serial.input).is_file():
                raise Failure(f"uart{serial.uart}'s input {serial.input}: "
                              f"no such file")
        if self.stop_at_eof is not None and not any(
                s.input is not None for s in self.serials):
            raise Failure("a stop at the end of input needs an input")
        if not self.icount and any(s.in_virtual_time
                                   for s in self.serials):
            raise Failure("input in virtual time needs -icount (drop "
                          "--no-icount)")
        self.cycle_model
        self.stop_pcs
        self.start_pc

    @cached_property
    def cycle_model(self):
        """The board's timing model if cycles is on (Failure without)."""
        if not self.cycles:
            return None
        if not self.board.cycle_model:
            from perfcounter import boards
            raise Failure(
                f"no cycle model for {self.board.name} ({self.board.cpu}); "
                f"boards with one: "
                + ", ".join(b.name for b in boards.with_cycle_model()))
        return self.board.cycle_model

    @cached_property
    def stop_pcs(self):
        """((symbol or address, pc, nth),...) of stop_at."""
        return tuple((where, self.target.address(where), nth)
                     for where, nth in self.stop_at)

    @cached_property
    def start_pc(self):
        return self.target.address(self.start_at) if self.start_at else None

    @cached_property
    def cycle_windows(self):
        """{(start, end): name or None} of the windows the plugin totals
        apart: the given ones, or each of the image's functions (the
        function's own cycles, its callees' not)."""
        if not self.cycles:
            return {}
        if self.windows is not None:
            return {w: None for w in self.windows}
        return {**{(start, end): name
                   for start, end, name in self.target.function_ranges
                   if name not in self.annotated},
                **self.instruction_windows}

    @cached_property
    def instruction_windows(self):
        """{(start, end): function name} of each instruction of the
        annotated functions (objdump's, literal pools too)."""
        out = {}
        for start, end, name in self.target.function_ranges:
            if name in self.annotated:
                from perfcounter.target import disassembly
                pcs = [pc for pc, _ in disassembly.instructions(
                    self.target, start, end)] + [end]
                out.update({(a, b): name for a, b in zip(pcs, pcs[1:])})
        return out

    @cached_property
    def probes(self):
        """[(start, end)] of the functions the plugin probes: the image's
        allocators, for the heap, and with FreeRTOS its queue functions,
        for the kernel objects (when profiling)."""
        if self.profile is None:
            return []
        from perfcounter.results import heap, kernel_objects
        found = set(heap.probed(self.target)) if self.heap else set()
        layout = self.task_layout
        if layout and layout.rtos == "FreeRTOS":
            found |= set(kernel_objects.probed(self.target))
        return sorted(found)

    @property
    def uses_functions(self):
        """Whether the plugin is told the image's functions (what a call
        is, the cycles' windows)."""
        return bool((self.profile is not None or self.cycles) and
                    self.target.function_ranges)

    @property
    def clock(self):
        return self.counter_clock or ("cycles" if self.cycles else "time")

    @cached_property
    def task_layout(self):
        """The RTOS layout the plugin follows tasks with, or None."""
        if self.profile is None or not self.follow_tasks:
            return None
        layout = self.target.rtos_layout
        return None if isinstance(layout, str) else layout

    @property
    def analysed_during_run(self):
        """Whether run() walks the task instances as QEMU runs (the
        plugin streams its records: one vCPU, no start=)."""
        return bool(self.plugin and self.task_layout and
                    self.task_layout.states and self.start_pc is None and
                    "-smp" not in self.qemu_args)

    # What the run writes in its work directory

    def plugin_results(self, workdir):
        return Path(workdir) / PLUGIN_RESULTS

    def functions_file(self, workdir):
        """The image's functions for the plugin's functions=."""
        return Path(workdir) / FUNCTIONS

    def report_file(self, workdir, base):
        """Where the core at base writes its readout when QEMU exits."""
        return Path(workdir) / f"perf-counter-{base:#010x}.json"

    @property
    def cores(self):
        """[(base, sections)] of every counter core attached."""
        return list(self.board.counters) + list(self.add_counters)

    # The command line

    def plugin_options(self, workdir, during=None):
        """The plugin's arguments, unquoted (docs of perfctr.c); during:
        the DuringRun its records are streamed to."""
        options = [f"events={'on' if self.events else 'off'}"]
        if self.board.arch in ("arm", "aarch64"):
            options.append(f"isa={self.board.isa}")
        options.append(f"out={self.plugin_results(workdir)}")
        if during:
            options += during.plugin_options()
        if self.profile is not None:
            options += [f"profile="
                        f"{'exact' if self.profile == EXACT else self.profile}",
                        f"stacks={'on' if self.stacks else 'flat'}"]
        if self.uses_functions:
            options.append(f"functions={self.functions_file(workdir)}")
        options += [f"probe={start:#x}-{end:#x}" for start, end in self.probes]
        if self.cycles:
            options.append(f"cycles={self.cycle_model}")
            if self.windows is None and self.uses_functions:
                # before windows=functions, which leaves their functions
                options += [f"window={start:#x}-{end:#x}" for start, end
                            in sorted(self.instruction_windows)]
                options.append("windows=functions")
            else:
                options += [f"window={start:#x}-{end:#x}"
                            for start, end in sorted(self.cycle_windows)]
            if self.memory:
                options.append(f"memory={self.memory}")
            if self.wait_states is not None:
                options.append(f"wait-states={self.wait_states}")
        options += [f"stop={kind}:{count}" for kind, count in self.stop_after]
        options += [f"stop=pc:{pc:#x}:{nth}" for _, pc, nth in self.stop_pcs]
        if self.start_pc is not None:
            options.append(f"start={self.start_pc:#x}")
        if self.task_layout:
            options.append(self.task_layout.plugin_option())
            if self.task_layout.states:
                options += self.task_layout.states.plugin_options()
        return options

    def device_properties(self, workdir, base, sections):
        """The -device value of the counter core at base."""
        props = [f"perf-counter,base={base:#x}", f"num-sections={sections}",
                 f"clock-frequency={self.board.freq}",
                 f"report-file={quoted(self.report_file(workdir, base))}"]
        if self.timeline_events:
            props.append(f"timeline-size={self.timeline_events}")
        if self.clock == "cycles":
            props.append("clock=cycles")
        return ",".join(props)

    @property
    def char_ns(self):
        """Virtual ns between two input bytes on a UART at baud."""
        return round(BITS_PER_CHARACTER * 1e9 / self.baud)

    def serial_args(self, served=None):
        """Every UART of the board, to QEMU's stdout (where the guest's
        semihosting output goes too) or to the console file, but those
        a Serial says receive input or are served elsewhere; a Cortex-M's
        ITM stimulus ports (printf over SWO) along.  The outputs write
        when the guest does, so they stay in the guest's order.  served:
        the listening sockets (UART: descriptor) QEMU inherits for the
        Serials served on a socket; QEMU makes those without one."""
        served = served or {}
        # Not stdio (one frontend) nor a mux (four at most): the same
        # file opened once for each UART, appending
        out = quoted(Path(self.console).resolve() if self.console
                     else "/proc/self/fd/1")
        serials = {s.uart: s for s in self.serials}
        args = []
        for i in range(self.board.uarts):
            s = serials.get(i)
            if s and s.in_virtual_time:
                spec = (f"perfctr-serial,id=uart{i},path={out},append=on,"
                        f"char-ns={self.char_ns}")
                if s.input is not None:
                    spec += f",input-path={quoted(Path(s.input).resolve())}"
                if s.control is not None:
                    spec += f",control={quoted(Path(s.control).resolve())}"
                if self.stop_at_eof is not None:
                    spec += f",eof-quiet-ns={self.stop_at_eof}"
            elif s and s.pty:
                spec = f"pty,id=uart{i},path={quoted(Path(s.pty).absolute())}"
            elif s and s.socket:
                where = (f"fd={served[i]}" if i in served else
                         f"path={quoted(Path(s.socket).absolute())}")
                spec = f"socket,id=uart{i},{where},server=on,wait=on"
            elif s and s.terminal:
                spec = (f"file,id=uart{i},path={out},append=on,"
                        f"input-path=/proc/self/fd/0")
            else:
                spec = f"file,id=uart{i},path={out},append=on"
            args += ["-chardev", spec, "-serial", f"chardev:uart{i}"]
        if self.board.cortex_m:
            args += ["-chardev", f"file,id=itm,path={out},append=on",
                     "-global", "armv7m-itm.chardev=itm"]
        return args

    @property
    def terminal(self):
        """Whether QEMU reads the run's terminal (a Serial's terminal)."""
        return any(s.terminal for s in self.serials)

    def write_files(self, workdir):
        """Write the files the command reads into workdir: the image's
        functions for the plugin."""
        if self.plugin and self.uses_functions:
            self.functions_file(workdir).write_text("".join(
                f"{start:#x} {end:#x}\n"
                for start, end, _ in self.target.function_ranges))

    def command(self, qemu, workdir, during=None, served=None):
        """The QEMU command line (a list) that boots the target: its UARTs
        and semihosting on QEMU's stdout (or the console file), every
        counter core, -icount, the plugin, QMP, the extra arguments;
        the files it names in workdir are write_files()'s (during: the
        DuringRun that makes the analyses as the run goes; served: as
        serial_args())."""
        board = self.board
        cmd = headless(qemu, board, serial=False, cpu=self.cpu) + \
            self.serial_args(served)
        cmd += ["-chardev", "stdio,id=guest-stdio", "-semihosting-config",
                "enable=on,target=native,chardev=guest-stdio"]
        for base, sections in self.cores if self.counters else ():
            cmd += ["-device", self.device_properties(workdir, base,
                                                      sections)]
        if self.icount:
            cmd += ["-icount",
                    f"shift={board.icount_shift},sleep=off,align=off"]
        if self.plugin:
            cmd += ["-plugin", ",".join(
                [quoted(qemu.plugin)] + [quoted(o) for o in
                                         self.plugin_options(workdir,
                                                             during)])]
        if self.qmp:
            # (served: the listening socket's descriptor; QEMU given the
            # path would first remove any file there)
            where = (f"fd={served[QMP]}" if served and QMP in served else
                     f"path={quoted(Path(self.qmp).resolve())}")
            cmd += ["-chardev", f"socket,id=qmp,{where},server=on,wait=off",
                    "-mon", "chardev=qmp,mode=control"]
        return cmd + list(self.qemu_args) + \
            ["-kernel", str(Path(self.target.path).resolve())]


def headless(qemu, board, serial=True, cpu=None):
    """QEMU started as board (with cpu as its -cpu, if given), with no
    display or monitor, and no serial port unless serial is False (the
    caller gives them)."""
    args = list(board.qemu_args)
    if cpu:
        if "-cpu" in args:
            args[args.index("-cpu") + 1] = cpu
        else:
            args += ["-cpu", cpu]
    return [str(qemu.binary(board.arch))] + args + [
        "-display", "none", "-monitor", "none"] + (
            ["-serial", "none"] if serial else [])
