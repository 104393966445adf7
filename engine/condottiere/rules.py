"""The rules of Condottiere, as pure functions over ``State``.

The game, step by step (``docs/rules/condottiere.md`` gives every decision and its reason):

* **start** (chance): a starting player is drawn by lot; they hold the Condottiere token.
* **deal** (chance): cards are dealt one draw at a time, seat by seat clockwise from the token
  holder: 10 each (7 with Draw After Battle). The pile is a multiset; a draw picks a card.
* **place**: the token holder places the token on a legal region (no control marker, not the
  Favor of the Pope's; with Capturing Regions also another player's region).
* **play**: from the token holder clockwise, each seat plays a card or passes; passing is
  final (except for a defender who has played nothing yet); an empty hand passes at once.
  Winter/Spring, Bishop, Scarecrow and Surrender act when played. With Hidden Cards the
  mercenaries, Heroines, Courtesans and Drummers go face down, and a later play by the same
  seat turns one up: a **reveal** step after the play. The battle ends when all have passed or
  a Surrender is played; face-down cards are then turned up one by one (**showdown**).
* **resolution**: (1) the one strongest seat conquers, the token moves (Courtesans first),
  victory is checked; [Draw After Battle: each seat in turn chooses to **take** 0-3 cards,
  drawn at once]; (2) the token holder **place**s the token for the next battle (none legal:
  the board is exhausted); (3) the lines are discarded; (4) seats without a mercenary may
  **discard** their hand (every seat holding cards decides, so that whose turn it is never
  depends on a hidden card). Then, if at most one seat still holds cards, the round ends: that
  seat **keep**s up to two, everything else is reshuffled, and each seat is dealt up to 10 plus
  one per region.
* **end**: victory by total or connected regions; or the board exhausted (or the long-war
  limit reached): most regions wins, a tie goes to a final battle among the tied. Playing For
  Points chains games into a match.

Termination. Every battle ends (each turn spends a card or takes a seat out, and a Scarecrow
returns one card for one it spends, Scarecrows being finite; a defender's free passes alternate
with other seats' plays or end the battle). A game could still go on for ever if battles kept
ending in ties (or, with Capturing Regions, regions changed hands in a circle), so a game that
reaches ``MAX_BATTLES`` (200) battles ends as if the board were exhausted ("the long war"), and a
match that reaches ``game_limit`` games (players times the target score: a match in which
games keep scoring cannot need as many) ends as if the target were reached. Ordinary games
never come near either limit.

What a position is worth (strength, legal regions, victory, hand limits) is in ``measures``;
this module re-exports it.

Legal actions come in one canonical order: pass first, then plays by card (Mercenary 1 ...
Surrender), then by target (-1 first: the Favor off the board, no Scarecrow pick), then by the
face-down position to turn up. Regions, draw counts and seats ascend; ``hold`` comes before
``discard``; kept cards are ordered by how many, then by the cards.
"""

from __future__ import annotations

from engine.condottiere.cards import (
    BISHOP,
    EMPTY,
    FACE_DOWN_KINDS,
    FULL_DECK,
    KINDS,
    MERC_STRENGTH,
    NREGIONS,
    SCARECROW,
    SLOTS,
    SPRING,
    SURRENDER,
    WINTER,
)
from engine.condottiere.measures import (
    ADJACENT_BONUS,
    DRAW_MAX,
    END_ADJACENT,
    END_TOTAL,
    HAND_BASE,
    HAND_START,
    HAND_START_DRAW,
    KEEP_MAX,
    MAX_BATTLES,
    battle_regions,
    courtesans,
    favor_regions,
    game_limit,
    hand_limit,
    line_strengths,
    max_take,
    start_hand,
    thresholds,
    victory,
)
from engine.condottiere.state import (
    NO_CARD,
    REFEREE,
    Action,
    CondottiereConfig,
    State,
    _new,
    mk,
)
from engine.core import CHANCE, REVEAL, TERMINAL, UNKNOWN

# the measures of a position are part of this module's interface too
__all__ = [
    "ADJACENT_BONUS", "DRAW_MAX", "END_ADJACENT", "END_TOTAL", "HAND_BASE", "HAND_START",
    "HAND_START_DRAW", "KEEP_MAX", "MAX_BATTLES", "apply_unchecked", "battle_regions",
    "chance_outcomes", "courtesans", "current_player", "face_down_position", "favor_regions",
    "game_limit", "hand_limit", "is_over", "keep_choices", "legal_actions", "line_strengths",
    "max_take", "new_game", "revealer", "start_hand", "thresholds", "victory",
]

U = SLOTS - 1  # the counts slot of masked cards

END_EXHAUSTED = "board-exhausted"
END_LIMIT = "battle-limit"
END_FINAL = "final-battle"
END_TARGET = "target-score"
END_GAME_LIMIT = "game-limit"
END_MATCH_FINAL = "match-final-battle"


# -- creating a game ---------------------------------------------------------------------------


def new_game(config: CondottiereConfig | None = None) -> State:
    """The position before the starting player is drawn: all 110 cards in the pile."""
    config = config or CondottiereConfig()
    n = config.players
    s = object.__new__(State)
    s.config = config
    s.viewer = REFEREE
    s.points = (0,) * n
    s.games = 0
    s.turns = 0
    _reset_game(s)
    return s


def _reset_game(s: State) -> None:
    n = s.config.players
    s.phase = "start"
    s.turn = 0
    s.holder = s.placer = 0
    s.battle = s.defender = -1
    s.free = 0
    s.favor = -1
    s.owner = (-1,) * NREGIONS
    s.hands = ((),) * n
    s.lines = ((),) * n
    s.passed = (0,) * n
    if s.viewer == REFEREE:
        s.pile = FULL_DECK
    else:
        s.pile = EMPTY[:U] + (110,)
    s.discards = EMPTY
    s.owed = (0,) * n
    s.queue = ()
    s.then = "place"
    s.pending = -1
    s.fighters = ()
    s.final = 0
    s.battles = 0
    s.winners = ()
    s.end = ""
    s.won_by = ""


# -- who acts ----------------------------------------------------------------------------------

_DECIDES = frozenset(("place", "play", "take", "discard", "keep"))


def current_player(s: State) -> int:
    phase = s.phase
    if phase in _DECIDES:
        return s.turn
    if phase == "start" or phase == "deal":
        return CHANCE
    if phase == "reveal" or phase == "showdown":
        return REVEAL
    return TERMINAL


def _first_face_down(s: State) -> tuple[int, int]:
    for seat, line in enumerate(s.lines):
        for pos, (_, up) in enumerate(line):
            if not up:
                return seat, pos
    return -1, -1


def face_down_position(line: tuple[tuple[int, int], ...], k: int) -> int:
    """The position in ``line`` of its ``k``-th face-down card (counting from 0)."""
    for pos, (_, up) in enumerate(line):
        if not up:
            if not k:
                return pos
            k -= 1
    raise ValueError("no such face-down card")


def revealer(s: State) -> int:
    """The seat that must turn a face-down card up now."""
    if s.phase == "reveal":
        return s.turn
    if s.phase == "showdown":
        return _first_face_down(s)[0]
    raise ValueError(f"no reveal is due in phase {s.phase}")


def is_over(s: State) -> bool:
    return s.phase == "over"


# -- chance ------------------------------------------------------------------------------------


def chance_outcomes(s: State) -> list[tuple[Action, float]]:
    if s.phase == "start":
        n = s.players
        return [(mk("start", i), 1 / n) for i in range(n)]
    if s.phase == "deal":
        pile = s.pile
        total = sum(pile)
        seat = s.turn
        out = [(mk("draw", seat, UNKNOWN), pile[U] / total)] if pile[U] else []
        for c in range(KINDS):
            k = pile[c]
            if k:
                out.append((_new(Action, ("draw", seat, c, -1, -1, ())), k / total))
        return out
    return []


# -- legal actions -----------------------------------------------------------------------------


def legal_actions(s: State) -> list[Action]:
    phase = s.phase
    if phase == "play":
        return _play_actions(s)
    if phase == "start" or phase == "deal":
        return [a for a, _ in chance_outcomes(s)]
    seat = s.turn
    if phase == "place":
        return [_new(Action, ("place", seat, NO_CARD, r, -1, ())) for r in battle_regions(s, seat)]
    if phase == "reveal" or phase == "showdown":
        if phase == "reveal":
            pos = face_down_position(s.lines[seat], s.pending)
        else:
            seat, pos = _first_face_down(s)
        card = s.lines[seat][pos][0]
        cards = sorted(FACE_DOWN_KINDS) if card == UNKNOWN else [card]
        return [mk("reveal", seat, c, pos) for c in cards]
    if phase == "take":
        return [mk("take", seat, target=k) for k in range(max_take(s, seat) + 1)]
    if phase == "discard":
        hand = s.hands[seat]
        out = [mk("hold", seat)]
        if hand and hand[0] >= 7:  # sorted: no mercenary and no masked card
            out.append(mk("discard", seat, cards=hand))
        return out
    if phase == "keep":
        return [mk("keep", seat, cards=k) for k in keep_choices(s.hands[seat])]
    return []


def keep_choices(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    kinds = sorted(set(hand))
    out: list[tuple[int, ...]] = [()]
    out.extend((c,) for c in kinds)
    for i, a in enumerate(kinds):
        for b in kinds[i:]:
            if a != b or hand.count(a) >= 2:
                out.append((a, b))
    return out


def _play_actions(s: State) -> list[Action]:
    seat = s.turn
    hand = s.hands[seat]
    line = s.lines[seat]
    flips = list(range(sum(1 for _, up in line if not up))) or [-1]
    out = [_new(Action, ("pass", seat, NO_CARD, -1, -1, ()))]
    add = out.append
    A = Action
    new = _new
    prev = None
    for c in hand:
        if c == prev or c == UNKNOWN:
            continue
        prev = c
        if c == BISHOP:
            targets = [-1, *favor_regions(s)]
        elif c == SCARECROW:
            targets = [-1, *sorted({m for m, up in line if up and 0 <= m < 7})]
        else:
            targets = [-1]
        for t in targets:
            if c == SURRENDER:
                add(new(A, ("play", seat, c, t, -1, ())))
            else:
                for f in flips:
                    add(new(A, ("play", seat, c, t, f, ())))
    return out


# -- small tuple helpers -----------------------------------------------------------------------


def _set(t: tuple, i: int, v: object) -> tuple:
    return t[:i] + (v,) + t[i + 1 :]


def _remove(cards: tuple[int, ...], c: int) -> tuple[int, ...]:
    """Take one ``c`` out of a sorted hand; one ``UNKNOWN`` when ``c`` is not known to be in it
    (a masked hand); any card when ``c`` is ``UNKNOWN`` and the hand is all known."""
    if c in cards:
        i = cards.index(c)
    elif UNKNOWN in cards:
        i = cards.index(UNKNOWN)
    else:
        i = 0
    return cards[:i] + cards[i + 1 :]


def _insert(cards: tuple[int, ...], c: int) -> tuple[int, ...]:
    for i, x in enumerate(cards):
        if x > c:
            return cards[:i] + (c,) + cards[i:]
    return cards + (c,)


def _count_add(counts: tuple[int, ...], c: int, k: int = 1) -> tuple[int, ...]:
    i = U if c == UNKNOWN else c
    return counts[:i] + (counts[i] + k,) + counts[i + 1 :]


def _discard_cards(s: State, cards: list[int] | tuple[int, ...]) -> None:
    if not cards:
        return
    d = list(s.discards)
    for c in cards:
        d[c] += 1  # UNKNOWN (-1) lands in the last slot
    s.discards = tuple(d)


def _reshuffle(s: State) -> None:
    """Move the discards into the pile. In a view the pile is face down to the viewer, so the
    cards it receives become ``UNKNOWN``."""
    if s.viewer == REFEREE:
        s.pile = tuple(a + b for a, b in zip(s.pile, s.discards, strict=True))
    else:
        s.pile = s.pile[:U] + (s.pile[U] + sum(s.discards),)
    s.discards = EMPTY


def _collect_all(s: State) -> None:
    """Every card back into the pile (a final battle; a new game of a match)."""
    n = s.players
    for seat in range(n):
        _discard_cards(s, s.hands[seat])
        _discard_cards(s, [c for c, _ in s.lines[seat]])
    s.hands = ((),) * n
    s.lines = ((),) * n
    _reshuffle(s)


# -- applying ----------------------------------------------------------------------------------


def apply_unchecked(state: State, action: Action) -> State:
    """Apply an action taken from ``legal_actions`` (or a chance outcome); no checks."""
    s = state.copy()
    _APPLY[action[0]](s, action)
    return s


def _apply_start(s: State, a: Action) -> None:
    n = s.players
    s.holder = s.placer = a.seat
    s.owed = (start_hand(s.config),) * n
    s.then = "place"
    _start_deal(s)


def _start_deal(s: State) -> None:
    n = s.players
    h = s.holder
    owed = s.owed
    for k in range(n):
        seat = (h + k) % n
        if owed[seat]:
            if not sum(s.pile):
                _reshuffle(s)
                if not sum(s.pile):
                    break
            s.phase = "deal"
            s.turn = seat
            return
    s.owed = (0,) * n
    _after_deal(s)


def _apply_draw(s: State, a: Action) -> None:
    seat, c = a.seat, a.card
    pile = s.pile
    i = U if c == UNKNOWN or not pile[c] else c
    s.pile = pile[:i] + (pile[i] - 1,) + pile[i + 1 :]
    s.hands = _set(s.hands, seat, _insert(s.hands[seat], c))
    left = s.owed[seat] - 1
    s.owed = _set(s.owed, seat, left)
    if not sum(s.pile):
        _reshuffle(s)  # D12: the discards become the new pile when it runs out
        if not sum(s.pile):
            s.owed = (0,) * s.players
            _after_deal(s)
            return
    if left:
        return
    n = s.players
    owed = s.owed
    for k in range(1, n):
        q = (seat + k) % n
        if owed[q]:
            s.turn = q
            return
    _after_deal(s)


def _after_deal(s: State) -> None:
    then = s.then
    if then == "place":
        s.phase = "place"
        s.turn = s.holder
    elif then == "take":
        _next_take(s)
    else:  # battle, final
        _begin_battle(s)


def _apply_place(s: State, a: Action) -> None:
    r = a.target
    s.battle = r
    s.placer = a.seat
    o = s.owner[r]
    s.defender = o if o >= 0 and s.config.capturing_regions else -1
    if s.battles == 0:
        _begin_battle(s)
        return
    # step 3: discard the battle lines
    for line in s.lines:
        _discard_cards(s, [c for c, _ in line])
    s.lines = ((),) * s.players
    if s.config.draw_after_battle:
        _begin_battle(s)
        return
    # step 4: every seat holding cards decides, clockwise from the token holder
    n = s.players
    s.queue = tuple(q for q in ((s.holder + k) % n for k in range(n)) if s.hands[q])
    _next_discard(s)


def _next_discard(s: State) -> None:
    if s.queue:
        s.phase = "discard"
        s.turn = s.queue[0]
        return
    holding = [q for q in range(s.players) if s.hands[q]]
    if len(holding) >= 2:
        _begin_battle(s)
    elif len(holding) == 1:
        s.phase = "keep"
        s.turn = holding[0]
    else:
        _new_round(s)


def _apply_hold(s: State, a: Action) -> None:
    s.queue = s.queue[1:]
    _next_discard(s)


def _apply_discard(s: State, a: Action) -> None:
    _discard_cards(s, a.cards)  # shown to all: a view learns the cards
    s.hands = _set(s.hands, a.seat, ())
    s.queue = s.queue[1:]
    _next_discard(s)


def _apply_keep(s: State, a: Action) -> None:
    hand = s.hands[a.seat]
    for c in a.cards:
        hand = _remove(hand, c)
    _discard_cards(s, hand)
    s.hands = _set(s.hands, a.seat, tuple(sorted(a.cards)))
    _new_round(s)


def _new_round(s: State) -> None:
    _reshuffle(s)
    s.owed = tuple(
        max(0, hand_limit(s, q) - len(s.hands[q])) for q in range(s.players)
    )
    s.then = "battle"
    _start_deal(s)


def _begin_battle(s: State) -> None:
    n = s.players
    fighters = s.fighters
    s.lines = ((),) * n
    s.passed = tuple(0 if not fighters or q in fighters else 1 for q in range(n))
    s.free = 1 if s.defender >= 0 else 0
    s.queue = ()
    if fighters:
        first = s.holder
        while first not in fighters:
            first = (first + 1) % n
    else:
        first = s.placer
    s.phase = "play"
    passed = list(s.passed)
    hands = s.hands
    for k in range(n):
        q = (first + k) % n
        if passed[q]:
            continue
        if not hands[q]:
            passed[q] = 1
            continue
        s.passed = tuple(passed)
        s.turn = q
        return
    s.passed = tuple(passed)
    _conclude(s)


def _apply_pass(s: State, a: Action) -> None:
    seat = a.seat
    s.turns += 1
    if seat == s.defender and s.free:
        # a defender who has played nothing passes without leaving the battle
        if all(p for q, p in enumerate(s.passed) if q != seat):
            _conclude(s)
            return
        _next_turn(s, seat)
        return
    s.passed = _set(s.passed, seat, 1)
    _next_turn(s, seat)


def _next_turn(s: State, seat: int) -> None:
    """Give the turn to the next seat still in the battle after ``seat``; an empty hand passes
    at once. ``seat`` itself plays on when everyone else is out."""
    n = s.players
    passed = s.passed
    hands = s.hands
    auto = None
    for k in range(1, n + 1):
        q = (seat + k) % n
        if passed[q]:
            continue
        if not hands[q]:
            if auto is None:
                auto = list(passed)
            auto[q] = 1
            continue
        if q == seat and seat == s.defender and s.free and k == n:
            break  # the defender passed freely and nobody else is left
        if auto is not None:
            s.passed = tuple(auto)
        s.turn = q
        s.phase = "play"
        return
    if auto is not None:
        s.passed = tuple(auto)
    _conclude(s)


def _apply_play(s: State, a: Action) -> None:
    seat, c = a.seat, a.card
    s.turns += 1
    s.hands = _set(s.hands, seat, _remove(s.hands[seat], c))
    if seat == s.defender:
        s.free = 0
    if c == SURRENDER:
        _discard_cards(s, (c,))
        _conclude(s)
        return
    lines = s.lines
    if c == WINTER or c == SPRING:
        other = SPRING if c == WINTER else WINTER
        gone = [x for line in lines for x, _ in line if x == other]
        if gone:
            lines = tuple(tuple(e for e in line if e[0] != other) for line in lines)
            _discard_cards(s, gone)
        lines = _set(lines, seat, lines[seat] + ((c, 1),))
    elif c == BISHOP:
        top = max((MERC_STRENGTH[x] for line in lines for x, up in line if up and 0 <= x < 7),
                  default=0)
        if top:
            gone = [x for line in lines for x, up in line if up and 0 <= x < 7 and MERC_STRENGTH[x] == top]
            lines = tuple(
                tuple(e for e in line if not (e[1] and 0 <= e[0] < 7 and MERC_STRENGTH[e[0]] == top))
                for line in lines
            )
            _discard_cards(s, gone)
        _discard_cards(s, (c,))
        s.favor = a.target
    elif c == SCARECROW:
        if a.target >= 0:
            line = lines[seat]
            for i in range(len(line) - 1, -1, -1):
                if line[i] == (a.target, 1):
                    lines = _set(lines, seat, line[:i] + line[i + 1 :])
                    break
            s.hands = _set(s.hands, seat, _insert(s.hands[seat], a.target))
        _discard_cards(s, (c,))
    else:
        up = 0 if s.config.hidden_cards and (c == UNKNOWN or c in FACE_DOWN_KINDS) else 1
        lines = _set(lines, seat, lines[seat] + ((c, up),))
    s.lines = lines
    if a.flip >= 0:
        s.phase = "reveal"
        s.turn = seat
        s.pending = a.flip
        return
    _next_turn(s, seat)


def _apply_reveal(s: State, a: Action) -> None:
    seat, pos = a.seat, a.target
    s.lines = _set(s.lines, seat, _set(s.lines[seat], pos, (a.card, 1)))
    if s.phase == "reveal":
        s.pending = -1
        _next_turn(s, seat)
    else:
        _conclude(s)


def _conclude(s: State) -> None:
    """The battle is over: turn every face-down card up, then resolve."""
    if _first_face_down(s)[0] >= 0:
        s.phase = "showdown"
        return
    _resolve(s)


def _resolve(s: State) -> None:
    n = s.players
    strength = line_strengths(s.lines)
    fighters = s.fighters or tuple(range(n))
    best = max(strength[q] for q in fighters)
    top = [q for q in fighters if strength[q] == best]
    if s.final:
        _final_result(s, tuple(top))
        return
    winner = top[0] if len(top) == 1 else -1
    if winner >= 0:
        s.owner = _set(s.owner, s.battle, winner)
    # the Condottiere token
    if s.defender >= 0 and winner < 0:
        s.holder = s.defender
    else:
        court = courtesans(s)
        most = max(court)
        if most > 0 and court.count(most) == 1:
            s.holder = court.index(most)
        elif winner >= 0:
            s.holder = winner
        else:
            s.holder = (s.placer + 1) % n
    s.battles += 1
    s.defender = -1
    s.free = 0
    if winner >= 0:
        how = victory(s, winner)
        if how:
            _end_game(s, (winner,), how)
            return
    if s.battles >= MAX_BATTLES:
        _board_end(s, END_LIMIT)
        return
    if not battle_regions(s, s.holder):
        _board_end(s, END_EXHAUSTED)
        return
    if s.config.draw_after_battle:
        _start_draws(s)
        return
    s.phase = "place"
    s.turn = s.holder


def _start_draws(s: State) -> None:
    n = s.players
    if not any(s.hands):
        s.owed = (HAND_BASE,) * n  # nobody holds a card: ten each instead of three
        s.then = "take"
        s.queue = ()
        _start_deal(s)
        return
    s.queue = tuple((s.holder + k) % n for k in range(n))
    _next_take(s)


def _next_take(s: State) -> None:
    while s.queue:
        seat = s.queue[0]
        if max_take(s, seat) > 0:
            s.phase = "take"
            s.turn = seat
            return
        s.queue = s.queue[1:]
    s.phase = "place"
    s.turn = s.holder


def _apply_take(s: State, a: Action) -> None:
    s.queue = s.queue[1:]
    if a.target:
        s.owed = _set((0,) * s.players, a.seat, a.target)
        s.then = "take"
        s.phase = "deal"
        s.turn = a.seat
        if not sum(s.pile):
            _reshuffle(s)
        return
    _next_take(s)


def _board_end(s: State, why: str) -> None:
    """No legal region (or the long-war limit): most regions wins, a tie fights it out."""
    counts = s.region_counts()
    most = max(counts)
    tied = tuple(q for q in range(s.players) if counts[q] == most)
    if len(tied) == 1:
        _end_game(s, tied, why)
        return
    s.won_by = why
    _final_battle(s, tied, 1)


def _final_battle(s: State, tied: tuple[int, ...], level: int) -> None:
    _collect_all(s)
    counts = s.region_counts()
    s.final = level
    s.fighters = tied
    s.battle = -1
    s.defender = -1
    s.owed = tuple(HAND_BASE + counts[q] if q in tied else 0 for q in range(s.players))
    s.then = "final"
    _start_deal(s)


def _final_result(s: State, top: tuple[int, ...]) -> None:
    if s.final == 1:
        s.final = 0
        s.fighters = ()
        _end_game(s, top, END_FINAL)
        return
    s.phase = "over"
    s.winners = top
    s.end = END_MATCH_FINAL


def _end_game(s: State, winners: tuple[int, ...], how: str) -> None:
    cfg = s.config
    if how != END_FINAL:
        s.won_by = how
    if not cfg.playing_for_points:
        s.phase = "over"
        s.winners = winners
        s.end = how
        return
    counts = s.region_counts()
    points = [p + c for p, c in zip(s.points, counts, strict=True)]
    if how == END_ADJACENT:
        for w in winners:
            points[w] += ADJACENT_BONUS
    s.points = tuple(points)
    s.games += 1
    reached = max(points) >= cfg.target_score
    if reached or s.games >= game_limit(cfg):
        best = max(points)
        tied = tuple(q for q in range(s.players) if points[q] == best)
        if len(tied) == 1:
            s.phase = "over"
            s.winners = tied
            s.end = END_TARGET if reached else END_GAME_LIMIT
            return
        _final_battle(s, tied, 2)
        return
    _reset_game(s)


_APPLY = {
    "start": _apply_start,
    "draw": _apply_draw,
    "place": _apply_place,
    "pass": _apply_pass,
    "play": _apply_play,
    "reveal": _apply_reveal,
    "take": _apply_take,
    "hold": _apply_hold,
    "discard": _apply_discard,
    "keep": _apply_keep,
}
