"""The end-of-game replay under seed dealing: the whole game again, with every card known.

When the last ``end`` entry is in, every commitment is open: a peer knows every secret choice
(the cards placed face down, put under a deck, turned up), and from the seed it knows every
card dealt. So it can play the game again from the start with the full state, every action
through the rules' checked door, and so check what no view could during the game: that every
card a seat played, placed or showed really was in its hand. The first step that the full rules
refuse names its author: ``CheatDetected(seat, step, reason)``.

Condottiere's seed dealer already follows the game with every card known, checking each
action as it comes (``net.dealer``), so only games whose dealer does not (Court of the Medici)
need this replay. With the fair deck the end-of-game audit takes its place.
"""

from __future__ import annotations

from typing import Any

from engine.core import CHANCE, IllegalActionError, InvalidActionError
from net.dealer import seed_dealer
from net.errors import CheatDetected
from net.policy import make_policy

REPLAYED = {"medici"}


def replay(table: Any) -> CheatDetected | None:
    """Replay ``table``'s finished game with full knowledge; the first cheat found, or ``None``."""
    rules = table.rules
    dealer = seed_dealer(table.game, table.seed, table.config)
    policy = make_policy(table.game, table.config)
    state = rules.new_game(table.config)

    def advance(state: Any) -> Any:
        while rules.current_player(state) == CHANCE:
            action = dealer.chance(state, state.turn)
            if action is None:
                break  # a card only its owner knows: it comes in the owner's entry
            policy.note(state, action)
            state = rules.apply_unchecked(state, action)
        return state

    state = advance(state)
    for entry in table.transcript.entries:
        if entry.kind == "forfeit":
            return None
        if entry.kind != "act":
            continue
        author, seq = entry.author, entry.seq
        try:
            action = rules.action_from_data(entry.fields["action"])
            slot = policy.hidden_slot(action)
            if slot is not None:
                action = policy.with_card(action, table.revealed[(author, slot)])
            else:
                action = policy.reader_actions(action, entry.fields, True)[1]
            after = rules.apply(state, action)
        except (IllegalActionError, InvalidActionError, ValueError, KeyError) as err:
            return CheatDetected(author, seq, f"the replay with every card known refuses it: {err}")
        policy.note(state, action)
        state = advance(after)
    return None
