"""``git memory agent install|uninstall``: our entries in a host's settings file, and nothing else.

The file is read, changed as a JSON document (``settings``), and written back atomically only
when something changed, in its own indentation and with its own file mode. A symlinked settings
file or folder is refused rather than written through: in a cloned repository it could point
anywhere. Nothing is staged; a project settings file shows up as an ordinary working-tree change.
"""
from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from chord_git.agents import settings
from chord_git.agents.host import Host
from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import InputError
from chord_git.memory.atomic import replace_atomically

MAX_SETTINGS_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Outcome:
    path: Path
    shown: str                 # the path as printed: repo-relative for project files
    changes: settings.Changes
    diff: str                  # unified diff of the file, empty when unchanged
    written: bool


def _read(path: Path, root: Path | None, shown: str) -> str | None:
    """The file's text, None when it does not exist yet."""
    for part in (path, path.parent):
        if part.is_symlink():
            raise InputError(shown, None, f"refusing to write through a symlink ({part.name})")
    if root is not None and not path.parent.resolve().is_relative_to(root.resolve()):
        raise InputError(shown, None, "settings folder resolves outside the repository")
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(shown, None, "not a regular file")
    if info.st_size > MAX_SETTINGS_BYTES:
        raise InputError(shown, None, f"larger than {MAX_SETTINGS_BYTES // (1024 * 1024)} MiB; not a settings file")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(shown, None, "not valid UTF-8") from None
    except OSError as exc:
        raise InputError(shown, None, f"cannot read: {exc.strerror}") from None


def _parse(text: str | None, shown: str) -> dict[str, Any]:
    try:
        return settings.parse(text or "")
    except json.JSONDecodeError as exc:
        raise InputError(shown, exc.lineno, f"not valid JSON: {exc.msg}") from None
    except settings.SettingsShapeError as exc:
        raise InputError(shown, None, str(exc)) from None


def apply(host: Host, scope: str, root: Path, *, remove: bool, dry_run: bool,
          env: Mapping[str, str] | None = None) -> Outcome:
    env = os.environ if env is None else env
    path = host.settings(scope, root, env)
    inside = scope in ("project", "local")
    shown = path.relative_to(root).as_posix() if inside else str(path)
    before = _read(path, root if inside else None, shown)
    if host.shim is not None:
        return _apply_shim(host, path, shown, before, remove=remove, dry_run=dry_run)
    doc = _parse(before, shown)
    changes = settings.Changes()
    try:
        if remove:
            new = (host.layout.remove if host.layout else settings.remove_hooks)(doc, changes)
            if host.has_statusline:
                new = settings.remove_statusline(new, changes)
        else:
            add = host.layout.add if host.layout else settings.add_hooks
            new = add(doc, host.installed_events(), host.hook_command(), changes)
            if host.has_statusline:
                new = settings.add_statusline(new, changes)
    except settings.SettingsShapeError as exc:
        raise InputError(shown, None, str(exc)) from None
    if not changes.any:
        return Outcome(path, shown, changes, "", written=False)
    after = settings.render(new, before)
    diff = settings.unified_diff(before, after, shown)
    if not dry_run:
        _write(path, after, shown)
    return Outcome(path, shown, changes, diff, written=not dry_run)


# Every shim names itself with this on its first lines: a file of that name without it is the
# user's own, which install refuses to replace and uninstall leaves alone.
SHIM_MARK = "Installed by `git memory agent install`"


def shim_text(host: Host) -> str:
    from importlib import resources

    assert host.shim is not None
    return resources.files("chord_git").joinpath(f"data/{host.shim}").read_text(encoding="utf-8")


def _apply_shim(host: Host, path: Path, shown: str, before: str | None, *, remove: bool,
                dry_run: bool) -> Outcome:
    """The host's shim file is ours whole: written as shipped, or deleted."""
    changes = settings.Changes()
    ours = before is not None and SHIM_MARK in before
    if remove:
        if not ours:
            return Outcome(path, shown, changes, "", written=False)
        assert before is not None
        changes.removed.append(host.shim_label)
        diff = settings.unified_diff(before, "", shown)
        if not dry_run:
            try:
                path.unlink()
            except OSError as exc:
                raise InputError(shown, None, f"cannot remove: {exc.strerror or exc}") from None
        return Outcome(path, shown, changes, diff, written=not dry_run)
    if before is not None and not ours:
        raise InputError(shown, None, "exists and was not written by chord-git; not replaced")
    text = shim_text(host)
    if before == text:
        return Outcome(path, shown, changes, "", written=False)
    (changes.updated if ours else changes.added).append(host.shim_label)
    diff = settings.unified_diff(before, text, shown)
    if not dry_run:
        _write(path, text, shown)
    return Outcome(path, shown, changes, diff, written=not dry_run)


def _write(path: Path, text: str, shown: str) -> None:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(path, text.encode("utf-8"), path.parent, mode=mode)
    except OSError as exc:
        raise InputError(shown, None, f"cannot write: {exc.strerror or exc}") from None
