"""High Card: a third game written from the contract alone (``engine.core.GameRules``), to show
that the contract says everything a game must offer.

Two seats. A chance step deals each seat one card, face down, from five (``0`` to ``4``). Seat 0
then checks or raises; after a raise seat 1 calls or folds. Unless someone folded, each seat in
turn shows its card (a reveal step) and the higher card wins the pot: 1 for a check, 2 for a
call, and 2 more for each under the variant ``high_stakes``. A fold gives the pot of 1 to the
raiser. The variant ``ante`` (a number) adds that many to every pot.

A seat's view hides the other seat's card until it is shown (``UNKNOWN``); a deal of the other
seat's card is heard as the deal of an ``UNKNOWN`` card. Nothing here reads another game's code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from engine.core import (
    CHANCE,
    REVEAL,
    TERMINAL,
    UNKNOWN,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    Option,
    Outcome,
    RulesBase,
    action_kind,
)
from engine.registry import GameEntry

CARDS = 5
#: a card not dealt yet
NONE = -2
KINDS = ("deal", "check", "raise", "call", "fold", "show")
PHASES = ("deal", "bet", "answer", "show", "over")
VARIANTS = (
    Option("high_stakes", "High stakes (a call wins 4)"),
    Option("ante", "An ante added to every pot", values=(1, 2), value_words="ante {}"),
)


@dataclass(frozen=True)
class ToyConfig:
    players: int = 2
    high_stakes: bool = False
    ante: int = 0

    def __post_init__(self) -> None:
        if self.players != 2 or type(self.high_stakes) is not bool:
            raise ValueError(f"High Card is for 2 players, not {self.players}")
        if type(self.ante) is not int or not 0 <= self.ante <= 9:
            raise ValueError(f"the ante is 0 to 9, not {self.ante!r}")

    def to_data(self) -> dict[str, Any]:
        return {"players": self.players, "high_stakes": self.high_stakes, "ante": self.ante}

    @classmethod
    def from_data(cls, data: object) -> ToyConfig:
        if not isinstance(data, dict) or set(data) - {"players", "high_stakes", "ante"}:
            raise InvalidStateError(f"not a High Card configuration: {data!r}")
        try:
            return cls(**data)
        except (TypeError, ValueError) as e:
            raise InvalidStateError(str(e)) from None


class ToyAction(NamedTuple):
    kind: str
    seat: int
    card: int = NONE

    def to_data(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.card != NONE:
            d["card"] = self.card
        return d

    @classmethod
    def from_data(cls, data: object) -> ToyAction:
        kind = action_kind(data, ("kind", "seat", "card"), KINDS)
        assert isinstance(data, dict)
        seat, card = data.get("seat"), data.get("card", NONE)
        if type(seat) is not int or not 0 <= seat < 2:
            raise InvalidActionError(f"action field seat must be 0 or 1, not {seat!r}")
        if type(card) is not int or not NONE <= card < CARDS:
            raise InvalidActionError(f"action field card must be a card, not {card!r}")
        return cls(kind, seat, card)


@dataclass(frozen=True)
class ToyState:
    config: ToyConfig
    phase: str = "deal"
    turn: int = 0
    cards: tuple[int, int] = (NONE, NONE)
    shown: tuple[bool, bool] = (False, False)
    pot: int = 1
    winner: int = -1

    @property
    def players(self) -> int:
        return self.config.players

    def to_data(self) -> dict[str, Any]:
        return {"config": self.config.to_data(), "phase": self.phase, "turn": self.turn,
                "cards": list(self.cards), "shown": list(self.shown), "pot": self.pot,
                "winner": self.winner}

    @classmethod
    def from_data(cls, data: object) -> ToyState:
        if not isinstance(data, dict) or set(data) != set(cls(ToyConfig()).to_data()):
            raise InvalidStateError(f"not a High Card state: {data!r}")
        cards, shown = data["cards"], data["shown"]
        if (data["phase"] not in PHASES or not isinstance(cards, list) or len(cards) != 2
                or not isinstance(shown, list) or len(shown) != 2):
            raise InvalidStateError(f"not a High Card state: {data!r}")
        return cls(ToyConfig.from_data(data["config"]), data["phase"], data["turn"],
                   (cards[0], cards[1]), (shown[0], shown[1]), data["pot"], data["winner"])


def _set(pair: tuple[Any, Any], i: int, value: Any) -> Any:
    return (value, pair[1]) if i == 0 else (pair[0], value)


def current_player(state: ToyState) -> int:
    if state.phase == "deal":
        return CHANCE
    if state.phase == "show":
        return REVEAL
    if state.phase == "over":
        return TERMINAL
    return state.turn


def chance_outcomes(state: ToyState) -> list[tuple[ToyAction, float]]:
    if state.phase != "deal":
        return []
    other = state.cards[1 - state.turn]
    if other == UNKNOWN:  # a view: the card dealt to the unseen seat, or one not seen
        return [(ToyAction("deal", state.turn, UNKNOWN), 1.0)]
    left = [c for c in range(CARDS) if c != other]
    return [(ToyAction("deal", state.turn, c), 1 / len(left)) for c in left]


def revealer(state: ToyState) -> int:
    return state.turn if state.phase == "show" else -1


def legal_actions(state: ToyState) -> list[ToyAction]:
    s = state.phase
    if s == "deal":
        return [a for a, _ in chance_outcomes(state)]
    if s == "bet":
        return [ToyAction("check", 0), ToyAction("raise", 0)]
    if s == "answer":
        return [ToyAction("call", 1), ToyAction("fold", 1)]
    if s == "show":
        return [ToyAction("show", state.turn, state.cards[state.turn])]
    return []


def _showdown(state: ToyState) -> ToyState:
    a, b = state.cards
    return replace(state, phase="over", winner=0 if a > b else 1)


def apply_unchecked(state: ToyState, a: ToyAction) -> ToyState:
    ante = state.config.ante
    if a.kind == "deal":
        s = replace(state, cards=_set(state.cards, a.seat, a.card), turn=a.seat + 1)
        return replace(s, phase="bet", turn=0, pot=1 + ante) if a.seat == 1 else s
    if a.kind == "check":
        return replace(state, phase="show", turn=0)
    if a.kind == "raise":
        return replace(state, phase="answer", turn=1)
    if a.kind == "call":
        pot = (4 if state.config.high_stakes else 2) + ante
        return replace(state, phase="show", turn=0, pot=pot)
    if a.kind == "fold":
        return replace(state, phase="over", winner=0)
    s = replace(state, cards=_set(state.cards, a.seat, a.card), shown=_set(state.shown, a.seat, True))
    return _showdown(s) if a.seat == 1 else replace(s, turn=1)


def apply(state: ToyState, action: object) -> ToyState:
    """The checked door; on a view, a deal or a show of the card it cannot see is accepted."""
    a = ToyAction.from_data(action.to_data() if isinstance(action, ToyAction) else action)
    if a in legal_actions(state):
        return apply_unchecked(state, a)
    hidden = state.phase in ("deal", "show") and state.cards[a.seat] in (UNKNOWN, NONE)
    known = state.cards[1 - a.seat]
    if (hidden and a.kind == legal_actions(state)[0].kind and a.seat == state.turn
            and a.card != NONE and (a.card == UNKNOWN or a.card != known)):
        return apply_unchecked(state, a)
    raise IllegalActionError(f"illegal action {a!r} in phase {state.phase}")


def view(state: ToyState, seat: int) -> ToyState:
    cards = tuple(c if i == seat or state.shown[i] or c == NONE else UNKNOWN
                  for i, c in enumerate(state.cards))
    return replace(state, cards=(cards[0], cards[1]))


def public_action(state: ToyState, action: ToyAction, seat: int) -> ToyAction:
    """What ``seat`` learns of ``action``: a deal of the other seat's card is a deal of an
    ``UNKNOWN`` card; everything else is public."""
    if action.kind == "deal" and seat != action.seat:
        return action._replace(card=UNKNOWN)
    return action


def scores(state: ToyState) -> tuple[int, ...]:
    return tuple(state.pot if i == state.winner else 0 for i in range(2))


def outcome(state: ToyState) -> Outcome:
    if state.phase != "over":
        raise ValueError("the game is not over")
    return Outcome(scores(state), (state.winner,), "fold" if not state.shown[1] else "showdown",
                   1, {"text": "the higher card won"})


class ToyRules(RulesBase[ToyState, ToyAction, ToyConfig]):
    name = "highcard"
    title = "High Card"
    min_players, max_players = 2, 2
    seat_names = ("North", "South")
    variants = VARIANTS
    State = ToyState
    Action = ToyAction
    Config = ToyConfig

    def new_game(self, config: ToyConfig | None = None) -> ToyState:
        return ToyState(config or ToyConfig())

    def make_config(self, players: int, options: Mapping[str, object]) -> ToyConfig:
        unknown = set(options) - set(self.options)
        if unknown:
            raise ValueError(f"unknown option {sorted(unknown)[0]!r} for highcard")
        stakes, ante = options.get("high_stakes", False), options.get("ante", 0)
        if type(stakes) is not bool or type(ante) is not int:
            raise ValueError("high_stakes takes no value; ante takes a number")
        return ToyConfig(players, stakes, ante)

    def config_warnings(self, config: ToyConfig) -> list[str]:
        return ["a big ante makes the bet matter little"] if config.ante > 1 else []

    current_player = staticmethod(current_player)
    legal_actions = staticmethod(legal_actions)
    chance_outcomes = staticmethod(chance_outcomes)
    revealer = staticmethod(revealer)
    apply_unchecked = staticmethod(apply_unchecked)
    apply = staticmethod(apply)
    outcome = staticmethod(outcome)
    view = staticmethod(view)
    public_action = staticmethod(public_action)
    scores = staticmethod(scores)

    def action_text(self, state: ToyState, action: ToyAction, viewer: int | None = None) -> str:
        who = self.seat_names[action.seat]
        if action.kind in ("deal", "show"):
            unseen = action.kind == "deal" and viewer not in (None, action.seat)
            card = "a card" if action.card == UNKNOWN or unseen else f"the {action.card}"
            return f"{who} is dealt {card}" if action.kind == "deal" else f"{who} shows {card}"
        return f"{who} {action.kind}s"


RULES = ToyRules()


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: ToyState, seat: int) -> ToyAction:
        return self.rng.choice(legal_actions(view))


class HighBot(RandomBot):
    """Raises and calls with a high card."""

    name = "high"

    def choose(self, view: ToyState, seat: int) -> ToyAction:
        good = view.cards[seat] >= 2
        return legal_actions(view)[1 if good == (seat == 0) else 0]


ENTRY = GameEntry(
    rules=RULES,
    bots={"random": lambda rng, settings: RandomBot(rng),
          "high": lambda rng, settings: HighBot(rng)},
    levels={"easy": ("random", {}), "normal": ("high", {})},
    default_bot="high",
)
