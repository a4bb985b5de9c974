"""The package type-checks under ``mypy --strict`` (type hints everywhere is a house rule)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


def test_mypy_strict_is_clean() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file",
                             str(REPO_ROOT / "pyproject.toml")], cwd=REPO_ROOT, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout[-4000:]
