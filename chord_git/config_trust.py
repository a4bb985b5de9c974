"""Which project config files the user trusts, by content hash, in the user's state (R6, R31).

A cloned repository's ``.chord/config.yaml`` is the repository author's, not the user's. Fields
that decide where session text and credentials go (model pools, endpoints, key variable names)
are honoured from it only after ``git memory trust`` recorded the file's exact content, as
direnv's ``allow`` does; any change to the file revokes that. The records live under
``$XDG_STATE_HOME/chord/trust/`` (``~/.local/state`` by default), one small JSON file per
project config path, never inside a repository.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path


def trust_dir(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".local" / "state")
    return Path(base) / "chord" / "trust"


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _record_path(config_path: Path, env: Mapping[str, str] | None) -> Path:
    key = hashlib.sha256(str(config_path.absolute()).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return trust_dir(env) / f"{key}.json"


def is_trusted(config_path: Path, data: bytes, env: Mapping[str, str] | None = None) -> bool:
    """Whether the user trusted exactly these bytes at exactly this path."""
    try:
        record = json.loads(_record_path(config_path, env).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return (isinstance(record, dict) and record.get("path") == str(config_path.absolute())
            and record.get("sha256") == content_hash(data))


def allow(config_path: Path, data: bytes, env: Mapping[str, str] | None = None) -> str:
    """Trust these bytes at this path; returns their hash."""
    digest = content_hash(data)
    target = _record_path(config_path, env)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    payload = json.dumps({"path": str(config_path.absolute()), "sha256": digest, "at": time.time()})
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(payload, "utf-8")
    os.replace(tmp, target)
    return digest


def revoke(config_path: Path, env: Mapping[str, str] | None = None) -> bool:
    """Forget the trust given to this path; False when there was none."""
    try:
        _record_path(config_path, env).unlink()
    except FileNotFoundError:
        return False
    return True
