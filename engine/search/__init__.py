"""Search bots for hidden information: information-set Monte Carlo tree search.

``ismcts`` holds the game-independent search, ``determinize`` the game-independent half of
sampling the hidden cards, ``game`` the ``SearchGame`` interface a game offers the search, and
one module per game (``medici``, ``condottiere``) its determinizer, observations and rollout policies,
``medici_beliefs`` (with its tables in ``medici_model``) what a Court of the Medici seat believes of
the cards it cannot see from what the other seats' choices show (the search draws its hidden
cards so; Condottiere's are drawn uniformly among the deals its view allows),
with its rollouts played in place and without listing every legal action in ``medici_sim`` and
``condottiere_sim``. ``bot.SearchBot`` is the bot the registry builds; ``coach`` the hints and
their chance to win, calibrated to the opponents at the table. No bot, search or rollout reads a
card its seat cannot see: the bots mask what they are handed to their seat's view, the draws
depend on that view alone, and a rollout's striker plans on a guess, not the dealt card.
"""
