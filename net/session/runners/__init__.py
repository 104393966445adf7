"""What drives the sans-IO machines: sockets, timers and the in-process link.

``host`` (the asyncio host: a ``HostSession`` behind a TCP server, a timer for its ``tick``,
bounded writes), ``peer`` (the asyncio peer: a ``PeerSession`` over one connection, taken up
again after a drop) and ``link`` (machines joined in one process, for tests, benchmarks and the
host's own seats).

What may live here: adapters that move bytes between the machines and the world (asyncio,
sockets, timers). What may not: a protocol decision. What a message means and whether it is
allowed is the machines' (``net.session.machines``); a runner only carries it, and closes what
a machine says to close.
"""
