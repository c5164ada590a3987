# SPDX-License-Identifier: MIT
"""The examples of events and interrupts, on every board:
firmware/examples/event_sampling.c (XScale's event-based sampling) and
firmware/examples/counter_extension.c (AVR32's software extension of a
32-bit count).  What they print is checked against what their structure
implies: the numbers in their #defines, and counts of other counters
they print beside."""

import re

from bootlib import c_defines, expect_exit, run_image

PER_BOARD = True

PHASES = {"mix": "MIX_CALLS", "scale": "SCALE_CALLS", "fold": "FOLD_CALLS"}


def defines(example):
    return c_defines(f"firmware/examples/{example}.c")


def output(ctx, board, example):
    key = (example, board.name)
    if key not in ctx.cache:
        result = run_image(ctx, board, f"firmware/examples/{example}.elf")
        expect_exit(result)
        ctx.cache[key] = result.output
    return ctx.cache[key]


def sampled(ctx, board):
    """(phase calls, histogram, total samples, total calls) printed."""
    out = output(ctx, board, "event_sampling")
    phases = {m[1]: int(m[2]) for m in
              re.finditer(r"^phase (\w+): (\d+) calls$", out, re.M)}
    histogram = {m[1]: int(m[2]) for m in
                 re.finditer(r"^  (\w+) +(\d+)$", out, re.M)}
    m = re.search(r"^total: (\d+) samples of (\d+) calls$", out, re.M)
    assert m and list(phases) == list(PHASES), out
    return phases, histogram, int(m[1]), int(m[2]), out


def simulate(calls, every, overhead):
    """(samples, calls counted) per phase, for phases of calls[i] calls,
    when the threshold starts at `every`, moves up by `every` at each
    sample, and each sample's interrupt makes `overhead` calls itself."""
    count, next_sample, samples, counted = 0, every, [], []
    for n in calls:
        taken, total = 0, n
        for _ in range(n):
            count += 1
            if count >= next_sample:
                taken += 1
                next_sample += every
                count += overhead
                total += overhead
        samples.append(taken)
        counted.append(total)
    return samples, counted


def overhead(d, phases, out):
    """The one overhead per sample (the vector's, the dispatch's and the
    handler's calls), fewer than SAMPLE_EVERY, that explains the three
    phases' counts; the same for every sample, as the same code runs."""
    calls = [d[name] for name in PHASES.values()]
    fits = [h for h in range(d["SAMPLE_EVERY"])
            if simulate(calls, d["SAMPLE_EVERY"], h)[1]
            == list(phases.values())]
    assert len(fits) == 1, f"no one overhead per sample fits:\n{out}"
    return fits[0]


def test_event_sampling_counts_each_phase_calls_and_the_interrupts(ctx,
                                                                    board):
    phases, _, _, total_calls, out = sampled(ctx, board)
    overhead(defines("event_sampling"), phases, out)
    assert total_calls == sum(phases.values()), out


def test_event_sampling_histogram_is_what_the_phases_imply(ctx, board):
    d = defines("event_sampling")
    phases, histogram, _, _, out = sampled(ctx, board)
    samples, _ = simulate([d[name] for name in PHASES.values()],
                          d["SAMPLE_EVERY"], overhead(d, phases, out))
    # Every sample lands on the first instruction of the function called
    assert histogram == dict(zip(PHASES, samples), main=0, elsewhere=0), out


def test_event_sampling_takes_a_sample_every_k_events(ctx, board):
    d = defines("event_sampling")
    _, histogram, total, total_calls, out = sampled(ctx, board)
    assert total == sum(histogram.values()), out
    assert total == total_calls // d["SAMPLE_EVERY"], out


def extension(ctx, board):
    out = output(ctx, board, "counter_extension")
    rounds = [(int(m[1]), int(m[2] + m[3], 16), int(m[4] + m[5], 16), m[6])
              for m in re.finditer(
                  r"^round (\d+): software 0x(\w{8})_(\w{8}) "
                  r"device 0x(\w{8})_(\w{8}) (OK|MISMATCH)$", out, re.M)]
    m = re.search(r"^overflow interrupts: (\d+), instructions in the "
                  r"rounds: (\d+), extended count: (\d+)$", out, re.M)
    assert m, out
    return rounds, int(m[1]), int(m[2]), int(m[3]), out


def test_counter_extension_high_word_counts_the_wraps(ctx, board):
    d = defines("counter_extension")
    rounds, _, _, _, out = extension(ctx, board)
    assert [r[0] for r in rounds] == list(range(1, d["ROUNDS"] + 1)), out
    for n, software, device, verdict in rounds:
        assert software >> 32 == device >> 32 == n, out
        assert software == device and verdict == "OK", out


def test_counter_extension_low_word_is_the_round_past_its_preset(ctx,
                                                                   board):
    # Section 2 counts the rounds as section 1 does, never preset: every
    # round runs the same instructions, and section 1 ends each
    # BEFORE_WRAP of them past its wrap
    d = defines("counter_extension")
    rounds, _, plain, extended, out = extension(ctx, board)
    assert plain % d["ROUNDS"] == 0, out
    low = plain // d["ROUNDS"] - d["BEFORE_WRAP"]
    assert 0 < low < 1 << 32, out
    # (on Armv6-M GCC puts a load of an address from the literal pool
    # between BEGIN 1 and BEGIN 2, not between the ENDs: an instruction
    # more in section 1; on AArch64 it builds END 2's address (MOV, MOVK)
    # and the next read's (ADD) between the ENDs: three in section 2)
    extra = 1 if board.armv6m else -3 if board.arch == "aarch64" else 0
    for n, software, _, _ in rounds:
        assert software == n << 32 | (low + extra), out
    assert extended == d["ROUNDS"] << 32 | (low + extra), out


def test_counter_extension_takes_one_interrupt_per_wrap(ctx, board):
    d = defines("counter_extension")
    _, interrupts, _, _, out = extension(ctx, board)
    assert interrupts == d["ROUNDS"], out
