"""``git memory review``: the user's side of maintenance (R25, R28, R29, R30, R34).

``items`` gathers what there is to review, ``actions`` changes the working tree (never the git
index), ``interactive`` is the terminal loop over both. The command itself is
``chord_git.commands.review``.
"""
from __future__ import annotations
