"""The guide: a first game on a seeded deal, each kind of move explained as it becomes possible.

``palazzo guide medici|condottiere`` (and Guide on the start screen) opens a table for
``guide_setup(game)``: three seats, easy opponents, a fixed deal (``SEEDS``) and a slower pace.

The game waits for the reader: when the seat is first asked something, a note (``GuideNote``, a
dialog over the table) says what the game is about (``welcome``); then, on each of the seat's
turns, every kind of move legal for the first time, and every special card the first time it
may be played (a Minister, a Bishop, ...), gets a note with a few lines on what it does
(``Guide.news``); with the first move of the play (``PARTS_WITH``), what each part of the table
shows (``table_parts``). Enter (or Escape) closes a note and the seat answers at the
table; ``i`` at the table shows every note so far again (``Guide.told_notes``).

The words come from the player rules the table shows on ``r`` (``tui/rules/*.md``): each
explanation is that file's paragraph on the move or the card (``RULE_FOR``, ``CARD_NAMES``), so
the guide and the rules never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

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
    "resolve": ("A strike with no stack to take", "Your shadow alliance's card is shown, but no "
                "stack has its total: the strike takes nothing."),
}

#: what the game is about and what the table shows, before the first move
WELCOME = {
    "medici": (
        "Welcome to Court of the Medici",
        "You are Orsini, one of three houses competing for influence at court. You play your "
        "cards onto stacks in the middle (the court), and eliminate stacks with other houses' "
        "cards. At the end each house scores the values of its own cards still in the middle, "
        "whoever played them: the highest score wins. The game ends when no house has a shadow "
        "alliance left (or a house cannot play).",
        ("Court", "Houses", "Your move"),
    ),
    "condottiere": (
        "Welcome to Condottiere",
        "You are Red, one of three princes fighting over the regions of Italy. Each battle is "
        "for one region: everyone plays cards into their own line until all have passed, and "
        "the strongest line takes the region. With three players, whoever holds 6 regions, or "
        "4 that touch, wins.",
        ("Map", "Battle", "Your move"),
    ),
}

#: the kind of move whose first note also says what the table shows (the court is empty before)
PARTS_WITH = {"medici": "court", "condottiere": "place"}

#: the last words of the welcome: how the guide goes on
HOW_IT_GOES = ("Each time a new kind of move becomes possible, a note like this one explains "
               "it. Enter closes a note; i at the table shows the notes again, r the rules, "
               "h asks the coach for a move.")


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


def _card_name(game: str, card: int) -> str:
    """The name of a card as the rules' paragraphs call it ("" for a card of no paragraph)."""
    if game == "condottiere":
        from engine.condottiere.cards import NAMES
        return NAMES[card] if 0 <= card < len(NAMES) else ""
    from engine.medici.cards import CARDS, RANK_NAME, RANKS
    return RANK_NAME[card % RANKS] if 0 <= card < CARDS and card % RANKS >= 9 else ""


def welcome(game: str) -> list[tuple[str, str]]:
    """The first note: what the game is about, and how the guide goes on."""
    title, words, _ = WELCOME[game]
    return [(title, words), ("How the guide goes", HOW_IT_GOES)]


def table_parts(game: str) -> list[tuple[str, str]]:
    """What each part of the table shows, in the rules' words."""
    rules = paragraphs(game)
    return [(f"On the table: {part}", rules[part]) for part in WELCOME[game][2] if part in rules]


class Guide:
    """What to explain to the seat of a guided game, each thing once."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.told: set[str] = set()
        self.rules = paragraphs(game)
        #: every note shown so far, in order (``i`` at the table shows them again)
        self.told_notes: list[tuple[str, str]] = []
        self.welcomed = False

    def _card_rule(self, card: str) -> tuple[str, str] | None:
        """A card's paragraph (``Mercenary 3``: the mercenaries')."""
        first = card.split()[0]
        for name, body in self.rules.items():
            if name == card or (self.game == "condottiere" and name.split()[0] == first):
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
            if kind in RULE_FOR.get(self.game, {}):
                name = RULE_FOR[self.game][kind]
                told = (name.rstrip("."), self.rules.get(name, ""))
            elif kind in OWN_WORDS:
                told = OWN_WORDS[kind]
            card = getattr(action, "card", -1)
            name = _card_name(self.game, card) if isinstance(card, int) else ""
            found = self._card_rule(name) if name else None
            if kind == "play":  # Condottiere: each card is its own kind of move
                key, told = "play:" + (found[0] if found else name), found
            elif found is not None and "card:" + found[0] not in self.told:
                self.told.add("card:" + found[0])  # a Medici card with a power of its own
                out.append(self._trim(found))
            if told is None or not told[1] or key in self.told:
                continue
            self.told.add(key)
            out.append(self._trim(told))
        return out

    @staticmethod
    def _trim(told: tuple[str, str]) -> tuple[str, str]:
        name, body = told
        if body.startswith("(") and ")" in body:  # "(strength 10): nothing ..." -> "Heroine (strength 10)"
            value, _, rest = body[1:].partition(")")
            rest = rest.strip(" :.")
            return (f"{name} ({value})", f"{rest}." if rest else f"{value[0].upper()}{value[1:]}.")
        return told

    def notes(self, legal: Sequence[Any], my_turn: bool) -> list[tuple[str, str]]:
        """What to show now: the welcome, the first time the seat is asked something, then the
        news; each note is kept in ``told_notes``."""
        if not my_turn:
            return []
        out = []
        if not self.welcomed:
            self.welcomed = True
            out += welcome(self.game)
        news = self.news(legal, my_turn)
        if any(getattr(a, "kind", "") == PARTS_WITH[self.game] for a in legal) \
                and "parts" not in self.told:
            self.told.add("parts")
            news = table_parts(self.game) + news
        out += news
        self.told_notes += out
        return out


class GuideNote(ModalScreen[None]):
    """The guide's notes over the table: read, then Enter (or Escape) goes back to it."""

    DEFAULT_CSS = """
    GuideNote { align: center middle; }
    GuideNote #guide-note {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    GuideNote .note-title { text-style: bold; margin-top: 1; }
    GuideNote #guide-keys { margin-top: 1; text-style: italic; }
    """
    BINDINGS = [Binding("enter,escape,space,i", "close", "Back to the table")]

    def __init__(self, notes: Sequence[tuple[str, str]], heading: str = "Guide") -> None:
        super().__init__()
        self.notes = list(notes)
        self.heading = heading

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="guide-note") as box:
            box.border_title = self.heading
            for title, words in self.notes:
                yield Static(title, classes="note-title")
                yield Static(words, classes="note-words")
            yield Static("Enter: back to the table (i shows these notes again)", id="guide-keys")

    def action_close(self) -> None:
        self.dismiss(None)
