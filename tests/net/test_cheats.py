"""Cheats at the session level: real host and peers on the in-memory link, the real fair deck and
real signatures. A cheating seat is a real peer whose own entries are altered and signed with its
own identity. Each test shows the cheat detected, its author and step named, and the honest seats
losing nothing: the host and the others go on, and where the protocol lets the game go on, it
ends with every honest peer "over" on one transcript."""

import logging
import random

import pytest

from engine.condottiere.cards import COPIES
from engine.core import REVEAL, UNKNOWN, IllegalActionError
from engine.medici.rules import _values as medici_values
from engine.medici.state import NO_LIMIT as MEDICI_NO_LIMIT
from engine.medici.state import mk as medici_mk
from engine.registry import get_game
from net.deck import cipher as dc
from net.deck import group
from net.deck import shuffle_proof as sp
from net.deck.fair_deck import pack_handles
from net.session.records.verify import verify_bytes
from net.wire.errors import E_CHEAT, E_ILLEGAL, HOST, CheatDetected, Fault, LocalProtocolError
from net.wire.identity import Identity
from net.wire.rpc import Codec, Notification
from net.wire.transcript import Entry

ED_IDENTITY = bytes([1]) + bytes(31)
SMALL_ORDER = [
    ED_IDENTITY,  # edwards25519's neutral element (no ristretto255 encoding, as none here)
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),  # order 2
    bytes(32),  # order 4
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
]




@pytest.fixture
def cheat_game(make_game, tolerant_peer):
    """A game whose seat 0 is a held ``Cheat``, the others bots (greedy unless ``bots``)."""

    def make(players=3, game="medici", options=None, seat=0, bots="greedy", **kw):
        g = make_game(players, game=game, options=options, **kw)
        for i in range(seat):
            g.add_bot(i, bot=bots)
        cheat = tolerant_peer(Identity.generate(), "mallory")
        cheat.hold = True
        conn = g.link.add(cheat)
        g.peers.append(cheat)
        g.conns.append(conn)
        for i in range(seat + 1, players):
            g.add_bot(i, bot=bots)
        g.link.pump()
        return g, cheat, conn

    return make


def drive(g, cheat, conn, stop, seed=5, bot="greedy"):
    """Play the held seat honestly until it must write and ``stop(table)`` holds."""
    bot = get_game(g.host.game).make_bot(bot, random.Random(seed))
    for _ in range(3000):
        t = cheat.table
        if t.writer() == t.me:
            if stop(t):
                return t
            entry = t.auto_entry()
            if entry is None:
                entry = t.decide(bot.choose(t.view, t.me))
            assert cheat.post_now(g.link, conn, entry) is None
        g.link.pump()
        assert t.phase != "over", "the moment never came"
    raise AssertionError("the moment never came")


def drive_anew(cheat_game, stop, attempts=20, bot="greedy", **kw):
    """``drive`` in fresh games until ``stop(game, table)`` holds (the deck is the seats' secret:
    a moment comes only in some games): the game, the cheat, its connection and its table."""
    for attempt in range(attempts):
        g, cheat, conn = cheat_game(bots=bot, **kw)
        try:
            return g, cheat, conn, drive(g, cheat, conn, lambda t, g=g: stop(g, t),
                                         seed=attempt, bot=bot)
        except AssertionError as e:
            if "the moment never came" not in str(e):
                raise
    raise AssertionError(f"the moment never came in {attempts} games")


def finish(g, cheat, conn, seed=0):
    """The held seat plays honestly from here: every peer ends "over" on one transcript."""
    cheat.hold = False
    g.link.bots[conn] = get_game(g.host.game).make_bot("greedy", random.Random(seed))
    cheat._maybe_write()
    g.link.pump()
    assert g.host.finished
    assert [p.state for p in g.peers] == ["over"] * len(g.peers), [str(p.error) for p in g.peers]
    assert len(g.transcripts()) == 1
    assert g.host.table.transcript.to_bytes() in g.transcripts()


def resign(cheat, entry, **changes):
    """``entry`` with some fields changed, signed by the cheat's own identity."""
    return Entry.sign(cheat.identity, {**entry.fields, **changes})


def refused(g, cheat, conn, entry, step_word=None):
    """Post ``entry``: the host refuses it, naming the cheat; an honest peer's table, had the
    host relayed it, names the cheat at that entry too, and changes nothing."""
    other = next(p for p in g.peers if p is not cheat).table
    length = len(other.transcript)
    # a seat checks shuffle proofs beside the game, so here at once, as the host does (a bad
    # proof checked beside the game: test_checks_beside.py)
    defer = other.dealer is not None and other.dealer.defer
    if other.dealer is not None:
        other.dealer.defer = False
    try:
        with pytest.raises(CheatDetected) as info:
            other.accept(entry)
    finally:
        if other.dealer is not None:
            other.dealer.defer = defer
    found = info.value
    assert found.seat == cheat.table.me and found.step == entry.seq
    assert len(other.transcript) == length
    if step_word is not None:
        assert found.reason.startswith(f"{step_word}: "), found.reason
    err = cheat.post_now(g.link, conn, entry)
    assert err is not None and f"seat {cheat.table.me} at step {entry.seq}" in err.message
    assert len(g.host.table.transcript) == len(cheat.table.transcript) == length
    return found, err


@pytest.fixture(autouse=True)
def no_internal_errors(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    yield
    assert "internal error" not in caplog.text


# -- 1. false reveals --------------------------------------------------------------------------


@pytest.mark.long
def test_a_medici_flip_naming_another_card_is_refused(cheat_game):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, lambda t: t.phase == "play" and t.dealer.due() is None
              and t.view.phase == "flip")
    (flip,) = t.rules.legal_actions(t.view)
    honest = t._act_entry(flip)
    other = flip._replace(card=flip.card + 1 if (flip.card + 1) % 13 else flip.card - 1)
    found, err = refused(g, cheat, conn, resign(cheat, honest, action=other.to_data()))
    assert err.code == E_CHEAT and "false reveal" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


def _face_up_plays(t):
    """Two legal face-up plays of the cheat naming different cards, the first not yet shown."""
    if t.view.phase != "play" or not t.decision_due():
        return None
    d, deck = t.dealer, t.dealer.decks["pile"]
    plays = [a for a in t.rules.legal_actions(t.view) if a.kind == "play" and a.card != UNKNOWN
             and not d._face_down(a) and a.region < 0 and a.taken < 0]
    for a in plays:
        h = d._find([a.card])[0]
        if deck.is_open(h):
            continue
        for b in plays:
            if b.card != a.card:
                return a, b
    return None


@pytest.mark.long
def test_a_condottiere_face_up_play_naming_another_card_is_refused(cheat_game):
    g, cheat, conn = cheat_game(3, "condottiere")
    t = drive(g, cheat, conn, lambda t: _face_up_plays(t) is not None)
    a, b = _face_up_plays(t)
    honest = t._act_entry(a)
    assert "open" in honest.fields
    # the open shows card a behind the handle; the action names b, a card the seat also holds
    forged = resign(cheat, honest, action=t.rules.action_to_data(b))
    found, err = refused(g, cheat, conn, forged)
    assert err.code == E_CHEAT and "false reveal" in found.reason
    assert f"the card shown is {a.card}, not {b.card}" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


def _special_in_hand(t):
    """The cheat may play a face-down card now, and holds a special card it has not shown."""
    if t.view.phase != "play" or not t.decision_due():
        return None
    d, deck = t.dealer, t.dealer.decks["pile"]
    downs = [a for a in t.rules.legal_actions(t.view) if a.kind == "play" and d._face_down(a)]
    specials = [h for h in d.hands[t.me] if not deck.is_open(h) and d.kind("pile", h) not in d.face_down]
    return (downs[0], specials[0]) if downs and specials else None


@pytest.mark.long
def test_a_special_card_played_face_down_is_refused_at_once(cheat_game):
    """With Hidden Cards only mercenaries, Heroines, Courtesans and Drummers go face down. The
    card stays hidden, but its holder proves it is one of those: a Bishop or a Winter slipped face
    down has no such proof, and the play is refused when it is made."""
    g, cheat, conn = cheat_game(3, "condottiere", options={"hidden_cards": True})
    t = drive(g, cheat, conn, lambda t: _special_in_hand(t) is not None)
    down, special = _special_in_hand(t)
    honest = t._act_entry(down)
    assert honest.fields["action"]["card"] == UNKNOWN and len(honest.fields["kind_proof"]) > 64
    swapped = resign(cheat, honest, handles=special.to_bytes(4, "big"))
    found, err = refused(g, cheat, conn, swapped)
    assert err.code == E_CHEAT and "kind proof fails" in found.reason
    # nor without a proof, nor with a proof made for the set with the special card in it
    bare = resign(cheat, honest, **{"handles": special.to_bytes(4, "big"), "kind_proof": b""})
    assert refused(g, cheat, conn, bare)[1].code == E_CHEAT
    deck = t.dealer.decks["pile"]
    wider = deck.prove_one_of(special, range(110), t.transcript.head)
    lying = resign(cheat, honest, **{"handles": special.to_bytes(4, "big"), "kind_proof": wider})
    assert refused(g, cheat, conn, lying)[1].code == E_CHEAT
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


def _turning_up(g, t):
    """The cheat must turn up one of its face-down cards (a reveal or the showdown)."""
    return (t.phase == "play" and t.dealer.due() is None
            and t.rules.current_player(t.view) == REVEAL and t.rules.revealer(t.view) == t.me)


@pytest.mark.long
def test_a_condottiere_face_down_card_turned_up_must_be_the_one_played(cheat_game):
    """A card played face down stays hidden until its seat turns it up (after a later play, or
    at the showdown): the open proves which card it is, so naming another card there, even one
    that may go face down, is refused at once."""
    g, cheat, conn, t = drive_anew(cheat_game, _turning_up, game="condottiere",
                                   options={"hidden_cards": True})
    honest = t.auto_entry()
    action = t.rules.action_from_data(honest.fields["action"])
    assert action.kind == "reveal"
    other = next(k for k in sorted(t.dealer.face_down) if k != action.card)
    forged = resign(cheat, honest, action=t.rules.action_to_data(action._replace(card=other)))
    found, err = refused(g, cheat, conn, forged)
    assert err.code == E_CHEAT and f"the card shown is {action.card}, not {other}" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


def _discard_due(t):
    return (t.view.phase == "discard" and t.decision_due()
            and any(a.kind == "discard" and len(a.cards) >= 1 for a in t.rules.legal_actions(t.view)))


@pytest.mark.long
def test_a_condottiere_discard_showing_other_cards_is_refused(cheat_game):
    for attempt in range(8):  # the deck is random: play until the cheat may discard its hand
        g, cheat, conn = cheat_game(2, "condottiere")
        try:
            t = drive(g, cheat, conn, _discard_due, seed=attempt)
            break
        except AssertionError:
            continue
    else:
        pytest.fail("the cheat never had a hand to discard")
    (a,) = [a for a in t.rules.legal_actions(t.view) if a.kind == "discard"]
    honest = t._act_entry(a)
    named = list(a.cards)
    named[0] = next(k for k in range(7, len(COPIES)) if k not in a.cards)  # no mercenary
    other = a._replace(cards=tuple(sorted(named)))
    found, err = refused(g, cheat, conn, resign(cheat, honest, action=t.rules.action_to_data(other)))
    assert err.code == E_CHEAT
    assert "false reveal: the cards shown are not the cards discarded" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


# -- 1b. what the others cannot see: checked at once, or when the rules show the card ------------
#
# Every move whose card the other seats cannot see when it is made, and how it is checked then:
#
# * Medici hide, top, plan: any card of the hand may go there; the handle shows it is one.
# * Medici strike on the striker's own hidden card (three players): at the striker's reveal.
# * Medici stuck: the seat shows its hand; the rules check it holds no card it may play.
# * Condottiere face-down play (Hidden Cards): a proof that the card may go face down
#   (``test_a_special_card_played_face_down_is_refused_at_once``); turned up later, the card
#   shown must be that one (``test_a_condottiere_face_down_card_turned_up_must_be_...``).
# * Condottiere keep: any one or two cards of the hand; the handles show they are.
# * Condottiere discard: the seat shows its hand (``test_a_condottiere_discard_...``).
#
# Every other move shows its card in its own entry (section 1).


def _other_hand_handles(t):
    """Two things a face-down move may not name: a handle of the seat's deck that is not in its
    hand (one never dealt), and two handles of its hand at once."""
    d = t.dealer
    deck = d.decks[d.deck_of(t.me)]
    return [deck.handles], sorted(d.hands[t.me])[:2]


@pytest.mark.parametrize("kind", ["hide", "top", "plan"])
def test_a_medici_card_placed_face_down_may_be_any_card_of_the_hand_and_no_other(cheat_game,
                                                                                 kind):
    """Any card of the hand may be hidden, put on top or planned, so the others check only that
    the card placed, unopened, is one card of the author's hand, named by its handle."""
    phase = "play" if kind == "plan" else kind
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, lambda t: t.decision_due() and t.view.phase == phase
              and any(a.kind == kind for a in t.rules.legal_actions(t.view)))
    action = next(a for a in t.rules.legal_actions(t.view) if a.kind == kind)
    honest = t._act_entry(action)
    # the entry says nothing of the card: it would read the same for any card of the hand
    assert all(t.dealer.public(t.view, action._replace(card=c)) == t.dealer.public(t.view, action)
               for c in t.view.hands[t.me])
    never_dealt, two = _other_hand_handles(t)
    for handles in (never_dealt, two):
        found, err = refused(g, cheat, conn, resign(cheat, honest, handles=pack_handles(handles)))
        assert err.code == E_CHEAT and "one card of the author's hand" in found.reason
    if kind != "hide":  # a card the seat already placed is out of its hand
        placed = next(iter(t.dealer.hidden.values()))
        found, _ = refused(g, cheat, conn, resign(cheat, honest, handles=pack_handles([placed])))
        assert "one card of the author's hand" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


def _blind_strike(t, other):
    """A strike by the cheat on its own hidden card (three players) that its card does not
    make, though a seat that cannot see the card would accept it."""
    if t.view.phase != "play" or not t.decision_due():
        return None
    me, rules, slot = t.me, t.rules, t.players - 1
    alliance = t.view.alliances[me][slot]
    if alliance is None or alliance[0] != me:
        return None
    for c in sorted(set(t.view.hands[me])):
        for v in medici_values(c, t.view.limits[me]):
            strike = medici_mk("strike", me, card=c, value=v, slot=slot)
            try:
                rules.apply(t.view, strike)
                continue  # a match: an honest strike
            except IllegalActionError:
                pass
            try:
                rules.apply(other.view, strike)
            except IllegalActionError:
                continue
            return strike
    return None


@pytest.mark.long
def test_a_strike_on_the_strikers_own_hidden_card_must_make_a_match_checked_at_its_reveal(
        cheat_game, clock):
    """With three players a seat hides one card before itself and knows it: it may strike there
    only if the card makes a match. The others cannot see the card and accept the strike; the
    reveal shows it, and a card that makes no match is refused then, its author named. The
    striker can show no other card: its time runs out, and the others' game ends there."""
    g, cheat, conn, t = drive_anew(
        cheat_game, lambda g, t: _blind_strike(t, g.peers[1].table) is not None,
        turn_timeout=30, clock=clock)
    strike = _blind_strike(t, g.peers[1].table)
    entry = t._act_entry(strike)
    # the cheat's own table knows the card and refuses the strike: its program stops and erases
    # its secrets of the game, so the test keeps a copy of its deck to forge the reveal with
    opener = t.dealer.decks[t.dealer.deck_of(t.me)].clone()
    assert cheat.post_now(g.link, conn, entry) is None  # nobody else can tell yet
    host = g.host.table
    assert host.transcript.entries[-1].body == entry.body and host.view.phase == "reveal"
    # the reveal: the striker opens its hidden card, the only card it can show there
    d = t.dealer
    deck_id = d.deck_of(t.me)
    handle = d.hidden[(t.me, t.me)]
    reveal = medici_mk("reveal", t.me, card=d.kind(deck_id, handle), slot=strike.slot)
    shown = Entry.sign(cheat.identity, {
        "game": host.game_id, "seq": len(host.transcript), "prev": host.transcript.head,
        "author": t.me, "kind": "act", "action": reveal.to_data(),
        "open": opener.make_open([handle], host.transcript.head)})
    for table in (host, g.peers[1].table, g.peers[2].table):
        n = len(table.transcript)
        with pytest.raises(CheatDetected) as info:
            table.accept(shown)
        assert (info.value.seat, info.value.step, info.value.code) == (t.me, shown.seq, E_ILLEGAL)
        assert len(table.transcript) == n
    g.link.pump()  # the others acknowledge the strike: the striker's turn runs from then
    clock.now += 31
    g.link.pump()
    assert g.host.finished
    assert [p.state for p in g.peers[1:]] == ["over", "over"]
    verdict = g.peers[1].table.result()["verdict"]
    assert verdict.startswith("verified as far as it went: mallory forfeited")


def _stuck_moment(t, other):
    """The cheat has a limit and a card it may play, and a seat that cannot see its hand would
    take a ``stuck`` from it: the hand could hold only cards over the limit."""
    if t.view.phase != "play" or not t.decision_due() or t.view.limits[t.me] == MEDICI_NO_LIMIT:
        return False
    stuck = medici_mk("stuck", t.me)
    try:
        t.rules.apply(t.view, stuck)
        return False
    except IllegalActionError:
        pass
    try:
        t.rules.apply(other.view, stuck)
        return True
    except IllegalActionError:
        return False


@pytest.mark.long
def test_a_medici_seat_that_says_it_is_stuck_shows_its_hand_and_a_playable_card_is_refused(
        cheat_game):
    """A seat with no card it may play under its limit says ``stuck`` and the game ends, with a
    proof per hidden card that it may not play it (``test_stuck_hand.py``). A seat that could
    play is refused when it says so, its author named, whether it shows its hand (a stuck opens
    nothing) or not (it has no proof)."""
    g, cheat, conn, t = drive_anew(
        cheat_game, lambda g, t: _stuck_moment(t, g.peers[1].table), bot="random",
        options={"end_when_all_struck": True})
    stuck = medici_mk("stuck", t.me)
    d = t.dealer
    hand = sorted(d.hands[t.me])
    deck = d.decks[d.deck_of(t.me)]
    to_open = [h for h in hand if not deck.is_open(h)]
    shows = Entry.sign(cheat.identity, {
        **t._header("act"), "action": stuck.to_data(), "handles": pack_handles(hand),
        "open": deck.make_open(to_open, t.transcript.head)})
    found, err = refused(g, cheat, conn, shows)
    assert err.code == E_CHEAT and "stuck check: a stuck seat names its whole hand and opens " \
        "none of it" in found.reason
    hides = Entry.sign(cheat.identity, {**t._header("act"), "action": stuck.to_data(),
                                        "handles": pack_handles(hand)})
    found, err = refused(g, cheat, conn, hides)
    assert err.code == E_CHEAT and "stuck check: one proof of" in found.reason
    finish(g, cheat, conn)


def _keep_due(g, t):
    return t.view.phase == "keep" and t.decision_due() and len(t.view.hands[t.me]) >= 3


@pytest.mark.long
def test_a_condottiere_keep_may_keep_any_two_cards_of_the_hand_and_no_other(cheat_game):
    """At the end of a round the last seat holding cards keeps up to two, unseen: any two may
    be kept, so the others check only that the handles kept are distinct cards of its hand, and
    no more than two."""
    g, cheat, conn, t = drive_anew(cheat_game, _keep_due, players=2, game="condottiere")
    keep = max(t.rules.legal_actions(t.view), key=lambda a: len(a.cards))
    honest = t._act_entry(keep)
    assert honest.fields["action"]["cards"] == [UNKNOWN, UNKNOWN]
    d = t.dealer
    mine = sorted(d.hands[t.me])
    other = next(h for h in range(d.decks["pile"].handles) if h not in mine)  # a card gone
    # refused by every reader, its author named (a reader that saw a Scarecrow take a card
    # back into that hand may find the masked keep itself illegal first)
    for handles, why in (([mine[0], other], "not in the author's hand"),
                         ([mine[0]] * 2, "a card named twice")):
        found, err = refused(g, cheat, conn, resign(cheat, honest, handles=pack_handles(handles)))
        assert err.code in (E_CHEAT, E_ILLEGAL)
        assert why in found.reason or found.code == E_ILLEGAL
    three = t.rules.action_to_data(keep._replace(cards=(UNKNOWN,) * 3))
    found, err = refused(g, cheat, conn, resign(cheat, honest, action=three,
                                                handles=pack_handles(mine[:3])))
    assert err.code == E_ILLEGAL
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


# -- 2 and 3. bad deck messages: refused at once, the author named, the game goes on -------------


def _deck_due(what):
    def stop(t):
        if t.phase != "play" or t.dealer.due() != t.me:
            return False
        d = t.dealer
        if what == "key":
            return d.keys is None
        if what == "shuffle":
            return d.keys is not None and any(x.shuffling for x in d.decks.values())
        # shares, the first message for at least two cards
        owed = [p for p in d.pending if p.to != t.me]
        return (d.keys is not None and not any(x.shuffling for x in d.decks.values())
                and len([p for p in owed if p.deck == owed[0].deck]) >= 2)
    return stop


def _honest_deck_entry(t):
    entry = t.auto_entry()
    assert entry.kind == "deck"
    return entry


def _with_msg(cheat, entry, i=0, **changes):
    msgs = [dict(m) for m in entry.fields["msgs"]]
    msgs[i].update(changes)
    return resign(cheat, entry, msgs=msgs)


@pytest.mark.long
def test_a_share_that_is_not_x_times_c1_is_refused_and_the_seat_goes_on(cheat_game):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, _deck_due("shares"))
    honest = _honest_deck_entry(t)
    msg = honest.fields["msgs"][0]
    assert msg["type"] == "deck/shares"
    shares = msg["shares"]
    # a valid point of the group, but not this seat's share of the first card
    forged = _with_msg(cheat, honest, shares=group.base_mul(2) + shares[32:])
    found, err = refused(g, cheat, conn, forged, "deal")
    assert err.code == E_CHEAT and "fail their proof" in found.reason
    # the shares for the first card copied onto the second card's handle
    forged = _with_msg(cheat, honest, shares=shares[:32] * (len(shares) // 32))
    found, _ = refused(g, cheat, conn, forged, "deal")
    assert "fail their proof" in found.reason
    # the same shares, the handles swapped: each share named for the other card
    hs = msg["handles"]
    forged = _with_msg(cheat, honest, handles=hs[4:8] + hs[:4] + hs[8:])
    found, _ = refused(g, cheat, conn, forged, "deal")
    assert "fail their proof" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


def test_a_key_share_of_small_order_is_refused(cheat_game):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, _deck_due("key"))
    honest = _honest_deck_entry(t)
    for point in SMALL_ORDER:
        found, err = refused(g, cheat, conn, _with_msg(cheat, honest, key=point), "key")
        assert err.code == E_CHEAT and "invalid key share" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


@pytest.mark.long
def test_a_masked_card_with_a_small_order_point_is_refused(cheat_game):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, _deck_due("shuffle"))
    honest = _honest_deck_entry(t)
    cards = honest.fields["msgs"][0]["cards"]
    for point in SMALL_ORDER:
        for at in (0, 32, len(cards) - 32):  # a first half, a second half, the last card's
            forged = _with_msg(cheat, honest, cards=cards[:at] + point + cards[at + 32:])
            found, err = refused(g, cheat, conn, forged, "shuffle")
            assert err.code == E_CHEAT and "masked card" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


@pytest.mark.long
def test_a_share_of_small_order_is_refused(cheat_game):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, _deck_due("shares"))
    honest = _honest_deck_entry(t)
    shares = honest.fields["msgs"][0]["shares"]
    for point in SMALL_ORDER:
        found, err = refused(g, cheat, conn, _with_msg(cheat, honest, shares=point + shares[32:]),
                             "deal")
        assert err.code == E_CHEAT and "share for card" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


def test_an_open_share_of_small_order_is_refused(cheat_game):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, lambda t: t.phase == "play" and t.dealer.due() is None
              and t.view.phase == "flip")
    (flip,) = t.rules.legal_actions(t.view)
    honest = t._act_entry(flip)
    for point in SMALL_ORDER:
        bad_open = {**honest.fields["open"], "shares": point}
        found, err = refused(g, cheat, conn, resign(cheat, honest, open=bad_open), "open")
        assert err.code == E_CHEAT and "share for card" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


# -- 5. a false shuffle: refused at once, its author and the check it broke named ----------------


def _shuffle_fields(t, honest, change=None, context=None):
    """The cheat's first shuffle message with its output changed by ``change(pile, output)``
    and proved by the cheat as if it were its honest shuffle (bound to ``context``, by default
    the right one)."""
    msg = honest.fields["msgs"][0]
    deck = t.dealer.decks[msg["deck"]]
    key = deck.keys.joint
    draw = dc.shuffle_draw(bytes(32), len(deck.pile))
    out = dc.apply_draw(deck.pile, draw, key)
    if change is not None:
        out = change(deck.pile, out)
    bound = deck.shuffle_context(t.me, deck.shuffles, t.transcript.head if context is None else context)
    proof = sp.prove(key, deck.pile, out, draw.order, draw.scalars, bound)
    return {"cards": b"".join(ct.to_bytes() for ct in out), "proof": proof}


@pytest.mark.long
@pytest.mark.parametrize("how, check", [
    ("reordered, the honest proof", "t1: permutation commitment product"),
    ("reordered, proved as its own", "t4: re-encryption"),
    ("a proof made for another moment", "t1: permutation commitment product"),
])
def test_a_stacked_deck_is_refused_at_once_and_the_game_goes_on(cheat_game, how, check):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, _deck_due("shuffle"))
    honest = _honest_deck_entry(t)
    cards = honest.fields["msgs"][0]["cards"]
    if how == "reordered, the honest proof":  # the first two cards swapped
        fields = {"cards": cards[64:128] + cards[:64] + cards[128:]}
    elif how == "reordered, proved as its own":
        fields = _shuffle_fields(t, honest, lambda pile, out: out[1:] + out[:1])
    else:
        fields = _shuffle_fields(t, honest, context=bytes(32))
    found, err = refused(g, cheat, conn, _with_msg(cheat, honest, **fields), "shuffle")
    assert err.code == E_CHEAT and found.reason == f"shuffle: {check}"
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)
    for table in [g.host.table, *(p.table for p in g.peers)]:
        assert table.result()["verdict"] == "verified" and table.result()["winners"]


def forged_seq(g, wire):
    return next(e.seq for e in g.host.table.transcript.entries if e.body == wire.body)


# -- 7. a host that reorders what it relays -------------------------------------------------------


def test_a_host_that_swaps_two_entries_for_one_peer_is_a_fault_and_the_others_go_on(make_game,
                                                                                      clock, tamper):
    """An entry beyond the peer's length (the one before it withheld, or lost) is no signed
    evidence against anyone: the peer stops with a fault that names nobody."""
    g = make_game(3, turn_timeout=30, clock=clock)
    seen, held = [], []

    def change(e):
        if isinstance(e, Notification) and e.method == "entry":
            seen.append(e)
            if len(seen) == 10:  # seat 2's key (entry 9, pending), then seat 0's shuffle
                held.append(e)
                return []
            if len(seen) == 11:
                return [e, held[0]]
        return [e]

    for i in range(3):
        g.add_bot(i)
    tamper(g, g.conns[1], change)
    g.link.pump()
    victim = g.peers[1]
    assert victim.state == "failed"
    assert isinstance(victim.error, Fault) and not isinstance(victim.error, CheatDetected)
    # each entry comes pending, then confirmed: a confirmation of an entry not relayed here
    assert "the host settled entry 9, which it did not relay to this seat" in str(victim.error)
    assert "nobody is named" in str(victim.error)
    # the host and the others are not fooled; the silent seat is forfeited when its turn times out
    for _ in range(100):
        if g.host.finished:
            break
        clock.now += 31
        g.link.pump()
    assert g.host.finished
    others = [g.peers[0], g.peers[2]]
    assert [p.state for p in others] == ["over", "over"]
    assert {p.table.transcript.to_bytes() for p in others} == {g.host.table.transcript.to_bytes()}
    assert g.host.table.forfeited == {1}
    assert all(p.error is None for p in others)


# -- 8. a seat that does not sign the end ----------------------------------------------------------


@pytest.mark.long
def test_a_seat_that_does_not_sign_the_end_is_forfeited_the_game_stands_and_no_one_is_named(
        cheat_game, clock):
    """Once the game is over nothing is left to check and nothing is revealed: a seat that does
    not write its end only fails to sign the record. Its time runs out, the host forfeits it, the
    others sign, and the game's outcome stands as verified."""
    g, cheat, conn = cheat_game(turn_timeout=30, clock=clock)
    drive(g, cheat, conn, lambda t: t.phase == "end")
    clock.now += 29
    g.link.pump()
    assert not g.host.finished and g.host.table.phase == "end"
    clock.now += 2
    g.link.pump()
    assert g.host.finished
    kinds = [(e.kind, e.author) for e in g.host.table.transcript.entries]
    assert kinds[-3:] == [("forfeit", HOST), ("end", 1), ("end", 2)]
    for table in [g.host.table, *(p.table for p in g.peers)]:
        assert table.phase == "over"
        result = table.result()
        assert result["verdict"] == "verified"
        assert result["end"] != "forfeit" and result["winners"] and result["scores"]
        assert "mallory did not sign the end of the game" in table.log[-1]
    assert [p.state for p in g.peers] == ["over"] * 3
    assert len(g.transcripts()) == 1
    v = verify_bytes(g.peers[1].table.transcript.to_bytes())
    assert v.ok and v.kind == "verified" and v.seat is None and v.exit_status == 0
    assert v.text.endswith("; one side's record: seats mallory did not sign (mallory forfeited: "
                           "no move within 30 seconds)")


# -- 4. a card duplicated or dropped in a shuffle -------------------------------------------------


def test_a_masked_card_sent_twice_in_a_shuffle_is_refused_at_once(cheat_game):
    g, cheat, conn = cheat_game()
    t = drive(g, cheat, conn, _deck_due("shuffle"))
    honest = _honest_deck_entry(t)
    cards = honest.fields["msgs"][0]["cards"]
    forged = _with_msg(cheat, honest, cards=cards[:64] * 2 + cards[128:])
    found, err = refused(g, cheat, conn, forged, "shuffle")
    assert err.code == E_CHEAT and "the same masked card twice" in found.reason
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)


@pytest.mark.long
@pytest.mark.parametrize("how", ["duplicated", "no card", "another deck's card copied in"])
def test_a_card_duplicated_replaced_or_copied_in_by_the_last_shuffle_is_refused_at_once(
        cheat_game, how):
    """Seat 2 shuffles last and puts one card twice (freshly masked: other bytes, the same card;
    another card dropped), a point that is no card, or a masked card of another deck's pile, and
    proves it as best it can: the host and every peer refuse it at once, naming seat 2 and the
    re-encryption check; then it shuffles honestly and the game ends as usual."""
    g, cheat, conn = cheat_game(3, "medici", seat=2)
    t = drive(g, cheat, conn, _deck_due("shuffle"))
    honest = _honest_deck_entry(t)
    deck = t.dealer.decks[honest.fields["msgs"][0]["deck"]]
    key = deck.keys.joint
    other = next(d for d in t.dealer.decks.values() if d is not deck)
    change = {
        "duplicated": lambda pile, out: [out[0], dc.remask(out[0], 77, key), *out[2:]],
        "no card": lambda pile, out: [dc.mask(group.base_mul(987654321), 4242, key), *out[1:]],
        "another deck's card copied in": lambda pile, out: [other.pile[0], *out[1:]],
    }[how]
    fields = _shuffle_fields(t, honest, change)
    found, err = refused(g, cheat, conn, _with_msg(cheat, honest, **fields), "shuffle")
    assert err.code == E_CHEAT and found.reason == "shuffle: t4: re-encryption"
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)
    assert not any(e.kind == "abort" for e in g.host.table.transcript.entries)
    v = verify_bytes(g.peers[0].table.transcript.to_bytes())
    assert v.ok, v.text


# -- 6. two different signed entries for one place ------------------------------------------------


def test_a_seat_that_signs_two_entries_for_one_place_is_named(cheat_game, clock):
    g, cheat, conn = cheat_game(turn_timeout=30, clock=clock)
    t = drive(g, cheat, conn, lambda t: t.decision_due() and len(t.rules.legal_actions(t.view)) > 1)
    a, b = t.rules.legal_actions(t.view)[:2]
    first = t.decide(a)
    with pytest.raises(LocalProtocolError):  # its journal holds an entry for this place
        t.decide(b)
    t.journal.forget(t.game_id, first.seq)  # a cheating program forgets what it signed
    second = t.decide(b)
    assert first.seq == second.seq and first.body != second.body
    assert cheat.post_now(g.link, conn, first) is None
    g.link.pump()
    # the host holds the first: the second, validly signed, names its author
    err = cheat.post_now(g.link, conn, second)
    assert err is not None and err.code == E_CHEAT
    assert f"seat 0 at step {first.seq}: signed two different entries" in err.message
    # a peer the host relays it to names the author too (a relay of the same entry is harmless)
    victim, bystander = g.peers[2], g.peers[1]
    held = len(victim.table.transcript)
    victim.receive_data(Codec().send(Notification("entry", (first.to_wire(),))))
    assert victim.state == "playing"
    victim.receive_data(Codec().send(Notification("entry", (second.to_wire(),))))
    assert victim.state == "failed" and isinstance(victim.error, CheatDetected)
    assert victim.error.seat == 0 and victim.error.step == first.seq
    assert len(victim.table.transcript) == held
    # the host and the others go on; the seat that stopped is forfeited when its turn times out
    cheat.hold = False
    g.link.bots[conn] = get_game("medici").make_bot("greedy", random.Random(0))
    cheat._maybe_write()
    for _ in range(100):
        g.link.pump()
        if g.host.finished:
            break
        clock.now += 31
    assert g.host.finished
    assert [p.state for p in (cheat, bystander)] == ["over", "over"]
    assert {cheat.table.transcript.to_bytes(), bystander.table.transcript.to_bytes()} == {
        g.host.table.transcript.to_bytes()}
    assert g.host.table.transcript.entries[first.seq].body == first.body


def test_a_host_that_forfeits_a_seat_that_signed_its_end_is_named(played):
    """The host may forfeit only a seat the game waits for (the writer, or one that owes an
    acknowledgement: ``net.session.features.acks``): not one that already signed its end."""
    from net.session.machines.table import Table

    entries = played.host.table.transcript.entries
    first_end = next(i for i, e in enumerate(entries) if e.kind == "end")
    follower = Table(played.host.identity.public_key, None)
    for e in entries[: first_end + 1]:
        follower.accept(e)
    done = entries[first_end].author
    for seat in (done,):  # one that signed
        bad = Entry.sign(played.host.identity, {
            "game": follower.game_id, "seq": first_end + 1, "prev": follower.transcript.head,
            "author": -1, "kind": "forfeit", "seat": seat, "reason": "no move in time"})
        with pytest.raises(CheatDetected) as info:
            follower.accept(bad)
        assert info.value.seat == -1 and "signed its end already" in info.value.reason
    assert len(follower.transcript) == first_end + 1 and follower.phase == "end"


# -- the attacks on the deck itself, as the trust review ran them -----------------------------


def _cheat_knows(g, cheat):
    """The hidden cards of the other seats that the cheat's table can name: none, when the deck
    holds."""
    t = cheat.table
    return [(deck_id, h) for deck_id, deck in t.dealer.decks.items() for h in range(deck.handles)
            if deck.holder(h) not in (None, t.me) and not deck.is_open(h)
            and deck.card(h) is not None]


def test_attack_stacked_deck(cheat_game):
    """The last shuffler of a Condottiere pile puts the cards where it likes: it builds the pile
    afresh from its own maskings of the cards it wants dealt to itself (it knows every card's point
    and the joint key) and proves it as best it can. Every reader refuses it at once, naming it and
    the re-encryption check; nothing of it enters any record; then it shuffles honestly, knows no
    card of another seat, and the game ends verified on one record."""
    g, cheat, conn = cheat_game(3, "condottiere", seat=2)
    t = drive(g, cheat, conn, _deck_due("shuffle"))
    honest = _honest_deck_entry(t)
    deck = t.dealer.decks["pile"]
    key = deck.keys.joint
    best = sorted(range(deck.table.size), key=lambda c: -t.dealer.kinds["pile"][c])  # highest first

    def stack(pile, out):
        # every third card from the top is dealt to seat 2: put the cards it wants there
        chosen = iter(best)
        return [dc.mask(deck.table.point(next(chosen)), 1000 + i, key) if i % 3 == 2 else ct
                for i, ct in enumerate(out)]

    fields = _shuffle_fields(t, honest, stack)
    found, err = refused(g, cheat, conn, _with_msg(cheat, honest, **fields), "shuffle")
    assert err.code == E_CHEAT and found.reason == "shuffle: t4: re-encryption"
    assert found.seat == 2
    for record in g.transcripts():
        assert fields["cards"] not in record
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)
    assert _cheat_knows(g, cheat) == []
    v = verify_bytes(g.host.table.transcript.to_bytes())
    assert v.ok and v.text.startswith("verified"), v.text


@pytest.mark.long
def test_attack_copied_card(cheat_game):
    """At a Condottiere reshuffle, the cheat copies into the pile a masked card that another seat
    holds unseen, hoping it comes back to itself (its holder's share would then show it). Every
    reader refuses the shuffle at once, naming the cheat and the re-encryption check; the card
    stays its holder's secret and the game goes on to a verified end."""

    def reshuffle_due(g, t):
        d = t.dealer
        if t.phase != "play" or d.keys is None or d.due() != t.me:
            return False
        pile = d.decks["pile"]
        held = [h for h in range(pile.handles) if pile.holder(h) == 0 and pile.in_play(h)
                and not pile.is_open(h)]
        return pile.shuffling and pile.shuffles >= t.players and bool(held)

    g, cheat, conn, t = drive_anew(cheat_game, reshuffle_due, attempts=12, players=3,
                                   game="condottiere", seat=2)
    honest = _honest_deck_entry(t)
    deck = t.dealer.decks["pile"]
    victim = next(h for h in range(deck.handles) if deck.holder(h) == 0 and deck.in_play(h)
                  and not deck.is_open(h))
    copied = deck.ciphertext(victim)
    fields = _shuffle_fields(t, honest, lambda pile, out: [copied, *out[1:]])
    found, err = refused(g, cheat, conn, _with_msg(cheat, honest, **fields), "shuffle")
    assert err.code == E_CHEAT and found.reason == "shuffle: t4: re-encryption"
    assert found.seat == 2
    assert cheat.post_now(g.link, conn, honest) is None
    finish(g, cheat, conn)
    assert (("pile", victim)) not in _cheat_knows(g, cheat)
    assert _cheat_knows(g, cheat) == []
    v = verify_bytes(g.host.table.transcript.to_bytes())
    assert v.ok, v.text
