# SPDX-License-Identifier: MIT
"""scripts/profile --json: one document with everything about a run.

Its schema is schemas/profile-report.schema.json (JSON Schema draft 7),
versioned by the "version" member: a new member may appear within a
version; a member that changes meaning or goes away makes a new one.
"""

import hashlib
import json
import math
import os
import re
from json.encoder import encode_basestring_ascii
from pathlib import Path

from perfcounter import apart
from perfcounter.errors import Failure
from perfcounter.paths import REPO
from perfcounter.results import contexts, cpu_load, functions, heap, \
    instances, kernel_objects, model_trust
from perfcounter.boot import stops

FORMAT = "perf-counter-profile"
VERSION = 1
SCHEMA = REPO / "schemas" / "profile-report.schema.json"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def qemu_version(binary):
    """'10.0.13' from the binary's --version, asked once per binary
    (a run.json of each test of a session asked again: 17 ms each)."""
    try:
        st = os.stat(binary)
        known = (str(binary), st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        known = None
    version = _versions.get(known)
    if version is None:
        out = apart.run([str(binary), "--version"], text=True).stdout
        m = re.search(r"version (\S+)", out)
        version = m.group(1) if m else "unknown"
        if known:
            _versions[known] = version
    return version


_versions = {}      # (binary, its inode, size, modification time): version


def _counts(obj, clocks, occurrences, instructions, clock_hz, total):
    d = {"clocks": clocks, "occurrences": occurrences,
         "seconds": clocks / clock_hz}
    if instructions is not None:
        d["instructions"] = instructions
    if total is not None:
        d["percent"] = clocks * 100.0 / total if total else 0.0
    obj.update(d)
    return obj


def core_doc(core):
    sections = []
    for s in core.sections:
        sections.append(_counts({"section": s.number, "name": s.name},
                                s.clocks, s.occurrences, s.instructions,
                                core.clock_hz, core.clocks))
    doc = {"base": core.base, "base_hex": f"{core.base:#010x}",
           "clock_hz": core.clock_hz, "clock": core.clock,
           "num_sections": core.sections_count,
           "reported_by_guest": core.reported,
           "virtual_ns": core.virtual_ns,
           "global": _counts({}, core.clocks, core.occurrences,
                             core.instructions, core.clock_hz, None),
           "sections": sections}
    if core.timeline is not None:
        doc["timeline"] = {"capacity": core.timeline["capacity"],
                           "recorded": len(core.timeline["events"]),
                           "dropped": core.timeline["dropped"]}
    return doc


def document(result, load_window_ns=None):
    """The --json document of a run (a Result); the CPU load in windows
    of load_window_ns (None: cpu_load's default)."""
    config, board, image = result.config, result.board, result.target.path
    icount_shift = board.icount_shift if config.icount else None
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "board": board.name,
        "cpu": board.cpu,
        "arch": board.arch,
        "counter_clock_hz": board.freq,
        "icount": {"enabled": icount_shift is not None,
                   "shift": icount_shift},
        "qemu": {"version": qemu_version(result.qemu_binary)},
        "image": {"path": str(image), "sha256": sha256(image),
                  "size": Path(image).stat().st_size},
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "cores": [core_doc(c) for c in result.cores],
        "run": stops.json_run(result),
    }
    profile = result.profile
    if profile and profile.contexts:
        doc["contexts"] = contexts.rows(profile, result.target)
        masked = contexts.masked_document(profile, result.target)
        if masked:
            doc["masked"] = masked
        busy = cpu_load.of(profile, load_window_ns)
        if busy:
            doc["load"] = cpu_load.rows(busy, profile, result.target)
        released = instances.of(profile, result.target)
        if released:
            doc["instances"] = instances.rows(released, profile,
                                              result.target)
        used = kernel_objects.of(profile, result.target)
        if used:
            doc["kernel_objects"] = kernel_objects.document(
                used, profile, result.target)
    allocated = heap.of(profile, result.target)
    if allocated:
        doc["heap"] = heap.document(allocated, profile, result.target)
    plugin = result.plugin
    if plugin and plugin.profiled:
        doc["profile"] = {
            "mode": plugin.mode,
            "unit": "instructions" if plugin.mode == "exact" else "samples",
            "period": plugin.period,
            "count": sum(plugin.histogram.values()),
            "instructions": plugin.instructions,
            "depth_lost": plugin.depth_lost}
        doc["call_graph"] = [{"caller": a, "callee": b, "calls": n}
                             for a, b, n in functions.call_graph(result)]
    if plugin and plugin.cycles_model:
        doc["cycles"] = {
            "model": plugin.cycles_model,
            "memory": plugin.cycles_memory,
            "wait_states": plugin.cycles_wait_states,
            "cycles": plugin.cycles,
            "instructions": plugin.cycles_instructions,
            "trust": model_trust.document(plugin.cycles_model,
                                          plugin.cycles_memory)}
    rows = functions.table(result)
    if rows:
        doc["functions"] = [function_doc(f) for f in rows]
    return doc


def function_doc(f):
    """A function's member of "functions": what the run measured."""
    doc = {"name": f.name, "address": f.address}
    for member in ("self", "total", "calls", "cycles",
                   "cycles_instructions"):
        value = getattr(f, member)
        if value is not None:
            doc[member] = value
    return doc


def write(path, doc):
    Path(path).write_text(text(doc) + "\n")


def text(doc):
    """doc as json.dumps(doc, indent=2) writes it, in a third of the
    time: with an indent json encodes in Python, one generator per
    container (0.28 to 0.34 s of the full FreeRTOS demo's 7.4 MB report,
    against 0.08 to 0.13 s here)."""
    return _value(doc, "")


def _value(o, pad):
    # (json's order of tests: a bool is an int, an IntEnum's text is
    # its number's)
    if isinstance(o, str):
        return encode_basestring_ascii(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    inner = pad + "  "
    between = ",\n" + inner
    if isinstance(o, (list, tuple)):
        if not o:
            return "[]"
        return "[\n" + inner + between.join(
            [_value(v, inner) for v in o]) + "\n" + pad + "]"
    if isinstance(o, dict):
        if not o:
            return "{}"
        return "{\n" + inner + between.join(
            [_key(k) + ": " + _value(v, inner) for k, v in o.items()]) + \
            "\n" + pad + "}"
    raise TypeError(f"Object of type {type(o).__name__} is not JSON "
                    f"serializable")


def _float(o):
    if o != o:
        return "NaN"
    if o in (math.inf, -math.inf):
        return "Infinity" if o > 0 else "-Infinity"
    return float.__repr__(o)


def _key(k):
    if isinstance(k, str):
        return encode_basestring_ascii(k)
    if k is None or isinstance(k, (bool, int, float)):
        return '"' + _value(k, "") + '"'
    raise TypeError(f"keys must be str, int, float, bool or None, not "
                    f"{type(k).__name__}")


def load(path):
    """A --json document, checked to be one (for --baseline)."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as err:
        raise Failure(f"{path}: cannot read a --json document: {err}") \
            from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Failure(f"{path}: not a scripts/profile --json document")
    if doc.get("version") != VERSION:
        raise Failure(f"{path}: --json version {doc.get('version')}; this "
                      f"scripts/profile reads version {VERSION}")
    return doc
