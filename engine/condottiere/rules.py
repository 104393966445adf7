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
Surrender), then by the Bishop's ``region`` or the Scarecrow's ``taken`` (``NONE`` first: the Favor off
the board, no Scarecrow pick), then by the
face-down position to turn up. Regions, draw counts and seats ascend; ``hold`` comes before
``discard``; kept cards are ordered by how many, then by the cards.
"""

from __future__ import annotations

from engine.condottiere.cards import (
    BISHOP,
    FACE_DOWN_KINDS,
    KINDS,
    MERC_STRENGTH,
    SCARECROW,
    SPRING,
    SURRENDER,
    WINTER,
)
from engine.condottiere.flow import (
    END_EXHAUSTED,
    END_FINAL,
    END_GAME_LIMIT,
    END_LIMIT,
    END_MATCH_FINAL,
    END_TARGET,
    U,
    after_deal,
    begin_battle,
    conclude,
    discard_cards,
    first_face_down,
    new_round,
    next_discard,
    next_take,
    next_turn,
    put_card,
    reset_game,
    reshuffle,
    set_at,
    start_deal,
    take_card,
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
    announced_strengths,
    battle_regions,
    courtesans,
    favor_regions,
    fought_strengths,
    game_limit,
    hand_limit,
    max_take,
    own_strength,
    start_hand,
    strengths,
    thresholds,
    victory,
)
from engine.condottiere.state import (
    NO_CARD,
    NONE,
    OFF_BOARD,
    REFEREE,
    Action,
    CondottiereConfig,
    State,
    _new,
    mk,
)
from engine.condottiere.view import plays_face_down
from engine.core import CHANCE, REVEAL, TERMINAL, UNKNOWN

# the measures of a position and the end codes are part of this module's interface too
__all__ = [
    "END_EXHAUSTED", "END_FINAL", "END_GAME_LIMIT", "END_LIMIT", "END_MATCH_FINAL", "END_TARGET",
    "ADJACENT_BONUS", "DRAW_MAX", "END_ADJACENT", "END_TOTAL", "HAND_BASE", "HAND_START",
    "HAND_START_DRAW", "KEEP_MAX", "MAX_BATTLES", "apply_in_place", "apply_unchecked",
    "battle_regions",
    "chance_outcomes", "courtesans", "current_player", "face_down_position", "favor_regions",
    "game_limit", "hand_limit", "is_over", "keep_choices", "legal_actions",
    "max_take", "new_game", "revealer", "start_hand", "thresholds", "victory",
    "announced_strengths", "fought_strengths", "own_strength", "strengths",
]

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
    reset_game(s)
    return s


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
        return first_face_down(s)[0]
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
        out = [(mk("draw", seat, card=UNKNOWN), pile[U] / total)] if pile[U] else []
        for c in range(KINDS):
            k = pile[c]
            if k:
                out.append((_new(Action, ("draw", seat, c, NONE, NONE, NONE, NONE, NONE, ())), k / total))
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
        return [_new(Action, ("place", seat, NO_CARD, r, NONE, NONE, NONE, NONE, ()))
                for r in battle_regions(s, seat)]
    if phase == "reveal" or phase == "showdown":
        if phase == "reveal":
            pos = face_down_position(s.lines[seat], s.pending)
        else:
            seat, pos = first_face_down(s)
        card = s.lines[seat][pos][0]
        cards = sorted(FACE_DOWN_KINDS) if card == UNKNOWN else [card]
        return [mk("reveal", seat, card=c, position=pos) for c in cards]
    if phase == "take":
        return [mk("take", seat, draws=k) for k in range(max_take(s, seat) + 1)]
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
    flips = list(range(sum(1 for _, up in line if not up))) or [NONE]
    out = [_new(Action, ("pass", seat, NO_CARD, NONE, NONE, NONE, NONE, NONE, ()))]
    add = out.append
    A = Action
    new = _new
    prev = None
    for c in hand:
        if c == prev or c == UNKNOWN:
            continue
        prev = c
        if c == BISHOP:
            for r in (OFF_BOARD, *favor_regions(s)):
                for f in flips:
                    add(new(A, ("play", seat, c, r, NONE, NONE, NONE, f, ())))
        elif c == SCARECROW:
            for m in (NONE, *sorted({m for m, up in line if up and 0 <= m < 7})):
                for f in flips:
                    add(new(A, ("play", seat, c, NONE, m, NONE, NONE, f, ())))
        elif c == SURRENDER:
            add(new(A, ("play", seat, c, NONE, NONE, NONE, NONE, NONE, ())))
        else:
            for f in flips:
                add(new(A, ("play", seat, c, NONE, NONE, NONE, NONE, f, ())))
    return out




# -- applying ----------------------------------------------------------------------------------


def apply_unchecked(state: State, action: Action) -> State:
    """Apply an action taken from ``legal_actions`` (or a chance outcome); no checks."""
    s = state.copy()
    _APPLY[action[0]](s, action)
    return s


def apply_in_place(state: State, action: Action) -> None:
    """``apply_unchecked`` done on ``state`` itself: only for a state nobody else holds (a
    search's private copy), since states are otherwise immutable."""
    _APPLY[action[0]](state, action)


def _apply_start(s: State, a: Action) -> None:
    n = s.players
    s.holder = s.placer = a.seat
    s.owed = (start_hand(s),) * n
    s.then = "place"
    start_deal(s)


def _apply_draw(s: State, a: Action) -> None:
    seat, c = a.seat, a.card
    pile = s.pile
    i = U if c == UNKNOWN or not pile[c] else c
    s.pile = pile[:i] + (pile[i] - 1,) + pile[i + 1 :]
    s.hands = set_at(s.hands, seat, put_card(s.hands[seat], c))
    left = s.owed[seat] - 1
    s.owed = set_at(s.owed, seat, left)
    if not sum(s.pile):
        reshuffle(s)  # D12: the discards become the new pile when it runs out
        if not sum(s.pile):
            s.owed = (0,) * s.players
            after_deal(s)
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
    after_deal(s)


def _apply_place(s: State, a: Action) -> None:
    r = a.region
    s.battle = r
    s.placer = a.seat
    o = s.owner[r]
    s.defender = o if o >= 0 and s.config.capturing_regions else -1
    if s.battles == 0:
        begin_battle(s)
        return
    # step 3: discard the battle lines
    for line in s.lines:
        discard_cards(s, [c for c, _ in line])
    s.lines = ((),) * s.players
    if s.config.draw_after_battle:
        begin_battle(s)
        return
    # step 4: every seat holding cards decides, clockwise from the token holder
    n = s.players
    s.queue = tuple(q for q in ((s.holder + k) % n for k in range(n)) if s.hands[q])
    next_discard(s)


def _apply_hold(s: State, a: Action) -> None:
    s.queue = s.queue[1:]
    next_discard(s)


def _apply_discard(s: State, a: Action) -> None:
    discard_cards(s, a.cards)  # shown to all: a view learns the cards
    s.hands = set_at(s.hands, a.seat, ())
    s.queue = s.queue[1:]
    next_discard(s)


def _apply_keep(s: State, a: Action) -> None:
    hand = s.hands[a.seat]
    for c in a.cards:
        hand = take_card(hand, c)
    discard_cards(s, hand)
    s.hands = set_at(s.hands, a.seat, tuple(sorted(a.cards)))
    new_round(s)


def _apply_pass(s: State, a: Action) -> None:
    seat = a.seat
    s.turns += 1
    if seat == s.defender and s.free:
        # a defender who has played nothing passes without leaving the battle
        if all(p for q, p in enumerate(s.passed) if q != seat):
            conclude(s)
            return
        next_turn(s, seat)
        return
    s.passed = set_at(s.passed, seat, 1)
    next_turn(s, seat)


def _apply_play(s: State, a: Action) -> None:
    seat, c = a.seat, a.card
    s.turns += 1
    s.hands = set_at(s.hands, seat, take_card(s.hands[seat], c))
    if seat == s.defender:
        s.free = 0
    if c == SURRENDER:
        discard_cards(s, (c,))
        conclude(s)
        return
    lines = s.lines
    if c == WINTER or c == SPRING:
        other = SPRING if c == WINTER else WINTER
        gone = [x for line in lines for x, _ in line if x == other]
        if gone:
            lines = tuple(tuple(e for e in line if e[0] != other) for line in lines)
            discard_cards(s, gone)
        lines = set_at(lines, seat, lines[seat] + ((c, 1),))
    elif c == BISHOP:
        top = max((MERC_STRENGTH[x] for line in lines for x, up in line if up and 0 <= x < 7),
                  default=0)
        if top:
            gone = [x for line in lines for x, up in line if up and 0 <= x < 7 and MERC_STRENGTH[x] == top]
            lines = tuple(
                tuple(e for e in line if not (e[1] and 0 <= e[0] < 7 and MERC_STRENGTH[e[0]] == top))
                for line in lines
            )
            discard_cards(s, gone)
        discard_cards(s, (c,))
        s.favor = a.region
    elif c == SCARECROW:
        taken = a.taken
        if taken >= 0:
            line = lines[seat]
            for i in range(len(line) - 1, -1, -1):
                if line[i] == (taken, 1):
                    lines = set_at(lines, seat, line[:i] + line[i + 1 :])
                    break
            s.hands = set_at(s.hands, seat, put_card(s.hands[seat], taken))
        discard_cards(s, (c,))
    else:
        up = 0 if plays_face_down(s.config, c) else 1
        lines = set_at(lines, seat, lines[seat] + ((c, up),))
    s.lines = lines
    if a.flip >= 0:
        s.phase = "reveal"
        s.turn = seat
        s.pending = a.flip
        return
    next_turn(s, seat)


def _apply_reveal(s: State, a: Action) -> None:
    seat, pos = a.seat, a.position
    s.lines = set_at(s.lines, seat, set_at(s.lines[seat], pos, (a.card, 1)))
    if s.phase == "reveal":
        s.pending = -1
        next_turn(s, seat)
    else:
        conclude(s)


def _apply_take(s: State, a: Action) -> None:
    s.queue = s.queue[1:]
    if a.draws:
        s.owed = set_at((0,) * s.players, a.seat, a.draws)
        s.then = "take"
        s.phase = "deal"
        s.turn = a.seat
        if not sum(s.pile):
            reshuffle(s)
        return
    next_take(s)


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
