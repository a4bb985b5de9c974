"""Merging our entries into a host's JSON settings, and taking them out again (pure functions).

Both hosts use the same shape::

    {"hooks": {"SessionStart": [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]},
     "statusLine": {"type": "command", "command": "..."}}

Our entries are recognised by their command (``git-memory agent hook`` / ``statusline``, also
through ``git memory`` or an absolute path), never by position, so a user may reorder them or add
their own hooks next to them. Everything else in the file is kept as it was, key order included.
A document that already holds exactly our entries comes back equal, so installing twice changes
nothing; the caller then leaves the file untouched, byte for byte.
"""
from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Mapping
from typing import Any

from chord_git.support.dataclass_lazy import dataclass, field

_OURS = re.compile(r"(?:^|[\s/])git[- ]memory\s+agent\s+(hook|statusline)\b")
STATUSLINE_COMMAND = "git-memory agent statusline"


class SettingsShapeError(ValueError):
    """The file's JSON is valid but not shaped like host settings (message says where)."""


def ours(command: object, kind: str = "hook") -> bool:
    if not isinstance(command, str):
        return False
    match = _OURS.search(command)
    return match is not None and match.group(1) == kind


@dataclass
class Changes:
    added: list[str] = field(default_factory=list)      # events (and "statusLine") given our entry
    updated: list[str] = field(default_factory=list)    # our entry was there in another form
    removed: list[str] = field(default_factory=list)
    statusline_taken: str | None = None  # the user's own statusLine command, left alone

    @property
    def any(self) -> bool:
        return bool(self.added or self.updated or self.removed)


def _hook_table(doc: dict[str, Any], create: bool) -> dict[str, Any] | None:
    table = doc.get("hooks")
    if table is None:
        if not create:
            return None
        table = doc["hooks"] = {}
    if not isinstance(table, dict):
        raise SettingsShapeError('"hooks" must be an object of event names')
    return table


def _groups(table: dict[str, Any], event: str) -> list[Any]:
    groups = table.get(event)
    if not isinstance(groups, list):
        raise SettingsShapeError(f'"hooks.{event}" must be a list of matcher groups')
    return groups


def _entry(command: str, timeout: int) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": timeout}


def add_hooks(doc: dict[str, Any], events: Mapping[str, int], command: str, changes: Changes) -> dict[str, Any]:
    """A copy of ``doc`` where every event in ``events`` (name -> timeout) runs ``command`` once."""
    out = copy.deepcopy(doc)
    table = _hook_table(out, create=True)
    assert table is not None
    for event, timeout in events.items():
        if event not in table:
            table[event] = []
        groups = _groups(table, event)
        found = [(g, e) for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list)
                 for e in g["hooks"] if isinstance(e, dict) and ours(e.get("command"))]
        wanted = _entry(command, timeout)
        if not found:
            groups.append({"hooks": [wanted]})
            changes.added.append(event)
            continue
        first_group, first = found[0]
        if first != wanted:
            first.clear()
            first.update(wanted)
            changes.updated.append(event)
        for group, extra in found[1:]:  # a duplicate would run the hook twice per event
            group["hooks"].remove(extra)
            changes.updated.append(event)
        _drop_empty_groups(groups, keep=first_group)
    return out


def remove_hooks(doc: dict[str, Any], changes: Changes) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    table = _hook_table(out, create=False)
    if table is None:
        return out
    for event in list(table):
        groups = table[event]
        if not isinstance(groups, list):
            continue
        removed = False
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                kept = [e for e in group["hooks"] if not (isinstance(e, dict) and ours(e.get("command")))]
                if len(kept) != len(group["hooks"]):
                    group["hooks"] = kept
                    removed = True
        if removed:
            changes.removed.append(event)
            _drop_empty_groups(groups, keep=None)
            if not groups:
                del table[event]
    if changes.removed and not table:
        del out["hooks"]
    return out


def _drop_empty_groups(groups: list[Any], keep: object) -> None:
    groups[:] = [g for g in groups if g is keep or not (isinstance(g, dict) and g.get("hooks") == [])]


STATUSLINE_AT = ("statusLine",)  # where Claude Code keeps it; Qwen Code: ("ui", "statusLine")


def _parent(doc: dict[str, Any], at: tuple[str, ...], create: bool) -> dict[str, Any] | None:
    """The object that holds the status line entry (``at[:-1]`` below ``doc``), made where ``create``."""
    node = doc
    for key in at[:-1]:
        child = node.get(key)
        if child is None and create:
            child = node[key] = {}
        if not isinstance(child, dict):
            if child is None:
                return None
            raise SettingsShapeError(f'"{key}" must be an object')
        node = child
    return node


def add_statusline(doc: dict[str, Any], changes: Changes, command: str = STATUSLINE_COMMAND, *,
                   at: tuple[str, ...] = STATUSLINE_AT) -> dict[str, Any]:
    """Ours only where the file has none: there is one status line per settings file. ``at``: the
    keys that lead to it, as the host names them."""
    found = _parent(doc, at, create=False)
    current = found.get(at[-1]) if found is not None else None
    if current is None:
        out = copy.deepcopy(doc)
        parent = _parent(out, at, create=True)
        assert parent is not None
        parent[at[-1]] = {"type": "command", "command": command}
        changes.added.append(".".join(at))
        return out
    theirs = current.get("command") if isinstance(current, dict) else None
    if not ours(theirs, "statusline"):
        changes.statusline_taken = theirs if isinstance(theirs, str) else json.dumps(current)
    return doc


def remove_statusline(doc: dict[str, Any], changes: Changes, *, at: tuple[str, ...] = STATUSLINE_AT) -> dict[str, Any]:
    found = _parent(doc, at, create=False)
    current = found.get(at[-1]) if found is not None else None
    if isinstance(current, dict) and ours(current.get("command"), "statusline"):
        out = copy.deepcopy(doc)
        # Take the entry out, then the objects on its way that it leaves empty (install made them).
        path = [out]
        for key in at[:-1]:
            path.append(path[-1][key])
        del path[-1][at[-1]]
        for depth in range(len(at) - 1, 0, -1):
            if path[depth] == {}:
                del path[depth - 1][at[depth - 1]]
        changes.removed.append(".".join(at))
        return out
    return doc


# ---------------------------------------------------------------------------- text
# Settings files nest a handful of levels; far deeper is not one, and rewriting it (json.dumps
# with an indent recurses per level) would hit Python's recursion limit.
MAX_DEPTH = 64


def parse(text: str) -> dict[str, Any]:
    """The settings object; raises json.JSONDecodeError or SettingsShapeError."""
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except RecursionError:
        raise SettingsShapeError(f"nested deeper than {MAX_DEPTH} levels; not a settings file") from None
    if not isinstance(value, dict):
        raise SettingsShapeError("settings must be a JSON object")
    if _depth(value) > MAX_DEPTH:
        raise SettingsShapeError(f"nested deeper than {MAX_DEPTH} levels; not a settings file")
    return value


def _depth(value: object) -> int:
    """How deep objects and arrays nest in ``value`` (without recursion)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _indent(text: str) -> str | int:
    """The file's own indentation, so a rewrite does not reformat every line."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return 2


def render(doc: dict[str, Any], original: str | None) -> str:
    indent = _indent(original) if original else 2
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


def unified_diff(before: str | None, after: str, name: str) -> str:
    """A git-style diff; ``before`` None means the file does not exist yet."""
    lines = difflib.unified_diff((before or "").splitlines(keepends=True), after.splitlines(keepends=True),
                                 fromfile="/dev/null" if before is None else f"a/{name}", tofile=f"b/{name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
