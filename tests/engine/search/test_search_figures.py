"""The scripts that measure the bots print what they promise: a two-against-two match's share
of games won by each side, and the CPU time of a level's decisions (median, 95th percentile)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"script_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the tournament's worker processes find its functions
    spec.loader.exec_module(module)
    return module


def test_the_95th_percentile_is_the_nearest_rank():
    for script in (load("tournament"), load("bench_search")):
        xs = [float(x) for x in range(20, 0, -1)]  # 1..20, unsorted
        assert script.percentile(xs, 0.95) == 19.0
        assert script.percentile(xs, 0.5) == 10.0
        assert script.percentile([3.0], 0.95) == 3.0


def test_a_two_against_two_match_counts_the_games_each_side_won(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    tournament = load("tournament")
    assert tournament.main(["condottiere", "--players", "4", "--games", "4", "--seed", "3",
                            "--workers", "1", "--lineup", "random,easy,random,easy",
                            "--log", str(log)]) == 0
    out = capsys.readouterr().out
    games = [json.loads(line) for line in log.read_text().splitlines()]
    for side in ("random", "easy"):
        won = sum(1 for g in games if any(g["seats"][q] == side for q in g["winners"]))
        assert f"games won by a seat of {side}: {won}/4 " in out
        # every decision with a choice that a seat of the side made, timed
        timed = sum(len(g["cpu"][q]) for g in games for q in range(4) if g["seats"][q] == side)
        assert timed > 0
        assert re.search(rf"{side}: CPU s a decision with a choice, over {timed}: median ", out)


def test_a_stopped_match_resumes_from_its_log_and_plays_only_the_games_it_lacks(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    tournament = load("tournament")
    args = ["medici", "--players", "4", "--games", "4", "--seed", "5", "--workers", "1",
            "--lineup", "greedy,random,random,random", "--log", str(log), "--row"]
    assert tournament.main(args) == 0
    whole = capsys.readouterr().out.splitlines()[-1]
    lines = log.read_text().splitlines()
    # stopped after two games, the third cut short as it was written
    log.write_text(lines[0] + "\n" + lines[1] + "\n" + lines[2][:30])
    assert tournament.main([*args, "--resume"]) == 0
    out = capsys.readouterr().out
    assert "2 games read back from" in out and "2 to play" in out
    assert out.splitlines()[-1] == whole  # the same row: the same games, seeded by their number
    games = [json.loads(line) for line in log.read_text().splitlines()[:2] + log.read_text().splitlines()[3:]]
    assert sorted(g["index"] for g in games) == [0, 1, 2, 3]
    # a log of another seed is not this match's: nothing read back
    assert tournament.main([*args[:6], "6", *args[7:], "--resume"]) == 0
    assert "read back" not in capsys.readouterr().out


@pytest.mark.long
def test_a_levels_decisions_are_timed_in_its_own_games(capsys):
    bench = load("bench_search")
    times = bench.decision_times("condottiere", "normal", 3, 1, {})
    assert times and all(t >= 0 for t in times)
    bench.main(["condottiere", "--level", "normal", "--games", "1", "--players", "3"])
    out = capsys.readouterr().out
    assert f"level normal: {len(times)} decisions with a choice in 1 games" in out
    assert "95th percentile" in out


def test_the_calibration_table_of_logged_positions_uses_todays_calibration(tmp_path, capsys):
    from engine.search.coach import calibrated

    log = tmp_path / "positions.jsonl"
    raws = [0.2, 0.35, 0.5, 0.8]
    log.write_text(json.dumps({"game": 0, "points": [[0.0, r, True] for r in raws]}) + "\n"
                   + json.dumps({"game": 1, "points": [[0.0, 0.5, False]]}) + "\n")
    calibration = load("coach_calibration")
    assert calibration.main(["--game", "medici", "--replay", str(log)]) == 0
    out = capsys.readouterr().out
    stated = [calibrated("medici", r, ["easy"] * 3) for r in raws + [0.5]]
    assert "2 games" in out and "all: 5 positions, " in out
    assert f"stated {sum(stated) / 5:.1%}, observed 80.0%" in out
