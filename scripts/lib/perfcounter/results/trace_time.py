# SPDX-License-Identifier: MIT
"""A Chrome trace's times ("ts", "dur": microseconds of virtual time)
as JSON text, made from whole nanoseconds by integer arithmetic: the
exact decimal, which is what repr(ns / 1000.0) gives below 10**15 ns
(at most 15 significant digits: the nearest double's shortest repr is
that decimal), at half its cost (float's repr took 0.5 s of a 20 s
run's million slices)."""

# ".123" of 123 ns, without trailing zeros; ".0" of none
_FRACTIONS = tuple("." + (f"{ns:03d}".rstrip("0") or "0")
                   for ns in range(1000))


def us(ns):
    """The microseconds of ns (an int), as JSON"""
    if ns < 0:      # (no virtual time: a QEMU without the hook says -1)
        return repr(ns / 1000.0)
    return f"{ns // 1000}{_FRACTIONS[ns % 1000]}"


def span(start_ns, end_ns):
    """'"ts":START,"dur":LENGTH' of a slice, in microseconds"""
    length = end_ns - start_ns
    if start_ns < 0 or length < 0:
        return f'"ts":{us(start_ns)},"dur":{us(length)}'
    # (us()'s text inline: two calls a slice were 0.1 s of a 20 s run)
    return (f'"ts":{start_ns // 1000}{_FRACTIONS[start_ns % 1000]},'
            f'"dur":{length // 1000}{_FRACTIONS[length % 1000]}')
