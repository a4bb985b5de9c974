"""``git memory trust``: let this project's ``.chord/config.yaml`` choose models and endpoints."""
from __future__ import annotations

from chord_git import config as config_mod
from chord_git import config_trust
from chord_git.errors import UsageError
from chord_git.memory import paths
from chord_git.memory.project import Project
from chord_git.ui import Output


def trust(project: Project, out: Output, *, revoke: bool = False) -> int:
    path = config_mod.project_config_path(project.root)
    rel = project.relative(path)
    if revoke:
        removed = config_trust.revoke(path)
        out.line(f"{rel}: trust revoked" if removed else f"{rel}: was not trusted")
        return 0
    try:
        raw = paths.read_inside(project.root, path, config_mod.MAX_CONFIG_BYTES)
    except FileNotFoundError:
        raise UsageError(f"{rel}: this project has no config file to trust") from None
    located = config_mod.parse_bytes(path, raw)  # a broken file is refused, not trusted
    cfg = config_mod.build(located)
    digest = config_trust.allow(path, raw)
    out.line(f"trusted {rel} (sha256 {digest[:16]}…); any change to the file revokes this")
    for where, pool in (("model_pool", cfg.model_pool), ("memory.model_pool", cfg.memory.model_pool)):
        for entry in pool:
            key = f"key from ${entry.api_key_env}" if entry.api_key_env else "no key variable"
            out.line(f"  {where}: {entry.model} at {entry.base_url or 'the client default endpoint'}, {key}")
    return 0
