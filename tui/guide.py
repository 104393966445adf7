"""The guide: a first game on a seeded deal, each kind of move explained as it becomes possible.

``palazzo guide medici|condottiere`` (and Guide on the start screen) opens a table for
``guide_setup(game)``: three seats, easy opponents, a fixed deal (``SEEDS``) and a slower pace.
While it runs, ``Guide.news(view)`` gives, on each of the seat's turns, the kinds of move that
are legal for the first time (in Condottiere, each special card the first time it may be
played) with a few lines on what they do; the app shows each once, as a note beside the table.

The words come from the player rules the table shows on ``r`` (``tui/rules/*.md``): each
explanation is that file's paragraph on the move (``RULE_FOR``), so the guide and the rules
never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from tui.setup import GameSetup

#: the deal of each game's guided first game
SEEDS = {"medici": 7, "condottiere": 4}

#: Court of the Medici: the paragraph of the rules on each kind of move
RULE_FOR = {
    "medici": {
        "hide": "Hidden cards.",
        "top": "Crowning.",
        "court": "Send to court",
        "build": "Build an alliance",
        "conspire": "Conspire",
        "strike": "Strike from the shadows",
        "plan": "Plan for the future",
    },
}

#: moves said in the guide's own words (no paragraph of the rules is about them alone)
OWN_WORDS = {
    "place": ("Choosing the battle", "You hold the Condottiere token: place it on a free region. "
              "The battle is for that region; whoever has the strongest line when everyone has "
              "passed takes it."),
    "pass": ("Passing", "Pass when you want to play no more cards in this battle: keep your cards "
             "for the battles to come. The battle ends when everyone has passed."),
    "discard": ("A hand with no mercenary", "Between battles, a hand with no mercenary may be "
                "thrown away for a fresh one."),
    "stuck": ("No card to play", "You hold no card you may play: the game ends."),
}


def guide_setup(game: str) -> GameSetup:
    """A guided first game of ``game``: three seats, easy opponents, a fixed deal."""
    if game not in SEEDS:
        raise ValueError(f"there is a guide for {' and '.join(SEEDS)}, not for {game!r}")
    return GameSetup(game=game, players=3, bots=("easy",), seed=SEEDS[game], pace=1.2)


def paragraphs(game: str) -> dict[str, str]:
    """The rules' list items, by their bold name: ``{"Conspire": "put the card on a stack..."}``."""
    text = files("tui.rules").joinpath(f"{game}.md").read_text()
    out: dict[str, str] = {}
    for m in re.finditer(r"^(?:- |\d+\. )\*\*(.+?)\*\*:?(.*(?:\n {2,}.*)*)", text, re.M):
        body = " ".join(line.strip() for line in m.group(2).splitlines())
        out[m.group(1)] = body.strip(" :")
    return out


class Guide:
    """What to explain to the seat of a guided game, each thing once."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.told: set[str] = set()
        self.rules = paragraphs(game)

    def _card_rule(self, card: str) -> tuple[str, str] | None:
        """A Condottiere card's paragraph (``Mercenary 3``: the mercenaries')."""
        first = card.split()[0]
        for name, body in self.rules.items():
            if name == card or name.split()[0] == first:
                return name, body
        return None

    def news(self, legal: Sequence[Any], my_turn: bool) -> list[tuple[str, str]]:
        """(title, words) for each kind of move legal now and not explained before."""
        if not my_turn:
            return []
        out = []
        for action in legal:
            kind = getattr(action, "kind", "")
            key, told = kind, None
            if self.game == "condottiere" and kind == "play":
                from engine.condottiere.cards import NAMES
                card = getattr(action, "card", -1)
                name = NAMES[card] if 0 <= card < len(NAMES) else ""
                found = self._card_rule(name) if name else None
                key = "play:" + (found[0] if found else name)
                told = found
            elif kind in RULE_FOR.get(self.game, {}):
                name = RULE_FOR[self.game][kind]
                told = (name.rstrip("."), self.rules.get(name, ""))
            elif kind in OWN_WORDS:
                told = OWN_WORDS[kind]
            if told is not None and told[1].startswith("("):  # "(strength 10): nothing ..."
                value, _, rest = told[1].partition("):")
                told = (f"{told[0]} {value})", rest.strip())
            if told is None or not told[1] or key in self.told:
                continue
            self.told.add(key)
            out.append(told)
        return out
