"""Any value in any field of any entry kind of both games, correctly signed by its author, through
the three readers that meet it: the host (as a ``post`` from the author's seat), a peer (as an
``entry`` relayed to it) and ``verify`` (as the last entry of a saved record).

Each reader must answer within a budget (a hang fails the test: a move naming stack -2 once sent
the host and ``verify`` into a loop that never ended) and only with the documented refusal: the
host an error response other than ``E_INTERNAL``, the peer ``CheatDetected`` or
``RemoteProtocolError``, ``verify`` a verdict that is not "unreadable". Or the entry is taken,
when it happens to be a legal one. Reproducible: derandomized under the ``ci`` profile.
"""

import copy
import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.registry import get_game
from net.session.machines.entries import FIELDS
from net.session.machines.host_door import Seat
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.machines.table import Table
from net.session.records.journal import Journal
from net.session.records.verify import verify_bytes
from net.session.runners.link import MemoryLink, RawPeer
from net.wire.errors import E_INTERNAL, CheatDetected, Fault, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.rpc import Codec, Notification, Request, Response
from net.wire.transcript import MAGIC, Entry
from tests.net.conftest import SpyJournal

GAMES = {"medici": (3, {}), "condottiere": (2, {"hidden_cards": True})}
READERS = (0, 1)  # the seats whose tables read the relayed entries (one is mostly the author)
BUDGET = 2.0  # seconds for one reader to take or refuse one entry
VERIFY_BUDGET = 30.0  # seconds for verify to read a whole record that ends with it
_PLAYED: dict[str, dict] = {}


def _copy(t):
    tables = [d.table for d in t.dealer.decks.values()] if t.dealer is not None else []
    memo = {id(t.identity): t.identity, **{id(v): v for v in tables}}  # shared, read only
    return copy.deepcopy(t, memo)


def _played(game):
    """A finished game: its entries, the host's and seats' identities, and each reader's table
    just before a few entries of every kind (``tables[viewer][k]``; viewer -1 the observer)."""
    if game not in _PLAYED:
        players, options = GAMES[game]
        entry = get_game(game)
        ids = [Identity.generate() for _ in range(players)]
        host = HostSession(Identity.generate(), game, entry.rules.make_config(players, options))
        link = MemoryLink(host)
        peers = [PeerSession(ids[i], f"p{i}", journal=SpyJournal()) for i in range(players)]
        for i, peer in enumerate(peers):
            link.add(peer, entry.make_bot("greedy", random.Random(i)))
        link.pump()
        assert host.finished
        entries = host.table.transcript.entries
        by_kind: dict[str, list[int]] = {}
        for i, e in enumerate(entries):  # every entry kind, and every action kind of an act
            what = e.kind + "/" + e.fields["action"]["kind"] if e.kind == "act" else e.kind
            by_kind.setdefault(what, []).append(i)
        groups = [sorted({ks[0], ks[-1]}) for _, ks in sorted(by_kind.items())]
        picks = sorted({i for g in groups for i in g})
        tables: dict[int, dict[int, Table]] = {}
        for viewer in (-1, *READERS):
            journal = None
            if viewer >= 0:  # the seat's secrets, which its journal erased at the end
                journal = Journal()
                for slot, value in peers[viewer].journal.given.items():
                    journal.keep_secret(host.table.game_id, slot, value)
            t = Table(host.identity.public_key, None if viewer < 0 else ids[viewer], journal)
            tables[viewer] = {}
            for i, e in enumerate(entries):
                if i in picks:
                    tables[viewer][i] = _copy(t)
                t.accept(e)
        _PLAYED[game] = {"host": host, "ids": ids, "entries": entries, "groups": groups,
                         "tables": tables, "work": {}}
    return _PLAYED[game]


def _table(p, viewer, k):
    """A working copy of ``viewer``'s table before entry ``k`` (made again once an entry was
    taken on it)."""
    key = (viewer, k)
    t = p["work"].get(key)
    if t is None or len(t.transcript) != k:
        t = p["work"][key] = _copy(p["tables"][viewer][k])
    return t


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 1001), st.integers(-(2**63), 2**64 - 1),
    st.binary(max_size=70), st.sampled_from([bytes(16), bytes(28), bytes(32), bytes(64), b"\xff" * 32]),
    st.text(max_size=6), st.sampled_from(["\x1b[2J", "a\nb", "", "pile", "house0", "deck/shares",
                                          "deck/shuffle", "deck/key", "act", "end", "forfeit"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["kind", "seat", "card", "target", "elim", "value", "extra",
                                     "flip", "cards", "deck", "type", "handles", "shares",
                                     "proof", "secret", "seeds", "number", "name", "key", "zz"]),
                    inner, max_size=5)), max_leaves=10)


@st.composite
def mutations(draw, entry):
    """One change to ``entry``'s fields: a field set to any value, dropped or added, or one key
    of a map field (an action, an open, a deck message, a seat) set to any value."""
    fields = {k: v for k, v in entry.fields.items() if k != "v"}
    names = sorted(set(fields) | set(FIELDS.get(entry.kind, {})) | {"handles", "open",
                                                                    "kind_proof", "zz"})
    ways = ["set", "drop", "nested"] + (["action"] * 3 if entry.kind == "act" else [])
    how = draw(st.sampled_from(ways))
    if how == "action":  # the action's numbers, where every game names its stacks and cards
        changes = draw(st.dictionaries(
            st.sampled_from(["seat", "card", "value", "target", "elim", "extra", "flip"]),
            st.one_of(st.sampled_from([-3, -2, -1, 0, 1, 2, 3, 999, 1000, 10_000, -(2**63)]),
                      st.integers(-3, 60)),
            min_size=1, max_size=4))
        fields["action"] = {**fields["action"], **changes}
        return fields
    if how == "drop":
        fields.pop(draw(st.sampled_from(sorted(fields))), None)
        return fields
    maps = [n for n, v in fields.items() if type(v) is dict
            or (type(v) is list and v and type(v[0]) is dict)]
    if how == "nested" and maps:
        name = draw(st.sampled_from(maps))
        inner = fields[name] if type(fields[name]) is dict else fields[name][0]
        keys = st.sampled_from(sorted(set(inner) | {"zz", "kind", "seat", "target", "elim"}))
        kinds = st.sampled_from(["build", "conspire", "court", "resolve", "hide", "play", "keep",
                                 "place", "take", "reveal", "flip", "strike", "plan"])
        changes = draw(st.dictionaries(keys, st.one_of(values, st.integers(-3, 1001), kinds),
                                       min_size=1, max_size=3))
        changed = {**inner, **changes}
        fields[name] = changed if type(fields[name]) is dict else [changed, *fields[name][1:]]
        return fields
    fields[draw(st.sampled_from(names))] = draw(values)
    return fields


def _signed(p, entry, fields):
    author = entry.author
    identity = p["host"].identity if author < 0 else p["ids"][author]
    try:
        return Entry.sign(identity, fields)
    except (ValueError, TypeError, OverflowError):
        return None  # not even a body a transcript can hold: no reader will ever see it


def _draw_entry(data, game):
    p = _played(game)
    group = data.draw(st.sampled_from(p["groups"]), label="kind")  # each kind as often
    k = data.draw(st.sampled_from(group), label="entry")
    original = p["entries"][k]
    bad = _signed(p, original, data.draw(mutations(original), label="fields"))
    return p, k, original, bad


SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.data_too_large])


@pytest.mark.long
@pytest.mark.parametrize("game", sorted(GAMES))
@settings(**SLOW)
@given(data=st.data())
def test_the_host_takes_or_refuses_any_post_within_its_budget(budget, game, data):
    p, k, original, bad = _draw_entry(data, game)
    if bad is None:
        return
    start = p["entries"][0].fields
    host = HostSession(p["host"].identity, game, p["host"].config)
    host.table = _table(p, -1, k)
    host.seats = [Seat(s["name"], s["key"], None, True) for s in start["seats"]] if k else []
    link = MemoryLink(host)
    raw = RawPeer()
    conn = link.add(raw, address="10.0.0.9")
    c = host.conns[conn]  # seated as the author, as its hello would have seated it
    c.seat, c.codec.receive_limit = max(original.author, 0), c.codec.frame_limit
    with budget(BUDGET):
        link.send(conn, Codec().send(Request(1, "post", (bad.to_wire(),))))
    (answer,) = [e for e in raw.events() if isinstance(e, Response)]
    assert answer.error is None or answer.error.code != E_INTERNAL, answer.error


@pytest.mark.long
@pytest.mark.parametrize("game", sorted(GAMES))
@settings(**SLOW)
@given(data=st.data(), seat=st.sampled_from(READERS))
def test_a_peer_takes_or_refuses_any_relayed_entry_within_its_budget(budget, game, data, seat):
    p, k, original, bad = _draw_entry(data, game)
    if bad is None:
        return
    peer = PeerSession(p["ids"][seat], "reader")
    peer.table, peer.state, peer.seat = _table(p, seat, k), "playing", seat
    with budget(BUDGET):
        peer.receive_data(Codec().send(Notification("entry", (bad.to_wire(),))))
    if peer.state == "failed":
        assert isinstance(peer.error, (CheatDetected, RemoteProtocolError, Fault)), peer.error


@pytest.mark.long
@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=15, **SLOW)  # each example replays the record up to the entry
@given(data=st.data())
def test_verify_reads_any_record_ending_with_any_entry_within_its_budget(budget, game, data):
    p, k, original, bad = _draw_entry(data, game)
    if bad is None:
        return
    pack = msgpack.Packer(use_bin_type=True).pack
    record = MAGIC + b"".join(pack([e.body, e.sig]) for e in [*p["entries"][:k], bad])
    with budget(VERIFY_BUDGET):
        v = verify_bytes(record)
    assert v.kind in ("verified", "cheat", "rejected", "incomplete")
    assert "unreadable (" not in v.text and "cannot be read" not in v.text, v.text


# -- every number of every action kind, at its edges ----------------------------------------------

EDGES = (-3, -2, -1, 26, 1000, 2**63 - 1)
NUMBERS = {"medici": ("seat", "card", "value", "target", "elim", "extra"),
           "condottiere": ("seat", "card", "target", "flip")}


@pytest.mark.long
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_number_of_every_action_kind_at_its_edges_is_taken_or_refused_in_time(budget, game):
    """A sweep, not a sample: each action kind's first act entry, each of its numbers set to
    each edge value, through the host's table and a peer of another seat (a sample would have
    to be lucky to draw a build naming stack -2)."""
    p = _played(game)
    firsts = [g[0] for g in p["groups"] if p["entries"][g[0]].kind == "act"]
    for k in firsts:
        original = p["entries"][k]
        for name in NUMBERS[game]:
            for value in EDGES:
                fields = {n: v for n, v in original.fields.items() if n != "v"}
                fields["action"] = {**fields["action"], name: value}
                bad = _signed(p, original, fields)
                reader = READERS[original.author == READERS[0]]  # not the author
                with budget(BUDGET):
                    try:  # the host's observer table, which checks every post
                        _table(p, -1, k).accept(bad)
                    except (CheatDetected, RemoteProtocolError):
                        pass
                    peer = PeerSession(p["ids"][reader], "reader")
                    peer.table, peer.state, peer.seat = _table(p, reader, k), "playing", reader
                    peer.receive_data(Codec().send(Notification("entry", (bad.to_wire(),))))
                assert peer.state != "failed" or isinstance(
                    peer.error, (CheatDetected, RemoteProtocolError, Fault)), (name, value, peer.error)
