"""The questions of a Court of the Medici turn, built from the seat's legal actions.

* set-up, ``hide``: which card, then before which house;
* set-up, ``top``: which card, then on which of your shadow alliances;
* ``play``: which card, then what to do with it (court, alliance, conspiracy, strike, plan),
  then the stack or shadow alliance, then the stack to eliminate, then a Jester's value;
* ``resolve`` (after your strike's hidden card is shown): the stack to eliminate (or the
  fizzle), then the Jester values.
"""

from __future__ import annotations

from engine.medici.cards import HOUSES, JESTER, RANK_VALUE, RANKS, long_name, short_name
from engine.medici.state import NO_CARD, Action, State, place_of
from engine.medici.text import stack_label
from tui.choices import Level, Question, next_question
from tui.client import TableView
from tui.medici import preview
from tui.medici.render import alliance_words, stack_inline

#: the letter of each kind of move, the same every turn (``tui.choices``: numbers are for cards,
#: stacks, alliances and values)
KIND_KEYS = {"court": "c", "build": "a", "conspire": "x", "strike": "s", "plan": "p", "stuck": "g"}
#: the letter of the strike that fizzles (the stacks it could eliminate are numbered)
FIZZLE_KEY = "f"

KIND_WORDS = {
    "court": "Court: send it to court as a new stack",
    "build": "Alliance: put it on a stack",
    "conspire": "Conspire: put it on a stack, eliminate an equal one",
    "strike": "Strike from the shadows with an alliance",
    "plan": "Plan: put it under your deck",
    "stuck": "End the game",
}


def card_label(c: int) -> str:
    if c == NO_CARD:
        return "No card you may play: the game ends"
    r = c % RANKS
    if r == JESTER:
        return "Jester (wild: you declare 1-10)"
    if r == 9:
        return "Minister (0: on a stack of 2+, eliminates the rest)"
    if r == 10:
        return "Lady-in-Waiting (1: splits a stack)"
    if r == 12:
        return "Duke (15)"
    return f"{short_name(c)} ({RANK_VALUE[r]})"


def strike_odds(s: State, acts: tuple[Action, ...]) -> str:
    """The odds of a strike, from what the seat may know: how often its hidden card makes a
    total some stack has (``report.elimination_chance``, over the cards the seat cannot rule
    out); for a Jester, at the best value it may be declared as."""
    from engine.medici.report import elimination_chance

    chance = max(elimination_chance(s, a) for a in acts)
    if chance >= 1:
        return "eliminates a stack"
    if chance <= 0:
        return "fizzles"
    return f"eliminates a stack {chance:.0%} of the time"


def levels(view: TableView) -> list[Level]:
    s: State = view.state
    seat = view.seat
    phase = s.phase

    def stack_label_of(sid: int, acts: tuple[Action, ...]) -> str:
        st = s.stack(sid)
        if st is None:
            return stack_label(sid)
        extra = ""
        vals = {a.value for a in acts}
        if len(vals) == 1 and acts[0].kind in ("build", "conspire"):
            # one value: the move as the rules make it (a conspiracy's target is asked next)
            extra = "  " + preview.result(s, acts[0]._replace(elim=min(a.elim for a in acts)))
            if acts[0].kind == "conspire" and len({a.elim for a in acts}) > 1:
                extra = extra.split(",")[0]
        return f"{stack_label(sid)}  {stack_inline(st)} = {st[1]}{extra}"

    def target_label(t: int, acts: tuple[Action, ...]) -> str:
        kind = acts[0].kind
        if kind == "hide":
            return "before yourself" if t == seat else f"before {HOUSES[t]}"
        if kind == "top":
            return f"shadow alliance {t + 1}: {alliance_words(s, seat, seat, t)}"
        if kind == "strike":
            return f"shadow alliance {t + 1}: {alliance_words(s, seat, seat, t)}  {strike_odds(s, acts)}"
        return stack_label_of(t, acts)

    def target_prompt(acts: tuple[Action, ...]) -> str:
        kind = acts[0].kind
        card = short_name(acts[0].card)
        if kind == "hide":
            return f"Place {card} face down before which house?"
        if kind == "top":
            return f"Place {card} on which shadow alliance?"
        if kind == "strike":
            return f"Strike with {card} from which shadow alliance?"
        return f"Put {card} on which stack?"

    def elim_label(e: int, acts: tuple[Action, ...]) -> str:
        if e < 0:
            return "Go on: the strike fizzles, the three cards join the court"
        return "Eliminate " + stack_label_of(e, ())

    def value_label(v: int, acts: tuple[Action, ...]) -> str:
        words = preview.result(s, acts[0]) if len(acts) == 1 and s.phase == "play" else ""
        return f"as {v}  {words}" if words else f"as {v}"

    card = Level("card", lambda a: a.card, lambda c, acts: card_label(c), _card_prompt(view),
                 always=phase in ("play", "hide", "top"),
                 hotkey=lambda c, acts: KIND_KEYS["stuck"] if c == NO_CARD else "")
    if phase in ("hide", "top"):
        return [card, Level("target", place_of, target_label, target_prompt)]
    if phase == "resolve":
        return [
            Level("elim", lambda a: a.elim, elim_label, _resolve_prompt(s, any(a.elim >= 0 for a in view.legal)),
                  always=True, hotkey=lambda e, acts: FIZZLE_KEY if e < 0 else ""),
            Level("value", lambda a: a.value, value_label, "Declare the face-up Jester as"),
            Level("extra", lambda a: a.extra, value_label, "Declare the hidden Jester as"),
        ]
    return [
        card,
        Level("kind", lambda a: a.kind, lambda k, acts: KIND_WORDS[k],
              lambda acts: f"Play {short_name(acts[0].card)} how?", always=True,
              hotkey=lambda k, acts: KIND_KEYS[k]),
        Level("target", place_of, target_label, target_prompt),
        Level("elim", lambda a: a.elim, elim_label,
              lambda acts: "Eliminate which stack (its total equals the new one)?"),
        Level("value", lambda a: a.value, value_label, "Declare the Jester as"),
    ]


def _card_prompt(view: TableView) -> str:
    s: State = view.state
    seat = view.seat
    if s.phase == "hide":
        left = sum(
            1
            for h in range(s.players)
            if (h != seat or s.players == 3) and s.alliances[h][(seat - h - 1) % s.players] is None
        )
        before = "each house, yours too" if s.players == 3 else "each other house"
        return (
            f"Set-up, step 1 of 2: place a card face down before {before} "
            f"({left} to place). Only you will know it. Which card?"
        )
    if s.phase == "top":
        left = sum(1 for a in s.alliances[seat] if a is not None and a[2] == NO_CARD)
        return (
            "Set-up, step 2 of 2: crown each of your shadow alliances with a card of your "
            f"own ({left} to place); they turn face up together. Which card?"
        )
    if view.legal and view.legal[0].kind == "stuck":
        return "You hold no card you may play."
    return "Your turn: which card will you play?"


def _resolve_prompt(s: State, hits: bool) -> str:
    if s.pending is None:
        return "Resolve your strike"
    slot, pc, pv, hidden = s.pending
    head = f"The hidden card is {long_name(hidden)}. Your strike totals {_strike_total(s)}"
    if not hits:
        return f"{head}. No stack has that total: the strike fizzles."
    return f"{head}: choose the stack it eliminates."


def _strike_total(s: State) -> str:
    assert s.pending is not None
    slot, pc, pv, hidden = s.pending
    a = s.alliances[s.turn][slot]
    top = a[2] if a is not None else 0
    jesters = sum(1 for c in (top, hidden) if c >= 0 and c % RANKS == JESTER)
    fixed = pv + sum(RANK_VALUE[c % RANKS] for c in (top, hidden) if c % RANKS != JESTER)
    if not jesters:
        return str(fixed)
    return f"{fixed + jesters} to {fixed + 10 * jesters} (a Jester is yours to declare)"


def question(view: TableView, actions: tuple[Action, ...], asked: tuple[str, ...]) -> Question | None:
    return next_question(levels(view), actions, asked)
