"""Agreement before disclosure, agreed records, and evidence with every accusation
(``net.session.machines.agreement``, ``net.session.machines.echo``,
``net.session.records.evidence``).

Every test plays real sessions on the in-memory link, with real keys, journals and the fair
deck; the attackers are subclasses of the project's own ``HostSession`` and ``PeerSession`` that
change only what they control (what the host relays and to whom, what it and its colluding seats
sign). Each shows three things: the attacker gets no disclosure on a history the honest seats did
not all acknowledge (no card, no share, no end); every honest seat's verdict names the cheater,
with evidence it checked itself, or, for a fault, nobody; and no honest party is ever named."""

import copy
import logging
import random
from pathlib import Path

import msgpack
import pytest

from engine.registry import get_game
from net.session.machines.agreement import discloses, sign_ack
from net.session.machines.conversation import param_map
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.records.evidence import check_two_heads, verify_evidence
from net.session.records.journal import Journal
from net.session.records.verify import verify_bytes
from net.session.runners.link import MemoryLink
from net.wire.errors import HOST, CheatDetected
from net.wire.identity import Identity
from net.wire.transcript import Entry, Transcript
from tests.net.conftest import SpyJournal
from tests.net.test_attacks import readable

PLAYERS = 3


@pytest.fixture(autouse=True)
def no_internal_errors(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    yield
    assert "internal error" not in caplog.text


def bot(seed, game):
    return get_game(game).make_bot("greedy", random.Random(seed))


def table(host_cls, game="condottiere", tmp_path=None, seed=0, **kw):
    config = get_game(game).rules.make_config(PLAYERS, {})
    host = host_cls(Identity.generate(), game, config, **kw)
    link = MemoryLink(host)
    peers, conns = [], []
    for i in range(PLAYERS):
        peer = Colluder(Identity.generate(), f"p{i}", journal=SpyJournal())
        if tmp_path is not None:
            peer.evidence_folder = tmp_path / f"p{i}"
        conns.append(link.add(peer, bot(seed * 10 + i, game)))
        peers.append(peer)
    return host, link, peers, conns


def cheats_named(peer):
    """Whom ``peer`` named, with evidence it checked: seats from its cheat events, and the
    party its own stop names."""
    named = {e.data.seat for e in peer.events if e.kind == "cheat"}
    if isinstance(peer.error, CheatDetected):
        named.add(peer.error.seat)
    return named


# -- a relay-only game ------------------------------------------------------------------------------


@pytest.mark.long
def test_a_relay_only_three_seat_game_leaves_identical_agreed_records(finished):
    g = finished("condottiere", 3, {"hidden_cards": True})  # greedy bots on a relay-only host
    host, peers = g.host, g.peers
    assert host.finished and [p.state for p in peers] == ["over"] * PLAYERS, \
        [str(p.error) for p in peers]
    records = {p.table.transcript.to_bytes() for p in peers}
    assert records == {host.table.transcript.to_bytes()}  # byte for byte, on every peer
    v = verify_bytes(records.pop())
    assert v.ok and v.text.endswith("; agreed by all 3 seats"), v.text
    for p in peers:
        assert p.table.result()["agreed"] == "agreed by all 3 seats"
        assert all(e.kind not in ("cheat", "evidence") for e in p.events)


@pytest.mark.long
def test_an_entry_that_discloses_waits_for_every_other_seats_acknowledgement():
    """The rule itself: every disclosing entry a seat posted went out only once every other
    seat still in had signed the head it is written on."""
    sent = []

    class Watching(HostSession):
        def _post(self, conn, req):
            m = param_map(req)
            entry = Entry.parse(m.get("body"), m.get("sig"))
            seat = self.conns[conn].seat
            if discloses(entry):
                peer = peers[seat]
                sent.append((entry, peer.agreement.missing(entry.seq, PLAYERS, seat,
                                                            peer.table.forfeited)))
            return super()._post(conn, req)

    host, link, peers, _ = table(Watching, game="medici")
    link.pump()
    assert host.finished
    kinds = {e.kind for e, _ in sent}
    assert {"act", "deck", "end"} <= kinds
    assert all(missing == [] for _, missing in sent)


# -- the forks of a reveal, a share and an end ------------------------------------------------------


class Colluder(PeerSession):
    """A seat's program; when ``colludes``, it also signs what the host asks of it."""

    colludes = False

    def sign_head(self, n, head):
        return sign_ack(self.identity, self.table.game_id, n, head)


class ForkHost(HostSession):
    """At the first post from ``author`` that ``moment`` accepts, it relays the entry to the
    seats of ``shown`` only, and shows the others a forfeit of the author at that place, signed
    by itself. From then on it relays every seat's acknowledgement to every other seat, signed
    by itself whatever head it names (``silent``: only within each side)."""

    moment = None
    shown: set = set()
    silent = False

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.fork = None  # (place, the entry shown, the forfeit shown the others)
        self.after_fork = {}  # conn -> what it posted after the fork

    def _post(self, conn, req):
        if self.fork is not None:
            m = param_map(req)
            self.after_fork.setdefault(conn, []).append(Entry.parse(m.get("body"), m.get("sig")))
            if self.conns[conn].seat not in self.shown:
                return {"seq": self.fork[0]}  # the other side's post: kept, relayed to nobody
        if self.fork is None and self.moment is not None:
            m = param_map(req)
            entry = Entry.parse(m.get("body"), m.get("sig"))
            t = self.table
            if entry.seq == len(t.transcript) and self.moment(self, entry):
                return self._split(conn, entry)
        return super()._post(conn, req)

    def _split(self, conn, entry):
        t = self.table
        n = entry.seq
        forfeit = Entry.sign(self.identity, {
            "game": t.game_id, "seq": n, "prev": t.transcript.head, "author": HOST,
            "kind": "forfeit", "seat": entry.author, "reason": "no move within 60 seconds"})
        other = copy.deepcopy(t)
        other.accept(forfeit)
        t.accept(entry)
        self.fork = (n, entry, forfeit, other)
        for c, x in self.conns.items():
            if x.seat is None or x.closed:
                continue
            if x.seat in self.shown:
                self._notify(c, "entry", self._wire(entry))
            else:
                self._notify(c, "entry", {**forfeit.to_wire(), "ack": sign_ack(
                    self.identity, t.game_id, n + 1, other.transcript.head_at(n + 1))})
        return {"seq": n}

    def _agreement_note(self, conn, event):
        if self.fork is None or event.method != "ack":
            return super()._agreement_note(conn, event)
        m = event.params[0]
        seat = self.conns[conn].seat
        for c, x in self.conns.items():
            if c == conn or x.seat is None or x.closed:
                continue
            if self.silent and (x.seat in self.shown) != (seat in self.shown):
                continue
            self._notify(c, "ack", {"seat": seat, "n": m["n"], "head": m["head"], "sig": m["sig"],
                                    "host": sign_ack(self.identity, self.table.game_id, m["n"],
                                                     m["head"])})

    def ack_as(self, seat, n, head, colluder):
        """A colluding seat's acknowledgement of the other side's head, relayed to all."""
        sig = colluder.sign_head(n, head)
        for c, x in self.conns.items():
            if x.seat is not None and x.seat != seat and not x.closed:
                self._notify(c, "ack", {"seat": seat, "n": n, "head": head, "sig": sig,
                                        "host": sign_ack(self.identity, self.table.game_id, n,
                                                         head)})
        return self.take_output()


def _moment(what, author, victim):
    """When the fork comes: ``author``'s entry after which ``victim`` must disclose next."""

    def at(host, entry):
        t = host.table
        if entry.author != author:
            return False
        if what == "end":
            return entry.kind == "end" and t.writer() == entry.author and \
                [s for s in range(PLAYERS) if s not in t.ended][1:2] == [victim]
        trial = copy.deepcopy(t)
        try:
            trial.accept(entry)
        except Exception:
            return False
        if trial.writer() != victim or trial.phase != "play":
            return False
        if what == "share":
            return entry.kind == "deck" and trial.dealer.due() == victim and \
                any(p.to != victim for p in trial.dealer.pending)
        return entry.kind == "act" and trial.dealer.due() is None and \
            trial.rules.current_player(trial.view) == victim
    return at


def _disclosing_action(peer):
    """A legal action of ``peer``'s that opens a card, or ``None``."""
    t = peer.table
    for action in t.rules.legal_actions(t.view):
        fields = t.dealer.act_fields(t.view, action, t.transcript.head)
        if "open" in fields:
            return action
    return None


COALITIONS = ["host", "host and one seat", "host and all seats but one"]


@pytest.mark.long
@pytest.mark.parametrize("coalition", COALITIONS)
@pytest.mark.parametrize("what", ["reveal", "share", "end"])
def test_attack_fork_leak(what, coalition, tmp_path):
    victim, author = 1, 0
    third = 2
    colluders = {"host": set(), "host and one seat": {author},
                 "host and all seats but one": {author, third}}[coalition]
    shown = {victim, author} | ({third} if third in colluders else set())

    # the end comes in any game: the shortest one reaches it; the reveal and the share moments
    # need Condottiere's face-down cards and its shares before a seat's turn
    game = "medici" if what == "end" else "condottiere"
    for seed in range(6):
        host, link, peers, conns = table(ForkHost, game, tmp_path=tmp_path / str(seed), seed=seed)
        host.moment = _moment(what, author, victim)
        host.shown = shown
        for s in colluders:
            peers[s].colludes = True
        if what == "reveal":  # the victim plays by hand from the fork on: a card it opens
            link.bots.pop(conns[victim])
            link.bots[conns[victim]] = None
        _play_until_fork(host, link, peers, conns, victim, what)
        if host.fork is not None:
            break
    else:
        pytest.fail("the moment never came")
    n, shown_entry, forfeit, other = host.fork
    if coalition == "host and all seats but one":  # until the victim has disclosed on the fork
        _play_until(host, link, lambda: any(discloses(e) for e in
                                            host.after_fork.get(conns[victim], [])))
    else:
        link.pump()
    if what == "reveal" and peers[victim].decision_due():
        action = _disclosing_action(peers[victim])
        assert action is not None, "the victim has no card to open"
        peers[victim].act(action)
        link.pump()
    # the colluders sign the other side's head too
    for s in colluders:
        link.deliver(host.ack_as(s, n + 1, other.transcript.head_at(n + 1), peers[s]))
    link.pump()

    honest = [s for s in range(PLAYERS) if s not in colluders]
    # 1. with everything the host holds (both sides, every post) and the colluders' secrets,
    # no card of the victim's opens that the history the host keeps has not shown
    everything = [*host.table.transcript.entries, forfeit,
                  *(e for posts in host.after_fork.values() for e in posts)]
    # (the colluders' deck key secrets, which their journals erase at the end)
    secrets = {s: int.from_bytes(peers[s].journal.given["deck"]["secret"], "little")
               for s in colluders}
    assert [c for c in readable(everything, host.table, secrets) if c[2] == victim] == []
    posted_by_victim = host.after_fork.get(conns[victim], [])
    if coalition != "host and all seats but one":
        # nothing disclosed on the fork: the victim held its entry, unposted
        assert [e for e in posted_by_victim if discloses(e)] == []
        assert peers[victim]._gated is not None or peers[victim].failed
    else:
        # every other seat signed the fork's head: the victim disclosed on a history every
        # other seat acknowledged, and each of them also signed the other side's head
        assert any(discloses(e) for e in posted_by_victim)
    # 2. every honest seat names the host (it signed both heads), and the colluding seats
    # whose other head reached it; 3. nobody honest is named
    for s in honest:
        named = cheats_named(peers[s])
        assert HOST in named, (s, str(peers[s].error), [e.data for e in peers[s].events
                                                          if e.kind == "note"])
        assert named <= {HOST} | colluders, named
        ev = getattr(peers[s].error, "evidence", None)
        assert ev is not None and check_two_heads(peers[s].table.transcript.entries[0],
                                                  ev).signer == HOST
        saved = list((tmp_path / str(seed) / f"p{s}").glob("*.evidence"))
        assert saved and all(verify_evidence(p.read_bytes())[0] is not None for p in saved)
    if coalition == "host and all seats but one":  # and a colluder that signed both heads
        assert cheats_named(peers[victim]) & colluders


def _play_until_fork(host, link, peers, conns, victim, what):
    _play_until(host, link, lambda: host.fork is not None or host.finished)


def _play_until(host, link, done):
    """Move one message at a time, bots deciding when due, until ``done()`` or nothing moves."""
    for _ in range(200_000):
        if done():
            return
        moved = False
        for conn, peer in list(link.peers.items()):
            data = peer.data_to_send()
            if data:
                link.send(conn, data)
                moved = True
                break
            b = link.bots.get(conn)
            if b is not None and peer.decision_due():
                peer.act(b.choose(peer.view, peer.table.me))
                moved = True
                break
            if b is None and peer.decision_due() and host.fork is None:
                peer.act(bot(7, host.game).choose(peer.view, peer.table.me))
                moved = True
                break
        if not moved:
            return


# -- one history to some seats, another to the others -------------------------------------------


class SplitHost(HostSession):
    """Using only its own forfeits: seat 0's move is shown to seat 0 alone, followed by a forfeit
    of the seat due after it; seats 1 and 2 are shown a forfeit of seat 0 instead. Seat 0's
    record would say "p1 forfeited", the others' "p0 forfeited". With ``silent`` it relays no
    acknowledgement from one side to the other."""

    silent = False

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.split = None

    def _post(self, conn, req):
        m = param_map(req)
        entry = Entry.parse(m.get("body"), m.get("sig"))
        if self.split is None and entry.author == 0 and entry.kind == "act" \
                and entry.seq == len(self.table.transcript) and self.table.dealer.due() is None:
            x = copy.deepcopy(self.table)
            x.accept(entry)
            if x.phase == "play" and x.writer() not in (None, 0):  # another seat to forfeit
                return self._split(conn, entry, x)
        if self.split is not None and self.conns[conn].seat == 0:
            self.split["posted"].append(entry)  # seat 0's side: kept, relayed to nobody
            return {"seq": entry.seq}
        return super()._post(conn, req)

    def _split(self, conn, entry, x):
        t = self.table
        fx = Entry.sign(self.identity, {
            "game": t.game_id, "seq": entry.seq + 1, "prev": x.transcript.head, "author": HOST,
            "kind": "forfeit", "seat": x.writer(), "reason": "no move within 60 seconds"})
        x.accept(fx)
        for e in (entry, fx):
            self._notify(conn, "entry", {**e.to_wire(), "ack": sign_ack(
                self.identity, t.game_id, e.seq + 1, x.transcript.head_at(e.seq + 1))})
        self.split = {"x": x, "posted": [], "conn": conn, "seat": fx.fields["seat"]}
        self._write({"kind": "forfeit", "seat": 0, "reason": "no move within 60 seconds"})
        return {"seq": entry.seq}

    def _broadcast(self, method, payload, but=None, first=()):
        if self.split is not None and method == "entry":
            but = self.split["conn"]
        super()._broadcast(method, payload, but, first)

    def _agreement_note(self, conn, event):
        if self.split is None or event.method != "ack":
            return super()._agreement_note(conn, event)
        m = event.params[0]
        seat = self.conns[conn].seat
        for c, x in self.conns.items():
            if c == conn or x.seat is None or x.closed:
                continue
            if self.silent and (x.seat == 0) != (seat == 0):
                continue
            self._notify(c, "ack", {"seat": seat, "n": m["n"], "head": m["head"], "sig": m["sig"],
                                    "host": sign_ack(self.identity, self.table.game_id, m["n"],
                                                     m["head"])})


@pytest.mark.parametrize("relay", ["acknowledgements relayed", "acknowledgements withheld"])
def test_attack_split_records(relay, tmp_path):
    host, link, peers, conns = table(SplitHost, tmp_path=tmp_path)
    host.silent = relay == "acknowledgements withheld"
    link.pump()
    assert host.split is not None
    # seat 0 never ended a game the others did not acknowledge: its end is held, not posted
    assert [e for e in host.split["posted"] if e.kind == "end"] == []
    assert not any(p.table.agreed()[0] for p in peers)
    if relay == "acknowledgements relayed":
        # every seat holds the host's signatures of two heads for one length: it names the host
        for p in peers:
            assert cheats_named(p) == {HOST}, (p.name, str(p.error))
            ev = p.error.evidence
            assert check_two_heads(p.table.transcript.entries[0], ev).signer == HOST
            saved = list((tmp_path / p.name).glob("*.evidence"))
            assert saved and verify_evidence(saved[0].read_bytes())[1].startswith(
                "cheat: the host: two heads")
    else:
        # nothing crosses: seats 1 and 2 end with one side's record, and nobody is named
        for p in peers:
            assert cheats_named(p) == set(), (p.name, str(p.error))
        # seat 0 still holds its end: the host said the game was over (a fault, nobody named)
        assert peers[0]._gated is not None and peers[0]._gated.kind == "end"
        assert not isinstance(peers[0].error, CheatDetected)
        for p in peers[1:]:
            assert p.state == "over"
            assert p.table.result()["agreed"].startswith("one side's record: seats p0 did not sign")
            v = verify_bytes(p.table.transcript.to_bytes())
            assert "one side's record: seats p0 did not sign" in v.text and "agreed by all" \
                not in v.text


# -- a refused post, named to every seat ------------------------------------------------------------


class StackingSeat(Colluder):
    """A seat's program that posts its first shuffle with two cards swapped (the honest proof
    beside them), then, refused, the honest one."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.forged = None
        self.refusals = []

    def _send_post(self, entry):
        msgs = entry.fields.get("msgs") or []
        if self.forged is None and entry.kind == "deck" and msgs and \
                msgs[0].get("type") == "deck/shuffle":
            cards = msgs[0]["cards"]
            bad = [dict(msgs[0], cards=cards[64:128] + cards[:64] + cards[128:]), *msgs[1:]]
            self.forged = Entry.sign(self.identity, {**entry.fields, "msgs": bad})
            self._call("post", (self.forged.to_wire(),))
        super()._send_post(entry)

    def _handle(self, event):
        from net.wire.rpc import Response

        if isinstance(event, Response) and event.error is not None \
                and self._calls.get(event.msgid) == "post":
            self._calls.pop(event.msgid)
            self.refusals.append(event.error)
            return
        super()._handle(event)


@pytest.mark.long
def test_attack_cheat_named_to_every_seat():
    from net.session.machines.watch_session import WatchSession

    config = get_game("medici").rules.make_config(PLAYERS, {})  # any game: the deck's check
    host = HostSession(Identity.generate(), "medici", config)
    link = MemoryLink(host)
    peers = []
    for i in range(PLAYERS):
        cls = StackingSeat if i == 0 else Colluder
        peers.append(cls(Identity.generate(), f"p{i}", journal=Journal()))
        link.add(peers[-1], bot(i, "medici"))
    watcher = WatchSession(Identity.generate(), "w")
    link.add(watcher)
    link.pump()
    cheat = peers[0]
    assert cheat.forged is not None and len(cheat.refusals) == 1
    assert "shuffle: t1" in cheat.refusals[0].message
    # every other seat and the watcher checked the refused entry on its own table, and named
    # its author, with the check it broke; the game went on to its agreed end
    for p in [*peers[1:], watcher]:
        cheats = [e.data for e in p.events if e.kind == "cheat"]
        assert [(c.seat, c.step) for c in cheats] == [(0, cheat.forged.seq)], (p.name, cheats)
        assert cheats[0].reason.startswith("shuffle: t1")
        assert p.refused == [cheat.forged]
        record = Transcript()
        for e in p.table.transcript.entries[:cheat.forged.seq]:
            record.append(e)
        v = verify_bytes(record.to_bytes() + msgpack.packb([cheat.forged.body, cheat.forged.sig]))
        assert v.kind == "cheat" and v.seat == 0 and "shuffle: t1" in v.text  # offline, again
        # every seat and the watcher kept that very file when it named the author
        kept = [e.data for e in p.events if e.kind == "evidence"]
        assert len(kept) == 1 and kept[0].endswith(f"-refused-{cheat.forged.seq}.palazzo")
        again = verify_bytes(Path(kept[0]).read_bytes())
        assert (again.kind, again.seat, again.text) == (v.kind, v.seat, v.text)
        assert p.state == "over" and p.table.result()["agreed"] == "agreed by all 3 seats"
    assert cheat.state == "over"
    assert all(e.kind != "cheat" for e in cheat.events)  # the honest are never named


def test_a_seat_away_while_its_disclosure_waited_gets_the_acknowledgements_again():
    """The acknowledgements relayed while a seat was away went with its old connection: the
    host gives it each seat's latest again, and the game goes on to its agreed end."""
    host, link, peers, conns = table(HostSession, game="medici")
    _play_until(host, link, lambda: any(p._gated is not None for p in peers))
    waiting = next(i for i, p in enumerate(peers) if p._gated is not None)
    held = peers[waiting]._gated
    link.drop(conns[waiting])
    link.pump()  # the others acknowledge; nothing reaches the seat that is away
    assert len(host.table.transcript) == held.seq and not host.finished
    peers[waiting].reconnect()
    link.add(peers[waiting], bot(waiting, "medici"))
    link.pump()
    assert host.finished and [p.state for p in peers] == ["over"] * PLAYERS, \
        [str(p.error) for p in peers]
    assert host.table.transcript.entries[held.seq].body == held.body  # the same bytes again
    assert {p.table.result()["agreed"] for p in peers} == {"agreed by all 3 seats"}


@pytest.mark.long
def test_attack_forged_evidence_names_nobody_and_stops_no_game():
    """A host relays "evidence" against an honest seat: a made-up signature, the seat's real
    acknowledgement replayed from another game, and its real acknowledgement given twice. No
    reader names the seat, and the game goes on to an agreed end (any game: evidence is the
    agreement's, not the rules')."""
    host, link, peers, conns = table(HostSession, game="medici")
    _play_until(host, link, lambda: len(host.table.transcript) >= 12)
    t, n = host.table, 10
    head = t.transcript.head_at(n)
    genuine = {"head": head, "sig": sign_ack(peers[1].identity, t.game_id, n, head)}
    elsewhere = b"\x01" * 32
    replayed = {"head": elsewhere, "sig": sign_ack(peers[1].identity, bytes(16), n, elsewhere)}
    made_up = {"head": b"\x02" * 32, "sig": bytes(64)}
    for other in (made_up, replayed, genuine):
        item = {"kind": "two-heads", "signer": 1, "n": n, "a": genuine, "b": other}
        for conn in host.conns:
            host._notify(conn, "evidence", item)
        link.deliver(host.take_output())
    link.pump()
    assert host.finished and [p.state for p in peers] == ["over"] * PLAYERS, \
        [str(p.error) for p in peers]
    assert all(cheats_named(p) == set() for p in peers)
    assert all(p.table.result()["agreed"] == "agreed by all 3 seats" for p in peers)
