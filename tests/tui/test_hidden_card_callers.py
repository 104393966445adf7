"""A hidden card never leaks through any caller of ``public_action``.

The attacker is any seat but the author, or anyone who reads the wire or a public replay. For
each move that hides a card (Court of the Medici: a draw, a ``hide``, a ``top``, a ``plan``;
Condottiere: a draw, a face-down play under Hidden Cards, a keep), in a position where the
author could have made the same move with several different cards, every caller must say the
same thing whichever card it was: the table's log (the game's narrator, from the seat's views
and the full action, as a local table gives it), the rules' words for the seat, a replay of a
saved game as that seat saw it or in the public view, the search's observation, and the wire
form of the move (the msgpack bytes of the action a networked seat signs, ``dealer.public``),
for every other seat and for the public view (the seat after the last). The author itself hears
the card, which shows the tests can fail.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack

from engine.condottiere import RULES as CONDOTTIERE
from engine.condottiere.cards import NAMES
from engine.condottiere.scenario import position as battle
from engine.condottiere.state import CondottiereConfig, mk
from engine.core import CHANCE, TERMINAL, UNKNOWN, sample_chance
from engine.medici import RULES as MEDICI
from engine.medici.cards import short_name
from engine.medici.state import MediciConfig
from engine.medici.view import draw_shown
from engine.search import condottiere as condottiere_search
from engine.search import medici as medici_search
from net.games.condottiere import CondottiereDealer
from net.games.medici import MediciDealer
from tui.condottiere import narrate as condottiere_narrate
from tui.medici import narrate as medici_narrate
from tui.replay import _frames

GAMES: dict[str, tuple[Any, Any, Any, Any]] = {
    "medici": (MEDICI, medici_narrate, medici_search.observe, MediciDealer),
    "condottiere": (CONDOTTIERE, condottiere_narrate, condottiere_search.observe,
                    CondottiereDealer),
}


def wire(game: str, s: Any, a: Any) -> bytes:
    """The bytes of ``a``'s action field in the act entry its author signs
    (``Table._act_entry``)."""
    rules, _, _, dealer_type = GAMES[game]
    dealer = dealer_type(b"g" * 16, s.config, b"s" * 32, a.seat, 1)
    return msgpack.packb(rules.action_to_data(dealer.public(rules.view(s, a.seat), a)),
                         use_bin_type=True)


def heard(game: str, s: Any, a: Any, seat: int) -> tuple[Any, ...]:
    """Everything the callers tell ``seat`` of ``a`` taken in the full state ``s``."""
    rules, narrator, observe, _ = GAMES[game]
    names = tuple(rules.seat_names[: s.players])
    after = rules.apply(s, a)
    before_view, after_view = rules.view(s, seat), rules.view(after, seat)
    log = tuple(narrator.narrate(before_view, a, after_view, seat, names))
    words = rules.action_text(before_view, a, seat)
    viewer = seat if seat < s.players else None
    replayed = _frames(rules, game, names, viewer, [(s, a, after)], s.players)[-1].log
    return log, words, observe(s, a, seat), replayed


def check_unsaid(game: str, s: Any, alternatives: list[Any], card_words: Any) -> None:
    """``alternatives``: the same move with different cards, from ``s``; none is told apart by
    anyone but its author, and the author hears each one's card."""
    assert len(alternatives) >= 2
    author = alternatives[0].seat
    assert all(a.seat == author for a in alternatives)
    assert len({wire(game, s, a) for a in alternatives}) == 1
    for seat in range(s.players + 1):
        told = {a: heard(game, s, a, seat) for a in alternatives}
        if seat == author:
            # the author hears its own card: the test would see a card told
            assert len(set(told.values())) == len(alternatives)
            assert all(card_words(a) in t[1] for a, t in told.items())
            continue
        assert len(set(told.values())) == 1, (seat, told)
        (log, words, observed, replayed), = set(told.values())
        for a in alternatives:
            said = " ".join(log + replayed) + " " + words
            assert card_words(a) not in said, (seat, a, said)
        assert UNKNOWN in (observed.card, *getattr(observed, "cards", ()))


# -- Court of the Medici ---------------------------------------------------------------------


def _medici_steps(seed: int, players: int = 4, limit: int = 400) -> list[Any]:
    """The full states of a seeded game of random moves, each with the actions possible there."""
    rng = random.Random(seed)
    s = MEDICI.new_game(MediciConfig(players))
    out = []
    for _ in range(limit):
        who = MEDICI.current_player(s)
        if who == TERMINAL:
            break
        if who == CHANCE:
            outcomes = MEDICI.chance_outcomes(s)
            out.append((s, [b for b, _ in outcomes]))
            a = sample_chance(outcomes, rng)
        else:
            legal = MEDICI.legal_actions(s)
            out.append((s, legal))
            a = rng.choice(legal)
        s = MEDICI.apply_unchecked(s, a)
    return out


def test_no_medici_caller_tells_another_seat_a_card_drawn_hidden_topped_or_planned():
    kinds: set[str] = set()
    for s, options in _medici_steps(seed=5):
        for kind in ("draw", "hide", "top", "plan"):
            moves = [a for a in options if a.kind == kind]
            if not moves or (kind == "draw" and draw_shown(s, moves[0].seat)):
                continue
            first = moves[0]
            # the same move with different cards (ranks: the log names a card by its rank)
            by_rank = {short_name(a.card): a for a in moves if a._replace(card=first.card) == first}
            if len(by_rank) < 2:
                continue
            check_unsaid("medici", s, list(by_rank.values()), lambda a: short_name(a.card))
            kinds.add(kind)
    assert kinds == {"draw", "hide", "top", "plan"}


# -- Condottiere -----------------------------------------------------------------------------


def test_no_condottiere_caller_tells_another_seat_a_card_played_face_down():
    config = CondottiereConfig(3, hidden_cards=True)
    s = battle(3, config=config, lines=[["Mercenary 5"], [], []], holder=1,
               hands=[["Mercenary 2"], ["Mercenary 10", "Mercenary 1", "Heroine", "Drummer",
                                        "Courtesan"], ["Winter"]])
    downs = [a for a in CONDOTTIERE.legal_actions(s) if a.kind == "play" and a.flip < 0]
    assert {NAMES[a.card] for a in downs} >= {"Mercenary 10", "Heroine", "Drummer"}
    check_unsaid("condottiere", s, downs, lambda a: NAMES[a.card])


def test_no_condottiere_caller_tells_another_seat_the_cards_it_keeps_or_draws():
    s = battle(3, lines=[[], [], []], holder=0, phase="keep", turn=1, battle=None,
               hands=[[], ["Mercenary 10", "Heroine", "Bishop"], []], queue=(1, 2, 0))
    keeps = [a for a in CONDOTTIERE.legal_actions(s) if a.kind == "keep" and len(a.cards) == 2]
    assert len(keeps) == 3
    check_unsaid("condottiere", s, keeps, lambda a: ", ".join(NAMES[c] for c in a.cards))
    dealing = battle(3, lines=[[], [], []], holder=0, phase="deal", turn=2, battle=None,
                     owed=(0, 0, 1), then="place")
    draws = [a for a, _ in CONDOTTIERE.chance_outcomes(dealing)]
    assert draws and all(a.kind == "draw" for a in draws)
    draws = [mk("draw", 2, card=c) for c in sorted({a.card for a in draws})[:4]]
    check_unsaid("condottiere", dealing, draws, lambda a: NAMES[a.card])
