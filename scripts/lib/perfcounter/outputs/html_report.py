# SPDX-License-Identifier: MIT
"""scripts/profile --html FILE: one self-contained page a person opens
(from a CI artifact or a laptop, offline): the run, the counter cores'
sections, the functions and who calls whom (sortable), an interactive
flame graph (click a frame to zoom, search), the tasks and interrupt
handlers and when each ran (a zoomable timeline, the stretches
--timeline has), with the exact profile the source with each line's
executions and its branches' ways (coverage's), and with --baseline
the gate's comparison.

Its data is the --json document (json_report: one owner of what a run
says) and the collapsed call stacks; its flame graph is d3-flame-graph
on d3, from their npm packages (build.web), inline with their licences:
nothing is fetched when the page opens.
"""

import html
import json

from perfcounter.build import web
from perfcounter.outputs import annotate, coverage, json_report
from perfcounter.results import contexts, cpu_load
from perfcounter.results import stacks as collapsed
from perfcounter.target import lines

# The timeline's stretches a page carries at most (a long RTOS run has
# millions; --timeline writes them all)
MAX_STRETCHES = 20000
# The charts' points at most (windows merged, the heap's thinned) and
# the load's series (the busiest; the rest summed as one)
MAX_POINTS = 1000
MAX_SERIES = 10

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5em 2em; }
header h1 { font-size: 1.3em; margin: 0.8em 0 0.2em; }
#summary { color: #333; margin: 0 0 0.8em; }
nav button { font: inherit; padding: 0.35em 1em; border: 1px solid #bbb;
  background: #f4f4f4; cursor: pointer; }
nav button.active { background: #fff; border-bottom-color: #fff;
  font-weight: bold; }
section { display: none; border-top: 1px solid #bbb; padding-top: 1em; }
section.active { display: block; }
table { border-collapse: collapse; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #eee;
  text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { cursor: pointer; background: #f4f4f4; user-select: none; }
th.sorted::after { content: " \\25BE"; }
#details { min-height: 1.4em; font-family: monospace; }
#source td { font-family: monospace; white-space: pre; border: 0;
  padding: 0 0.6em; }
#source td:last-child { text-align: left; }
#source tr.ran td:last-child { background: #dff5dd; }
#source tr.missed td:last-child { background: #fbdada; }
#source td.partial { background: #fcefc7; }
.empty { color: #777; }
"""

GLUE = r"""
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const run = data.run;

function showTab(name) {
  for (const b of document.querySelectorAll("nav button"))
    b.classList.toggle("active", b.dataset.tab === name);
  for (const s of document.querySelectorAll("section"))
    s.classList.toggle("active", s.id === "tab-" + name);
  if (name === "flame") drawFlame();
  if (name === "tasks") {
    drawTimeline();
    drawLoad();
    drawHeap();
  }
}
for (const b of document.querySelectorAll("nav button"))
  b.addEventListener("click", () => showTab(b.dataset.tab));

const number = (v) => typeof v === "number" ?
  (Number.isInteger(v) ? v.toLocaleString("en") : v.toFixed(2)) :
  (v === undefined || v === null ? "" : String(v));

// A table of rows (objects) with columns [key, title]; a click on a
// header sorts by it (numbers biggest first, names A to Z)
function table(id, columns, rows, sortKey) {
  const t = document.getElementById(id);
  if (!rows.length) {
    t.outerHTML = '<p class="empty" id="' + id + '">none in this run</p>';
    return;
  }
  const head = t.createTHead().insertRow();
  for (const [key, title] of columns) {
    const th = document.createElement("th");
    th.textContent = title;
    th.dataset.key = key;
    th.addEventListener("click", () => fill(key));
    head.appendChild(th);
  }
  const body = t.createTBody();
  function fill(key) {
    const sorted = rows.slice().sort((a, b) => {
      const x = a[key], y = b[key];
      if (typeof x === "number" || typeof y === "number")
        return (y ?? -1) - (x ?? -1);
      return String(x).localeCompare(String(y));
    });
    body.textContent = "";
    for (const row of sorted) {
      const tr = body.insertRow();
      for (const [k] of columns) tr.insertCell().textContent = number(row[k]);
    }
    for (const th of head.cells)
      th.classList.toggle("sorted", th.dataset.key === key);
  }
  fill(sortKey);
}

const ended = run ? run.ended + (run.stop ? " (" + run.stop.text + ")" : "") : "";
document.getElementById("summary").textContent = [
  data.board + " (" + data.cpu + ")",
  "ended: " + (ended || (data.timed_out ? "timeout" : "exit " + data.exit_code)),
  run && run.instructions !== null ? number(run.instructions) + " instructions" : "",
  run && run.virtual_ns !== null ? number(run.virtual_ns / 1e6) + " ms of virtual time" : "",
  data.cycles ? number(data.cycles.cycles) + " estimated cycles (" + data.cycles.model + ")" : "",
].filter(Boolean).join(" \u00b7 ");

const sections = [];
for (const core of data.cores)
  for (const s of [Object.assign({name: "(total)"}, core.global)].concat(core.sections))
    sections.push(Object.assign({core: core.base_hex}, s,
      {name: s.name || "section " + s.section}));
table("sections", [["name", "section"], ["core", "core"], ["clocks", "clocks"],
  ["instructions", "instructions"], ["occurrences", "occurrences"]],
  sections.filter((s) => s.clocks || s.occurrences), "clocks");

if (data.gate) {
  // the values that changed (all of them when none did), regressions first
  const changed = data.gate.filter((r) => r.status !== "same");
  const failed = data.gate.filter((r) => r.status === "regressed" ||
                                         r.status === "missing");
  document.getElementById("gate-view").hidden = false;
  document.getElementById("gate-summary").textContent = failed.length ?
    failed.length + " of " + data.gate.length + " values regressed." :
    (changed.length ? "No regression; " + changed.length + " of " +
     data.gate.length + " values changed." :
     "No change in " + data.gate.length + " values.");
  const order = {regressed: 0, missing: 1, worse: 2, new: 3, better: 4, same: 5};
  table("gate", [["name", "section"], ["metric", "metric"],
    ["baseline", "baseline"], ["run", "run"], ["change", "change"],
    ["status", "status"]],
    (changed.length ? changed : data.gate).map((r) =>
      Object.assign({rank: 5 - order[r.status]}, r)), "rank");
}

const unit = data.profile ? data.profile.unit : "";
table("functions", [["name", "function"], ["self", "self " + unit],
  ["total", "total " + unit], ["calls", "calls"], ["cycles", "cycles"],
  ["cycles_instructions", "instructions (cycles')"]],
  data.functions || [], data.profile ? "self" : "cycles");

table("calls", [["caller", "caller"], ["callee", "callee"],
  ["calls", "calls"]], data.call_graph || [], "calls");

table("tasks", [["name", "task or handler"], ["kind", "kind"],
  ["instructions", "instructions"], ["cycles", "cycles"],
  ["switched_in", "switched in"], ["runs", "runs"]],
  data.contexts || [], "instructions");

table("instances", [["name", "task"], ["instances", "instances"],
  ["response_mean_us", "response mean (us)"],
  ["response_max_us", "response max (us)"],
  ["execution_mean_us", "execution mean (us)"],
  ["execution_max_us", "execution max (us)"],
  ["worst_at_ms", "worst released at (ms)"],
  ["preempted_most_by", "preempted most by"]],
  data.instances || [], "response_max_us");

let chart = null;
function drawFlame() {
  if (chart || !data.stacks) return;
  const width = document.getElementById("chart").clientWidth || 1000;
  const share = (d) => (100 * d.value / data.stacks.value).toFixed(2);
  chart = flamegraph.default().width(width).cellHeight(18)
    .transitionDuration(0).minFrameSize(1).selfValue(false)
    .setLabelHandler((d) => d.data.name + " (" + share(d) + "%, " +
      number(d.value) + " " + unit + ")")
    .setDetailsElement(document.getElementById("details"));
  d3.select("#chart").datum(data.stacks).call(chart);
}
document.getElementById("search").addEventListener("input", (e) => {
  if (chart) e.target.value ? chart.search(e.target.value) : chart.clear();
});
document.getElementById("reset").addEventListener("click", () => {
  if (chart) chart.resetZoom();
});
// The source with each line's executions and its branches' ways
function showSource(file) {
  const t = document.getElementById("source");
  const src = data.source[file];
  // the annotated functions' lines have their estimated cycles
  const withCycles = Object.keys(src.cycles || {}).length > 0;
  t.textContent = "";
  src.text.forEach((text, i) => {
    const n = String(i + 1);
    const tr = t.insertRow();
    const count = src.lines[n];
    if (count !== undefined) tr.className = count ? "ran" : "missed";
    tr.dataset.line = n;
    tr.insertCell().textContent = n;
    tr.insertCell().textContent = count === undefined ? "" : number(count);
    if (withCycles) {
      const cycles = src.cycles[n];
      tr.insertCell().textContent = cycles === undefined ? "" : number(cycles);
    }
    // each conditional branch: the times it went (taken, then on)
    const ways = src.branches[n] || [];
    const way = (w) => w === null ? "-" : number(w);
    const arrows = [];
    for (let i = 0; i + 1 < ways.length; i += 2) {
      arrows.push("\u21b7" + way(ways[i]) + " \u2193" + way(ways[i + 1]));
    }
    const cell = tr.insertCell();
    cell.textContent = arrows.join("  ");
    if (ways.includes(0) || ways.includes(null)) cell.className = "partial";
    tr.insertCell().textContent = text;
  });
}
const files = document.getElementById("file");
if (data.source) {
  for (const file of Object.keys(data.source).sort()) {
    const option = document.createElement("option");
    option.value = option.textContent = file;
    files.appendChild(option);
  }
  // the file most of whose lines ran first: the program's own, often
  const ran = (f) => Object.values(data.source[f].lines).filter(Boolean).length;
  files.value = Object.keys(data.source).reduce((a, b) => ran(b) > ran(a) ? b : a);
  files.addEventListener("change", () => showSource(files.value));
  showSource(files.value);
}
// The CPU load: each context's percent of each window, stacked
function drawLoad() {
  const load = data.load;
  const note = document.getElementById("load-note");
  if (!load) {
    note.textContent = "no task switches: profile with --sample";
    return;
  }
  if (document.querySelector("#load svg")) return;
  note.textContent = "each task's and handler's share of each " +
    number(load.point_ns / 1e6) + " ms (the busiest " +
    Math.min(load.names.length, 10) + " apart)";
  const width = document.getElementById("load").clientWidth || 1000;
  const height = 220, left = 180;
  const points = load.percent[0].map((_, k) => {
    const row = {k: k};
    load.names.forEach((name, i) => { row[name] = load.percent[i][k]; });
    return row;
  });
  const stacked = d3.stack().keys(load.names)(points);
  const x = d3.scaleLinear([0, points.length], [left, width - 10]);
  const y = d3.scaleLinear([0, 100], [height, 10]);
  const color = d3.scaleOrdinal(d3.schemeTableau10);
  const svg = d3.select("#load").append("svg")
    .attr("width", width).attr("height", height + 30);
  svg.append("g").selectAll("path").data(stacked).join("path")
    .attr("class", "load").attr("fill", (s) => color(s.key))
    .attr("d", d3.area().x((d) => x(d.data.k)).y0((d) => y(d[0]))
      .y1((d) => y(d[1])).curve(d3.curveStepAfter))
    .append("title").text((s) => s.key);
  svg.append("g").selectAll("text").data(load.names).join("text")
    .attr("class", "lane").attr("x", 4).attr("y", (d, i) => 20 + i * 16)
    .attr("fill", (d) => color(d)).text((d) => d);
  svg.append("g").attr("transform", "translate(0," + height + ")")
    .call(d3.axisBottom(x).ticks(8)
      .tickFormat((k) => number(k * load.point_ns / 1e6) + " ms"));
  svg.append("g").attr("transform", "translate(" + left + ",0)")
    .call(d3.axisLeft(y).ticks(4).tickFormat((p) => p + "%"));
}
// The heap: bytes in use after each allocator call
function drawHeap() {
  const heap = data.heap;
  const note = document.getElementById("heap-note");
  if (!heap) {
    note.textContent = "no allocator calls seen (profile with --sample)";
    return;
  }
  if (document.querySelector("#heap svg")) return;
  note.textContent = "peak " + number(heap.peak_bytes) + " bytes in use at " +
    number(heap.peak_at_ns / 1e6) + " ms; " + number(heap.allocations) +
    " allocations, " + number(heap.frees) + " frees, " +
    number(heap.failures) + " failed (" + heap.functions.join(", ") + ")";
  const width = document.getElementById("heap").clientWidth || 1000;
  const height = 160, left = 180;
  const s = heap.series;
  const x = d3.scaleLinear([0, d3.max(s, (p) => p[0]) || 1],
    [left, width - 10]);
  const y = d3.scaleLinear([0, d3.max(s, (p) => p[1]) || 1], [height, 10]);
  const svg = d3.select("#heap").append("svg")
    .attr("width", width).attr("height", height + 30);
  svg.append("path").attr("class", "heap").attr("fill", "none")
    .attr("stroke", "#4e79a7")
    .attr("d", d3.line().x((p) => x(p[0])).y((p) => y(p[1]))
      .curve(d3.curveStepAfter)(s));
  svg.append("g").attr("transform", "translate(0," + height + ")")
    .call(d3.axisBottom(x).ticks(8)
      .tickFormat((t) => number(t / 1e6) + " ms"));
  svg.append("g").attr("transform", "translate(" + left + ",0)")
    .call(d3.axisLeft(y).ticks(4));
}
// The timeline: a lane per task or handler, a bar per stretch it ran
function drawTimeline() {
  const tl = data.timeline;
  if (!tl || document.querySelector("#timeline svg")) return;
  const lane = 22, left = 180;
  const width = document.getElementById("timeline").clientWidth || 1000;
  const t0 = d3.min(tl.stretches, (s) => s[1]);
  const t1 = d3.max(tl.stretches, (s) => s[2]);
  const x = d3.scaleLinear([t0, t1], [left, width - 10]);
  const svg = d3.select("#timeline").append("svg")
    .attr("width", width).attr("height", tl.lanes.length * lane + 30);
  svg.append("g").selectAll("text").data(tl.lanes).join("text")
    .attr("class", "lane").attr("x", 4).attr("y", (d, i) => i * lane + 15)
    .text((d) => d);
  const color = d3.scaleOrdinal(d3.schemeTableau10);
  const bars = svg.append("g").selectAll("rect").data(tl.stretches)
    .join("rect").attr("class", "stretch")
    .attr("y", (s) => s[0] * lane + 2).attr("height", lane - 4)
    .attr("fill", (s) => color(s[0]));
  bars.append("title").text((s) => tl.lanes[s[0]] + ": " +
    number((s[1] - t0) / 1e6) + " to " + number((s[2] - t0) / 1e6) +
    " ms, " + number(s[3]) + " instructions");
  const axis = svg.append("g")
    .attr("transform", "translate(0," + tl.lanes.length * lane + ")");
  function place(scale) {
    bars.attr("x", (s) => scale(s[1]))
      .attr("width", (s) => Math.max(0.5, scale(s[2]) - scale(s[1])));
    axis.call(d3.axisBottom(scale).ticks(8)
      .tickFormat((t) => number((t - t0) / 1e6) + " ms"));
  }
  place(x);
  svg.call(d3.zoom().scaleExtent([1, 1e6])
    .translateExtent([[left, 0], [width, 0]])
    .on("zoom", (e) => place(e.transform.rescaleX(x))));
}

showTab(location.hash ? location.hash.slice(1) : "run");
"""


def tree(stacks, root_name):
    """d3-flame-graph's hierarchy ({name, value, children}) of collapsed
    stacks ({"a;b": count}): a node's value is its own and its
    callees'."""
    root = {"name": root_name, "value": 0, "children": {}}
    for key in sorted(stacks):
        count = stacks[key]
        node = root
        node["value"] += count
        for frame in key.split(";"):
            node = node["children"].setdefault(
                frame, {"name": frame, "value": 0, "children": {}})
            node["value"] += count

    def finish(node):
        node["children"] = [finish(c) for c in node["children"].values()]
        return node
    return finish(root)


def document(result, doc=None, gate_rows=None):
    """The page's text: of the run's --json document (made if not
    given) and, with --baseline, the gate's rows."""
    doc = dict(doc or json_report.document(result))
    # the series drawn at most MAX_POINTS apart: the page stays small
    if "load" in doc:
        doc["load"] = load_chart(doc["load"])
    if "heap" in doc:
        doc["heap"] = dict(doc["heap"],
                           series=heap_chart(doc["heap"]["series"]))
    if "instances" in doc:
        doc["instances"] = instance_rows(doc["instances"])
    if gate_rows is not None:
        doc["gate"] = [{"core": r.core, "name": r.name, "metric": r.metric,
                        "baseline": r.baseline, "run": r.current,
                        "change": r.delta, "status": r.status}
                       for r in gate_rows]
    profile = result.profile
    if profile is not None and profile.stacks and profile.call_stacks:
        doc["stacks"] = tree(collapsed.collapse(profile, result.target),
                             result.target.path.name)
    if profile is not None and profile.mode == "exact":
        doc["source"] = sources(coverage.of_run(result),
                                annotate.line_cycles(result))
        source = ('<p><select id="file"></select> each line\'s '
                  'executions (and its estimated cycles in the functions '
                  'of --annotate with --cycles), and its branches\' ways: '
                  '\u21b7 taken, \u2193 not taken</p>'
                  '<table id="source"></table>')
    else:
        source = ('<p class="empty">the source with each line\'s '
                  'executions: profile with --sample=exact</p>'
                  '<select id="file" hidden></select>')
    # --annotate's listings, as printed, the hottest lines first
    if profile is not None and profile.profiled:
        source += "".join(
            f'<h2>{html.escape(name)}, annotated</h2>'
            f'<pre class="annotate">'
            f'{html.escape(annotate.report(result, name, hottest=True))}'
            f'</pre>' for name in result.config.annotated)
    timeline_note = "no task switches: profile with --sample"
    if profile is not None and profile.switches:
        doc["timeline"] = timeline(profile, result.target)
        shown, ran = len(doc["timeline"]["stretches"]), doc["timeline"]["all"]
        timeline_note = (f"{ran:,} stretches" if shown == ran else
                         f"the first {shown:,} of {ran:,} stretches") + \
            " (scroll to zoom, drag to move, point at one for its numbers)"
    title = f"perf-counter: {result.target.path.name} on {result.board.name}"
    payload = json.dumps(doc, separators=(",", ":")).replace("</", "<\\/")
    libraries = "\n".join(
        f"<script>/* {p.name} {p.version}, {p.licence} licence:\n"
        f"{_comment(web.text(p, 'LICENSE'))} */\n"
        f"{_inline(web.text(p, js))}</script>"
        for p, js in ((web.D3, "dist/d3.min.js"),
                      (web.FLAME_GRAPH, "dist/d3-flamegraph.umd.min.js")))
    flame = "" if "stacks" in doc else \
        '<p class="empty">no call stacks: profile with --sample</p>'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>{STYLE}
{web.text(web.FLAME_GRAPH, "dist/d3-flamegraph.css")}</style>
</head><body>
<header><h1>{html.escape(title)}</h1><p id="summary"></p></header>
<nav><button data-tab="run">Run</button><button data-tab="functions">\
Functions</button><button data-tab="flame">Flame graph</button>\
<button data-tab="tasks">Tasks and handlers</button>\
<button data-tab="source">Source</button></nav>
<section id="tab-run"><h2>Counter sections</h2><table id="sections"></table>
<div id="gate-view" hidden><h2>Against the baseline</h2>
<p id="gate-summary"></p><table id="gate"></table></div>
</section>
<section id="tab-functions"><table id="functions"></table>
<h2>Who calls whom</h2><table id="calls"></table></section>
<section id="tab-flame"><p><input id="search" placeholder="search a \
function"> <button id="reset">whole run</button> (click a frame to zoom)</p>
{flame}<div id="chart"></div><p id="details"></p></section>
<section id="tab-tasks"><table id="tasks"></table>
<h2>Task instances, from made ready to blocked</h2><table id="instances">\
</table>
<h2>When each ran</h2><p id="timeline-note">{timeline_note}</p>
<div id="timeline"></div>
<h2>CPU load</h2><p id="load-note"></p><div id="load"></div>
<h2>Heap</h2><p id="heap-note"></p><div id="heap"></div></section>
<section id="tab-source">{source}</section>
<script type="application/json" id="data">{payload}</script>
{libraries}
<script>{GLUE}</script>
</body></html>
"""


def timeline(profile, target):
    """{lanes: [context names], stretches: [[lane, start ns, end ns,
    instructions]] (the first MAX_STRETCHES), all: their number}"""
    names = contexts.labels(profile, target)
    lanes, stretches = {}, []
    total = 0
    for _, cid, start, end, instructions in contexts.stretches(profile):
        total += 1
        if len(stretches) < MAX_STRETCHES:
            lane = lanes.setdefault(names.get(cid, f"context {cid}"),
                                    len(lanes))
            stretches.append([lane, start, end, instructions])
    return {"lanes": list(lanes), "stretches": stretches, "all": total}


def load_chart(load):
    """--json's "load" for the chart: the busiest MAX_SERIES contexts
    (the rest summed as "others"), each a percent per point, with at
    most MAX_POINTS points (consecutive windows merged)."""
    series = sorted(load["contexts"], key=lambda c: -c["mean"])
    shown = series[:MAX_SERIES]
    rest = series[MAX_SERIES:]
    n, window = load["windows"], load["window_ns"]
    lengths = [min(window, load["until_ns"] - k * window) for k in range(n)]
    busy = [(c["name"], cpu_load.dense(c, n)) for c in shown]
    if rest:
        others = [0] * n
        for c in rest:
            for k, ns in zip(c["windows"], c["busy_ns"]):
                others[k] += ns
        busy.append(("others", others))
    merge = -(-n // MAX_POINTS)

    def merged(values):
        return [sum(values[k:k + merge]) for k in range(0, n, merge)]
    spans = merged(lengths)
    return {"point_ns": window * merge, "names": [name for name, _ in busy],
            "percent": [[round(100 * b / s, 2) for b, s in
                         zip(merged(values), spans)] for _, values in busy]}


def instance_rows(instances):
    """--json's "instances" as the page's table: a row per task that
    completed one, its times in us (not each instance: a long run has
    tens of thousands)."""
    rows = []
    for t in instances["tasks"]:
        if not t["instances"]:
            continue
        most = t["preempted_by"][0] if t["preempted_by"] else None
        rows.append({
            "name": t["name"], "instances": t["instances"],
            "response_mean_us": round(t["response_ns"]["mean"] / 1e3, 1),
            "response_max_us": round(t["response_ns"]["max"] / 1e3, 1),
            "execution_mean_us": round(t["execution_ns"]["mean"] / 1e3, 1),
            "execution_max_us": round(t["execution_ns"]["max"] / 1e3, 1),
            "worst_at_ms": round(t["worst"]["release_ns"] / 1e6, 3),
            "preempted_most_by": most["name"] if most else ""})
    return rows


def heap_chart(series):
    """[ns, bytes] points of the heap, at most about MAX_POINTS: every
    k-th, and the peak's."""
    if len(series) <= MAX_POINTS:
        return series
    step = -(-len(series) // MAX_POINTS)
    peak = max(range(len(series)), key=lambda i: series[i][1])
    return [p for i, p in enumerate(series) if i % step == 0 or i == peak]


def sources(files, cycles=None):
    """{file: {text, lines: {line: executions}, branches: {line: [times
    or None]}, cycles: {line: estimated cycles}}} of coverage's {file:
    FileCoverage} and the annotated functions' {(file, line): cycles}."""
    out = {}
    for file, c in files.items():
        ways = {}
        for (line, _, _), times in sorted(c.branches.items()):
            ways.setdefault(str(line), []).append(times)
        out[file] = {"text": lines.source_text(file),
                     "lines": {str(n): count for n, count in c.lines.items()},
                     "branches": ways,
                     "cycles": {str(n): k for (f, n), k in
                                sorted((cycles or {}).items()) if f == file}}
    return out


def _comment(text):
    return text.replace("*/", "* /")


def _inline(script):
    """A script's text safe inside <script> (no end tag in it)."""
    return script.replace("</script", "<\\/script")


def write(path, result, doc=None, gate_rows=None):
    with open(path, "w") as f:
        f.write(document(result, doc, gate_rows))
