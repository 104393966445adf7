"""The Medici set-up made by all seats at once (``engine.medici.setup``, ``tui.ahead``): in phases
hide and top a seat chooses its placements before its turn comes; its client queues them and
sends each when the seat is due (skipping one that became illegal), in a local game and a
networked one; the table shows who has placed, and nothing of another seat's choice is shown
before the flip."""

import asyncio

import pytest

from engine.core import UNKNOWN
from engine.medici import RULES
from engine.medici.state import NO_CARD
from tests.tui.conftest import screen_text as text
from tests.tui.test_status import client_of, hold_back, seated, table_app
from tui.ahead import Ahead
from tui.client import NotYourTurn
from tui.setup import GameSetup, make_client


def test_a_local_seat_chooses_its_hidden_cards_ahead_and_they_go_out_at_its_turn():
    client = make_client(GameSetup(bots=("greedy",), seed=3, seat=2, pace=0))
    snap = client.snapshot()
    assert snap.state.phase == "hide" and snap.actor == 0 and not snap.my_turn
    chosen = []
    for _ in range(3):
        pick = snap.ahead[-1]
        client.submit(pick)  # queued: nothing is played yet
        chosen.append(pick)
        snap = client.snapshot()
    assert snap.queued == tuple(chosen) and snap.ahead == ()
    assert [s.action for s in client._local.history if s.action.kind == "hide"] == []

    async def run():
        async for s in client.updates():
            if s.state.phase != "hide":
                return

    asyncio.run(run())
    mine = [s.action for s in client._local.history if s.action.kind == "hide"
            and s.action.seat == 2]
    assert mine == chosen


def test_a_queued_choice_that_became_illegal_is_skipped():
    ahead = Ahead(RULES, 1)
    client = make_client(GameSetup(bots=("greedy",), seed=5, seat=1, pace=0))
    view = client.snapshot().state
    first = ahead.offered(view, False)[0]
    assert ahead.add(first, view, False)
    assert not ahead.add(first, view, False)  # the same slot twice is no choice
    assert ahead.next(view, legal=()) is None and ahead.queued == []  # not legal: dropped


def test_a_choice_ahead_outside_the_set_up_is_refused():
    client = make_client(GameSetup(game="condottiere", bots=("greedy",), seed=5, seat=1, pace=0))
    snap = client.snapshot()
    assert snap.ahead == () and not snap.my_turn
    with pytest.raises(NotYourTurn):
        client.submit(object())


def _no_card_of_another_seat(view, seat, log):
    for holder, row in enumerate(view.alliances):
        for a in row:
            if a is None:
                continue
            placer, hidden, top, up = a
            if placer != seat:
                assert hidden == UNKNOWN  # a hidden card stays hidden from all but its placer
            if holder != seat and not up:
                assert top in (UNKNOWN, NO_CARD)  # a top card is nobody else's before the flip
    houses = RULES.seat_names
    placements = [line for line in log if ("face down" in line or "on shadow alliance" in line)
                  and "turns up" not in line]
    assert placements
    for line in placements:
        if not line.startswith(houses[seat]):  # another seat's placement: where, never what
            assert " places a card " in line, line


async def test_a_networked_seat_places_ahead_and_the_table_shows_who_has_placed(make_game,
                                                                                 clock):
    g = seated(make_game, clock)
    ada, jo = g.peers[0], g.peers[2]
    held = [True]  # Ada, first to place, holds back her placements until it is set False
    hold_back(ada, lambda t: held[0] and t.view is not None
              and getattr(t.view, "phase", "") == "hide" and t.writer() == 0)
    g.link.pump()
    assert ada.table.writer() == 0 and ada.table.view.phase == "hide"
    client = client_of(jo)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = text(app)
        assert "Ahead of your turn:" in shown
        assert "placed: Orsini 0/3, Colonna 0/3, Delle Rovere 0/3" in shown
        entries = len(g.host.table.transcript)
        for left in (3, 2, 1):  # three placements, all ahead of the turn
            assert f"({left} to place)" in " ".join(text(app).split())  # as it will be then
            await pilot.press("1")  # the card
            await pilot.pause()
            if app.screen._question is not None and app.screen._question.field != "card":
                await pilot.press("1")  # the house, when more than one is left
                await pilot.pause()
        assert "(yours queued: 3)" in text(app)
        assert len(g.host.table.transcript) == entries  # nothing of it left this machine
        held[0] = False
        for _ in range(200):
            if jo.table.view.phase != "hide":
                break
            g.link.pump()
            client.changed()
            await pilot.pause()
        assert jo.table.view.phase == "top"
        mine = [e for e in g.host.table.transcript.entries if e.author == 2 and e.kind == "act"]
        assert len(mine) == 3 and all(e.fields["action"]["kind"] == "hide" for e in mine)
        await pilot.pause()
        assert "Delle Rovere 0/3" in text(app).splitlines()[2]  # the top phase counts anew
    for peer in g.peers:
        _no_card_of_another_seat(peer.table.view, peer.table.me, peer.table.log)
        _no_card_of_another_seat(peer.table.view, peer.table.me, client_of(peer).snapshot().log)
