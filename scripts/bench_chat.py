#!/usr/bin/env python3
"""What table talk costs: one message said, checked by the host, relayed and checked by a peer,
against a bare msgpack-rpc echo measured in the same run; and the bytes a message adds to the
record.

Sans-IO, in one process: a 3-seat game under way on an in-memory link (``net.session.runners.link``),
seat 0 saying a message and the other two hearing it (``net.session.features.chat``), the host's rate
limit lifted (a fresh window for each message) so that only the work is measured. The echo is
a request encoded, decoded and answered by ``net.wire.rpc.Codec``. The figures are medians of
``--rounds`` rounds of ``--messages`` each, and their ratio, with the load average.

    .venv/bin/python scripts/bench_chat.py [--rounds 5] [--messages 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import get_game  # noqa: E402
from net.session.features.chat import Window  # noqa: E402
from net.session.machines.host_session import HostSession  # noqa: E402
from net.session.machines.peer_session import PeerSession  # noqa: E402
from net.session.runners.link import MemoryLink  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.rpc import Codec, Request, Response  # noqa: E402
from net.wire.transcript import pack  # noqa: E402

TEXT = "I pass if you pass"


def game() -> tuple[MemoryLink, PeerSession]:
    entry = get_game("condottiere")
    host = HostSession(Identity.generate(), "condottiere", entry.rules.make_config(3, {}))
    link = MemoryLink(host)
    me = PeerSession(Identity.generate(), "Ada")
    link.add(me)
    for i in range(2):
        link.add(PeerSession(Identity.generate(), f"bot{i}"),
                 entry.make_bot("greedy", random.Random(i)))
    link.pump()
    return link, me


def talk(link: MemoryLink, me: PeerSession, n: int) -> float:
    """Seconds per message: said, checked by the host, relayed, checked by both others."""
    t0 = time.perf_counter()
    for _ in range(n):
        for s in link.host.chat._talk.values():
            s.window = Window(link.host.clock)  # no rate limit: the work alone
        me.say(TEXT)
        link.pump()
    return (time.perf_counter() - t0) / n


def echo(n: int) -> float:
    """Seconds per bare msgpack-rpc request and answer."""
    a, b = Codec(), Codec()
    t0 = time.perf_counter()
    for i in range(n):
        for event in b.receive_data(a.send(Request(i, "echo", ({"body": b"x" * 60},)))):
            for answer in a.receive_data(b.send(Response(event.msgid, None, event.params[0]))):
                assert answer.msgid == i
    return (time.perf_counter() - t0) / n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--messages", type=int, default=200)
    args = p.parse_args()
    link, me = game()
    talks, echoes = [], []
    for _ in range(args.rounds):
        talks.append(talk(link, me, args.messages))
        echoes.append(echo(args.messages))
    t, e = statistics.median(talks), statistics.median(echoes)
    record = len(pack({"said": [{"n": 1, "after": 40, "text": TEXT}]})) - len(pack({}))
    print(f"load average {os.getloadavg()[0]:.2f}; {args.rounds} rounds of {args.messages}")
    print(f"a message said, relayed and checked by 2 peers: median {t * 1e3:.3f} ms")
    print(f"a bare msgpack-rpc echo:                       median {e * 1e3:.3f} ms")
    print(f"ratio {t / e:.1f}")
    print(f"bytes a {len(TEXT)}-character message adds to its author's next entry: {record}"
          f" (each more message: {len(pack({'n': 2, 'after': 41, 'text': TEXT}))})")


if __name__ == "__main__":
    main()
