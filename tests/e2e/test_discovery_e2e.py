"""End to end over 127.0.0.1 with real processes and real zeroconf: two hosts at once are both
listed by ``palazzo join --list`` with the fingerprint of each host's key, and a host run with
``--no-advertise`` is not; the advertisement carries no code and is withdrawn when its host
quits; ``palazzo join`` with no address, led by a forged advertisement (the address of a real
host, a fingerprint of another key) to that host, refuses it (exit 1, one line, no traceback).

Other programs on this machine may advertise games too: the checks look only at these hosts'
lines, by port and fingerprint."""

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf

from net.session.commands.discovery import INTERFACES, SERVICE, Offer, advertise
from net.wire.identity import Identity
from tests.e2e.test_network_e2e import TIMEOUT, _env, _join_line, _palazzo
from tests.e2e.test_one_identity_e2e import _wait_for

HOST = ["--players", "3", "--port", "0", "--bind", "127.0.0.1", "--headless", "--no-seat"]


def _host(tmp_path, i, game, *extra):
    log = tmp_path / f"h{i}.log"
    proc = _palazzo(["host", game, *HOST, *extra], tmp_path / f"h{i}", log)
    port = int(_join_line(log, proc).rpartition(":")[2])
    key = re.search(r"key (\S+)", log.read_text()).group(1)
    return proc, port, key, log


def _listed(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tui", "join", "--list"], capture_output=True,
                         text=True, env=_env(tmp_path / "lister"), timeout=TIMEOUT,
                         cwd=Path(__file__).parents[2])
    assert "Traceback" not in out.stderr
    return out.stdout


def _listed_until(tmp_path, condition, what):
    """``palazzo join --list`` again until its listing meets ``condition`` (a loaded machine may
    miss an mDNS answer in one listing); the deadline is a hang guard, never a timed assertion."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        listing = _listed(tmp_path)
        if condition(listing):
            return listing
        assert time.monotonic() < deadline, f"{what}:\n{listing}"


def _line_of(listing, port, key):
    """The two lines of the game at ``port`` with ``key``, as one (``None``: not listed)."""
    lines = listing.splitlines()
    return next((lines[i - 1] + lines[i] for i in range(1, len(lines))
                 if lines[i].endswith(f"[{key}] at 127.0.0.1:{port}")), None)


class _Raw(ServiceListener):
    def __init__(self):
        self.names = set()
        self.lock = threading.Lock()

    def add_service(self, zc, type_, name):
        with self.lock:
            self.names.add(name)

    update_service = add_service

    def remove_service(self, zc, type_, name):
        pass

    def seen(self):
        with self.lock:
            return sorted(self.names)


def _raw_properties(key):
    """Every TXT property, raw, of the advertisements with fingerprint ``key``, browsed on the
    interfaces ``palazzo join --list`` browses. Each name heard is asked for its record until it
    answers, and the browse goes on until one with ``key`` has answered (a loaded machine may
    miss an mDNS answer); the deadline is a hang guard, never a timed assertion."""
    zc = Zeroconf(interfaces=INTERFACES, ip_version=IPVersion.V4Only)
    raw = _Raw()
    browser = ServiceBrowser(zc, SERVICE, raw)
    try:
        answered = {}
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            for name in raw.seen():
                if name not in answered:
                    info = ServiceInfo(SERVICE, name)
                    if info.load_from_cache(zc) or info.request(zc, 1000):
                        answered[name] = info.properties
            mine = [p for p in answered.values() if p.get(b"fp") == key.encode()]
            if mine:
                return mine
            time.sleep(0.05)
        raise AssertionError(f"no advertisement with the key {key} answered: {sorted(answered)}")
    finally:
        browser.cancel()
        zc.close()


@pytest.mark.long
def test_two_hosts_are_listed_and_one_told_not_to_advertise_is_not(tmp_path):
    procs = []
    try:
        a = _host(tmp_path, 1, "medici", "--name", "Hosty")
        procs.append(a[0])
        b = _host(tmp_path, 2, "condottiere", "--open", "--name", "Bo")
        procs.append(b[0])
        c = _host(tmp_path, 3, "medici", "--no-advertise", "--name", "Quiet")
        procs.append(c[0])
        for _, _, _, log in (a, b):  # a hang guard: each says when its advertisement is out
            _wait_for(log, "advertised on the LAN", "the advertisement")
        listing = _listed_until(tmp_path, lambda text: _line_of(text, a[1], a[2])
                                and _line_of(text, b[1], b[2]), "both hosts listed")
        line_a, line_b = _line_of(listing, a[1], a[2]), _line_of(listing, b[1], b[2])
        assert "Court of the Medici, 0/3 seated, code needed" in line_a, listing
        assert "host Hosty" in line_a
        assert "Condottiere, 0/3 seated, open" in line_b and "host Bo" in line_b
        assert f":{c[1]}\n" not in listing and c[2] not in listing
        code = re.search(r"--code (\S+)", a[3].read_text()).group(1)
        (props,) = _raw_properties(a[2])
        assert props[b"code"] == b"1" and all(code.encode() not in v for v in props.values())
        a[0].send_signal(signal.SIGINT)  # the host quits: its advertisement is withdrawn
        assert a[0].wait(TIMEOUT) == 0
        listing = _listed_until(tmp_path, lambda text: _line_of(text, b[1], b[2]),
                                "the other host still listed")
        assert _line_of(listing, a[1], a[2]) is None
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()


@pytest.mark.long
def test_attack_join_refuses_a_host_a_forged_advertisement_led_it_to(tmp_path):
    proc, port, key, log = _host(tmp_path, 1, "medici", "--no-advertise")
    liar = Identity.generate().fingerprint
    forged = advertise(Offer("medici", 3, 0, "Trusty", liar, True, port, ("127.0.0.1",)),
                       ["127.0.0.1"])
    join_log = tmp_path / "join.log"
    join = None
    try:
        with open(join_log, "w") as out:
            join = subprocess.Popen([sys.executable, "-m", "tui", "join", "--bot", "greedy"],
                                    stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT,
                                    text=True, env=_env(tmp_path / "j"),
                                    cwd=Path(__file__).parents[2])
        _wait_for(join_log, "which game?", "the list of games")
        number = re.search(rf"^\s*(\d+)  .*\n\s+host Trusty \[{liar}\] at 127\.0\.0\.1:{port}$",
                           join_log.read_text(), re.M)
        assert number, join_log.read_text()
        join.stdin.write(number.group(1) + "\n")
        join.stdin.flush()
        _wait_for(join_log, "game code:", "the code asked")
        code = re.search(r"--code (\S+)", log.read_text()).group(1)
        join.stdin.write(code + "\n")
        join.stdin.close()
        assert join.wait(TIMEOUT) == 1
        said = join_log.read_text()
        assert "error: host key check: the host here has the key " + key in said and liar in said
        assert "Traceback" not in said
        assert "seat 0" not in log.read_text()  # the host never seated it
    finally:
        forged.close()
        for p in (proc, join):
            if p is not None and p.poll() is None:
                p.kill()
