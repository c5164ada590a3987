# SPDX-License-Identifier: MIT
"""Tasks and interrupt handlers, followed host-side with nothing in the
firmware (tests/firmware/tasks: a preemptive scheduler, by PendSV on the
Cortex-M boards, by the timer's trap on the RISC-V boards and by the
tick's IRQ on arm-virt's Cortex-A15 and raspi1ap's ARM1176, with a
FreeRTOS-named control block laid out its own way): names read through
DWARF, exact handler runs with nesting, each task's deepest stack
pointer as the program itself finds it, call stacks rooted at their
task, the timeline, and the same on every run.
"""

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from perfcounter import boards
from perfcounter.target import elf
from perfcounter.outputs import flat_profile, gate
from perfcounter.target import rtos
from perfcounter.results import cpu_load, kernel_objects
from perfcounter.paths import REPO

import bootlib

PROFILE = REPO / "scripts" / "profile"
TASKS = "tests/firmware/tasks.elf"
BOARDS = list(boards.BOARDS)
# Each board's handlers: the tick's, the nested one's, the switch's (the
# nested one's too on RISC-V: tasks yield by ECALL), the first task's
M_HANDLERS = ("[irq] arm_systick_isr", "[irq] arm_nmi_isr",
              "[irq] arm_pendsv_isr", "[irq] arm_svc_isr")
RISCV_HANDLERS = ("[irq] trap_entry (machine timer)",
                  "[irq] trap_entry (ecall from M)")
# (named by the entry each vector branches to)
ARM_HANDLERS = ("[irq] port_irq_entry", "[irq] port_svc_entry")
WORK_TASKS = {"alpha": 1, "beta": 2, "gamma": 3}     # units per tick
# A task's stack (tasks.h): 1 KiB, but on AArch64, whose exception frame
# is 800 bytes
STACK_BYTES = {"aarch64": 4096}


def handlers(board_name):
    if boards.get(board_name).cortex_m:
        return M_HANDLERS
    if boards.get(board_name).arch == "riscv32":
        return RISCV_HANDLERS
    return ARM_HANDLERS


def run(ctx, board_name):
    """The profile of one run (cached): JSON, stacks, timeline, output."""
    key = ("tasks", board_name)
    if key in ctx.cache:
        return ctx.cache[key]
    image = ctx.firmware(boards.get(board_name), TASKS)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        proc = subprocess.run(
            [str(PROFILE), "--board", board_name, "--sample", "exact",
             "--per-task", "--gmon", "gmon.out",
             "--json", tmp / "run.json", "--stacks", tmp / "stacks.txt",
             "--timeline", tmp / "timeline.json", image],
            cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        found = {
            "image": image,
            "stdout": proc.stdout,
            "stderr": proc.stderr,
            "doc": json.loads((tmp / "run.json").read_text()),
            "stacks": (tmp / "stacks.txt").read_text(),
            "timeline": json.loads((tmp / "timeline.json").read_text()),
        }
    found["contexts"] = {c["name"]: c for c in found["doc"]["contexts"]}
    ctx.cache[key] = found
    return found


def printed(found):
    """What the program says: {"ticks": T, "nmis": N, "switches": S} and
    {task: deepest sp}."""
    counts = re.search(r"^ticks (\d+) nmis (\d+) switches (\d+)$",
                       found["stdout"], re.M)
    assert counts, found["stdout"]
    deepest = {m[1]: int(m[2], 16) for m in re.finditer(
        r"^task (\w+) deepest_sp (0x[0-9a-f]+)$", found["stdout"], re.M)}
    return dict(zip(("ticks", "nmis", "switches"),
                    map(int, counts.groups()))), deepest


def flat_profiles(stdout):
    """--per-task's flat profiles: {context: {function: self %}}."""
    part = stdout.split("(--per-task):\n", 1)[1]
    out = {}
    for line in part.splitlines():
        head = re.match(r"^(.+) \((gmon\..+\.out)\):$", line)
        row = re.match(r"^\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+(?:\d+\s+"
                       r"[\d.]+\s+[\d.]+\s+)?(\S+)$", line)
        if head:
            functions = out.setdefault(head[1], {})
        elif row:
            functions[row[2]] = float(row[1])
    return out


def test_the_control_block_is_read_through_dwarf(ctx):
    image = ctx.firmware(boards.get(BOARDS[0]), TASKS)
    layout = rtos.layout(elf.read(image))
    # the program's TCB_t: pxStack and pcTaskName where FreeRTOS has not
    assert (layout.rtos, layout.name_offset, layout.name_len,
            layout.stack_offset) == ("FreeRTOS", 20, 12, 12)
    assert layout.current == elf.read(image).symbols["pxCurrentTCB"]
    # its tasks' states: the list xStateListItem is in, changed by tasks.c
    image = elf.read(image)
    states = layout.states
    assert states.state_offset == 4 and states.event_offset is None
    assert states.lists == {image.objects["pxReadyTasksLists"][0]: "ready",
                            image.objects["xDelayedTaskList1"][0]: "delayed"}
    tick = image.symbols["xTaskIncrementTick"] & ~1
    assert any(start <= tick < end for start, end in states.code)
    port = image.symbols["port_yield"] & ~1
    assert not any(start <= port < end for start, end in states.code)


@pytest.mark.parametrize("board_name", BOARDS)
def test_tasks_are_named_by_the_rtos_and_handlers_by_their_function(
        ctx, board_name):
    found = run(ctx, board_name)
    # main's context, named by the image's entry point (crt0's _start, or
    # the board support's entry that turns the MMU on first)
    image = elf.read(found["image"])
    names = {"alpha", "beta", "gamma", "idle",
             image.function_name(image.entry), *handlers(board_name)}
    assert set(found["contexts"]) == names, found["contexts"]
    assert "tasks: FreeRTOS's" in found["stderr"], found["stderr"]
    assert f"Tasks and interrupt handlers ({len(names)} contexts" in \
        found["stdout"]


@pytest.mark.parametrize("board_name", BOARDS)
def test_handler_runs_are_exact_and_a_nested_one_is_its_own(ctx,
                                                            board_name):
    found = run(ctx, board_name)
    counts, _ = printed(found)
    c = found["contexts"]
    tick, nested = handlers(board_name)[:2]
    assert c[tick]["runs"] == counts["ticks"] == 40
    if not boards.get(board_name).cortex_m:
        # the yields (one per switch, but for the tick's) and the nested
        assert c[nested]["runs"] == counts["switches"] - counts["ticks"] \
            + counts["nmis"]
    else:
        assert c[nested]["runs"] == counts["nmis"] == 5
        # the first switch, from main, is SVC's
        assert c["[irq] arm_pendsv_isr"]["runs"] == counts["switches"] - 1
        assert c["[irq] arm_svc_isr"]["runs"] == 1
    # The nested one preempts the tick's: its work is not in the tick's
    assert c[nested]["run_instructions"]["max"] > 1000
    runs = c[tick]["run_instructions"]
    assert runs["max"] < 500 and runs["min"] <= runs["mean"] <= runs["max"]
    # every task was switched in: once per tick, and idle once more
    assert [c[t]["switched_in"] for t in ("alpha", "beta", "gamma")] == \
        [counts["ticks"] + 1] * 3


@pytest.mark.parametrize("board_name", BOARDS)
def test_each_tasks_deepest_stack_pointer_is_the_programs(ctx, board_name):
    found = run(ctx, board_name)
    _, deepest = printed(found)
    assert set(deepest) == set(WORK_TASKS)
    symbols = elf.read(found["image"]).symbols
    for task, sp in deepest.items():
        stack = found["contexts"][task]["stack"]
        assert stack["deepest_sp"] == sp, (task, stack, hex(sp))
        # the RTOS's stack: one of the four, from the control block's
        # pxStack
        assert symbols["stacks"] <= stack["base"] < symbols["stacks"] + \
            4 * STACK_BYTES.get(boards.get(board_name).arch, 1024)
        assert stack["used_bytes"] > 256
        assert stack["free_bytes"] == sp - stack["base"]


@pytest.mark.parametrize("board_name", BOARDS)
def test_time_per_task_follows_its_work(ctx, board_name):
    c = run(ctx, board_name)["contexts"]
    alpha = c["alpha"]["instructions"]
    for task, units in WORK_TASKS.items():
        assert abs(c[task]["instructions"] / alpha - units) < 0.05 * units
    assert abs(sum(x["share"] for x in c.values()) - 1) < 1e-6


@pytest.mark.parametrize("board_name", BOARDS)
def test_call_stacks_are_rooted_at_their_task_never_inside_another(
        ctx, board_name):
    found = run(ctx, board_name)
    for line in found["stacks"].splitlines():
        frames = line.rpartition(" ")[0].split(";")
        assert frames[0] in found["contexts"], line
        for task in WORK_TASKS:
            assert (f"task_{task}" in frames) == (frames[0] == task), line
        if frames[0].startswith("[irq]"):
            assert not any(f.startswith("task_") for f in frames), line


@pytest.mark.parametrize("board_name", BOARDS)
def test_the_timeline_has_a_track_per_task_and_handler(ctx, board_name):
    found = run(ctx, board_name)
    events = found["timeline"]["traceEvents"]
    tracks = {e["args"]["name"] for e in events
              if e.get("name") == "thread_name"}
    assert set(found["contexts"]) <= tracks
    slices = [e for e in events if e["ph"] == "X" and e["cat"] == "context"]
    tick, nested = handlers(board_name)[:2]
    assert len([e for e in slices if e["name"] == nested]) == \
        found["contexts"][nested]["runs"]
    # the tick's: a slice per run, and one more after each nested one
    assert len([e for e in slices if e["name"] == tick]) == 40 + 5
    assert all(e["dur"] > 0 for e in slices)
    assert found["timeline"]["otherData"]["dropped_events"]["contexts"] == 0


def test_the_timelines_times_are_the_nanoseconds_as_microseconds():
    """trace_time's text is the decimal float's repr gives (what the
    slices were before it), at the edges of each digit count and of
    the fraction, and on a million random times up to 10**15 ns."""
    import random
    from perfcounter.results import trace_time
    draw = random.Random(44)
    times = list(range(5000)) + \
        [10 ** k + d for k in range(4, 16) for d in (-1001, -1, 0, 1, 999)] + \
        [draw.randrange(10 ** 15) for _ in range(1_000_000)]
    assert [t for t in times if trace_time.us(t) != repr(t / 1000)] == []
    assert trace_time.span(1_500, 3_250) == '"ts":1.5,"dur":1.75'
    assert trace_time.us(20 * 10 ** 9) == "20000000.0"
    # (a QEMU without virtual time: -1 ns, as before)
    assert trace_time.us(-1) == "-0.001"
    assert trace_time.span(-1, 999) == '"ts":-0.001,"dur":1.0'


@pytest.mark.parametrize("board_name", BOARDS)
def test_gprofs_flat_profile_per_task_and_handler(ctx, board_name):
    found = run(ctx, board_name)
    flats = flat_profiles(found["stdout"])
    assert set(flats) == set(found["contexts"])
    for task, units in WORK_TASKS.items():
        mine = flats[task]
        assert {"work", "deepest", f"task_{task}"} <= set(mine), mine
        assert mine["work"] > 95, mine
        assert not [f for f in mine if f.startswith("task_") and
                    f != f"task_{task}"], mine
    tick = handlers(board_name)[0]
    assert "xTaskIncrementTick" in flats[tick] and "work" not in flats[tick]
    assert "gmon.out per task and handler: " \
        f"{len(found['contexts'])} files" in found["stderr"]


def test_each_tasks_gmon_out_is_in_the_runs_unit(ctx, board):
    """--gprof-unit clocks: a task's gmon.out counts clocks as the run's
    does (rate 1 a clock with --sample=exact), not seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(PROFILE), "--board", board.name, "--sample", "exact",
             "--per-task", "--gmon", "gmon.out", "--gprof-unit", "clocks",
             ctx.firmware(board, TASKS)], cwd=tmp, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        headers = {path.name:
                   bootlib.gmon_histogram(path, board.address_bytes)[1][:2]
                   for path in Path(tmp).glob("gmon*.out")}
    assert len(headers) > 1 + len(WORK_TASKS), headers
    assert set(headers.values()) == {(1, "clocks")}, headers


@pytest.mark.parametrize("board_name", BOARDS)
def test_the_flat_profiles_are_gprofs_of_the_image_itself(ctx, board_name):
    """gprof's flat profiles are read from a copy of the image without
    its DWARF and its mapping symbols (gprof.flat_profile_image: half of
    each gprof run looked up source files that the flat profile never
    prints): the same text as from the image itself, for the run's
    gmon.out and each task's, with each architecture's gprof."""
    from perfcounter import Target
    from perfcounter.outputs import gprof
    board = boards.get(board_name)
    image = ctx.firmware(board, TASKS)
    copy = gprof.flat_profile_image(Target(image, board))
    assert b".debug_info" in Path(image).read_bytes()
    assert b".debug_" not in copy.read_bytes(), copy
    # $t, $a, $d, $x, $xrv32i2p1...: in the string table, nul-terminated
    mapping = re.compile(rb"\0\$[adtx](\0|\.|rv)")
    assert mapping.search(Path(image).read_bytes())
    assert not mapping.search(copy.read_bytes()), copy
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(PROFILE), "--board", board.name, "--sample", "--per-task",
             "--gmon", "gmon.out", image], cwd=tmp,
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        read = [gprof.tool(board), "-b", "-p"]
        gmons = list(Path(tmp).glob("gmon*.out"))
        assert len(gmons) > 1 + len(WORK_TASKS), gmons
        printed = per_task_texts(proc.stdout)
        assert len(printed) == len(gmons) - 1, printed.keys()
        functions = flat_profile.functions(Target(image, board))
        for path in gmons:
            flat = subprocess.run(read + [image, path], capture_output=True,
                                  text=True).stdout
            assert flat.startswith("Flat profile:"), flat
            assert subprocess.run(read + [copy, path], capture_output=True,
                                  text=True).stdout == flat, path.name
            if path.name == "gmon.out":
                continue        # (the run's, with its calls: gprof's)
            # Made here, byte for byte gprof's (not gprof's by fallback)
            histogram, unit = bootlib.gmon_histogram(path,
                                                     board.address_bytes)
            assert flat_profile.text(histogram, functions, *unit) == flat
            assert printed[path.name] == flat, path.name


def test_each_tasks_flat_profile_is_gprofs_where_the_model_is_not(ctx):
    """The tasks' flat profiles cost two runs of gprof, the run's and
    the tasks' summed; where gprof disagrees with the flat profiles made
    here on that sum, gprof makes each one: the report is gprof's all
    the same.  (gprof here is the board's, behind a script that counts
    its runs.)"""
    import shutil
    from perfcounter import Target
    from perfcounter.outputs import gprof, task_gmon
    board = boards.get("mps2-an385")
    target = Target(ctx.firmware(board, TASKS), board)
    with tempfile.TemporaryDirectory() as tmp:
        runs = Path(tmp) / "gprof-runs"
        wrapper = Path(tmp) / "bin" / gprof.tool(board)
        wrapper.parent.mkdir()
        wrapper.write_text(f"#!/bin/sh\necho run >> {runs}\n"
                           f'exec {shutil.which(gprof.tool(board))} "$@"\n')
        wrapper.chmod(0o755)
        proc = subprocess.run(
            [str(PROFILE), "--board", board.name, "--sample", "--per-task",
             "--gmon", "gmon.out", target.path], cwd=tmp,
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300, env=dict(os.environ, PATH=f"{wrapper.parent}:"
                                                   f"{os.environ['PATH']}"))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert runs.read_text() == "run\nrun\n"
        written = []
        for label, name in re.findall(r"^(.+) \((gmon\..+\.out)\):$",
                                      proc.stdout, re.M):
            histogram, unit = bootlib.gmon_histogram(Path(tmp) / name,
                                                     board.address_bytes)
            written.append((label, Path(tmp) / name, histogram))
        assert len(written) > 1 + len(WORK_TASKS), proc.stdout
        model = flat_profile.functions(target)
        # Each function credited with what the one after it ran
        wrong = flat_profile.Functions(model.starts,
                                       model.names[1:] + model.names[:1])
        # (the sum's gmon.out in a temporary directory of the test's own)
        summed = Path(tmp) / "summed"
        summed.mkdir()
        original = tempfile.tempdir, flat_profile.functions
        tempfile.tempdir = str(summed)
        try:
            agreed = task_gmon.start(target, written, unit)()
            flat_profile.functions = lambda target: wrong
            disagreed = task_gmon.start(target, written, unit)()
            assert not list(summed.iterdir())
            # a report not asked for (another output failed first)
            # leaves nothing behind either
            flat_profile.functions = original[1]
            dropped = task_gmon.start(target, written, unit)
            assert len(list(summed.iterdir())) == 1
            del dropped
            assert not list(summed.iterdir())
        finally:
            tempfile.tempdir, flat_profile.functions = original
        by_gprof = [gprof.run(target, path, "-p") for _, path, _ in written]
    assert agreed == disagreed
    assert disagreed.split("(--per-task):\n", 1)[1] == "".join(
        f"\n{label} ({path}):\n{text}"
        for (label, path, _), text in zip(written, by_gprof))
    assert flat_profile.text(written[0][2], wrong, *unit) != by_gprof[0]


def per_task_texts(stdout):
    """--per-task's flat profiles as printed: {gmon file name: text}."""
    part = stdout.split("(--per-task):\n", 1)[1]
    pieces = re.split(r"^\n?.+ \((gmon\..+\.out)\):\n", part, flags=re.M)
    return dict(zip(pieces[1::2], pieces[2::2]))


def test_cycles_per_task_and_per_handler_run(ctx):
    """--cycles: the model's cycles per context add up to the run's, and
    a handler's worst run in cycles is at least its worst in
    instructions."""
    image = ctx.firmware(boards.get(BOARDS[0]), TASKS)
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(PROFILE), "--board", BOARDS[0], "--sample", "exact",
             "--cycles", "--json", "run.json", image],
            cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        doc = json.loads((Path(tmp) / "run.json").read_text())
    total = int(re.search(r"^cycles: (\d+) estimated cycles", proc.stdout,
                          re.M)[1])
    c = {x["name"]: x for x in doc["contexts"]}
    assert sum(x["cycles"] for x in c.values()) == total
    for x in c.values():
        assert x["cycles"] >= x["instructions"] > 0, x
    for name in M_HANDLERS[:3]:
        runs = c[name]["run_cycles"]
        assert c[name]["run_instructions"]["max"] <= runs["max"], c[name]
        assert 0 < runs["min"] <= runs["max"], c[name]
    # the nested one's work: a loop of 300 with a taken branch each time
    assert c["[irq] arm_nmi_isr"]["run_cycles"]["max"] > \
        c["[irq] arm_nmi_isr"]["run_instructions"]["max"] + 300
    # the task instances in the model's cycles: every cycle a task ran is
    # in one of its instances; a unit of work more costs each task alike
    tasks = {t["name"]: t for t in doc["instances"]["tasks"]}
    per = {}
    for name in WORK_TASKS:
        each = tasks[name]["each"]
        assert sum(each["execution_cycles"]) == c[name]["cycles"]
        assert len(set(each["execution_cycles"][1:])) == 1
        per[name] = each["execution_cycles"][1]
        assert tasks[name]["response_cycles"]["max"] >= \
            tasks[name]["execution_cycles"]["max"]
    assert per["gamma"] - per["beta"] == per["beta"] - per["alpha"] > 0
    assert not bootlib.json_schema_errors(doc)


def test_the_same_on_every_run(ctx):
    first = run(ctx, BOARDS[0])
    ctx.cache.pop(("tasks", BOARDS[0]))
    second = run(ctx, BOARDS[0])
    for part in ("contexts", "stacks", "timeline", "stdout"):
        assert first[part] == second[part], (part, first_difference(
            first[part], second[part]))


def first_difference(a, b):
    """Where two runs' outputs part first (a timeline: the first event
    that differs, and its index), to say more than pytest's prefix."""
    if isinstance(a, dict) and "traceEvents" in a:
        pairs = list(zip(a["traceEvents"], b["traceEvents"]))
        for i, (x, y) in enumerate(pairs):
            if x != y:
                return i, x, y
        return len(pairs), len(a["traceEvents"]), len(b["traceEvents"])
    return None


def test_the_gate_compares_tasks_and_worst_case_handler_runs(ctx):
    doc = run(ctx, BOARDS[0])["doc"]
    rows = {(r.key, r.metric): r for r in gate.compare(doc, doc)
            if r.core == gate.TASKS}
    assert rows[("alpha", "instructions")].name == "task alpha"
    assert rows[("[irq] arm_systick_isr", "run_max")].status == "same"
    assert rows[("gamma", "load_peak")].current == round(
        {c["name"]: c for c in doc["load"]["contexts"]}["gamma"]["peak"] *
        1_000_000) > 0
    faster = json.loads(json.dumps(doc))
    for c in faster["contexts"]:
        if c["name"] == "[irq] arm_nmi_isr":
            c["run_instructions"]["max"] -= 100
    rows = {(r.key, r.metric): r for r in gate.compare(doc, faster)}
    assert rows[("[irq] arm_nmi_isr", "run_max")].status == "regressed"
    assert rows[("[irq] arm_nmi_isr", "instructions")].status == "same"


@pytest.mark.parametrize("board_name", BOARDS)
def test_task_instances_from_release_to_completion(ctx, board_name):
    found = run(ctx, board_name)
    tasks = {t["name"]: t for t in found["doc"]["instances"]["tasks"]}
    ticks = int(re.search(r"ticks (\d+)", found["stdout"]).group(1))
    ran = {name: c["instructions"] for name, c in found["contexts"].items()}
    executions = {}
    for name in WORK_TASKS:
        t = tasks[name]
        each = t["each"]
        # made ready when created and at every tick, blocked till the next
        assert t["instances"] == ticks + 1 and "open" not in t
        assert [(b["kind"], b["times"], b["on"]) for b in t["blocked"]] == \
            [("delayed", ticks, "done_semaphore to take")]
        # every instruction the task ran is in one of its instances
        assert sum(each["execution_instructions"]) == ran[name]
        # after its first, each instance does the same work
        assert len(set(each["execution_instructions"][1:])) == 1
        executions[name] = each["execution_instructions"][1]
        # a response is its execution and what preempted it, exactly
        for unit in ("instructions", "ns"):
            assert sum(each[f"response_{unit}"]) == \
                sum(each[f"execution_{unit}"]) + \
                sum(p[unit] for p in t["preempted_by"])
        worst = t["worst"]
        assert worst["response_ns"] == t["response_ns"]["max"] == \
            each["response_ns"][worst["index"]]
        assert worst["release_ns"] == each["release_ns"][worst["index"]]
    # each task does a unit of work more than the one before: 300 turns
    # of work()'s loop
    unit = executions["beta"] - executions["alpha"]
    assert unit > 0 and unit % 300 == 0
    assert executions["gamma"] - executions["beta"] == unit
    # after each tick alpha runs first, gamma last: all of alpha's and
    # beta's instructions are in gamma's waiting
    by = {p["name"]: p["instructions"] for p in tasks["gamma"]["preempted_by"]}
    assert by["alpha"] == ran["alpha"] and by["beta"] == ran["beta"]
    # idle never blocks: its one instance is open at the end
    assert tasks["idle"]["instances"] == 0
    assert tasks["idle"]["open"]["execution_instructions"] == ran["idle"]
    assert "Task instances, from made ready" in found["stdout"]
    assert not bootlib.json_schema_errors(found["doc"])
    # the timeline: a slice per instance, on a track per task
    slices = [e for e in found["timeline"]["traceEvents"]
              if isinstance(e, dict) and e.get("cat") == "instance"]
    assert len(slices) == 3 * (ticks + 1)


@pytest.mark.parametrize("board_name", BOARDS)
def test_the_ticks_latency_on_every_interrupt_controller(ctx, board_name):
    """The NVIC, the GIC, the BCM2835's controller and the RISC-V
    timer's mip bit each say when the tick's interrupt is raised."""
    found = run(ctx, board_name)
    ticks = int(re.search(r"ticks (\d+)", found["stdout"]).group(1))
    latency = found["contexts"][handlers(board_name)[0]]["latency"]
    assert latency["count"] == ticks
    spans = latency["instructions"]
    assert 0 <= spans["min"] <= spans["mean"] <= spans["max"]
    assert latency["ns"]["max"] >= latency["ns"]["min"] >= 0
    # (the ticks arrive while a task masks interrupts in deepest() or
    # runs its own handler's code: no more than a few hundred)
    assert spans["max"] < 1000


@pytest.mark.parametrize("board_name", BOARDS)
def test_stretches_with_interrupts_masked(ctx, board_name):
    """Each work task masks interrupts once an instance, in deepest():
    CPSID, MSR DAIFSet or CSRCI mstatus; handlers' own writes are not
    stretches but on Cortex-M (none here)."""
    found = run(ctx, board_name)
    ticks = int(re.search(r"ticks (\d+)", found["stdout"]).group(1))
    masked = found["doc"]["masked"]
    assert masked["times"] == 3 * (ticks + 1)
    assert masked["longest_in"] == "deepest"
    image = elf.read(found["image"])
    start, size, _ = next(f for f in image.functions if f[2] == "deepest")
    assert start <= masked["longest_at"] < start + size
    assert 0 < masked["longest_instructions"] < 30
    assert masked["instructions"] >= masked["times"] * 10


@pytest.mark.parametrize("board_name", BOARDS)
def test_kernel_objects_per_object_and_operation(ctx, board_name):
    found = run(ctx, board_name)
    ticks = int(re.search(r"ticks (\d+)", found["stdout"]).group(1))
    objects = {o["name"]: o for o in
               found["doc"]["kernel_objects"]["objects"]}
    # the queue by its registry name, the semaphore by its symbol
    assert set(objects) == {"ticks", "done_semaphore"}
    queue, semaphore = objects["ticks"], objects["done_semaphore"]
    assert (queue["kind"], semaphore["kind"]) == ("queue", "semaphore")
    image = elf.read(found["image"])
    assert queue["created_by"] == semaphore["created_by"] == \
        image.function_name(image.entry)
    # at each tick its handler sends and gives; idle receives and takes
    # twice, the second failing, after each tick
    assert queue["operations"] == {
        "send": {"calls": ticks, "failed": 0},
        "receive": {"calls": 2 * ticks, "failed": ticks}}
    assert semaphore["operations"] == {
        "give": {"calls": ticks, "failed": 0},
        "take": {"calls": 2 * ticks, "failed": ticks}}
    tick = handlers(board_name)[0]
    for obj in objects.values():
        assert sorted((c["name"], c["calls"]) for c in obj["by_context"]) \
            == sorted([(tick, ticks), ("idle", 2 * ticks)])
    assert "Kernel objects (2 used" in found["stdout"]
    instants = [e for e in found["timeline"]["traceEvents"]
                if isinstance(e, dict) and e.get("cat") == "kernel object"]
    assert len(instants) == 6 * ticks
    assert sum(e["name"].endswith(" failed") for e in instants) == 2 * ticks


def test_the_timeline_keeps_the_first_instants_and_the_counts_all(
        monkeypatch):
    """Host only: every operation counted, only the instants the timeline
    draws kept (a long run makes millions)"""
    monkeypatch.setattr(kernel_objects, "MAX_INSTANTS", 4)
    found = kernel_objects.KernelObjects({}, [], [])
    found.objects[0x100] = kernel_objects.KernelObject(0x100)
    for i in range(10):
        kernel_objects._account(found, None, "xQueueReceive", (0x100, 0),
                                i % 2, 7, 1000 * i)
    assert found.objects[0x100].operations == {"receive": [10, 5]}
    assert found.events == [(1000 * i, 0x100, "receive", 7, i % 2 == 0)
                            for i in range(4)]


def test_the_gate_compares_each_tasks_worst_response(ctx):
    doc = run(ctx, BOARDS[0])["doc"]
    faster = json.loads(json.dumps(doc))
    for t in faster["instances"]["tasks"]:
        if t["name"] == "gamma":
            t["response_ns"]["max"] -= 100_000
    rows = {(r.key, r.metric): r for r in gate.compare(doc, faster)}
    assert rows[("gamma", "response_max_ns")].status == "regressed"
    assert rows[("alpha", "response_max_ns")].status == "same"


def loaded(ctx, board_name, window):
    image = ctx.firmware(boards.get(board_name), TASKS)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        proc = subprocess.run(
            [str(PROFILE), "--board", board_name, "--sample", "--json",
             "run.json", "--timeline", "timeline.json", "--load-window",
             window, image], cwd=tmp, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        doc = json.loads((tmp / "run.json").read_text())
        trace = json.loads((tmp / "timeline.json").read_text())
    return proc.stdout, doc, trace


def test_the_load_ends_at_the_last_switch_kept():
    """With switches dropped the series end at the last one kept: the
    stretch it begins adds nothing, even where it falls on a window's
    edge (it made a window past the end, and a division by its 0 ns)."""
    for until in (3_000, 2_500):
        busy = cpu_load.Busy(1_000)
        busy.add([(0, 1, 0, 1_200, 9), (0, 2, 1_200, until, 9),
                  (0, 1, until, 4_000, 9)], until)
        load = busy.load(until)
        assert load.windows == 3
        assert load.busy == {1: [1_000, 200, 0],
                             2: [0, 800, until - 2_000]}
        # (the last window's share of its own length)
        assert (load.peak(1), load.peak(2)) == ((1.0, 0), (1.0, 2))


@pytest.mark.parametrize("board_name", BOARDS)
def test_cpu_load_over_time_per_task_and_handler(ctx, board_name):
    out, doc, trace = loaded(ctx, board_name, "1ms")
    _, coarse, _ = loaded(ctx, board_name, "2ms")
    load = doc["load"]
    n, until = load["windows"], load["until_ns"]
    series = {c["name"]: cpu_load.dense(c, n) for c in load["contexts"]}
    assert load["window_ns"] == 1_000_000 and n == -(-until // 1_000_000)
    assert set(series) == {c["name"] for c in doc["contexts"]}
    # every window's time is someone's, exactly (one vCPU)
    for k in range(n):
        length = min(1_000_000, until - k * 1_000_000)
        assert sum(s[k] for s in series.values()) == length, k
    # the tasks' load follows their work, as their instructions do
    alpha = sum(series["alpha"])
    for task, units in WORK_TASKS.items():
        assert abs(sum(series[task]) / alpha - units) < 0.05 * units
    # 2 ms windows: each the sum of two 1 ms ones
    for c in coarse["load"]["contexts"]:
        fine = series[c["name"]] + [0]
        pairs = cpu_load.dense(c, coarse["load"]["windows"])
        assert pairs == [fine[2 * k] + fine[2 * k + 1]
                         for k in range(len(pairs))]
    # the timeline's counter track: a sample per window, 100% in each,
    # every context's percent in the first and in each after, but a 0
    # after a 0 (both viewers read one left out as 0 there)
    counters = [e for e in trace["traceEvents"]
                if e["ph"] == "C" and e["name"] == "CPU load %"]
    assert len(counters) == n
    assert all(abs(sum(e["args"].values()) - 100) < 0.01 for e in counters)
    assert set(counters[0]["args"]) == set(series)
    left_out = 0
    for k, e in enumerate(counters):
        length = min(1_000_000, until - k * 1_000_000)
        for name, busy in series.items():
            if name in e["args"]:
                assert abs(e["args"][name] - 100 * busy[k] / length) \
                    < 0.001, (k, name)
            else:
                assert busy[k] == busy[k - 1] == 0 < k, (k, name)
                left_out += 1
    assert left_out > 0
    assert "CPU load in windows of 1 ms" in out
