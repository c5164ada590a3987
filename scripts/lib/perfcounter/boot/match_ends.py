# SPDX-License-Identifier: MIT
"""The bytes a match of a regular expression can end with.

Session.expect() has the guest wait for it only after one of those: a
match first exists once its last byte is printed, so what comes before
cannot complete one, and the guest runs on while the Session reads it
(a wait after every byte cost a round trip between the processes each:
most of a short test's time).  Only what is sure counts: a pattern
whose end is not a plain ASCII character, or a set or choice of them,
gives None (a wait after every byte): '.', a class such as \\d (Unicode
digits too), a lookaround, an anchor, a backreference, a letter matched
in either case."""

import re

try:
    from re import _constants as sre, _parser as parser    # 3.11
except ImportError:                                         # pragma: no cover
    import sre_constants as sre
    import sre_parse as parser

_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT,
            getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT)}


def last_bytes(regex):
    """The bytes (ints below 128) a match of regex (compiled, of str)
    can end with, or None when it could end with any."""
    if not isinstance(regex.pattern, str) or regex.flags & re.IGNORECASE:
        return None
    try:
        parsed = parser.parse(regex.pattern, regex.flags)
    except Exception:   # (compiled already: never, but any is safe)
        return None
    return _ends(list(parsed))


def _ends(items):
    """What the sequence of parsed items can end with; None: anything."""
    if not items:
        return None     # empty: a match could end anywhere
    op, arg = items[-1]
    if op == sre.LITERAL:
        return {arg} if arg < 128 else None
    if op == sre.IN:
        return _one_of(arg)
    if op == sre.SUBPATTERN:
        _, add_flags, _, pattern = arg
        return None if add_flags & re.IGNORECASE else _ends(list(pattern))
    if op == sre.BRANCH:
        found = set()
        for choice in arg[1]:
            ends = _ends(list(choice))
            if ends is None:
                return None
            found |= ends
        return found
    if op in _REPEATS:
        least, most, pattern = arg
        ends = _ends(list(pattern))
        if ends is None or most == 0:
            return None
        if least == 0:      # (none of it: the items before end the match)
            before = _ends(items[:-1])
            return None if before is None else ends | before
        return ends
    return None


def _one_of(members):
    """A character set's characters; None if not a plain ASCII one."""
    found = set()
    for op, arg in members:
        if op == sre.LITERAL and arg < 128:
            found.add(arg)
        elif op == sre.RANGE and arg[1] < 128:
            found.update(range(arg[0], arg[1] + 1))
        else:
            return None     # negated, a class, beyond ASCII
    return found
