# SPDX-License-Identifier: MIT
"""scripts/profile --speedscope: the profiler's call stacks in
speedscope's own file format (https://www.speedscope.app/, "Import"),
which it opens natively, with its frames shared and named.

One "sampled" profile: a sample per distinct collapsed stack (frames
from the root down, as stacks.collapse() names them), weighted by its
count (instructions with --sample=exact, samples otherwise), so that the
weights add up exactly to the collapsed stacks' counts. The format's
schema (file-format-schema.json of the speedscope npm package) is
vendored in schemas/vendor/speedscope/, and the tests validate against
it.
"""

import json
from pathlib import Path

SCHEMA_URL = "https://www.speedscope.app/file-format-schema.json"
EXPORTER = "perf-counter scripts/profile"


def document(collapsed, name):
    """The speedscope file of {"a;b;c": count} (stacks.collapse())."""
    frames = []
    index = {}
    samples = []
    weights = []
    for key in sorted(collapsed):
        stack = []
        for frame in key.split(";"):
            if frame not in index:
                index[frame] = len(frames)
                frames.append({"name": frame})
            stack.append(index[frame])
        samples.append(stack)
        weights.append(collapsed[key])
    return {
        "$schema": SCHEMA_URL,
        "exporter": EXPORTER,
        "name": name,
        "activeProfileIndex": 0,
        "shared": {"frames": frames},
        "profiles": [{
            "type": "sampled",
            "name": name,
            "unit": "none",
            "startValue": 0,
            "endValue": sum(weights),
            "samples": samples,
            "weights": weights,
        }],
    }


def write(path, collapsed, name):
    Path(path).write_text(json.dumps(document(collapsed, name)) + "\n")
