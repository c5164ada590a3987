# SPDX-License-Identifier: MIT
"""scripts/lib/flamegraph.py, the SVG flame graph renderer, on
hand-made collapsed stacks: counts add up, widths are proportional,
callees stand on their callers, names are escaped, bad input refused."""

import xml.etree.ElementTree as ET

from perfcounter.outputs import flamegraph

SVG = "{http://www.w3.org/2000/svg}"


def test_flamegraph_renders_collapsed_stacks(ctx, board):
    stacks = ["main;parse;lex 30", "main;parse 10", "# a comment", "",
              "main;eval 50", "main;parse;lex 10", "idle 20",
              "main;eval;a<b>&\"c\" 5"]
    root = ET.fromstring(flamegraph.render(stacks, "hand made <test>"))
    assert root.tag == f"{SVG}svg"
    title = root.find(f"{SVG}text[@class='title']").text
    assert title == "hand made <test>"
    frames = {}
    for rect in root.iter(f"{SVG}rect"):
        if rect.get("class") == "frame":
            frames[(rect.get("data-name"), int(rect.get("data-depth")))] = \
                rect
    width = {k: float(r.get("width")) for k, r in frames.items()}
    count = {k: int(r.get("data-count")) for k, r in frames.items()}
    # Counts add up: the root has every sample, a frame its callees'
    assert count[("all", 0)] == 125
    assert count[("main", 1)] == 105 and count[("idle", 1)] == 20
    assert count[("parse", 2)] == 50 and count[("lex", 3)] == 40
    assert count[("eval", 2)] == 55 and count[('a<b>&"c"', 3)] == 5
    # Widths are proportional to counts
    for key in frames:
        assert abs(width[key] - width[("all", 0)] * count[key] / 125) < \
            0.01, key
    # Callees stand on their callers, inside them; siblings sorted
    lex, parse = frames[("lex", 3)], frames[("parse", 2)]
    assert float(lex.get("y")) < float(parse.get("y"))
    assert float(parse.get("x")) <= float(lex.get("x"))
    eval_ = frames[("eval", 2)]
    assert float(eval_.get("x")) < float(parse.get("x"))   # e < p
    tips = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g")]
    assert "parse (50 samples, 40.00%)" in tips, tips
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "main" in labels and "parse" in labels


def test_flamegraph_refuses_a_line_without_count(ctx, board):
    try:
        flamegraph.render(["main;a 3", "main;b"], "x")
    except ValueError as err:
        assert "line 2" in str(err), err
    else:
        raise AssertionError("a line without a count was accepted")
    empty = ET.fromstring(flamegraph.render([], "nothing"))
    assert "no samples" in [t.text for t in empty.iter(f"{SVG}text")]
