# SPDX-License-Identifier: MIT
"""Build the firmware for a board.

The library, the examples and the test firmware are one Meson build per
board (BUILD/BOARD), shared by every run and built under its lock
(cache.py).  A user's program is compiled in a directory of its own for
each run, with the compiler and flags Meson uses for the bundled
examples, and linked with the board's library: concurrent runs of
different programs never share a file.  Its sources are compiled
through Debian's ccache, with a cache of ours (step.CCACHE): a source
compiled before with the same headers, compiler and flags is not
compiled again (a run of many_functions.c: 2.4 s of it), linking is.
"""

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from perfcounter.build import cache
from perfcounter.target import elf
from perfcounter.build.step import environment, run
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.paths import BUILD, REPO

# What scripts/profile compiles; any other file is an image to boot
SOURCE_SUFFIXES = {".c", ".S", ".s"}

# Built exactly as a user's program: its flags are the ones users get
TEMPLATE_TARGET = "checksum"
# Where the library's headers are; other -I of the template are its own
LIBRARY_INCLUDES = (REPO / "firmware" / "include",
                    REPO / "firmware" / "boards")


def build(board):
    """Build everything for board under its lock; return the build
    directory."""
    builddir = BUILD / board.name
    cache.build(builddir, str(board.cross_file),
                lambda interrupted: _meson_build(board, builddir, interrupted),
                f"the firmware for {board.name}")
    return builddir


def _meson_build(board, builddir, interrupted):
    # Meson neither switches a build directory to another cross file nor
    # notices that its cross file changed: set up again then
    cross_stamp = builddir / ".cross-file"
    cross = f"{board.cross_file}\n{board.cross_file.read_text()}"
    stale = cross_stamp.exists() and cross_stamp.read_text() != cross
    if (interrupted or stale) and builddir.exists():
        import shutil   # (here: not imported by every run)
        shutil.rmtree(builddir)
    if not (builddir / "build.ninja").exists():
        say(f"configuring firmware build for {board.name} in {builddir}")
        # Run in the build directory: Meson's CMake module runs "cmake
        # --system-information", which works in the current directory,
        # where another board's setup would race it
        builddir.mkdir(parents=True, exist_ok=True)
        run(["meson", "setup", str(builddir), str(REPO), "--cross-file",
             str(board.cross_file)], cwd=builddir,
            log=BUILD / f"{board.name}-setup.log")
        cross_stamp.write_text(cross)
    # ninja itself, not "meson compile", which only runs it (and ninja
    # has Meson set up again when a meson.build changed): starting
    # Meson took 0.4 s of every command that builds a program
    run(["ninja", "-C", str(builddir)], cwd=REPO,
        log=BUILD / f"{board.name}-compile.log")


def image(builddir, relpath):
    path = builddir / relpath
    if not path.is_file():
        raise Failure(f"firmware image {path} was not built")
    return path


@dataclass
class AppOptions:
    """How to build a user's program, as compiler options say it."""
    optimization: str = "2"
    defines: list = field(default_factory=list)     # NAME or NAME=VALUE
    includes: list = field(default_factory=list)    # directories
    cflags: list = field(default_factory=list)
    ldflags: list = field(default_factory=list)
    stack_size: int = None      # bytes; None: the cross file's default
    heap_size: int = 0          # bytes the heap must have at least


@dataclass
class Toolchain:
    """The compiler and the flags the library was built with, for
    the user's sources."""
    compiler: list
    cflags: list
    link: list          # the linker driver's flags, the library last

    @classmethod
    def of(cls, builddir):
        """The compiler, flags and library Meson built the template
        program with, from its introspection data."""
        import json     # (here: not imported by every run)
        targets = json.loads(
            (builddir / "meson-info" / "intro-targets.json").read_text())
        for t in targets:
            if t["name"] == TEMPLATE_TARGET and t["type"] == "executable":
                break
        else:
            raise Failure(f"{builddir} has no '{TEMPLATE_TARGET}' target")
        compile_step, link_step = t["target_sources"][:2]
        cflags = [a for a in compile_step["parameters"]
                  if not a.startswith("-I") or
                  Path(a[2:]).is_relative_to(LIBRARY_INCLUDES[0]) or
                  Path(a[2:]).parent == LIBRARY_INCLUDES[1]]
        link = [str(builddir / a) if a.endswith(".a") else a
                for a in link_step["parameters"]]
        return cls(compile_step["compiler"], cflags, link)


def compiler_version(board):
    """The cross compiler the board's programs are built with, as "GCC
    12.2.1" (for what the bench says of its builds)."""
    tools = Toolchain.of(build(board))
    version = subprocess.run(tools.compiler + ["-dumpfullversion"],
                             capture_output=True, text=True).stdout
    return f"GCC {version.strip()}"


def build_app(board, sources, options, workdir):
    """Compile and link sources for board in workdir; return the image.

    The compiler's own messages go straight to the terminal."""
    tools = Toolchain.of(build(board))
    user = [f"-D{d}" for d in options.defines] + \
        [f"-I{Path(i).resolve()}" for i in options.includes]
    objects = []
    for n, source in enumerate(sources):
        obj = workdir / f"{n}-{Path(source).stem}.o"
        _compile(["ccache"] + tools.compiler + user + tools.cflags +
                 [f"-O{options.optimization}"] + options.cflags +
                 ["-c", str(source), "-o", str(obj)],
                 f"compiling {source} failed")
        objects.append(str(obj))
    elf = workdir / "app.elf"
    stack = [f"-Wl,--defsym=__stack_size={options.stack_size:#x}"] \
        if options.stack_size is not None else []
    _compile(tools.compiler + objects + tools.link + stack +
             options.ldflags + ["-o", str(elf)], "linking failed")
    _check_heap(elf, options.heap_size)
    return elf


def _check_heap(path, wanted):
    """The heap is what RAM has left between the program's data and
    its stack (picolibc.ld): refuse a program that leaves less."""
    symbols = elf.read(path).symbols
    try:
        heap = symbols["__stack"] - symbols["__stack_size"] - \
            symbols["__bss_end"]
    except KeyError as missing:
        if wanted:
            raise Failure(f"cannot check --heap-size: the image has no "
                          f"symbol {missing} (another linker script?)")
        return
    if heap < wanted:
        raise Failure(f"the heap would have {heap} bytes, less than the "
                      f"{wanted} bytes of --heap-size: shrink --stack-size "
                      f"or the program's static data")


def _compile(cmd, failed):
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True,
                          errors="replace", env=environment())
    sys.stderr.write(proc.stderr)
    sys.stderr.flush()
    if proc.returncode != 0:
        raise Failure(f"{failed}: the compiler's messages are above"
                      + _instance_hint(proc.stderr))


def _instance_hint(messages):
    """What to do about a base address the program names and system.h
    does not: a Nios II system's own instance name, most likely."""
    names = sorted(set(re.findall(r"[‘'](\w+_BASE)[’'] undeclared",
                                  messages)))
    if not names:
        return ""
    maps = " ".join(f"-D {n}=PERFORMANCE_COUNTER_BASE" for n in names)
    return (f"; if {', '.join(names)} is the instance name of the "
            f"performance counter in your Nios II system, map it to the "
            f"board's: {maps} (docs/porting-from-nios2.md)")
