# SPDX-License-Identifier: MIT
"""The one reader of the records the plugin streams as the run goes (its
stream= file, records/stream.h; the format is docs/plugin-results.md):
the contexts, the switches, the probes' and the stores' records, read
while QEMU writes them, in the order written."""

import bisect
import struct
import sys
import time
from collections.abc import Sequence
from itertools import chain, islice, repeat
from operator import itemgetter

FORMAT_LINE = b"perfctr-stream 1\n"
POLL_SECONDS = 0.01         # between two reads that found nothing new


class CutShort(Exception):
    """The stream ended without its end line (QEMU was killed), or holds
    what the plugin does not write."""


class Block(list):
    """A block's records as tuples, with its bytes (packed) and their
    struct.Struct (layout)"""

    def __init__(self, layout, packed):
        super().__init__(layout.iter_unpack(packed))
        self.layout, self.packed = layout, packed


class PackedRecords(Sequence):
    """Records kept as the plugin wrote them, unpacked when read: a long
    run's records as tuples of ints (the switches', the probes', the
    stores') were 100s of MB, whose allocation (its pages faulted in)
    was a quarter of the stream's thread's work, when the analyses made
    as they came are all that read most of them."""

    def __init__(self):
        self._blocks = []   # (layout, bytes)
        self._starts = []   # each block's first record's index
        self._count = 0

    def add(self, block):
        """Keeps a Block's records"""
        self._blocks.append((block.layout, block.packed))
        self._starts.append(self._count)
        self._count += len(block)

    def fields(self, first, count):
        """The same records, each as its fields first to first + count
        (the others skipped unread)"""
        kept = PackedRecords()
        kept._starts, kept._count = list(self._starts), self._count
        kept._blocks = [(_some_fields(layout, first, count), packed)
                        for layout, packed in self._blocks]
        return kept

    def __len__(self):
        return self._count

    def column(self, field):
        """Field field of every record, in order, without a tuple for
        each (a 20 s run's 878,018 switches: 5 ms, against 55 ms read
        as records)"""
        return chain.from_iterable(map(_column, self._blocks,
                                       repeat(field)))

    def __iter__(self):
        for layout, packed in self._blocks:
            yield from layout.iter_unpack(packed)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step != 1:
                return list(self)[index]
            return list(islice(self._from(start), max(0, stop - start)))
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("record index out of range")
        return next(self._from(index))

    def _from(self, index):
        """The records from index on, unpacked from its block's on"""
        block = bisect.bisect_right(self._starts, index) - 1
        skip = index - self._starts[block] if block >= 0 else 0
        for layout, packed in self._blocks[max(block, 0):]:
            yield from layout.iter_unpack(
                memoryview(packed)[skip * layout.size:])
            skip = 0

    def __eq__(self, other):
        return isinstance(other, (list, PackedRecords)) and \
            len(self) == len(other) and list(self) == list(other)

    __hash__ = None


def _column(block, field):
    """Field field of each record of a block, (layout, packed)"""
    layout, packed = block
    fields = layout.format.lstrip("<")
    if sys.byteorder != "little" or "x" in fields:
        return map(itemgetter(field), layout.iter_unpack(packed))
    return memoryview(packed).cast(
        "q" if fields[field] == "q" else "Q")[field::len(fields)]


def _some_fields(layout, first, count):
    """layout (of 64-bit fields) reading only fields first to first +
    count: the others are padding"""
    fields = layout.format.lstrip("<")
    return struct.Struct(f"<{8 * first}x{fields[first:first + count]}"
                         f"{8 * (len(fields) - first - count)}x")


def sections(path, exited):
    """Yields, as the plugin writes them to path: ("context", (id, kind,
    key)), (TAG, Block: its records as tuples) for "switch", "probe" and
    "store",
    ("through", N) (every record after it was made at N instructions or
    later), and last ("end", None) or ("restart", None). exited: a
    threading.Event set once QEMU has exited; CutShort if the file ends
    before its end line by then."""
    stream = _opened(path, exited)
    data = b""
    pos = 0
    header = False
    with stream:
        while True:
            more = stream.read()
            if more:
                data = data[pos:] + more
                pos = 0
            elif exited.is_set():
                more = stream.read()       # (written just before the exit)
                if not more:
                    raise CutShort(f"{path} ends before its end line")
                data, pos = data[pos:] + more, 0
            else:
                time.sleep(POLL_SECONDS)
                continue
            if not header:
                if len(data) < len(FORMAT_LINE):
                    continue
                if not data.startswith(FORMAT_LINE):
                    raise CutShort(f"{path} is not a stream the plugin "
                                   f"wrote")
                header, pos = True, len(FORMAT_LINE)
            while True:
                got = _section(data, pos, path)
                if got is None:
                    break
                pos, section = got
                yield section
                if section[0] in ("end", "restart"):
                    return


def _opened(path, exited):
    """path opened for reading once the plugin has made it"""
    while True:
        try:
            return open(path, "rb")
        except FileNotFoundError:
            if exited.is_set():
                raise CutShort(f"the plugin made no {path}") from None
            time.sleep(POLL_SECONDS)


def _section(data, pos, path):
    """(where the next one starts, the section at pos), or None if data
    does not hold all of it yet"""
    eol = data.find(b"\n", pos)
    if eol < 0:
        return None
    words = data[pos:eol].decode().split()
    if words[:1] == ["records"] and len(words) == 4:
        _, tag, count, fields = words
        if fields.strip("qQ") or tag not in ("switch", "probe", "store"):
            raise CutShort(f"{path}: a records line the plugin did not "
                           f"write: {data[pos:eol][:80]!r}")
        layout = struct.Struct("<" + fields)
        end = eol + 1 + layout.size * int(count)
        if end >= len(data):
            return None
        if data[end:end + 1] != b"\n":
            raise CutShort(f"{path}: its {tag} records are cut short")
        return end + 1, (tag, Block(layout, data[eol + 1:end]))
    if words[:1] == ["context"] and len(words) == 4:
        return eol + 1, ("context", (int(words[1]), words[2],
                                     int(words[3], 0)))
    if words[:1] == ["through"] and len(words) == 2:
        return eol + 1, ("through", int(words[1]))
    if words in (["end"], ["restart"]):
        return eol + 1, (words[0], None)
    raise CutShort(f"{path}: a line the plugin did not write: "
                   f"{data[pos:eol][:80]!r}")
