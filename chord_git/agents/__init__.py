"""Agent hosts that run chord_git through their own command hooks (the hosts: ``hosts.py``).

``git memory agent install <host>`` merges our entries into the host's settings
(``settings.py``, ``install.py``), or, for a host that loads plugins instead, writes a plugin file
that only forwards the host's events (``chord_git/data/``); the entries run ``git memory agent hook``, which reads the host's
JSON payload (``payload.py``) and maps its lifecycle events onto memory (``hook.py``): session start
prints the summary (R9–R12), a user prompt marks the session busy and the end of a turn idle (R15),
and a finished session is handed to background extraction (R14) by the detached watcher
(``watch.py``, ``sessions.py``, ``handoff.py``). What differs between the hosts lives in
one module per host, declared once in ``hosts.py``.

This package keeps its imports small: the hook runs on every turn, inside the agent's latency.
"""
from __future__ import annotations

SCOPES = ("project", "local", "user")
