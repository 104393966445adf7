"""Networked play: two to six players at one game over a LAN, none of whom must trust another.

Four packages, each leaning only on the ones before it (and on ``engine``, never on ``tui``):

* ``net.wire``: what goes over a connection and what is kept: identities and signatures, the
  msgpack-rpc codec, the signed transcript, and the protocol's errors.
* ``net.deck``: the fair "mental poker" deck: cards shuffled and dealt by every seat together,
  so that nobody, the host included, sees a card the rules do not show.
* ``net.games``: each game's fair dealer, which tells the deck which cards the rules deal,
  show and hide.
* ``net.session``: the sessions that play a game over the wire, in rooms by what they may touch
  (sans-IO machines, features, asyncio runners, records on disk, commands).

``docs/protocol.md`` gives the bytes; ``docs/security.md`` what each side can and cannot do.
"""
