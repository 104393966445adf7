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


@dataclass(frozen=True)
class Question:
    prompt: str
    field: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Level:
    """One field to ask about: ``key(action)`` reads it, ``label(key, actions)`` words an answer,
    ``prompt`` (text or ``prompt(actions)``) words the question."""

    field: str
    key: Callable[[Any], Any]
    label: Callable[[Any, tuple[Any, ...]], str]
    prompt: str | Callable[[tuple[Any, ...]], str]
    always: bool = False


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
            choices = tuple(Choice(level.label(k, acts), acts, k) for k, acts in groups)
            return Question(prompt, level.field, choices)
    return None
