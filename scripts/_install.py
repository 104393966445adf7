"""Install what palazzo needs into the venv that runs this file, quietly, with progress.

``python scripts/_install.py [EXTRAS]`` (``[test]`` for the test tools): installs the
dependencies that ``pyproject.toml`` lists (and those of the extras), one line of progress for
each package pip fetches, then makes the checkout importable from the venv without building
it: a ``palazzo.pth`` naming the checkout, and a ``palazzo`` command beside the venv's Python.
Nothing is built, so no build tool's notices are printed; the checkout's files are used as they
are, as an editable install would. pip's own output goes to ``.venv/install.log``, shown only
if it fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def requirements(pyproject: str, extras: list[str]) -> list[str]:
    """The dependencies of ``pyproject`` (its text), with those of ``extras``."""
    try:
        import tomllib
    except ImportError:  # Python 3.10: the two lists are read by hand
        return _requirements_by_hand(pyproject, extras)
    project = tomllib.loads(pyproject)["project"]
    out = list(project.get("dependencies", []))
    for extra in extras:
        out += project.get("optional-dependencies", {}).get(extra, [])
    return out


def _requirements_by_hand(pyproject: str, extras: list[str]) -> list[str]:
    out: list[str] = []
    for name in ["dependencies", *extras]:
        m = re.search(rf"^{re.escape(name)}\s*=\s*\[(.*?)\]", pyproject, re.M | re.S)
        if m:
            out += re.findall(r'"([^"]+)"', m.group(1))
    return out


#: how pip begins the line of each package it fetches or finds on this machine
FETCHING = ("Collecting ", "Processing ")


def progress(line: str, fetched: int) -> str | None:
    """The progress line for one line of pip's output, or ``None`` for a line not shown."""
    if line.startswith(FETCHING):
        what = line.split(" ", 1)[1].strip()
        name = Path(what.split(" ")[0]).name if what.startswith("/") else what
        name = re.split(r"[<>=!~\[ ;-]\d|[<>=!~\[ ;]", name, maxsplit=1)[0]
        return f"palazzo: installing ... [{fetched + 1}] {name}"
    if line.startswith("Installing collected packages:"):
        n = len(line.split(":", 1)[1].split(","))
        return f"palazzo: installing ... unpacking {n} packages"
    return None


def main(argv: list[str]) -> int:
    extras = [e for arg in argv for e in arg.strip("[]").split(",") if e]
    reqs = requirements((ROOT / "pyproject.toml").read_text(), extras)
    log_path = Path(sys.prefix) / "install.log"
    tty = sys.stderr.isatty()
    fetched = 0
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
             "--progress-bar", "off", *reqs],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PIP_NO_INPUT": "1"})
        assert proc.stdout is not None
        for line in proc.stdout:
            log.write(line)
            words = progress(line, fetched)
            if words is None:
                continue
            if line.startswith(FETCHING):
                fetched += 1
            if tty:
                sys.stderr.write("\r\x1b[K" + words)
            else:
                sys.stderr.write(words + "\n")
            sys.stderr.flush()
        code = proc.wait()
    if tty and fetched:
        sys.stderr.write("\n")
    if code:
        sys.stderr.write(f"palazzo: installing failed; pip said (all of it in {log_path}):\n")
        sys.stderr.write("".join(log_path.read_text().splitlines(keepends=True)[-15:]))
        return code
    purelib = Path(sysconfig.get_paths()["purelib"])
    (purelib / "palazzo.pth").write_text(f"{ROOT}\n")
    script = Path(sys.executable).with_name("palazzo")
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom tui.cli import main\n\n"
                      "sys.exit(main())\n")
    script.chmod(0o755)
    sys.stderr.write("palazzo: installed\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
