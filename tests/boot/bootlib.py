# SPDX-License-Identifier: MIT
"""Helpers for the boot tests: boot a test image, parse what it prints."""

import json
import re
import struct

import perfcounter
from perfcounter.paths import REPO
from perfcounter.target import elf


def empty_section_clocks(board):
    """What PERF_BEGIN(p, n); PERF_END(p, n) measures as GCC compiles
    it: the END store right after the BEGIN one, or on Armv6-M a load of
    END's address from the literal pool between them."""
    return 2 if board.armv6m else 1


def empty_section_most(board):
    """The most an empty section measures in a program: on AArch64 GCC's
    scheduler may also put an unrelated instruction (a constant for
    later) between the two stores."""
    return empty_section_clocks(board) + (board.arch == "aarch64")


# A program (C) that counts in section 2 until QEMU is stopped
HANGS_IN_A_SECTION = """\
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

static volatile int sink;

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;

    PERF_RESET(p);
    PERF_START_MEASURING(p);
    PERF_BEGIN(p, 1);
    sink = 1;
    PERF_END(p, 1);
    PERF_BEGIN(p, 2);
    printf("hanging in section 2\\n");
    for (;;) {
        sink++;
    }
}
"""


def json_schema_errors(doc):
    """What schemas/profile-report.schema.json says of a --json
    document (Debian's python3-jsonschema): [] when it fits."""
    import jsonschema
    schema = json.loads((REPO / "schemas" /
                         "profile-report.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    return [e.message for e in
            jsonschema.Draft7Validator(schema).iter_errors(doc)]


def run(ctx, board, image, **options):
    """Boot image on board with the RunConfig options; its Result (the
    guest's output captured)."""
    return perfcounter.run(perfcounter.RunConfig(
        perfcounter.Target(image, board), **options), ctx.qemu)


def command(ctx, board, image, workdir, **options):
    """The QEMU command line that boots image on board with the
    RunConfig options, its files written in workdir."""
    config = perfcounter.RunConfig(perfcounter.Target(image, board),
                                   **options)
    config.write_files(workdir)
    return config.command(ctx.qemu, workdir)


def run_image(ctx, board, relpath, **options):
    """Boot firmware relpath of board's build; return the Result."""
    return run(ctx, board, ctx.firmware(board, relpath), **options)


def run_with_windows(ctx, board, image, windows, cycles, memory=None):
    """Boot image with the plugin counting (with cycles, estimating
    cycles too, code in memory's flash) in each window (start, end) of
    pcs; return the boot Result and the profile's {window: (cycles,
    instructions)}."""
    result, profile = run_with_plugin(ctx, board, image, windows, cycles,
                                      memory)
    return result, profile.windows


def run_with_plugin(ctx, board, image, windows, cycles, memory=None):
    """The same, returning all the plugin wrote (PluginResults)."""
    result = run(ctx, board, image, cycles=cycles, windows=tuple(windows),
                 memory=memory, counter_clock="time")
    assert result.exit_code == 0, result.output
    return result, result.plugin


def cycle_sequences(ctx, board, memory=None,
                    image="tests/firmware/cycles.elf"):
    """The hand-written sequences of image (tests/firmware/ARCH/cycles.S,
    or another in its frame), each counted in a window (cyc_NAME_start to
    cyc_NAME_end), booted once, code in memory's flash (None: SRAM):
    {name: (cycles, instructions)} and the profile."""
    key = ("cycle sequences", board.name, memory, image)
    if key not in ctx.cache:
        image = ctx.firmware(board, image)
        symbols = elf.read(image).symbols
        names = sorted(n[4:-6] for n in symbols
                       if n.startswith("cyc_") and n.endswith("_start"))
        windows = {n: (symbols[f"cyc_{n}_start"] & ~1,
                       symbols[f"cyc_{n}_end"] & ~1) for n in names}
        _, profile = run_with_plugin(ctx, board, image, windows.values(),
                                     True, memory)
        ctx.cache[key] = ({n: profile.windows[w] for n, w in windows.items()},
                          profile)
    return ctx.cache[key]


def core_irqs(board):
    """{base: interrupt} of every core system.h declares: each
    PERFORMANCE_COUNTER[_N]_BASE's PERFORMANCE_COUNTER[_N]_IRQ."""
    d = board.defines()
    irqs = {}
    for base, _ in board.counters:
        name = next(n for n, v in d.items() if v == base
                    and re.fullmatch(r"PERFORMANCE_COUNTER(_\d+)?_BASE", n))
        irq = name[:-len("BASE")] + "IRQ"
        assert irq in d, f"{board.system_h} defines {name} but not {irq}"
        irqs[base] = d[irq]
    return irqs


def c_defines(relpath):
    """The numeric #defines of a C source of the repository, so that a
    test derives its expectations from the program's own constants."""
    text = (REPO / relpath).read_text()
    return {m[1]: int(m[2], 0) for m in
            re.finditer(r"^#define (\w+) (\d+|0x[0-9a-fA-F]+)$", text, re.M)}


def load_size(board):
    """Bytes of each load in events_run (tests/firmware/*/events.S;
    Thumb: 16-bit LDR)."""
    return 2 if board.arch == "arm" and board.isa == "thumb" else 4


def expect_exit(result, code=0):
    assert not result.timed_out, "the guest timed out:\n" + result.output
    assert result.exit_code == code, (
        f"exit code {result.exit_code}, expected {code}; output:\n"
        + result.output)


def parse_records(text):
    """'name k=v k=v' lines -> {name: [{k: int(v)}, ...]}."""
    records = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) < 2 or not all("=" in w for w in words[1:]):
            continue
        fields = dict(w.split("=", 1) for w in words[1:])
        records.setdefault(words[0], []).append(
            {k: int(v, 0) for k, v in fields.items()})
    return records


def booted_records(ctx, board, relpath):
    """(records, output) of firmware relpath on board, booted once; it
    must exit 0."""
    key = ("records", relpath, board.name)
    if key not in ctx.cache:
        result = run_image(ctx, board, relpath)
        expect_exit(result)
        ctx.cache[key] = (parse_records(result.output), result.output)
    return ctx.cache[key]


def rules(ctx, board):
    """The records of tests/firmware/rules.c on board, booted once."""
    return booted_records(ctx, board, "tests/firmware/rules.elf")[0]


def record(ctx, board, name):
    found = rules(ctx, board).get(name)
    assert found, f"rules.elf printed no '{name}' line"
    return found[0]


def assert_counts(rec, **expected):
    wrong = {k: (rec.get(k), v) for k, v in expected.items()
             if rec.get(k) != v}
    assert not wrong, "counts (got, expected): " + ", ".join(
        f"{k}={g} expected {e}" for k, (g, e) in wrong.items())


def gmon_histogram(path, address_bytes):
    """({pc: count}, (rate, dimension, abbreviation)) of a gmon.out's
    histogram records (gmon.py writes them; repeated ones add up)."""
    pc = "Q" if address_bytes == 8 else "I"
    header = struct.Struct(f"<{pc}{pc}II15sc")
    data = path.read_bytes()
    histogram, unit, at = {}, None, 20
    while at < len(data) and data[at] == 0:
        low, _, bins, rate, dimension, abbrev = header.unpack_from(data,
                                                                   at + 1)
        at += 1 + header.size
        for k, count in enumerate(struct.unpack_from(f"<{bins}H", data,
                                                     at)):
            if count:
                histogram[low + 2 * k] = histogram.get(low + 2 * k, 0) + count
        at += 2 * bins
        unit = rate, dimension.rstrip(b"\0").decode(), abbrev.decode()
    return histogram, unit
