"""The player's settings, kept between runs: the theme, and the bell on the player's turn.

Where: ``$XDG_CONFIG_HOME/palazzo/settings.json`` (default ``~/.config/palazzo/``), one JSON
object. A missing, unreadable or damaged file gives the defaults (``DEFAULTS``), and a value of
the wrong type is ignored, never an error; ``save`` writes the whole object at once (a temporary
file renamed over the old one), and a failure to write is reported as ``False``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: every setting and its default: the theme (Textual's name) and the bell, off
DEFAULTS: dict[str, Any] = {"theme": "textual-dark", "bell": False}


def path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "palazzo" / "settings.json"


def load() -> dict[str, Any]:
    """The settings, each of its default's type, else the default."""
    out = dict(DEFAULTS)
    try:
        data = json.loads(path().read_text())
    except (OSError, ValueError):
        return out
    if isinstance(data, dict):
        for key, default in DEFAULTS.items():
            if isinstance(data.get(key), type(default)):
                out[key] = data[key]
    return out


def get(key: str) -> Any:
    return load()[key]


def save(**changes: Any) -> bool:
    """Keep ``changes`` (settings by name); ``False`` if the file could not be written."""
    values = load()
    values.update({k: v for k, v in changes.items() if k in DEFAULTS})
    p = path()
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(values, indent=1) + "\n")
        tmp.replace(p)
    except OSError:
        return False
    return True
