# SPDX-License-Identifier: MIT
"""The one exception the package raises for what a user can fix."""


class Failure(Exception):
    """An error to report in one line, without a traceback: what went
    wrong and what to do (a bad image, a missing file, a QEMU that
    refused its options)."""
