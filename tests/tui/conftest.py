"""Helpers for driving the palazzo app with Textual's Pilot: read what the screen shows, wait
for the table to settle, answer the table's questions by keyboard."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest


def screen_text(app) -> str:
    """The characters of the topmost screen, line by line, as a terminal would show them."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(pilot, condition, timeout: float = 20.0, what: str = "") -> None:
    """Let the app run until ``condition()`` holds. A hang fails it after ``timeout`` seconds of
    this process's processor time (a loaded machine does not count against it), or ten times
    that on the wall clock; never a timed assertion."""
    cpu, wall = time.process_time() + timeout, time.monotonic() + 10 * timeout
    while not condition():
        if time.process_time() > cpu or time.monotonic() > wall:
            raise AssertionError(f"timed out waiting for {what or condition}:\n{screen_text(pilot.app)}")
        await pilot.pause(0.01)


def asking(app) -> bool:
    """The table is waiting for an answer from the keyboard."""
    screen = app.screen
    return getattr(screen, "_question", None) is not None and screen.view is not None and screen.view.my_turn


@pytest.fixture
def ui():
    return SimpleNamespace(text=screen_text, until=until, asking=asking)
