"""``git memory agent install|uninstall``: our entries in a host's settings file, and nothing else.

The file is read, changed as a JSON document (``settings``), and written back atomically only
when something changed, in its own indentation and with its own file mode. A symlinked settings
file or folder is refused rather than written through: in a cloned repository it could point
anywhere. Nothing is staged; a project settings file shows up as an ordinary working-tree change.

Uninstall takes away what install made: a file left holding nothing but what install puts in a
new file (``{}``, a host's schema version) is deleted, and so are the folders on its way that are
empty then (never the repository's top, the home folder or the config folder). Everything of the
user's stays as it was.
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
    deleted: bool = False      # uninstall deleted the file: nothing of the user's was left in it


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


COMMAND = "git-memory"


def path_warning(host: Host, search_path: str, script_folder: Path | None) -> str | None:
    """Why the host will not find our hook command, with the fix; None when ``git-memory`` is on
    ``search_path``. The entries keep the bare name: an absolute path would break with the next
    upgrade or reinstall, and the fix below is one line in the user's shell profile."""
    import shlex
    import shutil

    if shutil.which(COMMAND, path=search_path) is not None:
        return None
    runs = f"{host.title} runs `{host.hook_command()}` by name"
    if script_folder is None:
        return (f"{COMMAND} is not on PATH, and {runs}: put the folder that holds {COMMAND} on the PATH "
                f"{host.title} starts with, or the hooks will fail")
    folder = shlex.quote(str(script_folder))
    return (f"{COMMAND} is not on PATH, and {runs}: add {script_folder} to the PATH {host.title} starts "
            f"with, e.g. with this line in your shell profile: export PATH={folder}:\"$PATH\"")


def leftover(host: Host) -> dict[str, Any]:
    """What uninstall leaves of a file that install created: ``{}``, or the host's schema version."""
    changes = settings.Changes()
    add = host.layout.add if host.layout else settings.add_hooks
    remove = host.layout.remove if host.layout else settings.remove_hooks
    new = add({}, host.installed_events(), host.hook_command(), changes)
    if host.has_statusline:
        new = settings.remove_statusline(settings.add_statusline(new, changes, at=host.statusline_at), changes,
                                         at=host.statusline_at)
    return remove(new, changes)


def _nothing_left(host: Host, doc: dict[str, Any]) -> bool:
    return not doc or doc == leftover(host)


def _stops(scope: str, root: Path, env: Mapping[str, str]) -> tuple[Path, frozenset[Path]]:
    """The folder whose empty subfolders uninstall may delete, and folders it never deletes."""
    if scope in ("project", "local"):
        return root, frozenset({root})
    from chord_git.agents.host import home

    user = home(env)
    config = env.get("XDG_CONFIG_HOME")
    return user, frozenset({user, user / ".config", *([Path(config)] if config else [])})


def apply(host: Host, scope: str, root: Path, *, remove: bool, dry_run: bool,
          env: Mapping[str, str] | None = None) -> Outcome:
    env = os.environ if env is None else env
    path = host.settings(scope, root, env)
    inside = scope in ("project", "local")
    shown = path.relative_to(root).as_posix() if inside else str(path)
    before = _read(path, root if inside else None, shown)
    top, keep = _stops(scope, root, env)
    if host.shim is not None:
        return _apply_shim(host, path, shown, before, remove=remove, dry_run=dry_run, top=top, keep=keep)
    doc = _parse(before, shown)
    changes = settings.Changes()
    try:
        if remove:
            new = (host.layout.remove if host.layout else settings.remove_hooks)(doc, changes)
            if host.statusline_in(scope):
                new = settings.remove_statusline(new, changes, at=host.statusline_at)
        else:
            add = host.layout.add if host.layout else settings.add_hooks
            new = add(doc, host.installed_events(), host.hook_command(), changes)
            if host.statusline_in(scope):
                new = settings.add_statusline(new, changes, at=host.statusline_at)
    except settings.SettingsShapeError as exc:
        raise InputError(shown, None, str(exc)) from None
    if remove and before is not None and _nothing_left(host, new) and (
            changes.any or before == settings.render(new, None)):  # or left so by an older uninstall
        return _delete(path, shown, before, changes, dry_run, top, keep)
    if not changes.any:
        return Outcome(path, shown, changes, "", written=False)
    after = settings.render(new, before)
    diff = settings.unified_diff(before, after, shown)
    if not dry_run:
        _write(path, after, shown)
    return Outcome(path, shown, changes, diff, written=not dry_run)


def _delete(path: Path, shown: str, before: str, changes: settings.Changes, dry_run: bool, top: Path,
            keep: frozenset[Path]) -> Outcome:
    """Uninstall of a file that holds nothing of the user's: the file goes, then empty folders."""
    diff = settings.unified_diff(before, "", shown)
    if not dry_run:
        try:
            path.unlink()
        except OSError as exc:
            raise InputError(shown, None, f"cannot remove: {exc.strerror or exc}") from None
        _remove_empty_folders(path.parent, top, keep)
    return Outcome(path, shown, changes, diff, written=not dry_run, deleted=True)


def _remove_empty_folders(folder: Path, top: Path, keep: frozenset[Path]) -> None:
    """Delete ``folder`` and the folders above it while they are empty, below ``top`` only."""
    while folder not in keep and folder.is_relative_to(top) and folder != top and not folder.is_symlink():
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to delete): everything above it stays too
            return
        folder = folder.parent


# Every shim names itself with this on its first lines: a file of that name without it is the
# user's own, which install refuses to replace and uninstall leaves alone.
SHIM_MARK = "Installed by `git memory agent install`"


def shim_text(host: Host) -> str:
    from importlib import resources

    assert host.shim is not None
    return resources.files("chord_git").joinpath(f"data/{host.shim}").read_text(encoding="utf-8")


def _apply_shim(host: Host, path: Path, shown: str, before: str | None, *, remove: bool,
                dry_run: bool, top: Path, keep: frozenset[Path]) -> Outcome:
    """The host's shim file is ours whole: written as shipped, or deleted (with the empty folders
    install made for it)."""
    changes = settings.Changes()
    ours = before is not None and SHIM_MARK in before
    if remove:
        if not ours:
            return Outcome(path, shown, changes, "", written=False)
        assert before is not None
        changes.removed.append(host.shim_label)
        return _delete(path, shown, before, changes, dry_run, top, keep)
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
