"""The questions of a Condottiere decision, built from the seat's legal actions.

* ``place``: which region the Condottiere token goes to;
* ``play``: a card or pass; then, for a Bishop, where the Favor of the Pope goes; for a
  Scarecrow, which mercenary comes back to hand; with Hidden Cards, which face-down card to
  turn up (after a pass: one, or none);
* ``take`` (Draw After Battle): how many cards to draw;
* ``discard``: keep the hand or discard it all;
* ``keep`` (end of a round): the first card to keep, then the second.
"""

from __future__ import annotations

from engine.condottiere.cards import (
    BISHOP,
    COURTESAN,
    DRUMMER,
    HEROINE,
    KINDS,
    NAMES,
    NEIGHBOURS,
    REGIONS,
    SCARECROW,
    SPRING,
    SURRENDER,
    WINTER,
)
from engine.condottiere.measures import hand_limit
from engine.condottiere.state import Action, State
from engine.condottiere.text import SEAT_NAMES
from engine.words import plural
from tui.choices import Level, Question, next_question
from tui.client import TableView
from tui.condottiere import preview

CARD_WORDS = {
    HEROINE: "Heroine (10)",
    COURTESAN: "Courtesan (1; the most Courtesans take the token)",
    DRUMMER: "Drummer: doubles your mercenaries",
    WINTER: "Winter: every mercenary counts 1",
    SPRING: "Spring: +3 to the strongest mercenaries",
    BISHOP: "Bishop: discards the strongest mercenaries, moves the Pope",
    SCARECROW: "Scarecrow: take one of your mercenaries back",
    SURRENDER: "Surrender: the battle ends now",
}
PASS = "pass"
#: letters that mean the same answer every time (``tui.choices``): pass; keep or discard the
#: hand; none (no card to turn up, keep, take back or draw); the Favor of the Pope off the board
PASS_KEY, KEEP_KEY, DISCARD_KEY, NONE_KEY, OFF_KEY = "p", "k", "d", "n", "o"


def card_label(c: object, free: bool = False) -> str:
    """An answer to "play a card, or pass?"; ``free``: the seat defends and has not played yet
    (Capturing Regions), so its pass is not final."""
    if c == PASS:
        if free:
            return "Pass for now: as the defender you may still play later"
        return "Pass: play no more cards in this battle"
    assert isinstance(c, int)
    if c in CARD_WORDS:
        return CARD_WORDS[c]
    return NAMES[c] if 0 <= c < KINDS else "a card"


def _region_words(s: State, r: int) -> str:
    near = ", ".join(REGIONS[q] for q in range(len(REGIONS)) if NEIGHBOURS[r] >> q & 1)
    owner = s.owner[r]
    held = f", held by {SEAT_NAMES[owner]}" if owner >= 0 else ""
    return f"{REGIONS[r]}{held} (borders {near})"


def levels(view: TableView) -> list[Level]:
    s: State = view.state
    seat = view.seat
    phase = s.phase
    if phase == "place":
        return [Level("target", lambda a: a.region, lambda r, acts: _region_words(s, r),
                      "Place the Condottiere token: where is the next battle?", always=True)]
    if phase == "take":
        room = hand_limit(s, seat) - len(s.hands[seat])
        return [Level("target", lambda a: a.draws,
                      lambda k, acts: "Draw nothing" if k == 0 else f"Draw {plural(k, 'card')}",
                      f"Draw after the battle: how many cards? (room for {room})", always=True,
                      hotkey=lambda k, acts: NONE_KEY if k == 0 else "")]
    if phase == "discard":
        # a hand with a mercenary is kept without a question (``CondottiereTable.forced_quietly``)
        prompt = "Your hand has no mercenary: keep it, or discard it all?"
        return [Level("kind", lambda a: a.kind,
                      lambda k, acts: "Keep your hand" if k == "hold"
                      else "Discard your whole hand (it has no mercenary)",
                      prompt, always=any(a.kind == "discard" for a in view.legal),
                      hotkey=lambda k, acts: KEEP_KEY if k == "hold" else DISCARD_KEY)]
    if phase == "keep":
        def first(a: Action) -> int:
            return a.cards[0] if a.cards else -1

        def second(a: Action) -> int:
            return a.cards[1] if len(a.cards) > 1 else -1

        return [
            Level("first", first, lambda c, acts: "Keep nothing" if c < 0 else f"Keep {NAMES[c]}",
                  "The round is over: you may keep up to two cards. The first?", always=True,
                  hotkey=_none_key),
            Level("second", second,
                  lambda c, acts: "No second card" if c < 0 else f"and {NAMES[c]}",
                  "And a second card?", hotkey=_none_key),
        ]

    def target_label(t: int, acts: tuple[Action, ...]) -> str:
        card = acts[0].card
        if card == BISHOP:
            return "Off the board" if t < 0 else _region_words(s, t)
        if card == SCARECROW:
            words = "Nothing: the Scarecrow alone" if t < 0 else f"{NAMES[t]} back to hand"
            return f"{words}  {preview.result(s, acts[0], seat)}"
        return str(t)

    def play_label(c: object, acts: tuple[Action, ...]) -> str:
        words = card_label(c, free)
        if c == PASS or (c == SCARECROW and len({a.taken for a in acts}) > 1):
            return words  # a Scarecrow's strength depends on what it takes back: asked next
        return f"{words}  {preview.result(s, acts[0], seat)}"

    def target_prompt(acts: tuple[Action, ...]) -> str:
        if acts[0].card == BISHOP:
            return "Where does the Favor of the Pope go? (no battle may be fought there)"
        return "Which of your mercenaries goes back to your hand?"

    def flip_label(k: int, acts: tuple[Action, ...]) -> str:
        downs = [c for c, up in s.lines[seat] if not up]
        if k < 0:
            return "Keep them all hidden" if acts[0].kind == "pass" else "None"
        card = downs[k] if k < len(downs) else -1
        return f"Your face-down {NAMES[card] if 0 <= card < KINDS else 'card'} (number {k + 1})"

    def target_key(t: int, acts: tuple[Action, ...]) -> str:
        if t >= 0:
            return ""
        return OFF_KEY if acts[0].card == BISHOP else NONE_KEY

    free = seat == s.defender and bool(s.free)
    return [
        Level("card", lambda a: PASS if a.kind == "pass" else a.card,
              play_label, _play_prompt(view), always=True,
              hotkey=lambda c, acts: PASS_KEY if c == PASS else ""),
        Level("target", lambda a: a.region if a.card == BISHOP else a.taken, target_label,
              target_prompt, hotkey=target_key),
        Level("flip", lambda a: a.flip, flip_label, _flip_prompt, hotkey=_none_key),
    ]


def _flip_prompt(acts: tuple[Action, ...]) -> str:
    if acts[0].kind == "pass":
        return "You pass. Turn one of your face-down cards up, or keep them hidden until the end?"
    return "Hidden Cards: which of your face-down cards do you turn up?"


def _none_key(k: int, acts: tuple[Action, ...]) -> str:
    return NONE_KEY if k < 0 else ""


def _play_prompt(view: TableView) -> str:
    s: State = view.state
    if s.battle >= 0 and not s.final:
        where = f"the battle for {REGIONS[s.battle]}"
    else:
        where = "the final battle"
    if view.seat == s.defender and s.free:
        return f"Your turn in {where}: you defend, and may pass and still play later."
    return f"Your turn in {where}: play a card, or pass?"


def question(view: TableView, actions: tuple[Action, ...], asked: tuple[str, ...]) -> Question | None:
    return next_question(levels(view), actions, asked)
