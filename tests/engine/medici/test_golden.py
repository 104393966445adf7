"""Golden per-seat playthroughs: each seat's account of fixed games matches its file.

The files are written by ``scripts/golden_medici.py`` and reviewed as text; a card that leaks
to a seat shows as a diff. Regenerate them only after a deliberate change of the engine.
"""

import re

from engine.medici.cards import HOUSES
from tests.engine.golden_script import load_golden

GOLDEN = load_golden("medici")
FILES = GOLDEN.golden_files()


def test_golden_playthroughs_match_their_files():
    assert len(FILES) == 7
    for path, text in FILES.items():
        assert path.exists(), f"missing {path.name}: run scripts/golden_medici.py"
        assert path.read_text() == text, f"{path.name} differs: review, then regenerate"


def test_golden_playthroughs_keep_other_seats_private_cards_unnamed():
    checked = 0
    for path, text in FILES.items():
        seat = next(h for h in HOUSES if path.stem.endswith(h.replace(" ", "-").lower()))
        for line in text.splitlines():
            m = re.match(r"\s*\d+ (\w+(?: Rovere)?):? (draws|places|plans)", line)
            if not m or m.group(1) == seat:
                continue
            private = ("draws a card", "places a card", "plans for the future, a card")
            assert any(p in line for p in private) or "draws the last card" in line, (path.name, line)
            checked += 1
    assert checked > 400
