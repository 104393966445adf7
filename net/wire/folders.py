"""Where networked games' records are kept: ``$XDG_DATA_HOME/palazzo/games/`` (default
``~/.local/share/palazzo/games/``).

Its own module, with nothing but the standard library, so that the start screen can list the
records without loading the network's code (msgpack, the signatures): ``net.wire.transcript``
writes and reads them.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The folder of the networked games' transcripts."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "palazzo" / "games"
