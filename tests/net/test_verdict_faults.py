"""Verdicts that name nobody who is honest: table talk a host cannot turn into a frame, and a
player whose journal is missing or damaged (another machine, a cut or flipped file) told of a
fault, never of a cheat, and taken back into its seat wherever the game can go on without its
local secrets. Every test drives real sessions on the in-memory link with real keys, journals
and the fair deck, and checks what an honest player sees: the attacker opens no card the rules
never showed, the verdicts name nobody honest, and the game goes on where the rules allow."""

import logging

import pytest

from net.session.features.chat import read_say
from net.session.machines.conversation import param_map
from net.session.machines.host_session import HostSession
from net.session.records.journal import Journal
from net.session.records.verify import verify_bytes
from net.wire.errors import E_BUSY, CheatDetected, Fault, RemoteProtocolError
from net.wire.identity import Identity
from tests.net.test_attacks import PLAYERS, Player, bot, dealt, readable, step_until, table


@pytest.fixture(autouse=True)
def no_internal_errors(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    yield
    assert "internal error" not in caplog.text


def notes(peer):
    """The notes a peer's user was shown, and the faults its log told."""
    return [e.data for e in peer.events
            if e.kind == "note" or (e.kind == "log" and e.data.startswith("fault"))]


def named(peer):
    """Whom ``peer`` has named: its verdict's cheat, and every note naming a signer of two."""
    out = [peer.error.seat] if isinstance(peer.error, CheatDetected) else []
    return out + [n for n in notes(peer) if "signed two" in n or "cheat" in n]


# -- table talk cannot frame ------------------------------------------------------------------


class FramingHost(HostSession):
    """It answers seat 0's first message with a refusal ("slow down"), yet shows that message
    to seat 2 alone and keeps it; once seat 0 has said its text again (after a move), it shows
    the kept message to every seat, beside the new one."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.kept = []

    def _say(self, conn, req):
        seat = self._seat_of(conn)
        if seat == 0 and not self.kept:
            m = param_map(req)
            self.kept.append(read_say(m.get("body"), m.get("sig")))
            self._notify(self.seats[2].conn, "said", self.kept[0].to_wire())
            raise RemoteProtocolError("slow down", E_BUSY)
        return super()._say(conn, req)

    def show_kept(self):
        for s in self.seats:
            self._notify(s.conn, "said", self.kept[0].to_wire())
        return self.take_output()


@pytest.mark.long
def test_attack_chat_framing():
    players = [Player(i) for i in range(PLAYERS)]
    host, link, peers, conns = table(Identity.generate(), players, FramingHost)
    ada = peers[0]
    link.bots.pop(conns[0])  # Ada plays by hand for a moment
    link.pump()
    assert ada.decision_due()
    ada.say("Deal?")
    link.pump()
    assert [e.data["why"] for e in ada.events if e.kind == "refused"] == ["slow down"]
    assert [e.data["text"] for e in peers[2].events if e.kind == "said"] == ["Deal?"]
    ada.act(bot(0).choose(ada.view, 0))  # a move, then the same text again
    link.pump()
    ada.say("Deal?")
    link.pump()
    again = host.table.live[0]
    assert set(again) == {2}  # the retry signed a new number: a refused one keeps its own
    link.deliver(host.show_kept())
    link.bots[conns[0]] = bot(0)
    link.pump()
    assert host.finished and [p.state for p in peers] == ["over"] * PLAYERS, \
        [str(p.error) for p in peers]
    for p in peers:
        assert named(p) == [], notes(p)
        assert p.table.result()["verdict"] == "verified"
        assert p.table.talk_conflicts == []
    assert len({p.table.transcript.to_bytes() for p in peers}) == 1
    assert verify_bytes(host.table.transcript.to_bytes()).ok
    # the record holds the message the host took, under its own number; the kept one is only
    # the host's word (out of order where it came late, never shown twice)
    assert [(s, n, t) for s, n, _a, t, _q in host.table.said] == [(0, 2, "Deal?")]
    assert any("out of order, not shown" in n for n in notes(peers[1]))
    assert readable(host.table.transcript.entries, host.table) == []


def test_a_restarted_program_never_signs_a_refused_number_again(make_game):
    """The last number signed is in the journal before the message is sent: a program that
    restarts goes on above it, whatever the host tells it."""
    g = make_game(3)
    me, journal = Identity.generate(), Journal()
    a = g.add_bot(0, name="Ada", identity=me, journal=journal, bot=None)
    g.add_bot(1, name="Bea")
    g.add_bot(2, name="Cy")
    g.link.pump()
    ctx = a.table.seats[0].nonce
    g.host.chat.say = lambda *args: (_ for _ in ()).throw(RemoteProtocolError("no", E_BUSY))
    a.say("one")
    g.link.pump()
    assert journal.talk_used(ctx) == 1
    del g.host.chat.say
    g.link.drop(g.conns[0])
    from net.session.machines.peer_session import PeerSession

    again = PeerSession(me, "Ada", journal=journal)
    g.peers[0], g.conns[0] = again, g.link.add(again)
    g.link.pump()
    again.say("two")
    g.link.pump()
    assert [m.n for m in g.host.chat.backlog({me.public_key: ctx})] == [2]


# -- a journal missing or damaged: a fault, never a cheat -------------------------------------


def _file_player(i, tmp_path):
    p = Player(i)
    p.journal = Journal.for_identity(p.identity.public_key, tmp_path)
    return p


def _others_fine(peers, but):
    for i, p in enumerate(peers):
        if i != but:
            assert p.state == "over" and named(p) == [], (p.error, notes(p))


def test_attack_empty_journal(clock):
    """The same key on another machine, mid-game: its deck key was only in the first machine's
    journal, so it cannot go on, and is told so as a fault; nobody is named, the host forfeits
    the seat after the grace period, and the others' game ends checked as far as it went."""
    players = [Player(i) for i in range(PLAYERS)]
    host, link, peers, conns = table(Identity.generate(), players, clock=clock, grace=60)
    step_until(link, lambda: dealt(host.table) and host.table.writer() == 1)
    link.drop(conns[1])
    elsewhere = Player(1)
    elsewhere.identity, elsewhere.journal = players[1].identity, Journal()  # a new machine
    back = elsewhere.session()
    conn = link.add(back, bot(1))
    link.pump()
    assert back.state == "failed" and isinstance(back.error, Fault), back.error
    link.drop(conn)  # a program that stopped closes its connection
    assert str(back.error).startswith("fault (nobody is named): this seat cannot go on: this "
                                      "seat's fair-deck key secret is not in this machine's "
                                      "journal")
    assert any("taken back as far as the game can go on" in n for n in notes(back))
    assert not back.journal.finished(host.table.game_id)  # it may still come back from home
    clock.now += 61
    link.deliver(host.tick())
    link.pump()
    assert host.finished
    _others_fine(peers, 1)
    for p in (peers[0], peers[2]):
        assert p.table.result()["verdict"].startswith("verified as far as it went: p1 forfeited")
    assert readable(host.table.transcript.entries, host.table) == []


@pytest.mark.long
def test_attack_empty_journal_before_its_secrets_takes_the_seat_back():
    """Back from another machine before it has written anything secret (its seed commitment
    still due): it takes its seat back, is told of the fault, and the game is played to its end
    with nobody named."""
    players = [Player(i) for i in range(PLAYERS)]
    host, link, peers, conns = table(Identity.generate(), players)
    step_until(link, lambda: len(host.table.seed_commits) == 1)
    link.drop(conns[2])
    link.pump()
    assert len(host.table.seed_commits) == 2 and host.table.writer() == 2
    elsewhere = Player(2)
    elsewhere.identity = players[2].identity
    back = elsewhere.session()
    link.add(back, bot(2))
    link.pump()
    assert host.finished and back.state == "over", back.error
    everyone = [peers[0], peers[1], back]
    _others_fine(everyone, -1)
    assert all(p.table.result()["verdict"] == "verified" for p in everyone)
    assert [n for n in notes(back) if n.startswith("fault")] == [
        "fault (nobody is named): this machine's journal does not hold this seat's contribution "
        "to this game (it was joined from another machine or account, or the journal was lost "
        "or damaged): the seat is taken back as far as the game can go on without its secrets"]
    assert len({p.table.transcript.to_bytes() for p in everyone}) == 1


def _damage(journal, game, how):
    """Damage one file of ``journal`` as a disk or a careless copy would."""
    folder = journal.folder
    if how.startswith("nonce"):
        (path,) = [p for p in (folder / "nonces").iterdir()
                   if p.read_bytes()[:16] == game]
    elif how.startswith("entry"):
        seqs = sorted(int(p.name) for p in (folder / game.hex()).iterdir() if p.name.isdigit())
        path = folder / game.hex() / str(seqs[-1])
    else:
        path = folder / game.hex() / "secret-deck"
    data = path.read_bytes()
    if how.endswith("cut"):
        path.write_bytes(data[:len(data) // 2])
    else:
        flipped = bytearray(data)
        flipped[len(data) // 3] ^= 0x10
        path.write_bytes(bytes(flipped))


@pytest.mark.long
@pytest.mark.parametrize("how", ["nonce-cut", "nonce-flip", "entry-flip", "entry-cut"])
def test_attack_empty_journal_damaged(how, tmp_path):
    """A journal file cut short or with one bit flipped, found when the program restarts mid
    game: the file is taken as missing, the player is told of a fault naming nobody, takes its
    seat back (its secrets are intact), and the game ends verified for everyone."""
    players = [Player(i) for i in range(PLAYERS)]
    players[1] = _file_player(1, tmp_path)
    host, link, peers, conns = table(Identity.generate(), players)
    step_until(link, lambda: dealt(host.table) and host.table.writer() == 0
               and any(e.author == 1 and e.kind == "act" for e in host.table.transcript.entries))
    game = host.table.game_id
    link.drop(conns[1])
    _damage(players[1].journal, game, how)
    players[1].journal = Journal.for_identity(players[1].identity.public_key, tmp_path)
    back = players[1].session()
    link.add(back, bot(1))
    link.pump()
    assert players[1].journal.damaged  # found, and taken as missing
    everyone = [peers[0], back, peers[2]]
    assert host.finished and [p.state for p in everyone] == ["over"] * PLAYERS, back.error
    _others_fine(everyone, -1)
    assert all(p.table.result()["verdict"] == "verified" for p in everyone)
    faults = [n for n in notes(back) if n.startswith("fault (nobody is named)")]
    assert faults and all("cheat" not in n for n in faults)
    assert len({p.table.transcript.to_bytes() for p in everyone}) == 1
    assert readable(host.table.transcript.entries, host.table) == []


@pytest.mark.parametrize("how", ["secret-cut", "secret-flip"])
def test_attack_empty_journal_damaged_secret_is_a_fault_that_stops_the_seat(how, tmp_path):
    players = [Player(i) for i in range(PLAYERS)]
    players[1] = _file_player(1, tmp_path)
    host, link, peers, conns = table(Identity.generate(), players)
    step_until(link, lambda: dealt(host.table) and host.table.writer() == 0)
    link.drop(conns[1])
    _damage(players[1].journal, host.table.game_id, how)
    players[1].journal = Journal.for_identity(players[1].identity.public_key, tmp_path)
    back = players[1].session()
    link.add(back, bot(1))
    link.pump()
    assert back.state == "failed" and isinstance(back.error, Fault), back.error
    assert "fair-deck key secret is not in this machine's journal" in back.error.reason
    assert all(p.state == "playing" and named(p) == [] for p in (peers[0], peers[2]))
