# SPDX-License-Identifier: MIT
"""The UNIX sockets a run serves on: its UARTs' (Serial.socket) and
QMP's (RunConfig.qmp).

The front end binds and listens under a temporary name beside the
socket's path, renames the socket into place and hands its descriptor
to QEMU: a runner that waits for the file can connect as soon as it
appears.  (Given the path, QEMU creates the file when it binds, a moment
before it listens, and a connection made between the two is refused;
and it first removes whatever file is there, a user's own too.)
"""

import os
import stat
from pathlib import Path

from perfcounter.errors import Failure
from perfcounter.messages import say

QMP = "qmp"     # fds' key of QMP's socket (the UARTs': their numbers)


class ServedSockets:
    """The listening sockets of serials (Serials) served on a socket, and
    of QMP if qmp (a path) is given, as a context manager: fds (UART or
    QMP: descriptor) for QEMU's command line, close_ours() once QEMU
    holds them; on leaving, each socket's file that is still the one
    made here is removed, as QEMU's own would be.
    """

    def __init__(self, serials, qmp=None):
        self._wanted = [(s.uart, Path(s.socket)) for s in serials
                        if s.socket and not s.in_virtual_time]
        if qmp:
            self._wanted.append((QMP, Path(qmp)))
        self._listeners = {}
        self._made = []         # (path, its file's (device, inode))

    @property
    def fds(self):
        """The listening sockets' descriptors, by UART (and QMP)."""
        return {key: s.fileno() for key, s in self._listeners.items()}

    def __enter__(self):
        try:
            for key, path in self._wanted:
                self._listeners[key] = self._listen(key, path)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _listen(self, key, path):
        import socket   # (only here: 1.7 ms of every run's start)

        what = "QMP" if key == QMP else f"uart{key}"
        if path.is_symlink() or path.exists():
            if not stat.S_ISSOCK(path.lstat().st_mode):
                raise Failure(f"{path}: exists and is not a socket ({what} "
                              f"would be served there)")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # Short: a UNIX socket's path holds 107 bytes
        temporary = path.parent / f".{os.getpid()}-{what.lower()}.sock"
        try:
            listener.bind(str(temporary))
            listener.listen(1)
            os.rename(temporary, path)
        except OSError as err:
            listener.close()
            _remove(temporary)
            raise Failure(f"cannot serve {what} on {path}: "
                          f"{err.strerror or err}") from None
        made = path.stat()
        self._made.append((path, (made.st_dev, made.st_ino)))
        if key != QMP:      # (QMP's is said with how to read it)
            say(f"{what} waits for a client on {path}")
        return listener

    def close_ours(self):
        """Close this process's copies (QEMU has its own): a client that
        comes after QEMU has gone is refused, not left waiting."""
        for listener in self._listeners.values():
            listener.close()
        self._listeners = {}

    def __exit__(self, *exc):
        self.close_ours()
        for path, made in self._made:
            try:
                now = path.stat()
            except OSError:
                continue
            if (now.st_dev, now.st_ino) == made:
                _remove(path)
        self._made = []


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass
