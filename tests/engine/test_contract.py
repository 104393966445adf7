"""Every game in the registry, and High Card (``toy_game``, a game written from the contract
alone), keep the generic contract (``contract``) in seeded random games: at every player count,
with each rules option the game declares alone and with all of them. High Card also plays
through the generic driver (``LocalGame``), the headless runner (``engine.sim``) and its bots by
name, as any registered game does."""

from __future__ import annotations

import random

import pytest

from engine.core import UNKNOWN, LocalGame
from engine.registry import game_names, get_game
from engine.sim import play_one, run

from . import toy_game
from .contract import check_config, check_game, configs

GAMES = {name: get_game(name) for name in game_names()}
GAMES["highcard"] = toy_game.ENTRY
CASES = [(name, label, config) for name, entry in GAMES.items()
         for label, config in configs(entry.rules)]


def test_every_game_and_option_has_conformance_games() -> None:
    """The cases come from the engine's data: each declared option, each value it offers."""
    for name, entry in GAMES.items():
        labels = {label for game, label, _ in CASES if game == name}
        for option in entry.rules.variants:
            assert any(f"-{option.name}=" in label for label in labels), (name, option.name)
        assert {f"{n}p" for n in range(entry.rules.min_players, entry.rules.max_players + 1)} <= labels


@pytest.mark.parametrize("name", list(GAMES))
def test_configurations_keep_the_contract(name: str) -> None:
    check_config(GAMES[name].rules)


@pytest.mark.parametrize("name,label,config", CASES, ids=[f"{g}-{lb}" for g, lb, _ in CASES])
def test_random_games_keep_the_contract(name: str, label: str, config: object) -> None:
    rules = GAMES[name].rules
    check_game(rules, config, 100 * len(label))


def test_high_card_plays_through_the_generic_parts() -> None:
    entry, rules = toy_game.ENTRY, toy_game.RULES
    config = rules.make_config(2, {"ante": 2})
    assert rules.config_warnings(config) == ["a big ante makes the bet matter little"]
    game = LocalGame(rules, config, seed=3)
    bots = [entry.make_bot(name, random.Random(i)) for i, name in enumerate(("easy", "high"))]
    outcome = game.play_out(bots)
    assert outcome == LocalGame(rules, config, seed=3).play_out(
        [entry.make_bot(n, random.Random(i)) for i, n in enumerate(("easy", "high"))])
    assert sum(outcome.scores) in (3, 4) and len(outcome.winners) == 1
    # the log as each seat hears it: the other seat's card is dealt unseen
    deal = game.history[0]
    assert game.text(deal, viewer=0).startswith("North is dealt the ")
    assert game.text(deal, viewer=1) == "North is dealt a card"
    assert rules.view(game.history[2].before, 1).cards[0] == UNKNOWN
    results = list(run(entry, config, 20, 5, ["high", "random"]))
    assert len(results) == 20 and {w for r in results for w in r.outcome.winners} == {0, 1}
    assert play_one(entry, config, results[3].seed, ["high", "random"])[0] == results[3].outcome
    with pytest.raises(ValueError, match="unknown bot"):
        entry.make_bot("hard", random.Random(0))
