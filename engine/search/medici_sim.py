"""Court of the Medici rollouts played in place, without listing every legal action.

``simulate`` plays a private full state to its end and returns the rewards, making exactly the
moves that the search's step-by-step loop makes with the ``fast`` policy of
``engine.search.medici``, its ``sample_chance`` and ``rules.apply_in_place``, from the same
generator state: the same calls on the generator, in the same order, with the same arguments
(``tests/engine/search/test_fast_path.py`` checks it). It is faster because:

* ``fast_play`` is ``fast``'s play-phase move worked out from tables: a card's values under a
  limit and its influence for or against a seat; per value a card may be played as, the most a
  conspiracy or a strike with it eliminates; the sums an alliance may make as bits. A move
  that cannot reach the best gain so far is passed by without being built (only the ties for
  the best are kept, in their order, for the draw among them), and whether a strike may be
  played at all is worked out only for one that could be the best;
* ``fast_resolve`` resolves a strike without Jesters from the one total it can match;
* a draw is drawn and applied in one step, and a strike and its reveal are one step too (the
  hidden card of a full state is known).

The rarer steps (a strike with a Jester, the set-up phases) go through the policy itself.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from engine.medici import rules
from engine.medici.cards import COPIES, JESTER, JESTER_MAX, MINISTER, RANK_VALUE, RANKS
from engine.medici.state import NO_CARD, NO_LIMIT, NONE, Action, State, _new, mk
from engine.search.medici_model import guess_rank

#: the options whose rules this module mirrors. A game that plays any other option is not
#: simulated here: ``engine.search.medici`` plays it with the rules themselves
#: (``engine.search.game.mirrored``), so a variant added to the rules alone cannot make this
#: copy of them disagree
MIRRORED = frozenset(("short_game",))
_CARDS = 4 * RANKS

#: per limit (``NO_LIMIT`` and 0..15), per card, the values it may be played as
_VALUES: dict[int, tuple[tuple[int, ...], ...]] = {
    limit: tuple(tuple(rules._values(c, limit)) for c in range(_CARDS)) for limit in range(NO_LIMIT, 16)
}
_FREE = _VALUES[NO_LIMIT]
_SPAN = 1 + max(v for vals in _FREE for v in vals)  # the values a card may be played as
_FACE: tuple[int, ...] = tuple(RANK_VALUE[c % RANKS] for c in range(_CARDS))
#: per seat, per card: what losing the card from the middle is worth to the seat (a card of its
#: own house lost is a loss, another house's a gain)
_LOSS: tuple[tuple[int, ...], ...] = tuple(
    tuple(-_FACE[c] if c // RANKS == seat else _FACE[c] for c in range(_CARDS)) for seat in range(4)
)

#: the values a rank (a card) may take when revealed, as bits
_RANK_BITS: tuple[int, ...] = tuple(sum(1 << v for v in rules._values(r)) for r in range(RANKS))
_CARD_BITS: tuple[int, ...] = tuple(_RANK_BITS[c % RANKS] for c in range(_CARDS))
#: per rank of a face-up card and of a hidden card, the totals the two make (Jesters: any value)
_TRUE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sorted({a + b for a in rules._values(t) for b in rules._values(h)})) for h in range(RANKS))
    for t in range(RANKS)
)

_JESTER_BITS = _RANK_BITS[JESTER]
_COVERED = frozenset(r for r in range(RANKS) if _RANK_BITS[r] & ~_JESTER_BITS == 0)
_OTHERS = tuple(r for r in range(RANKS) if r != JESTER and r not in _COVERED)


def _hidden_bits(seen: list[int], base: int) -> int:
    """The values a hidden card of the house whose first card is ``base`` may take, as bits:
    those of every rank with a copy nobody sees (``seen`` is ``rules._seen``). While a Jester
    may be hidden, the ranks whose values a Jester covers need no look."""
    if seen[base + JESTER] < COPIES[JESTER]:
        bits = _JESTER_BITS
        for r in _OTHERS:
            if seen[base + r] < COPIES[r]:
                bits |= _RANK_BITS[r]
        return bits
    bits = 0
    for r in range(RANKS):
        if seen[base + r] < COPIES[r]:
            bits |= _RANK_BITS[r]
    return bits


def fast_play(
    s: State, seat: int, rng: random.Random, explore: float = 0.3, guess: bool = True
) -> Action:
    """``engine.search.medici.fast_action`` in the play phase of a full state: the same move
    from the same generator state."""
    hand = s.hands[seat]
    vals_of = _VALUES[s.limits[seat]]
    cards = []
    prev = None
    top_face = -1
    for c in hand:  # sorted
        if c != prev:
            prev = c
            if vals_of[c]:
                cards.append(c)
                if _FACE[c] > top_face:
                    top_face = _FACE[c]
    if not cards:
        return rules.legal_actions(s)[0]
    middle = s.middle
    if rng.random() < explore:
        c = cards[rng.randrange(len(cards))]
        vals = vals_of[c]
        v = vals[rng.randrange(len(vals))]
        r = rng.randrange(3)
        if r == 1 and middle:
            return mk("build", seat, card=c, value=v, stack=middle[rng.randrange(len(middle))][0])
        if r == 2 and (s.pools[seat] or s.bottoms[seat]):
            return mk("plan", seat, card=c)
        return mk("court", seat, card=c, value=v)
    loss = _LOSS[seat]
    totals: dict[int, list[int]] = {}  # total -> its stacks, by sid
    lost: dict[int, int] = {}  # sid -> what eliminating the stack is worth to the seat
    most: dict[int, int] = {}  # total -> the most that eliminating one of its stacks is worth
    for sid, total, st in middle:
        g = 0
        for c, _ in st:
            g += loss[c]
        lost[sid] = g
        t = totals.get(total)
        if t is None:
            totals[total] = [sid]
            most[total] = g
        else:
            t.append(sid)
            if g > most[total]:
                most[total] = g
    # conspire[v]: the most a conspiracy with a card played as v eliminates (None: none
    # possible), over the stacks a card may go on and the other stacks it then matches
    conspire: list[int | None] = [None] * _SPAN
    for total, sids in totals.items():
        if len(sids) > 1:  # v = 0: another stack of the same total, the best of them
            x = conspire[0]
            g = most[total]
            if x is None or g > x:
                conspire[0] = g
        for other_total, g in most.items():
            v = other_total - total
            if 0 < v < _SPAN:
                x = conspire[v]
                if x is None or g > x:
                    conspire[v] = g
    # a strike with value v may be played when a stack's total minus v is a sum the alliance
    # may make (``rules._strike_sums``, as bits): (tmask >> v) & sums; it then eliminates the
    # best stack whose total its true cards and v make
    tmask = 0
    for total in totals:
        tmask |= 1 << total
    # per strike: [slot, gain, elim by value, alliance, sums (-1: not yet known), reach]
    strikes: list[list[Any]] = []
    for k, al in enumerate(s.alliances[seat]):
        if al is not None:
            elim: list[int | None] = [None] * _SPAN
            reach = 0  # the most it can add: it may eliminate nothing
            # a hidden card the striker cannot see: planned on a guess (``guess_rank``)
            hidden = al[1] if al[0] == seat or not guess else al[0] * RANKS + guess_rank(rng)
            for true_v in _TRUE[al[2] % RANKS][hidden % RANKS]:
                for total, g in most.items():
                    v = total - true_v
                    if 0 <= v < _SPAN:
                        x = elim[v]
                        if x is None or g > x:
                            elim[v] = g
                            if g > reach:
                                reach = g
            strikes.append([k, _FACE[al[2]] - loss[hidden], elim, al, -1, reach])
    seen: list[int] | None = None
    # ``fast_action`` keeps every move whose gain is the best, in their order; the best is at
    # least the highest face (that card to court), so the search starts there, and a move that
    # cannot reach the best so far is passed by: the picks are still exactly the moves of the
    # best gain in their order
    best = top_face
    picks: list[tuple[str, int, int, int, int]] = []
    for c in cards:
        vals = vals_of[c]
        face = _FACE[c]
        if face == best:
            picks.append(("court", c, vals[-1], -1, -1))
        if not middle:
            continue
        if c % RANKS == MINISTER:
            for sid, _, st in middle:
                if len(st) >= 2:
                    g = face + lost[sid]
                    if g > best:
                        best, picks = g, [("build", c, 0, sid, NONE)]
                    elif g == best:
                        picks.append(("build", c, 0, sid, NONE))
        most_gain: int | None = None
        for v in vals:
            x = conspire[v]
            if x is not None and (most_gain is None or x > most_gain):
                most_gain = x
        if most_gain is not None and face + most_gain >= best:
            for sid, total, _ in middle:
                for v in vals:
                    others = totals.get(total + v)
                    if others is not None:
                        for other in others:
                            if other != sid:
                                g = face + lost[other]
                                if g > best:
                                    best, picks = g, [("conspire", c, v, sid, other)]
                                elif g == best:
                                    picks.append(("conspire", c, v, sid, other))
        for strike in strikes:
            k, g0, elim, al, sums, reach = strike
            base = face + g0
            if base + reach < best:
                continue
            for v in vals:
                x = elim[v]
                g = base if x is None else base + x
                if g < best:
                    continue  # (whether the strike may be played at all is the dearer test)
                if sums < 0:
                    placer, hidden, top, _ = al
                    if placer == seat:
                        hbits = _CARD_BITS[hidden]
                    else:
                        if seen is None:
                            seen = rules._seen(s)
                        hbits = _hidden_bits(seen, placer * RANKS)
                    sums = 0
                    for tv in _FREE[top]:
                        sums |= hbits << tv
                    strike[4] = sums
                if not (tmask >> v) & sums:
                    continue
                if g > best:
                    best, picks = g, [("strike", c, v, k, NONE)]
                else:
                    picks.append(("strike", c, v, k, NONE))
    kind, c, v, target, elim_sid = picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0]
    if kind == "strike":
        return _new(Action, (kind, seat, c, v, NONE, target, NONE, NONE, 0))
    return _new(Action, (kind, seat, c, v, NONE, NONE, target, elim_sid, 0))


def fast_resolve(s: State, seat: int, rng: random.Random, explore: float = 0.3) -> Action | None:
    """``fast``'s (that is ``light``'s) resolution of a strike in a full state when neither of
    the alliance's cards is a Jester (one total to match); ``None`` for a Jester."""
    assert s.pending is not None
    slot, _, pv, hidden = s.pending
    al = s.alliances[seat][slot]
    assert al is not None
    top = al[2]
    if top % RANKS == JESTER or hidden % RANKS == JESTER:
        return None
    total = pv + _FACE[top] + _FACE[hidden]
    hits = [sid for sid, t, _ in s.middle if t == total]  # by sid, as the legal actions
    n = len(hits)
    if n <= 1:
        rng.randrange(1)  # light's draw among the one legal action
        return _resolution(seat, hits[0] if hits else -1)
    if rng.random() < explore:
        return _resolution(seat, hits[rng.randrange(n)])
    loss = _LOSS[seat]
    best = -10**9
    picks: list[int] = []
    for sid, _, st in s.middle:
        if sid in hits:
            g = 0
            for c, _ in st:
                g += loss[c]
            if g > best:
                best, picks = g, [sid]
            elif g == best:
                picks.append(sid)
    return _resolution(seat, picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0])


def _resolution(seat: int, elim: int) -> Action:
    return _new(Action, ("resolve", seat, NO_CARD, 0, NONE, NONE, NONE, elim, 0))


def _draw(s: State, randrange: Callable[[int], int]) -> None:
    """The draw after a turn, as ``sample_chance`` picks it and the draw rule applies it, in one
    step: the card at a random place of the pool (else the first under the deck) to the hand;
    the deck's last card is shown and sets the limit; the next seat's turn."""
    seat = s.turn
    pool = s.pools[seat]
    if pool:
        i = randrange(len(pool))
        c = pool[i]
        pools = s.pools
        s.pools = pools[:seat] + (pool[:i] + pool[i + 1 :],) + pools[seat + 1 :]
        last = len(pool) == 1 and not s.bottoms[seat]
    else:
        bottoms = s.bottoms
        bottom = bottoms[seat]
        c = bottom[0]
        s.bottoms = bottoms[:seat] + (bottom[1:],) + bottoms[seat + 1 :]
        last = len(bottom) == 1
    hands = s.hands
    hand = hands[seat]
    i = bisect_right(hand, c)
    s.hands = hands[:seat] + (hand[:i] + (c,) + hand[i:],) + hands[seat + 1 :]
    if last:
        r = c % RANKS
        limits, shown = s.limits, s.shown
        s.limits = limits[:seat] + (JESTER_MAX if r == JESTER else RANK_VALUE[r],) + limits[seat + 1 :]
        s.shown = shown[:seat] + (c,) + shown[seat + 1 :]
    s.turns += 1
    s.turn = (seat + 1) % s.players
    s.phase = "play"


def simulate(
    s: State,
    rng: random.Random,
    policy: Callable[[State, int, random.Random], Action],
    sample_chance: Callable[[State, random.Random], Action],
    rewards: Callable[[State], list[float]],
    guess: bool = True,
    evaluate: Callable[[State, int], list[float] | None] | None = None,
    until: int = 0,
) -> list[float]:
    """Play private full state ``s`` to its end in place with the ``fast`` policy, which
    ``policy`` is (it decides the steps ``fast_play`` and ``fast_resolve`` do not; ``guess``
    as the policy's), ``sample_chance`` the chance steps other than a draw; return
    ``rewards`` of the end. With ``evaluate``, stop at the first turn's start that it judges
    against the horizon ``until`` (it judges only a turn's start) and return its judgement."""
    apply = rules._APPLY
    take = rules._take_from_hand
    randrange = rng.randrange
    current_player = rules.current_player
    while True:
        phase = s.phase
        if phase == "play":
            if evaluate is not None:
                judged = evaluate(s, until)
                if judged is not None:
                    return judged
            seat = s.turn
            a = fast_play(s, seat, rng, 0.3, guess)
            kind = a.kind
            if kind == "strike":  # and its reveal: the hidden card of a full state is known
                take(s, seat, a.card)
                slot = a.slot
                s.pending = (slot, a.card, a.value, s.alliances[seat][slot][1])  # type: ignore[index]
                s.phase = "resolve"
            else:
                apply[kind](s, a)
        elif phase == "draw":
            _draw(s, randrange)
        elif phase == "reveal":
            slot = s.pending[0]  # type: ignore[index]
            al = s.alliances[s.turn][slot]
            apply["reveal"](s, mk("reveal", al[0], card=al[1], slot=slot))  # type: ignore[index]
        elif phase == "resolve":
            seat = s.turn
            a = fast_resolve(s, seat, rng) or policy(s, seat, rng)
            apply["resolve"](s, a)
        elif phase == "over":
            return rewards(s)
        else:
            p = current_player(s)
            a = sample_chance(s, rng) if p < 0 else policy(s, p, rng)
            apply[a.kind](s, a)
