# SPDX-License-Identifier: MIT
"""An SVG flame graph from collapsed stacks, with the standard library.

Input: the "collapsed" format of flamegraph.pl's stackcollapse scripts
(also read by speedscope and inferno): one line per stack,
`root;caller;callee COUNT`, frames separated by ';', the count after
the last space. Lines with the same stack add up; blank lines and lines
starting with '#' are ignored.

Output: a self-contained SVG (no script, no network): the root at the
bottom, callers below their callees, each frame a <rect> whose width is
proportional to its count (its own samples plus its callees'), siblings
in alphabetical order as flamegraph.pl draws them, a <title> tooltip
with the count and share on every frame, and the name written in the
frame when it fits.

    from perfcounter.outputs import flamegraph
    svg = flamegraph.render(open("out.folded"), "my program")
"""

import hashlib
import sys

from perfcounter.outputs.svg import escape

WIDTH = 1200
FRAME_H = 16
PAD_TOP = 40
PAD_BOTTOM = 10
PAD_SIDE = 10
FONT_SIZE = 12
CHAR_W = 7.0            # average width of a character at FONT_SIZE
MIN_WIDTH = 0.1         # px: narrower frames are not drawn


class Frame:
    __slots__ = ("name", "total", "children")

    def __init__(self, name):
        self.name = name
        self.total = 0
        self.children = {}


def parse(lines):
    """The call tree of collapsed stack lines; ValueError names the first
    line that is not `frames COUNT`."""
    root = Frame("all")
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        stack, _, count = line.rpartition(" ")
        try:
            value = int(count)
        except ValueError:
            value = -1
        if not stack or value < 0:
            raise ValueError(f"line {number}: {line!r} is not "
                             f"'frame;frame;... COUNT'")
        root.total += value
        node = root
        for name in stack.split(";"):
            # (a Frame made only for a new one: the full demo's exact
            # profile has 69,406 frames in its stacks, 11,828 of them new)
            child = node.children.get(name)
            if child is None:
                child = node.children[name] = Frame(name)
            node = child
            node.total += value
    return root


def _colour(name):
    """A warm colour, the same for the same name on every run."""
    h = hashlib.md5(name.encode()).digest()
    return f"rgb({205 + h[0] % 50},{h[1] % 230},{h[2] % 55})"


def _depth(root):
    """Frames on the deepest stack, counted without recursion: stacks
    may be deeper than Python's recursion limit."""
    deepest, todo = 0, [(root, 1)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        todo.extend((c, depth + 1) for c in node.children.values())
    return deepest


def render(collapsed_lines, title="Flame graph", unit="samples"):
    """The SVG text of the flame graph of collapsed_lines (an iterable
    of str); every frame is a <rect class="frame"> with data-name and
    data-count."""
    root = parse(collapsed_lines)
    depth = _depth(root)
    # draw() recurses once a frame: as deep as the deepest stack
    sys.setrecursionlimit(max(sys.getrecursionlimit(), depth + 100))
    height = PAD_TOP + depth * FRAME_H + PAD_BOTTOM
    scale = (WIDTH - 2 * PAD_SIDE) / root.total if root.total else 0.0
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
           f'height="{height}" viewBox="0 0 {WIDTH} {height}" '
           f'font-family="monospace" font-size="{FONT_SIZE}">',
           '<rect width="100%" height="100%" fill="#f8f8f8"/>',
           f'<text class="title" x="{WIDTH / 2}" y="24" '
           f'text-anchor="middle" font-size="16">{escape(title)}</text>']
    if not root.total:
        out.append(f'<text x="{WIDTH / 2}" y="{PAD_TOP + FRAME_H}" '
                   f'text-anchor="middle">no samples</text>')

    def draw(node, x, level):
        width = node.total * scale
        if width < MIN_WIDTH:
            return
        y = height - PAD_BOTTOM - (level + 1) * FRAME_H
        share = node.total * 100.0 / root.total
        tip = f"{node.name} ({node.total:,} {unit}, {share:.2f}%)"
        attr_name = escape(node.name, attribute=True)
        out.append(f'<g class="frame-group"><title>{escape(tip)}</title>'
                   f'<rect class="frame" x="{x:.3f}" y="{y}" '
                   f'width="{width:.3f}" height="{FRAME_H - 1}" '
                   f'fill="{_colour(node.name)}" rx="2" '
                   f'data-name="{attr_name}" data-count="{node.total}" '
                   f'data-depth="{level}"/>')
        fits = int((width - 6) / CHAR_W)
        if fits >= 3:
            label = node.name if len(node.name) <= fits \
                else node.name[:fits - 2] + ".."
            out.append(f'<text x="{x + 3:.3f}" y="{y + FRAME_H - 4}">'
                       f'{escape(label)}</text>')
        out.append('</g>')
        child_x = x
        for name in sorted(node.children):
            child = node.children[name]
            draw(child, child_x, level + 1)
            child_x += child.total * scale

    if root.total:
        draw(root, PAD_SIDE, 0)
    out.append("</svg>")
    return "\n".join(out) + "\n"
