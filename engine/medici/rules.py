"""The rules of Court of the Medici: Shadow Alliances, as pure functions over ``State``.

The game, step by step (``docs/rules/medici.md`` gives every decision and its reason):

* **deal** (chance): each seat in turn draws 11 cards from its own shuffled house deck.
* **hide**: each seat in turn places one card face down before every other seat (with three
  players, before itself too); the card lands in the holder's slot ``(placer - holder - 1) % n``.
* **top**: each seat in turn places one of its own cards on each of its three slots; others see
  only that a card was placed (the choice is simultaneous in effect).
* **flip** (reveal): the top cards are turned up, holder by holder, slot by slot.
* **first** (chance): only when the face-up totals tie (a Jester counts 1): a lot decides.
* **play**: the seat on turn plays one card: court, build, conspire, strike or plan. A strike
  goes through **reveal** (the placer shows the hidden card) and **resolve** (the striker
  declares Jester values and eliminates a matching stack, or the strike fizzles). A striker
  that placed the hidden card itself (three players) knew it and could strike only for a match:
  on a view that did not know the card, its reveal may show only a card that makes one.
* **draw** (chance): the seat draws the top card of its deck if it has one; the last card of a
  deck is shown to all and sets that seat's limit.
* The game ends after a turn that leaves no seat with a shadow alliance (option "short game",
  ``end_when_all_struck`` off: some seat), the draw of that turn skipped; or when a seat starts its turn with
  no card it may play (its one legal action is then ``stuck``).

Legal actions come in one canonical order, ``sort_key``: by card, then kind (court, build,
conspire, strike, plan), then holder, slot, stack, eliminated stack, value, extra and seat.
The play phase's actions are made once and kept (``engine.medici.moves``), and the middle's
totals and a strike's possible totals are worked with as bits; the checked door asks whether
one action is legal without listing the others (``engine.medici.legality``).
"""

from __future__ import annotations

from typing import TypeVar

from engine.core import CHANCE, REVEAL, TERMINAL, UNKNOWN, IllegalActionError
from engine.medici.cards import (
    CARDS,
    COPIES,
    HOUSES,
    JESTER,
    JESTER_MAX,
    LADY,
    MINISTER,
    RANK_VALUE,
    RANKS,
    house_deck,
)
from engine.medici.lazy import LazyActions, Run
from engine.medici.moves import BY_LIMIT, DRAWS, UNKNOWN_PLANS, CardMoves, card_moves, values
from engine.medici.state import (
    KINDS,
    NO_CARD,
    NO_LIMIT,
    NONE,
    Action,
    Alliance,
    MediciConfig,
    State,
    _new,
    mk,
)

HAND_START = 11
T = TypeVar("T")
KIND_ORDER = {k: i for i, k in enumerate(KINDS)}

END_ALLIANCES = "alliances-gone"
END_ALL_STRUCK = "all-struck"
END_STUCK = "no-playable-card"


def sort_key(a: Action) -> tuple[int, ...]:
    """The canonical order of actions: by card, kind, holder, slot, stack, eliminated stack, value, extra,
    then seat (only the lot for the first player lists several seats)."""
    return (a.card, KIND_ORDER[a.kind], a.before, a.slot, a.stack, a.elim, a.value, a.extra, a.seat)


# -- creating a game ---------------------------------------------------------------------------


def new_game(config: MediciConfig | None = None) -> State:
    """The position before the deal: every house deck full and unshuffled (order is chance)."""
    config = config or MediciConfig()
    n = config.players
    s = object.__new__(State)
    s.config = config
    s.phase = "deal"
    s.turn = 0
    s.hands = ((),) * n
    s.pools = tuple(house_deck(h) for h in range(n))
    s.bottoms = ((),) * n
    s.alliances = ((None, None, None),) * n
    s.middle = ()
    s.next_sid = 0
    s.eliminated = ()
    s.limits = (NO_LIMIT,) * n
    s.shown = (NO_CARD,) * n
    s.pending = None
    s.turns = 0
    s.end = ""
    return s


# -- who acts ----------------------------------------------------------------------------------


def current_player(s: State) -> int:
    phase = s.phase
    if phase in ("play", "hide", "top", "resolve"):
        return s.turn
    if phase in ("deal", "draw", "first"):
        return CHANCE
    if phase in ("reveal", "flip"):
        return REVEAL
    return TERMINAL


def revealer(s: State) -> int:
    """The seat that must show a card now: the placer of a struck hidden card, or a holder
    turning up its top cards."""
    if s.phase == "flip":
        return s.turn
    if s.phase == "reveal":
        assert s.pending is not None
        a = s.alliances[s.turn][s.pending[0]]
        assert a is not None
        return a[0]
    raise ValueError(f"no reveal is due in phase {s.phase}")


def is_over(s: State) -> bool:
    return s.phase == "over"


# -- chance ------------------------------------------------------------------------------------


def chance_outcomes(s: State) -> list[tuple[Action, float]]:
    if s.phase in ("deal", "draw"):
        seat = s.turn
        pool = s.pools[seat]
        if pool:
            n = len(pool)
            count = pool.count
            draws = DRAWS[seat]
            return [(draws[c + 1], count(c) / n) for c in sorted(set(pool))]
        bottom = s.bottoms[seat]
        return [(mk("draw", seat, card=bottom[0]), 1.0)] if bottom else []
    if s.phase == "first":
        tied = first_candidates(s)
        return [(mk("first", seat), 1 / len(tied)) for seat in tied]
    return []


def first_candidates(s: State) -> list[int]:
    """Seats with the highest face-up total (a Jester counts 1); when the players entered
    ages, the youngest of those. More than one left: a lot decides."""
    totals = [sum(RANK_VALUE[a[2] % RANKS] for a in row if a is not None) for row in s.alliances]
    best = max(totals)
    tied = [seat for seat, t in enumerate(totals) if t == best]
    ages = s.config.ages
    if ages and len(tied) > 1:
        youngest = min(ages[seat] for seat in tied)
        tied = [seat for seat in tied if ages[seat] == youngest]
    return tied


# -- knowledge helpers -------------------------------------------------------------------------


def deck_size(s: State, seat: int) -> int:
    return len(s.pools[seat]) + len(s.bottoms[seat])


#: the values card ``c`` may be played as under a limit (``moves.values``)
_values = values


def _seen(s: State) -> list[int]:
    """How many copies of each card everyone can see out of the hidden places (indexed by
    card): in the middle, eliminated, face up in shadow alliances, in a strike under way, shown
    as a deck's last card."""
    seen = [0] * (len(HOUSES) * RANKS)
    for _, _, cards in s.middle:
        for c, _ in cards:
            seen[c] += 1
    for c in s.eliminated:
        seen[c] += 1
    for row in s.alliances:
        for a in row:
            if a is not None and a[3] and a[2] >= 0:
                seen[a[2]] += 1
    if s.pending is not None:
        for c in (s.pending[1], s.pending[3]):
            if c >= 0:
                seen[c] += 1
    for c in s.shown:
        if c >= 0:
            seen[c] += 1
    return seen


def _public_counts(s: State, house: int) -> list[int]:
    """How many of each rank of ``house`` everyone can see are out of the hidden places."""
    return _seen(s)[house * RANKS : (house + 1) * RANKS]


def possible_hidden(s: State, seat: int, a: Alliance) -> list[int]:
    """Cards that the hidden card of alliance ``a`` may be, as far as ``seat`` knows."""
    placer, hidden = a[0], a[1]
    if placer == seat and hidden != UNKNOWN:
        return [hidden]
    seen = _seen(s)
    base = placer * RANKS
    return [base + r for r in range(RANKS) if seen[base + r] < COPIES[r]]


#: the values each rank may take when revealed (a Jester: 1..10)
_RANK_VALUES: tuple[frozenset[int], ...] = tuple(frozenset(_values(r)) for r in range(RANKS))


#: the values each rank may take when revealed, as bits (bit ``v`` for the value ``v``)
_RANK_BITS: tuple[int, ...] = tuple(sum(1 << v for v in _values(r)) for r in range(RANKS))
_ALL_RANKS = tuple(range(RANKS))
_BEYOND_JESTER = (JESTER,) + tuple(
    r for r in range(RANKS) if _RANK_BITS[r] & ~_RANK_BITS[JESTER])


def _strike_bits(s: State, seat: int, a: Alliance, seen: list[int] | None = None) -> int:
    """``_strike_sums`` as bits: bit ``t`` is set when the two cards may make the total ``t``."""
    placer, hidden = a[0], a[1]
    if placer == seat and hidden != UNKNOWN:
        hbits = _RANK_BITS[hidden % RANKS]
    else:
        if seen is None:
            seen = _seen(s)
        base = placer * RANKS
        hbits = 0
        # while a Jester may be hidden, only ranks with a value a Jester cannot take add bits
        ranks = _BEYOND_JESTER if seen[base + JESTER] < COPIES[JESTER] else _ALL_RANKS
        for r in ranks:
            if seen[base + r] < COPIES[r]:
                hbits |= _RANK_BITS[r]
    bits = 0
    for tv in _RANK_VALUES[a[2] % RANKS]:
        bits |= hbits << tv
    return bits


def _strike_sums(s: State, seat: int, a: Alliance, seen: list[int] | None = None) -> set[int]:
    """Totals the face-up and hidden cards of ``a`` may make together, as ``seat`` knows
    (the values of the cards ``possible_hidden`` lists; ``seen`` is ``_seen(s)`` if known)."""
    bits = _strike_bits(s, seat, a, seen)
    return {t for t in range(bits.bit_length()) if bits >> t & 1}


def _strike_matches(s: State, a: Alliance, hidden: int) -> bool:
    """Whether the strike under way on alliance ``a`` makes a total of the middle when its
    hidden card is ``hidden`` (some value of each Jester)."""
    assert s.pending is not None
    pv = s.pending[2]
    totals = {total for _, total, _ in s.middle}
    return any(pv + tv + hv in totals
               for tv in _RANK_VALUES[a[2] % RANKS] for hv in _RANK_VALUES[hidden % RANKS])


def can_play(s: State, seat: int) -> bool:
    limit = s.limits[seat]
    hand = s.hands[seat]
    if limit == NO_LIMIT:
        return bool(hand)
    return any(c == UNKNOWN or len(_values(c, limit)) for c in hand)


# -- legal actions -----------------------------------------------------------------------------


def legal_actions(s: State) -> list[Action]:
    phase = s.phase
    if phase == "play":
        return _play_actions(s)
    if phase in ("deal", "draw", "first"):
        return [a for a, _ in chance_outcomes(s)]
    if phase == "hide":
        return _hide_actions(s)
    if phase == "top":
        seat = s.turn
        slots = [k for k, a in enumerate(s.alliances[seat]) if a is not None and a[2] == NO_CARD]
        return [_new(Action, ("top", seat, c, 0, NONE, k, NONE, NONE, 0))
                for c in sorted(set(s.hands[seat])) for k in slots]
    if phase == "flip":
        seat = s.turn
        for k, a in enumerate(s.alliances[seat]):
            if a is not None and not a[3]:
                if a[2] == UNKNOWN:
                    return [mk("flip", seat, card=c, slot=k) for c in _own_possible(s, seat)]
                return [mk("flip", seat, card=a[2], slot=k)]
        return []
    if phase == "reveal":
        assert s.pending is not None
        slot = s.pending[0]
        a = s.alliances[s.turn][slot]
        assert a is not None
        if a[1] == UNKNOWN:
            cards = possible_hidden(s, s.turn, a)
            if a[0] == s.turn:
                # the striker placed the card itself (three players): it knew it, so it could
                # strike only if the card makes a match; a card that does not was never there
                cards = [c for c in cards if _strike_matches(s, a, c)]
            return [mk("reveal", a[0], card=c, slot=slot) for c in cards]
        return [mk("reveal", a[0], card=a[1], slot=slot)]
    if phase == "resolve":
        return _resolve_actions(s)
    return []


def _own_possible(s: State, seat: int) -> list[int]:
    seen = _public_counts(s, seat)
    base = seat * RANKS
    return [base + r for r in range(RANKS) if seen[r] < COPIES[r]]


def _hide_actions(s: State) -> list[Action]:
    seat, n = s.turn, s.players
    holders = [
        h
        for h in range(n)
        if (h != seat or n == 3) and s.alliances[h][(seat - h - 1) % n] is None
    ]
    return [_new(Action, ("hide", seat, c, 0, h, NONE, NONE, NONE, 0))
            for c in sorted(set(s.hands[seat])) for h in holders]


def _totals(s: State) -> dict[int, list[int]]:
    totals: dict[int, list[int]] = {}
    for sid, total, _ in s.middle:
        totals.setdefault(total, []).append(sid)
    return totals


def _play_actions(s: State) -> list[Action]:
    seat = s.turn
    hand = s.hands[seat]
    limit = s.limits[seat]
    if not can_play(s, seat):
        return [mk("stuck", seat)]
    middle = s.middle
    sids = [st[0] for st in middle]
    top_sid = sids[-1] if sids else 0
    tbits = 0  # bit t: some stack totals t
    for _, total, _ in middle:
        tbits |= 1 << total
    # two stacks of one total: a card played as 0 (a Minister) may conspire
    twins = tbits.bit_count() < len(middle)
    totals: dict[int, list[int]] = {}  # total -> its stacks, by sid (made when first needed)
    deck = bool(s.pools[seat] or s.bottoms[seat])
    # per alliance slot, the totals its face-up and hidden cards may make (as bits): a card
    # played as v may strike when v plus one of them is the total of a stack
    sums: list[tuple[int, int]] = []
    seen = None
    for k, a in enumerate(s.alliances[seat]):
        if a is not None:
            if seen is None and (a[0] != seat or a[1] == UNKNOWN):
                seen = _seen(s)
            sums.append((k, _strike_bits(s, seat, a, seen)))
    out: list[Action] = []
    runs: list[Run] = []  # the conspiracies, made only when asked for (``LazyActions``)
    add = out.append
    by_limit = BY_LIMIT.get
    key = seat * CARDS * 17 + limit + 1  # the key of card_moves(seat, c, limit), less c * 17
    prev = None
    for c in hand:
        if c == prev:
            continue
        prev = c
        if c == UNKNOWN:
            if deck:
                add(UNKNOWN_PLANS[seat])
            continue
        got = by_limit(key + c * 17)
        moves, plan = got if got is not None else card_moves(seat, c, limit)
        if not moves:
            continue
        if len(moves) == 1:
            m = moves[0]
            v = m.value
            add(m.court)
            if sids:
                builds = m.builds
                if top_sid >= len(builds):
                    builds = m.builds_upto(top_sid)
                out += map(builds.__getitem__, sids)
                if v:
                    starts = (tbits >> v) & tbits  # bit t: stacks total t and t + v
                    if starts:
                        totals = totals or _totals(s)
                        runs.append((len(out), _count_pairs(totals, starts, v),
                                     _Conspiracies(m, totals, starts, v)))
                elif twins:
                    totals = totals or _totals(s)
                    runs.append((len(out), _count_twins(totals), _Conspiracies(m, totals, 0, 0)))
            wanted = tbits >> v  # bit x: a stack totals x + v
            for k, bits in sums:
                if bits & wanted:
                    add(m.strikes[k])
        else:
            out += [m.court for m in moves]
            if sids:
                totals = totals or _totals(s)
                tables = [m.builds_upto(top_sid) for m in moves]
                out += [b[sid] for sid in sids for b in tables]
                for sid, total, _ in middle:
                    found = []
                    for m in moves:
                        for other in totals.get(total + m.value, ()):
                            if other != sid:
                                found.append((other, m.value, m))
                    found.sort(key=_first_two)
                    out += [m.conspire(sid, other) for other, _, m in found]
            for k, bits in sums:
                for m in moves:
                    if bits & (tbits >> m.value):
                        add(m.strikes[k])
        if deck:
            add(plan)
    return LazyActions(out, runs) if runs else out


class _Conspiracies:
    """The conspiracies of one card at one value, in stack order (a run of ``LazyActions``):
    on stacks ``v`` apart (``starts``, as ``_pairs``), or of one total when ``v`` is 0."""

    __slots__ = ("m", "totals", "starts", "v")

    def __init__(self, m: CardMoves, totals: dict[int, list[int]], starts: int, v: int) -> None:
        self.m, self.totals, self.starts, self.v = m, totals, starts, v

    def _pairs(self) -> list[tuple[int, int]]:
        return _pairs(self.totals, self.starts, self.v) if self.v else _twin_pairs(self.totals)

    def __call__(self) -> list[Action]:
        m = self.m
        return [m.conspire(sid, other) for sid, other in self._pairs()]

    def at(self, i: int) -> Action:
        return self.m.conspire(*self._pairs()[i])


def _count_pairs(totals: dict[int, list[int]], starts: int, v: int) -> int:
    """How many pairs ``_pairs`` gives."""
    n = 0
    while starts:
        low = starts & -starts
        starts ^= low
        t = low.bit_length() - 1
        n += len(totals[t]) * len(totals[t + v])
    return n


def _count_twins(totals: dict[int, list[int]]) -> int:
    """How many pairs ``_twin_pairs`` gives."""
    return sum(len(same) * (len(same) - 1) for same in totals.values() if len(same) > 1)


def _pairs(totals: dict[int, list[int]], starts: int, v: int) -> list[tuple[int, int]]:
    """The stacks ``(sid, other)`` where ``other`` totals ``v`` more than ``sid`` (``v`` > 0),
    in stack order (the middle is in stack order, and ``totals`` lists each total's stacks in
    it); ``starts`` has bit ``t`` set for each total ``t`` such that ``t + v`` is one too."""
    pairs = []
    while starts:
        low = starts & -starts
        starts ^= low
        t = low.bit_length() - 1
        others = totals[t + v]
        pairs += [(sid, other) for sid in totals[t] for other in others]
    pairs.sort()
    return pairs


def _twin_pairs(totals: dict[int, list[int]]) -> list[tuple[int, int]]:
    """The pairs of different stacks ``(sid, other)`` of one total, in stack order."""
    pairs = [(sid, other) for same in totals.values() if len(same) > 1
             for sid in same for other in same if other != sid]
    pairs.sort()
    return pairs


def _first_two(x: tuple[int, int, object]) -> tuple[int, int]:
    return x[0], x[1]


def _resolve_actions(s: State) -> list[Action]:
    seat = s.turn
    assert s.pending is not None
    slot, _, pv, hidden = s.pending
    a = s.alliances[seat][slot]
    assert a is not None
    top = a[2]
    tjest = top % RANKS == JESTER
    hjest = hidden % RANKS == JESTER
    totals = _totals(s)
    hits: list[Action] = []
    misses: list[Action] = []
    for tv in _values(top):
        for hv in _values(hidden):
            value, extra = (tv if tjest else 0), (hv if hjest else 0)
            matches = totals.get(pv + tv + hv, ())
            for sid in matches:
                hits.append(mk("resolve", seat, card=NO_CARD, value=value, elim=sid, extra=extra))
            if not matches:
                misses.append(mk("resolve", seat, card=NO_CARD, value=value, extra=extra))
    out = hits or misses
    out.sort(key=sort_key)
    return out


# -- applying ----------------------------------------------------------------------------------


def _remove(cards: tuple[int, ...], c: int) -> tuple[int, ...]:
    """Take one ``c`` out of a sorted tuple, or one ``UNKNOWN`` when ``c`` is not there."""
    i = cards.index(c) if c in cards else cards.index(UNKNOWN)
    return cards[:i] + cards[i + 1 :]


def _insert(cards: tuple[int, ...], c: int) -> tuple[int, ...]:
    i = 0
    for i, x in enumerate(cards):  # noqa: B007 - hands are short
        if x > c:
            break
    else:
        return cards + (c,)
    return cards[:i] + (c,) + cards[i:]


def _set(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _take_from_hand(s: State, seat: int, c: int) -> None:
    hand = _remove(s.hands[seat], c)
    s.hands = _set(s.hands, seat, hand)
    shown = s.shown[seat]
    # a copy of the shown card leaving the hand is the shown card: nobody can tell the copies
    # apart, so keeping it "shown" would tell everyone that the hand holds a second copy
    if shown != NO_CARD and (shown == c or shown not in hand):
        s.shown = _set(s.shown, seat, NO_CARD)


def apply_unchecked(state: State, action: Action) -> State:
    """Apply an action taken from ``legal_actions`` (or a chance outcome); no checks."""
    s = state.copy()
    _APPLY[action.kind](s, action)
    return s


def apply_in_place(state: State, action: Action) -> None:
    """``apply_unchecked`` done on ``state`` itself: only for a state nobody else holds (a
    search's private copy), since states are otherwise immutable."""
    _APPLY[action.kind](state, action)


def _apply_draw(s: State, a: Action) -> None:
    seat, c = a.seat, a.card
    pool = s.pools[seat]
    if pool:
        s.pools = _set(s.pools, seat, _remove(pool, c))
    else:
        s.bottoms = _set(s.bottoms, seat, s.bottoms[seat][1:])
    s.hands = _set(s.hands, seat, _insert(s.hands[seat], c))
    if not s.pools[seat] and not s.bottoms[seat]:
        limit = JESTER_MAX if c % RANKS == JESTER else RANK_VALUE[c % RANKS]
        s.limits = _set(s.limits, seat, limit)
        s.shown = _set(s.shown, seat, c)
    if s.phase == "deal":
        if len(s.hands[seat]) == HAND_START:
            if seat + 1 == s.players:
                s.phase, s.turn = "hide", 0
            else:
                s.turn = seat + 1
    else:
        _next_turn(s)


def _apply_first(s: State, a: Action) -> None:
    s.phase, s.turn = "play", a.seat


def _apply_hide(s: State, a: Action) -> None:
    seat, holder, n = a.seat, a.before, s.players
    _take_from_hand(s, seat, a.card)
    k = (seat - holder - 1) % n
    s.alliances = _set(s.alliances, holder, _set(s.alliances[holder], k, (seat, a.card, NO_CARD, 0)))
    placed = sum(
        1 for h in range(n) if (h != seat or n == 3) and s.alliances[h][(seat - h - 1) % n] is not None
    )
    if placed == 3:
        if seat + 1 == n:
            s.phase, s.turn = "top", 0
        else:
            s.turn = seat + 1


def _apply_top(s: State, a: Action) -> None:
    seat = a.seat
    _take_from_hand(s, seat, a.card)
    row = s.alliances[seat]
    old = row[a.slot]
    assert old is not None
    row = _set(row, a.slot, (old[0], old[1], a.card, 0))
    s.alliances = _set(s.alliances, seat, row)
    if all(x is not None and x[2] != NO_CARD for x in row):
        if seat + 1 == s.players:
            s.phase, s.turn = "flip", 0
        else:
            s.turn = seat + 1


def _apply_flip(s: State, a: Action) -> None:
    seat = a.seat
    row = s.alliances[seat]
    old = row[a.slot]
    assert old is not None
    row = _set(row, a.slot, (old[0], old[1], a.card, 1))
    s.alliances = _set(s.alliances, seat, row)
    if all(x is not None and x[3] for x in row):
        if seat + 1 < s.players:
            s.turn = seat + 1
            return
        tied = first_candidates(s)
        if len(tied) == 1:
            s.phase, s.turn = "play", tied[0]
        else:
            s.phase, s.turn = "first", 0


def _apply_court(s: State, a: Action) -> None:
    _take_from_hand(s, a.seat, a.card)
    s.middle = s.middle + ((s.next_sid, a.value, ((a.card, a.value),)),)
    s.next_sid += 1
    _end_turn(s)


def _index(s: State, sid: int) -> int:
    for i, st in enumerate(s.middle):
        if st[0] == sid:
            return i
    raise IllegalActionError(f"there is no stack {sid}")


def _apply_build(s: State, a: Action) -> None:
    _take_from_hand(s, a.seat, a.card)
    i = _index(s, a.stack)
    sid, total, cards = s.middle[i]
    rank = a.card % RANKS
    if rank == MINISTER and len(cards) >= 2:
        s.eliminated = tuple(sorted(s.eliminated + tuple(c for c, _ in cards)))
        s.middle = _set(s.middle, i, (sid, 0, ((a.card, 0),)))
    elif rank == LADY:
        cards = cards + ((a.card, a.value),)
        first = (sid, cards[0][1], (cards[0],))
        rest = tuple((s.next_sid + j, v, ((c, v),)) for j, (c, v) in enumerate(cards[1:]))
        s.next_sid += len(rest)
        s.middle = s.middle[:i] + (first,) + s.middle[i + 1 :] + rest
    else:
        s.middle = _set(s.middle, i, (sid, total + a.value, cards + ((a.card, a.value),)))
    _end_turn(s)


def _eliminate(s: State, sid: int) -> None:
    i = _index(s, sid)
    s.eliminated = tuple(sorted(s.eliminated + tuple(c for c, _ in s.middle[i][2])))
    s.middle = s.middle[:i] + s.middle[i + 1 :]


def _apply_conspire(s: State, a: Action) -> None:
    _take_from_hand(s, a.seat, a.card)
    i = _index(s, a.stack)
    sid, total, cards = s.middle[i]
    s.middle = _set(s.middle, i, (sid, total + a.value, cards + ((a.card, a.value),)))
    _eliminate(s, a.elim)
    _end_turn(s)


def _apply_strike(s: State, a: Action) -> None:
    _take_from_hand(s, a.seat, a.card)
    s.pending = (a.slot, a.card, a.value, NO_CARD)
    s.phase = "reveal"


def _apply_reveal(s: State, a: Action) -> None:
    assert s.pending is not None
    slot, c, v, _ = s.pending
    s.pending = (slot, c, v, a.card)
    row = s.alliances[s.turn]
    old = row[slot]
    assert old is not None
    s.alliances = _set(s.alliances, s.turn, _set(row, slot, (old[0], a.card, old[2], old[3])))
    s.phase = "resolve"


def _apply_resolve(s: State, a: Action) -> None:
    seat = s.turn
    assert s.pending is not None
    slot, pc, pv, hidden = s.pending
    row = s.alliances[seat]
    alliance = row[slot]
    assert alliance is not None
    top = alliance[2]
    tv = a.value if top % RANKS == JESTER else RANK_VALUE[top % RANKS]
    hv = a.extra if hidden % RANKS == JESTER else RANK_VALUE[hidden % RANKS]
    s.alliances = _set(s.alliances, seat, _set(row, slot, None))
    if a.elim >= 0:
        _eliminate(s, a.elim)
    s.middle = s.middle + ((s.next_sid, hv + tv + pv, ((hidden, hv), (top, tv), (pc, pv))),)
    s.next_sid += 1
    s.pending = None
    _end_turn(s)


def _apply_plan(s: State, a: Action) -> None:
    _take_from_hand(s, a.seat, a.card)
    s.bottoms = _set(s.bottoms, a.seat, s.bottoms[a.seat] + (a.card,))
    _end_turn(s)


def _apply_stuck(s: State, a: Action) -> None:
    s.phase, s.end = "over", END_STUCK


_ALL_STRUCK_ROW = (None, None, None)


def _end_turn(s: State) -> None:
    if s.config.end_when_all_struck:
        if all(a is None for row in s.alliances for a in row):
            s.phase, s.end, s.turns = "over", END_ALL_STRUCK, s.turns + 1
            return
    elif _ALL_STRUCK_ROW in s.alliances:  # a holder's three slots all struck
        s.phase, s.end, s.turns = "over", END_ALLIANCES, s.turns + 1
        return
    if s.pools[s.turn] or s.bottoms[s.turn]:
        s.phase = "draw"
    else:
        _next_turn(s)


def _next_turn(s: State) -> None:
    s.turns += 1
    s.turn = (s.turn + 1) % s.players
    s.phase = "play"


_APPLY = {
    "draw": _apply_draw,
    "first": _apply_first,
    "hide": _apply_hide,
    "top": _apply_top,
    "flip": _apply_flip,
    "court": _apply_court,
    "build": _apply_build,
    "conspire": _apply_conspire,
    "strike": _apply_strike,
    "plan": _apply_plan,
    "reveal": _apply_reveal,
    "resolve": _apply_resolve,
    "stuck": _apply_stuck,
}
assert set(_APPLY) == set(KINDS)
