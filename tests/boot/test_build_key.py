# SPDX-License-Identifier: MIT
"""QEMU is rebuilt when, and only when, what it is built from changes:
every file under qemu-device/ (its path, its content) and the configure
options. The key is hashed again only when a file's size or time
changed, so the check costs every command little."""

import os

from perfcounter.build import qemu


def key_of(monkeypatch, tree, cache, options=("--enable-plugins",)):
    monkeypatch.setattr(qemu, "DEVICE_DIR", tree)
    monkeypatch.setattr(qemu, "CACHE", cache)
    return qemu.build_key(list(options))


def test_the_build_key_follows_every_file_under_qemu_device(
        ctx, board, tmp_path, monkeypatch):
    tree = tmp_path / "qemu-device"
    cache = tmp_path / "cache"
    (tree / "hw" / "misc").mkdir(parents=True)
    (tree / "hw" / "misc" / "perf-counter.c").write_text("int a;\n")
    (tree / "meson.build").write_text("# top\n")
    first = key_of(monkeypatch, tree, cache)
    assert first == key_of(monkeypatch, tree, cache)

    # a file's content changed, its size the same (its time moved on)
    source = tree / "hw" / "misc" / "perf-counter.c"
    source.write_text("int b;\n")
    st = source.stat()
    os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    edited = key_of(monkeypatch, tree, cache)
    assert edited != first

    # a file added two levels down
    (tree / "hw" / "misc" / "new.h").write_text("#define X 1\n")
    added = key_of(monkeypatch, tree, cache)
    assert added not in (first, edited)

    # the same files, other configure options
    assert key_of(monkeypatch, tree, cache, ("--enable-plugins", "-x")) \
        != added
    # a file's path is part of the key: the same content moved elsewhere
    (tree / "hw" / "misc" / "new.h").rename(tree / "new.h")
    assert key_of(monkeypatch, tree, cache) not in (first, edited, added)
