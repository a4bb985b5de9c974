"""``git memory --version``: the version and where this copy is installed.

Another project on PyPI also installs a ``git-memory`` script; naming the install location
(as ``pip --version`` does) tells at a glance which one runs and from which environment.
"""
from __future__ import annotations

import platform
from pathlib import Path

import chord_git


def version_text() -> str:
    location = Path(chord_git.__file__).resolve().parent
    return f"chord-git {chord_git.__version__} from {location} (python {platform.python_version()})"
