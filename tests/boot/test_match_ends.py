# SPDX-License-Identifier: MIT
"""match_ends: the bytes a match of an expect() pattern can end with,
after which alone the guest waits; None (after every byte) wherever it
cannot be sure.  A set too small would let an expect() end later than
its match, so each answer is also checked against every way the
pattern can match a short text."""

import itertools
import re

import pytest

from perfcounter.boot.match_ends import last_bytes

CASES = [
    ("> ", " "),
    (r"55\r\n", "\n"),
    (r"fib\(20\) = 6765", "5"),
    (re.escape("crc32(100) = 0x58c932f5\r\n"), "\n"),
    (r"(ok|done)", "ek"),
    (r"ab?", "ab"),
    (r"x[a-c]", "abc"),
    (r"(a|b)c*", "abc"),
    (r"a{2,3}", "a"),
    (r"a{0}", None),
    (r"a*", None),
    (r"", None),
    (r"\d+", None),         # Unicode digits too
    (r".", None),
    (r"[^a]", None),
    (r"foo$", None),
    (r"foo\b", None),
    (r"a(?=b)", None),
    (r"(a)\1", None),
    (r"(?i)abc", None),
    (r"(?i:c)", None),
    (r"caf\u00e9", None),   # its last byte is not the character
    (r"> ()", None),        # (an empty group: what ends it, unknown)
]


@pytest.mark.parametrize("pattern, ends", CASES)
def test_the_bytes_a_match_can_end_with(pattern, ends):
    found = last_bytes(re.compile(pattern))
    assert found == (None if ends is None else set(ends.encode())), pattern


@pytest.mark.parametrize("pattern", [p for p, ends in CASES if ends])
def test_every_match_ends_with_one_of_them(pattern):
    """Every text of up to 4 characters from the pattern's own and a few
    others: where a match first exists, its last character is one of
    the bytes."""
    regex = re.compile(pattern)
    ends = last_bytes(regex)
    alphabet = sorted(set(pattern) | set("ab5\r\n> x"))
    for size in range(1, 5):
        for text in itertools.product(alphabet, repeat=size):
            text = "".join(text)
            if regex.search(text) and not regex.search(text[:-1]):
                assert ord(text[-1]) in ends, (pattern, text)


def test_a_bytes_pattern_waits_after_every_byte():
    assert last_bytes(re.compile(b"> ")) is None
