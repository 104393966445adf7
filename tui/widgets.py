"""Small widgets that say their state in characters, not by colour alone.

Textual's check box draws the same ``X`` whether it is on or off (only its colour changes), and
a radio button the same dot; over a 256-colour SSH session, or to a reader who does not see the
difference, on and off look alike. These draw ``X`` / ``*`` only when on, a blank when off.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Checkbox, RadioButton


class Tick(Checkbox):
    """A check box whose label, given ``text-wrap: wrap`` and a width, takes as many lines as it
    needs (a toggle button is otherwise one line, cut short)."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.styles.text_wrap != "wrap":
            return 1
        # Textual's own widgets pass their styles here too: they are the rules map it reads,
        # though its types do not say so
        return max(1, self.render().get_height(self.styles, width))  # type: ignore[arg-type]

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802
        return "X" if self.value else " "


class Pick(RadioButton):
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802
        return "*" if self.value else " "
