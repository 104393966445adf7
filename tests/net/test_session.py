"""Whole games through the sans-IO host and peers on an in-memory link."""

import msgpack
import pytest

from engine.core import UNKNOWN
from net.session.features.code import CODE_WORDS, new_code
from net.session.machines.peer_session import PeerSession
from net.session.records.verify import read_entries
from net.wire.errors import E_FULL, E_KEY_IN_USE, E_WRONG_CODE
from net.wire.identity import Identity
from net.wire.rpc import Codec, Notification, Request, Response


@pytest.mark.parametrize("players", [3, 4])
def test_a_bot_game_ends_with_every_transcript_identical(finished, players):
    g = finished("medici", players)
    assert [p.state for p in g.peers] == ["over"] * players
    assert g.host.finished
    assert len(g.transcripts()) == 1
    assert g.host.table.transcript.to_bytes() in g.transcripts()
    results = [p.table.result() for p in g.peers]
    assert all(r == g.host.table.result() for r in results)
    assert results[0]["end"] in ("all-struck", "alliances-gone", "no-playable-card")
    # the saved form reads back, every entry signed by its author's key
    entries = read_entries(g.peers[0].table.transcript.to_bytes())
    keys = {i: s.key for i, s in enumerate(g.host.table.seats)} | {-1: g.host.identity.public_key}
    assert all(e.signed_by(keys[e.author]) for e in entries)


def test_no_entry_and_no_view_shows_a_card_before_its_reveal(played):
    host = played.host.table
    for e in host.transcript.entries:
        action = e.fields.get("action")
        if action and action["kind"] in ("hide", "top", "plan"):
            assert action.get("card") == UNKNOWN
            assert len(e.fields["handles"]) == 4 and "open" not in e.fields
    # the relay's view never held a card of any hand, except the shown last card of a deck
    v = host.view
    for seat, hand in enumerate(v.hands):
        assert all(c == UNKNOWN or c == v.shown[seat] for c in hand)
    # a seat's own view knows its hand; another seat's view does not
    p0, p1 = played.peers[0].table.view, played.peers[1].table.view
    assert UNKNOWN not in p0.hands[0]
    assert all(c == UNKNOWN or c == p1.shown[0] for c in p1.hands[0])


def test_every_seat_signs_the_end_and_reveals_nothing(played):
    host = played.host.table
    ends = [e for e in host.transcript.entries if e.kind == "end"]
    assert [e.author for e in ends] == [0, 1, 2]
    # an end is the seat's signature on the record before it: it carries nothing of the deck
    assert all(set(e.fields) == {"v", "game", "seq", "prev", "author", "kind"} for e in ends)
    assert all(p.table.result()["verdict"] == "verified" for p in played.peers)
    assert host.result()["verdict"] == "verified"


def test_the_lobby_shows_names_fingerprints_and_readiness(make_game):
    g = make_game(3)
    ada = g.add_bot(0, name="Ada")
    g.link.pump()
    seats = ada.lobby["seats"]
    assert seats == [{"seat": 0, "name": "Ada", "fp": ada.identity.fingerprint,
                      "key": ada.identity.public_key, "ready": True, "online": True}]
    assert ada.state == "lobby"


def test_the_game_code_is_required_and_checked(make_game):
    code = new_code()
    *words, digits = code.split("-")
    assert len(words) == 3 and all(w in CODE_WORDS for w in words)
    assert digits.isdigit() and len(digits) == 4
    g = make_game(3, code=code)
    wrong = g.add_bot(0, code="NOPE-NOPE-NOPE-0000")
    none = g.add_bot(1, code="")
    right = g.add_bot(2, code=" " + code.lower().replace("-", " ") + " ")  # as read aloud
    g.link.pump()
    for p in (wrong, none):
        assert p.state == "failed"
        assert p.error.code == E_WRONG_CODE
        assert "game code" in str(p.error)
    assert right.state == "lobby"
    assert [s.name for s in g.host.seats] == ["bot2"]


def test_a_full_game_is_refused_and_a_live_seat_is_not_taken_by_its_own_key(make_game):
    g = make_game(3)
    twin = Identity.generate()
    first = g.add_bot(0, identity=twin, bot=None)
    g.link.pump()
    again = g.add_bot(1, identity=twin, bot=None)  # the first one answers the host's ping
    g.link.pump()
    assert first.state == "lobby" and len(g.host.seats) == 1
    assert again.state == "failed" and again.error.code == E_KEY_IN_USE
    assert "already at the table from another program" in str(again.error)
    for i in range(2):
        g.add_bot(10 + i)
    g.link.pump()
    late = g.add_bot(20)
    g.link.pump()
    assert late.state == "failed" and late.error.code == E_FULL


def test_a_seat_left_in_the_lobby_is_given_up(make_game):
    g = make_game(3)
    g.add_bot(0)
    g.add_bot(1)
    g.link.pump()
    g.link.drop(g.conns[0])
    assert [s.name for s in g.host.seats] == ["bot1"]
    for i in range(2):
        g.add_bot(5 + i)
    g.link.pump()
    assert g.host.finished


def _steps_until(g, n):
    """Pump one message at a time until the transcript holds ``n`` entries."""
    while len(g.host.table.transcript) < n:
        for conn, peer in list(g.link.peers.items()):
            data = peer.data_to_send()
            if data:
                g.link.send(conn, data)
            bot = g.link.bots.get(conn)
            if bot is not None and peer.decision_due():
                peer.act(bot.choose(peer.view, peer.table.me))


@pytest.mark.long
@pytest.mark.parametrize("seat", [2, 3])  # 3 writes the last key: the decks are made then
def test_a_dropped_peer_rejoins_with_its_key_and_the_game_goes_on(make_game, seat):
    import random

    from engine.registry import get_game

    g = make_game(4)
    ids = [Identity.generate() for _ in range(4)]
    for i in range(4):
        g.add_bot(i, identity=ids[i])
    _steps_until(g, 40)  # well into the game: cards dealt, placements made
    secret = g.peers[seat].table.dealer.secret
    g.link.drop(g.conns[seat])
    assert g.host.seats[seat].conn is None
    g.link.pump()
    assert not g.host.finished or g.host.table.writer() != seat
    # a new process with the same key and journal: it learns everything again from the
    # transcript
    back = PeerSession(ids[seat], f"bot{seat}-again", journal=g.peers[seat].journal)
    g.link.add(back, get_game("medici").make_bot("greedy", random.Random(9)))
    g.peers[seat] = back
    g.link.pump()
    assert g.host.finished
    assert [p.state for p in g.peers] == ["over"] * 4
    assert len(g.transcripts()) == 1
    # its deck secret came back from its journal (no entry carries it): it read its own cards
    # and showed them; at the end it is erased, from the program and from the journal
    assert secret is not None and back.table.dealer.secret is None
    assert back.journal.secret(back.table.game_id, "deck") is None
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)


@pytest.mark.long
def test_a_peer_keeps_its_game_across_a_reconnect(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 30)
    peer = g.peers[1]
    g.link.drop(g.conns[1])
    peer.reconnect()
    bot = g.link.bots.get(g.conns[1])
    import random

    from engine.registry import get_game

    g.link.add(peer, bot or get_game("medici").make_bot("greedy", random.Random(3)))
    g.link.pump()
    assert peer.state == "over"
    assert len(g.transcripts()) == 1


def test_a_turn_timeout_forfeits_the_seat(make_game, clock):
    g = make_game(3, turn_timeout=30, clock=clock)
    g.add_bot(0)
    g.add_bot(1)
    idle = g.add_bot(2, bot=None)  # never decides
    g.link.pump()
    assert not g.host.finished
    due = g.host.table.writer()
    assert due == 2
    clock.now += 29
    g.link.pump()
    assert not g.host.finished
    clock.now += 2
    g.link.pump()
    assert g.host.finished
    result = g.peers[0].table.result()
    assert result["end"] == "forfeit" and result["forfeited"] == [2]
    assert idle.state == "over"
    kinds = [e.kind for e in g.host.table.transcript.entries]
    assert kinds[-3:] == ["forfeit", "end", "end"]  # the seats still in close the game
    assert len(g.transcripts()) == 1


def test_no_timeout_by_default(make_game, clock):
    g = make_game(3, clock=clock)
    g.add_bot(0)
    g.add_bot(1)
    g.add_bot(2, bot=None)
    g.link.pump()
    clock.now += 10_000
    g.link.pump()
    assert not g.host.finished and g.host.table.phase == "play"


def test_a_peer_that_is_not_due_cannot_act(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i, bot=None)
    g.link.pump()
    due = g.host.table.writer()
    other = g.peers[(due + 1) % 3]
    assert not other.decision_due()
    with pytest.raises(Exception, match="no decision is due"):
        other.act(None)


def test_the_wire_conversation_starts_with_a_challenge_and_a_hello(make_game):
    g = make_game(3)
    raw, conn = g.add_raw()
    (challenge,) = raw.events()
    assert isinstance(challenge, Notification) and challenge.method == "challenge"
    fields = challenge.params[0]
    assert fields["game"] == "medici" and fields["players"] == 3 and fields["version"] == 3
    ident = Identity.generate()
    from net.session.machines.conversation import HOST_TAG, hello_signature
    from net.wire.identity import verify

    sig = hello_signature(ident, fields["nonce"], fields["host"])
    mine = bytes(range(32))  # the peer's challenge to the host
    hello = Request(1, "hello", ({"name": "Raw", "key": ident.public_key, "sig": sig,
                                  "nonce": mine},))
    g.link.send(conn, Codec().send(hello))
    answer = [e for e in raw.events() if isinstance(e, Response)]
    proof = answer[0].result.pop("proof")
    assert answer == [Response(1, None, {"seat": 0, "players": 3, "length": 0, "resume": False})]
    # the host proves its key: its signature of the peer's nonce and key
    assert verify(fields["host"], HOST_TAG, mine + ident.public_key, proof)
    assert not verify(fields["host"], HOST_TAG, bytes(32) + ident.public_key, proof)
    assert msgpack.unpackb(Codec().send(hello))[0] == 0


@pytest.mark.long
def test_with_on_timeout_bot_the_seat_own_client_is_told_to_let_its_bot_play(make_game, clock):
    g = make_game(3, turn_timeout=30, on_timeout="bot", clock=clock)
    g.add_bot(0)
    g.add_bot(1)
    slow = PeerSession(Identity.generate(), "slow", clock=clock)
    conn = g.link.add(slow)
    g.peers.append(slow)
    g.link.pump()
    assert slow.decision_due() and not slow.takeover_due()
    assert slow.table.timeout == 30 and slow.table.on_timeout == "bot"
    clock.now += 31
    assert slow.takeover_due()
    g.link.pump()
    assert not g.host.finished  # the host waits twice as long before it forfeits the seat
    import random

    from engine.registry import get_game

    g.link.bots[conn] = get_game("medici").make_bot("greedy", random.Random(1))
    g.link.pump()
    assert g.host.finished and g.peers[0].table.result()["end"] != "forfeit"


def test_the_game_the_seats_knew_between_them_is_a_legal_game_of_the_full_state(played,
                                                                               full_game):
    """No seat reveals anything, yet nothing was left unchecked: the steps as the seats knew them
    between them (each its own cards) make a game the rules accept on the full state, which
    every seat's view, and the relay's, follows to its last position."""
    tables = [p.table for p in played.peers]
    states = full_game(tables)
    for t in (*tables, played.host.table):
        assert t.result()["verdict"] == "verified"
        assert t.rules.view(states[-1], t.me if t.me >= 0 else 3) == t.view


@pytest.mark.parametrize("players, seed", [(3, 1), pytest.param(4, 2, marks=pytest.mark.long), (3, 3)])
def test_random_bots_that_plan_and_strike_finish_verified(make_game, players, seed, monkeypatch,
                                                          full_game):
    """Random bots put cards under their decks and draw them back as last cards: every path of
    the protocol, and the end replay agrees with the game. The seats' seed contributions and
    their shuffles come from seeded sources here, so that the same game is played on every run
    (with fresh shuffles, now and then a game has no plan or no strike)."""
    import random

    from net.deck import cipher

    salts = random.Random(seed)
    monkeypatch.setattr("net.session.machines.own_seat.new_salt", lambda: salts.randbytes(32))
    shuffles, seeded = random.Random(seed), cipher.shuffle_draw
    monkeypatch.setattr(cipher, "fresh_draw", lambda n: seeded(shuffles.randbytes(32), n))
    g = make_game(players, options={"end_when_all_struck": True})
    for i in range(players):
        g.add_bot(seed * 10 + i, bot="random")
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * players
    kinds = {e.fields["action"]["kind"] for e in g.host.table.transcript.entries if e.kind == "act"}
    assert {"plan", "strike", "reveal"} <= kinds
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)
    assert len(g.transcripts()) == 1
    full_game([p.table for p in g.peers])  # every step legal with every card known


def test_a_fallback_bot_on_the_link_plays_a_seat_left_past_the_timeout(make_game, clock):
    import random

    from engine.registry import get_game

    g = make_game(3, turn_timeout=30, on_timeout="bot", clock=clock)
    g.add_bot(0)
    g.add_bot(1)
    person = PeerSession(Identity.generate(), "person", clock=clock)
    g.link.add(person, fallback=get_game("medici").make_bot("greedy", random.Random(2)))
    g.peers.append(person)
    g.link.pump()
    assert person.decision_due()  # nobody plays for the person before the timeout
    for _ in range(200):
        if g.host.finished:
            break
        clock.now += 31
        g.link.pump()
    assert g.host.finished and person.state == "over"
    assert g.host.table.result()["end"] != "forfeit"


def test_a_forfeit_is_told_in_one_line_with_the_scores_as_the_game_stood(make_game, clock):
    """What a headless join prints at a forfeit: who forfeited and why, every seat's score as the
    game stood (the forfeiter marked), and who was ahead of those left, as the end screen says."""
    from net.session.commands.hosting import result_line

    g = make_game(3, turn_timeout=30, clock=clock)
    g.add_bot(0)
    g.add_bot(1)
    g.add_bot(2, bot=None)  # never decides
    g.link.pump()
    clock.now += 31
    g.link.pump()
    table = g.peers[0].table
    names = [s.name for s in table.seats]
    stood = table.rules.scores(table.view)
    line = result_line(table)
    assert line.startswith(f"game over: {names[2]} forfeited (no move within 30 seconds)"), line
    assert f"the scores as it stood: {names[0]} {stood[0]}, {names[1]} {stood[1]}, " \
           f"{names[2]} {stood[2]} (forfeited)" in line
    best = max(stood[0], stood[1])
    ahead = " and ".join(names[i] for i in (0, 1) if stood[i] == best)
    assert line.endswith(f"; ahead: {ahead}")
    assert result_line(g.peers[1].table) == line  # every seat tells it alike
