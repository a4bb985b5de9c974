"""Test support shared by the test suite and by manual runs; not part of the installed package."""
from __future__ import annotations
