"""Helpers for the network tests: a sans-IO host with bot peers on an in-memory link, and the
honest finished games that many tests only read, played once for the whole run."""

import random
from dataclasses import dataclass, field

import pytest

from engine.registry import get_game
from net.session.machines.conversation import Send
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.records.journal import Journal
from net.session.runners.link import MemoryLink, RawPeer
from net.wire.identity import Identity
from net.wire.rpc import Codec
from net.wire.transcript import Entry


@dataclass
class Game:
    host: HostSession
    link: MemoryLink
    peers: list = field(default_factory=list)
    conns: list = field(default_factory=list)
    #: every byte string the host received, in order (kept by ``finished`` games only)
    frames: list = field(default_factory=list)

    def add_bot(self, seed, name=None, identity=None, code=None, bot="greedy", journal=None):
        peer = PeerSession(identity or Identity.generate(), name or f"bot{len(self.peers)}",
                           code=code if code is not None else self.host.code, journal=journal)
        entry = get_game(self.host.game)
        conn = self.link.add(peer, entry.make_bot(bot, random.Random(seed)) if bot else None)
        self.peers.append(peer)
        self.conns.append(conn)
        return peer

    def add_seat(self, clock, i, bot=True, identity=None, journal=None, address=""):
        """Seat ``p<i>`` on the test's ``clock``: a greedy bot's (seeded ``i``), or with
        ``bot=False`` one that never decides by itself; an ``address`` puts it over the network
        (the host pings it)."""
        peer = PeerSession(identity or Identity.generate(), f"p{i}", clock=clock, journal=journal)
        entry = get_game(self.host.game)
        conn = self.link.add(peer, entry.make_bot("greedy", random.Random(i)) if bot else None,
                             address=address)
        self.peers.append(peer)
        self.conns.append(conn)
        return peer

    def add_raw(self):
        raw = RawPeer()
        return raw, self.link.add(raw)

    def transcripts(self):
        return {p.table.transcript.to_bytes() for p in self.peers}


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


def new_game(players=3, game="medici", code=None, options=None, **kw):
    """A host of ``game`` on an in-memory link, no seat taken yet."""
    entry = get_game(game)
    config = entry.rules.make_config(players, options or {})
    host = HostSession(Identity.generate(), game, config, code=code, **kw)
    return Game(host, MemoryLink(host))


@pytest.fixture
def make_game():
    return new_game


def waiting_game(make_game, clock, over_network=False, **kw):
    """A 3-seat game (``p0``-``p2``, on ``clock``) whose seat 2 never decides by itself: the
    game waits on it. ``over_network``: each seat at an address of its own, pinged by the host.
    The game and the seats' identities."""
    g = make_game(3, clock=clock, **kw)
    ids = [Identity.generate() for _ in range(3)]
    for i in range(3):
        g.add_seat(clock, i, bot=i < 2, identity=ids[i],
                   address=f"10.0.0.{i + 1}" if over_network else "")
    g.link.pump()
    assert g.host.table.writer() == 2 and g.peers[2].decision_due()
    return g, ids


@pytest.fixture(scope="session")
def finished():
    """``finished(game, players, options)``: an honest game of greedy bots named Ada0, Ada1, ...
    on seats 0, 1, ..., played to its end once for the whole run and shared by every test that
    asks for the same one (``g.frames`` holds what the host received). Read it, never change it:
    a test that alters a game plays its own. At the end of the run each record is checked to be
    the one the game ended with."""
    games = {}

    def get(game="medici", players=3, options=None):
        key = (game, players, tuple(sorted((options or {}).items())))
        if key not in games:
            g = new_game(players, game=game, options=options)
            receive = g.host.receive_data

            def recording(conn, data):
                g.frames.append(data)
                return receive(conn, data)

            g.host.receive_data = recording
            for i in range(players):
                g.add_bot(i, name=f"Ada{i}", journal=SpyJournal())
            g.link.pump()
            assert g.host.finished and [p.state for p in g.peers] == ["over"] * players
            games[key] = g, g.host.table.transcript.to_bytes()
        return games[key][0]

    yield get
    for g, record in games.values():
        assert g.host.table.transcript.to_bytes() == record, "a test changed a shared game"


@pytest.fixture
def played(finished):
    """A finished 3-player game of greedy bots (one of ``finished``'s: read it, never change it)."""
    return finished("medici", 3)


class SpyJournal(Journal):
    """A memory journal that also remembers, for the test alone, every secret its seat kept (the
    seat's own journal erases them at the end of the game; a test checks nothing leaked them)."""

    def __init__(self):
        super().__init__()
        self.given = {}

    def keep_secret(self, game, slot, value):
        self.given[slot] = value
        super().keep_secret(game, slot, value)


class CheatJournal(Journal):
    """The journal of a seat whose program cheats: for each place it holds what the seat last
    posted there, whatever it signed before (an honest journal never takes a second entry), and
    it forgets an entry the host refused."""

    def write(self, game, entry):
        self._game(game)[entry.seq] = entry

    def forget(self, game, seq):
        self._game(game).pop(seq, None)


class TolerantPeer(PeerSession):
    """A peer a test drives by hand: it records the host's refusals instead of failing, and
    while ``hold`` is set it writes nothing by itself. Its journal is a ``CheatJournal``: what
    it posts, forged or not, is what it holds as its own."""

    def __init__(self, *a, **kw):
        kw.setdefault("journal", CheatJournal())
        super().__init__(*a, **kw)
        self.refusals = []
        self.hold = False

    def _handle(self, event):
        from net.wire.rpc import Response

        if isinstance(event, Response) and event.error is not None:
            self._calls.pop(event.msgid, None)
            self.refusals.append(event.error)
            self._pending = None
            t = self.table
            if t is not None and t.game_id:
                self.journal.forget(t.game_id, len(t.transcript))
            return
        super()._handle(event)

    def _maybe_write(self):
        if not self.hold:
            super()._maybe_write()

    def decision_due(self):
        return not self.hold and super().decision_due()

    def post_now(self, link, conn, wire):
        """Send a ``post`` with these fields (or this ``Entry``) at once and return the host's
        refusal, if any."""
        if isinstance(wire, Entry):
            t = self.table
            if t is not None and t.game_id and wire.author == t.me and wire.seq >= len(t.transcript):
                self.journal.write(t.game_id, wire)
            wire = wire.to_wire()
        before = len(self.refusals)
        self._call("post", (wire,))
        link.send(conn, self.data_to_send())
        return self.refusals[before] if len(self.refusals) > before else None


@pytest.fixture
def tolerant_peer():
    """The class of a peer a test drives by hand (``TolerantPeer``)."""
    return TolerantPeer


def relay_tamper(g, victim_conn, change):
    """Let ``change`` turn each event the host relays to one peer into a list of events."""
    original = g.link.deliver

    def deliver(outputs):
        out = []
        for o in outputs:
            if isinstance(o, Send) and o.conn == victim_conn:
                events = [x for e in Codec().receive_data(o.data) for x in change(e)]
                o = Send(o.conn, b"".join(Codec().send(e) for e in events))
            out.append(o)
        original(out)

    g.link.deliver = deliver


@pytest.fixture
def tamper():
    """``relay_tamper``: rewrite what the host relays to one peer."""
    return relay_tamper


@pytest.fixture
def tolerant_game(make_game):
    """A 3-player game whose seat 0 is a held ``TolerantPeer``, the others greedy bots."""

    def make(players=3):
        g = make_game(players)
        cheat = TolerantPeer(Identity.generate(), "mallory")
        cheat.hold = True
        conn = g.link.add(cheat)
        g.peers.append(cheat)
        g.conns.append(conn)
        for i in range(1, players):
            g.add_bot(i)
        g.link.pump()
        return g, cheat, conn

    return make


def rebuild_full_game(tables):
    """The full states of a finished game, one more than its steps, from what the seats knew
    between them (no seat ever reveals its cards, so only a test that holds every seat can do
    this): each step as the seat it concerns knew it (its author, or a draw's receiver), applied
    through the rules' checked door to the full state, which must accept every one."""
    lead = tables[0]
    by_seat = {t.me: t for t in tables}
    assert all(len(t.steps) == len(lead.steps) for t in tables)
    rules = lead.rules
    state = rules.new_game(lead.config)
    states = [state]
    for i, (_, action, _) in enumerate(lead.steps):
        knows = by_seat.get(getattr(action, "seat", -1), lead)
        state = rules.apply(state, knows.steps[i][1])
        states.append(state)
    return states


@pytest.fixture
def full_game():
    """``rebuild_full_game``: a finished game's full states from every seat's table."""
    return rebuild_full_game
