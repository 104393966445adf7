"""The orchestration behind the commands: ``palazzo host``, ``join``, ``watch`` and the
networked table screens.

``hosting`` (the host's settings and run, a seat's session with its journal, exit statuses,
saving and auditing the record), ``play`` (the headless ``host`` and ``join``), ``watcher``
(the headless ``watch`` and its session) and ``discovery`` (finding a game on the LAN with
zeroconf, and advertising one).

What may live here: putting the rooms together for a user: settings, runners, records, bots,
lines to print and exit statuses. What may not: a protocol rule (a check of what a peer sent
belongs to the machines or a feature), or a widget (the screens are ``tui``'s).
"""
