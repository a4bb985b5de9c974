"""chord-git: project memory for coding agents, kept as plain files and guarded by git hooks."""
from __future__ import annotations

__version__ = "0.3.0"
