"""The fair deck: "mental poker" cards that every seat shuffles and deals together.

Each card is encrypted under every seat's key in turn (``cipher``, over the ``group``), each
seat shuffles the whole deck and proves it did so honestly (``shuffle_proof``, ``proofs``), and
a card is opened only with the shares of the seats the rules allow (``fair_deck``), so that no
seat, the host included, learns a card it may not see. ``memory_table`` plays a whole table in
one process, for tests and benchmarks. Nothing here knows a game's rules or the network.
"""
