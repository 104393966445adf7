"""Small widgets that say their state in characters, not by colour alone.

Textual's check box draws the same ``X`` whether it is on or off (only its colour changes), and
a radio button the same dot; over a 256-colour SSH session, or to a reader who does not see the
difference, on and off look alike. These draw ``X`` / ``*`` only when on, a blank when off.
"""

from __future__ import annotations

from textual.widgets import Checkbox, RadioButton


class Tick(Checkbox):
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802
        return "X" if self.value else " "


class Pick(RadioButton):
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802
        return "*" if self.value else " "
