"""Presence at the table: every player's presence under the header, the notes in the log, and
the waiting line with the join line while the seat due is gone, all visible at 80x24; a
player away after three minutes without a key, and here again at the next key."""

import asyncio

import pytest

from net.session.commands.hosting import HostSettings
from net.session.features.presence import Presence, SeatPresence
from net.session.machines.peer_session import PeerSession
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tests.net.test_adapters import serve_on_loopback
from tests.tui.conftest import asking, until
from tests.tui.conftest import screen_text as text
from tui.netapp import host_app
from tui.presence import AWAY_AFTER, PresenceLine, presence_text, waiting_text


def _p(states, due=-1, wait=None, now=100.0):
    return Presence(tuple(SeatPresence(s, now - 75) for s in states), due, now - 42,
                    None if wait is None else now + wait)


def test_the_words_of_presence():
    p = _p(["here", "here", "away", "reconnecting", "left"], due=1, wait=102)
    names = ["Ann", "Jo", "Cy", "Di", "Ed"]
    assert presence_text(p, names, 100.0) == \
        "Ann here | Jo thinking 0:42 | Cy away 1:15 | Di reconnecting 1:15 | Ed left"
    assert waiting_text(p, names, "palazzo join h:1 --code c", 100.0) == ""  # Jo is here
    gone = _p(["here", "reconnecting"], due=1, wait=102)
    assert waiting_text(gone, ["Ann", "Jo"], "palazzo join h:1 --code c", 100.0) == \
        "Waiting for Jo to come back (1:42 left): palazzo join h:1 --code c"
    away = _p(["here", "away"], due=1)
    assert waiting_text(away, ["Ann", "Jo"], "palazzo join h:1", 100.0) == \
        "Waiting for Jo to come back"  # away, not gone: no join line to give


def test_the_waiting_line_names_the_seat_whose_acknowledgement_the_game_waits_on():
    from dataclasses import replace

    p = replace(_p(["here", "here", "silent"], due=0, wait=300), acks=(2,), ack_deadline=142.0)
    names = ["Ann", "Jo", "Cy"]
    assert waiting_text(p, names, "palazzo join h:1", 100.0) == \
        "Waiting for Cy to acknowledge, who is not responding (0:42 left): palazzo join h:1"
    here = replace(p, seats=p.seats[:2] + (SeatPresence("here", 25.0),), ack_deadline=None)
    assert waiting_text(here, names, "palazzo join h:1", 100.0) == "Waiting for Cy to acknowledge"


class _Source:
    presence = None
    player_names = ()
    rejoin_line = ""

    def __init__(self):
        self.said = []

    def set_away(self, flag):
        self.said.append(flag)

def _presence_app(clock, names, rejoin):
    """A presence line on a bare app, and the source it is to show (``names``, ``rejoin``)."""
    from textual.app import App

    line = PresenceLine(clock=clock)

    class _Shows(App):
        def compose(self):
            yield line

    src = _Source()
    src.player_names = names
    src.rejoin_line = rejoin
    return line, _Shows, src



def test_away_after_three_minutes_without_a_key_and_back_at_the_next():
    now = [0.0]
    line = PresenceLine(clock=lambda: now[0])
    src = line.source = _Source()
    now[0] = AWAY_AFTER - 1
    line.tick()
    assert src.said == []
    now[0] = AWAY_AFTER
    line.tick()
    line.tick()
    assert src.said == [True]  # once
    line.pressed()
    line.pressed()
    assert src.said == [True, False]


@pytest.mark.long
async def test_the_table_shows_presence_notes_and_the_waiting_line_at_80x24(profile):  # noqa: F811
    settings = HostSettings(game="medici", players=3, options={}, port=0, bind="127.0.0.1",
                            bots=1, open=True, name="Ada")
    app = host_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "palazzo join 127.0.0.1:" in text(app), "the join line")
        port = int(app.net.join_line.rsplit(":", 1)[1])
        jo = PeerSession(Identity.generate(), "Jo")
        runner = PeerRunner(jo, "127.0.0.1", port, retry_delay=0.05)  # decides nothing
        task = asyncio.create_task(runner.run())
        await until(pilot, lambda: "Jo" in text(app), "Jo in the lobby")
        await pilot.press("r")
        for _ in range(200):  # Ada plays until the game waits on Jo
            await until(pilot, lambda: asking(app) or jo.decision_due(), "a turn")
            if jo.decision_due():
                break
            await pilot.press("1")
        runner.leave()
        await asyncio.wait_for(task, 30)
        line = app.screen.query_one(PresenceLine)
        await until(pilot, lambda: "Jo left" in str(line.render()), "the presence line")
        await until(pilot, lambda: "Waiting for Jo to come back (" in text(app), "the wait")
        screen = text(app)
        assert "Ada here | bot-1 (greedy) here | Jo left" in screen
        assert f"left): palazzo join 127.0.0.1:{port}" in screen
        await pilot.press("l")  # the whole log, a key away at 80x24
        await until(pilot, lambda: "Jo left" in text(app).split("Log", 1)[-1], "the note")
        await pilot.press("escape")
        assert app.screen.view.log[-1] == "Jo left"


@pytest.mark.long
async def test_a_joiner_that_leaves_the_table_is_left_for_the_others(profile):  # noqa: F811
    import random

    from engine.registry import get_game
    from net.session.machines.host_session import HostSession
    from tui.netapp import join_app

    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    others = [PeerSession(Identity.generate(), f"b{i}") for i in range(2)]
    for i, peer in enumerate(others):
        runner.add(peer, entry.make_bot("random", random.Random(i)))
    runner.pump()
    app = join_app("127.0.0.1", port, None, "Bea", Identity.generate())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "Bea's first turn")
        seat = app.session.seat
        await pilot.press("q")
        await pilot.press("y")  # leave this networked game and quit

    async def told():  # the host's next presence, at the latest on its next tick
        while "Bea left" not in others[0].notes.since(0)[0]:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(told(), 60)  # a hang guard only
    assert host.presence.state(seat) == "left"  # it said so: not "reconnecting"
    assert app.exit_status() == 1  # the game could not be played to its end
    runner.stop()
    await asyncio.wait_for(serving, 60)


async def test_once_the_game_is_over_nobody_is_thinking_nor_waited_for():
    now = [100.0]
    line, _Shows, src = _presence_app(lambda: now[0], ("Ann", "Jo"), "palazzo join h:1 --code c")
    src.presence = _p(["here", "reconnecting"], due=1, wait=30)  # the last word before the end
    async with _Shows().run_test(size=(80, 24)):
        line.source = src
        line.tick()
        assert "Waiting for Jo to come back" in str(line.render())
        src.game_over = True
        now[0] += 5
        line.tick()
        assert str(line.render()) == "Ann here | Jo reconnecting 1:20"
        src.presence = _p(["here", "here"], due=1)
        line.tick()
        assert str(line.render()) == "Ann here | Jo here"  # not "Jo thinking"


async def test_the_join_line_is_never_cut_off_at_80x24_even_with_six_players():
    line, _Shows, src = _presence_app(lambda: 10.0, ("Alessandro", "Benedetta", "Costanza", "Domenico", "Elisabetta", "Francesco"), "palazzo join 192.168.1.20:7342 --code REED-BELL-HERON-7091")
    states = ("here", "here", "reconnecting", "away", "here", "here")
    src.presence = Presence(tuple(SeatPresence(s, 0.0) for s in states), 2, 0.0, 170.0)
    async with _Shows().run_test(size=(80, 24)) as pilot:
        line.source = src
        line.tick()
        await pilot.pause()
        rows = ["".join(seg.text for seg in line.render_line(y)).rstrip()
                for y in range(line.region.height)]
        shown = " ".join(rows)
        assert "palazzo join 192.168.1.20:7342 --code REED-BELL-HERON-7091" in shown
        assert "Waiting for Costanza to come back (2:40 left)" in shown
        assert rows[0].startswith("Alessandro here | Benedetta here | Costanza reconnecting 0:10")
        assert rows[0].endswith("…") and len(rows) == 3


async def test_once_the_game_is_over_the_presence_line_stops_counting():
    now = [100.0]
    line, _Shows, src = _presence_app(lambda: now[0], ("Ann", "Jo"), "")
    src.presence = _p(["away", "reconnecting"], due=-1)
    async with _Shows().run_test(size=(80, 24)):
        line.source = src
        src.game_over = True
        line.tick()
        at_end = str(line.render())
        now[0] += 65  # a minute after the end: the clocks stand where the game ended
        line.tick()
        assert str(line.render()) == at_end


def test_a_seat_not_responding_in_words():
    p = _p(["here", "silent"], due=1, wait=170)
    assert presence_text(p, ["Ann", "Jo"], 100.0) == "Ann here | Jo not responding 1:15"
    assert waiting_text(p, ["Ann", "Jo"], "palazzo join h:1", 100.0) == \
        "Waiting for Jo, who is not responding (2:50 left): palazzo join h:1"


async def test_while_the_host_is_gone_the_line_says_so_and_nothing_counts_toward_a_forfeit():
    now = [100.0]
    line, _Shows, src = _presence_app(lambda: now[0], ("Ann", "Jo"), "palazzo join h:1")
    src.presence = _p(["here", "reconnecting"], due=1, wait=100)
    src.host_gone = 152.0  # this program gives up on its host then
    async with _Shows().run_test(size=(80, 24)) as pilot:
        line.source = src
        line.tick()
        await pilot.pause()
        shown = str(line.render())
        assert "The host is gone; trying again (0:52 left)" in shown
        assert "Waiting for Jo" not in shown  # the host forfeits nobody while it is gone
        now[0] += 10
        line.tick()
        assert "(0:42 left)" in str(line.render())
        src.host_gone = None  # back
        line.tick()
        assert "host is gone" not in str(line.render())
        assert "Waiting for Jo to come back (1:30 left)" in str(line.render())
