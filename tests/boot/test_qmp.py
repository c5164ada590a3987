# SPDX-License-Identifier: MIT
"""The live readout through QMP, on every board: scripts/profile --qmp
SOCKET keeps a QMP socket open while the guest runs; scripts/lib/qmp.py
and the scripts/readout front end read every core's "report" mid-run,
and what they read is the documented report, valid as a core of
schemas/profile-report.schema.json, and never goes back."""

import json
import re
import subprocess
import tempfile
import time
from pathlib import Path

from perfcounter.boot import qmp
from perfcounter.results import readout
from perfcounter.outputs import json_report as report_json
from bootlib import HANGS_IN_A_SECTION
from perfcounter.errors import Failure
from perfcounter.paths import REPO

PER_BOARD = True
PROFILE = REPO / "scripts" / "profile"
READOUT = REPO / "scripts" / "readout"
SCHEMA = REPO / "schemas" / "profile-report.schema.json"
# docs/register-map.md, "report"
MEMBERS = {"version", "qom-path", "base", "clock-frequency", "clock",
           "num-sections",
           "icount", "enabled", "virtual-ns", "global", "sections"}
COUNTS = ("clocks", "instructions", "occurrences")


def core_schema_errors(doc):
    """A live report, as scripts/profile --json gives a core, against
    the schema's core definition."""
    import jsonschema
    schema = json.loads(SCHEMA.read_text())
    core = {"$ref": "#/definitions/core",
            "definitions": schema["definitions"]}
    core_doc = report_json.core_doc(readout.parse(json.dumps(doc)))
    return [e.message for e in
            jsonschema.Draft7Validator(core).iter_errors(core_doc)]


def counts(doc):
    """{(counter, metric): value} of a live report."""
    out = {(0, m): doc["global"][m] for m in COUNTS}
    for s in doc["sections"]:
        out.update({(s["section"], m): s[m] for m in COUNTS})
    return out


def wait_until_hanging(q, deadline):
    """The reports once the guest runs section 2 (its endless loop)."""
    while True:
        docs = qmp.reports(q)
        if docs and docs[0]["sections"][1]["running"]:
            return docs
        assert time.monotonic() < deadline, f"section 2 never ran: {docs}"
        time.sleep(0.05)


def test_live_report_through_qmp_mid_run(ctx, board):
    bases = [base for base, _ in board.counters]
    with tempfile.TemporaryDirectory() as tmp:
        main, sock = Path(tmp) / "hangs.c", Path(tmp) / "qmp.sock"
        main.write_text(HANGS_IN_A_SECTION)
        out, err = Path(tmp) / "out.txt", Path(tmp) / "err.txt"
        with open(out, "w") as o, open(err, "w") as e:
            proc = subprocess.Popen(
                [str(PROFILE), "--board", board.name, "--timeout", "120",
                 "--qmp", sock, main], cwd=tmp, stdin=subprocess.DEVNULL,
                stdout=o, stderr=e)
        try:
            with qmp.connect(sock, wait=120) as q:
                first = wait_until_hanging(q, time.monotonic() + 60)
                time.sleep(0.2)
                second = qmp.reports(q)
            # QEMU serves one QMP client at a time
            front = subprocess.run([str(READOUT), sock],
                                   capture_output=True, text=True,
                                   timeout=60)
            with qmp.connect(sock) as q:
                third = qmp.reports(q)
                q.execute("quit")
            code = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        stdout, stderr = out.read_text(), err.read_text()
        left = sock.exists()
    assert code == 0, stdout + stderr
    assert not left, "the QMP socket is left after the run"
    assert f"QMP on {sock}" in stderr, stderr
    # Every core, by base, with the documented members, valid as a core
    # of --json
    for docs in (first, second, third):
        assert [d["base"] for d in docs] == bases, docs
        for d in docs:
            assert set(d) == MEMBERS, set(d) ^ MEMBERS
            errors = core_schema_errors(d)
            assert not errors, errors
    # Counts never go back; the guest's section 2 keeps counting
    for before, after in ((first, second), (second, third)):
        for b, a in zip(before, after):
            assert a["virtual-ns"] >= b["virtual-ns"]
            went_back = {k: (v, counts(a)[k]) for k, v in counts(b).items()
                         if counts(a)[k] < v}
            assert not went_back, went_back
    s1, s2 = second[0]["sections"][:2]
    assert (s1["running"], s2["running"]) == (False, True)
    assert s1["occurrences"] == s2["occurrences"] == 1
    assert third[0]["sections"][1]["clocks"] > first[0]["sections"][1][
        "clocks"] > 0
    assert second[0]["global"]["clocks"] >= s1["clocks"] + s2["clocks"]
    # scripts/readout: the table of every core, read between the two
    assert front.returncode == 0, front.stderr
    for base in bases:
        assert f"live readout of the core at {base:#010x}" in front.stdout
    row = re.search(r"^\|section 2 +\| *[0-9.e-]+\| *[0-9.]+\| +(\d+)\| +1\|$",
                    front.stdout, re.M)
    assert row, front.stdout
    assert s2["clocks"] <= int(row.group(1)) <= \
        third[0]["sections"][1]["clocks"]
    # After the quit, the report-file: counted on from what was read
    row = re.search(r"^\|section 2 +\| *[0-9.e-]+\| *[0-9.]+\| +(\d+)\| +1\|$",
                    stdout, re.M)
    assert row and int(row.group(1)) >= third[0]["sections"][1]["clocks"], \
        stdout


def test_readout_without_qemu_says_so(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([str(READOUT), Path(tmp) / "none.sock"],
                              capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "no QEMU listens on the QMP socket" in proc.stderr, proc.stderr
    try:
        qmp.connect(REPO / "README.md")
    except Failure as err:
        assert "README.md" in str(err)
    else:
        raise AssertionError("connected to a file that is no socket")
