"""Golden per-seat playthroughs of Condottiere: each seat's account of fixed games matches its
file, and no file names a card its seat may not know.

The files are written by ``scripts/golden_condottiere.py`` and reviewed as text; a card that
leaks to a seat shows as a diff. Regenerate them only after a deliberate change of the engine.
"""

import re

from engine.condottiere.text import SEAT_NAMES
from tests.engine.golden_script import load_golden

GOLDEN = load_golden("condottiere")
FILES = GOLDEN.golden_files()


def test_golden_playthroughs_match_their_files():
    assert len(FILES) == 5
    for path, text in FILES.items():
        assert path.exists(), f"missing {path.name}: run scripts/golden_condottiere.py"
        assert path.read_text() == text, f"{path.name} differs: review, then regenerate"


def test_golden_playthroughs_keep_other_seats_hands_and_face_down_cards_unnamed():
    draws = face_down = 0
    for path, text in FILES.items():
        seat = next(name for name in SEAT_NAMES if path.stem.endswith("-" + name.lower()))
        for line in text.splitlines():
            m = re.match(r"\s*\d+ (\w+):? (draws|plays)", line)
            if not m or m.group(1) == seat:
                continue
            if m.group(2) == "draws" and "Condottiere" not in line:
                assert re.search(r"draws (a card|\d+ cards?)$", line), (path.name, line)
                draws += 1
            if "face down" in line:
                assert "plays a card face down" in line, (path.name, line)
                face_down += 1
        # the seat's own summary never shows another seat's face-down card
        for line in text.splitlines():
            m = re.match(r"\s+(\w+) \((\d+) cards\): (.*)$", line)
            if m:
                assert "(" not in m.group(3), (path.name, line)
    assert draws > 300 and face_down > 20
