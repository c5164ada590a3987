# SPDX-License-Identifier: MIT
"""The board's stock GNU gprof, from Debian's cross binutils."""

import os
import subprocess

from perfcounter import apart
from perfcounter.errors import Failure
from perfcounter.paths import CACHE, trim
from perfcounter.target import disassembly

# Copies of images for the flat profile, by the image's SHA-256: the
# ones used last, up to KEPT_BYTES (an image built at each commit makes
# one each; the test suite's 566 images make 16 MB)
IMAGES = CACHE / "gprof-images"
KEPT_BYTES = 256 << 20
# What the copy leaves out: the DWARF, and the mapping symbols that mark
# code and data ($t, $d; RISC-V's $x with its ISA string), which gprof
# reads and then ignores (the full FreeRTOS demo: 1,324 of 2,893
# symbols; each flat profile 7.0 -> 5.3 ms of gprof)
LEFT_OUT = ["-R", ".debug_*", "--wildcard", "-N", "$[adtx]",
            "-N", "$[adtx].*", "-N", "$xrv*"]


def tool(board):
    return disassembly.tool(board, "gprof")


def start(target, gmon, *options):
    """Start gprof on target's image and gmon with options (e.g. -p,
    -q) and return at once: calling what it returns waits for gprof's
    output.  (It takes 15 to 30 ms, mostly starting: the analyses of a
    run go on meanwhile.)"""
    image = flat_profile_image(target) if options == ("-p",) else target.path
    cmd = [tool(target.board), "-b", *options, str(image), str(gmon)]
    proc = apart.start(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)

    def output():
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise Failure(f"{' '.join(cmd)} failed: " +
                          (err.strip() or apart.ended(proc.returncode)))
        return out
    return output


def run(target, gmon, *options):
    """gprof's output for target's image and gmon with options."""
    return start(target, gmon, *options)()


def flat_profile_image(target):
    """A copy of target's image without its DWARF and its mapping
    symbols (LEFT_OUT; made once per image, kept in the cache), for the
    flat profile: gprof looks each function up in the DWARF for its
    source file, half of each run on FreeRTOS's full demo (102 per-task
    flat profiles 2.13 -> 1.16 s), and the flat profile never prints
    that file (the call graph's index does, for a static function: it
    reads the image itself). target's own image if the copy cannot be
    made."""
    # (.flat: the copies named SHA.elf kept the mapping symbols)
    copy = IMAGES / f"{target.elf.sha256}.flat.elf"
    try:
        os.utime(copy)      # (the ones used last are kept)
        return copy
    except OSError:
        pass                # none yet (or a cache it cannot touch)
    made = copy.with_name(f"{copy.name}.{os.getpid()}")
    try:
        IMAGES.mkdir(parents=True, exist_ok=True)
        proc = apart.run([disassembly.tool(target.board, "objcopy"),
                          *LEFT_OUT, str(target.path), str(made)])
        if proc.returncode != 0:
            return target.path
        os.replace(made, copy)
        trim(IMAGES, "*.elf", KEPT_BYTES)
    except (OSError, Failure):
        return target.path
    finally:
        made.unlink(missing_ok=True)
    return copy
