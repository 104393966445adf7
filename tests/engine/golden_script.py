"""The golden playthroughs' scripts (``scripts/golden_<game>.py``), loaded by their tests."""

import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_golden(game: str) -> ModuleType:
    """``scripts/golden_<game>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(f"golden_{game}", SCRIPTS / f"golden_{game}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
