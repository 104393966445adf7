"""The client hands a table only one seat's view, checks the seat's decisions, and tells the
game in words the seat may hear."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import UNKNOWN, IllegalActionError, LocalGame
from engine.medici import RULES
from engine.medici.cards import long_name
from engine.medici.text import stack_label
from engine.registry import get_game
from engine.sim import bot_rng
from tui.client import LocalClient, NotYourTurn
from tui.medici.narrate import narrate
from tui.setup import GameSetup, make_client


def is_masked(state) -> bool:
    """Whether any card of this state is ``UNKNOWN`` (it is a view, not the full state)."""
    if any(UNKNOWN in h for h in state.hands) or any(UNKNOWN in p for p in state.pools):
        return True
    if any(UNKNOWN in b for b in state.bottoms):
        return True
    return any(a is not None and UNKNOWN in a[1:3] for row in state.alliances for a in row)


def _client(seed: int = 1, seat: int = 0) -> LocalClient:
    return make_client(GameSetup(bots=("greedy",), seed=seed, seat=seat, pace=0))


async def _play(client: LocalClient, rng: random.Random) -> list:
    """Play the client's seat at random through the interface; return every snapshot."""
    snaps = []
    async for snap in client.updates():
        snaps.append(snap)
        if snap.my_turn:
            client.submit(rng.choice(snap.legal))
    return snaps


def test_a_snapshot_is_the_seats_view_never_the_state():
    client = _client(seat=2)
    snap = client.snapshot()
    full = client._local.state
    assert snap.state == RULES.view(full, 2)
    assert snap.state != full
    assert is_masked(snap.state)
    assert UNKNOWN not in snap.state.hands[2]
    for other in (0, 1, 3):
        assert full.hands[other] and set(snap.state.hands[other]) == {UNKNOWN}


def test_a_whole_game_through_the_interface_shows_only_views():
    client = _client(seed=4)
    snaps = asyncio.run(_play(client, random.Random(4)))
    assert snaps[-1].outcome is not None
    assert snaps[-1].outcome == RULES.outcome(client._local.state)
    real = {RULES.view(step.before, 0) for step in client._local.history}
    real.add(RULES.view(client._local.state, 0))
    for snap in snaps:
        assert snap.state in real
        for h in (1, 2, 3):
            assert all(c == UNKNOWN for c in snap.state.hands[h][:-1])
        assert snap.legal == () or snap.actor == 0


def test_submit_refuses_a_move_out_of_turn_and_an_illegal_move():
    client = _client(seed=2)
    snap = client.snapshot()
    assert snap.my_turn and snap.state.phase == "hide"
    bad = snap.legal[0]._replace(before=0)  # a card face down before yourself, with 4 players
    with pytest.raises(IllegalActionError):
        client.submit(bad)
    other = _client(seed=2, seat=1)
    assert not other.snapshot().my_turn
    with pytest.raises(NotYourTurn):
        other.submit(snap.legal[0])


def test_bots_move_one_at_a_time_at_the_pace():
    client = make_client(GameSetup(bots=("greedy",), seed=3, pace=0.05))

    async def run():
        loop = asyncio.get_running_loop()
        times = []
        async for snap in client.updates():
            if snap.my_turn:
                client.submit(snap.legal[0])
            elif snap.state.phase in ("play", "draw") and snap.actor != 0:
                times.append((loop.time(), snap.steps))
            if len(times) >= 6:
                client.close()
        return times

    times = asyncio.run(run())
    gaps = [b[0] - a[0] for a, b in zip(times, times[1:], strict=False) if b[1] != a[1]]
    assert gaps and min(gaps) >= 0.05


def test_the_log_tells_a_strike_with_its_hidden_card_and_victim():
    entry = get_game("medici")
    bots = {s: "greedy" for s in range(4)}
    for seed in range(40):
        game = LocalGame(RULES, RULES.make_config(4, {}), seed)
        players = {s: entry.make_bot(n, bot_rng(seed, s)) for s, n in bots.items()}
        while True:
            game.advance()
            who = RULES.current_player(game.state)
            if who < 0:
                break
            before = game.state
            action = players[who].choose(RULES.view(before, who), who)
            game.step(action)
            if action.kind == "resolve" and action.elim >= 0:
                viewer = (who + 1) % 4
                lines = narrate(
                    RULES.view(before, viewer), action, RULES.view(game.state, viewer), viewer,
                    RULES.seat_names,
                )
                text = lines[0]
                hidden = before.pending[3]
                assert text.startswith(f"{RULES.seat_names[who]} strikes from the shadows")
                assert f"the hidden card is {long_name(hidden)}" in text
                assert f"stack {stack_label(action.elim)} (" in text and "is eliminated" in text
                return
    raise AssertionError("no strike eliminated anything in 40 games")


def test_the_log_tells_every_face_down_placement_but_names_only_the_seats_own_cards():
    client = _client(seed=6)

    async def run():
        async for snap in client.updates():
            if snap.my_turn:
                client.submit(snap.legal[0])
            if snap.state.phase == "play":
                return snap

    snap = asyncio.run(run())
    placed = [line for line in snap.log if "face down" in line]
    mine = [line for line in placed if line.startswith("Orsini (you)")]
    others = [line for line in placed if not line.startswith("Orsini (you)")]
    # four houses: each places three hidden cards and crowns its three alliances face down
    assert len(mine) == 3 and len(others) == 3 * 3 + 3 * 3
    assert all(" places a card face down " in line for line in others)
    assert "Colonna places a card face down before Orsini (you)." in others
    assert "Colonna places a card face down on its shadow alliance 1." in others
    assert all("a card" not in line for line in mine)



_any_int = st.integers(-(2**63), 2**64 - 1)


@given(st.sampled_from(["medici", "condottiere"]), st.integers(0, 60), _any_int, _any_int,
       _any_int, _any_int, _any_int, st.integers(-2, 6))
def test_narrating_any_action_ends_and_says_something(budget, game, moves, seat, card, target,
                                                      other, more, viewer):
    """A narrator tells steps the rules took; still, whatever numbers it is given, it ends and
    says something (a stack number of -2 once sent the stack labels into a loop for ever), and
    its marker ends and names a set of marks or none."""
    from engine.condottiere.state import ACTION_KINDS
    from engine.condottiere.state import Action as CondottiereAction
    from engine.medici.state import KINDS
    from engine.medici.state import Action as MediciAction
    from tui.condottiere.narrate import marks as marks_condottiere
    from tui.condottiere.narrate import narrate as narrate_condottiere
    from tui.medici.narrate import marks as marks_medici

    rules = get_game(game).rules
    state = rules.new_game(rules.make_config(3, {}))
    for _ in range(moves):
        if rules.current_player(state) == -3:
            break
        state = rules.apply(state, rules.legal_actions(state)[0])
    if game == "medici":
        a = MediciAction(KINDS[moves % len(KINDS)], seat, card=card, value=other, before=target,
                         slot=more, stack=other)
        tell, mark = narrate, marks_medici
    else:
        a = CondottiereAction(ACTION_KINDS[moves % len(ACTION_KINDS)], seat, card=card,
                              region=target, taken=other, position=(card, more))
        tell, mark = narrate_condottiere, marks_condottiere
    with budget(2):
        lines = tell(state, a, state, viewer, ["Ada", "Bo", "Cy"])
        marks = mark(state, a, state, viewer)
    assert all(isinstance(line, str) and line for line in lines)
    assert marks is None or isinstance(marks, frozenset)
