"""The rules of palazzo's games: pure functions over immutable states, the standard library only.

Nothing here does input or output, keeps a clock or draws a random number of its own: a game is
a state machine (``engine.core``), and every step of it, a seat's decision, a card drawn by
chance, a face-down card shown, is an action in its history. The network (``net``) and the
table (``tui``) build on this package and never the other way round.

The contract, ``engine.core.GameRules[S, A, C]`` over a game's state, action and configuration
types, is everything the other layers use of a game:

* ``new_game(config)``, ``current_player(state)`` (a seat from 0, or ``CHANCE``, ``REVEAL``,
  ``TERMINAL``), ``legal_actions(state)`` in one canonical order, ``chance_outcomes(state)``;
* ``apply(state, action)``, the checked door for input from people and peers, and
  ``apply_unchecked`` for actions taken from ``legal_actions``;
* ``view(state, seat)``, the one place that hides cards, and ``public_action``, what a seat
  learns of an action;
* ``outcome(state)``, ``scores(state)``, ``action_text``, the options as data (``variants``)
  and the plain-data conversions of states, actions and configurations.

Every measure of a position (a battle line's strength, what wins, a hand's limit) is a function
of the state alone, which holds its configuration, and every layer that shows or weighs a rule
calls it (``docs/extending.md``). The games are found by name in ``engine.registry``, with their
bots and levels; ``engine.search`` is a search bot for any game of the contract.

A whole game, seeded, between two greedy bots:

>>> import random
>>> from engine.core import LocalGame
>>> from engine.registry import get_game
>>> entry = get_game("condottiere")
>>> rules = entry.rules
>>> game = LocalGame(rules, rules.make_config(2, {}), seed=1)
>>> bots = [entry.make_bot("greedy", random.Random(seat)) for seat in range(2)]
>>> outcome = game.play_out(bots)
>>> rules.is_over(game.state), len(outcome.scores), all(0 <= w < 2 for w in outcome.winners)
(True, 2, True)
"""
