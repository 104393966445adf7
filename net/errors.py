"""Errors that say whose fault it was.

``CheatDetected(seat, step, reason)``: something a seat signed or sent could not have come from an
honest peer. ``seat`` names the author, ``step`` the protocol step (for the fair deck: ``"key"``,
``"shuffle"``, ``"deal"``, ``"open"``, ``"reveal"``), ``reason`` says what was wrong in plain words.
"""

from __future__ import annotations


class CheatDetected(Exception):
    """A peer broke the protocol in a way no honest peer could: the author is named."""

    def __init__(self, seat: int, step: str, reason: str) -> None:
        super().__init__(f"cheat detected: seat {seat} at {step}: {reason}")
        self.seat = seat
        self.step = step
        self.reason = reason

    def __repr__(self) -> str:
        return f"CheatDetected({self.seat!r}, {self.step!r}, {self.reason!r})"
