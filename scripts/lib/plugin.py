# SPDX-License-Identifier: MIT
"""The instrumentation plugin (qemu-device/contrib/plugins/perfctr):
how QEMU loads it, and what it writes when QEMU exits."""

from dataclasses import dataclass, field
from functools import cached_property

from common import Failure

EXACT = 0   # the profile "period" that counts every instruction


# The timing model of each board's core (docs/cycles.md); the others
# have none
CYCLE_MODELS = {"mps2-an385": "m3", "mps2-an386": "m4", "mps2-an500": "m7",
                "mps2-an505": "m33", "mps3-an547": "m55",
                "lm3s6965evb": "m3", "microbit": "m0",
                "riscv32-virt": "e31", "sifive_e": "e31"}
NO_PROFILE = None   # a period that profiles nothing (cycles only)


def cycle_model(board):
    """The name of board's timing model; Failure if it has none."""
    try:
        return CYCLE_MODELS[board.name]
    except KeyError:
        raise Failure(f"no cycle model for {board.name} ({board.cpu}); "
                      f"boards with one: " + ", ".join(CYCLE_MODELS)) \
            from None


def events_args(qemu, board):
    """-plugin arguments that only count the events the devices want
    (nothing is instrumented until a device selects an event)."""
    return _plugin_args(qemu, board, [])


def without(cmd):
    """A QEMU command without its -plugin (every boot loads the events
    plugin): plain -icount."""
    at = cmd.index("-plugin")
    return cmd[:at] + cmd[at + 2:]


def qemu_args(qemu, board, out, period=EXACT, stacks=True, cycles=False,
              windows=(), wait_states=None, memory=None):
    """-plugin arguments that profile into out (a file); with cycles,
    that also estimate the board's cycles, in all and in each window
    (start, end) of pcs, with code in memory's flash (a part the plugin
    knows, docs/cycles.md) and wait_states (the part's if None).  The
    devices' events are counted too."""
    options = [f"out={out}"]
    if period is not NO_PROFILE:
        options += [f"profile={'exact' if period == EXACT else period}",
                    f"stacks={'on' if stacks else 'off'}"]
    if cycles:
        options.append(f"cycles={cycle_model(board)}")
        options += [f"window={start:#x}-{end:#x}" for start, end in windows]
        if memory:
            options.append(f"memory={memory}")
        if wait_states is not None:
            options.append(f"wait-states={wait_states}")
    return _plugin_args(qemu, board, options)


def with_options(extra, qemu, board, out, options):
    """extra (QEMU arguments) with options added to its -plugin, or,
    if it loads none, with the events plugin writing into out."""
    if "-plugin" not in extra:
        return list(extra) + _plugin_args(qemu, board,
                                          [f"out={out}"] + options)
    extra = list(extra)
    at = extra.index("-plugin") + 1
    extra[at] = ",".join([extra[at]] + [o.replace(",", ",,")
                                        for o in options])
    return extra


def _plugin_args(qemu, board, options):
    options = ["events=on"] + options
    if board.arch in ("arm", "aarch64"):
        options.append(f"isa={board.isa}")
    # QEMU's option syntax: a comma in a value is written twice
    return ["-plugin", ",".join([str(qemu.plugin).replace(",", ",,")]
                                + [o.replace(",", ",,") for o in options])]


@dataclass
class Context:
    """A task or an exception handler the plugin followed (contexts.c)."""
    id: int
    kind: str                       # "task" or "handler"
    number: int                     # a handler's exception number
    root: int                       # its call stacks' root node
    first_pc: int                   # where it first ran; 0 if not known
    key: int                        # a task's control block, or its sp
    stack_base: int                 # its stack's lowest address; 0
    instructions: int
    cycles: int
    switches_in: int
    runs: int                       # a handler's runs
    run_min: int                    # instructions of one run
    run_max: int
    run_total: int
    run_cycles_min: int
    run_cycles_max: int
    sp_low: int                     # its deepest stack pointer; 0
    sp_high: int
    stack_used: int                 # bytes: a task's from its highest sp
    #                                 to its lowest, a handler's most in
    #                                 one run, from its sp at entry
    name: str                       # the RTOS's name for a task


@dataclass
class Profile:
    mode: str = ""                  # "exact" or "sample"
    period: int = 1                 # instructions per count
    instructions: int = 0           # executed in all
    depth_lost: int = 0             # calls deeper than the plugin tracks
    histogram: dict = field(default_factory=dict)   # pc: count
    arcs: dict = field(default_factory=dict)        # (site, callee): calls
    nodes: dict = field(default_factory=dict)       # node: (parent, site)
    stacks: dict = field(default_factory=dict)      # (node, pc): count
    cycles_model: str = ""          # the timing model, if one ran
    cycles_memory: str = ""         # the flash part it had code in
    cycles_wait_states: int = 0
    cycles: int = 0                 # estimated cycles in all
    cycles_instructions: int = 0    # instructions the model saw
    windows: dict = field(default_factory=dict)  # (start, end): (cyc, insns)
    contexts: dict = field(default_factory=dict)     # id: Context
    switches: list = field(default_factory=list)     # (ns, insns, vcpu, id)
    switches_dropped: int = 0
    end_ns: int = None              # virtual time when the profile ended
    end_instructions: int = None

    @cached_property
    def roots(self):
        """{root node: the context whose call stacks start there}"""
        return {c.root: c.id for c in self.contexts.values()}

    def call_sites(self, node):
        """The call sites from the root down to node, and the context
        whose call stack it is in (None if it is in none)."""
        sites = []
        while node:
            if node in self.roots:
                return sites[::-1], self.roots[node]
            node, site = self.nodes[node]
            sites.append(site)
        return sites[::-1], None


def read(path):
    """The Profile the plugin wrote to path."""
    try:
        lines = open(path).read().splitlines()
    except OSError as err:
        raise Failure(f"the profiler wrote no results ({err}); see QEMU's "
                      f"messages above") from None
    if not lines or lines[0] != "perfctr-profile 1":
        raise Failure(f"{path} is not a profile the plugin wrote")
    p = Profile()
    for line in lines[1:]:
        tag, *fields = line.split()
        if tag == "switch":
            # Most lines of a long run with tasks: decimal, parsed as such
            p.switches.append(tuple(map(int, fields)))
            continue
        if tag in ("stopped-by", "start"):
            continue                    # how the run ended: stops.read()
        if tag == "context":
            nums = [int(f, 0) for f in fields[2:19]]
            c = Context(int(fields[0]), fields[1], *nums,
                        name=line.split(None, 20)[20]
                        if len(fields) > 19 else "")
            p.contexts[c.id] = c
            continue
        if tag in ("mode", "cycles-model", "cycles-memory"):
            values = fields
        else:
            values = [int(f, 0) for f in fields]
        if tag == "mode":
            p.mode = values[0]
        elif tag == "cycles-model":
            p.cycles_model = values[0]
        elif tag == "cycles-memory":
            p.cycles_memory = values[0]
        elif tag == "cycles-wait-states":
            p.cycles_wait_states = values[0]
        elif tag == "cycles":
            p.cycles = values[0]
        elif tag == "cycles-instructions":
            p.cycles_instructions = values[0]
        elif tag == "window":
            p.windows[values[0], values[1]] = (values[2], values[3])
        elif tag == "period":
            p.period = values[0]
        elif tag == "instructions":
            p.instructions = values[0]
        elif tag == "depth-lost":
            p.depth_lost = values[0]
        elif tag == "pc":
            p.histogram[values[0]] = values[1]
        elif tag == "arc":
            p.arcs[values[0], values[1]] = values[2]
        elif tag == "node":
            p.nodes[values[0]] = (values[1], values[2])
        elif tag == "stack":
            p.stacks[values[0], values[1]] = values[2]
        elif tag == "switches-dropped":
            p.switches_dropped = values[0]
        elif tag == "contexts-end":
            p.end_ns, p.end_instructions = values
    return p
