# Sourced by scripts/play and scripts/test: make .venv if missing and install what palazzo needs
# into it (scripts/_install.py: the libraries, with a line of progress each, and the checkout
# made importable without building it), quickly when nothing has changed since the last install.
set -e
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
extras="$1"
py="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "palazzo: creating .venv ..." >&2
    "$py" -m venv .venv
fi
stamp=".venv/.palazzo-installed$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ scripts/_install.py -nt "$stamp" ]; then
    echo "palazzo: installing the libraries it needs into .venv (only this once) ..." >&2
    .venv/bin/python scripts/_install.py "$extras"
    touch "$stamp"
fi
