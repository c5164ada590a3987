# SPDX-License-Identifier: MIT
"""A small stand-in for the QEMU build, built through the same code as
the real one (perfcounter.build.cache): python3 standin_build.py DIR SECONDS.

The build takes SECONDS, counts itself in DIR/builds, and leaves
DIR/tree/result; the tests race it, or kill it half-way."""

import sys
import time
from pathlib import Path

LIB = Path(__file__).resolve().parents[3] / "scripts" / "lib"
sys.path.insert(0, str(LIB))
from perfcounter.build import cache  # noqa: E402


def main():
    top, seconds = Path(sys.argv[1]), float(sys.argv[2])
    tree = top / "tree"

    def build(interrupted):
        with open(top / "builds", "a") as log:
            log.write(f"build interrupted={interrupted}\n")
        tree.mkdir(parents=True, exist_ok=True)
        (tree / "result").unlink(missing_ok=True)
        print("building", flush=True)
        time.sleep(seconds)
        (tree / "result").write_text("complete\n")

    cache.ensure(tree, "standin-1", build, "the stand-in build")
    print("result:", (tree / "result").read_text().strip(), flush=True)


if __name__ == "__main__":
    main()
