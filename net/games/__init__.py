"""The fair dealers: one per game, between the rules and the fair deck.

``dealer.FairDealer`` reads and writes the deck entries of a networked game and settles each
move's cards; ``medici`` and ``condottiere`` say, for their game, which decks exist, which cards
the rules deal, show or hide, and which fields an ``act`` entry carries. A new game gets a dealer
here (``docs/extending.md``); sessions name it in ``net.session.machines.entries.DEALERS``.
"""
