"""Every test the protocol and security documents cite exists: ``file.py::test_name`` under
``tests/net/``, defined in that file. A citation marked ``(h)`` names a test of the ``hostile``
branch: until that branch is merged its file may be missing, but a file that is there must define
the test."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "docs" / "security.md", ROOT / "docs" / "protocol.md", ROOT / "README.md"]
CITATION = re.compile(r"`(?:tests/net/)?(test_\w+\.py)::(test_\w+)`( \(h\))?")


def citations():
    for doc in DOCS:
        for m in CITATION.finditer(doc.read_text()):
            yield doc.name, m.group(1), m.group(2), bool(m.group(3))


def test_the_documents_cite_tests():
    assert sum(1 for _ in citations()) > 50


def test_every_cited_test_is_defined_in_its_file():
    missing = []
    for doc, file, name, hostile in citations():
        path = ROOT / "tests" / "net" / file
        if hostile and not path.exists():
            continue
        text = path.read_text() if path.exists() else ""
        if not re.search(rf"^(async )?def {name}\(", text, re.MULTILINE):
            missing.append(f"{doc}: {file}::{name}")
    assert missing == []
