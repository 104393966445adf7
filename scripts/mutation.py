#!/usr/bin/env python3
"""Mutation testing of the rules: does a test of each rule catch that rule being changed?

Each mutation below changes one rule of ``engine/`` (one text replaced in one file) and names
the test of that rule itself: a test named after the rule (``docs/rules/*.md``), never a golden
file or a conformance run. For each mutation, in a temporary copy of the tree (the working tree
is never written), the script runs ``tests/engine`` with that rule test first and ``-x``:

* **killed**: the rule's own test fails;
* **caught elsewhere**: the rule's test passes but another test of ``tests/engine`` fails
  (a golden file, a conformance game): the rule has no test of its own, which is a gap;
* **survived**: every test passes;
* **stale**: the text to change is no longer in the file (the rule was rewritten; update the
  mutation).

The score is the share of mutations killed by their own rule test. ``--list`` prints the
mutations, one a line; ``--only NAME`` runs some; ``--quick`` runs only the rule tests (no
``tests/engine`` after a survivor). It is slow (a run of the tests per mutation): run it with
``nice``, e.g. ``nice -n 10 scripts/mutation.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
C = "engine/condottiere/"
M = "engine/medici/"
CT = "tests/engine/condottiere/"
MT = "tests/engine/medici/"


@dataclass(frozen=True)
class Mutation:
    """One rule changed: ``old`` becomes ``new`` in ``path`` (``old`` occurs there once)."""

    name: str
    path: str
    old: str
    new: str
    #: the tests of the rule itself, as pytest node ids
    tests: tuple[str, ...]


def mut(name: str, path: str, old: str, new: str, *tests: str) -> Mutation:
    return Mutation(name, path, old, new, tests)


MUTATIONS = [
    # -- Condottiere: strength ---------------------------------------------------------------
    mut("winter-leaves-mercenaries-as-printed", C + "measures.py",
        "v = 1 if winter else MERC_STRENGTH[c]", "v = MERC_STRENGTH[c]",
        CT + "test_rules.py::test_T2_winter_makes_every_mercenary_one"),
    mut("drummer-does-not-double", C + "measures.py",
        "out.append((2 * mercs if drum else mercs) + bonus)", "out.append(mercs + bonus)",
        CT + "test_rules.py::test_T3_a_drummer_doubles_the_mercenaries"),
    mut("drummer-doubles-the-bonus-too", C + "measures.py",
        "out.append((2 * mercs if drum else mercs) + bonus)",
        "out.append(2 * (mercs + bonus) if drum else mercs + bonus)",
        CT + "test_rules.py::test_T6_spring_with_a_drummer"),
    mut("spring-gives-two", C + "measures.py",
        "                    bonus += 3\n", "                    bonus += 2\n",
        CT + "test_rules.py::test_T5_spring_gives_three_to_the_top_printed_mercenaries"),
    mut("spring-favours-every-mercenary", C + "measures.py",
        "if spring and MERC_STRENGTH[c] == top:", "if spring:",
        CT + "test_rules.py::test_T5_spring_gives_three_to_the_top_printed_mercenaries"),
    mut("heroine-counts-nine", C + "measures.py",
        "                bonus += 10\n", "                bonus += 9\n",
        CT + "test_rules.py::test_a_heroine_counts_ten_and_a_courtesan_one"),
    mut("courtesan-counts-nothing", C + "measures.py",
        "            elif c == COURTESAN:\n                bonus += 1\n",
        "            elif c == COURTESAN:\n                bonus += 0\n",
        CT + "test_rules.py::test_a_heroine_counts_ten_and_a_courtesan_one"),
    # -- Condottiere: the battle -------------------------------------------------------------
    mut("a-tie-conquers-for-the-first-seat", C + "flow.py",
        "winner = top[0] if len(top) == 1 else -1", "winner = top[0]",
        CT + "test_rules.py::test_D8_surrender_ties_and_modifiers"),
    mut("courtesans-take-the-token-only-when-someone-wins", C + "flow.py",
        "if most > 0 and court.count(most) == 1:",
        "if most > 0 and court.count(most) == 1 and winner >= 0:",
        CT + "test_rules.py::test_D3_most_courtesans_takes_the_token_even_in_a_tie"),
    mut("courtesans-tied-still-take-the-token", C + "flow.py",
        "if most > 0 and court.count(most) == 1:", "if most > 0:",
        CT + "test_rules.py::test_D3_most_courtesans_takes_the_token_even_in_a_tie"),
    mut("the-token-stays-with-the-placer-after-a-tie", C + "flow.py",
        "            s.holder = (s.placer + 1) % n\n", "            s.holder = s.placer\n",
        CT + "test_rules.py::test_D3_most_courtesans_takes_the_token_even_in_a_tie"),
    mut("the-winner-does-not-take-the-token", C + "flow.py",
        "        elif winner >= 0:\n            s.holder = winner\n",
        "        elif winner >= 0:\n            s.holder = s.placer\n",
        CT + "test_variants.py::test_a_battle_ends_when_all_have_passed_and_the_strongest_conquers"),
    mut("a-defender-loses-the-token-in-a-tie", C + "flow.py",
        "    if s.defender >= 0 and winner < 0:", "    if False:",
        CT + "test_variants.py::test_capture_replaces_the_marker_and_a_tie_keeps_it_for_the_defender"),
    mut("bishop-discards-face-down-top-mercenaries", C + "rules.py",
        "tuple(e for e in line if not (e[1] and 0 <= e[0] < 7 and MERC_STRENGTH[e[0]] == top))",
        "tuple(e for e in line if not (0 <= e[0] < 7 and MERC_STRENGTH[e[0]] == top))",
        CT + "test_rules.py::test_T10_a_bishop_ignores_face_down_mercenaries"),
    mut("bishop-top-counts-face-down-mercenaries", C + "rules.py",
        "top = max((MERC_STRENGTH[x] for line in lines for x, up in line if up and 0 <= x < 7),",
        "top = max((MERC_STRENGTH[x] for line in lines for x, up in line if 0 <= x < 7),",
        CT + "test_rules.py::test_T10_a_bishop_ignores_face_down_mercenaries"),
    mut("bishop-leaves-the-favor", C + "rules.py",
        "        s.favor = a.region\n", "",
        CT + "test_rules.py::test_D4_a_bishop_with_no_mercenary_in_play_still_moves_the_favor"),
    mut("spring-leaves-winter", C + "rules.py",
        "other = SPRING if c == WINTER else WINTER", "other = c",
        CT + "test_variants.py::test_winter_and_spring_discard_each_other"),
    mut("scarecrow-takes-face-down-mercenaries", C + "rules.py",
        "for m in (NONE, *sorted({m for m, up in line if up and 0 <= m < 7})):",
        "for m in (NONE, *sorted({m for m, up in line if 0 <= m < 7})):",
        CT + "test_variants.py::test_a_scarecrow_takes_back_only_own_face_up_mercenaries"),
    mut("surrender-does-not-end-the-battle", C + "rules.py",
        "        discard_cards(s, (c,))\n        conclude(s)\n        return\n",
        "        discard_cards(s, (c,))\n        next_turn(s, seat)\n        return\n",
        CT + "test_rules.py::test_D8_surrender_ties_and_modifiers"),
    mut("the-defender-may-not-pass-freely", C + "rules.py",
        "    if seat == s.defender and s.free:\n", "    if False:\n",
        CT + "test_variants.py::test_the_defender_passes_freely_until_it_plays"),
    # -- Condottiere: regions and victory ----------------------------------------------------
    mut("the-favor-may-go-on-the-battle", C + "measures.py",
        "return [r for r in range(NREGIONS) if r != battle and owner[r] < 0]",
        "return [r for r in range(NREGIONS) if owner[r] < 0]",
        CT + "test_rules.py::test_D1_the_favor_cannot_go_on_the_region_fought_over"),
    mut("a-battle-may-go-on-the-favor", C + "measures.py",
        "return [r for r in range(NREGIONS) if r != favor and owner[r] < 0]",
        "return [r for r in range(NREGIONS) if owner[r] < 0]",
        CT + "test_rules.py::test_D5_the_favor_may_leave_the_board_and_frees_its_region"),
    mut("capturing-may-attack-ones-own-region", C + "measures.py",
        "return [r for r in range(NREGIONS) if r != favor and owner[r] != seat]",
        "return [r for r in range(NREGIONS) if r != favor]",
        CT + "test_variants.py::test_capturing_the_token_may_go_on_another_players_region"),
    mut("six-players-need-six-regions", C + "measures.py",
        "small = config.players <= 3", "small = config.players <= 6",
        CT + "test_variants.py::test_victory_thresholds_by_player_count_and_bigger_kingdoms"),
    mut("bigger-kingdoms-ask-two-more", C + "measures.py",
        "        adjacent += 1\n", "        adjacent += 2\n",
        CT + "test_variants.py::test_victory_thresholds_by_player_count_and_bigger_kingdoms"),
    mut("connected-regions-need-one-more", C + "measures.py",
        "if largest_group(mask) >= adjacent_need:", "if largest_group(mask) > adjacent_need:",
        CT + "test_variants.py::test_connected_regions_win"),
    mut("regions-in-total-need-one-more", C + "measures.py",
        "if mask.bit_count() >= total_need:", "if mask.bit_count() > total_need:",
        CT + "test_variants.py::test_regions_in_total_win"),
    # -- Condottiere: hands ------------------------------------------------------------------
    mut("regions-do-not-raise-the-hand-limit", C + "measures.py",
        "return HAND_BASE + s.owner.count(seat)", "return HAND_BASE",
        CT + "test_rules.py::test_T9_draw_after_battle_respects_the_hand_limit"),
    mut("draw-after-battle-starts-with-ten", C + "measures.py",
        "HAND_START_DRAW = 7", "HAND_START_DRAW = 10",
        CT + "test_variants.py::test_draw_after_battle_starts_with_seven_and_has_no_rounds"),
    mut("draw-after-battle-takes-four", C + "measures.py",
        "DRAW_MAX = 3", "DRAW_MAX = 4",
        CT + "test_rules.py::test_T9_draw_after_battle_respects_the_hand_limit"),
    mut("keep-three-at-the-end-of-a-round", C + "rules.py",
        "    for i, a in enumerate(kinds):\n        for b in kinds[i:]:\n",
        "    out.extend((a, a, a) for a in kinds if hand.count(a) >= 3)\n"
        "    for i, a in enumerate(kinds):\n        for b in kinds[i:]:\n",
        CT + "test_rules.py::test_T8_end_of_round_keep_two_then_deal_up_to_ten_plus_regions"),
    mut("a-hand-with-mercenaries-may-be-discarded", C + "rules.py",
        "if hand and hand[0] >= 7:", "if hand:",
        CT + "test_rules.py::test_T8_end_of_round_keep_two_then_deal_up_to_ten_plus_regions"),
    mut("the-connected-bonus-is-four", C + "measures.py",
        "ADJACENT_BONUS = 5", "ADJACENT_BONUS = 4",
        CT + "test_variants.py::test_points_regions_plus_five_for_connected_regions_then_a_new_game"),
    # -- Court of the Medici -----------------------------------------------------------------
    mut("a-jester-drawn-last-sets-a-limit-of-one", M + "rules.py",
        "limit = JESTER_MAX if c % RANKS == JESTER else RANK_VALUE[c % RANKS]",
        "limit = RANK_VALUE[c % RANKS]",
        MT + "test_end.py::test_a_jester_drawn_last_sets_a_limit_of_ten"),
    mut("a-planned-card-drawn-last-is-not-shown", M + "rules.py",
        "        s.shown = _set(s.shown, seat, c)\n",
        "        if pool:\n            s.shown = _set(s.shown, seat, c)\n",
        MT + "test_end.py::test_a_planned_card_drawn_last_is_shown_and_sets_the_limit"),
    mut("a-limit-refuses-cards-equal-to-it", M + "moves.py",
        "if limit != NO_LIMIT and v > limit:", "if limit != NO_LIMIT and v >= limit:",
        MT + "test_end.py::test_last_card_shown_and_limit"),
    mut("a-jester-under-a-limit-goes-to-ten", M + "moves.py",
        "top = JESTER_MAX if limit == NO_LIMIT else min(JESTER_MAX, limit)", "top = JESTER_MAX",
        MT + "test_end.py::test_jester_under_a_limit_is_declared_at_or_below_it"),
    mut("a-minister-on-one-card-eliminates-it", M + "rules.py",
        "if rank == MINISTER and len(cards) >= 2:", "if rank == MINISTER and len(cards) >= 1:",
        MT + "test_special_cards.py::test_minister_on_single_card_adds_zero"),
    mut("a-lady-does-not-split", M + "rules.py",
        "    elif rank == LADY:\n", "    elif False:\n",
        MT + "test_special_cards.py::test_lady_splits_whole_stack"),
    mut("a-conspiracy-may-eliminate-its-own-stack", M + "legality.py",
        "a.stack != a.elim", "True",
        MT + "test_actions.py::test_conspiracy_never_eliminates_its_own_stack"),
    mut("a-strike-may-fizzle-beside-a-match", M + "rules.py",
        "    out = hits or misses\n", "    out = hits + misses\n",
        MT + "test_strike.py::test_strike_elimination_is_compulsory_when_a_stack_matches"),
    mut("a-plan-with-an-empty-deck", M + "legality.py",
        "        return deck and a == plan", "        return a == plan",
        MT + "test_actions.py::test_plan_not_allowed_with_empty_deck"),
    mut("three-players-hide-before-others-only", M + "rules.py",
        "if (h != seat or n == 3) and s.alliances[h][(seat - h - 1) % n] is None",
        "if h != seat and s.alliances[h][(seat - h - 1) % n] is None",
        MT + "test_setup.py::test_hide_three_players_also_one_before_yourself"),
    mut("the-first-player-tie-goes-to-the-oldest", M + "rules.py",
        "youngest = min(ages[seat] for seat in tied)", "youngest = max(ages[seat] for seat in tied)",
        MT + "test_setup.py::test_first_player_tie_goes_to_the_youngest_when_ages_are_entered"),
    mut("a-jester-counts-ten-for-the-first-player", M + "rules.py",
        "totals = [sum(RANK_VALUE[a[2] % RANKS] for a in row if a is not None) for row in s.alliances]",
        "totals = [sum(10 if a[2] % RANKS == JESTER else RANK_VALUE[a[2] % RANKS]"
        " for a in row if a is not None) for row in s.alliances]",
        MT + "test_setup.py::test_jester_counts_one_for_first_player"),
    mut("a-copy-of-the-shown-card-leaving-keeps-it-shown", M + "rules.py",
        "if shown != NO_CARD and (shown == c or shown not in hand):",
        "if shown != NO_CARD and shown not in hand:",
        MT + "test_end.py::test_played_copy_of_the_shown_card_is_the_shown_card"),
    mut("the-tie-break-ignores-the-highest-card", M + "game.py",
        "        tied = [i for i in tied if best[i] == high]\n",
        "",
        MT + "test_end.py::test_tie_break_highest_card"),
]


def copy_tree(dest: Path) -> None:
    for folder in ("engine", "tests", "tui"):
        shutil.copytree(ROOT / folder, dest / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def pytest(tree: Path, args: list[str], timeout: float) -> tuple[bool, str]:
    """Run pytest in ``tree`` on ``args`` (stopping at the first failure); (passed, output)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1",
           "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "ci")}
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:xdist",
           *args]
    try:
        run = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "timed out"
    return run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]


def judge(m: Mutation, tree: Path, quick: bool, timeout: float) -> str:
    path = tree / m.path
    original = path.read_text()
    if original.count(m.old) != 1:
        return "stale"
    path.write_text(original.replace(m.old, m.new))
    try:
        passed, _ = pytest(tree, list(m.tests), timeout)
        if not passed:
            return "killed"
        if quick:
            return "survived"
        passed, _ = pytest(tree, ["tests/engine"], timeout)
        return "survived" if passed else "caught elsewhere"
    finally:
        path.write_text(original)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--list", action="store_true", help="print the mutations, one a line")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="run only this mutation (repeatable)")
    p.add_argument("--quick", action="store_true",
                   help="run only each mutation's rule tests, not tests/engine after a survivor")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per pytest run")
    args = p.parse_args(argv)
    if args.list:
        for m in MUTATIONS:
            print(f"{m.name}\t{m.path}\t{' '.join(m.tests)}")
        return 0
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    unknown = set(args.only) - {m.name for m in MUTATIONS}
    if unknown:
        p.error(f"no mutation named {', '.join(sorted(unknown))} (see --list)")
    results: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="palazzo-mutation-") as tmp:
        tree = Path(tmp)
        copy_tree(tree)
        for m in chosen:
            start = time.monotonic()
            verdict = judge(m, tree, args.quick, args.timeout)
            results.setdefault(verdict, []).append(m.name)
            print(f"{verdict:17} {m.name} ({time.monotonic() - start:.0f} s)", flush=True)
    killed = len(results.get("killed", []))
    print(f"\nscore: {killed} of {len(chosen)} mutations killed by their own rule test")
    for verdict in ("caught elsewhere", "survived", "stale"):
        if results.get(verdict):
            print(f"{verdict}: {', '.join(results[verdict])}")
    return 0 if killed == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
