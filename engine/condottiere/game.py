"""Condottiere behind the engine contract: the checked door, the outcome, and the rules object
that the command line, the table and the network use.

The checked door ``apply`` takes input from people and peers. It raises ``InvalidActionError``
for anything that is not an ``Action`` of a known kind with fields of the right types, and
``IllegalActionError`` for a well-formed action the rules do not allow now. On a masked state
(another seat's view) an action may name cards the state cannot see: a card played from a
masked hand, a whole hand shown when discarded, a card drawn or kept, or ``UNKNOWN`` for a card
played face down, drawn or kept unseen. It is legal when it would be with those cards in the
hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.condottiere import rules, text
from engine.condottiere import state as condottiere_state
from engine.condottiere.cards import KINDS
from engine.condottiere.state import (
    ACTION_KINDS,
    DEFAULT_TARGET,
    NO_CARD,
    NONE,
    OPTIONS,
    VARIANTS,
    Action,
    CondottiereConfig,
    State,
)
from engine.condottiere.view import face_down_kinds, public_action, view
from engine.core import UNKNOWN, IllegalActionError, InvalidActionError, Outcome, RulesBase

END_TEXT = {
    rules.END_ADJACENT: "a player holds enough connected regions",
    rules.END_TOTAL: "a player holds enough regions in all",
    rules.END_EXHAUSTED: "no region was left to fight for; the most regions won",
    rules.END_LIMIT: "the long war: the battle limit was reached; the most regions won",
    rules.END_FINAL: "a tie for the most regions was settled by a final battle",
    rules.END_TARGET: "a player reached the target score",
    rules.END_GAME_LIMIT: "the match reached its game limit; the most points won",
    rules.END_MATCH_FINAL: "a tie for the most points was settled by a final battle",
}


def _check_form(action: object) -> Action:
    if isinstance(action, dict):
        return Action.from_data(action)
    if not isinstance(action, Action):
        raise InvalidActionError(f"not a Condottiere action: {action!r}")
    if (
        action.kind not in ACTION_KINDS
        or any(type(x) is not int for x in action[1:8])
        or not isinstance(action.cards, tuple)
        or any(type(c) is not int or not UNKNOWN <= c < KINDS for c in action.cards)
        or not (action.card == NO_CARD or UNKNOWN <= action.card < KINDS)
    ):
        raise InvalidActionError(f"malformed action {action!r}")
    return action


def _with_hand(state: State, seat: int, cards: tuple[int, ...], whole: bool = False) -> State | None:
    """``state`` with ``seat``'s masked cards taken to include ``cards`` (``whole``: to be
    exactly ``cards``), if that fits what the state knows of the hand; else ``None``."""
    hand = state.hands[seat]
    if UNKNOWN not in hand:
        return None
    rest = list(hand)
    for c in cards:
        if c == UNKNOWN:
            continue
        if c in rest:
            rest.remove(c)
        elif UNKNOWN in rest:
            rest.remove(UNKNOWN)
        else:
            return None
    if whole:
        if rest or UNKNOWN in cards:
            return None
        new = sorted(cards)
    else:
        new = sorted(rest + [c for c in cards if c != UNKNOWN])
    s = state.copy()
    s.hands = s.hands[:seat] + (tuple(new),) + s.hands[seat + 1 :]
    return s


def _masked_ok(state: State, a: Action) -> bool:
    """Whether ``a`` is legal in the masked ``state`` with some cards in place of its unknowns."""
    k = a.kind
    phase = state.phase
    if k == "draw":
        return (
            phase == "deal"
            and a.seat == state.turn
            and state.pile[-1] > 0
            and a.cards == ()
            and a.region == a.taken == a.position == a.draws == a.flip == NONE
        )
    if k == "play" and phase == "play" and a.seat == state.turn:
        if a.card == UNKNOWN:
            # a play the viewer learnt face down: what it learns of a legal play of some card
            for c in sorted(face_down_kinds(state.config)):
                probe = a._replace(card=c)
                if public_action(state, probe, state.viewer) != a:
                    return False
                widened = _with_hand(state, a.seat, (c,))
                if widened is not None and probe in rules.legal_actions(widened):
                    return True
            return False
        widened = _with_hand(state, a.seat, (a.card,))
        return widened is not None and a in rules.legal_actions(widened)
    if k == "discard" and phase == "discard" and a.seat == state.turn:
        widened = _with_hand(state, a.seat, a.cards, whole=True)
        return widened is not None and a in rules.legal_actions(widened)
    if k == "keep" and phase == "keep" and a.seat == state.turn:
        widened = _with_hand(state, a.seat, a.cards)
        return widened is not None and a in rules.legal_actions(widened)
    return False


def apply(state: State, action: object) -> State:
    """The checked door: validate ``action`` and apply it."""
    a = _check_form(action)
    if state.phase == "over":
        raise IllegalActionError(f"{a!r}: the game is over ({state.end})")
    if a in rules.legal_actions(state) or _masked_ok(state, a):
        return rules.apply_unchecked(state, a)
    try:
        said = text.action_text(state, a)
    except (IndexError, KeyError, ValueError, TypeError):
        said = repr(a)
    raise IllegalActionError(f"illegal action {said!r} ({a!r}): {text.summary(state)}")


def scores(state: State) -> tuple[int, ...]:
    """Regions held now, or match points under Playing For Points."""
    if state.config.playing_for_points:
        return state.points
    return state.region_counts()


def outcome(state: State) -> Outcome:
    if state.phase != "over":
        raise ValueError("the game is not over")
    detail: dict[str, Any] = {"text": END_TEXT[state.end], "battles": state.battles}
    if state.config.playing_for_points:
        detail["games"] = state.games
        detail["regions"] = state.region_counts()
    if state.end == rules.END_FINAL and state.won_by:
        detail["text"] += f" ({END_TEXT[state.won_by]})"
    return Outcome(scores(state), state.winners, state.end, state.turns, detail)


def make_config(players: int, options: Mapping[str, object]) -> CondottiereConfig:
    """A configuration from a player count and ``--option`` values; ``ValueError`` if bad."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown option {unknown[0]!r} for condottiere (options: {', '.join(OPTIONS)})"
        )
    flags: dict[str, bool] = {}
    target = DEFAULT_TARGET
    for name in OPTIONS:
        value = options.get(name, False)
        if name == "playing_for_points":
            if value is True:
                flags["playing_for_points"] = True
            elif value is False:
                flags["playing_for_points"] = False
            elif type(value) is int:
                flags["playing_for_points"] = True
                target = value
            else:
                raise ValueError(f"playing_for_points takes a target score, not {value!r}")
        elif value not in (True, False):
            raise ValueError(f"{name} takes no value")
        else:
            flags[name] = bool(value)
    return CondottiereConfig(players, target_score=target, **flags)


class CondottiereRules(RulesBase[State, Action, CondottiereConfig]):
    """Condottiere behind the engine contract (``engine.core.GameRules``)."""

    name = "condottiere"
    title = "Condottiere"
    min_players, max_players = 2, 6
    variants = VARIANTS
    seat_names = text.SEAT_NAMES
    Config = CondottiereConfig
    Action = Action
    State = State

    def new_game(self, config: CondottiereConfig | None = None) -> condottiere_state.State:
        return rules.new_game(config)

    def make_config(self, players: int, options: Mapping[str, object]) -> CondottiereConfig:
        return make_config(players, options)

    def config_warnings(self, config: CondottiereConfig) -> list[str]:
        return config.warnings()

    current_player = staticmethod(rules.current_player)
    legal_actions = staticmethod(rules.legal_actions)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    revealer = staticmethod(rules.revealer)
    apply_unchecked = staticmethod(rules.apply_unchecked)
    apply = staticmethod(apply)
    outcome = staticmethod(outcome)
    view = staticmethod(view)
    public_action = staticmethod(public_action)
    scores = staticmethod(scores)

    def action_text(
        self,
        state: condottiere_state.State,
        action: condottiere_state.Action,
        viewer: int | None = None,
    ) -> str:
        return text.action_text(state, action, viewer)


RULES = CondottiereRules()
