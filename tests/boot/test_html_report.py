# SPDX-License-Identifier: MIT
"""--html in a real browser (Debian's chromium, headless, driven by
python3-selenium): the report of a run of tasks and handlers opens from
the file with nothing fetched, says the run's numbers, lists every
function and task of the --json document, and its flame graph zooms to
a clicked frame, back to the whole run, and finds a function searched
for. A screenshot of each view is kept in build/test-artifacts/html/."""

import json
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from perfcounter.paths import BUILD, REPO
from test_outputs import LOOP

ARTIFACTS = BUILD / "test-artifacts" / "html"


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1280,900"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=options)
    yield driver
    driver.quit()


def report(ctx, board, tmp):
    """scripts/profile --html and --json of tasks.elf: (page, doc)."""
    image = ctx.firmware(board, "tests/firmware/tasks.elf")
    proc = subprocess.run(
        [str(REPO / "scripts" / "profile"), "--board", board.name,
         str(image), "--sample", "--cycles", "--html", "run.html",
         "--json", "run.json", "--timeline", "trace.json"], cwd=tmp,
        stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return Path(tmp) / "run.html", json.loads(
        (Path(tmp) / "run.json").read_text())


def tab(browser, name):
    browser.find_element("css selector",
                         f'nav button[data-tab="{name}"]').click()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def cells(browser, table):
    return [[td.text for td in row.find_elements("css selector", "td")]
            for row in browser.find_elements(
                "css selector", f"#{table} tbody tr")]


def frame_width(browser, name):
    return browser.execute_script(
        "const g = document.querySelector("
        "'#chart g.frame[name=\"' + arguments[0] + '\"]');"
        "return g ? parseFloat(g.getAttribute('width')) : -1;", name)


def test_the_report_in_a_browser(ctx, board, browser):
    with tempfile.TemporaryDirectory() as tmp:
        page, doc = report(ctx, board, tmp)
        text = page.read_text()
        browser.get(page.as_uri())
        summary = browser.find_element("id", "summary").text
        tab(browser, "run")
        sections = cells(browser, "sections")
        tab(browser, "functions")
        functions = cells(browser, "functions")
        calls = cells(browser, "calls")
        tab(browser, "tasks")
        tasks = cells(browser, "tasks")
        instances = cells(browser, "instances")
        bars = browser.execute_script(
            "return document.querySelectorAll('#timeline rect.stretch')"
            ".length")
        lanes = [t.text for t in browser.find_elements(
            "css selector", "#timeline text.lane")]
        areas = browser.execute_script(
            "return document.querySelectorAll('#load path.load').length")
        load_note = browser.find_element("id", "load-note").text
        heap_note = browser.find_element("id", "heap-note").text
        trace = json.loads((Path(tmp) / "trace.json").read_text())
        tab(browser, "flame")
        whole = browser.execute_script(
            "return document.querySelector('#chart svg').getAttribute("
            "'width')")
        hot = max((f for f in doc["functions"] if f["name"] != "main"
                   and f["total"] * 4 < doc["profile"]["count"]),
                  key=lambda f: f["total"])
        before = frame_width(browser, hot["name"])
        browser.find_element(
            "css selector", f'#chart g.frame[name="{hot["name"]}"]').click()
        time.sleep(0.2)
        zoomed = frame_width(browser, hot["name"])
        browser.save_screenshot(str(ARTIFACTS / "flame-zoomed.png"))
        browser.find_element("id", "reset").click()
        time.sleep(0.2)
        reset = frame_width(browser, hot["name"])
        browser.find_element("id", "search").send_keys(hot["name"])
        time.sleep(0.2)
        found = browser.execute_script(
            "return [...document.querySelectorAll('#chart g.frame rect')]"
            ".filter(r => r.style.fill === 'rgb(230, 0, 230)' ||"
            " r.getAttribute('fill') === '#E600E6').length")
        browser.save_screenshot(str(ARTIFACTS / "flame-search.png"))
        errors = [e for e in browser.get_log("browser")
                  if e["level"] == "SEVERE"]
    assert "<script src" not in text and "<link" not in text
    assert f"{doc['run']['instructions']:,} instructions" in summary
    assert f"{doc['cycles']['cycles']:,} estimated cycles" in summary
    counted = [s for core in doc["cores"]
               for s in [core["global"]] + core["sections"]
               if s["clocks"] or s["occurrences"]]
    assert len(sections) == len(counted)
    assert sorted(r[0] for r in functions) == \
        sorted(f["name"] for f in doc["functions"])
    assert functions[0][0] == max(doc["functions"],
                                  key=lambda f: f["self"])["name"]
    assert sorted(tuple(r) for r in calls) == sorted(
        (e["caller"], e["callee"], f"{e['calls']:,}")
        for e in doc["call_graph"])
    assert sorted(r[0] for r in tasks) == \
        sorted(c["name"] for c in doc["contexts"])
    # the task instances: the longest worst response first
    released = sorted((t for t in doc["instances"]["tasks"]
                       if t["instances"]),
                      key=lambda t: -t["response_ns"]["max"])
    assert [r[0] for r in instances] == [t["name"] for t in released]
    assert float(instances[0][3].replace(",", "")) == \
        round(released[0]["response_ns"]["max"] / 1e3, 1)
    # the timeline: a bar per stretch --timeline has, a lane per context
    slices = [e for e in trace["traceEvents"]
              if e.get("ph") == "X" and e.get("cat") == "context"]
    assert bars == len(slices) > 0
    assert sorted(lanes) == sorted({e["name"] for e in slices})
    # the CPU load: an area per context (the busiest 10, the rest as one)
    series = len(doc["load"]["contexts"])
    assert areas == (series if series <= 10 else 11) > 1
    assert "share of each 1 ms" in load_note
    # idle's request at each tick, 8 to 32 bytes, freed at once
    assert heap_note.startswith("peak 32 bytes in use at ") and \
        heap_note.endswith(" 0 failed (free, malloc)"), heap_note
    assert 0 < before < 0.5 * float(whole)
    assert zoomed >= 0.99 * float(whole)
    assert reset == pytest.approx(before)
    assert found >= 1
    assert not errors, errors


def test_the_source_with_its_coverage(ctx, board, browser):
    """With the exact profile, the Source view opens on the program's
    file (tests/programs/coverage.c at -O0) with each line's
    executions, the lines that never ran marked, and a branch's ways."""
    source = REPO / "tests" / "programs" / "coverage.c"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             str(source), "-O", "0", "--sample=exact", "--html",
             "run.html"], cwd=tmp, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        browser.get((Path(tmp) / "run.html").as_uri())
        tab(browser, "tasks")      # (a program that allocates nothing)
        heap_note = browser.find_element("id", "heap-note").text
        tab(browser, "source")
        chosen = browser.find_element("id", "file").get_attribute("value")
        rows = {r.get_attribute("data-line"): (
                    r.get_attribute("class"),
                    [td.text.strip()
                     for td in r.find_elements("css selector", "td")])
                for r in browser.find_elements("css selector",
                                               "#source tr")}
    assert heap_note == "no allocator calls seen (profile with --sample)"
    assert chosen == str(source)
    assert rows["31"] == ("ran", ["31", "4", "", "total += i;"])
    assert rows["22"][0] == "missed" and rows["22"][1][1] == "0"
    assert rows["29"][1][1:3] == ["11", "\u21b710 \u21931"]
    assert rows["9"] == ("", ["9", "", "", ""])


def test_the_annotated_functions_lines_have_their_cycles(ctx, board,
                                                         browser):
    """--annotate with --cycles: the Source view gives sum_to's lines
    the estimated cycles --hottest printed for them."""
    if not board.cycle_model:
        pytest.skip(f"{board.name} has no timing model")
    source = REPO / "tests" / "programs" / "coverage.c"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             str(source), "-O", "0", "--cycles", "--annotate", "sum_to",
             "--hottest", "--html", "run.html"], cwd=tmp,
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
        assert proc.returncode == 0, proc.stderr
        browser.get((Path(tmp) / "run.html").as_uri())
        tab(browser, "source")
        rows = {r.get_attribute("data-line"):
                [td.text.strip() for td in
                 r.find_elements("css selector", "td")]
                for r in browser.find_elements("css selector",
                                               "#source tr")}
        listing = browser.find_element("css selector", "pre.annotate").text
    printed = {int(m[2]): int(m[1]) for m in re.finditer(
        r"^\s+\d+\s+[\d.]+%\s+(\d+)\s+\d+  coverage\.c:(\d+): ",
        proc.stdout, re.M)}
    assert printed and 30 in printed, proc.stdout
    shown = {int(n): int(cells[2].replace(",", ""))
             for n, cells in rows.items() if cells[2]}
    assert shown == printed
    assert rows["31"][1] == "4" and rows["9"] == ["9", "", "", "", ""]
    # and the listing, as --annotate printed it
    printed_listing = proc.stdout[proc.stdout.index("annotate: sum_to"):]
    assert listing.split() == printed_listing[:len(listing) + 200].split()[
        :len(listing.split())]


def test_the_heap_in_the_report(ctx, board, browser):
    """heap.c's sequence: the Heap view says its peak and draws the bytes
    in use after each call."""
    image = ctx.firmware(board, "tests/firmware/heap.elf")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [str(REPO / "scripts" / "profile"), "--board", board.name,
             str(image), "--sample", "--html", "run.html"], cwd=tmp,
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
        assert proc.returncode == 0, proc.stderr
        browser.get((Path(tmp) / "run.html").as_uri())
        tab(browser, "tasks")
        note = browser.find_element("id", "heap-note").text
        line = browser.execute_script(
            "const p = document.querySelector('#heap path.heap');"
            "return p ? p.getAttribute('d') : '';")
    assert note.startswith("peak 480 bytes in use at "), note
    assert "5 allocations, 3 frees, 1 failed" in note
    # a step per call: nine points, each a horizontal and a vertical move
    assert line.count("H") + line.count("V") >= 9 or line.count("L") >= 9


def test_the_gate_in_the_report(ctx, board, browser):
    """--baseline with --html: the page says what the gate printed, the
    regressed values first."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "main.c").write_text(LOOP)

        def profile(*args):
            return subprocess.run(
                [str(REPO / "scripts" / "profile"), "--board", board.name,
                 "main.c", *args], cwd=tmp, stdin=subprocess.DEVNULL,
                capture_output=True, text=True, timeout=300)
        assert profile("-D", "LOOPS=100", "--json", "base.json") \
            .returncode == 0
        proc = profile("-D", "LOOPS=110", "--baseline", "base.json",
                       "--html", "run.html")
        browser.get((Path(tmp) / "run.html").as_uri())
        tab(browser, "run")
        summary = browser.find_element("id", "gate-summary").text
        rows = cells(browser, "gate")
    assert proc.returncode == 3, proc.stderr
    printed = [line for line in proc.stdout.splitlines()
               if "values regressed." in line]
    assert printed and summary == printed[0], (summary, printed)
    regressed = [r for r in rows if r[-1] == "regressed"]
    assert regressed and rows[:len(regressed)] == regressed, rows
    assert {r[0] for r in regressed} == {"(total)", "work"}, rows


def test_a_registry_out_of_reach_is_found_before_the_run(ctx, board,
                                                         tmp_path):
    """--html with its npm packages neither cached nor reachable (here:
    an empty cache, the registry a closed port): one line saying so
    before the guest runs, not once the run's other outputs were half
    written."""
    wrapper = ("import sys; from pathlib import Path\n"
               "import perfcounter.build.web as web\n"
               "web.CACHE = Path(sys.argv.pop(1))\n"
               "web.REGISTRY = 'http://127.0.0.1:9'\n"
               "from perfcounter.cli.profile import command\n"
               "command()\n")
    proc = subprocess.run(
        ["/usr/bin/python3", "-c", wrapper, str(tmp_path / "cache"),
         "--board", board.name, "--sample", "--html", "run.html", "--json",
         "run.json"], cwd=tmp_path, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=300,
        env=dict(os.environ, PYTHONPATH=str(REPO / "scripts" / "lib")))
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines()[-1].startswith(
        "error: cannot fetch http://127.0.0.1:9/d3/-/d3-7.9.0.tgz"), \
        proc.stderr
    assert "run:" not in proc.stderr and not proc.stdout, proc.stderr
    assert not (tmp_path / "run.json").exists()
