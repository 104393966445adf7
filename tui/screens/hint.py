"""The coach at the table: ``h`` asks for a hint, shown in a dialog; nothing is committed.

``ask_hint(screen)`` checks that a hint may be given (the seat is to move, and the game allows
hints: always in a local game, in a networked one only when the host allowed them, which every
peer sees in the game's start), then computes ``engine.search.coach.suggest`` on the seat's
view in a worker thread, so the table stays responsive, and shows ``HintScreen``: the
suggested move with its estimated chance to win, one line of why (what it takes, what it
risks, whether it ends the game: the game's ``tui.<game>.coach.why``) and the runner-up. A hint that arrives after
the seat's turn has moved on is dropped.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.registry import get_game
from engine.search.coach import Hint, suggest
from tui.client import GameClient
from tui.setup import adapter


def hints_allowed(client: GameClient[Any, Any, Any]) -> bool:
    """Whether this game gives hints (``GameClient.hints_allowed``: a networked game's host may
    forbid them)."""
    return client.hints_allowed


def _chance(c: float | None) -> str:
    return "" if c is None else f" (chance to win about {c:.0%})"


def hint_lines(hint: Hint, say: Any, why: Any = None) -> list[str]:
    """The dialog's lines; ``say(action)`` gives a move in words, ``why(action)`` the one line
    of reason under the suggestion (the game's ``tui.<game>.coach.why``)."""
    lines = [f"Suggested: {say(hint.best)}{_chance(hint.chance)}"]
    if why is not None:
        reason = why(hint.best)
        if reason:
            lines.append(f"Why: {reason}")
    if hint.runner_up is not None:
        lines.append(f"Runner-up: {say(hint.runner_up)}{_chance(hint.runner_up_chance)}")
    if hint.iterations:
        lines.append(f"(the hard bot's search of your view, {hint.iterations} simulated games)")
    return lines


class HintScreen(ModalScreen[None]):
    """A hint, until any of Escape, Enter or h closes it."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape,enter,h", "close", "Close")]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("\n".join(self.lines), id="question")
            yield Static("Nothing is played until you choose. (Escape closes this.)")

    def action_close(self) -> None:
        self.dismiss(None)


def ask_hint(screen: Any) -> None:
    """Start a hint for the table ``screen`` (a ``tui.table.TableScreen``)."""
    client, view = screen.client, screen.view
    if not hints_allowed(client):
        screen.notify("The host did not allow hints in this game.", title="No hints")
        return
    if view is None or not view.my_turn:
        screen.notify("A hint is for your own turn.", title="No hint now")
        return
    screen.notify("Thinking about your move...", title="Hint", timeout=2)
    entry = get_game(client.game)
    rules, state, seat, steps = client.rules, view.state, view.seat, view.steps

    def work() -> None:
        hint = suggest(entry, state, seat)
        reason = getattr(adapter(client.game), "why", None)
        lines = hint_lines(hint, lambda a: rules.action_text(state, a, seat),
                           None if reason is None else lambda a: reason(state, a, seat))

        def show() -> None:
            now = screen.view
            if now is not None and now.steps == steps and now.my_turn and not screen.gone:
                screen.app.push_screen(HintScreen(lines))

        screen.app.call_from_thread(show)

    screen.run_worker(work, thread=True, exclusive=True, group="hint")
