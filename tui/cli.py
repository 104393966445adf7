"""The ``palazzo`` command line: one entry point for every way to play.

Subcommands: ``play`` (a game against computer opponents in the full-screen table; with no
command at all, the start screen); ``resume`` (go on with a saved local game: every local game
is saved after each move, see ``tui.saves``); ``replay`` (step through a finished game, a saved
local one or a networked game's transcript, see ``tui.replay``); ``sim`` (headless bot games); ``watch`` (a bot game told in
the terminal, or with ``HOST:PORT`` a networked game followed as a watcher: ``tui.watch``,
``net.session.commands.watcher``); ``host`` and ``join`` (a networked game, see ``docs/protocol.md``; ``join`` with no address
lists the games advertised on the LAN and asks which, ``host --no-advertise`` keeps one off); ``verify``
(check saved transcripts: exit status 0 all verified, 3 a cheat or an altered record, 4 a
record cut off, 5 a file that is not a transcript: ``VERIFY_EXIT``); ``history`` (the record
of local games won, ``tui.history``); ``guide`` (a first game, guided: ``tui.guide``). ``--version`` prints the
package's version. Every flag of every subcommand has a help text (a test walks the tree). ``join``: 0 the game was played to its end, 1 it could not be
played, 3 a cheat was detected, 4 this player's key is at the table from another program, 5 it
gave up trying to join (``JOIN_EXIT``).
Bad arguments get one clear line on stderr and exit status 2, never a traceback.

Start-up: this module imports only the engine and the standard library, so that ``--version``,
``--help``, ``sim`` and ``watch`` start at once; each command imports the layer it runs inside
its own function: Textual (``tui.app``, ``tui.netapp``, ``tui.saves``, ``tui.replay``: about half
a second) only for a screen, ``net`` (msgpack and cryptography: about a fifth of a second) only
for ``host``, ``join`` and ``verify``.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.core import LocalGame
from engine.registry import game_names, get_game, parse_options
from engine.sim import bot_rng, run, seat_bots


class UsageError(Exception):
    """A bad argument: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {n}")
    return n


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def version() -> str:
    """The installed package's version (or, run from a checkout, its ``pyproject.toml``'s)."""
    from importlib.metadata import PackageNotFoundError  # 18 ms: only for --version
    from importlib.metadata import version as installed

    try:
        return installed("palazzo")
    except PackageNotFoundError:
        pass
    try:
        text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    except OSError:
        return "unknown"
    for line in text.splitlines():
        if line.startswith("version"):
            return line.partition("=")[2].strip().strip('"')
    return "unknown"


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked for (the lookup takes ~30 ms)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"palazzo {version()}")
        parser.exit()


def options_help() -> str:
    """Every game's rules options with their words, for ``--option`` (read from the registry
    only when a help is printed: the registry loads the games' rules)."""
    games = []
    for g in game_names():
        rules = get_game(g).rules
        named = []
        for o in rules.variants:
            value = f"=N, N one of {'/'.join(map(str, o.values))}" if o.values else ""
            named.append(f'{o.name}{value}: "{o.words}"')
        games.append(f"{g}: {'; '.join(named) if named else 'none'}")
    return ". ".join(games)


class _OptionsFormatter(argparse.RawDescriptionHelpFormatter):
    """Help whose ``--option`` names every game's options, with one line on each."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if "--option" in action.option_strings and text is not None:
            return f"{text}. The options: {options_help()}".replace("%", "%%")
        return text


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="palazzo", description="Court of the Medici and Condottiere in the terminal.")
    p.add_argument("--version", action=_Version, nargs=0,
                   help="print palazzo's version and exit")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND",
                           help="with no command, the start screen")

    play = sub.add_parser("play", help="play against computer opponents at the full-screen table",
                          formatter_class=_OptionsFormatter)
    play.add_argument("game", nargs="?", default="medici", help="medici or condottiere")
    play.add_argument("--players", type=_positive, default=None,
                      help="how many seats at the table (default: 4, or the most the game takes)")
    play.add_argument("--bots", default="", help="the opponents' levels (easy, normal, hard, "
                      "expert), one for all or one per seat, comma-separated")
    play.add_argument("--seed", type=_int, default=None,
                      help="the seed of the shuffle: the same seed deals the same game")
    play.add_argument("--option", action="append", default=[], help="a rules option, NAME or NAME=N")
    play.add_argument("--name", default="", help="your name at the table")
    play.add_argument("--seat", type=_positive, default=1, help="which seat you take, from 1")
    play.add_argument("--pace", type=float, default=0.8, help="seconds between computer moves")
    play.add_argument("--remarks", choices=("on", "off"), default="off",
                      help="the bots' canned remarks in the log (default off)")
    play.add_argument("--confirm", choices=("on", "off"), default="on",
                      help="ask before a move that decides something: a pass, a strike, a "
                      "Minister, a Plan, your only move (default on)")

    _add_resume(sub)
    _add_replay(sub)

    sim = sub.add_parser("sim", help="play bot games headlessly and print their results",
                         formatter_class=_OptionsFormatter)
    sim.add_argument("game", help="medici or condottiere")
    sim.add_argument("--players", type=_positive, default=4, help="seats per game (default 4)")
    sim.add_argument("--games", type=_positive, default=1, help="how many games (default 1)")
    sim.add_argument("--seed", type=_int, default=0,
                     help="the first game's seed; the next games take the next seeds (default 0)")
    sim.add_argument("--bots", default="", help="comma-separated bot per seat, or one for all")
    sim.add_argument("--option", action="append", default=[], help="a rules option, NAME or NAME=N")
    sim.add_argument("--think", type=float, default=None, help="CPU seconds per search-bot decision")
    sim.add_argument("--json", action="store_true", help="one JSON object per game")

    watch = sub.add_parser("watch", help="watch bots play one game here, or follow a networked "
                           "game as a watcher (HOST:PORT)", epilog=WATCH_HELP,
                           formatter_class=_OptionsFormatter)
    watch.add_argument("game", nargs="?", default="medici", metavar="GAME|HOST:PORT",
                       help="medici or condottiere: a bot game played here; HOST:PORT: the "
                            "networked game hosted there, followed as a watcher")
    watch.add_argument("--players", type=_positive, default=4,
                       help="a bot game's seats at the table (default 4)")
    watch.add_argument("--seed", type=_int, default=None,
                       help="a bot game's seed of the shuffle (default: a random one, printed)")
    watch.add_argument("--bots", default="", help="a bot game's bot per seat, comma-separated, "
                       "or one for all")
    watch.add_argument("--option", action="append", default=[],
                       help="a bot game's rules option, NAME or NAME=N")
    watch.add_argument("--code", default=None, help="a networked game's code, as the host gave it")
    watch.add_argument("--name", default=None,
                       help="your name in the host's list of watchers (default: your login)")
    watch.add_argument("--identity", default=None, metavar="FILE|NAME",
                       help="watch as this identity: a key file or a profile name, as join takes "
                            "it (default the account's key)")
    watch.add_argument("--headless", action="store_true",
                       help="a networked game: print the public log lines instead of the table "
                            "(also when the output is not a terminal)")
    _add_host(sub)
    _add_join(sub)
    _add_verify(sub)
    _add_history(sub)
    _add_guide(sub)
    return p


def _on_timeout(text: str) -> str:
    """An ``--on-timeout`` choice, as the wire names it (``net.session.features.timeout``; the old names
    ``forfeit`` and ``bot`` stay accepted)."""
    from net.session.features.timeout import wire_name

    try:
        return wire_name(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _seconds(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if x <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text}")
    return x


#: a headless bot seat's least seconds a move (``palazzo join --bot --pace``)
DEFAULT_PACE = 0.3
MAX_PACE = 60.0


def _give_up(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 < x <= 3600:
        raise argparse.ArgumentTypeError(f"expected more than 0 and at most 3600 seconds, not {text}")
    return x


def _pace(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 <= x <= MAX_PACE:
        raise argparse.ArgumentTypeError(f"expected 0 to {MAX_PACE:g} seconds, not {text}")
    return x


def _add_host(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    h = sub.add_parser("host", help="host a networked game", formatter_class=_OptionsFormatter)
    h.add_argument("game", help="medici or condottiere")
    h.add_argument("--players", type=_positive, required=True, help="seats at the table")
    h.add_argument("--port", type=_int, default=7342, help="the TCP port to listen on (default 7342)")
    h.add_argument("--bind", default=None, help="address to listen on (default: all interfaces)")
    h.add_argument("--no-seat", action="store_true", help="only relay; take no seat")
    h.add_argument("--bots", type=_int, default=0, help="seats played by bots on this machine")
    h.add_argument("--bot", default="greedy",
                   help="kind or level of the --bots (and of the host's own seat when headless)")
    h.add_argument("--option", action="append", default=[], help="a rules option, NAME or NAME=N")
    h.add_argument("--headless", action="store_true", help="log lines instead of the table")
    h.add_argument("--open", action="store_true", help="no game code needed to join")
    h.add_argument("--name", default="host", help="the host's name at the table (default host)")
    h.add_argument("--turn-timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="how long a seat may take over a move (default: no limit)")
    h.add_argument("--on-timeout", type=_on_timeout, default="end-game",
                   metavar="{end-game,program-plays}",
                   help="what happens when the seat due runs out of time: end-game (default: it "
                        "forfeits and the game ends) or program-plays (its own program plays that "
                        "move for it, saying so in every log; it forfeits at twice the limit)")
    h.add_argument("--grace", type=_seconds, default=180.0, metavar="SECONDS",
                   help="how long the others wait for a player who dropped out while the game "
                        "waits on them, before that player forfeits (default 180)")
    h.add_argument("--allow-hints", action="store_true",
                   help="let the players ask the coach for a hint (h at the table); every peer sees it")
    h.add_argument("--resume", nargs="?", const="", default=None, metavar="GAME-ID-PREFIX",
                   help="go on with an unfinished game this host (same identity) was hosting; "
                        "by default the one unfinished game of this game and number of players "
                        "is resumed, if there is exactly one")
    h.add_argument("--new", action="store_true", help="start a new game, resuming none")
    h.add_argument("--resume-from", default=None, metavar="FILE",
                   help="go on with this host's game from a player's saved record of it (a "
                        "joiner saves one as soon as its host is gone), when the host's own "
                        "record is lost or damaged; the file is checked fully first")
    h.add_argument("--identity", default=None, metavar="FILE|NAME",
                   help="play as this identity: a key file (made on first use) or a profile name "
                        "(under ~/.config/palazzo/identities/); default the account's key. Two "
                        "programs of one account at one table need one each")
    h.add_argument("--no-advertise", action="store_true",
                   help="do not advertise the game on the LAN (by default palazzo join with no "
                        "address and the join form's Find games list it)")


JOIN_EXIT = """exit status:
  0  the game was played to its end, its audit verified it, and every seat signed its end:
     the record is "agreed by all N seats"
  1  the game could not be played: nobody listens at HOST:PORT (tried 4 times over about
     7 seconds, in case the host is starting again), the host refused the join
     (a wrong game code, a full game) or broke the
     protocol; with no HOST:PORT, no game was found on the LAN or none was chosen; or this
     player left it (Ctrl-C: the host and the others are told)
  3  a cheat was detected (the saved transcript names it)
  4  this player is already at the table from another program (its key holds a seat and that
     program answers): to play a second player on this account, use --identity FILE
  5  gave up: the host closed the connection before taking this player in, again and again
     (6 tries over about 30 seconds), or it went away mid-game and did not come back (one
     line says so and where the record so far is saved)
  6  the game ended, but the record is one side's: a seat did not sign its end (it forfeited);
     the line "record:" says which and why ("agreed by all N seats" is status 0)
With no HOST:PORT, join lists the games advertised on the LAN (for about 2 seconds) and asks
which one, then the code if it needs one; the host found so is held to the key fingerprint its
advertisement gave (another key: refused, exit 1)."""


def _add_join(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    j = sub.add_parser("join", help="join a networked game", epilog=JOIN_EXIT,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    j.add_argument("address", metavar="HOST:PORT", nargs="?", default=None,
                   help="the host's address and port (none: the games found on the LAN are "
                        "listed, and you choose one)")
    j.add_argument("--list", action="store_true",
                   help="print the games found on the LAN, numbered, and exit (1 if none)")
    j.add_argument("--code", default=None, help="the game code the host gave")
    j.add_argument("--name", default=None, help="your name at the table (default: your login)")
    j.add_argument("--bot", default=None, help="play headless as this bot (any name sim --bots takes)")
    j.add_argument("--verbose", action="store_true",
                   help="print every move (without it: this seat's own moves)")
    j.add_argument("--say", action="append", default=[], metavar="TEXT",
                   help="say TEXT at the table as soon as seated (repeatable)")
    j.add_argument("--pace", type=_pace, default=DEFAULT_PACE, metavar="SECONDS",
                   help=f"with --bot: the bot moves no sooner than SECONDS after its turn came "
                        f"(its thinking counts), so that the people at the table see its moves "
                        f"one by one (default {DEFAULT_PACE:g}; 0: at once)")
    j.add_argument("--retries", type=_positive, default=5, metavar="N",
                   help="with --bot: how many times in a row to try again when the host closes "
                        "the connection before taking you in, waiting 1, 2, 4, ... seconds "
                        "between tries (default 5)")
    j.add_argument("--give-up", type=_give_up, default=60.0, metavar="SECONDS",
                   help="with --bot: how long to keep trying to reach a host that went away "
                        "once it took you in (default 60)")
    j.add_argument("--rematch", type=_positive, default=1, metavar="N",
                   help="with --bot: play up to N games with the same players, asking for a "
                        "rematch after each but the last (default 1: leave after the game)")
    j.add_argument("--identity", default=None, metavar="FILE|NAME",
                   help="play as this identity: a key file (made on first use) or a profile name "
                        "(under ~/.config/palazzo/identities/); default the account's key. Two "
                        "programs of one account at one table need one each")


VERIFY_EXIT = """exit status (for several files, the first of 3, 4, 5 that any of them gives):
  0  every file verified: every entry genuine, the game played to its end
  2  a file named is not there (nothing is checked)
  3  a cheat (the line names who and where) or an altered record (a bad signature, a broken
     chain, an entry that does not parse)
  4  a record cut off: the file stops in the middle of an entry, or every entry is genuine but
     the record stops before the end of the game
  5  a file that is not a palazzo transcript at all"""


WATCH_HELP = """Two ways to watch:
  palazzo watch [GAME] [--players N --seed S --bots B --option O]
      bots play one game here, every move printed
  palazzo watch HOST:PORT [--code CODE] [--name NAME] [--identity FILE|NAME] [--headless]
      follow the networked game hosted at HOST:PORT as a watcher: the table as an observer
      sees it (only what the rules show everyone: nobody's hand), or with --headless the public
      log lines; the host lists the watchers; at the end the record is checked and saved.
      A watcher takes no seat and makes no move; a host takes at most 8.
exit status of a networked watch: as palazzo join's (0 followed to the end and verified, 1 it
could not follow, 3 a cheat was detected, 5 gave up)."""


RESUME_HELP = """Every local game is saved after each move under $XDG_DATA_HOME/palazzo/local/
(default ~/.local/share/palazzo/local/). With no GAME: the one unfinished game opens, or the list
of them to choose from. --list prints them, numbered, newest first.
exit status: 0 played (or listed), 1 no saved game to continue, 2 a bad argument or a file that
is not a saved game."""


def _add_resume(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    r = sub.add_parser("resume", help="go on with a saved local game where it stopped",
                       epilog=RESUME_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("saved", nargs="?", default=None, metavar="GAME",
                   help="a number from --list, or a saved game's file")
    r.add_argument("--list", action="store_true", help="print the unfinished games; open none")
    r.add_argument("--pace", type=float, default=None,
                   help="seconds between computer moves (default: as the game was saved)")


REPLAY_HELP = """FILE is a finished local game (see palazzo resume --help for where they are
saved; --list names them) or a networked game's transcript (the .palazzo file that palazzo
verify reads). A networked record holds no hidden card: its replay is the public view, checked
entry by entry as verify checks it, up to the first entry that fails.
keys: right or n the next move, left or p back, Home and End, l the whole log, Escape closes.
exit status: 0 shown, 1 nothing to replay, 2 a bad argument or a file that cannot be replayed."""


def _add_replay(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    r = sub.add_parser("replay", help="step through a finished game, move by move, forward and back",
                       epilog=REPLAY_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("file", nargs="?", default=None, metavar="FILE",
                   help="a saved local game (.json) or a networked transcript (.palazzo)")
    r.add_argument("--seat", default=None, metavar="N|public",
                   help="whose view to show: a seat number from 1, or public (what everyone saw); "
                        "default: the seat that was played, or public for a networked record")
    r.add_argument("--list", action="store_true", help="print the finished local games, numbered")


def _add_verify(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    v = sub.add_parser("verify", help="check saved transcripts of networked games, signature by signature",
                       epilog=VERIFY_EXIT, formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("transcripts", nargs="+", metavar="TRANSCRIPT", help="a saved .palazzo file")
    v.add_argument("--quiet", action="store_true", help="print nothing; only the exit status")


HISTORY_HELP = """Every local game against computer opponents is counted when it ends, in
$XDG_DATA_HOME/palazzo/history.json (default ~/.local/share/palazzo/): by game, number of
players and the opponents' level (mixed when they differ). Networked games are not counted."""


def _add_history(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    h = sub.add_parser("history", help="your record: games won by game, players and opponents' level",
                       epilog=HISTORY_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    h.add_argument("game", nargs="?", default=None, help="medici or condottiere (default: both)")
    h.add_argument("--json", action="store_true", help="print the games recorded, one JSON object a line")


def _add_guide(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    g = sub.add_parser("guide", help="a first game, guided: each kind of move explained as it "
                       "becomes possible, on a dealt hand that shows them all")
    g.add_argument("game", nargs="?", default="medici", help="medici or condottiere (default medici)")


def cmd_history(args: argparse.Namespace) -> int:
    from tui import history

    recorded = history.games()
    if args.game is not None:
        get_game(args.game)  # an unknown game: a clear error
        recorded = [g for g in recorded if g["game"] == args.game]
    if args.json:
        for g in recorded:
            print(json.dumps(g, sort_keys=True))
        return 0
    print(history.table(recorded))
    return 0


def cmd_guide(args: argparse.Namespace) -> int:
    from tui.guide import guide_setup

    setup = guide_setup(args.game)
    from tui.app import PalazzoApp

    PalazzoApp(setup, play=True, guide=True).run()
    return 0


def _setup(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    entry = get_game(args.game)
    config = entry.rules.make_config(args.players, parse_options(args.option))
    for note in entry.rules.config_warnings(config):
        print(f"palazzo: note: {note}", file=sys.stderr)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    bots = seat_bots(entry, names, args.players)
    for name in set(bots):
        entry.check_bot(name)
    return entry, config, bots


def cmd_sim(args: argparse.Namespace) -> int:
    from engine.report import Tally

    entry, config, bots = _setup(args)
    tally = Tally(entry.report)
    settings = {} if args.think is None else {"think": args.think}
    names = entry.rules.seat_names
    wins_seat: Counter[int] = Counter()
    wins_kind: Counter[str] = Counter()
    seats_kind: Counter[str] = Counter(bots)
    out = sys.stdout
    for r in run(entry, config, args.games, args.seed, bots, **settings):
        o = r.outcome
        tally.add(bots, o.turns, o.end, r.figures)
        for w in o.winners:
            wins_seat[w] += 1
            wins_kind[bots[w]] += 1
        if args.json:
            out.write(json.dumps(r.to_json(args.players)) + "\n")
        else:
            who = ", ".join(names[w] for w in o.winners)
            scores = " ".join(str(x) for x in o.scores)
            out.write(
                f"game {r.index} (seed {r.seed}): winners {who}; scores {scores}; "
                f"{o.turns} turns, {'/'.join(map(str, r.figures['moves']))} moves a seat; "
                f"ended: {o.detail.get('text', o.end)}\n"
            )
        out.flush()
    summary = sys.stderr if args.json else out
    summary.write(f"{args.games} games of {entry.rules.title}, {args.players} players\n")
    reading = getattr(config, "reading", "")
    if reading:  # the end rule the games were played under (Court of the Medici)
        summary.write(f"end rule: {reading}\n")
    summary.write(
        "wins by seat: "
        + ", ".join(f"{names[i]} ({bots[i]}) {wins_seat[i]}" for i in range(args.players))
        + "\n"
    )
    kinds = ", ".join(
        f"{k} {wins_kind[k]}/{args.games * seats_kind[k]} seat-games"
        f" ({100 * wins_kind[k] / (args.games * seats_kind[k]):.1f}%)"
        for k in sorted(seats_kind)
    )
    summary.write(f"wins by bot kind: {kinds}\n")
    for line in tally.lines():
        summary.write(line + "\n")
    return 0


def _play_setup(args: argparse.Namespace):  # type: ignore[no-untyped-def]

    entry = get_game(args.game)
    players = args.players or (4 if entry.rules.max_players >= 4 else entry.rules.max_players)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(names) == players - 1:
        names.insert(args.seat - 1, "")
    options = parse_options(args.option)
    if args.pace < 0:
        raise UsageError("--pace must be 0 or more seconds")
    from tui.setup import GameSetup, make_client  # not for the commands that play no game here

    setup = GameSetup(
        game=args.game, players=players, seat=args.seat - 1, bots=tuple(names),
        options=tuple(options.items()), name=args.name, seed=args.seed, pace=args.pace,
        remarks=args.remarks == "on", confirm=getattr(args, "confirm", "on") == "on",
    )
    make_client(setup).close()  # every argument is checked before the screen opens
    return setup


def cmd_play(args: argparse.Namespace) -> int:
    from tui.app import PalazzoApp

    PalazzoApp(_play_setup(args), play=True).run()
    return 0


def cmd_start() -> int:
    from tui.app import PalazzoApp

    PalazzoApp().run()
    return 0


def _numbered(games) -> None:  # type: ignore[no-untyped-def]
    for i, g in enumerate(games, 1):
        print(f"{i:3}  {g.describe()}\n     {g.path}")


def _pick_saved(given: str, games):  # type: ignore[no-untyped-def]
    from tui.saves import SaveError, load

    if given.isdigit():
        n = int(given)
        if not 1 <= n <= len(games):
            raise UsageError(f"no game {n} in the list (--list shows {len(games)})")
        return games[n - 1]
    try:
        return load(given)
    except SaveError as e:
        raise UsageError(str(e)) from None


def cmd_resume(args: argparse.Namespace) -> int:
    from tui.saves import SaveError, resume, saved_games, saves_dir

    if args.pace is not None and args.pace < 0:
        raise UsageError("--pace must be 0 or more seconds")
    games = saved_games(finished=False)
    if args.saved is None and not games:
        print(f"palazzo resume: no saved game to continue (local games are saved in {saves_dir()} "
              "as they are played)")
        return 1
    if args.list:
        _numbered(games)
        return 0
    from tui.app import PalazzoApp

    if args.saved is None and len(games) > 1:
        PalazzoApp(resume="pick").run()
        return 0
    saved = games[0] if args.saved is None else _pick_saved(args.saved, games)
    if saved.over:
        raise UsageError(f"{saved.path}: this game is over (palazzo replay shows it)")
    if args.pace is not None:
        saved = replace(saved, setup=replace(saved.setup, pace=args.pace))
    try:
        resume(saved).close()  # it plays back before the screen opens
    except SaveError as e:
        raise UsageError(str(e)) from None
    PalazzoApp(saved.setup, resume=saved).run()
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from tui.replay import PUBLIC, ReplayError, open_replay
    from tui.saves import saved_games

    if args.list:
        games = saved_games(finished=True)
        if not games:
            print("palazzo replay: no finished local game saved")
            return 1
        _numbered(games)
        return 0
    if args.file is None:
        raise UsageError("name the FILE to replay (palazzo replay --list names the finished games)")
    seat: int | None = -1
    if args.seat is not None:
        if args.seat.lower() == "public":
            seat = PUBLIC
        elif args.seat.isdigit() and int(args.seat) >= 1:
            seat = int(args.seat) - 1
        else:
            raise UsageError(f"--seat takes a seat number from 1 or public, not {args.seat!r}")
    path = args.file
    if args.file.isdigit():
        games = saved_games(finished=True)
        path = str(_pick_saved(args.file, games).path)
    try:
        replay = open_replay(path, seat)
    except ReplayError as e:
        raise UsageError(str(e)) from None
    from tui.app import PalazzoApp

    PalazzoApp(replay=replay).run()
    return 0


def _is_address(target: str) -> bool:
    """Whether ``watch``'s argument is a ``HOST:PORT`` (else it must be a game's name)."""
    if target in game_names():
        return False
    if ":" not in target:
        raise UsageError(f"{target!r} is neither a game ({', '.join(game_names())}) nor a "
                         "HOST:PORT address")
    return True


def cmd_watch(args: argparse.Namespace) -> int:
    if _is_address(args.game):
        return cmd_watch_net(args)
    networked = [f for f, v in (("--code", args.code), ("--name", args.name),
                                ("--identity", args.identity), ("--headless", args.headless)) if v]
    if networked:
        raise UsageError(f"{networked[0]} is for watching a networked game (HOST:PORT), not a "
                         f"bot game of {args.game}")
    entry, config, bots = _setup(args)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rules = entry.rules
    game = LocalGame(rules, config, seed)
    players = [entry.make_bot(n, bot_rng(seed, i)) for i, n in enumerate(bots)]
    print(f"{rules.title}: {args.players} bots ({', '.join(bots)}), seed {seed}")
    pause = 0.0 if not sys.stdout.isatty() else 0.05

    def show(step: Any) -> None:
        print("  " + game.text(step, viewer=None))
        time.sleep(pause)

    o = game.play_out(players, on_move=show)
    names = rules.seat_names
    print("scores: " + ", ".join(f"{names[i]} {s}" for i, s in enumerate(o.scores)))
    print("winner: " + " and ".join(names[w] for w in o.winners) + f" ({o.detail.get('text', o.end)})")
    return 0


def cmd_watch_net(args: argparse.Namespace) -> int:
    """``palazzo watch HOST:PORT``: follow a networked game as a watcher."""
    local = [f for f, v, default in (("--players", args.players, 4), ("--seed", args.seed, None),
                                     ("--bots", args.bots, ""), ("--option", args.option, []))
             if v != default]
    if local:
        raise UsageError(f"{local[0]} is for a bot game played here, not for watching "
                         f"{args.game}")
    from net.session.commands import hosting

    hosting.parse_address(args.game)  # a bad port: a ValueError, one line
    name = args.name or getpass.getuser()
    spec = _identity_spec(args.identity)
    if args.headless or not sys.stdout.isatty():
        from net.session.commands.watcher import watch_game

        return watch_game(args.game, args.code, name, _say, spec)
    from tui import watch

    return watch.watch_tui(args.game, args.code, name, _say, spec)


def _say(line: str) -> None:
    """A line for the user; none when the terminal is gone (a closed SSH session): the record
    was saved all the same."""
    with contextlib.suppress(OSError):
        print(line, flush=True)


def cmd_host(args: argparse.Namespace) -> int:
    from net.session.commands import play
    from net.session.commands.hosting import HostSettings

    if args.bots < 0:
        raise UsageError("--bots takes a number from 0")
    settings = HostSettings(
        game=args.game, players=args.players, options=parse_options(args.option), port=args.port,
        bind=args.bind, seat=not args.no_seat, bots=args.bots, bot=args.bot, open=args.open,
        turn_timeout=args.turn_timeout, on_timeout=args.on_timeout, name=args.name,
        allow_hints=args.allow_hints, resume=args.resume or None, new=args.new,
        identity=_identity_spec(args.identity), advertise=not args.no_advertise, grace=args.grace,
        resume_from=args.resume_from,
    )
    if args.new and args.resume is not None:
        raise UsageError("--resume and --new do not go together")
    if args.resume_from and (args.new or args.resume is not None):
        raise UsageError("--resume-from goes with neither --resume nor --new")
    # a relay-only host has no table to draw: log lines; a resumed game is a headless host's
    if args.headless or args.no_seat or args.resume is not None or args.resume_from:
        return play.host_game(settings, _say)
    from tui import netapp

    return netapp.host_tui(settings, _say)


def cmd_join(args: argparse.Namespace) -> int:
    from net.session.commands import hosting, play
    from net.session.features.chat import text_problem
    from net.wire.identity import Identity

    for text in args.say:
        why = text_problem(text)
        if why is not None:
            raise UsageError(f"--say {text!r}: {why}")
    name = args.name or getpass.getuser()
    spec = _identity_spec(args.identity)
    if args.bot is not None:
        hosting.check_bot(args.bot)
    address, code, fp = args.address, args.code, None
    if args.address is None or args.list:
        if args.address is not None:
            raise UsageError("--list takes no HOST:PORT")
        games = _games_on_lan()
        if not games or args.list:
            return 0 if games else 1
        found = _pick(games)
        if found is None:
            return 1
        address, fp = found.join_address, found.fingerprint
        if found.code and code is None:
            code = _ask("game code: ")
            if not code:
                print("palazzo join: no code given", file=sys.stderr)
                return 1
    if args.bot is None:
        from tui import netapp

        return netapp.join_tui(*hosting.parse_address(address), code, name, _say,
                               Identity.load_or_create(spec=spec), fp, talk=args.say)
    from tui.screens.lobby import settings_line

    return play.join_game(address, code, name, args.bot, _say, args.verbose, spec, fp,
                          talk=args.say, rematch=args.rematch, pace=args.pace,
                          retries=args.retries, give_up=args.give_up, table_line=settings_line)


def _ask(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        return ""


def _games_on_lan():  # type: ignore[no-untyped-def]
    """The games advertised on the LAN (``net.session.commands.discovery``), printed numbered; an
    empty list (said on stderr) when there is none."""
    from net.session.commands.discovery import BROWSE_SECONDS, browse
    from net.session.machines.conversation import printable_line

    print(f"looking for games on the LAN ({BROWSE_SECONDS:g} seconds) ...", file=sys.stderr,
          flush=True)
    try:
        games = browse()
    except OSError as e:
        print(f"palazzo join: cannot look for games on the LAN: {e}", file=sys.stderr)
        return []
    if not games:
        print("palazzo join: no game found on the LAN (give the host's HOST:PORT)",
              file=sys.stderr)
    for i, g in enumerate(games, 1):
        first, second = (printable_line(x) for x in g.lines())
        print(f"{i:3}  {first}\n     {second}", flush=True)
    return games


def _pick(games):  # type: ignore[no-untyped-def]
    """The game the user chooses by its number (``None``: no answer, or not in the list)."""
    answer = _ask(f"which game? (1-{len(games)}) ")
    if not answer.isdigit() or not 1 <= int(answer) <= len(games):
        print(f"palazzo join: no game {answer!r} in the list", file=sys.stderr)
        return None
    return games[int(answer) - 1]


def _identity_spec(spec: str | None) -> str | None:
    """``--identity`` checked before anything touches the network (``UsageError``)."""
    from net.wire.identity import identity_path

    try:
        identity_path(spec)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return spec


def cmd_verify(args: argparse.Namespace) -> int:
    """One line per file; the exit status is the worst finding (``VERIFY_EXIT``)."""
    from net.session.records.verify import verify_file

    missing = [p for p in args.transcripts if not os.path.exists(p)]
    for path in missing:
        print(f"palazzo verify: no such file: {path}", file=sys.stderr)
    if missing:
        return 2
    found = set()
    for path in args.transcripts:
        verdict = verify_file(path)
        found.add(verdict.exit_status)
        if not args.quiet:
            prefix = f"{path}: " if len(args.transcripts) > 1 else ""
            print(prefix + verdict.text, flush=True)
    return next((status for status in (3, 4, 5) if status in found), 0)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            return cmd_start()
        if args.command == "play":
            return cmd_play(args)
        if args.command == "resume":
            return cmd_resume(args)
        if args.command == "replay":
            return cmd_replay(args)
        if args.command == "sim":
            return cmd_sim(args)
        if args.command == "watch":
            return cmd_watch(args)
        if args.command == "host":
            return cmd_host(args)
        if args.command == "join":
            return cmd_join(args)
        if args.command == "verify":
            return cmd_verify(args)
        if args.command == "history":
            return cmd_history(args)
        if args.command == "guide":
            return cmd_guide(args)
        raise UsageError(f"unknown command {args.command!r}")
    except (UsageError, ValueError) as e:
        print(f"palazzo: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
