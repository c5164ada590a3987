# SPDX-License-Identifier: MIT
"""What a command reads of an image, and of the plugin's results, fast
and never wrong: an image's symbols, layout and source lines are kept
by its content, the next command restores them without pyelftools, a
cache it cannot trust is read again; the plugin's records come as
binary blocks, and a block cut short is an error that says so."""

import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from bootlib import run_image
from perfcounter.boot.config import RunConfig
from perfcounter.build import firmware
from perfcounter.errors import Failure
from perfcounter.paths import REPO
from perfcounter.results import plugin_results
from perfcounter.target import image_cache

TASKS = "tests/firmware/tasks.elf"

# Reads the image in a fresh process: what it found, and whether it
# needed pyelftools
READ = """
import hashlib, json, sys
from perfcounter.target import elf, rtos
image = elf.read(sys.argv[1])
found = {"machine": image.machine, "entry": image.entry,
         "segments": [(s.addr, s.size, s.executable, s.vaddr,
                       hashlib.sha256(s.data).hexdigest())
                      for s in image.segments],
         "functions": image.functions, "symbols": image.symbols,
         "objects": image.objects, "routines": sorted(image.routines),
         "current": rtos.layout(image).current}
print(json.dumps({"found": found,
                  "pyelftools": "elftools" in sys.modules}))
"""


def in_a_process(script, image, cache, env=None):
    env = dict(os.environ, PERF_COUNTER_CACHE=str(cache),
               PYTHONPATH=str(REPO / "scripts" / "lib"), **(env or {}))
    out = subprocess.run([sys.executable, "-c", script, str(image)],
                         env=env, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def read_in_a_process(image, cache):
    return in_a_process(READ, image, cache)


def test_the_next_command_restores_the_image_without_pyelftools(
        ctx, board, tmp_path):
    image = ctx.firmware(board, TASKS)
    first = read_in_a_process(image, tmp_path)
    second = read_in_a_process(image, tmp_path)
    assert first["pyelftools"] and not second["pyelftools"]
    assert second["found"] == first["found"]
    assert first["found"]["functions"] and first["found"]["current"]


# Reads the image's source lines in a fresh process: what it found, and
# whether it needed pyelftools
LINES = """
import json, sys
from perfcounter.target import lines
table = lines.read(sys.argv[1])
print(json.dumps({"rows": table.rows,
                  "functions": [[*k, *v] for k, v in table.functions.items()],
                  "pyelftools": "elftools" in sys.modules}))
"""

# A function whose opening brace is a line of its own: its first row is
# counted on its declaration's line alone, as gcov does
BRACES = """\
int twice(int x)
{
    return 2 * x;
}

int main(void)
{
    return twice(21) - 42;
}
"""


def lines_in_a_process(image, cache):
    return in_a_process(LINES, image, cache)


def test_the_next_command_reads_the_source_lines_without_pyelftools(
        board, tmp_path):
    """--firmware-coverage read the image's DWARF line table again for
    each test (0.3 to 1 s of each); it is kept by the image's content,
    and the sources it names are read each time: one edited since the
    image was built counts its lines as edited."""
    source = tmp_path / "braces.c"
    source.write_text(BRACES)
    image = firmware.build_app(board, [source],
                               firmware.AppOptions(optimization="0"),
                               tmp_path)
    first = lines_in_a_process(image, tmp_path / "cache")
    second = lines_in_a_process(image, tmp_path / "cache")
    assert first["pyelftools"] and not second["pyelftools"]
    assert second == dict(first, pyelftools=False)
    assert [str(source), "twice", 1] in \
        [f[:3] for f in first["functions"]]

    def lines_of_twice(found):
        return sorted({line for _, _, file, line in found["rows"]
                       if file == str(source) and line < 5})
    assert lines_of_twice(first) == [1, 3, 4]
    source.write_text(BRACES.replace("{\n", "{  /* opened */\n", 1))
    edited = lines_in_a_process(image, tmp_path / "cache")
    assert not edited["pyelftools"]
    assert lines_of_twice(edited) == [1, 2, 3, 4]
    for damage in ("not JSON", '{"lines-1": {"rows": 5}}',
                   '{"lines-1": {"files": [], "rows": [[1, 2, 0, 3, null]],'
                   ' "functions": []}}'):
        for kept in (tmp_path / "cache" / "images").glob("*-lines.json"):
            kept.write_text(damage)
        again = lines_in_a_process(image, tmp_path / "cache")
        assert again == dict(edited, pyelftools=True), damage


# Its conditional branches, in a fresh process
BRANCHES = """
import json, sys
from perfcounter import boards
from perfcounter.target import Target
target = Target(sys.argv[1], boards.get(boards.DEFAULT_BOARD))
print(json.dumps(target.conditional_branches))
"""


def test_the_next_command_finds_the_branches_without_objdump(
        ctx, board, tmp_path):
    """Coverage's branch records list every conditional branch of the
    image, which objdump found for each test of --firmware-coverage (20
    to 130 ms each): kept by the image's content, the next command needs
    no objdump."""
    image = ctx.firmware(board, TASKS)
    first = in_a_process(BRANCHES, image, tmp_path)
    without_tools = {"PATH": str(tmp_path / "no-tools")}
    second = in_a_process(BRANCHES, image, tmp_path, without_tools)
    assert first and second == first


def test_an_image_rewritten_at_once_is_hashed_again(tmp_path, monkeypatch):
    monkeypatch.setattr(image_cache, "DIGESTS", tmp_path / "digests")
    image = tmp_path / "app.elf"
    for content in (b"first" * 100, b"other" * 100):
        image.write_bytes(content)          # the same inode, size, tick
        assert image_cache.content(image) == \
            (content, hashlib.sha256(content).hexdigest())


def test_the_digest_of_a_file_not_just_written_is_kept(tmp_path,
                                                       monkeypatch):
    monkeypatch.setattr(image_cache, "DIGESTS", tmp_path / "digests")
    monkeypatch.setattr(image_cache, "RACY_NS", -1 << 62)   # all old
    image = tmp_path / "app.elf"
    image.write_bytes(b"image" * 100)
    _, sha = image_cache.content(image)
    kept, = (tmp_path / "digests").iterdir()
    assert kept.read_text() == sha
    kept.write_text("f" * 64)       # read back, not hashed again
    assert image_cache.content(image)[1] == "f" * 64


def test_the_cache_keeps_the_images_used_last_to_its_bytes(tmp_path,
                                                           monkeypatch):
    """One file per image, each build of one a new one: the ones used
    last are kept, to KEPT_BYTES on disk, trimmed once a day at most."""
    monkeypatch.setattr(image_cache, "DIR", tmp_path / "images")
    monkeypatch.setattr(image_cache, "DIGESTS", tmp_path / "digests")
    monkeypatch.setattr(image_cache, "TRIM_EVERY_SECONDS", -1)  # always
    value = "x" * 10_000
    for sha in ("a", "b"):
        image_cache.put(sha, "symbols", value)
    a, b = (image_cache._path(sha) for sha in ("a", "b"))
    made = b.stat().st_mtime_ns
    os.utime(a, ns=(made - 10**9, made - 10**9))    # made before
    assert image_cache.get("a", "symbols") == value     # used again
    assert a.stat().st_mtime_ns > made
    on_disk = a.stat().st_blocks * 512
    monkeypatch.setattr(image_cache, "KEPT_BYTES", 2 * on_disk)
    image_cache.put("c", "symbols", value)
    assert a.exists() and image_cache._path("c").exists()
    assert not b.exists()
    # not trimmed again within the day
    monkeypatch.setattr(image_cache, "TRIM_EVERY_SECONDS", 3600)
    monkeypatch.setattr(image_cache, "KEPT_BYTES", 0)
    image_cache.put("d", "symbols", value)
    assert a.exists() and image_cache._path("d").exists()


def test_the_digests_used_last_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(image_cache, "DIR", tmp_path / "images")
    monkeypatch.setattr(image_cache, "DIGESTS", tmp_path / "digests")
    monkeypatch.setattr(image_cache, "RACY_NS", -1 << 62)   # all old
    monkeypatch.setattr(image_cache, "TRIM_EVERY_SECONDS", -1)
    images = [tmp_path / f"app{k}.elf" for k in range(3)]
    for k, image in enumerate(images):
        image.write_bytes(b"image" * 100 + bytes([k]))
        image_cache.content(image)
    digests = sorted((tmp_path / "digests").iterdir(),
                     key=lambda p: p.stat().st_mtime_ns)
    for age, digest in enumerate(reversed(digests)):    # the first oldest
        os.utime(digest, ns=(10**18 - age * 10**9,) * 2)
    image_cache.content(images[0])      # its digest used again
    block = digests[0].stat().st_blocks * 512
    monkeypatch.setattr(image_cache, "DIGESTS_KEPT_BYTES", 2 * block)
    image_cache.put("a", "symbols", [])
    assert [d.exists() for d in digests] == [True, False, True]


@pytest.mark.parametrize("damage", [
    "not JSON", "[1, 2]", json.dumps({"layout": {"segments": 5},
                                      "symbols": {"symbols": []}}),
    json.dumps({"layout": {"machine": "Arm"}, "symbols": None})])
def test_a_cache_it_cannot_trust_is_read_again(ctx, board, tmp_path,
                                               damage):
    image = ctx.firmware(board, TASKS)
    fresh = read_in_a_process(image, tmp_path / "fresh")
    read_in_a_process(image, tmp_path / "damaged")
    digests = tmp_path / "damaged" / "image-digests"
    for kept in [*(tmp_path / "damaged" / "images").iterdir(),
                 *(digests.iterdir() if digests.exists() else [])]:
        kept.write_text(damage)
    again = read_in_a_process(image, tmp_path / "damaged")
    assert again["pyelftools"]
    assert again["found"] == fresh["found"]


def test_the_records_blocks_and_one_cut_short(ctx, board, tmp_path,
                                              monkeypatch):
    kept = tmp_path / "plugin-results.txt"
    read = plugin_results.read

    def keep(path, streamed=None):
        shutil.copy(path, kept)
        return read(path, streamed)
    monkeypatch.setattr(plugin_results, "read", keep)
    # (no stream=: the records are in the results file, not only there)
    monkeypatch.setattr(RunConfig, "analysed_during_run", False)
    result = run_image(ctx, board, TASKS, profile=1000)
    profile = result.plugin
    assert profile.switches and profile.stores and profile.probes
    # the file holds them as blocks, read back as the run read them
    data = kept.read_bytes()
    for tag, got in (("switch", profile.switches),
                     ("store", profile.stores), ("probe", profile.probes)):
        assert f"\nrecords {tag} {len(got)} ".encode() in data
    assert read(kept) == profile
    # one byte short of its switches' block
    at = data.index(b"\nrecords switch ")
    end = data.index(b"\n", at + 1) + 1
    size = len(profile.switches) * 8 * len(profile.switches[0])
    kept.write_bytes(data[:end + size - 1])
    with pytest.raises(Failure, match="cut short in its switch records"):
        read(kept)
