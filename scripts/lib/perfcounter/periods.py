# SPDX-License-Identifier: MIT
"""A profile's period, as RunConfig's profile= holds it and the front
ends take it (scripts/profile's --sample, the pytest plugin's
--sample-period).  A module of its own: the pytest plugin, which every
pytest session of an environment that installs the package loads,
names these without importing what boots firmware (25 ms)."""

EXACT = 0               # the profile period that counts every instruction
DEFAULT_PERIOD = 1000   # --sample's period in counter clocks
