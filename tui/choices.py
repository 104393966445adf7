"""Turning a list of legal actions into a short series of questions a person can answer.

A seat's legal actions are many (every card, every kind of play, every target, every declared
value). The table asks for them one field at a time: pick a card, then what to do with it, then
its target, then a value. Each answer narrows the legal actions; a question is asked only while
its field still differs among the remaining actions (or always, for fields a ``Level`` marks
``always``), so only legal choices are ever offered and no legal action is out of reach.

A game describes its questions as ``Level``s: the field's name, how to read it from an action,
the prompt, and a label for each answer. ``next_question(levels, actions, asked)`` gives the
next ``Question`` to ask about ``actions`` (``asked``: the fields answered so far), or ``None``
when ``actions`` is down to the one action to submit.

Keys. An answer that is a kind of move (court, strike, pass, keep, yes...) has its own letter,
the same in every question of the game (``Level.hotkey``: ``Choice.hotkey``); the other answers
(a card, a stack, a region, a value: lists that change from turn to turn) are numbered 1 to 9,
then 0, in order, lettered ones left out. ``Question.keys()`` gives the key of every answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Choice:
    """One answer to a question: its words, and the legal actions that remain with it."""

    label: str
    actions: tuple[Any, ...]
    key: Any = None
    #: the letter that always means this answer (``""``: it is numbered)
    hotkey: str = ""


@dataclass(frozen=True)
class Question:
    prompt: str
    field: str
    choices: tuple[Choice, ...]

    def keys(self) -> tuple[str, ...]:
        """The key of each answer: its letter, or its number among the numbered answers
        (1-9, then 0; ``""`` past the tenth, reached with the arrows)."""
        out = []
        n = 0
        for c in self.choices:
            if c.hotkey:
                out.append(c.hotkey)
                continue
            n += 1
            out.append(str(n % 10) if n <= 10 else "")
        return tuple(out)

    def index_of(self, key: str) -> int:
        """The answer a key names, or -1."""
        keys = self.keys()
        return keys.index(key) if key and key in keys else -1


@dataclass(frozen=True)
class Level:
    """One field to ask about: ``key(action)`` reads it, ``label(key, actions)`` words an answer,
    ``prompt`` (text or ``prompt(actions)``) words the question."""

    field: str
    key: Callable[[Any], Any]
    label: Callable[[Any, tuple[Any, ...]], str]
    prompt: str | Callable[[tuple[Any, ...]], str]
    always: bool = False
    #: the letter of an answer, ``hotkey(key, actions)`` as ``label`` (``""``: numbered)
    hotkey: Callable[[Any, tuple[Any, ...]], str] | None = None


def group(actions: Sequence[Any], key: Callable[[Any], Any]) -> list[tuple[Any, tuple[Any, ...]]]:
    """The actions grouped by ``key``, groups in order of first appearance."""
    groups: dict[Any, list[Any]] = {}
    for a in actions:
        groups.setdefault(key(a), []).append(a)
    return [(k, tuple(v)) for k, v in groups.items()]


def next_question(
    levels: Sequence[Level], actions: Sequence[Any], asked: Sequence[str]
) -> Question | None:
    """The next question about ``actions``, or ``None`` when one action is left to submit."""
    actions = tuple(actions)
    for level in levels:
        if level.field in asked:
            continue
        groups = group(actions, level.key)
        if len(groups) > 1 or (level.always and groups):
            prompt = level.prompt if isinstance(level.prompt, str) else level.prompt(actions)
            hot = level.hotkey or (lambda k, acts: "")
            choices = tuple(Choice(level.label(k, acts), acts, k, hot(k, acts)) for k, acts in groups)
            return Question(prompt, level.field, choices)
    return None
