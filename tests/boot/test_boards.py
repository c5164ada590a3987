# SPDX-License-Identifier: MIT
"""The counting rules, checked on real firmware on every board.

Scenarios are hand-written assembly (tests/firmware/ARCH/scenarios.S),
so every count is known exactly: with -icount one clock is one
instruction, and a section counts the instructions after its BEGIN store
up to and including its END store.
"""

import re
import subprocess
import tempfile

from bootlib import (assert_counts, command, empty_section_clocks,
                     expect_exit, record, rules, run_image)

PER_BOARD = True
EXAMPLE = "firmware/examples/checksum.elf"


def test_loop_count_is_exact(ctx, board):
    loops = rules(ctx, board)["loop"]
    assert len(loops) == 5, loops
    for rec in loops:
        n = rec["n"]
        # n iterations of two instructions, plus the END store; the
        # global counter also sees the BEGIN and STOP stores
        assert_counts(rec, section=2 * n + 1, occurrences=1, starts=1)
        assert rec["global"] == 2 * n + 3, rec


def test_loop_count_grows_exactly_with_length(ctx, board):
    loops = rules(ctx, board)["loop"]
    for a, b in zip(loops, loops[1:]):
        assert b["section"] - a["section"] == 2 * (b["n"] - a["n"]), (a, b)


def test_begin_while_stopped_gives_time_without_occurrence(ctx, board):
    rec = record(ctx, board, "begin_while_stopped")
    n = rec["n"]
    assert_counts(rec, section=2 * n + 2, occurrences=0, starts=1)
    assert rec["global"] == 2 * n + 3, rec


def test_repeated_begin_counts_twice(ctx, board):
    rec = record(ctx, board, "repeated_begin")
    n = rec["n"]
    assert_counts(rec, section=4 * n + 4, occurrences=2, starts=1)
    assert rec["global"] == 4 * n + 6, rec


def test_reset_zeroes_everything(ctx, board):
    rec = record(ctx, board, "reset")
    assert rec["before_nonzero"] > 0, "nothing was counted before RESET"
    assert_counts(rec, after_nonzero=0)
    assert_counts(record(ctx, board, "reset_stops_sections"),
                  section2=0, section7=0)


def test_empty_section_costs_at_most_2_clocks(ctx, board):
    clocks = record(ctx, board, "empty_section")["clocks"]
    most = empty_section_clocks(board) + 1
    assert 1 <= clocks <= most, f"PERF_BEGIN; PERF_END measured {clocks}"


def test_count_above_2_32_reads_through_hi_and_lo(ctx, board):
    rec = record(ctx, board, "above_32_bits")
    config = record(ctx, board, "config")
    section = rec["section"]
    assert section >= 1 << 32, rec
    assert rec["hi"] == section >> 32 and rec["lo"] == section & 0xffffffff
    # The global counter ran for a few more instructions around it
    assert 2 <= rec["global"] - section <= 16, rec
    # Seconds by the board clock are seconds by the counter
    counter_s = section / config["freq"]
    clock_s = rec["clock_ticks"] / config["timer_hz"]
    # (to a tick of the clock: 30.5 us on sifive_e's 32768 Hz mtime)
    assert abs(counter_s - clock_s) < 1e-5 + 1 / config["timer_hz"], (
        counter_s, clock_s)


def test_time_agrees_with_board_timer(ctx, board):
    rec = record(ctx, board, "board_timer")
    config = record(ctx, board, "config")
    counter_s = rec["section"] / config["freq"]
    timer_s = rec["timer_ticks"] / config["timer_hz"]
    # Both count virtual time; the timer reads sit a few instructions out
    assert abs(counter_s - timer_s) <= 2 / config["timer_hz"] + 1e-6, (
        counter_s, timer_s)


def test_two_runs_give_identical_reports(ctx, board):
    first = run_image(ctx, board, EXAMPLE)
    second = run_image(ctx, board, EXAMPLE)
    expect_exit(first)
    assert first.output == second.output, (
        f"run 1:\n{first.output}\nrun 2:\n{second.output}")


def checksum_of_example():
    data = bytes((i * 7 + 3) & 0xff for i in range(4096))
    total = sum(data[i] << 8 | data[i + 1] for i in range(0, 4096, 2))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


def test_example_prints_the_report(ctx, board):
    result = run_image(ctx, board, EXAMPLE)
    expect_exit(result)
    out = result.output
    assert f"checksum of 4096 bytes: {checksum_of_example():#06x}" in out, out
    m = re.search(r"--Performance Counter Report--\n"
                  r"Total Time: +\S+ seconds  \((\d+) clock-cycles\)\n", out)
    assert m, out
    rows = re.findall(r"^\|(.{15,}?)\|(.{5,}?)\|(.{11,}?)\|(.{15,}?)\|"
                      r"(.{11})\|$", out, re.M)
    names = [r[0].strip() for r in rows[1:]]
    assert names == ["1st checksum_test", "pc_overhead", "ts_overhead"], out
    clocks = {r[0].strip(): int(r[3]) for r in rows[1:]}
    assert 1 <= clocks["pc_overhead"] <= 2, out
    # The loop reads 4096 bytes, a byte an instruction or more; 32 a load
    # where GCC vectorizes it (AArch64's Advanced SIMD: LD2 of two
    # 128-bit registers)
    bytes_per_load = 32 if board.arch == "aarch64" else 1
    assert clocks["1st checksum_test"] > 4096 // bytes_per_load, out
    assert sum(clocks.values()) < int(m.group(1)), out
    # Every line of the table has the same width
    table = [line for line in out.splitlines() if line[:1] in "|+"]
    assert len({len(line) for line in table}) == 1, out


def test_exit_code_is_the_guests(ctx, board):
    expect_exit(run_image(ctx, board, "tests/firmware/exit_code.elf"), 7)


def test_meaningless_accesses_are_logged_and_ignored(ctx, board):
    image = ctx.firmware(board, "tests/firmware/bad_access.elf")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = command(ctx, board, image, tmp,
                      qemu_args=("-d", "guest_errors"))
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "bad_access reserved=0 starts=1 running=1" in proc.stdout, (
        proc.stdout)
    log = proc.stderr
    for expected in ["write to read-only or reserved word at offset 0x8",
                     "read of reserved word at offset 0xc",
                     "bad write of size 1 at offset 0x0",
                     "write of unused offset 0x"]:
        assert expected in log, f"no '{expected}' in:\n{log}"


def test_two_cores_count_the_same_interval_identically(ctx, board):
    rec = record(ctx, board, "two_counters")
    n = rec["n"]
    assert_counts(rec, first=2 * n + 3, second=2 * n + 3)


def test_two_cores_example_prints_two_reports(ctx, board):
    result = run_image(ctx, board, "firmware/examples/two_cores.elf")
    expect_exit(result)
    out = result.output
    assert "sorted 256 ints; copy matches, then cleared to 0" in out, out
    assert out.count("--Performance Counter Report--") == 2, out
    for name in ["insertion sort", "shell sort", "qsort", "memset", "memcpy",
                 "memcmp"]:
        assert re.search(rf"^\|{name} +\|.*\| +1\|$", out, re.M), (
            f"no row for {name} with 1 occurrence:\n{out}")


def test_extension_identifies_the_core(ctx, board):
    base, sections = board.counters[0]
    assert_counts(record(ctx, board, "ext"), found=1, version=2,
                  sections=sections, freq=board.freq, icount=1)


def test_extension_counts_retired_instructions(ctx, board):
    rec = record(ctx, board, "instructions")
    n = rec["n"]
    # Busy code: one instruction per clock, the same convention
    assert_counts(rec, section_clocks=2 * n + 1, section=2 * n + 1)
    assert rec["global"] == 2 * n + 3, rec


def test_extension_instructions_exclude_idle_time(ctx, board):
    rec = record(ctx, board, "above_32_bits")
    # Seconds of sleep count as clocks but retire few instructions
    assert 0 < rec["instructions"] < rec["section"] // 1000, rec


def test_extension_reads_a_running_counter_without_stopping_it(ctx, board):
    rec = record(ctx, board, "live_read")
    assert rec["still_running"] == 1, rec
    assert rec["second"] - rec["first"] >= 2 * 1000, rec


def test_trace_points_show_every_operation(ctx, board):
    image = ctx.firmware(board, "tests/firmware/bad_access.elf")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = command(ctx, board, image, tmp,
                      qemu_args=("-trace", "perf_counter_*"))
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    for expected in ["perf_counter_reset_cmd RESET", "perf_counter_start START",
                     "perf_counter_stop STOP",
                     "perf_counter_write offset 0x4 value 0x0",
                     "perf_counter_read offset 0xc value 0x0"]:
        assert expected in proc.stderr, f"no '{expected}' in:\n{proc.stderr}"
