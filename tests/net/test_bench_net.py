"""``scripts/bench_net.py`` runs: a tiny game with every peer in its own process, journals and
the host's record on disk (``--disk``), and the bare echo beside it. No figure is judged here (the machine
is shared); what is checked is that every entry a seat wrote was timed once, that the echo
ran, and that the ratio is the one of the medians printed."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.long
def test_the_bench_times_every_seat_entry_and_the_echo(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_net.py"), "--games", "1",
                          "--echo", "20", "--disk", "--json"], capture_output=True, text=True, env=env,
                         timeout=120, check=True)
    f = json.loads(out.stdout.strip().splitlines()[-1])
    assert f["durable"] and not f["one_process"]
    assert f["seat_entries"] > 100 and f["moves"] == f["seat_entries"]
    assert f["echo_round_trips"] == 40  # a block before the game and one after it
    assert abs(f["ratio"] - f["move_median_ms"] / f["echo_median_ms"]) < 0.01 * f["ratio"]
    # the bench's own data folder is gone; the caller's was never touched
    assert not (tmp_path / "data").exists()
