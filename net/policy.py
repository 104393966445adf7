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
  to be checked (the author adds them; a reader puts them into its view before the rules check).

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


POLICIES: dict[str, Any] = {"medici": MediciPolicy}


def make_policy(game: str, config: Any) -> Any:
    try:
        return POLICIES[game](config.players)
    except KeyError:
        raise ValueError(f"no network policy for the game {game!r}") from None
