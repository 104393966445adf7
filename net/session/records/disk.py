"""The data folder and its disk: checked before a game, and a write that fails never ends one.

Rules:

* ``check_writable(folder)`` before a host opens its lobby or a seat joins: it makes the folder
  (and its parents) and writes, fsyncs and removes a small file in it. If it cannot, a
  ``ValueError`` in one line names the folder and the reason (``palazzo`` prints it and exits
  non-zero; the forms show it). A folder under a regular file, a read-only or a full disk all
  fail here, before anyone waits on this program.
* ``Trouble`` is what a program that keeps records knows of its disk: ``failed(what, error)``
  when a write fails (the reason kept, said once), ``cleared()`` when a write succeeds again.
  ``text`` is the line every screen shows meanwhile: ``cannot save: <reason>``. A write that
  failed is never the end of a game nor anybody's fault: what was to be written stays in memory
  and is written again at the next write (``net.session.records.resume.HostRecord``,
  ``net.session.records.journal.Journal``).
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

log = logging.getLogger("palazzo.net")


def data_root() -> Path:
    """``$XDG_DATA_HOME/palazzo`` (default ``~/.local/share/palazzo``): the games, the host's
    records and the journals are under it."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "palazzo"


def reason(error: BaseException) -> str:
    """An ``OSError`` (or another) as a few plain words, without a traceback."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower() if error.strerror[:1].isupper() else error.strerror
    return str(error) or type(error).__name__


def check_writable(folder: Path | None = None) -> Path:
    """Make ``folder`` (default ``data_root()``) and prove a file can be written in it;
    ``ValueError`` naming the folder if not. Returns the folder."""
    folder = folder or data_root()
    probe = folder / f".palazzo-probe-{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(probe, "wb") as f:
            f.write(b"palazzo")
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise ValueError(f"cannot write the data folder {folder}: {reason(e)} (set XDG_DATA_HOME "
                         "to a folder this account can write)") from None
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return folder


class Trouble:
    """What a program knows of its disk (see the module docstring)."""

    def __init__(self) -> None:
        self.text = ""  # "cannot save: <reason>" while writes fail, else ""
        self.changed = False  # set on each change, for the caller to clear once told

    def failed(self, what: str, error: BaseException) -> None:
        text = f"cannot save: {reason(error)}"
        if text != self.text:
            log.warning("%s (%s; kept in memory, written when the disk allows)", text, what)
            self.text, self.changed = text, True

    def cleared(self) -> None:
        if self.text:
            log.warning("saving again: everything kept in memory is written")
            self.text, self.changed = "", True
