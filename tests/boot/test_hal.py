# SPDX-License-Identifier: MIT
"""The Nios II HAL compatibility layer, on real firmware on every board.

The programs (tests/firmware/hal/) are written the way Nios II programs
are: integer bases from system.h, the vendor's prototypes repeated,
alt_timestamp, usleep, alt_nticks, interrupt masking, alt_printf.  They
are built with -Werror, so an integer base that warns fails the build.
"""

import ast
import re
import subprocess

from bootlib import (assert_counts, booted_records, expect_exit,
                     run_image)
from perfcounter.paths import REPO

PER_BOARD = True


def hal_records(ctx, board, name):
    return booted_records(ctx, board, f"tests/firmware/hal_{name}.elf")


def hal_record(ctx, board, program, name):
    records, output = hal_records(ctx, board, program)
    assert name in records, f"hal_{program}.elf printed no '{name}':\n" \
        + output
    return records[name]


def test_integer_base_works_in_macros_getters_and_report(ctx, board):
    rec = hal_record(ctx, board, "api", "integer_base")[0]
    assert_counts(rec, starts=1, same=1, base_matches=1)
    assert rec["section"] > 2 * 1000, rec
    _, output = hal_records(ctx, board, "api")
    assert re.search(rf"^\|spin 1000 +\|.*\| +{rec['section']}\|"
                     r" +1\|$", output, re.M), output


def test_vendor_prototypes_can_be_repeated(ctx, board):
    # vendor_decl.c repeats them; the program built with -Werror
    vendor = hal_record(ctx, board, "api", "vendor_prototypes")[0]
    integer = hal_record(ctx, board, "api", "integer_base")[0]
    assert vendor["section"] == integer["section"], (vendor, integer)


def test_alt_printf_prints_the_hal_subset(ctx, board):
    _, output = hal_records(ctx, board, "api")
    assert "alt_putstr ok\n" in output, output
    # %d is not in the HAL's alt_printf: printed as written
    assert "alt_printf str c 0 2a deadbeef 100% %d\n" in output, output


def test_usleep_waits_that_long_in_virtual_time(ctx, board):
    hz = board.defines()["BOARD_TIMER_HZ"]
    for rec in hal_record(ctx, board, "api", "usleep"):
        want = rec["us"] * hz // 1_000_000
        # Never early; late by the wake-up and the timer reads only
        assert 0 <= rec["timer_ticks"] - want <= 400, (rec, want)
        assert abs(rec["timestamp_ticks"] - rec["timer_ticks"]) <= 64, rec


def test_alt_nticks_counts_the_system_tick(ctx, board):
    clock = hal_record(ctx, board, "api", "clock")[0]
    per_second = board.defines()["BOARD_TICKS_PER_SECOND"]
    assert clock["ticks_per_second"] == per_second, clock
    for rec in hal_record(ctx, board, "api", "usleep"):
        want = rec["us"] * per_second // 1_000_000
        assert abs(rec["nticks"] - want) <= 1, (rec, want)


def test_timestamp_runs_at_the_board_timer_rate(ctx, board):
    d = board.defines()
    clock = hal_record(ctx, board, "api", "clock")[0]
    assert_counts(clock, timer_hz=d["BOARD_TIMER_HZ"],
                  timestamp_freq=d["BOARD_TIMER_HZ"],
                  timestamp_bits=d["BOARD_CLOCK_BITS"])


def test_irq_disable_all_masks_and_enable_all_restores(ctx, board):
    rec = hal_record(ctx, board, "api", "irq_mask")[0]
    # Nested: the inner restore keeps the mask, the outer one lifts it
    assert_counts(rec, outer=1, inner=0, after_outer=0, after_inner=0,
                  after_restore_inner=0, after_restore_outer=1,
                  status_masked=0, status=1, after_write_status=0)


def test_pending_interrupt_is_not_taken_while_masked(ctx, board):
    rec = hal_record(ctx, board, "api", "irq_pending")[0]
    # The Cortex-A boards: no IRQ handler can run (the board support's
    # stops the program at any interrupt but a counter core's)
    taken_after = -1 if board.name in ("arm-virt", "aarch64-virt",
                                       "raspi1ap") else 1
    assert_counts(rec, pending=1, taken_masked=0, taken_after=taken_after)


def test_cache_calls_and_cpuid(ctx, board):
    assert_counts(hal_record(ctx, board, "api", "cache")[0],
                  value=42, remap_same=1, cpuid=0)


def checksum_of(size):
    data = bytes((i * 7 + 3) & 0xff for i in range(size))
    total = sum(data[i] << 8 | data[i + 1] for i in range(0, size, 2))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


def buffer_bytes(board, default):
    """The size of a HAL program's big buffer: default, or what a board
    with little RAM names in its cross file"""
    m = re.search(r"^test_buffer_bytes\s*=\s*(\d+)$",
                  board.cross_file.read_text(), re.M)
    return int(m[1]) if m else default


def test_an391_counter_and_timestamp_agree(ctx, board):
    rec = hal_record(ctx, board, "an391", "an391")[0]
    assert rec["checksum"] == checksum_of(buffer_bytes(board, 65536)), rec
    assert rec["cpu_freq"] == board.freq, rec
    counter_s = rec["section"] / rec["cpu_freq"]
    timestamp_s = rec["timestamp"] / rec["ts_freq"]
    # The timestamp interval also holds about one alt_timestamp() call
    # (ts_overhead measures two), and the timer's resolution
    allowed = 1 / rec["ts_freq"] + rec["ts_overhead"] / rec["cpu_freq"]
    assert abs(counter_s - timestamp_s) <= allowed, (
        counter_s, timestamp_s, allowed)
    _, output = hal_records(ctx, board, "an391")
    assert re.search(rf"^\|checksum_test +\|.*\| +{rec['section']}\| +1\|$",
                     output, re.M), output


def test_128k_array_on_the_stack(ctx, board):
    rec = hal_record(ctx, board, "big_stack", "big_stack")[0]
    want = sum((i * 13 + 5) & 0xff for i in range(rec["bytes"]))
    assert_counts(rec, bytes=buffer_bytes(board, 128 * 1024), sum=want,
                  in_stack=1, clocks_nonzero=1)


def test_wrong_base_stops_with_a_message(ctx, board):
    result = run_image(ctx, board, "tests/firmware/hal_wrong_base.elf")
    expect_exit(result, 1)
    base = board.counters[0][0] + 0x8000
    out = result.output
    assert f"wrong_base base={base}" in out, out
    assert "reached_the_end" not in out, out
    assert "--Performance Counter Report--" not in out, out
    m = re.search(r"^perf-counter: (.*)$", out, re.M)
    assert m and f"0x{base:08x}" in m.group(1), out
    assert "PERFORMANCE_COUNTER_BASE" in m.group(1), out


def test_performance_counter_0_names_are_aliases_not_cores(ctx, board):
    text = "".join(h.read_text() for h in board.headers)
    for suffix in ["BASE", "SPAN", "HOW_MANY_SECTIONS"]:
        assert re.search(rf"^#define PERFORMANCE_COUNTER_0_{suffix}\s+"
                         rf"(\\\n\s*)?PERFORMANCE_COUNTER_{suffix}\s*$",
                         text, re.M), f"no PERFORMANCE_COUNTER_0_{suffix}"
    bases = [base for base, _ in board.counters]
    assert len(bases) == len(set(bases)), bases


def cross_compile_command(board):
    """The board's C compiler and CPU flags, from its Meson cross file."""
    text = board.cross_file.read_text()
    cc = re.search(r"^c\s*=\s*'([^']+)'", text, re.M).group(1)
    cpu = ast.literal_eval(
        re.search(r"^cpu\s*=\s*(\[.*?\])", text, re.M | re.S).group(1))
    return [cc] + cpu + [
        "--specs=picolibc.specs", "-std=gnu11", "-O2", "-Wall", "-Wextra",
        "-Werror", "-fsyntax-only",
        "-I", str(REPO / "firmware" / "include"),
        "-I", str(board.system_h.parent), "-x", "c", "-"]


def compile_snippet(board, source):
    return subprocess.run(cross_compile_command(board), input=source,
                          capture_output=True, text=True, timeout=60)


NOT_OFFERED = [
    ("nios2.h", "alt_u32 v; NIOS2_READ_IENABLE(v); (void)v;",
     "NIOS2_READ_IENABLE"),
    ("nios2.h", "NIOS2_WRITE_IENABLE(1);", "NIOS2_WRITE_IENABLE"),
    ("sys/alt_alarm.h",
     "static alt_alarm a; (void)alt_alarm_start(&a, 1, 0, 0);",
     "alt_alarm_start"),
    ("sys/alt_irq.h", "if (alt_ic_isr_register(0, 1, 0, 0, 0)) return;",
     "alt_ic_isr_register"),
    ("sys/alt_irq.h", "alt_irq_register(1, 0, 0);", "alt_irq_register"),
]


def test_what_is_not_offered_fails_to_compile_naming_it(ctx, board):
    for header, body, name in NOT_OFFERED:
        proc = compile_snippet(
            board, f'#include "{header}"\nvoid f(void) {{ {body} }}\n')
        assert proc.returncode != 0, f"{name} compiled"
        assert f"{name} is not offered" in proc.stderr, proc.stderr


def test_integer_and_pointer_bases_compile_without_warnings(ctx, board):
    # The control for the test above: the same compiler and flags
    proc = compile_snippet(board, """
#include "system.h"
#include "altera_avalon_performance_counter.h"
alt_u64 f(void *p)
{
    alt_u32 base = PERFORMANCE_COUNTER_0_BASE;
    PERF_BEGIN(PERFORMANCE_COUNTER_0_BASE, 1);
    PERF_END(p, 1);
    perf_print_formatted_report(PERFORMANCE_COUNTER_BASE, ALT_CPU_FREQ, 1,
                                "a");
    return perf_get_section_time(PERFORMANCE_COUNTER_0_BASE, 1)
        + perf_get_section_time((void *)PERFORMANCE_COUNTER_0_BASE, 1)
        + perf_get_total_time(base) + perf_get_num_starts(p, 1);
}
""")
    assert proc.returncode == 0, proc.stderr


LAB = REPO / "tests" / "programs" / "lab_custom_instance.c"


def profile_lab(board, *args):
    return subprocess.run(
        [str(REPO / "scripts" / "profile"), "--board", board.name,
         "--cflags=-Werror", *args, str(LAB)], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120)


def test_own_instance_name_mapped_with_minus_d(ctx, board):
    """A lab program unchanged: only -D maps its instance name."""
    proc = profile_lab(board, "-D", "P_COUNTER_BASE=PERFORMANCE_COUNTER_BASE")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    m = re.search(r"^dot=(\d+) timestamp_ticks=(\d+) freq=(\d+) "
                  r"nticks=(\d+)$", proc.stdout, re.M)
    assert m, proc.stdout
    dot = sum(i * (256 - i) for i in range(256))
    assert int(m.group(1)) == dot, proc.stdout
    # usleep(20 ms) is two ticks of the 100 Hz system clock, or three
    assert int(m.group(4)) in (2, 3), proc.stdout
    rows = re.findall(r"^\|(dot product|usleep 20 ms) *\|[^|]*\|[^|]*\| *"
                      r"(\d+)\| *(\d+)\|$", proc.stdout, re.M)
    assert [(n, int(o)) for n, _, o in rows] == [
        ("dot product", 1), ("usleep 20 ms", 1)], proc.stdout
    clocks = {n: int(c) for n, c, _ in rows}
    # 20 ms of virtual time at the counter's clock, and not much more
    freq = board.freq
    assert 0.020 * freq <= clocks["usleep 20 ms"] <= 0.021 * freq, clocks
    # The same code measured by the timestamp timer, within one tick
    # of it plus the cost of the alt_timestamp() call
    timestamp_s = int(m.group(2)) / int(m.group(3))
    assert abs(clocks["dot product"] / freq - timestamp_s) < \
        2 / int(m.group(3)) + 100 / freq, (clocks, m.groups())


def test_own_instance_name_unmapped_names_it(ctx, board):
    proc = profile_lab(board)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # (quoted in ASCII, or as the compiler's locale quotes)
    assert re.search("[\u2018']P_COUNTER_BASE[\u2019'] undeclared",
                     proc.stderr), proc.stderr


CPU_NAMES = r"""
#include <stdio.h>
#include "system.h"

int main(void)
{
    printf("impl=%s arch=%s freq=%lu same=%d dcache=%d icache=%d div=%d "
           "mul=%d system=%s\n", NIOS2_CPU_IMPLEMENTATION,
           ALT_CPU_ARCHITECTURE, (unsigned long)NIOS2_CPU_FREQ,
           NIOS2_CPU_FREQ == ALT_CPU_FREQ, NIOS2_DCACHE_SIZE,
           NIOS2_ICACHE_SIZE, NIOS2_HARDWARE_DIVIDE_PRESENT,
           NIOS2_HARDWARE_MULTIPLY_PRESENT, ALT_SYSTEM_NAME);
    return 0;
}
"""
# ARMv6 (the ARM1176) and Armv6-M (the Cortex-M0) have no divide
# instruction; the others have one
HAS_DIVIDE = {"raspi1ap": 0, "microbit": 0}
# Nios II's names for a core's size: the Cortex-M0 is the small one
IMPLEMENTATION = {"microbit": "small"}


def test_system_h_gives_a_nios2_bsps_cpu_names(ctx, board, tmp_path):
    """A program that prints its CPU's configuration as a Nios II BSP's
    system.h gives it compiles unchanged and reads the emulated CPU."""
    source = tmp_path / "cpu.c"
    source.write_text(CPU_NAMES)
    proc = subprocess.run(
        [str(REPO / "scripts" / "profile"), "--board", board.name,
         "--cflags=-Wall -Werror", str(source)], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fields = dict(f.split("=", 1) for f in proc.stdout.split("\n")[0].split())
    assert fields["impl"] == IMPLEMENTATION.get(board.name, "fast"), fields
    assert fields["same"] == "1", fields
    assert int(fields["freq"]) == board.freq, fields
    assert fields["dcache"] == fields["icache"] == "0", fields
    assert int(fields["div"]) == HAS_DIVIDE.get(board.name, 1), fields
    assert fields["mul"] == "1", fields
    # the board's system.h: one for the three MPS2 boards
    assert fields["system"] == board.system_h.parent.name.replace(
        "raspi", "raspi1ap"), fields
