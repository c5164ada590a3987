# SPDX-License-Identifier: MIT
"""Testing firmware with perfcounter: the pytest plugin (plugin), the
results a test session writes and how shards' results merge (results),
and how a session splits into shards (shards).
docs/testing-your-firmware.md is the guide."""
