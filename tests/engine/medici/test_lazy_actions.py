"""Court of the Medici's legal actions make only what is read: a play decision's conspiracies are
made when asked for (``engine.medici.lazy``). Held here to the full list at every decision of
seeded random games, whole states and each seat's view, read one at a time and as a whole."""

import copy
import json
import pickle
import random

from engine.core import CHANCE, REVEAL, TERMINAL, sample_chance
from engine.medici import RULES
from engine.medici.lazy import LazyActions
from engine.medici.state import MediciConfig


def decisions(games, seed):
    """Every state at a decision of ``games`` random games, and each seat's view of it."""
    rng = random.Random(seed)
    for g in range(games):
        s = RULES.new_game(MediciConfig(3 + g % 2, end_when_all_struck=g % 4 >= 2))
        while (who := RULES.current_player(s)) != TERMINAL:
            if who == CHANCE:
                a = sample_chance(RULES.chance_outcomes(s), rng)
            elif who == REVEAL:
                a = RULES.legal_actions(s)[0]
            else:
                yield s
                yield RULES.view(s, who)
                a = rng.choice(RULES.legal_actions(s))
            s = RULES.apply_unchecked(s, a)


def test_legal_actions_read_one_at_a_time_are_the_full_list():
    lazy = 0
    for s in decisions(12, 7):
        one_by_one = RULES.legal_actions(s)
        n = len(one_by_one)
        read = [one_by_one[i] for i in range(n)]
        backwards = [one_by_one[-i] for i in range(1, n + 1)]
        full = list(RULES.legal_actions(s))
        assert read == full and backwards == full[::-1]
        assert len(set(full)) == n  # each action once
        if isinstance(RULES.legal_actions(s), LazyActions):
            lazy += 1
    assert lazy > 50  # decisions with conspiracies were met


def test_a_lazy_list_of_actions_reads_as_the_full_list_whatever_is_asked():
    for s in decisions(6, 3):
        if not isinstance(RULES.legal_actions(s), LazyActions):
            continue
        full = list(RULES.legal_actions(s))
        la = RULES.legal_actions

        assert la(s) == full and full == la(s) and not la(s) != full and la(s) == la(s)
        assert full[-1] in la(s) and la(s).index(full[-1]) == len(full) - 1
        assert la(s).count(full[0]) == 1 and bool(la(s))
        assert la(s)[1:4] == full[1:4] and list(reversed(la(s))) == full[::-1]
        assert sorted(la(s)) == sorted(full) and la(s) + [] == full and [] + la(s) == full
        assert copy.copy(la(s)) == full and la(s).copy() == full
        assert pickle.loads(pickle.dumps(la(s))) == full
        assert json.dumps(la(s)) == json.dumps(full)
        changed = la(s)
        changed.append(full[0])
        assert changed == [*full, full[0]] and len(changed) == len(full) + 1
        rng_a, rng_b = random.Random(1), random.Random(1)
        assert rng_a.choice(la(s)) == rng_b.choice(full)
        return
    raise AssertionError("no decision with conspiracies met")
