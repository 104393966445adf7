"""Rules of the set-up: the deal, the two simultaneous placements, the first player."""

import pytest

from engine.core import CHANCE, REVEAL, UNKNOWN, LocalGame
from engine.medici import RULES, MediciConfig
from engine.medici.cards import COPIES, HOUSE_SIZE, RANK_VALUE, house_deck, house_of
from engine.medici.scenario import action, after, position, with_fields
from engine.medici.text import action_text


def dealt(players: int, seed: int = 3) -> LocalGame:
    game = LocalGame(RULES, MediciConfig(players), seed)
    game.advance()
    return game


def place_all(game: LocalGame, phase: str) -> None:
    while game.state.phase == phase:
        game.step(RULES.legal_actions(game.state)[0])


def test_each_house_has_twenty_five_cards():
    assert sum(COPIES) == HOUSE_SIZE == 25
    for h in range(4):
        deck = house_deck(h)
        values = sorted(RANK_VALUE[c % 13] for c in deck)
        # nobles 2..10 twice, two Ministers (0), two Ladies (1), two Jesters (1 as scored), a Duke
        assert values == sorted([*range(2, 11)] * 2 + [0, 0, 1, 1, 1, 1, 15])
        assert {house_of(c) for c in deck} == {h}


def test_deal_gives_each_player_eleven_cards_of_their_own_house():
    for players in (3, 4):
        s = dealt(players).state
        assert s.phase == "hide"
        for seat in range(players):
            assert len(s.hands[seat]) == 11 and len(s.pools[seat]) == 14
            assert {house_of(c) for c in s.hands[seat]} == {seat}


def test_deal_draws_are_chance_steps():
    game = LocalGame(RULES, MediciConfig(4), 5)
    assert RULES.current_player(game.state) == CHANCE
    outcomes = RULES.chance_outcomes(game.state)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert {a.kind for a, _ in outcomes} == {"draw"}


def test_hide_four_players_one_card_before_each_other_player():
    game = dealt(4)
    assert {a.before for a in RULES.legal_actions(game.state)} == {1, 2, 3}
    place_all(game, "hide")
    for holder, row in enumerate(game.state.alliances):
        assert sorted(a[0] for a in row) == sorted(p for p in range(4) if p != holder)


def test_hide_three_players_also_one_before_yourself():
    game = dealt(3)
    assert {a.before for a in RULES.legal_actions(game.state)} == {0, 1, 2}
    place_all(game, "hide")
    for row in game.state.alliances:
        assert sorted(a[0] for a in row) == [0, 1, 2]


def test_hidden_card_known_only_to_its_placer():
    game = dealt(4)
    place_all(game, "hide")
    s = game.state
    for holder, row in enumerate(s.alliances):
        for placer, hidden, _, _ in row:
            for seat in range(4):
                seen = RULES.view(s, seat).alliances[holder]
                seen_hidden = [a[1] for a in seen if a[0] == placer][0]
                assert seen_hidden == (hidden if seat == placer else UNKNOWN)


def test_top_cards_are_placed_hidden_then_turned_up_one_by_one():
    game = dealt(4)
    place_all(game, "hide")
    first = RULES.legal_actions(game.state)[0]
    assert first.kind == "top" and first.seat == 0
    game.step(first)
    # the other seats see that a card was placed, not which
    for seat in (1, 2, 3):
        assert RULES.view(game.state, seat).alliances[0][first.slot][2] == UNKNOWN
        assert "places a card on" in action_text(game.history[-1].before, first, viewer=seat)
    assert RULES.view(game.state, 0).alliances[0][first.slot][2] == first.card
    place_all(game, "top")
    s = game.state
    assert s.phase == "flip" and RULES.current_player(s) == REVEAL and RULES.revealer(s) == 0
    flips = 0
    while RULES.current_player(game.state) == REVEAL:
        (flip,) = RULES.legal_actions(game.state)
        game.step(flip)
        flips += 1
    assert flips == 12
    assert all(a[3] == 1 for row in game.state.alliances for a in row)


def test_after_setup_each_player_holds_five_cards_and_a_deck_of_fourteen():
    for players in (3, 4):
        game = dealt(players)
        place_all(game, "hide")
        place_all(game, "top")
        game.advance()
        s = game.state
        assert s.phase == "play"
        assert [len(h) for h in s.hands] == [5] * players
        assert [len(p) for p in s.pools] == [14] * players


def flipping(alliances: list[list[str]], config: dict | None = None):
    """The position just before the very last top card is turned up."""
    s = position(hands=["O2", "C2", "R2", "G2"], alliances=alliances, phase="flip", turn=3)
    data = s.to_data()
    data["alliances"][3][2][3] = 0
    fields = {"alliances": data["alliances"]}
    if config:
        fields["config"] = config
    s = with_fields(s, **fields)
    return after(s, action("flip", 3, alliances[3][2].split("/")[0], 0, slot=3))


FOUR = [
    ["O5/C3", "O6/R3", "O7/G3"],
    ["C5/R4", "C6/G4", "C7/O4"],
    ["R5/G5", "R6/O5", "R7/C4"],
    ["G5/O3", "G6/C3", "G7/R4"],
]


def test_first_player_has_the_highest_face_up_total():
    alliances = [row[:] for row in FOUR]
    alliances[2][0] = "RD/G5"  # Delle Rovere: 15 + 6 + 7
    s = flipping(alliances)
    assert s.phase == "play" and s.turn == 2


def test_jester_counts_one_for_first_player():
    alliances = [row[:] for row in FOUR]
    alliances[0] = ["OJ/C3", "O10/R3", "O10/G3"]  # 1 + 10 + 10 = 21 (a 10 would make it 30)
    alliances[1] = ["C9/R4", "C8/G4", "C5/O4"]  # 22
    s = flipping(alliances)
    assert s.turn == 1


def test_first_player_tie_is_broken_by_lot_among_the_tied():
    alliances = [row[:] for row in FOUR]
    alliances[1][0] = "C6/R4"  # Colonna 19, Orsini 18, Delle Rovere 18, Gonzaga 18
    alliances[3][0] = "G6/O3"  # Gonzaga 19
    s = flipping(alliances)
    assert s.phase == "first" and RULES.current_player(s) == CHANCE
    outcomes = RULES.chance_outcomes(s)
    assert [(a.kind, a.seat, p) for a, p in outcomes] == [("first", 1, 0.5), ("first", 3, 0.5)]
    assert after(s, outcomes[1][0]).turn == 3


def test_first_player_tie_goes_to_the_youngest_when_ages_are_entered():
    alliances = [row[:] for row in FOUR]
    config = {"players": 4, "end_when_all_struck": False, "ages": [9, 40, 12, 33]}
    s = flipping(alliances, config)  # all four tie at 18: Orsini is youngest
    assert s.phase == "play" and s.turn == 0
    config["ages"] = [40, 12, 30, 12]
    s = flipping(alliances, config)  # Colonna and Gonzaga equally young: a lot between them
    assert [a.seat for a, _ in RULES.chance_outcomes(s)] == [1, 3]


def test_play_passes_clockwise():
    s = position(hands=["O5", "C5", "R5", "G5"], turn=3)
    s = after(s, action("court", 3, "G5"))
    assert s.phase == "draw"
    (draw, _), *_ = RULES.chance_outcomes(s)
    s = after(s, draw)
    assert s.phase == "play" and s.turn == 0 and s.turns == 1


def test_setup_hide_and_top_cards_come_from_the_hand():
    game = dealt(4)
    hide = RULES.legal_actions(game.state)[0]
    assert hide.card in game.state.hands[0]
    game.step(hide)
    assert len(game.state.hands[0]) == 10


def test_slot_order_follows_the_placers_clockwise():
    # slot 1 holds the card of the next player clockwise, slot 2 the one after; with three
    # players a player's own face-down card is in slot 3
    for players in (3, 4):
        game = dealt(players)
        place_all(game, "hide")
        for holder, row in enumerate(game.state.alliances):
            placers = [(holder + k + 1) % players for k in range(3)]
            assert [a[0] for a in row] == placers


def test_ages_are_part_of_the_configuration():
    config = RULES.make_config(3, {"ages": [30, 8, 51]})
    assert config == MediciConfig(3, True, (30, 8, 51))
    assert RULES.new_game(config).config.ages == (30, 8, 51)
    for bad in ([30, 8], [30, 8, -1], 30):
        with pytest.raises(ValueError):
            RULES.make_config(3, {"ages": bad})
