"""What each game keeps secret on the wire: which actions hide a card, and which open one.

A policy answers, for the actions of one game:

* ``hidden_slot(action)``: the commitment slot when the action puts a card face down (the
  author commits to the card; everyone else applies ``public(action)``, the card ``UNKNOWN``);
* ``opening(view, action)``: ``(seat, slot)`` when the action shows a card that ``seat``
  committed to at ``slot`` (the author adds the salt; everyone checks it);
* ``chance_writer(view)``: the seat that must write a chance step in an entry because only it
  knows the card (``None``: the dealer resolves it);
* ``note(view, action)``: called after every applied action, to count what slots depend on;
* ``shown_fields(view, action)`` and ``prepare(view, action, fields)``: cards an action must show
  to be checked (the author adds them; a reader puts them into its view before the rules check);
* ``reader_actions(action, fields, is_author)``: from a public action on the wire, the action
  for the reader's own view and the action for the dealer (which may learn more, see
  ``net.dealer``); ``ValueError`` when the fields do not fit.

Court of the Medici:

=======  ==================  ===========================================================
action   slot                opened by
=======  ==================  ===========================================================
hide     ``hide/<holder>``   ``reveal`` (a strike on that alliance), or the end of the game
top      ``top/<slot>``      ``flip`` (all tops turn up together once every seat placed)
plan     ``plan/<n>``        the draw of the deck's last card if it is this one, or the end
=======  ==================  ===========================================================

``stuck`` (the seat holds no card it may play under its empty-deck limit, and the game ends) is
checked against the seat's hand, which it shows in the entry (``hand``): the game is over, so
showing it costs nothing, and without it no other peer could check the claim.

``n`` counts the seat's plans from 0; cards come back from under a deck in the order they went
down, so the seat's k-th draw from under its deck is ``plan/k``.
"""

from __future__ import annotations

from typing import Any

from engine.core import CHANCE, UNKNOWN


class MediciPolicy:
    def __init__(self, players: int) -> None:
        self.plans = [0] * players
        self.bottom_draws = [0] * players

    def hidden_slot(self, action: Any) -> str | None:
        if action.kind in ("hide", "top"):
            return f"{action.kind}/{action.target}"
        if action.kind == "plan":
            return f"plan/{self.plans[action.seat]}"
        return None

    def public(self, action: Any) -> Any:
        if action.kind in ("hide", "top", "plan"):
            return action._replace(card=UNKNOWN)
        return action

    def with_card(self, action: Any, card: int) -> Any:
        """The author's own form of a public action: the face-down card named."""
        return action._replace(card=card)

    def own_chance(self, view: Any, me: int) -> Any:
        """The chance step that seat ``me`` alone can write: the last card, from under its deck."""
        from engine.medici.state import mk

        return mk("draw", me, view.bottoms[me][0])

    def opening(self, view: Any, action: Any) -> tuple[int, str] | None:
        if action.kind == "flip":
            return action.seat, f"top/{action.target}"
        if action.kind == "reveal":
            return action.seat, f"hide/{view.turn}"
        if action.kind == "draw" and self.chance_writer(view) == action.seat:
            return action.seat, f"plan/{self.bottom_draws[action.seat]}"
        return None

    def reader_actions(self, action: Any, fields: dict[str, Any], is_author: bool) -> tuple[Any, Any]:
        return action, action

    def shown_fields(self, view: Any, action: Any) -> dict[str, Any]:
        if action.kind == "stuck":
            return {"hand": list(view.hands[action.seat])}
        return {}

    def prepare(self, view: Any, action: Any, fields: dict[str, Any]) -> Any:
        """The view to check ``action`` on, with the cards the entry shows put in; ``ValueError``
        when what it shows does not fit what this view knows."""
        if action.kind != "stuck" or UNKNOWN not in view.hands[action.seat]:
            return view
        hand, seen = fields.get("hand"), view.hands[action.seat]
        if type(hand) is not list or len(hand) != len(seen) or any(type(c) is not int for c in hand):
            raise ValueError("a stuck seat shows its whole hand as a list of cards")
        rest = list(hand)
        for c in seen:
            if c != UNKNOWN:
                if c not in rest:
                    raise ValueError("the hand shown leaves out a card everyone saw")
                rest.remove(c)
        if any(c // 13 != action.seat or c < 0 for c in rest):
            raise ValueError("the hand shown holds a card of another house")
        v = view.copy()
        v.hands = v.hands[: action.seat] + (tuple(sorted(hand)),) + v.hands[action.seat + 1 :]
        return v

    def chance_writer(self, view: Any) -> int | None:
        from engine.medici.rules import current_player

        if current_player(view) != CHANCE or view.phase not in ("deal", "draw"):
            return None
        seat = view.turn
        if not view.pools[seat] and len(view.bottoms[seat]) == 1:
            return seat
        return None

    def note(self, before: Any, action: Any) -> None:
        if action.kind == "plan":
            self.plans[action.seat] += 1
        elif action.kind == "draw" and not before.pools[action.seat]:
            self.bottom_draws[action.seat] += 1


class CondottierePolicy:
    """Condottiere. Only the Hidden Cards variant hides a choice: a mercenary, Heroine, Courtesan
    or Drummer played face down (slot ``down/<n>``, the seat's n-th face-down card from 0),
    opened by the ``reveal`` that turns it up (after a later play, or at the showdown).

    Face-down cards never move within a line, so the k-th face-down card of a seat's line, in
    line order, is the k-th of the seat's open slots in the order they were played.

    In seed dealing (``net.dealer``), the cards a seat keeps at the end of a round are shown in
    its ``keep`` entry (field ``kept``) for the dealers to follow the pile; the action itself
    is public with the cards ``UNKNOWN``, so no view holds them. With the fair deck they stay
    hidden.
    """

    def __init__(self, config: Any) -> None:
        from engine.condottiere.cards import FACE_DOWN_KINDS

        self.hidden = bool(config.hidden_cards)
        self.face_down = FACE_DOWN_KINDS
        self.downs = [0] * config.players
        self.open: list[list[int]] = [[] for _ in range(config.players)]

    def _is_face_down(self, action: Any) -> bool:
        return (self.hidden and action.kind == "play"
                and (action.card == UNKNOWN or action.card in self.face_down))

    def hidden_slot(self, action: Any) -> str | None:
        if self._is_face_down(action):
            return f"down/{self.downs[action.seat]}"
        return None

    def public(self, action: Any) -> Any:
        if self._is_face_down(action):
            return action._replace(card=UNKNOWN)
        if action.kind == "keep":
            return action._replace(cards=(UNKNOWN,) * len(action.cards))
        return action

    def reader_actions(self, action: Any, fields: dict[str, Any], is_author: bool) -> tuple[Any, Any]:
        if action.kind != "keep":
            return action, action
        kept = fields.get("kept")
        if type(kept) is not list or len(kept) != len(action.cards) or any(
            type(c) is not int or c < 0 for c in kept
        ):
            raise ValueError("a keep entry shows the kept cards (for seed dealing) in 'kept'")
        full = action._replace(cards=tuple(sorted(kept)))
        return (full if is_author else action), full

    def with_card(self, action: Any, card: int) -> Any:
        return action._replace(card=card)

    def own_chance(self, view: Any, me: int) -> Any:
        raise AssertionError("every Condottiere chance step is the dealer's")

    def _ordinal(self, view: Any, seat: int, pos: int) -> int:
        line = view.lines[seat]
        if not 0 <= pos < len(line) or line[pos][1]:
            raise ValueError(f"no face-down card at position {pos}")
        return sum(1 for _, up in line[:pos] if not up)

    def opening(self, view: Any, action: Any) -> tuple[int, str] | None:
        if action.kind != "reveal":
            return None
        try:
            k = self._ordinal(view, action.seat, action.target)
            return action.seat, f"down/{self.open[action.seat][k]}"
        except (ValueError, IndexError):
            return action.seat, "down/none"

    def chance_writer(self, view: Any) -> int | None:
        return None

    def shown_fields(self, view: Any, action: Any) -> dict[str, Any]:
        return {"kept": list(action.cards)} if action.kind == "keep" else {}

    def prepare(self, view: Any, action: Any, fields: dict[str, Any]) -> Any:
        """A reader that knows some cards of a hand (a mercenary a Scarecrow took back) and sees
        an unknown card leave it forgets which cards it knew there, so the rules can apply the
        masked action (a reader that knows less checks less, and never wrongly)."""
        masked = (action.kind == "play" and action.card == UNKNOWN) or (
            action.kind == "keep" and UNKNOWN in action.cards)
        hand = view.hands[action.seat]
        if not masked or all(c == UNKNOWN for c in hand):
            return view
        v = view.copy()
        v.hands = v.hands[: action.seat] + ((UNKNOWN,) * len(hand),) + v.hands[action.seat + 1 :]
        return v

    def note(self, before: Any, action: Any) -> None:
        seat = action.seat
        if self._is_face_down(action):
            self.open[seat].append(self.downs[seat])
            self.downs[seat] += 1
        elif action.kind == "reveal":
            self.open[seat].pop(self._ordinal(before, seat, action.target))


POLICIES: dict[str, Any] = {
    "medici": lambda config: MediciPolicy(config.players),
    "condottiere": CondottierePolicy,
}


def make_policy(game: str, config: Any) -> Any:
    try:
        return POLICIES[game](config)
    except KeyError:
        raise ValueError(f"no network policy for the game {game!r}") from None
