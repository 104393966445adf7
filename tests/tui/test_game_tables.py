"""Each layer's per-game table is keyed by the engine registry's game names: a game the engine
offers has a table screen (``tui.setup.ADAPTERS``) and a fair deck (``DEALERS`` of the network
table), and no layer names a game the engine does not know. The forms show each game by its
rules' title and its options in the engine's words."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Checkbox, Label, Select

from engine.registry import _MODULES, game_names, get_game
from net.session.machines.entries import DEALERS
from tui.options import option_widgets, read_options
from tui.setup import ADAPTERS, adapter


def test_every_layer_keys_its_games_by_the_registry_names() -> None:
    names = set(game_names())
    assert names == set(_MODULES)  # every game of the registry is installed here
    assert set(ADAPTERS) == names
    assert set(DEALERS) == names
    for name in names:
        assert callable(adapter(name).TABLE)


class Form(App[None]):
    def __init__(self, widgets: list[Widget]) -> None:
        super().__init__()
        self.widgets = widgets

    def compose(self) -> ComposeResult:
        yield from self.widgets


async def test_the_option_widgets_carry_the_engine_words() -> None:
    """A tick per on/off option and a list of the offered numbers per numeric one, each in the
    words the engine declares; read back as the values ``--option`` would give."""
    for name in game_names():
        rules = get_game(name).rules
        chosen = {o.name: o.values[-1] if o.values else True for o in rules.variants}
        app = Form(option_widgets(name, chosen))
        async with app.run_test():
            for option in rules.variants:
                widget = app.query_one(f"#opt-{option.name}")
                if option.values:
                    assert isinstance(widget, Select)
                    words = str(app.query(Label).filter(".option-name").first().render())
                    assert words == option.words
                    assert widget.value == option.values[-1]
                else:
                    assert isinstance(widget, Checkbox) and str(widget.label) == option.words
            assert dict(read_options(app.screen, name)) == chosen
