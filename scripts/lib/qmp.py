# SPDX-License-Identifier: MIT
"""A minimal QMP client (QEMU Machine Protocol, JSON over a UNIX
socket; docs/interop/qmp-spec in QEMU's tree), standard library only.

    with qmp.connect("/tmp/qmp.sock") as q:
        q.execute("qom-get", path="/machine/peripheral-anon/device[0]",
                  property="report")

connect() reads QEMU's greeting and leaves capabilities negotiation
mode (QEMU serves one client at a time on a socket: a second one waits
for the first to close); execute() sends one command and returns its "return" value, or
raises QmpError with QEMU's error class and description. Asynchronous
events that arrive meanwhile are kept in .events.
"""

import json
import socket
import time

from common import Failure

DEVICE_TYPE = "perf-counter"


class QmpError(Failure):
    """A command QEMU answered with an error."""

    def __init__(self, command, error):
        self.error_class = error.get("class", "")
        self.desc = error.get("desc", "")
        super().__init__(f"QMP {command}: {self.error_class}: {self.desc}")


class Qmp:
    def __init__(self, sock, timeout):
        self.sock = sock
        self.sock.settimeout(timeout)
        self.reader = sock.makefile("r", encoding="utf-8", newline="\n")
        self.events = []
        try:
            self.greeting = self._receive()
        except Failure as err:
            raise Failure(f"{err}: no QMP greeting; QEMU serves one QMP "
                          f"client at a time, is another connected?") \
                from None
        if "QMP" not in self.greeting:
            raise Failure(f"not a QMP greeting: {self.greeting}")
        self.version = self.greeting["QMP"].get("version", {}).get(
            "qemu", {})
        self.execute("qmp_capabilities")

    def _receive(self):
        try:
            line = self.reader.readline()
        except OSError as err:
            raise Failure(f"QMP: no answer from QEMU ({err})") from None
        if not line:
            raise Failure("QMP: QEMU closed the connection")
        try:
            return json.loads(line)
        except ValueError:
            raise Failure(f"QMP: not JSON: {line!r}") from None

    def execute(self, command, **arguments):
        """Run command; its "return" value."""
        message = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        try:
            self.sock.sendall(json.dumps(message).encode() + b"\n")
        except OSError as err:
            raise Failure(f"QMP: cannot send {command} ({err})") from None
        while True:
            reply = self._receive()
            if "event" in reply:
                self.events.append(reply)
            elif "error" in reply:
                raise QmpError(command, reply["error"])
            elif "return" in reply:
                return reply["return"]

    def find(self, type_name=DEVICE_TYPE, path="/machine"):
        """QOM paths of the objects of type_name under path, walking the
        composition tree (child<...> properties)."""
        found = []
        for prop in self.execute("qom-list", path=path):
            kind = prop.get("type", "")
            if not kind.startswith("child<"):
                continue
            child = f"{path.rstrip('/')}/{prop['name']}"
            if kind == f"child<{type_name}>":
                found.append(child)
            found += self.find(type_name, child)
        return found

    def close(self):
        self.reader.close()
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def connect(path, timeout=10.0, wait=0.0):
    """A Qmp on the UNIX socket at path; with wait, keep trying that
    many seconds while QEMU has not made the socket yet."""
    deadline = time.monotonic() + wait
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            break
        except (FileNotFoundError, ConnectionRefusedError) as err:
            sock.close()
            if time.monotonic() >= deadline:
                raise Failure(f"no QEMU listens on the QMP socket {path} "
                              f"({err.strerror}); start one with "
                              f"scripts/profile --qmp {path} ...") from None
            time.sleep(0.05)
        except OSError as err:
            sock.close()
            raise Failure(f"cannot connect to {path}: {err}") from None
    try:
        return Qmp(sock, timeout)
    except (OSError, Failure):
        sock.close()
        raise


def reports(q):
    """The live "report" of every perf-counter core, ordered by base."""
    docs = [q.execute("qom-get", path=path, property="report")
            for path in q.find()]
    return sorted(docs, key=lambda d: d.get("base", 0))


def qemu_args(path):
    """QEMU arguments that serve QMP on a UNIX socket at path (QEMU does
    not wait for a client)."""
    return ["-qmp", "unix:" + str(path).replace(",", ",,")
            + ",server=on,wait=off"]
