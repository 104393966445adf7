"""One identity per player: a second live connection with a seated key is refused, a dead one
is replaced, and the seated game goes on (``net.session.features.limits``, a held seat)."""

import random

import pytest

from engine.registry import get_game
from net.session.features import limits
from net.session.machines.conversation import hello_signature
from net.session.machines.host_door import IN_USE
from net.session.machines.peer_session import PeerSession
from net.session.records.journal import Journal
from net.session.runners.link import RawPeer
from net.wire.errors import E_BAD_SIGNATURE, E_KEY_IN_USE
from net.wire.identity import Identity, identity_path
from net.wire.rpc import Codec, Notification, Request, Response


def _hang(g, conn):
    """The seat's connection goes half-open: the host still holds it, nothing comes back."""
    g.link.peers[conn] = RawPeer()
    g.link.bots.pop(conn, None)


@pytest.mark.long
def test_a_second_live_program_with_a_seated_key_is_refused_and_the_game_goes_on(make_game):
    g = make_game(3)
    me = Identity.generate()
    first = g.add_bot(0, identity=me)
    g.link.pump()
    held = g.host.seats[0].conn
    second = g.add_bot(1, identity=me, name="dup")
    g.link.pump()
    assert second.state == "failed" and second.error.code == E_KEY_IN_USE
    assert "already at the table from another program" in str(second.error)
    assert "--identity" in str(second.error)
    assert first.state == "lobby" and g.host.seats[0].conn == held
    assert [s.name for s in g.host.seats] == ["bot0"]
    g.peers.remove(second)
    g.add_bot(2)
    g.add_bot(3)
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * 3
    assert len(g.transcripts()) == 1
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)


def test_mid_game_a_second_program_is_refused_and_nothing_of_the_game_changes(make_game):
    g = make_game(3)
    me = Identity.generate()
    first = g.add_bot(0, identity=me, bot=None)  # waits on its turn: the game is under way
    g.add_bot(1)
    g.add_bot(2)
    g.link.pump()
    assert first.state == "playing"
    length = len(g.host.table.transcript)
    second = g.add_bot(3, identity=me)
    g.link.pump()
    assert second.state == "failed" and second.error.code == E_KEY_IN_USE
    assert len(g.host.table.transcript) == length and first.state == "playing"
    g.peers.remove(second)
    g.link.bots[g.conns[0]] = g.link.bots.get(g.conns[1])
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * 3 and len(g.transcripts()) == 1


@pytest.mark.long
def test_a_half_open_holder_that_does_not_answer_the_ping_is_replaced(make_game, clock):
    g = make_game(3, clock=clock)
    me, journal = Identity.generate(), Journal()  # the seat's program, restarted
    g.add_bot(0, identity=me, journal=journal, bot=None)  # the game waits on its turn
    g.add_bot(1)
    g.add_bot(2)
    g.link.pump()
    old = g.conns[0]
    _hang(g, old)
    ghost = g.link.peers[old]
    back = g.add_bot(3, identity=me, journal=journal)
    g.link.pump()
    assert back.state == "connecting"  # asked the holder; no answer yet
    assert any(isinstance(e, Request) and e.method == "ping" for e in ghost.events())
    clock.now += limits.PING_WAIT
    g.link.pump()
    assert g.host.seats[0].conn == g.conns[3] and old not in g.host.conns
    assert ghost.closed
    g.peers.pop(0)
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * 3, [str(p.error) for p in g.peers]
    assert len(g.transcripts()) == 1


def test_a_holder_that_closes_while_asked_gives_its_seat_at_once(make_game, clock):
    g = make_game(3, clock=clock)
    me = Identity.generate()
    g.add_bot(0, identity=me)
    g.link.pump()
    old = g.conns[0]
    _hang(g, old)
    back = g.add_bot(1, identity=me)
    g.link.pump()
    assert back.state == "connecting"
    g.link.drop(old)
    g.link.pump()
    assert back.state == "lobby" and g.host.seats[0].conn == g.conns[1]


def test_a_seat_claimed_again_at_once_is_told_to_wait_so_it_cannot_flap(make_game, clock):
    g = make_game(3, clock=clock)
    me = Identity.generate()
    g.add_bot(0, identity=me)
    g.link.pump()
    g.add_bot(1, identity=me)  # refused: the holder answers
    g.link.pump()
    raw_again = g.add_bot(2, identity=me)  # at once: not even asked
    g.link.pump()
    assert raw_again.state == "disconnected" and raw_again.error is None  # it may retry
    assert "try again in a few seconds" in raw_again.refusal
    assert g.conns[2] not in g.host.conns  # closed with a busy (a retry may do)
    clock.now += limits.CLAIM_INTERVAL
    later = g.add_bot(3, identity=me)
    g.link.pump()
    assert later.state == "failed" and later.error.code == E_KEY_IN_USE
    assert g.host.seats[0].conn == g.conns[0]


def test_a_stranger_without_the_key_cannot_start_a_claim(make_game):
    g = make_game(3)
    g.add_bot(0)
    g.link.pump()
    raw, conn = g.add_raw()
    challenge = next(e for e in raw.events() if isinstance(e, Notification))
    forged = {"name": "x", "key": g.host.seats[0].key, "sig": bytes(64),
              "nonce": bytes(32), "code": None}
    g.link.send(conn, Codec().send(Request(1, "hello", (forged,))))
    assert challenge.method == "challenge"
    assert not g.host._claims and g.host.seats[0].conn == g.conns[0]
    answer = next(e for e in raw.events() if isinstance(e, Response))
    assert answer.error.code == E_BAD_SIGNATURE and IN_USE not in answer.error.message




def test_attack_replayed_hello_cannot_claim_a_held_seat(make_game):
    """The seat's own signed hello, replayed on another connection (a host or an eavesdropper
    that kept it), answers a challenge that connection was never sent: it is refused, and no
    ping or claim is started against the seat's holder."""
    g = make_game(3)
    me = Identity.generate()
    g.add_bot(0, identity=me)
    g.link.pump()
    first, conn1 = g.add_raw()
    old = next(e for e in first.events() if isinstance(e, Notification)).params[0]["nonce"]
    replayed = {"name": "bot0", "key": me.public_key, "sig": hello_signature(me, old, g.host.identity.public_key),
                "nonce": bytes(32), "code": g.host.code}
    raw, conn = g.add_raw()
    assert next(e for e in raw.events() if isinstance(e, Notification)).method == "challenge"
    g.link.send(conn, Codec().send(Request(1, "hello", (replayed,))))
    assert not g.host._claims and g.host.seats[0].conn == g.conns[0]
    answer = next(e for e in raw.events() if isinstance(e, Response))
    assert answer.error.code == E_BAD_SIGNATURE

def _net_peer(g, me, name, journal=None, bot=None):
    """A peer of ``me`` that the host sees come over the network."""
    peer = PeerSession(me, name, journal=journal)
    conn = g.link.add(peer, bot, address="10.0.0.7")
    g.peers.append(peer)
    g.conns.append(conn)
    return peer


def test_the_same_join_line_again_goes_on_from_the_new_program_and_the_old_is_told(make_game):
    g = make_game(3)
    me, journal = Identity.generate(), Journal()
    old = _net_peer(g, me, "Jo", journal)
    g.add_bot(1)
    g.add_bot(2)
    g.link.pump()
    assert old.state == "playing"
    again = _net_peer(g, me, "Jo", journal, get_game("medici").make_bot("greedy", random.Random(3)))
    g.link.pump()
    assert old.state == "failed" and old.error.code == E_KEY_IN_USE
    assert "joined again from another program" in str(old.error)
    g.peers.remove(old)
    g.link.pump()
    assert again.state == "over" and [p.state for p in g.peers] == ["over"] * 3
    assert len(g.transcripts()) == 1


def test_another_name_with_the_key_over_the_network_is_refused_while_the_holder_answers(make_game):
    g = make_game(3)
    me = Identity.generate()
    first = _net_peer(g, me, "Jo")
    g.link.pump()
    second = _net_peer(g, me, "Jo's sister")
    g.link.pump()
    assert second.state == "failed" and "--identity" in str(second.error)
    assert first.state == "lobby"


def test_the_hosts_own_seat_is_never_taken_by_a_join_with_its_key_and_name(make_game):
    g = make_game(3)
    me = Identity.generate()
    own = g.add_bot(0, identity=me, name="host")  # in the host's process
    g.link.pump()
    join = _net_peer(g, me, "host")
    g.link.pump()
    assert join.state == "failed" and join.error.code == E_KEY_IN_USE
    assert own.state == "lobby"


def test_two_identities_of_one_account_are_two_players(make_game, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    mine = Identity.load_or_create()
    second = Identity.load_or_create(spec="sister")
    filed = Identity.load_or_create(spec=str(tmp_path / "elsewhere" / "third.key"))
    assert identity_path("sister") == tmp_path / "palazzo" / "identities" / "sister.key"
    assert len({mine.public_key, second.public_key, filed.public_key}) == 3
    assert Identity.load_or_create(spec="sister").public_key == second.public_key  # kept
    assert (tmp_path / "elsewhere" / "third.key").stat().st_mode & 0o777 == 0o600
    g = make_game(3)
    g.add_bot(0, identity=mine, name="Jo")
    g.add_bot(1, identity=second, name="Jo's sister")
    g.add_bot(2)
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * 3 and len(g.transcripts()) == 1


@pytest.mark.parametrize("spec", ["a b", "x" * 33, "..", "é"])
def test_an_identity_that_is_neither_a_file_nor_a_profile_name_is_refused(spec):
    with pytest.raises(ValueError, match="profile name"):
        identity_path(spec)
