"""Playing a game over the network, in rooms by what each part may touch.

* ``machines``: the sans-IO state machines: the host session, a seat's session, and the table
  every peer holds (the replicated game, checking each signed entry). Bytes in, bytes out: no
  asyncio, no sockets, no files, no clock that was not given.
* ``features``: the rules of one feature each that the machines apply through hooks: presence,
  table talk, the rematch, watchers, the timed-out move, the game code, and what a stranger may
  cost. Sans-IO too, and they import no machine (a type at most).
* ``runners``: what drives the machines: the asyncio host and peer over TCP, and the in-process
  link for tests and host-side bots.
* ``records``: what is kept on disk and read again: a seat's journal, the host's record of a
  game it may resume, and the check of a saved record (``palazzo verify``).
* ``commands``: the orchestration behind ``palazzo host``, ``join``, ``watch`` and the table
  screens: settings, hosting, joining, watching, and finding games on the LAN (zeroconf).

Which room may import which: commands use every other room; runners use the machines (and a
feature's address rule); records use the machines (a saved record is checked by an observer's
table); the machines use the features and, from records, only the journal they are handed;
features use none of them (a machine's type at most, for annotations).
"""
