# SPDX-License-Identifier: MIT
"""Build the firmware (library, examples, test firmware, user programs)
for a board with Meson, one build directory per board."""

import shutil
from pathlib import Path

from common import BUILD, REPO, Failure, run, say


def build(board, app_sources=(), optimization="2"):
    """Build everything for board; return the build directory.

    With app_sources, build them as the program 'app.elf' in a build
    directory of their own, at the given optimization level.
    """
    sources = [str(Path(s).resolve()) for s in app_sources]
    for s in sources:
        if not Path(s).is_file():
            raise Failure(f"no such source file: {s}")
    name = board.name + ("-app" if sources else "")
    builddir = BUILD / name
    options = [f"-Dapp={','.join(sources)}", f"-Doptimization={optimization}"]
    # Meson cannot switch a build directory to another cross file
    cross_stamp = builddir / ".cross-file"
    if cross_stamp.exists() and cross_stamp.read_text() != str(
            board.cross_file):
        shutil.rmtree(builddir)
    options_stamp = builddir / ".options"
    if not (builddir / "build.ninja").exists():
        say(f"configuring firmware build for {board.name} in {builddir}")
        run(["meson", "setup", str(builddir), "--cross-file",
             str(board.cross_file)] + options, cwd=REPO,
            log=BUILD / f"{name}-setup.log")
        cross_stamp.write_text(str(board.cross_file))
    elif not options_stamp.exists() or options_stamp.read_text() != str(
            options):
        run(["meson", "configure", str(builddir)] + options, cwd=REPO,
            log=BUILD / f"{name}-configure.log")
    options_stamp.write_text(str(options))
    run(["meson", "compile", "-C", str(builddir)], cwd=REPO,
        log=BUILD / f"{name}-compile.log")
    return builddir


def image(builddir, relpath):
    path = builddir / relpath
    if not path.is_file():
        raise Failure(f"firmware image {path} was not built")
    return path
