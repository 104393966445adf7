"""The README is a short front page: the two commands, pictures of both tables (files made by
scripts/screenshots.py), the bot ladder; the command-line reference is in docs/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_the_readme_is_short_and_has_the_two_commands():
    assert len(README) < 8000
    assert "./scripts/play" in README and "./scripts/test" in README
    assert "| game | match | wins | win rate (95% interval) |" in README  # the bot ladder


def test_the_readme_pictures_both_tables_from_files_that_exist():
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+\.svg)\)", README)
    assert len(pictures) == 2
    for picture in pictures:
        text = (ROOT / picture).read_text()
        assert text.startswith("<svg") and "Your turn" in text.replace("&#160;", " ")


def test_the_command_line_reference_is_in_docs_and_names_every_command():
    from tui.cli import build_parser

    reference = (ROOT / "docs" / "commandline.md").read_text()
    assert "docs/commandline.md" in README
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for command in sub.choices:  # type: ignore[union-attr]
        assert f"palazzo {command}" in reference, command
    assert "keeps no record" not in reference
