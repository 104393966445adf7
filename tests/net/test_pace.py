"""A bot seat's pace (``PeerRunner(pace=...)``, ``palazzo join --bot --pace``): over real sockets
on 127.0.0.1 it never moves sooner than its pace after its decision became due, so that the
people at the table see its moves one by one; the game is the same game, and it verifies."""

import asyncio
import random

import pytest

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.records.verify import verify_bytes
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tests.net.test_adapters import HANG, serve_on_loopback
from tui.cli import DEFAULT_PACE, main

PACE = 0.05


class Timed:
    """A greedy bot that notes how long its seat's decision had been due when it was asked."""

    def __init__(self, session: PeerSession, seed: int) -> None:
        self.session, self.waited = session, []
        self.bot = get_game("medici").make_bot("greedy", random.Random(seed))

    def choose(self, view, seat):
        self.waited.append(self.session.clock() - self.session.turn_since)
        return self.bot.choose(view, seat)


@pytest.mark.long
async def test_a_paced_bot_never_moves_before_its_pace_and_the_game_verifies():
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    bots = [Timed(p, i) for i, p in enumerate(peers)]
    paces = [PACE, PACE, 0.0]  # the third moves at once
    runners = [PeerRunner(p, "127.0.0.1", port, b, pace=pace)
               for p, b, pace in zip(peers, bots, paces, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(r.run() for r in runners)), HANG)
    await asyncio.wait_for(serving, HANG)
    assert [p.state for p in peers] == ["over"] * 3
    record = peers[0].table.transcript.to_bytes()
    assert {p.table.transcript.to_bytes() for p in peers} == {record} and verify_bytes(record).ok
    for bot in bots[:2]:
        assert bot.waited and min(bot.waited) >= PACE
    # the unpaced seat is asked as soon as its decision is due: well before a pace would let it
    assert min(bots[2].waited) < PACE


@pytest.mark.parametrize("bad", ["-1", "61", "soon"])
def test_a_pace_out_of_range_is_a_usage_error(bad, capsys):
    assert main(["join", "127.0.0.1:7342", "--bot", "greedy", "--pace", bad]) == 2
    assert "--pace" in capsys.readouterr().err


def test_the_join_help_names_the_pace_and_its_default(capsys):
    with pytest.raises(SystemExit):
        main(["join", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--pace SECONDS" in out and f"(default {DEFAULT_PACE:g}; 0: at once)" in out


class Acknowledged:
    """A greedy bot that notes, each time it is asked, whether its seat had already handed the
    socket its acknowledgement of every entry it holds (nothing left to send, the head said)."""

    def __init__(self, session: PeerSession, seed: int) -> None:
        self.session, self.told = session, []
        self.bot = get_game("medici").make_bot("greedy", random.Random(seed))

    def choose(self, view, seat):
        s = self.session
        self.told.append(s.data_to_send() == b"" and s.agreement.sent >= len(s.table.transcript))
        return self.bot.choose(view, seat)


@pytest.mark.long
async def test_a_seat_sends_its_acknowledgements_before_it_decides():
    """The others' disclosures wait on this seat's acknowledgements: a seat sends them as soon
    as it has what it acknowledges, not after its own decision (a person's, a slow bot's) or its
    own deck work."""
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    bots = [Acknowledged(p, i) for i, p in enumerate(peers)]
    runners = [PeerRunner(p, "127.0.0.1", port, b) for p, b in zip(peers, bots, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(r.run() for r in runners)), HANG)
    await asyncio.wait_for(serving, HANG)
    assert [p.state for p in peers] == ["over"] * 3
    record = peers[0].table.transcript.to_bytes()
    assert {p.table.transcript.to_bytes() for p in peers} == {record} and verify_bytes(record).ok
    for bot in bots:
        assert bot.told and all(bot.told), bot.told.count(False)
