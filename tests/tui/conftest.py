"""Helpers for driving the palazzo app with Textual's Pilot: read what the screen shows, wait
for the table to settle, answer the table's questions by keyboard."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest


def screen_text(app) -> str:
    """The characters of the topmost screen, line by line, as a terminal would show them."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(pilot, condition, timeout: float = 20.0, what: str = "") -> None:
    """Let the app run until ``condition()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or condition}:\n{screen_text(pilot.app)}")
        await pilot.pause(0.01)


def asking(app) -> bool:
    """The table is waiting for an answer from the keyboard."""
    screen = app.screen
    return getattr(screen, "_question", None) is not None and screen.view is not None and screen.view.my_turn


@pytest.fixture
def ui():
    return SimpleNamespace(text=screen_text, until=until, asking=asking)


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path, monkeypatch):
    """Every test saves its games (and reads saved ones) in a folder of its own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
