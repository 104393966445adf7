"""The ``palazzo`` command line: one entry point for every way to play.

Subcommands: ``sim`` (headless bot games); ``watch`` (a bot game told in the terminal).
Bad arguments get one clear line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence

from engine.registry import get_game, parse_options


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


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="palazzo", description="Court of the Medici and Condottiere in the terminal.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    sim = sub.add_parser("sim", help="play bot games headlessly and print their results")
    sim.add_argument("game", help="medici or condottiere")
    sim.add_argument("--players", type=_positive, default=4)
    sim.add_argument("--games", type=_positive, default=1)
    sim.add_argument("--seed", type=_int, default=0)
    sim.add_argument("--bots", default="", help="comma-separated bot per seat, or one for all")
    sim.add_argument("--option", action="append", default=[], help="a rules option, NAME or NAME=N")
    sim.add_argument("--think", type=float, default=None, help="seconds per search-bot decision")
    sim.add_argument("--json", action="store_true", help="one JSON object per game")

    watch = sub.add_parser("watch", help="watch bots play one game, move by move")
    watch.add_argument("game", nargs="?", default="medici")
    watch.add_argument("--players", type=_positive, default=4)
    watch.add_argument("--seed", type=_int, default=None)
    watch.add_argument("--bots", default="")
    watch.add_argument("--option", action="append", default=[])
    return p


def _setup(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from engine.sim import seat_bots

    entry = get_game(args.game)
    config = entry.rules.make_config(args.players, parse_options(args.option))
    for note in getattr(entry.rules, "config_warnings", lambda c: [])(config):
        print(f"palazzo: note: {note}", file=sys.stderr)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    bots = seat_bots(entry, names, args.players)
    for name in set(bots):
        if name not in entry.bot_names():
            raise ValueError(
                f"unknown bot {name!r} for {args.game} (choose from {', '.join(entry.bot_names())})"
            )
    return entry, config, bots


def cmd_sim(args: argparse.Namespace) -> int:
    from engine.sim import run

    entry, config, bots = _setup(args)
    settings = {} if args.think is None else {"think": args.think}
    names = entry.rules.seat_names
    wins_seat: Counter[int] = Counter()
    wins_kind: Counter[str] = Counter()
    seats_kind: Counter[str] = Counter(bots)
    out = sys.stdout
    for r in run(entry, config, args.games, args.seed, bots, **settings):
        o = r.outcome
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
                f"{o.turns} turns; ended: {o.detail.get('text', o.end)}\n"
            )
        out.flush()
    summary = sys.stderr if args.json else out
    summary.write(f"{args.games} games of {entry.rules.title}, {args.players} players\n")
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
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    import random
    import time

    from engine.core import TERMINAL, LocalGame
    from engine.sim import bot_rng

    entry, config, bots = _setup(args)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rules = entry.rules
    game = LocalGame(rules, config, seed)
    players = [entry.make_bot(n, bot_rng(seed, i)) for i, n in enumerate(bots)]
    print(f"{rules.title}: {args.players} bots ({', '.join(bots)}), seed {seed}")
    while True:
        game.advance()
        who = rules.current_player(game.state)
        if who == TERMINAL:
            break
        game.step(players[who].choose(rules.view(game.state, who), who))
        step = game.history[-1]
        print("  " + game.text(step, viewer=None))
        time.sleep(0.0 if not sys.stdout.isatty() else 0.05)
    o = rules.outcome(game.state)
    names = rules.seat_names
    print("scores: " + ", ".join(f"{names[i]} {s}" for i, s in enumerate(o.scores)))
    print("winner: " + " and ".join(names[w] for w in o.winners) + f" ({o.detail.get('text', o.end)})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["watch"])
        if args.command == "sim":
            return cmd_sim(args)
        if args.command == "watch":
            return cmd_watch(args)
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
