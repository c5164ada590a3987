# SPDX-License-Identifier: MIT
"""scripts/profile: build, boot and print a performance counter report."""

import argparse
import sys
from pathlib import Path

import boards
import boot
import firmware
import qemu
from common import Failure, main_guard, say

EXAMPLES = ["checksum", "two_cores"]
SOURCE_SUFFIXES = {".c", ".S", ".s"}


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="scripts/profile",
        description="Boot firmware on an emulated board with the "
        "performance counter core attached, headless, and print what the "
        "guest prints (its performance counter report). Exits with the "
        "guest's exit code. Without files, runs the bundled checksum "
        "example. The first run installs packages and builds QEMU.",
        epilog="Counts are exact and repeatable: QEMU runs with -icount so "
        "that one clock is one retired instruction (see docs/).")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="C or assembly sources to compile with the library "
                   "for the board, or one ELF image to boot as it is")
    p.add_argument("--board", default=boards.DEFAULT_BOARD,
                   help="board to boot (default: %(default)s); see "
                   "--list-boards")
    p.add_argument("--example", choices=EXAMPLES, default=EXAMPLES[0],
                   help="bundled example to run when no FILE is given: "
                   "checksum (the AN 391 tutorial) or two_cores (two "
                   "counter cores on one board); default: %(default)s")
    p.add_argument("--list-boards", action="store_true",
                   help="list the boards with their CPU and counter clock, "
                   "then exit")
    p.add_argument("--timeout", type=float, default=boot.DEFAULT_TIMEOUT,
                   metavar="SECONDS",
                   help="stop a guest that has not exited after this many "
                   "host seconds, and exit with 124 (default: %(default)s)")
    p.add_argument("-O", "--optimization", default="2",
                   choices=["0", "g", "1", "2", "3", "s"],
                   help="optimization level for your sources "
                   "(default: %(default)s)")
    p.add_argument("--no-icount", action="store_true",
                   help="run without -icount: faster for long programs, but "
                   "counts then follow host time and change run to run")
    p.add_argument("--qemu-arg", action="append", default=[], metavar="ARG",
                   help="pass ARG to QEMU (repeatable), e.g. "
                   "--qemu-arg=-d --qemu-arg=guest_errors")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="show the QEMU command line")
    return p.parse_args(argv)


def list_boards():
    print(f"{'board':<14} {'cpu':<11} {'counter clock':>16}  "
          f"{'-icount':<8} cores (base: sections)")
    for b in boards.BOARDS.values():
        cores = ", ".join(f"{base:#010x}: {n}" for base, n in b.counters)
        default = " (default)" if b.name == boards.DEFAULT_BOARD else ""
        print(f"{b.name:<14} {b.cpu:<11} {b.freq:>13} Hz  "
              f"shift={b.icount_shift:<2} {cores}{default}")


def choose_image(args, board):
    files = [Path(f) for f in args.files]
    if len(files) == 1 and files[0].suffix == ".elf":
        if not files[0].is_file():
            raise Failure(f"no such image: {files[0]}")
        return files[0]
    for f in files:
        if f.suffix not in SOURCE_SUFFIXES:
            raise Failure(f"{f}: expected C or assembly sources "
                          f"({', '.join(sorted(SOURCE_SUFFIXES))}) or one "
                          f".elf image")
    if files:
        builddir = firmware.build(board, files, args.optimization)
        return firmware.image(builddir, "app.elf")
    return firmware.image(firmware.build(board),
                          f"firmware/examples/{args.example}.elf")


def main():
    args = parse_args(sys.argv[1:])
    if args.list_boards:
        list_boards()
        return 0
    board = boards.get(args.board)
    built = qemu.ensure_built()
    image = choose_image(args, board)
    result = boot.boot(built, board, image, timeout=args.timeout,
                       icount=not args.no_icount, extra=args.qemu_arg,
                       verbose=args.verbose)
    if result.timed_out:
        say(boot.timeout_message(image, args.timeout))
    return result.exit_code


if __name__ == "__main__":
    main_guard(main)
