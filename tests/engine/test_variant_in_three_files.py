"""A rules-only variant added the way ``docs/extending.md`` says touches three files, and every
layer then agrees with the result it gives.

In a copy of the tree, Mercenary Surge (every mercenary counts 1 more in a game's first battle)
is added in three files: its option and its field (``engine/condottiere/state.py``), its rule
(``engine/condottiere/measures.py``, where strength is measured from the state) and its tests
(``tests/engine/condottiere/test_variants.py``, the text of ``mercenary_surge.py``). Those tests
then run in the copy: the rules' result, the log, the table, the greedy bot, the search's policy
and its fast simulation, and the conformance games all agree. Nothing in the working tree
changes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VARIANT_TESTS = Path(__file__).with_name("mercenary_surge.py")

#: (file, text, the text it becomes): the variant's rules, in two files
EDITS = [
    (
        "engine/condottiere/state.py",
        '    Option("hidden_cards", "Hidden cards (some cards are played face down)"),\n',
        '    Option("hidden_cards", "Hidden cards (some cards are played face down)"),\n'
        '    Option("mercenary_surge", "Mercenary surge (mercenaries +1 in the first battle)"),\n',
    ),
    (
        "engine/condottiere/state.py",
        "    hidden_cards: bool = False\n",
        "    hidden_cards: bool = False\n    mercenary_surge: bool = False\n",
    ),
    (
        "engine/condottiere/measures.py",
        "                v = 1 if winter else MERC_STRENGTH[c]\n",
        "                v = 1 if winter else MERC_STRENGTH[c]\n"
        "                v += s.config.mercenary_surge and s.battles == 0\n",
    ),
]
TEST_FILE = "tests/engine/condottiere/test_variants.py"


def copy_tree(dest: Path) -> None:
    for folder in ("engine", "tui", "tests"):
        shutil.copytree(ROOT / folder, dest / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "golden", "*.svg"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def add_variant(dest: Path) -> set[str]:
    """Apply the variant to the copy at ``dest``; the files it changed."""
    changed = set()
    for name, old, new in EDITS:
        path = dest / name
        text = path.read_text()
        assert text.count(old) == 1, f"{name} no longer reads as the variant expects: {old!r}"
        path.write_text(text.replace(old, new))
        changed.add(name)
    with (dest / TEST_FILE).open("a") as f:
        f.write("\n\n" + VARIANT_TESTS.read_text())
    changed.add(TEST_FILE)
    return changed


def test_a_rules_only_variant_in_three_files_is_followed_by_every_layer(tmp_path: Path) -> None:
    before = {p: p.read_bytes() for p in (ROOT / "engine" / "condottiere").glob("*.py")}
    copy_tree(tmp_path)
    assert len(add_variant(tmp_path)) == 3
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         TEST_FILE, "-k", "mercenary_surge"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "3 passed" in run.stdout, run.stdout[-2000:]
    assert before == {p: p.read_bytes() for p in (ROOT / "engine" / "condottiere").glob("*.py")}
