# SPDX-License-Identifier: MIT
"""--coverage on every board: the LCOV tracefile of a program built at
-O0 (tests/programs/coverage.c) agrees line by line, count for count,
and branch by branch with gcov's for the same source built natively
with --coverage, but for a closing brace after a return, a line of its
own here; genhtml
renders it; lcov -a merges two runs' files into their sums; a sampled
profile is refused."""

import gzip
import json
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from perfcounter.paths import REPO

PER_BOARD = True
SOURCE = REPO / "tests" / "programs" / "coverage.c"


def profile(*args, cwd):
    return subprocess.run([str(REPO / "scripts" / "profile"),
                           *map(str, args)], cwd=cwd,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=300)


def gcov_lines(ctx):
    """{line: (count, sorted counts of its branches' ways)} of
    coverage.c run natively, as gcov counts them."""
    if "gcov" not in ctx.cache:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["gcc", "-O0", "--coverage", str(SOURCE), "-o",
                            "native"], cwd=tmp, check=True)
            subprocess.run(["./native"], cwd=tmp, check=True)
            subprocess.run(["gcov", "--json-format", "--branch-probabilities",
                            "native-coverage.gcda"],
                           cwd=tmp, check=True, capture_output=True)
            with gzip.open(Path(tmp) / "native-coverage.gcov.json.gz") as f:
                doc = json.load(f)
        source, = [f for f in doc["files"] if f["file"].endswith(
            "coverage.c")]
        ctx.cache["gcov"] = {
            line["line_number"]: (line["count"], sorted(
                b["count"] for b in line["branches"]))
            for line in source["lines"]}
    return ctx.cache["gcov"]


def records(info, name="coverage.c"):
    """{tag: [values]} of the record of the file named name."""
    out = {}
    text = Path(info).read_text()
    record = re.search(rf"^SF:\S*/{re.escape(name)}\n(.*?)^end_of_record",
                       text, re.M | re.S)
    assert record, text
    for line in record.group(1).splitlines():
        tag, _, value = line.partition(":")
        out.setdefault(tag, []).append(value)
    return out


def da(info):
    return {int(line): int(count) for line, count in
            (v.split(",") for v in records(info)["DA"])}


def brda(info):
    """{line: sorted times of its branches' ways}"""
    out = {}
    for value in records(info).get("BRDA", []):
        line, _, _, times = value.split(",")
        out.setdefault(int(line), []).append(int(times))
    return {line: sorted(times) for line, times in out.items()}


def test_coverage_agrees_with_gcov_at_O0(ctx, board):
    """Lines and their counts, and each line's branches, which way and
    how often (the machine's branch may test the opposite condition:
    the ways are compared as a set)."""
    gcov = gcov_lines(ctx)
    expected = {n: count for n, (count, _) in gcov.items()}
    branches = {n: ways for n, (_, ways) in gcov.items() if ways}
    source_lines = SOURCE.read_text().splitlines()
    with tempfile.TemporaryDirectory() as tmp:
        proc = profile("--board", board.name, SOURCE, "-O", "0",
                       "--coverage", "cov.info", cwd=tmp)
        assert proc.returncode == 0, proc.stderr
        ours = da(Path(tmp) / "cov.info")
        ways = brda(Path(tmp) / "cov.info")
        functions = records(Path(tmp) / "cov.info")
    assert {n: ours.get(n) for n in expected} == expected
    assert ways == branches
    assert functions["BRF"] == [str(2 * len(branches))]
    assert functions["BRH"] == [str(sum(1 for w in branches.values()
                                        for t in w if t))]
    extra = {n for n in ours if n not in expected}
    assert extra and all(source_lines[n - 1].strip() == "}"
                         for n in extra), extra
    assert sorted(functions["FNDA"]) == ["0,never_called", "1,main",
                                         "1,sum_to", "2,classify"]
    assert functions["FNH"] == ["3"] and functions["LH"] == \
        [str(sum(1 for n in ours.values() if n))]
    assert re.search(r"coverage: lines [\d.]+% \(\d+ of \d+\), functions",
                     proc.stderr), proc.stderr


def test_coverage_renders_and_merges(ctx, board):
    """genhtml renders a run's file; lcov -a adds two runs'."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        image = tmp / "coverage.elf"
        ok = profile("--board", board.name, SOURCE, "-O", "0", "-o", image,
                     "--coverage", "a.info", cwd=tmp)
        assert ok.returncode == 0, ok.stderr
        again = profile("--board", board.name, image, "--coverage",
                        "b.info", cwd=tmp)
        assert again.returncode == 0, again.stderr
        subprocess.run(["lcov", "-q", "--rc", "lcov_branch_coverage=1",
                        "-a", "a.info", "-a", "b.info", "-o", "sum.info"],
                       cwd=tmp, check=True, capture_output=True)
        html = subprocess.run(["genhtml", "-q", "--branch-coverage", "-o",
                               "html", "sum.info"],
                              cwd=tmp, capture_output=True, text=True)
        assert html.returncode == 0, html.stderr
        page = next((tmp / "html").rglob("coverage.c.gcov.html")).read_text()
        one, both = da(tmp / "a.info"), da(tmp / "sum.info")
        ways, summed = brda(tmp / "a.info"), brda(tmp / "sum.info")
    assert both == {n: 2 * c for n, c in one.items()}
    assert summed == {n: [2 * t for t in w] for n, w in ways.items()}
    assert "never_called" in page or "sum_to" in page


def test_gcovr_merges_and_renders_the_json(ctx, board):
    """--coverage FILE.json: gcovr (Debian's) reads two runs' files,
    sums them as lcov -a does the LCOV, and renders them."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        image = tmp / "coverage.elf"
        ok = profile("--board", board.name, SOURCE, "-O", "0", "-o", image,
                     "--coverage", "a.json", cwd=tmp)
        assert ok.returncode == 0, ok.stderr
        for more in ("b.json", "a.info"):
            again = profile("--board", board.name, image, "--coverage",
                            more, cwd=tmp)
            assert again.returncode == 0, again.stderr
        gcovr = ["gcovr", "--root", str(REPO), "--add-tracefile", "a.json",
                 "--add-tracefile", "b.json"]
        summed = subprocess.run(gcovr + ["--json", "sum.json"], cwd=tmp,
                                capture_output=True, text=True)
        assert summed.returncode == 0, summed.stderr
        html = subprocess.run(gcovr + ["--html-details", "index.html"],
                              cwd=tmp, capture_output=True, text=True)
        assert html.returncode == 0, html.stderr
        pages = [p.read_text() for p in tmp.glob("index*.html")]
        one, ways = da(tmp / "a.info"), brda(tmp / "a.info")
        doc = json.loads((tmp / "sum.json").read_text())
    (file,) = [f for f in doc["files"] if f["file"].endswith("coverage.c")]
    assert {line["line_number"]: line["count"] for line in file["lines"]} \
        == {n: 2 * c for n, c in one.items()}
    assert {line["line_number"]: sorted(b["count"] for b in line["branches"])
            for line in file["lines"] if line["branches"]} == \
        {n: [2 * t for t in w] for n, w in ways.items()}
    assert len(pages) > 1 and any("sum_to" in p for p in pages)


def test_coverage_needs_every_instruction(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        proc = profile("--board", board.name, SOURCE, "--sample=1000",
                       "--coverage", "cov.info", cwd=tmp)
    assert proc.returncode == 2
    line, = proc.stderr.strip().splitlines()
    assert "--coverage counts every instruction: give --sample=exact or " \
        "no --sample" in line, proc.stderr


def test_coverage_of_the_files_chosen(ctx, board):
    """--coverage-omit leaves the board support out, --coverage-include
    keeps the program's file alone; a choice of nothing is refused."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        shutil.copy(SOURCE, tmp / "coverage.c")
        omit = profile("--board", board.name, "coverage.c", "-O", "0",
                       "--coverage", "omit.info", "--coverage-omit",
                       "*/firmware/*", cwd=tmp)
        include = profile("--board", board.name, "coverage.elf",
                          "--coverage", "include.info",
                          "--coverage-include", "cov*.c", cwd=tmp)
        nothing = profile("--board", board.name, "coverage.elf",
                          "--coverage", "none.info",
                          "--coverage-include", "nothing*", cwd=tmp)
        files = [re.findall(r"^SF:(.*)$", (tmp / f).read_text(), re.M)
                 for f in ("omit.info", "include.info")]
    assert omit.returncode == 0 and include.returncode == 0, \
        omit.stderr + include.stderr
    assert files == [[str(tmp / "coverage.c")]] * 2, files
    assert "of 1 source file;" in include.stderr
    assert nothing.returncode == 1
    assert nothing.stderr.strip().splitlines()[-1].endswith(
        "chosen by --coverage-include and --coverage-omit"), nothing.stderr


def test_cobertura_xml_says_what_the_lcov_says(ctx, board):
    """--coverage FILE.xml: Cobertura XML (GitLab, Jenkins) with the
    same lines, hits and branches as the LCOV of the same run."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        built = profile("--board", board.name, SOURCE, "-O", "0", "-o",
                        tmp / "coverage.elf", "--coverage", "cov.info",
                        cwd=tmp)
        assert built.returncode == 0, built.stderr
        proc = profile("--board", board.name, "coverage.elf", "--coverage",
                       "cov.xml", cwd=tmp)
        assert proc.returncode == 0, proc.stderr
        lines, ways = da(tmp / "cov.info"), brda(tmp / "cov.info")
        root = ET.parse(tmp / "cov.xml").getroot()
        lint = subprocess.run(["xmllint", "--noout", str(tmp / "cov.xml")],
                              capture_output=True, text=True)
    assert lint.returncode == 0, lint.stderr
    assert "Cobertura XML in cov.xml" in proc.stderr
    cls, = [c for c in root.iter("class")
            if c.get("filename").endswith("/coverage.c")]
    rows = {int(r.get("number")): r for r in cls.find("lines")}
    assert {n: int(r.get("hits")) for n, r in rows.items()} == lines
    for n, times in ways.items():
        hit = sum(1 for t in times if t)
        assert rows[n].get("condition-coverage") == \
            f"{100 * hit // len(times)}% ({hit}/{len(times)})"
    assert {m.get("name") for m in cls.iter("method")} == \
        {"classify", "never_called", "sum_to", "main"}
    valid = int(root.get("lines-valid"))
    covered = int(root.get("lines-covered"))
    assert root.get("line-rate") == f"{covered / valid:.4f}"
