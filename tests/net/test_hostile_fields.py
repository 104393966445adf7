"""Hostile but well-signed entries on a real mid-game table: whatever the values of their fields,
``Table.accept`` refuses them with ``CheatDetected`` or ``RemoteProtocolError`` and changes
nothing (or takes them, when they happen to be a legal entry), and never fails otherwise."""

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.machines.table import Table
from net.session.records.journal import Journal
from net.session.runners.link import MemoryLink
from net.wire.errors import CheatDetected, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.transcript import Entry
from tests.net.conftest import SpyJournal

GAMES = [("medici", 3, {}), ("condottiere", 3, {"hidden_cards": True})]
_PLAYED: dict[str, tuple] = {}


def _played(game):
    if game not in _PLAYED:
        name, players, options = next(g for g in GAMES if g[0] == game)
        entry = get_game(name)
        host = HostSession(Identity.generate(), name, entry.rules.make_config(players, options))
        link = MemoryLink(host)
        peers = []
        for i in range(players):
            peer = PeerSession(Identity.generate(), f"bot{i}", code=host.code,
                               journal=SpyJournal())
            link.add(peer, entry.make_bot("random", random.Random(i)))
            peers.append(peer)
        link.pump()
        assert host.finished
        _PLAYED[game] = (host, peers, {})
    return _PLAYED[game]


def _table_before(game, kind, which, seat):
    """A table (the observer's for ``seat`` None) just before the ``which``-th entry of ``kind``
    (with a ``field`` it must hold); the entry, and the signing identity of its author."""
    host, peers, cache = _played(game)
    entries = host.table.transcript.entries
    picks = [i for i, e in enumerate(entries) if e.kind == kind and e.author >= 0]
    k = picks[which % len(picks)]
    key = (k, seat)
    if key not in cache:
        journal = None
        if seat is not None:  # the seat's secrets, which its journal erased at the end
            journal = Journal()
            for slot, value in peers[seat].journal.given.items():
                journal.keep_secret(host.table.game_id, slot, value)
        t = Table(host.identity.public_key, None if seat is None else peers[seat].identity,
                  journal)
        for e in entries[:k]:
            t.accept(e)
        cache[key] = t
    e = entries[k]
    return _copy(cache[key]), e, peers[e.author].identity


def _copy(t):
    tables = [d.table for d in t.dealer.decks.values()] if t.dealer is not None else []
    memo = {id(t.identity): t.identity, **{id(v): v for v in tables}}  # card tables are shared
    if t.dealer is not None:  # no proof left to a worker thread (its lock cannot be copied)
        t.dealer.require_checked()
        for deck in t.dealer.decks.values():
            deck._unchecked = []
    journal, t.journal = t.journal, None  # a journal holds a lock: the copy gets its own
    try:
        new = copy.deepcopy(t, memo)
    finally:
        t.journal = journal
    if journal is not None:
        new.journal = Journal()
        for slot in ("seed", "deck"):
            value = journal.secret(t.game_id, slot)
            if value is not None:
                new.journal.keep_secret(t.game_id, slot, value)
    return new


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.binary(max_size=72),
    st.text(max_size=8), st.sampled_from([b"\xff" * 4, b"\x00\x00\x00\x05", bytes(32), b"\x01" * 32,
                                          "pile", "house0", "house1", "deck/shares", "deck/reveal",
                                          "deck/shuffle"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["deck", "type", "handles", "shares", "proof", "secret",
                                     "seeds", "pile", "house0", "number", "cards", "zz"]),
                    inner, max_size=5)), max_leaves=12)


def _mutated(entry, changes, drop):
    fields = {**entry.fields, **changes}
    for name in drop:
        fields.pop(name, None)
    return fields


def _try(table, identity, fields):
    before = (len(table.transcript), table.dealer, table.view, table.phase)
    try:
        bad = Entry.sign(identity, fields)
    except ValueError:  # not a body the transcript can even hold
        return
    try:
        table.accept(bad)
    except (CheatDetected, RemoteProtocolError):
        assert (len(table.transcript), table.dealer, table.view, table.phase) == before


@pytest.mark.long
@pytest.mark.parametrize("game", [g[0] for g in GAMES])
@pytest.mark.parametrize("kind", ["act", "deck", "end"])
@given(which=st.integers(0, 40), seat=st.sampled_from([None, 0]),
       changes=st.fixed_dictionaries({}, optional={n: values for n in
                                                   ["handles", "open", "action", "msgs", "reveal",
                                                    "extra"]}),
       drop=st.sets(st.sampled_from(["handles", "open", "action", "msgs", "reveal"]), max_size=2),
       nested=st.tuples(st.sampled_from(["open", "reveal", "msgs"]), st.text(max_size=8), values))
def test_a_hostile_field_is_refused_and_changes_nothing(game, kind, which, seat, changes, drop,
                                                       nested):
    table, entry, identity = _table_before(game, kind, which, seat)
    _try(table, identity, _mutated(entry, changes, drop))
    # the entry's own message with one key changed (or added)
    name, key, value = nested
    msg = entry.fields.get(name)
    if type(msg) is dict:
        _try(table, identity, {**entry.fields, name: {**msg, key: value}})
    elif type(msg) is list and msg and type(msg[0]) is dict:
        _try(table, identity, {**entry.fields, name: [{**msg[0], key: value}, *msg[1:]]})


@pytest.mark.long
@pytest.mark.parametrize("game", [g[0] for g in GAMES])
@given(which=st.integers(0, 60), seat=st.sampled_from([None, 0]),
       ints=st.dictionaries(st.sampled_from(["seat", "card", "value", "target", "elim", "extra",
                                             "flip"]),
                            st.one_of(st.integers(-3, 40), st.integers(-2**63, 2**64 - 1)),
                            min_size=1, max_size=3),
       kind=st.one_of(st.none(), st.sampled_from(
           ["draw", "first", "hide", "top", "plan", "court", "build", "conspire", "strike",
            "reveal", "flip", "stuck", "resolve", "start", "place", "play", "take", "discard",
            "keep", "pass"])),
       cards=st.one_of(st.none(), st.lists(st.integers(-3, 40), max_size=12)))
def test_an_action_of_the_right_form_with_any_values_is_refused_or_taken(game, which, seat, ints,
                                                                        kind, cards):
    table, entry, identity = _table_before(game, "act", which, seat)
    action = dict(entry.fields["action"])
    action.update(ints)
    if kind is not None:
        action["kind"] = kind
    if cards is not None:
        action["cards"] = cards
    _try(table, identity, {**entry.fields, "action": action})


@pytest.mark.long
@pytest.mark.parametrize("game", [g[0] for g in GAMES])
@given(which=st.integers(0, 60), seat=st.sampled_from([None, 0]), author=st.integers(0, 2),
       opened=st.one_of(values, st.just("act")), extra=st.dictionaries(st.text(max_size=4), values,
                                                                         max_size=2),
       kind=st.sampled_from(["abort", "reveal", "audit"]))
def test_an_entry_of_a_kind_no_phase_takes_is_refused(game, which, seat, author, opened, extra,
                                                      kind):
    """Nothing stops a game but its end or a forfeit: an ``abort`` (a kind of old, for a deck
    that seemed corrupted) or a ``reveal`` of any seat, with any open, is refused."""
    table, entry, _ = _table_before(game, "act", which, seat)
    identity = _played(game)[1][author].identity
    fields = {**extra, **{k: entry.fields[k] for k in ("v", "game", "seq", "prev")},
              "author": author, "kind": kind}
    if opened == "act":  # a real open, of a card that is a card of the deck
        opened = entry.fields.get("open")
    if opened is not None:
        fields["open"] = opened
    before = (len(table.transcript), table.dealer, table.view, table.phase)
    try:
        bad = Entry.sign(identity, fields)
    except ValueError:
        return
    with pytest.raises((CheatDetected, RemoteProtocolError)):
        table.accept(bad)
    assert (len(table.transcript), table.dealer, table.view, table.phase) == before
