"""Memory users already have, brought in with review, and memory given back (``import``, ``export``).

An agent's own store (Claude Code's auto memory, Codex's memories, a Cline memory bank, Cursor
rules…) is read by one module per source, named in ``registry``. Nothing read is trusted: every
item passes both secret layers and the judge's refusal classes (``judging``), duplicates are
merged (``run``), and what is left waits in the state dir as a pending import (``pending``) until
the user accepts, edits or rejects it in ``git memory review``. An accepted item becomes an entry
the way ``git memory add`` makes one: its text goes to the background extraction as the user's
own statement. ``export`` writes memory back out for other tools.
"""
