"""Every effect of a move spelled out in the log and marked on the table, as one seat may know it.

Each test builds a position (``engine.<game>.scenario``), takes one step through the rules and
reads what the game's narrator and marker make of the seat's views around it. The rule each test
checks is in its name. Hidden information: an opponent's face-down card is never in the seat's
log, which the tests show by narrating the same step with every card the opponent could have
played and finding the same words.
"""

from __future__ import annotations

from engine.condottiere import RULES as CONDOTTIERE
from engine.condottiere.cards import BISHOP, NAMES, SCARECROW, WINTER, parse_card, region_index
from engine.condottiere.scenario import position as battle
from engine.condottiere.state import CondottiereConfig
from engine.core import LocalGame
from engine.medici import RULES as MEDICI
from engine.medici.cards import long_name, short_name
from engine.medici.scenario import action, after, position
from engine.medici.state import place_of
from engine.medici.text import stack_label
from tui.condottiere import narrate as condottiere
from tui.medici import narrate as medici
from tui.medici.narrate import card_text

NAMES4 = ("Orsini", "Colonna", "Delle Rovere", "Gonzaga")


def tell(rules, module, before, a, seat, names):
    """The log lines and the marks of one step, from ``seat``'s views around it."""
    nxt = rules.apply(before, a)
    vb, va = rules.view(before, seat), rules.view(nxt, seat)
    return module.narrate(vb, a, va, seat, names), module.marks(vb, a, va, seat)


# -- Court of the Medici -------------------------------------------------------------------------


def test_a_conspiracy_names_the_stack_it_eliminates_and_marks_the_stack_it_built():
    s = position(hands=["O3", "", "", ""], middle=["O5", "C2"])
    lines, marks = tell(MEDICI, medici, s, action("conspire", 0, "O3", stack="B", elim="A"), 1, NAMES4)
    assert lines == ["Orsini conspires: Noble 3 onto stack B, now 5; "
                     "stack A (Orsini Noble 5 = 5) is eliminated."]
    assert marks == {("stack", 1)}


def test_a_strike_names_the_hidden_card_and_the_stack_it_eliminates_and_marks_the_new_stack():
    s = position(hands=["O2", "", "", ""], middle=["G10"])
    s = after(s, action("strike", 0, "O2", slot=1))
    s = after(s, MEDICI.legal_actions(s)[0])  # Colonna reveals its hidden card
    hit = [a for a in MEDICI.legal_actions(s) if a.elim == 0]
    assert hit, "the strike should match stack A"
    lines, marks = tell(MEDICI, medici, s, hit[0], 2, NAMES4)
    text = lines[0]
    assert "the hidden card is Colonna Noble 6" in text
    assert "stack A (Gonzaga Noble 10 = 10) is eliminated" in text
    assert "becomes stack B" in text
    assert marks == {("stack", 1)}
    # the stack's cards in the order the court lists them, bottom first
    from tui.medici.render import stack_inline

    made = MEDICI.apply(s, hit[0]).stack(1)
    court = [w.split(" ", 1)[1] for w in stack_inline(made).split(" + ")]
    said = text.split("; ")[-1].split(" = ")[0].split(" + ")
    assert [w.split(" ", 1)[1].replace("Noble ", "") for w in said] == court


def test_a_ministers_wipe_names_every_card_it_eliminates():
    s = position(hands=["OM", "", "", ""], middle=["C5 G7"])
    lines, marks = tell(MEDICI, medici, s, action("build", 0, "OM", stack="A"), 2, NAMES4)
    assert "Colonna Noble 5, Gonzaga Noble 7 are eliminated" in lines[0]
    assert "the Minister stays alone as stack A" in lines[0]
    assert marks == {("stack", 0)}


def test_a_ladys_split_names_every_stack_it_leaves_and_marks_them_all():
    s = position(hands=["OL", "", "", ""], middle=["C5 G7", "R3"])
    a = action("build", 0, "OL", stack="A")
    lines, marks = tell(MEDICI, medici, s, a, 3, NAMES4)
    split = MEDICI.apply(s, a).middle
    assert len(split) == 4
    for sid, _, ((c, v),) in [st for st in split if st[0] != 1]:
        assert f"{stack_label(sid)} ({card_text(c, v)})" in lines[0]
    assert marks == {("stack", sid) for sid, _, _ in split if sid != 1}


def test_a_card_sent_to_court_marks_its_new_stack_and_a_plan_clears_the_marks():
    s = position(hands=["O9 O8", "", "", ""], middle=["C5"])
    _, marks = tell(MEDICI, medici, s, action("court", 0, "O9"), 0, NAMES4)
    assert marks == {("stack", 1)}
    _, marks = tell(MEDICI, medici, s, action("plan", 0, "O8"), 0, NAMES4)
    assert marks == frozenset()


def test_the_last_line_names_the_house_whose_last_shadow_alliance_ended_the_game():
    rows = [["O4/C6", None, None], ["C2/O6", "C3/R6", "C4/G6"], ["R2/O7", "R3/C7", "R4/G7"],
            ["G2/O8", "G3/C8", "G4/R8"]]
    s = position(hands=["O2 O9", "C5", "R5", "G5"], middle=["G10"], alliances=rows)
    s = after(s, action("strike", 0, "O2", slot=1))
    s = after(s, MEDICI.legal_actions(s)[0])  # Colonna reveals the hidden card
    lines, _ = tell(MEDICI, medici, s, MEDICI.legal_actions(s)[0], 1, NAMES4)
    assert lines[-1] == "The game ends: Orsini has no shadow alliance left."


def _setup_steps(seed: int):
    """Every step of a four-house set-up, each seat taking its first legal answer."""
    game = LocalGame(MEDICI, MEDICI.make_config(4, {}), seed)
    steps = []
    while True:
        game.advance()
        s = game.state
        if s.phase not in ("hide", "top"):
            return steps
        legal = MEDICI.legal_actions(s)
        steps.append((s, legal))
        game.step(legal[0])


def test_an_opponents_face_down_placement_is_told_where_and_never_which_card():
    told = 0
    for s, legal in _setup_steps(seed=3):
        a = legal[0]
        if a.seat == 0:
            continue
        # the same placement with every card the opponent could have placed there
        same_place = [b for b in legal if place_of(b) == place_of(a)]
        words = {tuple(tell(MEDICI, medici, s, b, 0, NAMES4)[0]) for b in same_place}
        assert len(words) == 1, words
        (line,) = next(iter(words))
        assert " places a card face down " in line
        for b in same_place:
            assert short_name(b.card) not in line and long_name(b.card) not in line
        told += 1
    assert told == 3 * 3 + 3 * 3  # three opponents, three hidden cards and three crowns each


def test_a_face_down_placement_marks_the_alliance_it_went_to():
    s, legal = _setup_steps(seed=3)[0]
    a = legal[0]
    lines, marks = tell(MEDICI, medici, s, a, 1, NAMES4)
    assert lines == [f"Orsini places a card face down before {NAMES4[a.before]}."]
    placed = MEDICI.apply(s, a).alliances[a.before]
    ((_, slot),) = [m[1:] for m in marks]
    assert placed[slot] is not None and placed[slot][0] == 0


# -- Condottiere ---------------------------------------------------------------------------------


def _play(s, card, target=-1):
    return next(a for a in CONDOTTIERE.legal_actions(s)
                if a.kind == "play" and a.card == card
                and (a.region if card == BISHOP else a.taken) == target)


def test_a_bishop_names_what_it_discards_and_whose():
    """T7: A 6, 3, 1, 1; B 6, 1, 1 and B plays a Bishop: both 6s go."""
    s = battle(2, lines=[["Mercenary 6", "Mercenary 3", "Mercenary 1", "Mercenary 1"],
                         ["Mercenary 6", "Mercenary 1", "Mercenary 1"]],
               hands=[["Mercenary 2"], ["Bishop"]], holder=1)
    lines, marks = tell(CONDOTTIERE, condottiere, s, _play(s, BISHOP), 0, ("Red", "Blue"))
    assert lines == ["Blue plays the Bishop, Favor of the Pope off the board.",
                     "The Bishop discards every face-up Mercenary 6: "
                     "1 from Red's line and 1 from Blue's line."]
    assert marks == {("line", 0), ("line", 1)}


def test_a_bishop_ignores_face_down_mercenaries_and_never_names_them():
    """T10: John has 6, 6 and a face-down 10; Scott plays a Bishop: both 6s go, the 10 stays."""
    config = CondottiereConfig(2, hidden_cards=True)
    s = battle(2, config=config, lines=[["Mercenary 6", "Mercenary 6", "~Mercenary 10"],
                                        ["Mercenary 5", "Mercenary 1", "Mercenary 1"]],
               hands=[["Mercenary 2"], ["Bishop"]], holder=1)
    lines, _ = tell(CONDOTTIERE, condottiere, s, _play(s, BISHOP, target=region_index("Roma")),
                    1, ("John", "Scott"))
    assert lines[1] == "The Bishop discards every face-up Mercenary 6: 2 from John's line."
    assert "Mercenary 10" not in " ".join(lines)


def test_a_bishop_with_no_mercenary_face_up_says_it_discards_nothing():
    s = battle(2, lines=[["Heroine"], []], hands=[["Mercenary 2"], ["Bishop"]], holder=1)
    lines, _ = tell(CONDOTTIERE, condottiere, s, _play(s, BISHOP), 0, ("Red", "Blue"))
    assert lines[1] == "No mercenary is face up: the Bishop discards nothing."


def test_a_winter_names_the_springs_it_discards():
    s = battle(2, lines=[["Spring", "Mercenary 5"], []], hands=[["Mercenary 2"], ["Winter"]], holder=1)
    lines, marks = tell(CONDOTTIERE, condottiere, s, _play(s, WINTER), 0, ("Red", "Blue"))
    assert lines[1] == "The Winter discards every Spring: 1 from Red's line."
    assert marks == {("line", 0), ("card", 1, 0)}


def test_a_scarecrow_names_the_card_it_takes_back_and_marks_the_line():
    ten = parse_card("Mercenary 10")
    s = battle(2, lines=[["Mercenary 10", "Mercenary 2"], ["Mercenary 3"]],
               hands=[["Scarecrow"], ["Mercenary 2"]])
    lines, marks = tell(CONDOTTIERE, condottiere, s, _play(s, SCARECROW, target=ten), 1, ("Red", "Blue"))
    assert lines == ["Red plays the Scarecrow, takes back Mercenary 10."]
    assert marks == {("line", 0)}


def test_the_last_line_names_the_player_whose_regions_won_and_what_they_are():
    s = battle(2, owner={"Torino": 0, "Milano": 0, "Genova": 0}, battle="Parma",
               lines=[["Mercenary 5"], ["Mercenary 3"]], hands=[["Mercenary 2"], ["Mercenary 1"]],
               passed=[0, 1], turn=0)
    passing = next(a for a in CONDOTTIERE.legal_actions(s) if a.kind == "pass")
    lines, _ = tell(CONDOTTIERE, condottiere, s, passing, 1, ("Red", "Blue"))
    assert lines[-1] == "The game ends: Red holds 4 adjacent regions and wins."


def test_a_card_played_is_marked_where_it_lies_and_a_battle_ended_marks_its_region():
    s = battle(2, lines=[["Mercenary 5"], ["Mercenary 3"]], hands=[["Mercenary 2"], ["Heroine", "Mercenary 1"]],
               battle="Parma", passed=[1, 0], holder=0, turn=1)
    _, marks = tell(CONDOTTIERE, condottiere, s, _play(s, parse_card("Heroine")), 0, ("Red", "Blue"))
    assert marks == {("card", 1, 1)}
    passing = next(a for a in CONDOTTIERE.legal_actions(s) if a.kind == "pass")
    lines, marks = tell(CONDOTTIERE, condottiere, s, passing, 0, ("Red", "Blue"))
    assert "Red conquers Parma" in " ".join(lines)
    assert ("region", region_index("Parma")) in marks


def test_an_opponents_face_down_card_is_never_named_in_the_log():
    config = CondottiereConfig(2, hidden_cards=True)
    s = battle(2, config=config, lines=[["Mercenary 5"], []],
               hands=[["Mercenary 2"], ["Mercenary 10", "Mercenary 1", "Heroine", "Drummer"]],
               holder=1)
    plays = [a for a in CONDOTTIERE.legal_actions(s) if a.kind == "play"]
    words = {tuple(tell(CONDOTTIERE, condottiere, s, a, 0, ("Red", "Blue"))[0]) for a in plays}
    assert words == {("Blue plays a card face down.",)}
    for a in plays:
        assert NAMES[a.card] not in " ".join(next(iter(words)))
    # the seat itself hears its own card
    own = tell(CONDOTTIERE, condottiere, s, plays[0], 1, ("Red", "Blue"))[0]
    assert own == [f"Blue plays {NAMES[plays[0].card]} face down."]


# -- the marks on the table ----------------------------------------------------------------------


async def test_the_stack_a_conspiracy_built_stays_marked_on_the_court(ui, still):
    s = position(hands=["O3 O9", "", "", ""], middle=["O5", "C2", "G7"])
    app = still.app(still.client("medici", s, action("conspire", 0, "O3", stack="B", elim="A"), 0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        rows = [line for line in ui.text(app).splitlines() if "Orsini 3" in line or "Gonzaga 7" in line]
        assert any("*B   5 Colonna 2 + Orsini 3" in row for row in rows)
        assert any(" C   7 Gonzaga 7" in row and "*C" not in row for row in rows)
        assert "stack A (Orsini Noble 5 = 5) is eliminated" in app.screen.query_one("#log").lines[-1]


async def test_a_strike_under_way_marks_its_shadow_alliance(ui, still):
    s = position(hands=["O2 O9", "", "", ""], middle=["G10"])
    app = still.app(still.client("medici", s, action("strike", 0, "O2", slot=1), 0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "*2/?Colonna + 2 striking" in ui.text(app)


async def test_the_lines_a_bishop_emptied_are_marked(ui, still):
    s = battle(2, lines=[["Mercenary 6", "Mercenary 3"], ["Mercenary 6", "Mercenary 1"]],
               hands=[["Mercenary 2"], ["Bishop", "Mercenary 1"]], holder=1)
    app = still.app(still.client("condottiere", s, _play(s, BISHOP), 0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = ui.text(app)
        assert "* 3 " in text and "* 1 " in text
        log = app.screen.query_one("#log").lines
        assert log[-1].startswith("The Bishop discards every face-up Mercenary 6")


def test_condottiere_log_lines_name_the_player_without_a_colon_and_a_kept_hand_says_nothing():
    from engine.condottiere import RULES as C
    from engine.condottiere.scenario import position as cpos
    from engine.condottiere.state import mk as cmk
    from tui.condottiere.narrate import narrate as cnarrate

    s = cpos(2, hands=[["Mercenary 5"], ["Mercenary 1"]])
    a = cmk("pass", 0)
    lines = cnarrate(s, a, C.apply(s, a), 1, ("Red", "Blue"))
    assert lines[0] == "Red passes."
    held = cpos(2, hands=[["Mercenary 5"], ["Mercenary 1"]], phase="discard", queue=(0, 1))
    hold = cmk("hold", 0)
    assert cnarrate(held, hold, C.apply(held, hold), 1, ("Red", "Blue")) == []


def test_the_battle_box_forgets_the_last_battles_passes():
    from engine.condottiere.scenario import position as cpos
    from tui.condottiere.render import players_text

    during = cpos(2, hands=[["Mercenary 5"], ["Mercenary 1"]], passed=[0, 1])
    assert "passed" in players_text(during, 0, ("Red", "Blue"), 0).plain
    after = cpos(2, hands=[["Mercenary 5"], ["Mercenary 1"]], passed=[0, 1], phase="place",
                 battle=None)
    assert "passed" not in players_text(after, 0, ("Red", "Blue"), 0).plain
