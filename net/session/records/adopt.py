"""A game resumed from a player's record, for a host whose own record is lost or damaged.

Every seat saves the record it holds so far as soon as its host is gone (``save_so_far``:
``<game file>-so-far.palazzo`` beside its games, said in one line), so that a host that lost its
own record (a wiped or damaged data folder) can take the game back from any player's copy:
``palazzo host --resume-from FILE`` (``adopt``).

Rules:

* **Checked fully first.** The file is read as ``palazzo verify`` reads it, from scratch: every
  signature, proof and move. Only a record that checks out entry by entry and stops before the
  end (the verdict ``incomplete``) is taken; a cut, garbled or forged one, or a game that is
  over, is refused in one line naming the file, and nothing is resumed.
* **Only this host's game.** The start must name this host's key: a host cannot take over
  another host's game (its players would refuse it anyway: ``a different host answered``).
* **What it takes.** The entries, as they are, become a new host record
  (``net.session.records.resume.HostRecord``) whose settings come from the start (game, seats,
  turn limit, what a timeout does, hints) and from the command line (the grace, the name, its
  own seat). The code is a new one (the players of a game under way need none). What was only
  in the host's own record is lost and said so: the keys of its computer seats (they cannot
  come back, and forfeit after the grace).
* **One record per game.** Any other unfinished record of this host for the same game (a
  damaged one) is set aside (``--resume`` names it to take it up again); one that another
  program serves makes this a ``ValueError`` (one game, one program), and so does one that is
  whole and holds as much as the file (the same command run again after a resume does not go
  back to the player's older copy).
* The players then rejoin as after any restart; one that holds more entries than the file gives
  them back (``HostSession._supply``), each checked as any other.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from net.session.features.code import new_code
from net.session.records.disk import reason
from net.session.records.resume import HostRecord, hosting_dir, unfinished
from net.session.records.verify import verify_bytes
from net.wire import transcript as files
from net.wire.identity import Identity, fingerprint
from net.wire.transcript import Entry, record_unpacker

SO_FAR = "-so-far"  # the tail of a record saved while its host is gone


def save_so_far(table: Any) -> Path | None:
    """Save the record ``table`` holds so far beside the games (``None``: nothing to save, or
    it cannot be written: the game goes on, and the end is saved as always)."""
    if table is None or not table.transcript.entries or not table.game_id:
        return None
    name = files.file_name(table.game, table.started, table.game_id)
    try:
        path: Path = files.save(table.transcript, name.replace(".palazzo", f"{SO_FAR}.palazzo"))
    except OSError:
        return None
    return path


def so_far_line(path: Path) -> str:
    """What a seat says once it saved its record while its host is gone."""
    return (f"the record so far is saved in {path} (a host that lost its own record resumes "
            f"the game from it: palazzo host ... --resume-from {path})")


def _entries(data: bytes) -> list[Entry]:
    unpacker = record_unpacker(len(data))
    unpacker.feed(data[len(files.MAGIC):])
    out = []
    for item in unpacker:  # verified: each is a [body, sig] pair
        assert type(item) is list and len(item) == 2
        out.append(Entry.parse(item[0], item[1]))
    return out


def adopt(identity: Identity, path: str | os.PathLike[str], own: dict[str, Any],
          base: Path | None = None) -> tuple[HostRecord, str]:
    """A new host record of the game in the player's record at ``path``, checked fully first,
    and the line that says what was taken; ``own``: the settings that come from this host
    (grace, name, seat). ``ValueError`` (one line naming the file) when it cannot be taken."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ValueError(f"cannot read {path}: {reason(e)}") from None
    verdict = verify_bytes(data)
    if verdict.kind == "verified":
        raise ValueError(f"the game in {path} is over: nothing to resume ({verdict.text})")
    if verdict.kind != "incomplete":
        raise ValueError(f"{path} does not check out, nothing was resumed: {verdict.text}")
    entries = _entries(data)
    start = entries[0]
    host = start.fields.get("host")
    if host != identity.public_key:
        who = fingerprint(host) if type(host) is bytes else "no key"
        raise ValueError(f"the game in {path} was hosted with another key ({who}), not this "
                         f"host's ({identity.fingerprint})")
    game_id = start.game_id
    folder = base or hosting_dir()
    olds = [r for r in unfinished(identity.public_key, folder)
            if game_id in (r.game_id, r.lost_game)]
    for old in olds:
        if old.served():
            raise ValueError(f"game {game_id.hex()[:8]} is being served by another palazzo "
                             "host with this identity (one game, one program)")
        if not old.damage and len(old.entries()) >= len(entries):
            raise ValueError(f"this host's own record of game {game_id.hex()[:8]} is whole and "
                             f"holds as much as {path} or more: resume it without --resume-from")
    for old in olds:
        old.set_aside()
    f = start.fields
    seats = f.get("seats")
    players = len(seats) if isinstance(seats, list) else 0
    settings = {
        **own, "host": identity.public_key, "game": f.get("rules"), "players": players,
        "turn_timeout": f.get("timeout") or None, "on_timeout": f.get("on_timeout", "forfeit"),
        "allow_hints": f.get("hints") is True, "code": new_code(), "bots": 0, "bot_seeds": [],
        "open": False,
    }
    try:
        record = HostRecord.create(os.urandom(16), settings, folder)
        tmp = record.folder / ".entries.tmp"
        with open(tmp, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, record.folder / "entries")
        record.mark_game(game_id)
    except OSError as e:
        raise ValueError(f"cannot write the host's record in {folder}: {reason(e)}") from None
    record = HostRecord(record.folder)
    line = (f"taking game {game_id.hex()[:8]} from the player's record {path}: {len(entries)} "
            "entries, every one checked from scratch; what only the host's own record held is "
            "lost (the keys of its computer seats: they cannot come back)")
    return record, line
