"""Attacks on the sessions themselves, by a host (or someone playing the host) that drives the
project's own ``HostSession``/``PeerSession`` and changes only what it controls: what it relays,
to whom, when, and what it signs with its own key. Each test plays real games on the in-memory
link, with real keys, journals and the real fair deck, and asserts what an honest player cares
about: the attack is refused and its author named, no secret of the player's reaches the host,
no honest seat is named, and nobody's program crashes. No seat ever publishes its deck secret
(not at the end, not after a forfeit), so ``readable`` tries every scalar anything the host holds
carries, and finds none that opens a card."""

import logging
import random

import msgpack
import pytest

from engine.registry import get_game
from net.deck import group
from net.session.commands.hosting import save_transcript
from net.session.machines.conversation import host_proof, param_map
from net.session.machines.host_door import Seat
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.machines.table import Table
from net.session.records.journal import Journal
from net.session.records.verify import read_entries, verify_bytes
from net.session.runners.link import MemoryLink, RawPeer
from net.wire.errors import E_BAD_PARAMS, HOST, Fault, RemoteProtocolError
from net.wire.identity import Identity, verify
from net.wire.rpc import Codec, Notification, Request, Response
from net.wire.transcript import ENTRY_TAG, Entry, Transcript, derive_game_id, genesis, save

PLAYERS = 3
#: the neutral element and the points of order 2, 4 and 8 (the identity is also the key for
#: which ``UNIVERSAL`` verifies every message under a lax verifier)
ED_IDENTITY = bytes([1]) + bytes(31)
SMALL_ORDER = [
    ED_IDENTITY,
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes(32),
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
]
NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")  # the identity's y, plus p
UNIVERSAL = ED_IDENTITY + bytes(32)  # R = identity, S = 0


@pytest.fixture(autouse=True)
def no_internal_errors(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    yield
    assert "internal error" not in caplog.text


# -- players who come back for more games ---------------------------------------------------------


class Player:
    """A person at their machine: one key and one journal kept from game to game."""

    def __init__(self, i, journal=None):
        self.identity = Identity.generate()
        self.journal = journal or Journal()
        self.name = f"p{i}"

    def session(self):
        """A fresh program run of this player's."""
        return PeerSession(self.identity, self.name, journal=self.journal)


def bot(seed, game="medici"):
    return get_game(game).make_bot("greedy", random.Random(seed))


def table(host_identity, players, host_cls=HostSession, game="medici", **kw):
    """A host (of ``host_cls``) and one session per player on a link; nothing pumped yet."""
    config = get_game(game).rules.make_config(len(players), {})
    host = host_cls(host_identity, game, config, **kw)
    link = MemoryLink(host)
    peers, conns = [], []
    for i, p in enumerate(players):
        peer = p.session()
        conns.append(link.add(peer, bot(i, game)))
        peers.append(peer)
    return host, link, peers, conns


def step_until(link, done, limit=200_000):
    """Move one message at a time (bots deciding when due) until ``done()``."""
    for _ in range(limit):
        if done():
            return
        for conn, peer in list(link.peers.items()):
            data = peer.data_to_send()
            if data:
                link.send(conn, data)
                break
            player = link.bots.get(conn)
            if player is not None and isinstance(peer, PeerSession) and peer.decision_due():
                peer.act(player.choose(peer.view, peer.table.me))
                break
        else:
            raise AssertionError("the game stopped before the moment came")
    raise AssertionError("the moment never came")


def dealt(t):
    """Whether every deck of the game has dealt cards and no share is awaited (mid-play)."""
    d = t.dealer
    return (t.phase == "play" and d is not None and d.keys is not None and d.due() is None
            and not d.pending and all(deck.handles for deck in d.decks.values()))


# -- what the host can read -----------------------------------------------------------------------


def scalars_in(value, skip=()):
    """Every canonical scalar a holder of ``value`` could try as a secret: each 32-byte string,
    and each 32-byte piece of a longer one, anywhere in it (``skip`` names map fields left out)."""
    found = set()
    if type(value) is bytes:
        for i in range(0, len(value) - 31, 32):
            k = int.from_bytes(value[i:i + 32], "little")
            if 0 < k < group.L:
                found.add(k)
    elif type(value) is dict:
        for name, v in value.items():
            if name not in skip:
                found |= scalars_in(v, skip)
    elif type(value) is list:
        for v in value:
            found |= scalars_in(v, skip)
    return found


def readable(held, t, secrets=None, skip=()):
    """The hidden cards of ``t``'s game (a table that followed it: the host's) that someone
    holding the entries ``held`` (of any game) can unmask: with every scalar found in them that
    is some seat's key secret for this game, plus ``secrets`` (seat -> secret) if given."""
    d = t.dealer
    found = set(secrets.values()) if secrets else set()
    for e in held:
        found |= scalars_in(e.fields, skip)
    keys = {seat: x for x in found for seat, y in enumerate(d.keys.shares)
            if group.base_mul(x) == y}
    cards = []
    for deck_id, deck in d.decks.items():
        for h in range(deck.handles):
            holder = deck.holder(h)
            if holder is None or deck.is_open(h) or holder not in keys:
                continue
            ct = deck.ciphertext(h)
            shares = dict(deck._get(h).shares)
            if any(s not in shares and s not in keys for s in range(t.players)):
                continue
            point = ct.c2
            for s in range(t.players):
                share = shares[s] if s in shares else group.mul(keys[s], ct.c1)
                point = group.sub(point, share)
            if deck.table.index(point) is not None:
                cards.append((deck_id, h, holder))
    return cards


def secrets_of(peers):
    return {p.table.me: p.table.dealer.secret for p in peers}


class Attacker(HostSession):
    """A host session whose test changes some of its moves; it counts the posts it gets."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.posts = {}  # conn -> posts received

    def _post(self, conn, req):
        self.posts[conn] = self.posts.get(conn, 0) + 1
        return super()._post(conn, req)

    def all_ready(self):
        return (self.table.phase == "lobby" and len(self.seats) >= self.players
                and all(s.ready for s in self.seats))


# -- 1. a start replayed from an earlier game -----------------------------------------------------


class ReplayHost(Attacker):
    """Once every seat is ready, it relays an earlier game's start, seed and key entries
    instead of writing a start of its own."""

    def __init__(self, *a, old=(), **kw):
        super().__init__(*a, **kw)
        self.old = old

    def _maybe_start(self):
        if not self.all_ready():
            return
        for e in self.old:
            if e.kind not in ("start", "seed-commit", "seed-open", "deck") \
                    or (e.kind == "deck" and e.fields["msgs"][0]["type"] != "deck/key"):
                break
            self.table.accept(e)
            self._relay(e)


@pytest.mark.long
def test_attack_replay_across_games():
    host_id = Identity.generate()
    players = [Player(i) for i in range(PLAYERS)]
    first, link, peers1, _ = table(host_id, players)
    link.pump()
    assert first.finished and [p.state for p in peers1] == ["over"] * PLAYERS
    old_secrets = secrets_of(peers1)
    old = first.table.transcript.entries

    replay, link, peers2, _ = table(host_id, players, ReplayHost, old=old)
    link.pump()
    assert len(replay.table.transcript) > PLAYERS  # the start, the seeds, the keys went out
    for p in peers2:  # only each seat's journal shows the replay: a fault that names nobody
        assert p.state == "failed" and isinstance(p.error, Fault), p.error
        assert "nobody is named" in str(p.error)
        assert "contribution check: the start lacks this seat's fresh contribution" in p.error.reason
        assert not p.table.transcript.entries and p.table.dealer is None  # nothing restored
    assert replay.posts == {}  # not one entry signed for the replayed game

    # the players play again, with a host that keeps to the rules this time: a fresh game
    third, link, peers3, _ = table(host_id, players)
    step_until(link, lambda: dealt(third.table))
    assert third.table.game_id != first.table.game_id
    new = secrets_of(peers3)
    assert not set(new.values()) & set(old_secrets.values())
    held = [*old, *replay.table.transcript.entries, *third.table.transcript.entries]
    assert readable(held, third.table) == []
    # the check can see a card: with a seat's secret of this game, that seat's cards open
    assert {c[2] for c in readable(held, third.table, {1: new[1]})} == {1}


def test_an_entry_in_a_seats_name_that_it_did_not_write_stops_that_seat_as_a_fault(tolerant_game):
    """Its own key signed it for this place of this game (the body names both), so another
    program holding the key wrote it: the host cannot sign for the seat, so nobody is named, and
    this program stops rather than sign a second entry for one place."""
    g, cheat, conn = tolerant_game()
    t = cheat.table
    honest = t.auto_entry()  # journaled
    other = Entry.sign(cheat.identity, {**honest.fields, "commit": bytes(32)})
    with pytest.raises(Fault) as info:
        t.accept(other)
    assert "another program with this identity signed it" in info.value.reason
    assert len(t.transcript) == honest.seq
    t.accept(honest)  # its own, as journaled
    assert len(t.transcript) == honest.seq + 1


# -- 2. someone with a saved transcript and without the host's key --------------------------------


class Impostor(Attacker):
    """With an identity of its own, it announces a real host's key (taken from a saved
    transcript), answers the hello as well as it can, and would resend the saved entries."""

    def __init__(self, *a, stolen_key=b"", saved=(), **kw):
        super().__init__(*a, **kw)
        self.stolen_key, self.saved = stolen_key, saved

    def _notify(self, conn, method, payload):
        if method == "challenge":
            payload = {**payload, "host": self.stolen_key}
        super()._notify(conn, method, payload)

    def _hello(self, conn, req):
        m = param_map(req)
        c = self.conns[conn]
        c.seat = len(self.seats)
        self.seats.append(Seat(m["name"], m["key"], conn, m["nonce"]))
        # the best it can do: a proof signed by its own key, not by the one it announced
        return {"seat": c.seat, "players": self.players, "length": len(self.saved),
                "resume": True, "proof": host_proof(self.identity, m["nonce"], m["key"])}

    def _after(self, conn, method):
        if method == "hello":
            for e in self.saved:
                self._notify(conn, "entry", e.to_wire())


def test_attack_keyless_impostor():
    host_id = Identity.generate()
    players = [Player(i) for i in range(PLAYERS)]
    real, link, peers, conns = table(host_id, players)
    step_until(link, lambda: dealt(real.table))
    saved = read_entries(real.table.transcript.to_bytes())

    config = get_game("medici").rules.make_config(PLAYERS, {})
    impostor = Impostor(Identity.generate(), "medici", config, stolen_key=host_id.public_key,
                        saved=saved)
    fake = MemoryLink(impostor)
    # seat 1 lost its connection and finds the impostor where its host was; seat 2's program
    # was restarted and joins it afresh
    link.drop(conns[1])
    peers[1].reconnect()
    fake.add(peers[1])
    restarted = players[2].session()
    fake.add(restarted)
    fake.pump()
    for p in (peers[1], restarted):
        assert p.state == "failed" and isinstance(p.error, RemoteProtocolError), p.error
        assert "host key check: the host did not prove its key" in str(p.error)
    assert not restarted.table.transcript.entries  # refused before a single entry
    assert len(peers[1].table.transcript) == len(saved)
    assert impostor.posts == {}


# -- 3. secrets harvested from games cut short ------------------------------------------------------


def cut_short(host, link, seat):
    """Play until ``seat`` must write in mid-play, then have the host forfeit it."""
    step_until(link, lambda: dealt(host.table) and host.table.writer() == seat)
    host._write({"kind": "forfeit", "seat": seat, "reason": "no move in time"})
    link.pump()
    assert host.finished


class SameIdHost(Attacker):
    """It starts a game under an earlier game's id: the earlier start's seats and nonces, so
    that the seats' entries of both games would fit together (what a host that chose the id
    could do to gather, from games cut short, every seat's secret for one id)."""

    def __init__(self, *a, earlier=None, **kw):
        super().__init__(*a, **kw)
        self.earlier = earlier

    def _maybe_start(self):
        if not self.all_ready():
            return
        old = self.earlier.fields
        header = ("v", "game", "seq", "prev", "author")
        self._write({**{k: v for k, v in old.items() if k not in header},
                     "time": old["time"] + 60}, game_id=old["game"])


@pytest.mark.long
def test_attack_harvest_by_forfeits():
    host_id = Identity.generate()
    players = [Player(i) for i in range(PLAYERS)]
    held, ids, earlier = [], [], []
    for forfeited in (0, 1):
        host, link, peers, _ = table(host_id, players)
        cut_short(host, link, forfeited)
        assert all(p.table.result()["end"] == "forfeit" for p in peers)
        # a forfeit publishes nothing: the game cut short opens no card of its own either
        assert readable(host.table.transcript.entries, host.table) == []
        held += host.table.transcript.entries
        ids.append(host.table.game_id)
        earlier += secrets_of(peers).values()
        # the next game under this one's id: every seat refuses its start
        again, link, peers, _ = table(host_id, players, SameIdHost,
                                      earlier=host.table.transcript.entries[0])
        link.pump()
        assert again.table.game_id == ids[-1]
        for p in peers:
            assert p.state == "failed" and isinstance(p.error, Fault), p.error
            assert "contribution check" in p.error.reason and p.table.dealer is None
        assert again.posts == {}
        held += again.table.transcript.entries
    host, link, peers, _ = table(host_id, players)
    step_until(link, lambda: dealt(host.table))
    ids.append(host.table.game_id)
    assert len(set(ids)) == 3  # every game fresh
    new = secrets_of(peers)
    assert not set(new.values()) & set(earlier)
    held += host.table.transcript.entries
    assert readable(held, host.table) == []
    assert readable(held, host.table, {0: new[0]}) != []


# -- 4. a forfeit shown to one seat alone, then that seat's program restarts ------------------------


class ForkingHost(Attacker):
    """It shows one connection alone a forfeit of the seat due, keeps what that seat writes on
    the fork, and cuts it off; the others' game goes on."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.fork_conn = None
        self.kept = []

    def show_forfeit(self, conn):
        t = self.table
        e = Entry.sign(self.identity, {
            "game": t.game_id, "seq": len(t.transcript), "prev": t.transcript.head,
            "author": HOST, "kind": "forfeit", "seat": t.writer(), "reason": "no move in time"})
        self.kept.append(e)
        self.fork_conn = conn
        self._notify(conn, "entry", self._wire(e))  # with its own signature of the fork's head
        return self.take_output()

    def _broadcast(self, method, payload, but=None, first=()):
        if self.fork_conn is None:
            return super()._broadcast(method, payload, but, first)
        for conn, c in self.conns.items():  # the real game, and its acknowledgements: not to the fork
            if conn not in (but, self.fork_conn) and c.seat is not None and not c.closed:
                self._notify(conn, method, payload)
        return None

    def _post(self, conn, req):
        if conn != self.fork_conn:
            return super()._post(conn, req)
        m = param_map(req)
        self.kept.append(Entry.parse(m.get("body"), m.get("sig")))
        self._close(conn, "gone")
        return None


def test_attack_forked_forfeit_then_rejoin():
    host_id = Identity.generate()
    players = [Player(i) for i in range(PLAYERS)]
    host, link, peers, conns = table(host_id, players, ForkingHost)
    step_until(link, lambda: dealt(host.table) and host.table.writer() == 1)
    n = len(host.table.transcript)
    game = host.table.game_id
    link.deliver(host.show_forfeit(conns[0]))
    link.pump()
    wrote = players[0].journal.entries(game)
    # on the fork the victim signed its end, and holds it: no other seat acknowledged the fork
    assert wrote[n + 1].kind == "end" and peers[0]._gated == wrote[n + 1]
    assert len(host.kept) == 1  # the forfeit: nothing of the victim's came out of the fork
    link.drop(conns[0])  # the host cuts it off
    assert peers[0].state == "disconnected" and peers[0].error is None
    assert len(host.table.transcript) > n and host.table.transcript.entries[n].author == 1

    # the victim's program restarts and rejoins the real game
    again = players[0].session()
    conn = link.add(again, bot(7))
    link.pump()
    # what the host signed of the fork went with the old program: a fault that names nobody
    assert again.state == "failed" and isinstance(again.error, Fault), again.error
    assert f"this seat wrote entry {n + 1} after another history" in again.error.reason
    assert conn not in host.posts  # it signed nothing more in this game
    assert players[0].journal.entries(game) == wrote
    assert players[0].journal.finished(game)  # and it will not follow this game again
    # nothing the host holds, the forked end included, opens the victim's cards
    everything = [*host.table.transcript.entries, *host.kept]
    assert [c for c in readable(everything, host.table) if c[2] == 0] == []
    # a fresh program without its journal does not take the game for its own either (the
    # failed one has stopped: its connection is closed)
    link.drop(conn)
    stranger = PeerSession(players[0].identity, "p0")
    link.add(stranger, bot(8))
    link.pump()
    # its journal is not here: a fault that names nobody, and it cannot go on without the deck
    # key its journal kept
    assert stranger.state == "failed" and isinstance(stranger.error, Fault), stranger.error
    assert "fair-deck key secret is not in this machine's journal" in stranger.error.reason


# -- 5. a swallowed post and a dropped connection --------------------------------------------------


class SwallowingHost(Attacker):
    """It swallows the first deck entry of seat 1 (its key: fresh randomness) and drops the
    connection, keeping the entry; later it relays that version to everyone."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.swallowed = []

    def _post(self, conn, req):
        m = param_map(req)
        entry = Entry.parse(m.get("body"), m.get("sig"))
        if not self.swallowed and entry.author == 1 and entry.kind == "deck":
            self.swallowed.append(entry)
            self._close(conn, "gone")
            return None
        return super()._post(conn, req)

    def frame(self):
        for conn in list(self.conns):
            self._notify(conn, "entry", self.swallowed[0].to_wire())
        return self.take_output()


@pytest.mark.long
@pytest.mark.parametrize("how", ["reconnect", "restart"])
def test_attack_framing_by_reconnect(how, tmp_path):
    host_id = Identity.generate()
    players = [Player(i) for i in range(PLAYERS)]
    players[1].journal = Journal.for_identity(players[1].identity.public_key, tmp_path)
    host, link, peers, conns = table(host_id, players, SwallowingHost)
    link.pump()
    (swallowed,) = host.swallowed
    assert peers[1].state == "disconnected" and len(host.table.transcript) == swallowed.seq
    if how == "reconnect":
        peers[1].reconnect()
        back = peers[1]
    else:  # a new program, reading its journal back from its files
        players[1].journal = Journal.for_identity(players[1].identity.public_key, tmp_path)
        back = players[1].session()
    link.add(back, bot(1))
    step_until(link, lambda: len(host.table.transcript) > swallowed.seq + 2)
    assert host.table.transcript.entries[swallowed.seq].body == swallowed.body  # the same bytes
    link.deliver(host.frame())
    link.pump()
    everyone = [peers[0], back, peers[2]]
    assert host.finished and [p.state for p in everyone] == ["over"] * PLAYERS, \
        [str(p.error) for p in everyone]
    assert len({p.table.transcript.to_bytes() for p in everyone}) == 1
    assert all(p.table.result()["verdict"] == "verified" for p in everyone)


# -- 6. keys of small order ------------------------------------------------------------------------


class GhostSeatHost(Attacker):
    """It seats a key nobody holds (``ghost``) beside the real players and writes the start
    itself, signed, without checking it."""

    def __init__(self, *a, ghost=b"", **kw):
        super().__init__(*a, **kw)
        self.ghost = ghost

    def all_ready(self):
        return (self.table.phase == "lobby" and len(self.seats) == self.players - 1
                and all(s.ready for s in self.seats))

    def _maybe_start(self):
        if not self.all_ready():
            return
        seats = [*self.seats, Seat("ghost", self.ghost, None, bytes(32), True)]
        host = self.identity.public_key
        game = derive_game_id(host, [(s.key, s.nonce) for s in seats])
        self.started_with = Entry.sign(self.identity, {
            "game": game, "seq": 0, "prev": genesis(game), "author": HOST, "kind": "start",
            "rules": self.game, "config": self.config.to_data(), "host": host,
            "seats": [{"name": s.name, "key": s.key, "nonce": s.nonce} for s in seats],
            "time": 0, "timeout": 0, "on_timeout": "forfeit"})
        self._relay(self.started_with)


def record(*entries):
    t = Transcript()
    t.entries = list(entries)
    return t.to_bytes()


@pytest.mark.parametrize("key", [*SMALL_ORDER, NON_CANONICAL])
def test_attack_small_order_key(key):
    assert verify(ED_IDENTITY, ENTRY_TAG, b"any body at all", UNIVERSAL) is False
    expected = "small order" if key in SMALL_ORDER else "non-canonical"
    host_id = Identity.generate()
    config = get_game("medici").rules.make_config(PLAYERS, {})
    # at hello
    host = HostSession(host_id, "medici", config)
    link = MemoryLink(host)
    raw = RawPeer()
    conn = link.add(raw)
    link.send(conn, Codec().send(Request(1, "hello", ({
        "name": "ghost", "key": key, "sig": UNIVERSAL, "nonce": bytes(32)},))))
    (answer,) = [e for e in raw.events() if isinstance(e, Response)]
    assert answer.error.code == E_BAD_PARAMS and "Ed25519 key check" in answer.error.message
    assert expected in answer.error.message and host.seats == []
    # as the host's key in a challenge
    peer = PeerSession(Identity.generate(), "p")
    peer.receive_data(Codec().send(Notification("challenge", ({
        "nonce": bytes(32), "host": key, "version": 3, "game": "medici", "players": 3,
        "code": False},))))
    assert peer.state == "failed" and "the host key is refused" in str(peer.error)
    assert expected in str(peer.error) and not peer.data_to_send()
    # as a seat's key in a start
    ghostly = GhostSeatHost(host_id, "medici", config, ghost=key)
    link = MemoryLink(ghostly)
    peers = [Player(i).session() for i in range(PLAYERS - 1)]
    for p in peers:
        link.add(p)
    link.pump()
    for p in peers:
        assert p.state == "failed" and p.error.seat == HOST and p.error.step == 0
        assert "seat 2's key is refused (Ed25519 key check" in p.error.reason
        assert expected in p.error.reason
    start = ghostly.started_with
    # an entry forged in the ghost's name with the one signature that fits every message
    forged = Entry.sign(host_id, {"game": start.fields["game"], "seq": 1, "prev": bytes(32),
                                  "author": 2, "kind": "seed-commit", "commit": bytes(32)})
    forged = Entry.parse(forged.body, UNIVERSAL)
    assert not forged.signed_by(key)
    v = verify_bytes(record(start, forged))
    assert v.kind == "cheat" and v.seat == HOST and v.step == 0 and expected in v.text
    # as the host's key in a start: the record is refused
    fake = Entry.parse(Entry.sign(host_id, {**start.fields, "host": key}).body, UNIVERSAL)
    v = verify_bytes(record(fake))
    assert v.kind == "rejected" and "the host key is refused (Ed25519 key check" in v.text
    assert expected in v.text
    with pytest.raises(RemoteProtocolError, match="key is refused"):
        Table(key, None).accept(fake)


# -- 7. bodies in another encoding than the canonical one ------------------------------------------


def _variants(fields):
    """``fields`` in non-canonical msgpack: (the check's words, body bytes)."""
    pack = msgpack.Packer(use_bin_type=True).pack
    pairs = b"".join(pack(k) + pack(v) for k, v in fields.items())
    n = len(fields)
    seq = fields["seq"]
    later = {**fields, "seq": seq + 1}
    return [
        # "seq" twice: a reader keeping the first and one keeping the last read two entries
        ("a map repeats the key 'seq'",
         bytes([0x80 | (n + 1)]) + pairs + pack("seq") + pack(seq + 1)),
        ("a map repeats the key 'seq'",
         bytes([0x80 | (n + 1)]) + b"".join(pack(k) + pack(v) for k, v in later.items())
         + pack("seq") + pack(seq)),
        ("shortest encoding", bytes([0x80 | n]) + pairs.replace(  # seq as a uint32
            pack("seq") + pack(seq), pack("seq") + b"\xce" + seq.to_bytes(4, "big"))),
        ("shortest encoding", b"\xde" + n.to_bytes(2, "big") + pairs),  # a map16 for a small map
        ("shortest encoding", bytes([0x80 | n]) + pairs.replace(  # a str8 for a short string
            pack("kind") + pack(fields["kind"]),
            pack("kind") + b"\xd9" + bytes([len(fields["kind"])]) + fields["kind"].encode())),
    ]


@pytest.mark.parametrize("which", range(5))
def test_attack_non_canonical_body(which, tolerant_game, tamper):
    g, cheat, conn = tolerant_game()
    t = cheat.table
    assert t.phase == "seed-commit" and t.writer() == t.me == 0
    honest = t.auto_entry()
    wrong, body = _variants(honest.fields)[which]
    forged = Entry(body, cheat.identity.sign(ENTRY_TAG, body), {})
    assert forged.signed_by(cheat.identity.public_key)  # the signature is fine
    if "repeats" in wrong:  # two readers, keeping the first or the last of a repeated key
        first = msgpack.unpackb(body, object_pairs_hook=lambda pairs: dict(reversed(pairs)))
        assert first != msgpack.unpackb(body) and honest.fields in (first, msgpack.unpackb(body))
    # the host refuses it, naming the check
    err = cheat.post_now(g.link, conn, forged.to_wire())
    assert err is not None and err.code == E_BAD_PARAMS, err
    assert "canonical msgpack check" in err.message and wrong in err.message
    assert len(g.host.table.transcript) == 1
    # a peer it is given to (on the way: the host signed nothing of it) stops on a fault that
    # names nobody, the check named
    victim = g.peers[1]

    def swap(e):
        if isinstance(e, Notification) and e.method == "entry" and e.params[0]["body"] == honest.body:
            return [Notification("entry", (forged.to_wire(),))]
        return [e]

    tamper(g, g.conns[1], swap)
    # the same entry, canonically encoded and signed, is taken by the host
    assert cheat.post_now(g.link, conn, honest) is None
    assert g.host.table.transcript.entries[1].body == honest.body
    assert victim.state == "failed" and isinstance(victim.error, Fault), victim.error
    assert "canonical msgpack check" in victim.error.reason and wrong in victim.error.reason
    assert len(victim.table.transcript) == 1
    assert g.peers[2].state == "playing" and len(g.peers[2].table.transcript) == 2
    # and verify refuses a record holding it
    v = verify_bytes(record(g.host.table.transcript.entries[0], forged))
    assert v.kind == "rejected" and v.step is None and "entry 1" in v.text
    assert "canonical msgpack check" in v.text and wrong in v.text


# -- 8. a forfeit before the fair deck exists ------------------------------------------------------


@pytest.mark.parametrize("phase", ["seed-commit", "seed-open"])
def test_attack_seed_phase_forfeit(phase, make_game, tolerant_peer, clock):
    g = make_game(PLAYERS, turn_timeout=30, clock=clock)
    g.add_bot(0)
    slow = tolerant_peer(Identity.generate(), "slow")
    slow.hold = True
    conn = g.link.add(slow)
    g.peers.append(slow)
    g.conns.append(conn)
    g.add_bot(2)
    g.link.pump()
    if phase == "seed-open":  # it commits, and then it does not open
        assert slow.post_now(g.link, conn, slow.table.auto_entry()) is None
        g.link.pump()
    assert g.host.table.phase == phase and g.host.table.writer() == 1
    clock.now += 31
    g.link.pump()
    assert g.host.finished
    assert [p.state for p in g.peers] == ["over"] * PLAYERS, [str(p.error) for p in g.peers]
    assert all(p.table.result()["end"] == "forfeit" for p in g.peers)
    assert all(p.table.result()["forfeited"] == [1] for p in g.peers)
    assert len(g.transcripts()) == 1 and g.host.table.transcript.to_bytes() in g.transcripts()
    v = verify_bytes(g.host.table.transcript.to_bytes())
    assert v.ok and v.text.startswith("verified as far as it went: slow forfeited"), v.text


# -- saved games -------------------------------------------------------------------------------------


@pytest.mark.long
def test_two_games_of_the_same_players_in_one_second_are_saved_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    host_id = Identity.generate()
    players = [Player(i) for i in range(PLAYERS)]
    paths = []
    for _ in range(2):
        host, link, peers, _ = table(host_id, players, wall=lambda: 1_700_000_000)
        link.pump()
        assert host.finished and host.table.started == 1_700_000_000
        said = []
        save_transcript(peers[0].table, said.append)
        paths.append(said[0].removeprefix("transcript: "))
        assert verify_bytes(open(paths[-1], "rb").read()).ok
    assert paths[0] != paths[1]
    files = sorted((tmp_path / "palazzo" / "games").iterdir())
    assert [str(f) for f in files] == sorted(paths)
    # even under one name, a save never replaces another game's file; the same bytes stay one
    one, two = Transcript(), Transcript()
    for t, path in ((one, paths[0]), (two, paths[1])):
        for e in read_entries(open(path, "rb").read()):
            t.append(e)
    a = save(one, "same.palazzo", tmp_path)
    b = save(two, "same.palazzo", tmp_path)
    assert a != b and a.read_bytes() == one.to_bytes() and b.read_bytes() == two.to_bytes()
    assert save(one, "same.palazzo", tmp_path) == a
    assert b.name == "same-2.palazzo"
    # the same game saved again further along (a record so far, then the whole): one file, the
    # longer record in it; a part of it saved later leaves it whole
    part, whole = Transcript(), Transcript()
    for i, e in enumerate(read_entries(open(paths[0], "rb").read())):
        whole.append(e)
        if i < 3:
            part.append(e)
    c = save(part, "one-game.palazzo", tmp_path)
    assert c.read_bytes() == part.to_bytes()
    assert save(whole, "one-game.palazzo", tmp_path) == c and c.read_bytes() == whole.to_bytes()
    assert save(part, "one-game.palazzo", tmp_path) == c and c.read_bytes() == whole.to_bytes()
    assert not list(tmp_path.glob("one-game-*")) and not list(tmp_path.glob(".*.tmp"))
