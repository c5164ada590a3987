# SPDX-License-Identifier: MIT
"""scripts/readout: the live report of every perf-counter core of a
running QEMU, read through its QMP socket (scripts/profile --qmp SOCKET
makes one), printed as the firmware's report table, or as JSON."""

import json
import sys

from perfcounter.boot import qmp
from perfcounter.results import readout
from perfcounter.cli.common import ArgumentParser, main_guard
from perfcounter.errors import Failure


def parse_args(argv):
    p = ArgumentParser(
        prog="scripts/readout",
        description="Print the live counts of every performance counter "
        "core of a running QEMU, read through QMP (qom-get of each core's "
        "'report' property), as the firmware's report table. Reading "
        "changes nothing the guest measures.",
        epilog="Start the run with scripts/profile --qmp SOCKET ..., or "
        "QEMU with -qmp unix:SOCKET,server=on,wait=off.")
    p.add_argument("socket", metavar="SOCKET",
                   help="QEMU's QMP socket (a UNIX socket path)")
    p.add_argument("--json", action="store_true",
                   help="print the reports as JSON, as QEMU gives them "
                   "(a list, one object per core, by base)")
    p.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                   help="wait up to SECONDS for QEMU to open the socket")
    return p.parse_args(argv)


def main():
    args = parse_args(sys.argv[1:])
    with qmp.connect(args.socket, wait=args.wait) as q:
        docs = qmp.reports(q)
    if not docs:
        raise Failure(f"the QEMU at {args.socket} has no perf-counter core")
    if args.json:
        print(json.dumps(docs, indent=2))
        return 0
    for doc in docs:
        core = readout.parse(json.dumps(doc), args.socket)
        state = "running" if doc.get("enabled") else "stopped"
        print(f"[perf-counter] live readout of the core at "
              f"{core.base:#010x} ({state}; virtual time "
              f"{core.virtual_ns / 1e9:.6f} s):")
        print(readout.format_report(core), end="")
    return 0


if __name__ == "__main__":
    main_guard(main)
