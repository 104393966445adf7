"""The phase table of ``docs/protocol.md`` (section 8) is the table's ``TRANSITIONS``, row for
row, both ways: an outside implementer reads the same phases, entries and next phases that every
reader of the reference implementation follows."""

from __future__ import annotations

import re
from pathlib import Path

from net.session.machines.entries import Phase
from net.session.machines.table import CHECKS, TRANSITIONS, When

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _doc_rows() -> list[list[str]]:
    """The rows of the table under the heading of section 8, as cells."""
    text = DOC.read_text()
    section = text[text.index("## 8. Phases"):]
    section = section[: section.index("\n## ", 1)]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert [c.strip() for c in lines[0].strip("|").split("|")] == \
        ["phase", "entry", "written by", "next phase"]
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]


def _doc_transitions() -> tuple[set[tuple[Phase, str | None, Phase, When]], set[Phase]]:
    """What the doc's rows say: (phase, kind or None, next phase, when), and the phases it
    says have no way out."""
    rows, final = set(), set()
    for phases, entry, _, then in _doc_rows():
        kind = None if entry == "none" else re.fullmatch(r"`([a-z-]+)`", entry).group(1)
        for name in phases.split(", "):
            phase = Phase(name)
            if not then:
                assert kind is None, f"a {kind} entry in {name} with no next phase"
                final.add(phase)
                continue
            first, _, rest = then.partition(" ")
            when = next((w for w in When if w.value and rest.startswith(w.value)), When.ALWAYS)
            rows.add((phase, kind, Phase(first), when))
    return rows, final


def test_the_documented_phase_table_is_the_tables_transitions_both_ways():
    documented, _ = _doc_transitions()
    code = {(phase, kind, row.then, row.when) for (phase, kind), row in TRANSITIONS.items()}
    assert documented - code == set(), "rows of docs/protocol.md that TRANSITIONS does not hold"
    assert code - documented == set(), "rows of TRANSITIONS that docs/protocol.md does not draw"


def test_a_phase_the_doc_ends_in_takes_no_entry_and_every_other_phase_takes_one():
    _, final = _doc_transitions()
    assert final == {Phase.OVER}
    taking = {phase for (phase, kind) in TRANSITIONS if kind is not None}
    assert taking == set(Phase) - final


def test_every_entry_kind_of_the_table_has_its_check_and_every_check_its_row():
    kinds = {kind for (_, kind) in TRANSITIONS if kind is not None}
    assert kinds == set(CHECKS)
