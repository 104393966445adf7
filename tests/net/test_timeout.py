"""The timed-out move (``net.session.features.timeout``): the ``auto`` flag a seat's own program puts on
the move it played after the turn limit, every reader's check of it, the words every log says,
and the ``--on-timeout`` names."""

import random

import pytest

from engine.registry import get_game
from net.session.features.timeout import timed_out_text, wire_name
from net.session.machines.peer_session import PeerSession
from net.session.machines.table import Table
from net.session.records.verify import verify_bytes
from net.wire.errors import CheatDetected
from net.wire.identity import Identity
from net.wire.transcript import Entry, Transcript


def _timed_out_once(make_game, clock, finish=False):
    """A game in which Jo lets one decision pass the limit and its program plays it."""
    g = make_game(3, turn_timeout=30, on_timeout="bot", clock=clock)
    g.add_bot(0, name="Ada")
    g.add_bot(1, name="Bo")
    jo = PeerSession(Identity.generate(), "Jo", clock=clock)
    g.link.add(jo, fallback=get_game("medici").make_bot("greedy", random.Random(2)))
    g.peers.append(jo)
    g.link.pump()
    assert jo.decision_due()
    clock.now += 31
    g.link.pump()  # the fallback plays once, then the player is due again, in time
    if finish:
        conn = next(iter(g.link.fallbacks))
        g.link.bots[conn] = get_game("medici").make_bot("greedy", random.Random(3))
        g.link.pump()
    return g, jo


def test_a_move_the_program_played_after_the_limit_is_marked_auto_and_told_in_every_log(
        make_game, clock):
    g, jo = _timed_out_once(make_game, clock)
    autos = [e for e in g.host.table.transcript.entries if e.fields.get("auto")]
    assert len(autos) == 1 and autos[0].author == 2 and autos[0].fields["auto"] is True
    for t in (g.host.table, *(p.table for p in g.peers)):
        said = [line for line in t.log if "time ran out" in line]
        assert len(said) == 1 and said[0].startswith("Jo's time ran out: the program ")
        assert said[0].endswith(" for Jo.")
        assert len(t.timed_out) == 1
    # the moves the player made itself carry no flag: their bytes are as before
    mine = [e for e in g.host.table.transcript.entries if e.author == 2 and e.kind == "act"]
    assert all("auto" not in e.fields for e in mine if e is not autos[0])


def test_a_game_without_an_auto_move_has_no_auto_field(played):
    assert not any("auto" in e.fields for e in played.host.table.transcript.entries)
    assert not played.host.table.timed_out


def _acts(played):
    """The first act entry a seat chose (not a reveal), its place and its author's identity."""
    entries = played.host.table.transcript.entries
    for i, e in enumerate(entries):
        if e.kind == "act" and e.fields["action"]["kind"] in ("hide", "top", "court", "build"):
            return entries, i, played.peers[e.author].identity
    raise AssertionError("no decision in the game")


def _reader(played, entries, upto):
    t = Table(played.host.identity.public_key)
    for e in entries[:upto]:
        t.accept(e)
    return t


def _resigned(entry, identity, **extra):
    fields = {k: v for k, v in entry.fields.items() if k != "v"}
    return Entry.sign(identity, {**fields, **extra})


def test_attack_auto_before_the_limit_is_the_seats_own_word_and_a_legal_move(played):
    entries, i, ident = _acts(played)
    t = _reader(played, entries, i)
    t.accept(_resigned(entries[i], ident, auto=True))  # no turn limit at all: still its word
    assert t.timed_out == {len(t.steps) - 1}
    assert "time ran out" in t.log[-1]


@pytest.mark.parametrize("value, why", [(False, "true when present"), (1, "must be bool"),
                                        ("yes", "must be bool")])
def test_attack_auto_other_than_true_is_refused_naming_the_seat(played, value, why):
    entries, i, ident = _acts(played)
    t = _reader(played, entries, i)
    before = len(t.transcript)
    with pytest.raises(CheatDetected) as caught:
        t.accept(_resigned(entries[i], ident, auto=value))
    assert caught.value.seat == entries[i].author and why in caught.value.reason
    assert len(t.transcript) == before  # nothing changed: the game goes on
    t.accept(entries[i])


def test_verify_refuses_a_record_with_auto_false(played):
    entries, i, ident = _acts(played)
    bad = [*entries[:i], _resigned(entries[i], ident, auto=False)]
    tr = Transcript()
    for e in bad:
        tr.append(e)
    v = verify_bytes(tr.to_bytes())
    assert v.kind == "cheat" and "auto" in v.text


@pytest.mark.parametrize("line, labels, said", [
    ("Green (Jo): plays Mercenary 4.", ("Green (Jo)", "Green"),
     "Jo's time ran out: the program played Mercenary 4 for Jo."),
    ("Green: passes", ("Green", "Jo"), "Jo's time ran out: the program passed for Jo."),
    ("Orsini places a card face down before Colonna", ("Orsini", "Jo"),
     "Jo's time ran out: the program placed a card face down before Colonna for Jo."),
    ("Orsini: alliance, Noble 4 onto stack B", ("Orsini", "Jo"),
     "Jo's time ran out: the program played for Jo: alliance, Noble 4 onto stack B."),
])
def test_the_timed_out_move_in_words(line, labels, said):
    assert timed_out_text(line, labels, "Jo") == said


def test_the_on_timeout_names_say_what_they_do_and_the_old_ones_stay():
    assert wire_name("end-game") == "forfeit" and wire_name("program-plays") == "bot"
    assert wire_name("forfeit") == "forfeit" and wire_name("bot") == "bot"
    with pytest.raises(ValueError, match="end-game, program-plays"):
        wire_name("shrug")


def test_the_table_screen_log_and_the_replay_say_the_program_played(make_game, clock, tmp_path):
    from tui.netclient import NetClient
    from tui.replay import network_replay
    from tui.setup import adapter

    g, jo = _timed_out_once(make_game, clock, finish=True)
    assert g.host.finished
    game = adapter("medici")
    for peer in g.peers:
        names = tuple(f"{n} ({s.name})" for n, s in zip(peer.table.rules.seat_names,
                                                        peer.table.seats, strict=False))
        client = NetClient(peer, lambda a: None, names, game.narrate)
        said = [line for line in client.snapshot().log if "time ran out" in line]
        assert len(said) == 1 and said[0].startswith("Jo's time ran out: the program ")
        assert said[0].endswith(" for Jo.") and not said[0].startswith("Yellow")
    path = tmp_path / "game.palazzo"
    path.write_bytes(g.host.table.transcript.to_bytes())
    assert verify_bytes(path.read_bytes()).kind == "verified"  # the flag is a legal field
    replay = network_replay(path)
    said = [line for line in replay.frames[-1].log if "time ran out" in line]
    assert len(said) == 1 and said[0].startswith("Jo's time ran out: the program ")
