"""Continue a saved game from the start screen; step through finished games, local and networked;
``palazzo resume`` and ``palazzo replay``."""

from __future__ import annotations

import random

import pytest

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.link import MemoryLink
from net.wire.identity import Identity
from tui import saves
from tui.app import PalazzoApp
from tui.cli import main
from tui.replay import PUBLIC, ReplayError, local_replay, network_replay, open_replay
from tui.setup import GameSetup, make_client

SETUP = GameSetup(game="medici", players=3, seat=0, bots=("", "easy", "easy"), seed=21, pace=0)


async def _finish(setup=SETUP):
    """A finished local game, saved; its save."""
    client = make_client(setup)
    saves.attach(setup, client)
    async for snap in client.updates():
        if snap.over:
            break
        if snap.my_turn:
            client.submit(snap.legal[snap.steps % len(snap.legal)])
    client.close()  # the last write on disk
    [done] = saves.saved_games(finished=True)
    return done


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A networked game of Condottiere played to its end in memory, saved as its transcript."""
    entry = get_game("condottiere")
    host = HostSession(Identity.generate(), "condottiere", entry.rules.make_config(3, {}))
    link = MemoryLink(host)
    for i in range(3):
        link.add(PeerSession(Identity.generate(), f"Ada{i}", code=host.code),
                 entry.make_bot("greedy", random.Random(i)))
    link.pump()
    path = tmp_path_factory.mktemp("net") / "game.palazzo"
    path.write_bytes(host.table.transcript.to_bytes())
    return path


async def test_continue_on_the_start_screen_resumes_the_same_game(ui):
    app = PalazzoApp(SETUP, play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(3):
            await ui.until(pilot, lambda: ui.asking(app), what="the seat's turn")
            table = app.screen
            table.client.submit(table.view.legal[0])
            table.view = table.client.snapshot()
        await ui.until(pilot, lambda: ui.asking(app), what="the seat's turn")
        before = app.screen.client.snapshot()
        await pilot.press("ctrl+q")

    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "Continue" in ui.text(app)
        await pilot.press("f5")  # the list of unfinished games, even of one (each may be deleted)
        await ui.until(pilot, lambda: "Continue which game?" in ui.text(app), what="the list")
        await pilot.press("enter")
        await ui.until(pilot, lambda: ui.asking(app), what="the resumed table")
        client = app.screen.client
        after = client.snapshot()
        assert client.seed == SETUP.seed and client.bot_kinds == {1: "easy", 2: "easy"}
        assert after.log == before.log and after.state == before.state
        assert after.legal == before.legal


async def test_no_continue_without_a_saved_game(ui):
    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Continue" not in ui.text(app) and "Replay" not in ui.text(app)


async def test_a_local_replay_steps_forward_and_back(ui):
    done = await _finish()
    replay = local_replay(done.path)
    assert replay.viewer == 0 and len(replay.frames) > 10
    app = PalazzoApp(replay=replay)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        n = len(replay.frames) - 1
        assert f"move 0 of {n}" in ui.text(app) and "Replay" in ui.text(app)
        for _ in range(5):
            await pilot.press("right")
        await ui.until(pilot, lambda: f"move 5 of {n}" in ui.text(app), what="move 5")
        assert app.screen.view == replay.frames[5]
        said = replay.frames[5].log[len(replay.frames[4].log)]
        assert f"Move 5: {said}"[:60] in ui.text(app).replace("\n", " ")  # the move is named
        assert "bots:" in ui.text(app)  # and the header names the bots' levels
        await pilot.press("left", "left")
        await ui.until(pilot, lambda: f"move 3 of {n}" in ui.text(app), what="back to move 3")
        assert app.screen.view == replay.frames[3]
        await pilot.press("end")
        await ui.until(pilot, lambda: "The end of the game" in ui.text(app), what="the end")
        assert app.screen.view.log[-1].startswith("The game ends")
        await pilot.press("1")  # nothing can be played
        assert app.screen.view == replay.frames[-1]
        await pilot.press("question_mark")
        await ui.until(pilot, lambda: "Replaying a game" in ui.text(app), what="the help")
        assert "Back one move" in ui.text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.view == replay.frames[-1]
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0


async def test_a_small_replay_changes_panes_with_tab_as_its_tab_bar_says(ui):
    done = await _finish()
    replay = local_replay(done.path)
    app = PalazzoApp(replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = ui.text(app)
        assert "[Court]" in text and "tab: other panes" in text
        assert "left/right: other panes" not in text  # left and right step the moves
        await pilot.press("tab")
        await ui.until(pilot, lambda: "[Hand]" in ui.text(app), what="the hand pane")
        assert "move 0 of" in ui.text(app)
        await pilot.press("shift+tab", "shift+tab")
        await ui.until(pilot, lambda: "[Log]" in ui.text(app), what="the log pane")
        await pilot.press("right")
        await ui.until(pilot, lambda: "move 1 of" in ui.text(app), what="move 1")
        assert "[Log]" in ui.text(app)


async def test_a_replays_header_names_the_game_once_and_fits_80_columns(ui):
    replay = local_replay((await _finish()).path)
    app = PalazzoApp(replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = ui.text(app)
        status = str(app.screen.query_one("#status").content)
        assert status.startswith("Replay | move 0 of") and "Court of the Medici" not in status
        assert status in text  # whole on its line
        assert "Court of the Medici, you are" in text  # the game is named once, below


def test_a_replay_shows_the_chosen_seat_or_only_what_was_public():
    import asyncio

    done = asyncio.run(_finish())
    rules = get_game("medici").rules
    mine = local_replay(done.path)
    theirs = local_replay(done.path, seat=1)
    public = local_replay(done.path, seat=PUBLIC)
    first = mine.frames[0].state
    assert first.hands[0] and all(c >= 0 for c in first.hands[0])  # my hand, face up
    assert theirs.frames[0].state.hands[1] == rules.view(theirs.frames[0].state, 1).hands[1]
    assert theirs.frames[0].state.hands[0] != first.hands[0]  # seat 2 does not see mine
    assert all(c < 0 for h in public.frames[0].state.hands for c in h)  # nobody's hand
    assert mine.names[0].endswith("(you)") and public.who == "the public view"


@pytest.mark.long
async def test_a_networked_record_replays_its_public_view(ui, record):
    replay = open_replay(record)
    assert replay.viewer is PUBLIC and replay.verdict.startswith("verified: Condottiere")
    assert replay.frames[-1].log[-1] == f"The record: {replay.verdict}"
    for f in replay.frames:
        assert all(c < 0 for h in f.state.hands for c in h)  # no hand is ever shown
    app = PalazzoApp(replay=replay)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        n = len(replay.frames) - 1
        await pilot.press("right", "right", "right", "left")
        await ui.until(pilot, lambda: f"move 2 of {n}" in ui.text(app), what="move 2")
        assert app.screen.view == replay.frames[2]
        assert "the public view" in ui.text(app)
        # nobody's seat is claimed: the header does not say "you are Red"
        assert "you are" not in ui.text(app) and "Condottiere, the public view" in ui.text(app)


@pytest.mark.long
def test_a_networked_record_cut_short_replays_as_far_as_it_checks(record, tmp_path):
    data = record.read_bytes()
    cut = tmp_path / "cut.palazzo"
    cut.write_bytes(data[: 2 * len(data) // 3])
    replay = network_replay(cut)
    assert replay.verdict.startswith("cut off: ")
    assert replay.frames[-1].log[-1].startswith("The record: cut off: ")
    with pytest.raises(ReplayError, match="public view only"):
        open_replay(record, seat=0)
    junk = tmp_path / "junk"
    junk.write_bytes(random.Random(4).randbytes(500))
    with pytest.raises(ReplayError, match="not a saved palazzo game"):
        open_replay(junk)


# -- the command lines ----------------------------------------------------------------------------


def test_resume_with_no_saved_game_says_so(capsys):
    assert main(["resume"]) == 1
    out = capsys.readouterr()
    assert out.out.startswith("palazzo resume: no saved game to continue") and not out.err
    assert main(["resume", "--list"]) == 1


async def test_resume_list_names_the_unfinished_games(capsys):
    client = make_client(SETUP)
    saver = saves.attach(SETUP, client)
    client.close()
    assert main(["resume", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("  1  20") and "Court of the Medici, 3 players (easy, easy)" in out
    assert str(saver.path) in out
    assert main(["resume", "7"]) == 2
    assert "no game 7 in the list" in capsys.readouterr().err


def test_resume_opens_the_saved_game(monkeypatch):
    client = make_client(SETUP)
    saves.attach(SETUP, client)
    client.close()
    opened = []
    monkeypatch.setattr(PalazzoApp, "run", lambda self: opened.append(self.resume_now))
    assert main(["resume"]) == 0
    assert opened[0].setup == SETUP


async def test_replay_command_line(record, tmp_path, monkeypatch, capsys):
    shown = []
    monkeypatch.setattr(PalazzoApp, "run", lambda self: shown.append(self.replay))
    assert main(["replay", "--list"]) == 1
    assert "no finished local game" in capsys.readouterr().out
    done = await _finish()
    assert main(["replay", "--list"]) == 0
    assert str(done.path) in capsys.readouterr().out
    assert main(["replay", "1", "--seat", "2"]) == 0 and shown[-1].viewer == 1
    assert main(["replay", str(done.path), "--seat", "public"]) == 0 and shown[-1].viewer is None
    assert main(["replay", str(record)]) == 0 and shown[-1].game == "condottiere"
    for bad, words in ((["replay", str(done.path), "--seat", "9"]), "no seat 9"), \
                      ((["replay", str(tmp_path / "none")]), "cannot read it"), \
                      ((["replay", str(record), "--seat", "1"]), "public view only"):
        assert main(bad) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and "Traceback" not in err


def _walk(parser, path=()):
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, (*path, name))


def test_every_flag_of_every_subcommand_has_help():
    from tui.cli import build_parser

    missing = []
    seen = set()
    for path, parser in _walk(build_parser()):
        seen.add(path)
        for action in parser._actions:
            if action.help is None or not str(action.help).strip():
                missing.append((" ".join(path), action.dest))
    assert {("resume",), ("replay",), ("verify",), ("play",), ("host",), ("join",)} <= seen
    assert missing == []


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("palazzo ") and out.split()[1][0].isdigit()


@pytest.mark.parametrize("command", ["resume", "replay"])
def test_help_of_resume_and_replay(command, capsys):
    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    assert "exit status" in capsys.readouterr().out


@pytest.mark.long
async def test_replay_on_the_start_screen_offers_local_and_networked_games(ui, record):
    from net.wire.transcript import data_dir
    from tui.replay import RecordFile, ReplayKeys

    done = await _finish()
    data_dir().mkdir(parents=True, exist_ok=True)
    copy = data_dir() / "condottiere-20261201-120000-abcd1234.palazzo"
    copy.write_bytes(record.read_bytes())
    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Replay" in ui.text(app) and "Continue" not in ui.text(app)
        await pilot.press("f6")
        await ui.until(pilot, lambda: "Replay which game?" in ui.text(app), what="the list")
        offered = app.screen.games
        assert {type(g) for g in offered} == {type(done), RecordFile}
        assert "networked game:" in ui.text(app) and "condottiere-2026" in ui.text(app)
        picker = app.screen
        net_index = next(i for i, g in enumerate(offered) if isinstance(g, RecordFile))
        picker.query_one("#saved").highlighted = net_index
        await pilot.press("enter")
        await ui.until(pilot, lambda: isinstance(app.screen, ReplayKeys), what="the replay")
        assert "the public view" in ui.text(app) and app.screen.client.game == "condottiere"
        await pilot.press("escape")
        await pilot.pause()
        assert "Replay which game?" not in ui.text(app) and "Play" in ui.text(app)


async def test_resume_with_several_saved_games_lists_them_first(ui):
    import dataclasses

    for seed in (31, 32):
        setup = dataclasses.replace(SETUP, seed=seed)
        client = make_client(setup)
        saves.attach(setup, client)
        client.close()
    app = PalazzoApp(resume="pick")
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: "Continue which game?" in ui.text(app), what="the list")
        assert len(app.screen.games) == 2
        newest = app.screen.games[0]
        await pilot.press("enter")
        await ui.until(pilot, lambda: ui.asking(app), what="the resumed table")
        assert app.screen.client.seed == newest.setup.seed
    app = PalazzoApp(resume="pick")
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: "Continue which game?" in ui.text(app), what="the list")
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0
