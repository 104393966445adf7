"""Watching a networked game at the table (``tui.watch``), at 80x24: the lobby says the watcher
takes no seat, the table shows the public view (nobody's hand) with the moves in the public
words, the host's lobby lists the watcher, and at the end the record is checked and saved."""

import asyncio
import contextlib
import random

import pytest

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.wire.identity import Identity
from tests.net.test_adapters import serve_on_loopback
from tests.tui.conftest import screen_text as text
from tests.tui.conftest import until
from tui import cli
from tui.netapp import NetApp
from tui.presence import watcher_news
from tui.screens.end import EndScreen
from tui.screens.lobby import LobbyScreen, lobby_text
from tui.watch import WatchKeys, watch_net


@pytest.mark.long
@pytest.mark.parametrize("game, options", [("medici", {}), ("condottiere", {"hidden_cards": True})])
async def test_a_watcher_follows_the_game_at_80x24_seeing_nobodys_hand(profile, game, options):  # noqa: F811
    entry = get_game(game)
    host = HostSession(Identity.generate(), game, entry.rules.make_config(3, options),
                       code="ROOK-1234")
    runner, serving, port = await serve_on_loopback(host)
    seats = [PeerSession(Identity.generate(), f"b{i}", "ROOK-1234") for i in range(3)]
    held = runner.add(seats[0], None)  # the game waits on it while the watcher looks
    for i in (1, 2):
        runner.add(seats[i], entry.make_bot("greedy", random.Random(i)))
    seats[0].ready()
    runner.pump()
    app = NetApp(watch_net("127.0.0.1", port, "rook-1234", "Wanda", Identity.generate()))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WatchKeys), "the watcher's table")
        assert host.watchers() == ["Wanda"]
        # the host's screen says who came; the watcher's own screen does not tell it of itself
        await until(pilot, lambda: "Wanda" in ((app.session.lobby or {}).get("watchers") or ()),
                    "the watcher listed to itself")
        await pilot.pause()
        assert not any("Wanda is watching" in str(n.message) for n in app._notifications)
        await until(pilot, lambda: app.session.table.phase == "play"
                    and "b0 (b0)" not in text(app) and "to move" in text(app), "the game waiting")
        screen = text(app)
        assert "Watching | " in screen and "the public view" in screen
        assert "You are watching: you see what every player sees." in screen
        assert not any(h.display for h in app.screen.query("#hand"))
        assert "Your hand" not in screen
        assert "Talk" not in screen  # a watcher does not talk at the table: no key says it can
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, WatchKeys)
        assert app.client.snapshot().legal == ()  # nothing is ever asked
        # the log is the public words: the host's observer hears the same
        await until(pilot, lambda: len(app.client.snapshot().log) > 0, "a move in the log")
        # the held seat plays now, and the game goes to its end (the whole game's deck work,
        # every seat's and the host's, runs in this process: its bound is a whole game's)
        runner.bots[held] = entry.make_bot("greedy", random.Random(0))
        runner.pump()
        await until(pilot, lambda: isinstance(app.screen, EndScreen)
                    and "Audit: verified" in text(app), "the end screen, verified", timeout=300)
        assert "You win" not in text(app) and "You finish" not in text(app)  # nobody's end
        games = profile / "data" / "palazzo" / "games"
        await until(pilot, lambda: games.is_dir() and any(games.iterdir()), "the saved record")
        assert list(games.iterdir())[0].read_bytes() == host.table.transcript.to_bytes()
        await pilot.press("q")
    await asyncio.wait_for(serving, 600)  # a hang guard only
    assert app.exit_status() == 0


async def test_the_watchers_lobby_says_it_takes_no_seat_and_the_host_lists_it(profile):  # noqa: F811
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    seat = PeerSession(Identity.generate(), "Ada", auto_ready=False)
    runner.add(seat, None)
    runner.pump()
    app = NetApp(watch_net("127.0.0.1", port, None, "Wanda", Identity.generate()))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "You are watching" in text(app), "the watcher's lobby")
        assert isinstance(app.screen, LobbyScreen)
        screen = text(app)
        assert "you take no seat" in screen and "1 of 3 seats taken" in screen
        assert "Watching: Wanda" in screen and "I am ready" not in screen
        await pilot.press("r")  # nothing: a watcher is never ready
        assert host.seats[0].name == "Ada" and len(host.seats) == 1
        # the seated player's lobby lists the watcher
        assert "Watching: Wanda" in lobby_text(seat.lobby).plain
        await pilot.press("q")
    runner.stop()
    await asyncio.wait_for(serving, 600)


def test_the_table_is_told_when_watchers_come_and_go():
    assert watcher_news([], ["Wanda"]) == ["Wanda is watching"]
    assert watcher_news(["Wanda", "Walt"], ["Walt", "Wes"]) == ["Wes is watching",
                                                                "Wanda stopped watching"]


@pytest.mark.parametrize("argv, words", [
    (["watch", "medicy"], "neither a game"),
    (["watch", "medici", "--code", "X"], "--code is for watching a networked game"),
    (["watch", "127.0.0.1:7342", "--seed", "3"], "--seed is for a bot game"),
    (["watch", "127.0.0.1:99999"], "not a HOST:PORT address"),
])
def test_watch_tells_a_bot_game_from_a_networked_one_by_its_argument(capsys, argv, words):
    assert cli.main(argv) == 2
    assert words in capsys.readouterr().err


def test_watch_help_names_both_ways():
    helptext = cli.build_parser()._subparsers._group_actions[0].choices["watch"].format_help()
    assert "GAME|HOST:PORT" in helptext and "palazzo watch HOST:PORT [--code CODE]" in helptext
    assert "bots play one game here" in helptext


async def test_the_hosts_lobby_lists_a_watcher_and_its_screen_says_who_came(profile):  # noqa: F811
    from net.session.commands.hosting import HostSettings
    from net.session.machines.watch_session import WatchSession
    from net.session.runners.peer import PeerRunner
    from tui.netapp import host_app

    settings = HostSettings(game="medici", players=3, options={}, port=0, bind="127.0.0.1",
                            bots=1, open=True, name="Ada")
    app = host_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "palazzo join 127.0.0.1:" in text(app), "the join line")
        port = int(text(app).split("palazzo join 127.0.0.1:")[1].split()[0])
        watcher = WatchSession(Identity.generate(), "Wanda")
        following = asyncio.create_task(PeerRunner(watcher, "127.0.0.1", port).run())
        await until(pilot, lambda: "Watching: Wanda" in text(app), "the watcher in the lobby")
        await until(pilot, lambda: any("Wanda is watching" in str(n.message)
                                       for n in app._notifications), "the watcher's notice")
        assert "(free)" in text(app)  # it took no seat
        following.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await following
        await until(pilot, lambda: "Watching: Wanda" not in text(app), "the watcher gone")
        assert any("Wanda stopped watching" in str(n.message) for n in app._notifications)
        await pilot.press("q")


def test_watch_host_port_headless_says_in_one_line_that_nobody_listens(profile, capsys):  # noqa: F811
    assert cli.main(["watch", "127.0.0.1:1", "--headless", "--name", "Wanda"]) == 1
    out = capsys.readouterr().out
    assert "watching 127.0.0.1:1 as Wanda" in out and "error: could not reach 127.0.0.1:1" in out
    assert "Traceback" not in out


@pytest.mark.long
@pytest.mark.parametrize("game, options", [("medici", {}), ("condottiere", {"hidden_cards": True})])
def test_the_watchers_log_is_the_public_replays_word_for_word(make_game, clock, tmp_path, game,
                                                              options):
    """What the watcher's table says of each move is what ``palazzo replay`` says of the record
    in public view: the public words (which never name a hidden card,
    ``tests/tui/test_hidden_card_callers.py``), not a seat's. The host and the watcher run on a
    clock that stands still: on a busy machine a real one let an acknowledgement fall due, and the
    watcher's log rightly said "waiting for bot0 to acknowledge"."""
    from net.session.machines.watch_session import WatchSession
    from tui.replay import network_replay
    from tui.watch import WatchClient

    g = make_game(3, game=game, options=options, clock=clock)
    w = WatchSession(Identity.generate(), "Wat", clock=clock)
    g.link.add(w)
    for i in range(3):
        g.add_bot(i)
    g.link.pump()
    assert w.state == "over"
    from tui.setup import adapter as game_adapter

    adapter = game_adapter(game)
    names = tuple(s.name for s in w.table.seats)
    client = WatchClient(w, names, getattr(adapter, "narrate", None))
    view = client.snapshot()
    path = tmp_path / "record.palazzo"
    path.write_bytes(w.table.transcript.to_bytes())
    replay = network_replay(path)
    assert view.log == replay.frames[-1].log[:-1] and len(view.log) > 20
    # the public view, as the replay's last frame; a card taken back into a hand face up (a
    # Scarecrow's) the watcher's table knows from the record, where the replay masks every hand
    mine, theirs = view.state.to_data(), replay.frames[-1].state.to_data()
    hands, shown = mine.pop("hands"), theirs.pop("hands")
    assert mine == theirs, repr({k: (mine[k], theirs.get(k)) for k in mine if mine[k] != theirs.get(k)})
    assert [len(h) for h in hands] == [len(h) for h in shown]
    assert all(b in (a, -1) for h, r in zip(hands, shown, strict=True) for a, b in zip(h, r, strict=True))
    seat = WatchClient(g.peers[0], names, getattr(adapter, "narrate", None))  # a seat's table
    seat.hear = 0
    assert seat.snapshot().log != view.log  # a seat hears its own cards: the test can fail


async def test_a_watcher_with_a_wrong_code_is_told_at_80x24_and_exits_1(profile):  # noqa: F811
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}),
                       code="ROOK-1234")
    runner, serving, port = await serve_on_loopback(host)
    app = NetApp(watch_net("127.0.0.1", port, "ROOK-9999", "Wanda", Identity.generate()))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Cannot watch:" in text(app), "the refusal")
        assert "wrong game code" in text(app)
        await pilot.press("q")
    assert app.exit_status() == 1 and host.watchers() == []
    runner.stop()
    await asyncio.wait_for(serving, 600)
