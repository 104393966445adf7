"""The wire: what a connection carries and what a game's record holds, below any game.

``identity`` (Ed25519 keys, signatures, fingerprints), ``rpc`` (the msgpack-rpc
codec with its frame limits, and the wire error codes), ``transcript`` (the signed, chained
entries of a game and their file) and ``errors`` (the protocol errors, each saying whose fault
it was). Nothing here knows a game's rules, a deck or a session.
"""
