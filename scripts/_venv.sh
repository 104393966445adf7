# Sourced by scripts/play and scripts/test: make .venv if missing and install the project into it,
# quickly when nothing has changed since the last install.
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
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "palazzo: installing into .venv ..." >&2
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
    .venv/bin/python -m pip install -q -e ".$extras"
    touch "$stamp"
fi
