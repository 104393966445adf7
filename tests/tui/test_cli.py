"""``palazzo play`` checks its arguments before the screen opens: a bad one is one line on
stderr and exit status 2."""

from __future__ import annotations

import pytest

from tui.cli import _play_setup, build_parser, main


@pytest.mark.parametrize("argv, words", [
    (["play", "medici", "--players", "5"], "3 or 4 players"),
    (["play", "chess"], "unknown game"),
    (["play", "medici", "--bots", "wizard"], "unknown bot"),
    (["play", "medici", "--option", "no_such_rule"], "unknown option"),
    (["play", "medici", "--seat", "7"], "seat 7"),
    (["play", "medici", "--pace", "-1"], "--pace"),
])
def test_bad_arguments_are_one_line_and_status_2(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("palazzo: error:") and words in err and err.count("\n") == 1


def test_play_arguments_make_the_setup():
    args = build_parser().parse_args(
        ["play", "condottiere", "--players", "3", "--bots", "random,greedy", "--seed", "9",
         "--option", "playing_for_points=30", "--name", "Ada", "--seat", "2", "--pace", "0"]
    )
    setup = _play_setup(args)
    assert (setup.game, setup.players, setup.seat, setup.seed, setup.pace) == ("condottiere", 3, 1, 9, 0)
    assert setup.seat_bots() == {0: "random", 2: "greedy"}
    assert dict(setup.options) == {"playing_for_points": 30}
    assert setup.name == "Ada"


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["sim", "medici", "--games", "1"]])
def test_commands_without_a_screen_or_a_network_load_neither(argv):
    """``--version``, ``--help`` and ``sim`` start without Textual (about half a second to load)
    or the network's cryptography: the command line imports them only for the commands that
    use them."""
    import subprocess
    import sys

    code = ("import sys\nfrom tui.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "loaded = sorted(m for m in ('textual', 'net', 'cryptography') if m in sys.modules)\n"
            "print('loaded:', loaded, file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                         timeout=120)
    assert "loaded: []" in run.stderr, run.stderr


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_watch_prints_every_move_then_the_same_result_as_the_game_played_out(capsys, game):
    from engine.core import LocalGame
    from engine.registry import get_game
    from engine.sim import bot_rng

    assert main(["watch", game, "--seed", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    entry = get_game(game)
    rules = entry.rules
    players = int(out[0].removeprefix(rules.title + ": ").split()[0])  # "<title>: N bots (...), seed 7"
    config = rules.make_config(players, {})
    local = LocalGame(rules, config, 7)
    outcome = local.play_out([entry.make_bot(entry.default_bot, bot_rng(7, i)) for i in range(config.players)])
    moves = [s for s in local.history if s.actor >= 0]
    assert out[0].startswith(rules.title) and "seed 7" in out[0]
    assert out[1 : 1 + len(moves)] == ["  " + local.text(s, viewer=None) for s in moves]
    names = rules.seat_names
    assert out[-2] == "scores: " + ", ".join(f"{names[i]} {x}" for i, x in enumerate(outcome.scores))


@pytest.mark.parametrize("command", ["play", "sim", "host", "watch"])
def test_option_help_names_every_option_of_every_game_with_its_words(capsys, command):
    """Wherever a game is set up on the command line, ``--help`` names the rules options (the
    Court of the Medici's length among them) with one line on each."""
    from engine.registry import game_names, get_game

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for game in game_names():
        for option in get_game(game).rules.variants:
            assert option.name in text and " ".join(option.words.split()) in text, option.name
    assert 'short_game: "Short game:' in text
