"""Search bots for hidden information: information-set Monte Carlo tree search.

``ismcts`` holds the game-independent search, ``determinize`` the game-independent half of
sampling the hidden cards, ``game`` the ``SearchGame`` interface a game offers the search, and
one module per game (``medici``, ``condottiere``) its determinizer, observations and rollout policies,
with its rollouts played in place and without listing every legal action in ``medici_sim`` and
``condottiere_sim``. ``bot.SearchBot`` is the bot the registry builds.
"""
