"""A hand masked anew: when a shown card comes back to a hand, no handle may link it later.

A card that was shown (opened) and comes back to its holder's hand (a Condottiere mercenary a
Scarecrow takes back) keeps the handle everyone saw opened: played or kept face down later, it
would be known to all. So its holder masks its whole hand anew, as it is once the card is back:

* ``make_rehand(deck, handles, context)``: the holder permutes the masked cards of ``handles``
  (its whole hand) and re-masks each under the joint key, with a shuffle proof (Terelius and
  Wikstrom, ``net.deck.shuffle_proof``) bound to ``rehand_context``: the game, the deck, the
  holder's seat, the old handles and the transcript hash before the entry. The message is
  ``{"type": "deck/rehand", "deck", "handles", "cards", "proof"}``.
* ``receive_rehand(deck, author, msg, context, hand)``: every reader checks that ``handles`` is
  exactly ``hand`` (the author's whole hand, in any order: each a card of the author's, in play,
  every other seat's share in) and the proof against the masked cards it holds; then the old
  handles leave play and the new masked cards are dealt to the author as new handles, in the
  order of ``cards``. Every other seat then owes its decryption share of each (a deal, without
  a draw: ``FairDealer.regiven``), so the holder learns which new handle is which card, as it
  learns a card dealt to it, and nobody else does.

Everybody still knows what the hand holds (the rules showed the card coming back); no handle
says where it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import shuffle_proof as sp
from net.deck.events import pack_handles, unpack, unpack_handles
from net.deck.fair_deck import FairDeck, _Dealt
from net.wire.errors import CheatDetected

REHAND_CONTEXT_TAG = b"palazzo/deck/rehand/v1"
REHAND = "deck/rehand"


def rehand_context(deck: FairDeck, seat: int, handles: Sequence[int], context: bytes) -> bytes:
    """What a hand's new masking is bound to (protocol, "A hand masked anew")."""
    return g.encode(REHAND_CONTEXT_TAG, deck.keys.game_id, deck.deck_id.encode(),
                    seat.to_bytes(2, "big"), b"".join(h.to_bytes(8, "big") for h in handles),
                    context)


def make_rehand(deck: FairDeck, handles: Sequence[int], context: bytes,
                seed: bytes | None = None) -> dict[str, Any]:
    """This seat's whole hand ``handles`` masked anew, with its proof (the permutation and the
    scalars come from ``os.urandom`` and are forgotten; ``seed`` makes them reproducible)."""
    if deck.seat is None:
        raise ValueError("an observer holds no hand")
    cards = [deck.ciphertext(h) for h in handles]
    draw = dc.fresh_draw(len(cards)) if seed is None else dc.shuffle_draw(seed, len(cards))
    out = dc.apply_draw(cards, draw, deck.keys.joint, group=deck.group)
    proof = sp.prove(deck.keys.joint, cards, out, draw.order, draw.scalars,
                     rehand_context(deck, deck.seat, handles, context), seed, group=deck.group)
    return {"type": REHAND, "deck": deck.deck_id, "handles": pack_handles(handles),
            "cards": b"".join(ct.to_bytes() for ct in out), "proof": proof}


def receive_rehand(deck: FairDeck, author: int, msg: Mapping[str, Any] | Any, context: bytes,
                   hand: Sequence[int]) -> list[int]:
    """Check ``author``'s new masking of its whole ``hand`` and take it: the new handles, in
    order (``CheatDetected`` naming the check, ``rehand``)."""
    def bad(why: str) -> CheatDetected:
        return CheatDetected(author, "rehand", why)

    if not isinstance(msg, Mapping) or msg.get("type") != REHAND or msg.get("deck") != deck.deck_id:
        raise bad("a shown card back in a hand comes with the hand masked anew (deck/rehand)")
    packed, raw = msg.get("handles"), msg.get("cards")
    if not isinstance(packed, bytes) or not isinstance(raw, bytes) or len(packed) % 4 \
            or not packed or len(raw) != 64 * (len(packed) // 4):
        raise bad("handles are 4 bytes each and cards 64 bytes each, one each")
    handles = unpack_handles(packed)
    if sorted(handles) != sorted(hand) or len(set(handles)) != len(handles):
        raise bad("the hand masked anew is not the author's whole hand")
    for h in handles:
        d = deck._get(h)
        if d.holder != author or not d.in_play or deck.missing_shares(h):
            raise bad(f"card {h} is not a dealt card of the author's hand")
    try:
        out = [dc.Ciphertext.decode(c, group=deck.group) for c in unpack(raw, 64)]
    except (ValueError, g.InvalidPoint) as e:
        raise bad(f"a masked card is no pair of points: {e}") from None
    inputs = [deck.ciphertext(h) for h in handles]
    if author != deck.seat:
        try:
            sp.verify(deck.keys.joint, inputs, out, msg.get("proof"),
                      rehand_context(deck, author, handles, context), group=deck.group)
        except sp.ShuffleProofError as e:
            raise bad(f"the proof fails: {e}") from None
    for h in handles:
        old = deck._mutable(h)
        old.in_play = False
        if old.card is not None and deck._seen.get(old.card) == h:
            del deck._seen[old.card]
    new = []
    for ct in out:
        deck._dealt.append(_Dealt(ct, author))
        deck._owned.add(len(deck._dealt) - 1)
        new.append(len(deck._dealt) - 1)
    return new
