# SPDX-License-Identifier: MIT
"""The perfcounter package's public API (docs/python-api.md), as a user
imports it: a board run through it gives what scripts/profile gives,
and the package installs offline into a virtual environment."""

import gc
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import perfcounter
from perfcounter import OutputOptions, RunConfig, Target, boards
from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"
EXAMPLE = "firmware/examples/checksum.elf"


def test_a_run_through_the_api_is_scripts_profiles(ctx, board):
    """Target, RunConfig, run(), Result and outputs.write(): the same
    counts, profile and cycles as the command line's --json."""
    image = ctx.firmware(board, EXAMPLE)
    target = Target(image, board)
    target.check()
    result = perfcounter.run(RunConfig(target, profile=perfcounter.EXACT,
                                       cycles=True), ctx.qemu)
    assert result.exit_code == 0 and result.ended == "exit", result.output
    assert "checksum of 4096 bytes" in result.output
    with tempfile.TemporaryDirectory() as tmp:
        mine, theirs = Path(tmp) / "api.json", Path(tmp) / "cli.json"
        status = perfcounter.outputs.write(result, OutputOptions(
            json=mine, gmon=Path(tmp) / "gmon.out"))
        proc = subprocess.run(
            [str(PROFILE), "--board", board.name, image, "--sample=exact",
             "--cycles", "--json", theirs, "--gmon", Path(tmp) / "cli.out"],
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
        assert proc.returncode == 0, proc.stderr
        api, cli = (json.loads(p.read_text()) for p in (mine, theirs))
    assert status == 0
    assert api == cli
    profile = result.profile
    assert profile.instructions == result.outcome.instructions
    assert sum(profile.histogram.values()) == profile.instructions
    assert result.plugin.cycles_model == board.cycle_model
    assert result.plugin.cycles_instructions == profile.instructions
    # the counter core counted the model's cycles (counter_clock "cycles")
    assert api["cores"][0]["clock"] == "cycles"


def test_outputs_are_written_with_the_cycle_collector_paused(
        ctx, board, tmp_path, monkeypatch):
    """outputs.write() pauses Python's cycle collector while it writes,
    as reading the records does (each full collection walked a long
    run's records: docs/performance.md), and leaves it as it was."""
    from perfcounter.outputs import gmon
    target = Target(ctx.firmware(board, EXAMPLE), board)
    result = perfcounter.run(RunConfig(target, profile=perfcounter.EXACT),
                             ctx.qemu)
    collecting = []
    write = gmon.write
    monkeypatch.setattr(gmon, "write", lambda *args, **kwargs: (
        collecting.append(gc.isenabled()), write(*args, **kwargs))[1])
    assert gc.isenabled()
    perfcounter.outputs.write(result, OutputOptions(gmon=tmp_path / "a"))
    assert collecting == [False] and gc.isenabled()
    gc.disable()
    try:
        perfcounter.outputs.write(result, OutputOptions(gmon=tmp_path / "b"))
        assert collecting == [False, False] and not gc.isenabled()
    finally:
        gc.enable()


def test_a_configuration_renders_the_command_and_refuses_what_cannot_run(
        ctx, board):
    target = Target(ctx.firmware(board, EXAMPLE), board)
    config = RunConfig(target, stop_at=(("main", 2),), cycles=True)
    argv = config.command(ctx.qemu, "/tmp/run, 1")
    plugin = argv[argv.index("-plugin") + 1]
    assert "out=/tmp/run,, 1/plugin-results.txt" in plugin
    assert f"stop=pc:{target.address('main'):#x}:2" in plugin
    assert plugin.count("isa=") == 1
    assert config.replace(cycles=False).cycle_model is None
    for bad, why in [
            (config.replace(stop_at=(("no_such_symbol", 1),)),
             "'no_such_symbol' is not a symbol of the image"),
            (RunConfig(Target(ctx.firmware(boards.get("arm-virt"), EXAMPLE),
                              boards.get("arm-virt")), cycles=True),
             "no cycle model for arm-virt"),
            (config.replace(plugin=False), "need plugin=True"),
            (config.replace(serials=(perfcounter.Serial(
                input=Path("/no/such/input")),)),
             "uart0's input /no/such/input: no such file")]:
        try:
            bad.validate()
        except perfcounter.Failure as err:
            assert why in str(err), err
        else:
            raise AssertionError(f"{bad} was not refused")


def test_the_package_installs_offline_into_a_venv(ctx, board):
    """pip install --no-build-isolation -e . into a venv that sees
    Debian's packages, with no index: the venv's Python imports the
    package from anywhere and runs a board with it."""
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run(["/usr/bin/python3", "-m", "venv",
                        "--system-site-packages", str(venv)], check=True)
        pip = subprocess.run(
            [str(venv / "bin" / "pip"), "install", "--no-build-isolation",
             "--no-index", "-e", str(REPO)], capture_output=True, text=True,
            timeout=300)
        assert pip.returncode == 0, pip.stdout + pip.stderr
        script = (
            "import perfcounter, sys\n"
            "from perfcounter import RunConfig, Target, boards\n"
            f"board = boards.get({board.name!r})\n"
            f"target = Target({str(ctx.firmware(board, EXAMPLE))!r}, board)\n"
            "result = perfcounter.run(RunConfig(target))\n"
            "print(perfcounter.__file__)\n"
            "print(result.exit_code, result.cores[0].clocks)\n")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        proc = subprocess.run([str(venv / "bin" / "python"), "-c", script],
                              cwd=tmp, env=env, capture_output=True,
                              text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    where, ran = proc.stdout.splitlines()[-2:]
    assert Path(where) == REPO / "scripts" / "lib" / "perfcounter" / \
        "__init__.py"
    expected = perfcounter.run(RunConfig(Target(
        ctx.firmware(board, EXAMPLE), board)), ctx.qemu)
    assert ran == f"0 {expected.cores[0].clocks}"


def test_the_event_names_follow_the_numbers_qemu_gives_them():
    """events.NAMES against PerfctrEvent (QEMU's hook, their owner) and
    the firmware's PERFCTR_EVENT_*, by number."""
    from perfcounter.results import events

    def numbered(path):
        text = path.read_text()
        return {int(n): name.lower() for name, n in re.findall(
            r"PERFCTR_EVENT_(\w+) = (\d+)", text)}

    hook = numbered(REPO / "qemu-device/include/accel/tcg/perfctr-hook.h")
    library = numbered(REPO / "firmware/include/perfctr.h")
    assert hook == library
    assert len(hook) == len(events.NAMES) > 17
    assert {n: name for n, name in enumerate(events.NAMES)} == \
        {**hook, 0: None}
