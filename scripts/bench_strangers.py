#!/usr/bin/env python3
"""What a stranger gets from a host on 127.0.0.1: how soon an idle connection is closed, and how
fast the game code can be guessed.

* **Idle.** Connections that say nothing, one after another: the seconds until the host closes
  each (median of ``--idle``), against its hello timeout.
* **Guessing.** One address sends hellos with wrong codes, each on a new connection, as fast as
  the host answers, for ``--seconds``: how many hellos a second the host answers (what a guesser
  would get with no budget) and how many codes it actually checked: at most ``CHECK_RATE`` a
  second, from all addresses together, each wrong code past ``FREE_WRONG`` delaying its
  address's next one (``net.session.features.code``). From the budget and the size of the code
  space follows the expected time to guess a code, from any number of addresses.

    .venv/bin/python scripts/bench_strangers.py [--seconds 30] [--idle 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from net.session.features import code as codes  # noqa: E402
from net.session.features.limits import HELLO_TIMEOUT  # noqa: E402
from net.session.machines.conversation import hello_signature  # noqa: E402
from net.wire.errors import E_WRONG_CODE  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.rpc import Codec, Notification, Request, Response  # noqa: E402

YEAR = 365.25 * 24 * 3600


def serve() -> None:
    from engine.registry import get_game
    from net.session.machines.host_session import HostSession
    from net.session.runners.host import HostRunner

    async def main() -> None:
        entry = get_game("medici")
        host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}),
                           code=codes.new_code())
        runner = HostRunner(host)
        started: asyncio.Future = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(runner.run("127.0.0.1", 0, started))
        print((await started)[0][1], flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        task.cancel()

    asyncio.run(main())


def idle_close(port: int) -> float:
    with socket.create_connection(("127.0.0.1", port)) as s:
        t0 = time.perf_counter()
        s.settimeout(HELLO_TIMEOUT * 4)
        while s.recv(65536):
            pass
        return time.perf_counter() - t0


def guess(port: int, me: Identity) -> int | None:
    """One wrong code on a new connection: the host's error code (None: no answer)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        codec = Codec()
        events = codec.receive_data(s.recv(65536))
        challenge = events[0].params[0] if events and isinstance(events[0], Notification) else None
        if challenge is None:
            return None
        hello = {"name": "guess", "key": me.public_key, "code": "WOLF-OWL-OAK-0000",
                 "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
        s.sendall(codec.send(Request(1, "hello", (hello,))))
        while True:
            data = s.recv(65536)
            if not data:
                return None
            for e in codec.receive_data(data):
                if isinstance(e, Response):
                    return e.error.code if e.error is not None else 0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--idle", type=int, default=3)
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.serve:
        serve()
        return
    load = os.getloadavg()
    host = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert host.stdout is not None
        port = int(host.stdout.readline())
        closes = [idle_close(port) for _ in range(a.idle)]
        me = Identity.generate()
        answers: dict[int | None, int] = {}
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < a.seconds:
            try:
                code = guess(port, me)
            except OSError:
                code = None
            answers[code] = answers.get(code, 0) + 1
        seconds = time.perf_counter() - t0
    finally:
        if host.stdin is not None:
            host.stdin.close()
        host.wait(10)
    tries = sum(answers.values())
    checked = answers.get(E_WRONG_CODE, 0)
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"an idle stranger is closed after {statistics.median(closes):.2f} s (median of "
          f"{len(closes)}; hello timeout {HELLO_TIMEOUT:g} s, checked twice a second)")
    print(f"one address, {seconds:.0f} s: {tries:,} hellos answered ({tries / seconds:,.0f} a "
          f"second), {checked} codes checked ({checked / seconds:,.1f} a second)")
    half = codes.CODE_SPACE / 2
    print(f"codes: {len(codes.CODE_WORDS)} words ^ {codes.WORDS_PER_CODE} x 10^{codes.DIGITS} = "
          f"{codes.CODE_SPACE:.3g}; half of them to try on average")
    print(f"with no lockout at {tries / seconds:,.0f} guesses a second: "
          f"{half / (tries / seconds) / YEAR:,.1f} years")
    print(f"with the host's budget ({codes.CHECK_RATE:g} codes checked a second, from any "
          f"number of addresses): {half / codes.CHECK_RATE / YEAR:,.0f} years")


if __name__ == "__main__":
    main()
