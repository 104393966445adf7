"""The host's memory under a fuzz of short connections stays bounded (``scripts/
fuzz_host_memory.py``): a host once grew from 36 to 56 MB over 100,000 connections while its
Python objects stayed flat. By default a short run; with ``PALAZZO_LONG=1`` the long one
(10^6 frames, some 200,000 connections, a few minutes)."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

LONG = os.environ.get("PALAZZO_LONG") == "1"
SCRIPT = Path(__file__).parents[2] / "scripts" / "fuzz_host_memory.py"


def _script():
    spec = importlib.util.spec_from_file_location("fuzz_host_memory", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_host_memory"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.long
def test_the_hosts_memory_stays_bounded_under_a_fuzz_of_connections():
    frames, bound_mib = (1_000_000, 16) if LONG else (30_000, 8)
    lines = []
    r = _script().run(frames, samples=10, seed=3, say=lines.append)
    assert r["alive"], "the host died under the fuzz"
    assert r["frames"] >= frames and r["connections"] > frames // 10
    # the RSS after a warm-up (the first tenth) may move, but not grow with the connections
    assert (r["peak"] - r["warm"]) / 1024 <= bound_mib, "\n".join(lines)
