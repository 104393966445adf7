"""The mutations of ``scripts/mutation.py`` still apply: each changes text that is in its file
once, and names a rule test that exists. (Running them is the script's job: it is slow.)"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "mutation.py"


def test_the_mutation_list_names_thirty_rule_changes_one_a_line():
    run = subprocess.run([sys.executable, str(SCRIPT), "--list"], capture_output=True, text=True,
                         check=True)
    lines = run.stdout.splitlines()
    assert len(lines) >= 30
    names = [line.split("\t")[0] for line in lines]
    assert len(set(names)) == len(names)


def test_every_mutation_applies_and_names_an_existing_rule_test():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import mutation
    finally:
        sys.path.remove(str(SCRIPT.parent))
    for m in mutation.MUTATIONS:
        assert m.path.startswith("engine/"), m.name
        text = (ROOT / m.path).read_text()
        assert text.count(m.old) == 1, f"{m.name}: its text is no longer in {m.path} once"
        assert m.old != m.new and m.tests
        for node in m.tests:
            path, name = node.split("::")
            assert path.startswith("tests/engine/"), node
            assert f"def {name}(" in (ROOT / path).read_text(), f"{m.name}: no test {node}"
