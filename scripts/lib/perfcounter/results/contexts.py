# SPDX-License-Identifier: MIT
"""Tasks and interrupt handlers (the plugin's contexts.c): their names,
the per-task and per-handler table printed after the flat profile, and
the same for --json, the gate and the timeline.

A handler is named by the function its exception entered ("[irq]
SysTick_Handler"), with the exception's name when one function handles
several (a RISC-V trap vector). A task is named by its RTOS (tasks=,
see rtos.py), or else by the function it was running when first seen;
the context the board boots in by where the core starts (a Cortex-M's
reset handler, from its vector table; elsewhere the ELF's entry).
"""

import json
from itertools import chain, repeat
from operator import itemgetter

from perfcounter.results import plugin_results, trace_time

M_EXCEPTIONS = {1: "Reset", 2: "NMI", 3: "HardFault", 4: "MemManage",
                5: "BusFault", 6: "UsageFault", 11: "SVCall",
                12: "DebugMonitor", 14: "PendSV", 15: "SysTick"}
RISCV_INTERRUPTS = {1: "supervisor software", 3: "machine software",
                    5: "supervisor timer", 7: "machine timer",
                    9: "supervisor external", 11: "machine external"}
RISCV_EXCEPTIONS = {0: "misaligned fetch", 1: "fetch fault",
                    2: "illegal instruction", 3: "breakpoint",
                    4: "misaligned load", 5: "load fault",
                    6: "misaligned store", 7: "store fault",
                    8: "ecall from U", 9: "ecall from S", 11: "ecall from M",
                    12: "fetch page fault", 13: "load page fault",
                    15: "store page fault"}
# QEMU's exception index on A-profile and ARM11 cores
ARM_EXCEPTIONS = {1: "undefined instruction", 2: "SVC", 3: "prefetch abort",
                  4: "data abort", 5: "IRQ", 6: "FIQ", 7: "BKPT",
                  11: "HVC", 13: "SMC", 14: "virtual IRQ", 15: "virtual FIQ"}


def exception_name(board, number):
    """What the guest calls exception number on board's core."""
    if board.arch.startswith("riscv"):
        if number & 0x80000000:
            cause = number & 0x7fffffff
            return RISCV_INTERRUPTS.get(cause, f"interrupt {cause}")
        return RISCV_EXCEPTIONS.get(number, f"exception {number}")
    if board.cortex_m:
        return M_EXCEPTIONS.get(number, f"IRQ {number - 16}"
                                if number >= 16 else f"exception {number}")
    return ARM_EXCEPTIONS.get(number, f"exception {number}")


def _vector_target(image, addr):
    """Where the Arm vector at addr branches to (B, B.W or LDR pc,
    [pc, #imm]: the forms vector tables use; B in AArch64), or None."""
    word = image.read(addr, 4)
    if word is None:
        return None
    w = int.from_bytes(word, "little")
    if image.machine == "AArch64":
        if w >> 26 == 0x05:                             # B (A64)
            return addr + (((w & 0x3ffffff) ^ 0x2000000) - 0x2000000) * 4
        return None
    if w >> 24 == 0xea:                                 # B (Arm state)
        return addr + 8 + (((w & 0xffffff) ^ 0x800000) - 0x800000) * 4
    if w & 0xfffff000 == 0xe59ff000:                    # LDR pc, [pc, #imm]
        target = image.read(addr + 8 + (w & 0xfff), 4)
        return int.from_bytes(target, "little") & ~1 if target else None
    hw1, hw2 = w & 0xffff, w >> 16
    if hw1 & 0xf800 == 0xf000 and hw2 & 0xd000 == 0x9000:  # B.W (Thumb)
        s = (hw1 >> 10) & 1
        i1 = 1 ^ ((hw2 >> 13) & 1) ^ s
        i2 = 1 ^ ((hw2 >> 11) & 1) ^ s
        offset = (s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ff) << 12 |
                  (hw2 & 0x7ff) << 1)
        return addr + 4 + offset - (s << 25)
    return None


def _entry_name(image, addr):
    """The function at addr, or a label there (an assembly vector), or
    the one a vector there branches to (an A-profile or ARM11 table).
    An AArch64 table's first slot is at the table's own label (VBAR + 0,
    a synchronous exception from SP_EL0): there the branch names it."""
    name = image.function_name(addr)
    if not name.startswith("0x") and name not in image.routines:
        return name             # (a label may be a vector table's)
    target = _vector_target(image, addr)
    if target is not None and target != addr and image.machine == "AArch64":
        return _entry_name(image, target)
    labels = sorted(n for n, v in image.symbols.items()
                    if v & ~1 == addr and not n.startswith("$"))
    if labels:
        return labels[0]
    return _entry_name(image, target) if target is not None and \
        target != addr else name


def labels(profile, target):
    """{context id: label}: "[irq] handler" or the task's name."""
    image, board = target.elf, target.board
    out = {}
    for c in profile.contexts.values():
        if c.kind == "handler":
            out[c.id] = "[irq] " + _entry_name(image, c.first_pc)
        elif c.name:
            out[c.id] = c.name
        else:
            out[c.id] = image.function_name(c.first_pc or target.boot_pc)
    seen = {}
    for cid, label in out.items():
        seen.setdefault(label, []).append(cid)
    for label, ids in seen.items():
        for cid in ids if len(ids) > 1 else []:
            c = profile.contexts[cid]
            out[cid] += f" ({exception_name(board, c.number)})" \
                if c.kind == "handler" else f" @{c.key:#x}"
    return out


def used(profile):
    """The contexts that ran, handlers after tasks, busiest first."""
    return sorted((c for c in profile.contexts.values() if c.instructions),
                  key=lambda c: (c.kind == "handler", -c.instructions, c.id))


def rows(profile, target):
    """One dict per context that ran (the --json "contexts" member)."""
    board = target.board
    names = labels(profile, target)
    total = sum(c.instructions for c in profile.contexts.values()) or 1
    out = []
    for c in used(profile):
        row = {"name": names[c.id], "kind": c.kind,
               "instructions": c.instructions,
               "share": c.instructions / total,
               "switched_in": c.switches_in}
        if profile.cycles_model:
            row["cycles"] = c.cycles
        if c.kind == "handler":
            row["exception"] = exception_name(board, c.number)
            row["runs"] = c.runs
            row["run_instructions"] = {
                "min": c.run_min, "max": c.run_max,
                "mean": c.run_total / c.runs if c.runs else 0}
            if profile.cycles_model:
                row["run_cycles"] = {"min": c.run_cycles_min,
                                     "max": c.run_cycles_max}
            if c.latency:
                count, low, high, summed = c.latency
                _, ns_low, ns_high, ns_total = c.latency_ns
                row["latency"] = {
                    "count": count,
                    "instructions": {"min": low, "mean": summed / count,
                                     "max": high},
                    "ns": {"min": ns_low, "mean": ns_total / count,
                           "max": ns_high}}
        if c.sp_low or c.stack_used:
            # (a handler entered on a banked stack never set: sp 0)
            row["stack"] = {"used_bytes": c.stack_used}
            if c.sp_low:
                row["stack"]["deepest_sp"] = c.sp_low
            if c.stack_base and c.sp_low:
                row["stack"]["base"] = c.stack_base
                row["stack"]["free_bytes"] = c.sp_low - c.stack_base
        out.append(row)
    return out


def report(profile, target):
    """The table printed after the flat profile; "" with one context."""
    table = rows(profile, target)
    if len(table) < 2:
        return ""
    handlers = sum(r["instructions"] for r in table
                   if r["kind"] == "handler")
    total = sum(r["instructions"] for r in table) or 1
    w = max(len(r["name"]) for r in table + [{"name": "context"}])
    lines = [f"\nTasks and interrupt handlers ({len(table)} contexts; "
             f"{100 * handlers / total:.2f}% of the instructions in "
             f"handlers):\n",
             f"  {'context':<{w}} {'share':>7} {'instructions':>13} "
             f"{'in':>7} {'runs':>7} {'per run min/mean/max':>22} "
             f"{'stack used':>10} {'free':>6}\n"]
    for r in table:
        per_run = ""
        if r["kind"] == "handler":
            i = r["run_instructions"]
            per_run = f"{i['min']}/{i['mean']:.0f}/{i['max']}"
        stack = r.get("stack", {})
        lines.append(
            f"  {r['name']:<{w}} {100 * r['share']:6.2f}% "
            f"{r['instructions']:>13} {r['switched_in']:>7} "
            f"{r.get('runs', ''):>7} {per_run:>22} "
            f"{stack.get('used_bytes', ''):>10} "
            f"{stack.get('free_bytes', ''):>6}\n")
    lines.append("  (instructions; per run: one run of the handler, "
                 "without the handlers that preempted it; stack in bytes: "
                 "a task's from its highest to its deepest stack pointer, "
                 "a handler's most in one run from its stack pointer at "
                 "entry or from the stack it switched to; free: what the deepest left of the stack the RTOS "
                 "gave)\n")
    lines += _latency_report(table)
    masked = masked_document(profile, target)
    if masked and masked["times"]:
        lines.append(
            f"\nInterrupts masked (by the code: CPSID, BASEPRI, MIE...) "
            f"{masked['times']:,} times, {masked['instructions']:,} "
            f"instructions in all; the longest "
            f"{masked['longest_instructions']:,} instructions "
            f"({masked['longest_ns']:,} ns), masked in "
            f"{masked['longest_in']}\n")
    return "".join(lines)


def masked_document(profile, target):
    """--json's "masked": the stretches the code ran with interrupts
    masked (mask.c), the longest and the function that masked them;
    None when the plugin did not follow them."""
    if profile is None or profile.masked is None:
        return None
    times, total, longest, longest_ns, pc = profile.masked
    return {"times": times, "instructions": total,
            "longest_instructions": longest, "longest_ns": longest_ns,
            "longest_in": target.elf.function_name(pc) if times else None,
            "longest_at": pc if times else None}


def _latency_report(table):
    """The handlers' latencies, from their exception pended to their
    first instruction (the Cortex-M's NVIC says when)."""
    rows = [r for r in table if "latency" in r]
    if not rows:
        return []
    w = max(len(r["name"]) for r in rows)
    out = ["\nInterrupt latency, from pended to the handler's first "
           "instruction:\n",
           f"  {'handler':<{w}} {'times':>7} {'instructions min/mean/max':>27}"
           f" {'ns min/mean/max':>24}\n"]
    for r in rows:
        lat = r["latency"]
        spans = [f"{x['min']}/{x['mean']:.0f}/{x['max']}"
                 for x in (lat["instructions"], lat["ns"])]
        out.append(f"  {r['name']:<{w}} {lat['count']:>7} {spans[0]:>27} "
                   f"{spans[1]:>24}\n")
    return out


def roots(profile):
    """{root node: context id}."""
    return {c.root: c.id for c in profile.contexts.values()}


def trace_events(profile, target, pid):
    """Chrome trace events: a track per context, a slice per stretch it
    ran (a task's ends where a handler preempts it), with the vCPU it
    ran on when there are several.  The slices come encoded, as JSON
    text (a long run has a million of them: timeline.write writes
    trace_parts()' without making a text for each)."""
    meta, slices = trace_parts(profile, target, pid)
    return meta + slices.texts()


def several_vcpus(profile):
    """Whether the switches were made on more than one vCPU"""
    column = getattr(profile.switches, "column", None)  # (PackedRecords)
    vcpus = column(2) if column else map(itemgetter(2), profile.switches)
    return len(set(vcpus)) > 1


def trace_parts(profile, target, pid):
    """(trace_events()' metadata events, its slices as Slices)"""
    names = labels(profile, target)
    tids = {c.id: n for n, c in enumerate(used(profile), 1)}
    heads = {cid: json.dumps({"ph": "X", "name": names[cid],
                              "cat": "context", "pid": pid, "tid": tid},
                             separators=(",", ":"))[:-1]
             for cid, tid in tids.items()}
    events = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
               "args": {"name": "tasks and interrupt handlers"}}]
    for cid, tid in tids.items():
        events += [{"ph": "M", "name": "thread_name", "pid": pid,
                    "tid": tid, "args": {"name": names[cid]}},
                   {"ph": "M", "name": "thread_sort_index", "pid": pid,
                    "tid": tid, "args": {"sort_index": tid}}]
    if several_vcpus(profile):
        tails = [(was, f',{trace_time.span(start_ns, end_ns)},'
                  f'"args":{{"instructions":{instructions},"vcpu":{v}}}}}')
                 for v, was, start_ns, end_ns, instructions
                 in stretches(profile)]
    else:
        tails = slice_tails(profile, target)
    if not tids.keys() >= set(map(itemgetter(0), tails)):
        tails = [t for t in tails if t[0] in tids]  # (ran no instruction)
    return events, Slices(heads, tails)


class Slices:
    """Complete events as the text of their track's head and of each
    slice's tail, joined only as they are written (timeline.write): a
    20 s run has 1.2 million, and a text made for each cost an
    allocation and a copy more (0.2 s)."""

    def __init__(self, heads, tails):
        self.heads = heads      # {context id: the text of its head}
        self.tails = tails      # [(context id, the text of a tail)]

    def texts(self):
        """Each slice's text"""
        return [self.heads[was] + tail for was, tail in self.tails]

    def chunks(self, size):
        """The slices' texts, comma-separated, size at a time"""
        head = self.heads.__getitem__
        for k in range(0, len(self.tails), size):
            part = self.tails[k:k + size]
            # ",HEAD" "TAIL" of each but the first: no text per slice
            yield "".join(chain(
                (head(part[0][0]), part[0][1]), chain.from_iterable(zip(
                    repeat(","), map(head, map(itemgetter(0), part[1:])),
                    map(itemgetter(1), part[1:])))))


@plugin_results.once_per_run
def slice_tails(profile, target):
    """[(context id, the text of its stretch's slice but its head)] of
    each stretch, in order (one vCPU's: trace_events(); made as the run
    goes, during_run.py)"""
    return [(was, slice_tail(start_ns, end_ns, instructions))
            for _, was, start_ns, end_ns, instructions in stretches(profile)]


def slice_tail(start_ns, end_ns, instructions):
    return f',{trace_time.span(start_ns, end_ns)},' \
        f'"args":{{"instructions":{instructions}}}}}'


def stretches(profile):
    """(vcpu, context id, start ns, end ns, instructions) of each stretch
    a context ran, from the plugin's switches, in order."""
    made = Stretches()
    yield from made.add(profile.switches)
    yield from made.end(profile.end_ns, profile.end_instructions)


class Stretches:
    """stretches() made as the switches come (during_run.py)"""

    def __init__(self):
        self.running = {}   # vcpu: (ns, instructions, context id) of its
        #                     switch

    def add(self, switches):
        """Those the switches (ns, instructions, vcpu, id) end"""
        running = self.running
        for ns, insns, vcpu, cid in switches:
            was = running.get(vcpu)
            if was is not None and was[0] >= 0:
                del running[vcpu]
                if ns > was[0]:
                    yield vcpu, was[2], was[0], ns, insns - was[1]
            running[vcpu] = (ns, insns, cid)

    def end(self, end_ns, end_insns):
        """Those the run's end ends"""
        for vcpu, (start_ns, start_insns, was) in self.running.items():
            if start_ns >= 0 and end_ns is not None and end_ns > start_ns:
                yield vcpu, was, start_ns, end_ns, end_insns - start_insns
