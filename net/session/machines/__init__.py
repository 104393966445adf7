"""The sans-IO state machines of a networked game: what each side says and checks, and nothing
of how the bytes travel.

``conversation`` (what the host and its peers say, step by step, and what both sides share),
``host_session`` and ``host_door`` (the host: the game, and who comes in and what they cost),
``peer_session`` (a seat), ``table`` (the replicated game every peer holds, checking each
signed entry), ``own_seat`` (a seat's own side of its table: its journal and what it signs),
``entries`` (the fields of each entry kind) and ``commit`` (the hash commitments of the seed).

What may live here: code that takes bytes or entries and returns bytes, entries or events.
What may not: asyncio, sockets, threads, files of its own, or a clock that was not given (each
machine takes ``clock`` and ``wall``); logging is allowed. What is kept on disk is handed in
(a seat's ``Journal``, the host's ``on_entry`` hook); a feature's rules live in
``net.session.features`` and are called through hooks.
"""
