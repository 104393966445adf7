"""Court of the Medici behind the engine contract: the checked door, the outcome, the rules
object that the command line, the table and the network use.

The checked door ``apply`` takes input from people and peers. It raises
``InvalidActionError`` for anything that is not an ``Action`` of a known kind with int fields,
and ``IllegalActionError`` for a well-formed action the rules do not allow now: whether the
rules allow it is ``legality.is_legal``, the same answer as looking the action up in
``rules.legal_actions`` without listing them. On a masked
state (a view), an action may name a card the state does not know (a card a seat plays from a
hand the view cannot see) or ``UNKNOWN`` (a card placed face down or under a deck): it is
legal when it would be with that card in the hand, and the card is one of the seat's house with
a copy nobody can see elsewhere. A ``stuck`` is accepted on a masked state when the hidden part
of the hand could hold only unplayable cards. A peer that follows a game on its own view thus
accepts every action of the game as it hears it. Every claim such a view cannot check is about
a card that goes face down, where any card of the hand may go, or is checked when the card is
shown: a network game shows the whole hand with a ``stuck``, and a striker's own hidden card
with its reveal (``rules.legal_actions``: that reveal must make a match).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import UNKNOWN, IllegalActionError, InvalidActionError, Outcome, RulesBase
from engine.medici import rules, setup, text
from engine.medici import state as medici_state
from engine.medici.cards import COPIES, HOUSES, RANK_VALUE, RANKS, house_of
from engine.medici.legality import is_legal
from engine.medici.state import KINDS, NO_LIMIT, OPTIONS, VARIANTS, Action, MediciConfig, State
from engine.medici.view import draw_shown, public_action, view

END_TEXT = {
    rules.END_ALLIANCES: "a player has no shadow alliances left",
    rules.END_ALL_STRUCK: "no player has a shadow alliance left",
    rules.END_STUCK: "a player started a turn with no card it could play",
}


def _check_form(action: object) -> Action:
    if isinstance(action, dict):
        return Action.from_data(action)
    if not isinstance(action, Action):
        raise InvalidActionError(f"not a Court of the Medici action: {action!r}")
    if action.kind not in KINDS or any(type(x) is not int for x in action[1:]):
        raise InvalidActionError(f"malformed action {action!r}")
    return action


def _could_be_hidden(state: State, seat: int, card: int) -> bool:
    """Whether ``card`` may be one of ``seat``'s cards that this state does not show: a card of
    its house with a copy that nobody can see elsewhere."""
    if not 0 <= card < len(HOUSES) * RANKS or house_of(card) != seat:
        return False
    return rules._seen(state)[card] < COPIES[card % RANKS]


def _with_card_in_hand(state: State, seat: int, card: int) -> State | None:
    """The state with one ``UNKNOWN`` of ``seat``'s hand taken to be ``card``, if that fits."""
    hand = state.hands[seat]
    if card in hand or UNKNOWN not in hand or not _could_be_hidden(state, seat, card):
        return None
    s = state.copy()
    i = hand.index(UNKNOWN)
    s.hands = s.hands[:seat] + (tuple(sorted(hand[:i] + hand[i + 1 :] + (card,))),) + s.hands[seat + 1 :]
    return s


def _masked_draw_ok(state: State, a: Action) -> bool:
    if state.phase not in ("deal", "draw") or a.seat != state.turn:
        return False
    deck = state.pools[a.seat] or state.bottoms[a.seat][:1]
    if UNKNOWN not in deck:
        return False
    if a.card == UNKNOWN:
        return not draw_shown(state, a.seat)
    return _could_be_hidden(state, a.seat, a.card)


def _masked_stuck_ok(state: State, a: Action) -> bool:
    """On a masked state: ``stuck`` is accepted when the cards of the hand this state does not
    show could all be unplayable under the seat's limit (a network game shows the hand with it)."""
    seat = a.seat
    if state.phase != "play" or seat != state.turn or a != Action("stuck", seat):
        return False
    hand, limit = state.hands[seat], state.limits[seat]
    if UNKNOWN not in hand or limit == NO_LIMIT:
        return False
    if any(c != UNKNOWN and rules._values(c, limit) for c in hand):
        return False
    base = seat * RANKS
    return any(
        not rules._values(base + r, limit) and _could_be_hidden(state, seat, base + r)
        for r in range(RANKS)
    )


def apply(state: State, action: object) -> State:
    """The checked door: validate ``action`` and apply it."""
    a = _check_form(action)
    if state.phase == "over":
        raise IllegalActionError(f"{a!r}: the game is over ({state.end})")
    if not 0 <= a.seat < state.players:
        raise IllegalActionError(f"{a!r}: there is no seat {a.seat} in a {state.players}-player game")
    if is_legal(state, a):
        return rules.apply_unchecked(state, a)
    if a.kind == "draw" and _masked_draw_ok(state, a):
        return rules.apply_unchecked(state, a)
    if a.kind == "stuck" and _masked_stuck_ok(state, a):
        return rules.apply_unchecked(state, a)
    if a.kind not in ("draw", "first", "reveal", "flip", "resolve", "stuck"):
        widened = _with_card_in_hand(state, a.seat, a.card)
        if widened is not None and is_legal(widened, a):
            return rules.apply_unchecked(state, a)
    try:
        said = text.action_text(state, a)
    except (IndexError, KeyError, ValueError, TypeError):
        said = repr(a)
    raise IllegalActionError(f"illegal action {said!r} ({a!r}): {text.summary(state)}")


def scores(state: State) -> tuple[int, ...]:
    """Each house's influence in the middle (a Jester scores 1)."""
    out = [0] * state.players
    for _, _, cards in state.middle:
        for c, _ in cards:
            out[c // RANKS] += RANK_VALUE[c % RANKS]
    return tuple(out)


def best_cards(state: State) -> tuple[int, ...]:
    """Each house's single highest card value in the middle (-1 if none): the tie-break."""
    out = [-1] * state.players
    for _, _, cards in state.middle:
        for c, _ in cards:
            h = c // RANKS
            out[h] = max(out[h], RANK_VALUE[c % RANKS])
    return tuple(out)


def outcome(state: State) -> Outcome:
    if state.phase != "over":
        raise ValueError("the game is not over")
    sc = scores(state)
    top = max(sc)
    tied = [i for i, x in enumerate(sc) if x == top]
    if len(tied) > 1:
        best = best_cards(state)
        high = max(best[i] for i in tied)
        tied = [i for i in tied if best[i] == high]
    return Outcome(sc, tuple(tied), state.end, state.turns, {"text": END_TEXT[state.end]})


class MediciRules(RulesBase[State, Action, MediciConfig]):
    """Court of the Medici: Shadow Alliances behind the engine contract
    (``engine.core.GameRules``)."""

    name = "medici"
    title = "Court of the Medici: Shadow Alliances"
    min_players, max_players = 3, 4
    variants = VARIANTS
    seat_names = HOUSES
    Config = MediciConfig
    Action = Action
    State = State

    def new_game(self, config: MediciConfig | None = None) -> medici_state.State:
        return rules.new_game(config)

    def make_config(self, players: int, options: Mapping[str, object]) -> MediciConfig:
        unknown = set(options) - set(OPTIONS) - {"ages"}
        if unknown:
            raise ValueError(
                f"unknown option {sorted(unknown)[0]!r} for medici (options: {', '.join(OPTIONS)})"
            )
        flags: dict[str, bool] = {}
        for name in OPTIONS:
            flag = options.get(name, False)
            if flag not in (True, False):
                raise ValueError(f"{name} takes no value")
            flags[name] = bool(flag)
        ages = options.get("ages", ())
        if not isinstance(ages, (list, tuple)):
            raise ValueError("ages takes one age per player")
        return MediciConfig(players, ages=tuple(ages), **flags)

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
    #: the set-up's choices a seat may make ahead of its turn, and who has placed
    #: (``engine.medici.setup``)
    setup_after = staticmethod(setup.after)

    def setup_choices(self, view: medici_state.State, seat: int,
                      queued: Sequence[medici_state.Action] = ()) -> list[medici_state.Action]:
        return setup.choices(view, seat, queued)

    def setup_placed(self, view: medici_state.State) -> tuple[int, ...]:
        return setup.placed(view)

    def setup_owed(self, view: medici_state.State) -> int:
        return setup.owed(view)

    def action_text(
        self, state: medici_state.State, action: medici_state.Action, viewer: int | None = None
    ) -> str:
        return text.action_text(state, action, viewer)


RULES = MediciRules()
