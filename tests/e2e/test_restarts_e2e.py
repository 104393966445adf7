"""End to end over 127.0.0.1, with real processes: the faults of a game night that used to lose
the game. A data folder that cannot be written is refused in one line; a host killed in its lobby
comes back with its code (and a second host of the same game is refused meanwhile); a host whose
record was damaged says so and the players give back the rest; a disk that fills mid-game ends
nothing; strangers' wrong codes do not keep an honest join out."""

import hashlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_host_restart_e2e import _free_port, _wait_for
from .test_network_e2e import TIMEOUT, _env, _palazzo, _transcript

ROOT = Path(__file__).parents[2]


def _code(text: str) -> str:
    m = re.search(r"--code (\S+)", text)
    assert m, text
    return m.group(1)


def _host_args(port: int, *more: str) -> list[str]:
    return ["host", "medici", "--players", "3", "--no-seat", "--headless", "--bind", "127.0.0.1",
            "--port", str(port), "--no-advertise", *more]


def _join(port: int, code: str | None, i: int, tmp_path: Path, pace: str = "0") -> tuple:
    home, log = tmp_path / f"p{i}", tmp_path / f"p{i}.log"
    args = ["join", f"127.0.0.1:{port}", "--name", f"bot{i}", "--bot", "greedy", "--pace", pace]
    if code:
        args += ["--code", code]
    return _palazzo(args, home, log), home, log


def _verify(home: Path, data: bytes, tmp_path: Path) -> None:
    path = tmp_path / f"{hashlib.sha256(data).hexdigest()[:8]}.palazzo"
    path.write_bytes(data)
    out = subprocess.run([sys.executable, "-m", "tui", "verify", str(path)], env=_env(home),
                         capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT)
    assert out.returncode == 0 and "verified" in out.stdout, out.stdout + out.stderr


def _finish(procs, logs) -> None:
    for p, log in zip(procs, logs, strict=True):
        assert p.wait(TIMEOUT) == 0, log.read_text()[-3000:]
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def _kill(procs) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()


def test_a_host_or_a_join_that_cannot_write_its_data_folder_refuses_in_one_line(tmp_path):
    (tmp_path / "afile").write_text("x")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "afile" / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    port = _free_port()
    for args in (_host_args(port, "--open"), ["join", f"127.0.0.1:{port}", "--bot", "greedy"]):
        started = time.monotonic()
        out = subprocess.run([sys.executable, "-m", "tui", *args], env=env, capture_output=True,
                             text=True, cwd=ROOT, timeout=TIMEOUT)
        said = out.stdout + out.stderr
        assert out.returncode != 0 and "Traceback" not in said, said
        assert str(tmp_path / "afile" / "data" / "palazzo") in said, said
        assert len(said.strip().splitlines()) == 1, said
        assert time.monotonic() - started < 60


@pytest.mark.long
def test_a_host_killed_in_its_lobby_comes_back_with_its_code_and_the_game_is_played(tmp_path):
    port = _free_port()
    home, logs = tmp_path / "host", [tmp_path / "host.log", tmp_path / "again.log"]
    host = _palazzo(_host_args(port), home, logs[0])
    procs = [host]
    try:
        code = _code(_wait_for(logs[0], host, lambda t: "--code" in t))
        first, p1home, p1log = _join(port, code, 1, tmp_path)
        procs.append(first)
        _wait_for(p1log, first, lambda t: "lobby 1/3" in t)
        # a second host of the same game with the same identity is refused: one game, one program
        second = subprocess.run([sys.executable, "-m", "tui", *_host_args(_free_port())],
                                env=_env(home), capture_output=True, text=True, cwd=ROOT,
                                timeout=TIMEOUT)
        assert second.returncode != 0, second.stdout + second.stderr
        assert "is being served by another palazzo host" in second.stderr, second.stderr
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        again = _palazzo(_host_args(port), home, logs[1])  # the same command line, no flag
        procs.append(again)
        text = _wait_for(logs[1], again, lambda t: "--code" in t)
        assert _code(text) == code and "back in the lobby" in text and "--new" in text
        joins = [_join(port, code, i, tmp_path) for i in (2, 3)]
        procs += [p for p, _, _ in joins]
        _finish([again, first, *(p for p, _, _ in joins)],
                [logs[1], p1log, *(log for _, _, log in joins)])
    finally:
        _kill(procs)
    assert "wrong game code" not in p1log.read_text()
    assert "game over" in logs[1].read_text()
    saved = [_transcript(p1home, p1log), *(_transcript(h, log) for _, h, log in joins)]
    assert len(set(saved)) == 1
    _verify(p1home, saved[0], tmp_path)


@pytest.mark.long
@pytest.mark.parametrize("damage", ["both halved", "entries garbled"])
def test_a_damaged_host_record_is_reported_and_the_players_give_back_the_rest(tmp_path, damage):
    port = _free_port()
    home, logs = tmp_path / "host", [tmp_path / "host.log", tmp_path / "again.log"]
    host = _palazzo(_host_args(port), home, logs[0])
    procs = [host]
    try:
        code = _code(_wait_for(logs[0], host, lambda t: "--code" in t))
        joins = [_join(port, code, i, tmp_path, pace="0.2") for i in (1, 2, 3)]
        procs += [p for p, _, _ in joins]
        records = home / "data" / "palazzo" / "hosting"

        def under_way(_):
            found = [f / "entries" for f in records.iterdir()] if records.is_dir() else []
            return bool(found) and found[0].stat().st_size > 40_000

        _wait_for(logs[0], host, under_way)
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        (folder,) = list(records.iterdir())
        settings, entries = folder / "settings", folder / "entries"
        if damage == "both halved":
            settings.write_bytes(settings.read_bytes()[: settings.stat().st_size // 2])
            entries.write_bytes(entries.read_bytes()[: entries.stat().st_size // 2])
        else:  # nothing of the game is left but its id: a player's copy is the game
            entries.write_bytes(b"\xc1" * 100)
        again = _palazzo(_host_args(port), home, logs[1])  # the same command line, no flag
        procs.append(again)
        _finish([again, *(p for p, _, _ in joins)], [logs[1], *(log for _, _, log in joins)])
    finally:
        _kill(procs)
    text = logs[1].read_text()
    if damage == "both halved":
        assert "resuming game" in text and "is damaged: its settings cannot be read" in text, text
        # what came before the cut is kept (the code, the grace), and said in the same line
        assert "kept the fields before the damage: host, game, players, code, grace" in text
        assert "Kept entries 0 to" in text and "give back" in text, text
    else:
        assert "is damaged: its entries file does not begin as a host record" in text, text
        assert "Nothing of it was kept" in text and "gives it back" in text, text
    assert "game over" in text
    gave = [log.read_text() for _, _, log in joins]
    assert any("giving it the rest" in t for t in gave), gave
    saved = [_transcript(h, log) for _, h, log in joins]
    assert len(set(saved)) == 1
    _verify(tmp_path / "p1", saved[0], tmp_path)


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir(parents=True)
    out = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                         capture_output=True)
    return out.returncode == 0


@pytest.mark.long
def test_a_disk_that_fills_mid_game_ends_nothing_and_blames_nobody(tmp_path):
    data = tmp_path / "disk"
    if not _mount_tmpfs(data, "2m"):
        pytest.skip("no tmpfs can be mounted here (tests/net/test_disk.py injects the fault)")
    port = _free_port()
    home, log = tmp_path / "host", tmp_path / "host.log"
    env = dict(_env(home), XDG_DATA_HOME=str(data))
    out = open(log, "w")
    host = subprocess.Popen([sys.executable, "-m", "tui", *_host_args(port)], env=env,
                            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    procs = [host]
    filler = data / "filler"
    try:
        code = _code(_wait_for(log, host, lambda t: "--code" in t))
        joins = [_join(port, code, i, tmp_path, pace="0.3") for i in (1, 2, 3)]
        procs += [p for p, _, _ in joins]
        _wait_for(log, host, lambda t: "the game starts" in t)
        with open(filler, "wb") as f:  # the disk fills up
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        _wait_for(joins[0][2], joins[0][0], lambda t: "the host cannot save: no space" in t)
        filler.unlink()  # room again: what waited is written
        _wait_for(log, host, lambda t: "saving again" in t)
        _finish([host, *(p for p, _, _ in joins)], [log, *(lg for _, _, lg in joins)])
        (record,) = list((data / "palazzo" / "hosting").iterdir())
        assert (record / "finished").exists()
        from net.session.records.resume import HostRecord

        kept = (record / "entries").read_bytes()
        assert len(HostRecord(record).entries()) > 0
    finally:
        _kill(procs)
        subprocess.run(["umount", str(data)], capture_output=True)
    text = log.read_text()
    assert "cannot save: no space left on device" in text and "game over" in text
    saved = [_transcript(h, lg) for _, h, lg in joins]
    assert len(set(saved)) == 1
    assert kept == saved[0]  # the host's record, whole: the same bytes as every seat's
    for _, _, lg in joins:
        assert "cheat" not in lg.read_text().lower()


def _guess(port: int, code: str) -> int | None:
    """One hello with ``code`` on a new connection: the host's error code (0: taken in)."""
    from net.session.machines.conversation import hello_signature
    from net.wire.identity import Identity
    from net.wire.rpc import Codec, Notification, Request, Response

    me = Identity.generate()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        codec = Codec()
        events = codec.receive_data(s.recv(65536))
        challenge = events[0].params[0] if events and isinstance(events[0], Notification) else {}
        hello = {"name": "guess", "key": me.public_key, "code": code, "nonce": os.urandom(32),
                 "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
        s.sendall(codec.send(Request(1, "hello", (hello,))))
        while True:
            data = s.recv(65536)
            if not data:
                return None
            for e in codec.receive_data(data):
                if isinstance(e, Response):
                    return e.error.code if e.error is not None else 0


def test_an_honest_join_gets_in_after_strangers_wrong_codes_from_its_address(tmp_path):
    from net.wire.errors import E_WRONG_CODE

    port = _free_port()
    home, log = tmp_path / "host", tmp_path / "host.log"
    host = _palazzo(_host_args(port), home, log)
    try:
        code = _code(_wait_for(log, host, lambda t: "--code" in t))
        answers = [_guess(port, f"ROOK-ROOK-ROOK-{i:04d}") for i in range(12)]
        assert answers == [E_WRONG_CODE] * 12  # each one checked and refused, none banned
        started = time.monotonic()
        assert _guess(port, code) == 0  # the right code, at once after, from the same address
        waited = time.monotonic() - started
    finally:
        _kill([host])
    assert waited < 5, waited  # a delay of 2 s at most, never a ban
