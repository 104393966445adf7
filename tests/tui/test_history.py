"""The record of games played: counted once when a local game ends, shown by `palazzo
history`, on the start screen and on the end screen; saved-game lists name the winner, and an
unfinished game can be deleted."""

from __future__ import annotations

import json

import pytest

from tui import history
from tui.app import PalazzoApp
from tui.cli import main
from tui.saves import saved_games
from tui.screens.end import EndScreen
from tui.setup import GameSetup


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def test_a_game_is_counted_once_by_game_players_and_level(home):
    assert history.record("a.json", "medici", 4, "normal", True, 1)
    assert history.record("a.json", "medici", 4, "normal", True, 1)  # the same game again
    assert history.record("b.json", "medici", 4, "normal", False, 3)
    assert history.record("c.json", "condottiere", 3, "easy", True, 1)
    games = history.games()
    assert [g["id"] for g in games] == ["a.json", "b.json", "c.json"]
    assert history.tally(games, game="medici", players=4, level="normal") == (1, 2)
    assert history.tally(games, game="condottiere") == (1, 1)
    assert history.start_line(games) == ("Your record: Medici won 1 of 2 (50%); Condottiere won 1 "
                                         "of 1 (100%) (palazzo history)")
    assert history.record_line(games, "medici", 4, "normal") == (
        "Your record in Court of the Medici, 4 players, normal opponents: won 1 of 2 (50%).")
    assert history.record_line(games, "medici", 3, "normal") == ""


def test_a_damaged_record_counts_nothing_and_is_not_written_over(home):
    p = history.path()
    p.parent.mkdir(parents=True)
    p.write_text("{not json")
    assert history.games() == []
    assert not history.record("a.json", "medici", 4, "normal", True, 1)
    assert p.read_text() == "{not json"


def test_opponents_level_is_one_word():
    assert history.opponents_level(["easy", "easy"]) == "easy"
    assert history.opponents_level(["easy", "hard"]) == "mixed"


def test_palazzo_history_prints_wins_by_game_players_and_level(home, capsys):
    assert main(["history"]) == 0
    assert "No finished games yet" in capsys.readouterr().out
    history.record("a.json", "medici", 4, "normal", True, 1)
    history.record("b.json", "condottiere", 3, "hard", False, 2)
    assert main(["history"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["game", "players", "opponents", "won", "played", "share"]
    assert out[1].split() == ["Condottiere", "3", "hard", "0", "1", "0%"]
    assert out[2].split() == ["Court", "of", "the", "Medici", "4", "normal", "1", "1", "100%"]
    assert out[3].split() == ["all", "games", "1", "2", "50%"]
    assert main(["history", "medici", "--json"]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == ["a.json"]
    assert main(["history", "chess"]) == 2


@pytest.mark.parametrize("command", ["history", "guide"])
def test_history_and_guide_have_help(command, capsys):
    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0 and f"usage: palazzo {command}" in capsys.readouterr().out


async def test_a_finished_game_is_recorded_and_the_end_and_start_screens_say_so(home, ui):
    app = PalazzoApp(GameSetup(game="condottiere", players=2, bots=("greedy",), seed=3, pace=0),
                     play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(3000):
            await ui.until(pilot, lambda: ui.asking(app) or isinstance(app.screen, EndScreen),
                           what="a decision or the end")
            if isinstance(app.screen, EndScreen):
                break
            await pilot.press(app.screen._question.keys()[0])
        end = app.screen
        assert isinstance(end, EndScreen)
        games = history.games()
        assert len(games) == 1 and games[0]["game"] == "condottiere" and games[0]["players"] == 2
        assert games[0]["level"] == "easy"  # greedy plays the easy level
        won = "won 1 of 1" if games[0]["won"] else "won 0 of 1"
        await ui.until(pilot, lambda: won in ui.text(app), what="the record on the end screen")
        assert "Condottiere, 2 players, easy opponents" in ui.text(app)
        # the saved game names its winner in the list of finished games
        finished = saved_games(finished=True)
        assert len(finished) == 1 and " won: " in finished[0].describe()
        await pilot.press("n")  # the start screen
        await ui.until(pilot, lambda: "Your record: Condottiere" in ui.text(app),
                       what="the record on the start screen")


async def test_an_unfinished_game_can_be_deleted_after_a_yes(home, ui):
    from tui.screens.saved import SavedPicker

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=5, pace=0), play=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        await pilot.press(app.screen._question.keys()[0])
        await pilot.pause()
    assert len(saved_games(finished=False)) == 1
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: app.screen.query("#continue"), what="Continue")
        await pilot.press("f5")
        await ui.until(pilot, lambda: isinstance(app.screen, SavedPicker), what="the list")
        assert "unfinished" in ui.text(app)
        await pilot.press("d")
        await ui.until(pilot, lambda: "Delete this unfinished game?" in ui.text(app), what="the question")
        await pilot.press("n")  # no: nothing is deleted
        await ui.until(pilot, lambda: isinstance(app.screen, SavedPicker), what="the list again")
        assert len(saved_games(finished=False)) == 1
        await pilot.press("d")
        await ui.until(pilot, lambda: "Delete this unfinished game?" in ui.text(app), what="the question")
        await pilot.press("y")
        await ui.until(pilot, lambda: not isinstance(app.screen, SavedPicker), what="the list closed")
        assert saved_games(finished=False) == []
        await ui.until(pilot, lambda: not app.screen.query("#continue"), what="Continue gone")
