# SPDX-License-Identifier: MIT
"""QMP (QEMU Machine Protocol) with QEMU's own client, the qemu.qmp
package of the QEMU source tree the build unpacked (python/qemu/qmp:
its synchronous QEMUMonitorProtocol), and what the scripts ask of it.

    with qmp.connect("/tmp/qmp.sock") as q:
        q.execute("qom-get", path="/machine/peripheral-anon/device[0]",
                  property="report")

connect() reads QEMU's greeting and negotiates capabilities (QEMU
serves one client at a time on a socket: a second one waits for the
first to close); execute() sends one command and returns its "return"
value, or raises QmpError with QEMU's error class and description.
"""

import importlib
import importlib.util
import logging
import sys
import time

from perfcounter.build import qemu
from perfcounter.errors import Failure
from perfcounter.paths import CACHE

DEVICE_TYPE = "perf-counter"


# QEMU's package is qemu.qmp, and qemu is our module: it is loaded
# under a name of its own (its modules import each other relatively)
PACKAGE = "qemu_source_qmp"


def _qemu_qmp():
    """QEMU's qemu.qmp package, from the QEMU source in the cache:
    (QEMUMonitorProtocol, ExecuteError, QMPError)."""
    if PACKAGE not in sys.modules:
        try:
            source = qemu.unpacked_source(CACHE / "qemu-source")
        except Failure:
            raise Failure("QEMU's source is not unpacked yet (its qemu.qmp "
                          "package is the QMP client): run scripts/profile "
                          "once") from None
        package = source / "python" / "qemu" / "qmp"
        spec = importlib.util.spec_from_file_location(
            PACKAGE, package / "__init__.py",
            submodule_search_locations=[str(package)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = module
        spec.loader.exec_module(module)
    # Its log would repeat on stderr what connect() and execute() say
    logging.getLogger(PACKAGE).setLevel(logging.CRITICAL)
    package = sys.modules[PACKAGE]
    legacy = importlib.import_module(PACKAGE + ".legacy")
    return legacy.QEMUMonitorProtocol, package.ExecuteError, package.QMPError


class QmpError(Failure):
    """A command QEMU answered with an error."""

    def __init__(self, command, error_class, desc):
        self.error_class = error_class
        self.desc = desc
        super().__init__(f"QMP {command}: {error_class}: {desc}")


class Qmp:
    def __init__(self, monitor, errors):
        self.monitor = monitor
        self._execute_error, self._qmp_error = errors

    def execute(self, command, **arguments):
        """Run command; its "return" value."""
        try:
            return self.monitor.cmd(command, **arguments)
        except self._execute_error as err:
            raise QmpError(command, err.error_class, str(err)) from None
        except (self._qmp_error, OSError, TimeoutError) as err:
            raise Failure(f"QMP {command}: no answer from QEMU "
                          f"({err or type(err).__name__})") from None

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
        try:
            self.monitor.close()
        except (self._qmp_error, OSError, EOFError):
            pass                # QEMU had gone (after quit, say)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def connect(path, timeout=10.0, wait=0.0):
    """A Qmp on the UNIX socket at path; with wait, keep trying that
    many seconds while QEMU has not made the socket yet."""
    monitor_class, execute_error, qmp_error = _qemu_qmp()
    start = time.monotonic()
    while True:
        monitor = monitor_class(str(path))
        monitor.settimeout(timeout)
        try:
            monitor.connect(negotiate=True)
            return Qmp(monitor, (execute_error, qmp_error))
        except (qmp_error, OSError, TimeoutError) as err:
            try:
                monitor.close()
            except (qmp_error, OSError, EOFError):
                pass
            cause = getattr(err, "exc", None) or err
            missing = isinstance(cause, (FileNotFoundError,
                                         ConnectionRefusedError))
            # Not there yet (wait); or QEMU closed the connection, as it
            # does while it still lets the last client go (timeout)
            if time.monotonic() - start < (wait if missing else timeout):
                time.sleep(0.05)
                continue
            if missing:
                raise Failure(f"no QEMU listens on the QMP socket {path} "
                              f"({cause.strerror}); start one with "
                              f"scripts/profile --qmp {path} ...") from None
            raise Failure(f"cannot connect to {path}: {cause or err!r}; "
                          f"QEMU serves one QMP client at a time, is "
                          f"another connected?") from None


def reports(q):
    """The live "report" of every perf-counter core, ordered by base."""
    docs = [q.execute("qom-get", path=path, property="report")
            for path in q.find()]
    return sorted(docs, key=lambda d: d.get("base", 0))

