# SPDX-License-Identifier: MIT
"""Text in the SVG files the outputs write (the flame graph, the
charts)."""

import html


def escape(text, attribute=False):
    """text with &, < and > escaped, and " too in an attribute's value
    (xml.sax.saxutils' escaping, without the 12 ms its import costs:
    it imports urllib)"""
    text = html.escape(text, quote=False)
    return text.replace('"', "&quot;") if attribute else text
