"""Extraction evaluation set: fixture sessions, gold items, traps and scripted model replies."""
from __future__ import annotations
