"""What a networked game keeps on disk, and the reading of it again.

``journal`` (a seat's journal: every entry it signed, kept before it is sent, so that it never
signs two different entries for one place), ``resume`` (the host's record of a game, written
entry by entry, from which a restarted host resumes it) and ``verify`` (a saved record checked
on its own, from scratch, by an observer's table: ``palazzo verify``).

What may live here: files, their formats and their checks. What may not: sockets or asyncio,
or a rule of the game or of the protocol that a machine does not also apply: a record is read
by the very ``Table`` every peer uses (``net.session.machines``).
"""
