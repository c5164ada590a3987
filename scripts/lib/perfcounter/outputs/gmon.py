# SPDX-License-Identifier: MIT
"""gmon.out in the GNU format that binutils' gprof reads.

A 20-byte header ("gmon", version 1, 12 spare bytes), then records, each
after a one-byte tag: histograms (low pc, high pc, number of bins,
rate, a 15-character dimension and a 1-character abbreviation, then
16-bit bins) and call arcs (caller pc, callee pc, 32-bit count), all in
the target's (little-endian) byte order; pcs are as wide as the
target's addresses (4 bytes, 8 on AArch64).

Bins are 2 bytes of code wide, so every instruction has its own bins,
and they are written in chunks of CHUNK_BINS over the code that ran.
A bin holds at most 65535: a count past that is carried by repeating
the chunk's record, which gprof adds up (records of the same range are
summed), so nothing saturates.  A call count past 2^32 - 1 is carried
by repeating the arc the same way.
"""

import struct

from perfcounter.paths import publish

MAGIC = b"gmon"
VERSION = 1
TAG_HISTOGRAM = 0
TAG_ARC = 1
BIN_BYTES = 2
CHUNK_BINS = 512
BIN_MAX = 0xffff
COUNT_MAX = 0xffffffff


def _pc(address_bytes):
    """The struct format of a pc address_bytes wide."""
    return {4: "I", 8: "Q"}[address_bytes]


def histogram_records(histogram, rate, dimension="seconds", abbrev="s",
                      address_bytes=4):
    """The histogram records of {pc: count}, rate counts per second."""
    chunk_bytes = CHUNK_BINS * BIN_BYTES
    chunks = {}
    for pc, count in histogram.items():
        low = pc - pc % chunk_bytes
        bins = chunks.setdefault(low, [0] * CHUNK_BINS)
        bins[(pc - low) // BIN_BYTES] += count
    pc = _pc(address_bytes)
    header = struct.Struct(f"<B{pc}{pc}II15sc")
    packed_bins = struct.Struct(f"<{CHUNK_BINS}H")
    records = []
    for low in sorted(chunks):
        bins = chunks[low]
        head = header.pack(TAG_HISTOGRAM, low, low + chunk_bytes, CHUNK_BINS,
                           rate, dimension.encode(), abbrev.encode())
        if max(bins) <= BIN_MAX:    # (nearly always: the bins themselves)
            if any(bins):
                records.append(head + packed_bins.pack(*bins))
            continue
        records += _carried(head, packed_bins, bins)
    if not records:
        # No sample (a run shorter than the period): gprof reads no
        # gmon.out without a histogram, so one of zeros ("no time
        # accumulated", the calls still counted)
        low = min(chunks, default=0)
        records.append(header.pack(TAG_HISTOGRAM, low, low + chunk_bytes,
                                   CHUNK_BINS, rate, dimension.encode(),
                                   abbrev.encode()) + bytes(chunk_bytes))
    return records


def _carried(head, packed_bins, bins):
    """The records of a chunk whose bins hold more than BIN_MAX: layer k
    holds what is past k * BIN_MAX, up to BIN_MAX.  Layers alike (each
    bin either full or empty, up to the next one to run out) are one
    record repeated: in 125 M instructions of FreeRTOS's blinky, its
    exact profile's idle loop has a bin of 13.8 M, 212 layers of 512
    bins each."""
    records = []
    layer, layers = 0, -(-max(bins) // BIN_MAX)
    while layer < layers:
        floor = layer * BIN_MAX
        carried = [min(max(b - floor, 0), BIN_MAX) for b in bins]
        full = [b // BIN_MAX for b in bins if b - floor >= BIN_MAX]
        alike = 1
        if full and all(c in (0, BIN_MAX) for c in carried):
            alike = min(full) - layer
        records += [head + packed_bins.pack(*carried)] * alike
        layer += alike
    return records


def arc_records(arcs, address_bytes=4):
    """The arc records of {(caller pc, callee pc): count}."""
    arc = struct.Struct(f"<B{_pc(address_bytes) * 2}I")
    records = []
    for (caller, callee), count in sorted(arcs.items()):
        while count > 0:
            records.append(arc.pack(TAG_ARC, caller, callee,
                                    min(count, COUNT_MAX)))
            count -= COUNT_MAX
    return records


def write(path, histogram, arcs, rate, dimension="seconds", abbrev="s",
          address_bytes=4):
    header = MAGIC + struct.pack("<I", VERSION) + bytes(12)
    data = header + b"".join(histogram_records(histogram, rate, dimension,
                                               abbrev, address_bytes)
                             + arc_records(arcs, address_bytes))
    publish(path, data)     # (gprof may be reading the last one)
    return len(data)


def read_arcs(path, address_bytes=4):
    """The call arcs of a gmon.out (as the library's -pg support writes
    it), as {(caller pc, callee pc): count}; histograms are skipped."""
    pc = _pc(address_bytes)
    arc = struct.Struct(f"<{pc}{pc}I")
    data = open(path, "rb").read()
    if data[:4] != MAGIC:
        raise ValueError(f"{path} is not a gmon.out file")
    arcs = {}
    off = 20
    while off < len(data):
        tag = data[off]
        off += 1
        if tag == TAG_ARC:
            caller, callee, count = arc.unpack_from(data, off)
            arcs[caller, callee] = arcs.get((caller, callee), 0) + count
            off += arc.size
        elif tag == TAG_HISTOGRAM:
            bins = struct.unpack_from("<I", data,
                                      off + 2 * address_bytes)[0]
            off += 2 * address_bytes + 24 + 2 * bins
        else:
            raise ValueError(f"{path}: unknown record tag {tag} at byte "
                             f"{off - 1}")
    return arcs
