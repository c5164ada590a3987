# SPDX-License-Identifier: MIT
"""JUnit XML, as CI systems read it (the Ant/Jenkins format: one
<testsuite> of <testcase>s, each with an optional <failure> and
<system-out>); tests/schemas/junit-10.xsd is the schema it is checked
against."""

import socket
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Case:
    classname: str
    name: str
    seconds: float = 0.0
    failure: str = None     # the message, when it failed
    output: str = ""


def _clean(text):
    """Text XML 1.0 can carry: no control characters but tab and
    newlines."""
    return "".join(c if c in "\t\n\r" or ord(c) >= 0x20 else "?"
                   for c in text)


def document(suite, cases, seconds=None):
    """The XML text of one test suite."""
    failures = sum(1 for c in cases if c.failure is not None)
    total = sum(c.seconds for c in cases) if seconds is None else seconds
    root = ET.Element("testsuite", {
        "name": suite, "tests": str(len(cases)),
        "failures": str(failures), "errors": "0", "skipped": "0",
        "time": f"{total:.3f}",
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "hostname": socket.gethostname() or "localhost"})
    ET.SubElement(root, "properties")
    for c in cases:
        case = ET.SubElement(root, "testcase", {
            "classname": c.classname, "name": _clean(c.name),
            "time": f"{c.seconds:.3f}"})
        if c.failure is not None:
            first = _clean(c.failure).splitlines()[0] if c.failure else ""
            fail = ET.SubElement(case, "failure",
                                 {"message": first, "type": "failure"})
            fail.text = _clean(c.failure)
        if c.output:
            ET.SubElement(case, "system-out").text = _clean(c.output)
    ET.SubElement(root, "system-out")
    ET.SubElement(root, "system-err")
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def write(path, suite, cases, seconds=None):
    Path(path).write_text(document(suite, cases, seconds), encoding="utf-8")
