"""The rules screen, for players: the rules as a player reads them, wrapped at any width, none of
the developer's material."""

from __future__ import annotations

import re

import pytest

from tui.app import PalazzoApp
from tui.screens.rules import RulesScreen, plain_rules, rules_markdown
from tui.setup import GameSetup

GAMES = ["medici", "condottiere"]
#: words of the developer's rules (docs/rules): test names, views, actions, code
DEVELOPER = ["test_", "view(", "state", "action", "tuple", "docs/", "```", "legal_actions",
             "apply(", "seat)", "|---", "ismcts"]


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9'+-]+", text.replace("**", "").replace("`", ""))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("width", [40, 80, 120])
def test_the_rules_wrap_at_any_width_and_lose_no_word(game, width):
    shown = plain_rules(game, width)
    assert max(len(line.rstrip()) for line in shown.splitlines()) <= width
    assert _words(shown) == [w for w in _words(rules_markdown(game)) if w != "-"]


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_hold_no_developer_material(game):
    text = rules_markdown(game) + plain_rules(game, 80)
    for words in DEVELOPER:
        assert words not in text.lower(), words
    assert "#" not in plain_rules(game, 80).replace("`##`", "").replace("##", "")


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_name_the_decisions(game):
    text = " ".join(plain_rules(game, 200).split())
    wanted = {
        "medici": ["Send to court", "Build an alliance", "Conspire", "Strike from the shadows",
                   "Plan for the future", "Hidden cards", "Crowning"],
        "condottiere": ["passes", "Passing is final", "Bishop", "Scarecrow", "Surrender",
                        "Condottiere token"],
    }[game]
    for words in wanted:
        assert words in text, words


async def test_the_rules_screen_at_80x24_from_the_table_reads_to_its_end(ui):
    app = PalazzoApp(GameSetup(game="condottiere", players=3, seed=5, pace=0), play=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        await pilot.press("r")
        await ui.until(pilot, lambda: isinstance(app.screen, RulesScreen), what="the rules")
        await pilot.pause()
        text = ui.text(app)
        assert "Condottiere" in text and "Two to six players" in text
        for line in text.splitlines():
            assert len(line) <= 80
        await pilot.press("end")
        await ui.until(pilot, lambda: "back the last answer." in ui.text(app),
                       what="the end of the rules")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)
