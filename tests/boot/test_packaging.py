# SPDX-License-Identifier: MIT
"""The library in a user's own build, outside this tree, on every board:
installed by `meson install` and found through pkg-config (a plain
Makefile) or as a CMake package (find_package, the board's toolchain
file), or built as a Meson subproject.  Each route builds its project of
examples/external/, copied to a temporary directory, and boots the
program it made.  The prefix is moved after installing, as every path
in it is relative."""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import bootlib
from bootlib import expect_exit
from perfcounter.build import step
from perfcounter.paths import REPO

PER_BOARD = True
EXAMPLES = REPO / "examples" / "external"
HEADERS = REPO / "firmware" / "include"

# The examples' one section, in the HAL's report: clocks, occurrences
SUM_ROW = re.compile(
    r"^\|sum_to +\| *[0-9.e+-]+\| *[0-9.]+\| +(\d+)\| +(\d+)\|$", re.M)


def run(cmd, cwd, env=None):
    # (with the project's ccache: Meson wraps the build machine's
    # compiler in one when it finds it, and the tests leave the user's
    # ~/.cache/ccache alone)
    env = dict(env or os.environ, **step.CCACHE)
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace", timeout=300)
    assert proc.returncode == 0, (
        f"{' '.join(str(c) for c in cmd)} failed ({proc.returncode}):\n"
        + (proc.stdout + proc.stderr)[-3000:])
    return proc


class Install:
    """The library installed for one board, then moved."""

    def __init__(self, board):
        self._tmp = tempfile.TemporaryDirectory(prefix="perf-counter-pkg-")
        root = Path(self._tmp.name)
        self.installed_at = root / "installed-here"
        build = root / "build"
        run(["meson", "setup", build, REPO, "--cross-file",
             board.cross_file, "--prefix", self.installed_at], cwd=root)
        run(["meson", "install", "-C", build], cwd=root)
        self.prefix = root / "moved-there"
        self.installed_at.rename(self.prefix)

    def files(self):
        return {str(p.relative_to(self.prefix))
                for p in self.prefix.rglob("*") if p.is_file()}


def installed(ctx, board):
    """The board's install, made once per run."""
    key = ("packaging", board.name)
    if key not in ctx.cache:
        ctx.cache[key] = Install(board)
    return ctx.cache[key]


def copy_example(name, tmp):
    dest = Path(tmp) / name
    shutil.copytree(EXAMPLES / name, dest)
    return dest


def expect_report(ctx, board, image):
    assert image.is_file(), f"{image} was not built"
    result = bootlib.run(ctx, board, image)
    expect_exit(result)
    assert "sum of 1..1000: 500500" in result.output, result.output
    row = SUM_ROW.search(result.output)
    assert row, "the report has no sum_to row:\n" + result.output
    clocks, occurrences = int(row[1]), int(row[2])
    # 1000 iterations of at least one instruction each
    assert clocks >= 1000 and occurrences == 1, result.output


def test_install_lays_out_the_documented_files(ctx, board):
    b = board.name
    expected = {f"include/perf-counter/{p.relative_to(HEADERS)}"
                for p in HEADERS.rglob("*.h")} | {
        f"include/perf-counter/{b}/system.h",
        f"lib/perf-counter/{b}/libperfcounter.a",
        f"lib/perf-counter/{b}/picolibc-stack.ld",
        f"lib/perf-counter/{b}/toolchain.cmake",
        f"lib/pkgconfig/perf-counter-{b}.pc",
        "lib/cmake/perf-counter/perf-counterConfig.cmake",
        "lib/cmake/perf-counter/perf-counterConfigVersion.cmake",
        f"lib/cmake/perf-counter/perf-counter-{b}.cmake",
    }
    files = installed(ctx, board).files()
    assert files == expected, (f"not installed: {sorted(expected - files)}; "
                               f"not expected: {sorted(files - expected)}")


def test_installed_files_name_no_absolute_path(ctx, board):
    """Neither the prefix it was installed to nor the source tree: the
    installed files find each other relatively."""
    inst = installed(ctx, board)
    for path in inst.prefix.rglob("*"):
        if not path.is_file() or path.suffix == ".a":
            continue
        text = path.read_text(errors="replace")
        for absolute in [str(inst.installed_at), str(REPO)]:
            assert absolute not in text, f"{path.name} names {absolute}"


def test_pkg_config_makefile_builds_a_program_that_boots(ctx, board):
    prefix = installed(ctx, board).prefix
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_example("pkg-config-make", tmp)
        run(["make", f"BOARD={board.name}",
             f"PKG_CONFIG_PATH={prefix / 'lib' / 'pkgconfig'}"], cwd=project)
        expect_report(ctx, board, project / "app.elf")


def test_cmake_package_builds_a_program_that_boots(ctx, board):
    toolchain = installed(ctx, board).prefix / "lib" / "perf-counter" / \
        board.name / "toolchain.cmake"
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_example("cmake", tmp)
        run(["cmake", "-S", project, "-B", project / "build",
             f"-DCMAKE_TOOLCHAIN_FILE={toolchain}"], cwd=project)
        run(["cmake", "--build", project / "build"], cwd=project)
        expect_report(ctx, board, project / "build" / "app.elf")


def test_meson_subproject_builds_a_program_that_boots(ctx, board):
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_example("meson-subproject", tmp)
        (project / "subprojects").mkdir()
        (project / "subprojects" / "perf-counter").symlink_to(REPO)
        cross = Path("subprojects", "perf-counter", "firmware", "boards",
                     f"{board.name}.ini")
        run(["meson", "setup", "build", "--cross-file", cross], cwd=project)
        run(["meson", "compile", "-C", "build"], cwd=project)
        expect_report(ctx, board, project / "build" / "app.elf")
