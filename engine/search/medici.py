"""Court of the Medici for the search bot: determinizer, observations, rollout policies.

Determinizing a view of seat ``s`` (see ``engine.medici.view`` for what it masks): each house
has the 25 cards of ``engine.medici.cards.COPIES``. The cards ``s`` cannot see are exactly those
in the ``UNKNOWN`` slots, and each slot's house is fixed by where it is:

* another seat's hand (apart from a shown last card), pool and bottom cards: that seat's house;
* a hidden alliance card that ``s`` did not place: its placer's house;
* a top card not yet turned up in front of another holder: the holder's house.

So a house's unseen cards are its 25 minus every card of that house the view shows (hands,
pools, bottoms, alliance cards, the middle, eliminated cards, the card of a strike under way;
a hidden card revealed by that strike is shown in its slot and counted once), and they are dealt
at random into that house's slots (``engine.search.determinize.deal``). Hands and pools are
multisets, kept sorted; bottoms keep their order.

That is the uniform belief (``GAME``, the setting ``beliefs=uniform``); the levels draw by
``engine.search.medici_beliefs`` instead, a model of what each seat's choices show.

Observations are the engine's own ``public_action``: what a seat learns of an action (every
action in full except another seat's draw, unless it is the deck's shown last card, and the card
another seat hides, puts on top of its alliance or plans under its deck).

Rollout policies: ``random`` (uniform over the legal actions), ``light`` (mostly the action
with the best immediate change in influence, own minus others', judged without applying it;
otherwise random) and ``fast`` (``light`` computed without listing every legal action). The
prior marks a strike that ends the game in a loss (``engine.medici.sense``) -1, and the bot does
not play one while it has another move. (Rollouts that avoid such strikes too were tried: no
better against greedy bots, worse against random ones, and slower.)
The ``fast`` rollouts are played in place by ``medici_sim`` (the same moves, faster).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from engine.core import UNKNOWN
from engine.medici import rules, sense
from engine.medici.cards import COPIES, MINISTER, RANK_VALUE, RANKS
from engine.medici.game import outcome
from engine.medici.state import NO_CARD, NONE, VARIANTS, Action, State, mk
from engine.medici.view import public_action, view
from engine.search.determinize import deal, unseen
from engine.search.game import SearchGame, mirrored, outcome_rewards
from engine.search.medici_model import GUESS_RANK, guess_rank
from engine.search.medici_sim import MIRRORED, simulate


def _visible_cards(v: State) -> list[int]:
    seen: list[int] = []
    for group in (v.hands, v.pools, v.bottoms):
        for cards in group:
            seen.extend(cards)
    for row in v.alliances:
        for a in row:
            if a is not None:
                seen.append(a[1])
                seen.append(a[2])
    for _, _, stack in v.middle:
        seen.extend(c for c, _ in stack)
    seen.extend(v.eliminated)
    if v.pending is not None:
        seen.append(v.pending[1])
    return seen


def _full_counts(players: int) -> dict[int, int]:
    return {h * RANKS + r: COPIES[r] for h in range(players) for r in range(RANKS)}


def unseen_by_house(v: State) -> dict[int, list[int]]:
    """Each house's cards that view ``v`` does not show anywhere."""
    out: dict[int, list[int]] = {h: [] for h in range(v.players)}
    for c in unseen(_full_counts(v.players), _visible_cards(v)):
        out[c // RANKS].append(c)
    return out


def hidden_slots(v: State) -> dict[int, int]:
    """How many ``UNKNOWN`` places of each house view ``v`` has."""
    slots = dict.fromkeys(range(v.players), 0)
    for group in (v.hands, v.pools, v.bottoms):
        for i, cards in enumerate(group):
            slots[i] += cards.count(UNKNOWN)
    for holder, row in enumerate(v.alliances):
        for a in row:
            if a is not None:
                if a[1] == UNKNOWN:
                    slots[a[0]] += 1
                if a[2] == UNKNOWN:
                    slots[holder] += 1
    return slots


def determinize(v: State, seat: int, rng: random.Random) -> State:
    """A full state drawn uniformly among those that look like ``v`` to ``seat``."""
    s = _fill(v, deal(hidden_slots(v), unseen_by_house(v), rng))
    return v if s is None else s


def prepare(v: State, seat: int) -> Callable[[random.Random], State]:
    """``determinize`` for many draws from one view: the view's hidden places and unseen cards
    are counted once. Each draw is a fresh state (the same as ``determinize`` would give from
    the same generator state)."""
    slots, cards = hidden_slots(v), unseen_by_house(v)
    deal(slots, cards, random.Random(0))  # refuse an inconsistent view now
    if not any(slots.values()):
        return lambda rng: v.copy()
    # the places to fill, in ``_fill``'s order: each takes the last card of its house's pile
    piles = [cards[h] for h in slots]  # by house, as ``deal`` shuffles them
    hands = [(h, i, [c for c in h if c != UNKNOWN], h.count(UNKNOWN)) for i, h in enumerate(v.hands)]
    pools = [(p, i, [c for c in p if c != UNKNOWN], p.count(UNKNOWN)) for i, p in enumerate(v.pools)]
    bottoms = [(b, i) for i, b in enumerate(v.bottoms)]
    alliances = v.alliances
    masked_rows = [
        holder
        for holder, row in enumerate(alliances)
        if any(a is not None and (a[1] == UNKNOWN or a[2] == UNKNOWN) for a in row)
    ]

    def sorted_fill(plan: list[tuple[tuple[int, ...], int, list[int], int]], dealt: list[list[int]]) -> tuple[tuple[int, ...], ...]:
        out = []
        for cards_, i, known, k in plan:
            if k:
                pile = dealt[i]
                cards_ = tuple(sorted(known + pile[-k:]))
                del pile[-k:]
            out.append(cards_)
        return tuple(out)

    def draw(rng: random.Random) -> State:
        shuffle = rng.shuffle
        dealt = []
        for pile in piles:
            pile = list(pile)
            shuffle(pile)
            dealt.append(pile)
        s = v.copy()
        s.hands = sorted_fill(hands, dealt)
        s.pools = sorted_fill(pools, dealt)
        out = []
        for b, i in bottoms:
            if UNKNOWN in b:
                pile = dealt[i]
                b = tuple([pile.pop() if c == UNKNOWN else c for c in b])
            out.append(b)
        s.bottoms = tuple(out)
        if masked_rows:
            rows = list(alliances)
            for holder in masked_rows:
                new_row = []
                for a in alliances[holder]:
                    if a is not None and (a[1] == UNKNOWN or a[2] == UNKNOWN):
                        placer, hidden, top, up = a
                        if hidden == UNKNOWN:
                            hidden = dealt[placer].pop()
                        if top == UNKNOWN:
                            top = dealt[holder].pop()
                        a = (placer, hidden, top, up)
                    new_row.append(a)
                rows[holder] = tuple(new_row)
            s.alliances = tuple(rows)
        return s

    return draw


def _fill(v: State, dealt: dict[int, list[int]]) -> State | None:
    """``v`` with its hidden places filled from ``dealt`` (None when there are none)."""
    if not any(dealt.values()):
        return None
    s = v.copy()

    def fill(cards: tuple[int, ...], house: int) -> list[int]:
        if UNKNOWN not in cards:
            return list(cards)
        pile = dealt[house]
        return [pile.pop() if c == UNKNOWN else c for c in cards]

    s.hands = tuple(tuple(sorted(fill(h, i))) for i, h in enumerate(v.hands))
    s.pools = tuple(tuple(sorted(fill(p, i))) for i, p in enumerate(v.pools))
    s.bottoms = tuple(tuple(fill(b, i)) for i, b in enumerate(v.bottoms))
    rows = []
    for holder, row in enumerate(v.alliances):
        new_row = []
        for a in row:
            if a is not None and (a[1] == UNKNOWN or a[2] == UNKNOWN):
                placer, hidden, top, up = a
                if hidden == UNKNOWN:
                    hidden = dealt[placer].pop()
                if top == UNKNOWN:
                    top = dealt[holder].pop()
                a = (placer, hidden, top, up)
            new_row.append(a)
        rows.append(tuple(new_row))
    s.alliances = tuple(rows)
    return s


def observe(s: State, a: Action, seat: int) -> Hashable:
    """``a`` (taken in full state ``s``) as ``seat`` perceives it."""
    return public_action(s, a, seat)


def sample_chance(s: State, rng: random.Random) -> Action:
    """A chance or reveal step of a full state, drawn as ``LocalGame`` would."""
    phase = s.phase
    if phase == "draw" or phase == "deal":
        seat = s.turn
        pool = s.pools[seat]
        if pool:
            return mk("draw", seat, card=pool[rng.randrange(len(pool))])
        return mk("draw", seat, card=s.bottoms[seat][0])
    if phase == "first":
        tied = rules.first_candidates(s)
        return mk("first", tied[rng.randrange(len(tied))])
    return rules.legal_actions(s)[0]


def random_action(s: State, seat: int, rng: random.Random) -> Action:
    legal = rules.legal_actions(s)
    return legal[rng.randrange(len(legal))]


def _gain(s: State, a: Action, seat: int) -> int:
    """The immediate change in influence, own house minus the others', that ``a`` makes."""
    kind = a.kind
    if kind in ("court", "build", "conspire"):
        g = RANK_VALUE[a.card % RANKS]
        lost: tuple[tuple[int, int], ...] = ()
        if kind == "conspire":
            st = s.stack(a.elim)
            lost = st[2] if st is not None else ()
        elif a.card % RANKS == MINISTER:
            st = s.stack(a.stack)
            if st is not None and len(st[2]) >= 2:
                lost = st[2]
        for c, _ in lost:
            g += -RANK_VALUE[c % RANKS] if c // RANKS == seat else RANK_VALUE[c % RANKS]
        return g
    if kind == "strike":
        al = s.alliances[seat][a.slot]
        g = RANK_VALUE[a.card % RANKS]
        if al is not None:
            g += RANK_VALUE[al[2] % RANKS]
            h = al[1]
            if al[0] != seat:  # the striker cannot see it: a guess, never the dealt card
                g -= RANK_VALUE[GUESS_RANK]
            elif h >= 0:
                g += RANK_VALUE[h % RANKS]
        return g
    if kind == "resolve" and a.elim >= 0:
        st = s.stack(a.elim)
        g = 0
        if st is not None:
            for c, _ in st[2]:
                g += -RANK_VALUE[c % RANKS] if c // RANKS == seat else RANK_VALUE[c % RANKS]
        return g
    return 0


def light_action(s: State, seat: int, rng: random.Random, explore: float = 0.3) -> Action:
    """Mostly the best immediate gain (ties at random), sometimes a random action."""
    legal = rules.legal_actions(s)
    if len(legal) == 1 or s.phase not in ("play", "resolve") or rng.random() < explore:
        return legal[rng.randrange(len(legal))]
    best = -10**9
    picks: list[Action] = []
    for a in legal:
        g = _gain(s, a, seat)
        if g > best:
            best, picks = g, [a]
        elif g == best:
            picks.append(a)
    return picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0]


def fast_action(
    s: State, seat: int, rng: random.Random, explore: float = 0.3, guess: bool = True
) -> Action:
    """``light`` without listing every legal action, for the play phase of a full state.

    The greedy part looks only at the moves that can gain: a card to court, a conspiracy, a
    Minister on a stack of two or more, and a strike (a hidden card the striker placed counts as
    it is; one it cannot see is judged as a card of the placer's house of a rank drawn by the beliefs'
    model, ``engine.search.medici_model.guess_rank``: the rollout never reads a card its striker cannot see, though the
    determinization dealt it; the strike then resolves with the dealt card). With ``guess``
    off (the rollout ``dealt``, kept to measure against), the striker judges by the dealt card,
    as the search did before. The random part sends a random playable card
    to court, onto a random stack or under the deck.
    """
    if s.phase != "play":
        return light_action(s, seat, rng, explore)
    hand = s.hands[seat]
    limit = s.limits[seat]
    values = rules._values
    cards = sorted(c for c in set(hand) if values(c, limit))
    if not cards:
        return rules.legal_actions(s)[0]
    middle = s.middle
    if rng.random() < explore:
        c = cards[rng.randrange(len(cards))]
        vals = values(c, limit)
        v = vals[rng.randrange(len(vals))]
        r = rng.randrange(3)
        if r == 1 and middle:
            return mk("build", seat, card=c, value=v, stack=middle[rng.randrange(len(middle))][0])
        if r == 2 and (s.pools[seat] or s.bottoms[seat]):
            return mk("plan", seat, card=c)
        return mk("court", seat, card=c, value=v)
    totals: dict[int, list[int]] = {}
    lost: dict[int, int] = {}
    for sid, total, st in middle:
        totals.setdefault(total, []).append(sid)
        g = 0
        for c, _ in st:
            g += -RANK_VALUE[c % RANKS] if c // RANKS == seat else RANK_VALUE[c % RANKS]
        lost[sid] = g
    best = -10**9
    picks: list[tuple[str, int, int, int, int]] = []
    strikes = []
    seen = None
    for k, al in enumerate(s.alliances[seat]):
        if al is not None:
            placer, hidden, top, _ = al
            if placer != seat and guess:  # a card the striker cannot see: a guess
                hidden = placer * RANKS + guess_rank(rng)
            hv = RANK_VALUE[hidden % RANKS]
            g0 = RANK_VALUE[top % RANKS] + (hv if hidden // RANKS == seat else -hv)
            true = {tv + x for tv in values(top) for x in values(hidden)}
            if seen is None:
                seen = rules._seen(s)
            possible = rules._strike_sums(s, seat, al, seen)
            strikes.append((k, g0, true, {total - t for total in totals for t in possible}))
    for c in cards:
        vals = values(c, limit)
        face = RANK_VALUE[c % RANKS]
        options: list[tuple[int, str, int, int, int, int]] = [(face, "court", c, vals[-1], -1, -1)]
        if c % RANKS == MINISTER:
            options += [(face + lost[sid], "build", c, 0, sid, NONE) for sid, _, st in middle if len(st) >= 2]
        for sid, total, _ in middle:
            for v in vals:
                for other in totals.get(total + v, ()):
                    if other != sid:
                        options.append((face + lost[other], "conspire", c, v, sid, other))
        for k, g0, true, playable in strikes:
            for v in vals:
                if v in playable:
                    gone = [lost[o] for t in true for o in totals.get(v + t, ())]
                    options.append((face + g0 + max(gone, default=0), "strike", c, v, k, NONE))
        for g, kind, card, val, target, elim in options:
            pick = (kind, card, val, target, elim)
            if g > best:
                best, picks = g, [pick]
            elif g == best:
                picks.append(pick)
    kind, c, v, target, elim = picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0]
    if kind == "strike":
        return mk(kind, seat, card=c, value=v, slot=target)
    return mk(kind, seat, card=c, value=v, stack=target, elim=elim)


def _as_striker_sees(s: State, seat: int, slot: int) -> State:
    """``s`` with the hidden card of ``seat``'s alliance in ``slot`` masked unless ``seat``
    placed it: what the striker may know of its strike."""
    al = s.alliances[seat][slot]
    if al is None or al[0] == seat or al[1] < 0:
        return s
    t = s.copy()
    row = s.alliances[seat]
    row = row[:slot] + ((al[0], UNKNOWN, al[2], al[3]),) + row[slot + 1 :]
    t.alliances = s.alliances[:seat] + (row,) + s.alliances[seat + 1 :]
    return t


def dealt_action(s: State, seat: int, rng: random.Random) -> Action:
    """``fast_action`` with a strike judged by the dealt hidden card (see ``fast_action``)."""
    return fast_action(s, seat, rng, guess=False)


def prior(s: State, a: Action, seat: int) -> float:
    """The immediate gain of ``a``, a tenth per point, within [-1, 1]; planning a little below
    nothing; a strike that ends the game in a loss (``sense``, judged on what the striker may
    know of its hidden card) -1."""
    if a.kind == "plan":
        return -0.05
    if a.kind == "strike" and sense.ends_game(s, a, seat) and sense.senseless(
        _as_striker_sees(s, seat, a.slot), a, seat
    ):
        return -1.0
    g = _gain(s, a, seat) / 10.0
    return -1.0 if g < -1.0 else 1.0 if g > 1.0 else g


def rewards(s: State) -> list[float]:
    return outcome_rewards(outcome(s), scale=20.0)


GAME = SearchGame(
    name="medici",
    current_player=rules.current_player,
    legal_actions=rules.legal_actions,
    apply=rules.apply_unchecked,
    determinize=determinize,
    observe=observe,
    sample_chance=sample_chance,
    rollouts={"random": random_action, "light": light_action, "fast": fast_action, "dealt": dealt_action},
    rewards=rewards,
    prior=prior,
    mask=view,
    senseless=sense.senseless,
    copy=State.copy,
    play=rules.apply_in_place,
    prepare=prepare,
    simulations={
        "fast": mirrored(lambda s, rng: simulate(s, rng, fast_action, sample_chance, rewards), rules,
                         VARIANTS, MIRRORED, fast_action, sample_chance, rewards),
        "dealt": mirrored(lambda s, rng: simulate(s, rng, dealt_action, sample_chance, rewards, guess=False),
                          rules, VARIANTS, MIRRORED, dealt_action, sample_chance, rewards),
    },
)

__all__ = ["GAME", "determinize", "observe", "unseen_by_house", "hidden_slots", "NO_CARD"]
