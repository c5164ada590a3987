# SPDX-License-Identifier: MIT
"""The run's terminal as a UART's keyboard: whether there is one to type
on (standard input is a terminal, and this process is in its
foreground, so that reading it does not stop a background job), and the
terminal put in cbreak mode meanwhile (each key goes to the guest as it
is typed, with no echo of the terminal's own: the firmware echoes;
Ctrl-C still ends the run)."""

import os
import sys
import termios
from contextlib import contextmanager


def usable():
    """Whether a guest may read the keys typed on the run's terminal."""
    try:
        return os.isatty(0) and os.tcgetpgrp(0) == os.getpgrp()
    except OSError:
        return False


@contextmanager
def keys_to_guest():
    """The terminal in cbreak mode without echo, restored after."""
    saved = termios.tcgetattr(0)
    mode = termios.tcgetattr(0)
    mode[3] &= ~(termios.ICANON | termios.ECHO)    # lflags; ISIG stays
    mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
    termios.tcsetattr(0, termios.TCSANOW, mode)
    try:
        yield
    finally:
        termios.tcsetattr(0, termios.TCSADRAIN, saved)
        sys.stdout.flush()
