# SPDX-License-Identifier: MIT
"""Obtain Debian's QEMU source, lay qemu-device/ into it and build it.

The build is cached in CACHE/qemu/<version>/ (a fixed path: QEMU's build
tree records absolute ones) and published with a key made of the
configure options and every file of qemu-device/ (cache.py: concurrent
runs build it once, an interrupted build is not trusted). Nothing is
rebuilt while the key matches; a change to qemu-device/ rebuilds
incrementally, new configure options or a new QEMU version from scratch.
"""

import os
import re
import subprocess
import time
import zlib

from perfcounter.build import cache
from perfcounter.build.step import run
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.paths import CACHE, REPO

DEVICE_DIR = REPO / "qemu-device"
SUPPORTED = re.compile(r"10\.0\.\d+$")
ARCHES = ["arm", "aarch64", "riscv32"]
TARGETS = [f"{arch}-softmmu" for arch in ARCHES]
BINARIES = [f"qemu-system-{arch}" for arch in ARCHES]
# Ours, and QEMU's own generic checks that every device type must pass
QTESTS = ["tests/qtest/perf-counter-test",
          "tests/qtest/perf-counter-irq-test", "tests/qtest/armv7m-dwt-test",
          "tests/qtest/device-introspect-test", "tests/qtest/qom-test"]
# The qtests of one target's devices only
QTEST_ARCHES = {"tests/qtest/armv7m-dwt-test": ["arm"]}
MINIMAL = [
    "--without-default-features", "--without-default-devices",
    "--with-devices-arm=perf-counter", "--with-devices-aarch64=perf-counter",
    "--with-devices-riscv32=perf-counter",
    "--disable-docs", "--disable-werror", "--disable-install-blobs",
    "--python=/usr/bin/python3", "--enable-fdt=system",
]
# The profiler and event counters are a TCG plugin (qemu-device/contrib/)
CONFIGURE = ["--target-list=" + ",".join(TARGETS), "--enable-plugins"] \
    + MINIMAL
PLUGIN = "contrib/plugins/perfctr/libperfctr.so"
# QEMU's own, for comparison in scripts/bench
HOTBLOCKS = "contrib/plugins/libhotblocks.so"
# The fuzzing build: Arm only, clang with libFuzzer, ASan and UBSan
FUZZ_CONFIGURE = ["--cc=clang", "--cxx=clang++", "--enable-fuzzing",
                  "--enable-asan", "--enable-ubsan",
                  "--target-list=arm-softmmu"] + MINIMAL
FUZZER = "qemu-fuzz-arm"


class Qemu:
    """A built QEMU: where its binaries, build and source trees are."""

    def __init__(self, root):
        self.root = root
        self.src = root / "src"
        self.build = root / "build"

    def binary(self, arch):
        return self.build / f"qemu-system-{arch}"

    @property
    def plugin(self):
        return self.build / PLUGIN

    @property
    def fuzzer(self):
        return self.root / "build-fuzz" / FUZZER

    def record_build_time(self, seconds):
        """Remember how long the build from scratch took, for scripts/bench."""
        (self.root / ".build-seconds").write_text(f"{seconds:.1f}\n")

    def build_time(self):
        path = self.root / ".build-seconds"
        return float(path.read_text()) if path.exists() else None


SOURCE_PACKAGE = "qemu/trixie"


def source_tree():
    """Debian trixie's qemu source package, unpacked once into the cache."""
    top = CACHE / "qemu-source"
    cache.ensure(top, SOURCE_PACKAGE, lambda _: _download_source(top),
                 "Debian's QEMU source")
    return unpacked_source(top)


def _download_source(top):
    import shutil   # (a build's: not imported by every run)
    say(f"downloading Debian's QEMU source package "
        f"(apt-get source {SOURCE_PACKAGE})")
    if top.exists():
        shutil.rmtree(top)
    top.mkdir(parents=True)
    run(["apt-get", "source", "-q", SOURCE_PACKAGE], cwd=top,
        log=top / "apt-get-source.log")
    unpacked_source(top)


def unpacked_source(top):
    trees = [p for p in top.glob("qemu-*") if p.is_dir()]
    if len(trees) != 1:
        raise Failure(f"expected one unpacked QEMU tree in {top}, found "
                      f"{[p.name for p in trees]}")
    return trees[0]


def check_version(src):
    version = (src / "VERSION").read_text().strip()
    if not SUPPORTED.match(version):
        raise Failure(
            f"Debian's QEMU source is version {version}, but qemu-device/ "
            f"was written for QEMU 10.0.x; its patches and device code may "
            f"not fit. Port qemu-device/ and update SUPPORTED in {__file__}.")
    return version


def digest(paths_and_data):
    import hashlib                      # (3 ms: only when files changed)
    h = hashlib.sha256()
    for item in paths_and_data:
        h.update(item + b"\0")
    return h.hexdigest()[:12]


def _device_files():
    """[(path relative to qemu-device/, os.stat_result)], sorted (with
    scandir's entries: os.walk's path arithmetic took 0.6 ms of every
    command)"""
    found = []

    def walk(path, rel):
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.is_dir():
                    walk(entry.path, rel + entry.name + "/")
                else:
                    found.append((rel + entry.name, entry.stat()))
    walk(DEVICE_DIR, "")
    return sorted(found)


def build_key(options):
    """What a build is made from: every file in qemu-device/, and the
    configure options.  Hashed again only when some file's size or
    modification time changed since the last time (kept in the cache):
    reading and hashing them took 4 ms of every command."""
    files = _device_files()
    configured = " ".join(options)
    signature = "\n".join([configured] + [
        f"{rel} {st.st_size} {st.st_mtime_ns}" for rel, st in files])
    # (one per set of options: the main build's, the fuzzing build's)
    named = f"qemu-{zlib.crc32(configured.encode()):08x}"
    kept = CACHE / "build-keys" / named
    try:
        key, was = kept.read_text().split("\n", 1)
        if was == signature:
            return key
    except (OSError, ValueError):
        pass
    items = [configured.encode()]
    for rel, _ in files:
        items += [rel.encode(), (DEVICE_DIR / rel).read_bytes()]
    key = digest(items)
    try:
        cache.publish_text(kept, f"{key}\n{signature}")
    except OSError:
        pass
    return key


def patched_files(patch):
    return re.findall(r"^\+\+\+ b/(\S+)", patch.read_text(), re.M)


def lay_device_into(src, pristine):
    """Copy our files into the QEMU tree and apply our patches to it.

    Files laid in by an earlier version of qemu-device/ are first put
    back as they are in pristine, so that the tree can be rebuilt
    incrementally.  Returns the files touched, for the next time.
    """
    import shutil   # (a build's: not imported by every run)
    record = src / ".perf-counter-files"
    if record.exists():
        for rel in record.read_text().split():
            if (pristine / rel).exists():
                shutil.copyfile(pristine / rel, src / rel)
            else:
                (src / rel).unlink(missing_ok=True)
    touched = []
    for path in sorted(DEVICE_DIR.rglob("*")):
        rel = path.relative_to(DEVICE_DIR)
        if path.is_dir() or rel.parts[0] == "patches":
            continue
        dest = src / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
        touched.append(str(rel))
    for patch in sorted((DEVICE_DIR / "patches").glob("*.patch")):
        touched += patched_files(patch)
        record.write_text("\n".join(touched) + "\n")
        result = subprocess.run(
            ["patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch",
             "-i", str(patch)], cwd=src, capture_output=True, text=True)
        if result.returncode != 0:
            raise Failure(f"{patch.name} does not apply to this QEMU source:"
                          f"\n{result.stdout}{result.stderr}"
                          f"Refresh it against {pristine}.")
    record.write_text("\n".join(touched) + "\n")


def ninja_progress(label):
    """A progress callback that prints ninja's [n/N] every 10 percent."""
    shown = [-1]

    def progress(line):
        m = re.match(r"\[(\d+)/(\d+)\]", line)
        if m:
            done, total = int(m.group(1)), int(m.group(2))
            tenth = done * 10 // total
            if tenth > shown[0]:
                shown[0] = tenth
                say(f"{label}: {done}/{total} ({tenth * 10}%)")
    return progress


def _current(stamp, value):
    return stamp.exists() and stamp.read_text() == value


def ensure_built(qtests=False):
    """Return a Qemu with our device built in, building it if needed;
    with qtests, QEMU's qtest programs too (scripts/test wants them,
    a boot does not).

    One run builds while the others wait (see cache.py).  A change to
    qemu-device/ rebuilds incrementally in the same tree; a new QEMU
    version or new configure options build from scratch.  A build that
    was interrupted is resumed safely: the source copy and configure
    are redone unless their stamps say they finished, and ninja redoes
    every step whose completion it did not record.
    """
    pristine = source_tree()
    version = check_version(pristine)
    # The path is fixed: QEMU's build tree records absolute paths
    root = CACHE / "qemu" / version
    qemu = Qemu(root)
    key = build_key(CONFIGURE)
    cache.ensure(root, key, lambda _: _build(qemu, pristine, version),
                 f"QEMU {version}")
    if qtests:
        cache.ensure(root / "qtests", key,
                     lambda _: _compile(qemu, QTESTS, "compiling qtests"),
                     "QEMU's qtests", lock=root)
    return qemu


def _build(qemu, pristine, version):
    import shutil   # (a build's: not imported by every run)
    start = time.monotonic()
    root = qemu.root
    root.parent.mkdir(parents=True, exist_ok=True)
    for old in root.parent.iterdir():
        if old.name != version and not old.name.startswith(version + "."):
            say(f"removing QEMU build for another version: {old}")
            if old.is_dir():
                shutil.rmtree(old)
            else:
                old.unlink()
    from_scratch = not _current(root / ".configure-options",
                                "\n".join(CONFIGURE))
    if from_scratch:
        if root.exists():
            shutil.rmtree(root)
        say(f"building QEMU {version} with perf-counter "
            f"(once; about 5 minutes on 2 cores) in {root}")
        say("copying source tree")
        shutil.copytree(pristine, qemu.src, symlinks=True)
        qemu.build.mkdir()
    else:
        say("qemu-device/ changed, or the last build did not finish: "
            "building QEMU incrementally")
    lay_device_into(qemu.src, pristine)
    _configure(qemu.src, qemu.build, root, CONFIGURE)
    _compile(qemu, BINARIES + [PLUGIN, HOTBLOCKS], "compiling")
    if from_scratch:
        qemu.record_build_time(time.monotonic() - start)
    say(f"QEMU ready ({time.monotonic() - start:.0f} s)")


def _configure(src, builddir, logdir, options):
    """Configure builddir with options unless the stamp in logdir says
    it already is."""
    configured = logdir / ".configure-options"
    if not _current(configured, "\n".join(options)):
        say("configuring")
        configured.unlink(missing_ok=True)
        run([str(src / "configure")] + options, cwd=builddir,
            log=logdir / "configure.log")
        configured.write_text("\n".join(options))


def _compile(qemu, targets, label, builddir=None):
    builddir = builddir or qemu.build
    run(["ninja"] + targets, cwd=builddir,
        log=builddir.parent / f"ninja-{builddir.name}.log",
        progress=ninja_progress(label))


def ensure_fuzzer_built():
    """Return a Qemu whose fuzzer binary is built, building it if needed.

    The fuzzing build shares the source tree of the main build.
    """
    qemu = ensure_built()
    builddir = qemu.fuzzer.parent
    cache.ensure(builddir, build_key(FUZZ_CONFIGURE),
                 lambda _: _build_fuzzer(qemu, builddir), "QEMU's fuzzer")
    return qemu


def _build_fuzzer(qemu, builddir):
    import shutil   # (a build's: not imported by every run)
    start = time.monotonic()
    if not _current(builddir / ".configure-options",
                    "\n".join(FUZZ_CONFIGURE)):
        if builddir.exists():
            shutil.rmtree(builddir)
        builddir.mkdir()
        say("building QEMU's fuzzer with clang, libFuzzer, ASan and UBSan "
            "(once; about 5 minutes on 2 cores)")
    _configure(qemu.src, builddir, builddir, FUZZ_CONFIGURE)
    _compile(qemu, [FUZZER], "compiling fuzzer", builddir)
    say(f"fuzzer ready ({time.monotonic() - start:.0f} s)")
