"""The features of a networked game, one rule set each, applied by the machines through hooks.

``presence`` (who is here, away or gone, and the grace period), ``chat`` (table talk, signed by
its authors), ``rematch`` (the same seats again after the end), ``watch`` (watchers: the host's
rules for a connection without a seat), ``timeout`` (the move a seat's program plays when the
player let the turn limit pass), ``code`` (the game code, its budget of checks and its delays per address) and
``limits`` (what a stranger, a seat or a watcher may cost the host).

What may live here: sans-IO rules and their small state, each about one feature, with its
rules in its module docstring. What may not: asyncio, sockets, files, a clock that was not
given, or an import of a machine (``net.session.machines``) other than for a type annotation:
a machine calls a feature, never the other way round.
"""
