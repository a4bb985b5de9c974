"""The memory a range makes false: entries whose anchors the range deletes, renames or changes
beyond recognition (issue 36), found in the pull request that does it.

An entry's anchors (``memory.anchors``: a path, a make target, a package script, a config key) are
read from its record at HEAD (as written, or derived from its text for an older record). Only what
existed at BASE and is gone at HEAD counts: the range caused it. A renamed path is followed (rename
detection, as ``git diff -M`` does), a target whose recipe moved to another name, a script whose
command did, and a key whose line kept its value under another name are renames: the entry can be
updated, and the fix offered says how. Otherwise the fix is forgetting the entry. Each is shown
with the newest commit of the range that touched the file it came from.

Everything is read from the two commits' trees (pygit2 through ``git.libgit2``); nothing is written.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from chord_git.memory import anchors as anchor_rules
from chord_git.memory import records
from chord_git.memory.anchors import Anchor
from chord_git.memory.project import RECORDS_DIR
from chord_git.support.dataclass_lazy import dataclass

DELETED = "deleted"
RENAMED = "renamed"
REMOVED = "removed"
# An anchor's key is the word a config line opens with: `KEY=value`, `key: value`, `"key": value`.
_CONFIG_LINE = re.compile(r"^\s*[\"']?([A-Za-z_][\w.-]*)[\"']?\s*[:=]\s*(.*?)\s*,?\s*$")
# Config files read at HEAD to tell a key moved elsewhere from a key gone.
CONFIG_FILES = 2000


@dataclass(frozen=True)
class Stale:
    rid: str
    summary: str
    anchor: Anchor
    change: str  # DELETED, RENAMED, REMOVED
    where: str  # the file the change is in (the path itself, the Makefile, a package.json, a config file)
    renamed_to: str | None = None
    commit: str | None = None  # the newest commit of the range that touched ``where``

    def describe(self) -> str:
        if self.renamed_to is not None:
            return f"{self.anchor.shown()} renamed to {self.renamed_to}"
        return f"{self.anchor.shown()} {'deleted' if self.anchor.kind == 'path' else 'removed from ' + self.where}"

    def fixes(self) -> list[str]:
        """Commands that fix it in the same pull request, as printed."""
        forget = f"git memory forget {self.rid}"
        if self.renamed_to is None:
            return [forget]
        # The name as a whole token only: "lint" in "linter" is not the target.
        token = re.compile(r"(?<![\w./-])" + re.escape(self.anchor.name) + r"(?![\w-])")
        updated = token.sub(lambda _m: str(self.renamed_to), self.summary, count=1)
        return [forget, "git memory add " + _quoted(updated)]


def _quoted(text: str) -> str:
    """``text`` as one shell word that prints as written (single quotes; a quote inside closed and escaped)."""
    return "'" + text.replace("'", "'\\''") + "'"


def _make_rules(text: str | None) -> dict[str, str]:
    """target -> its recipe (the tab-indented lines under it) of a Makefile's text."""
    rules: dict[str, str] = {}
    current: list[str] = []
    for line in (text or "").split("\n"):
        if line.startswith("\t") and current:
            for name in current:
                rules[name] = rules.get(name, "") + line.strip() + "\n"
            continue
        head = anchor_rules.RULE_HEAD.match(line)
        current = head.group(1).split() if head else []
        for name in current:
            rules.setdefault(name, "")
    return rules


def _scripts(text: str | None) -> dict[str, str]:
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return {}
    scripts = data.get("scripts") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in scripts.items()} if isinstance(scripts, dict) else {}


def _config_lines(text: str | None) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for line in (text or "").split("\n") if (m := _CONFIG_LINE.match(line))]


def _words(text: str | None) -> set[str]:
    return anchor_rules.identifiers(text or "")


def _renamed_by_content(before: Mapping[str, str], after: Mapping[str, str]) -> dict[str, str]:
    """Names gone from ``after`` whose content (a recipe, a command) now stands under one new name."""
    added = {name: body for name, body in after.items() if name not in before}
    out = {}
    for name, body in before.items():
        if name in after or not body.strip():
            continue
        same = [new for new, new_body in added.items() if new_body == body]
        if len(same) == 1:
            out[name] = same[0]
    return out


@dataclass(frozen=True)
class RangeFacts:
    """What a range removed, from its two trees: the input ``stale`` judges entries against."""

    deleted_paths: frozenset[str]  # files and folders at BASE, gone at HEAD
    renamed_paths: Mapping[str, str]  # old -> new, by content similarity
    removed_targets: frozenset[str]
    renamed_targets: Mapping[str, str]
    removed_scripts: Mapping[str, str]  # script -> the package.json it left
    renamed_scripts: Mapping[str, str]
    removed_keys: Mapping[str, str]  # last segment of a key -> the config file it left
    renamed_keys: Mapping[str, str]

    def names(self) -> frozenset[str]:
        """Every name an anchor must hold to be stale in this range."""
        return frozenset({*self.deleted_paths, *self.renamed_paths, *self.removed_targets, *self.removed_scripts,
                          *self.removed_keys})


def range_facts(deltas: Iterable[tuple[str, str | None, str | None]], base_paths: frozenset[str],
                head_paths: frozenset[str], texts: Mapping[str, tuple[str | None, str | None]],
                head_config_words: set[str], head_scripts: frozenset[str] = frozenset()) -> RangeFacts:
    """``deltas``: (status, old path, new path) of the tree diff with renames (``D``, ``R``, …);
    ``base_paths``/``head_paths``: the folders the deleted and renamed files were in that each side
    holds; ``texts``: (base, head) text of the Makefile, every changed package.json and config file;
    ``head_config_words``, ``head_scripts``: the identifiers of every config file and the scripts of
    every package.json at HEAD, where a key or script may live on (pure)."""
    renamed = {old: new for status, old, new in deltas if status == "R" and old and new}
    gone = {old for status, old, _new in deltas if status == "D" and old}
    folders = {p.rsplit("/", i)[0] for p in gone | set(renamed) for i in range(1, p.count("/") + 1)}
    for folder in sorted(folder for folder in folders if folder in base_paths and folder not in head_paths):
        # A folder whose files all moved under one new folder was renamed; otherwise it is gone.
        moved = {new[: len(new) - len(old) + len(folder)] for old, new in renamed.items()
                 if old.startswith(folder + "/") and new.endswith(old[len(folder):])}
        left = any(p.startswith(folder + "/") for p in gone)
        if len(moved) == 1 and not left:
            renamed[folder] = moved.pop()
        else:
            gone.add(folder)
    make_before, make_after = (_make_rules(t) for t in texts.get("Makefile", (None, None)))
    scripts_removed: dict[str, str] = {}
    scripts_renamed: dict[str, str] = {}
    keys_removed: dict[str, str] = {}
    keys_renamed: dict[str, str] = {}
    for path, (before, after) in texts.items():
        if path.endswith("package.json"):
            old, new = _scripts(before), _scripts(after)
            scripts_removed.update({name: path for name in old if name not in new and name not in head_scripts})
            scripts_renamed.update(_renamed_by_content(old, new))
        elif path != "Makefile":
            lost = _words(before) - _words(after) - head_config_words
            keys_removed.update({word: path for word in lost})
            # A key whose value now stands under one new key, wherever its line went, was renamed.
            moved_keys = _renamed_by_content(dict(_config_lines(before)), dict(_config_lines(after)))
            keys_renamed.update({old.rsplit(".", 1)[-1]: new for old, new in moved_keys.items()})
    return RangeFacts(frozenset(gone), renamed, frozenset(set(make_before) - set(make_after)),
                      _renamed_by_content(make_before, make_after), scripts_removed, scripts_renamed,
                      keys_removed, keys_renamed)


def stale(entries: Sequence[tuple[str, str, Sequence[Anchor]]], facts: RangeFacts) -> list[Stale]:
    """The entries (id, summary, anchors) a range makes false, first anchor first (pure)."""
    out: list[Stale] = []
    for rid, summary, found in entries:
        for anchor in found:
            hit = _judge(rid, summary, anchor, facts)
            if hit is not None:
                out.append(hit)
                break
    return out


def _judge(rid: str, summary: str, anchor: Anchor, facts: RangeFacts) -> Stale | None:
    name = anchor.name
    if anchor.kind == "path":
        path = name.rstrip("/")
        if path in facts.renamed_paths:  # a folder named with its slash keeps it
            return Stale(rid, summary, anchor, RENAMED, path, facts.renamed_paths[path] + name[len(path):])
        if path in facts.deleted_paths:
            return Stale(rid, summary, anchor, DELETED, path)
    elif anchor.kind == "make" and name in facts.removed_targets:
        return Stale(rid, summary, anchor, RENAMED if name in facts.renamed_targets else REMOVED, "Makefile",
                     facts.renamed_targets.get(name))
    elif anchor.kind == "script" and name in facts.removed_scripts:
        return Stale(rid, summary, anchor, RENAMED if name in facts.renamed_scripts else REMOVED,
                     facts.removed_scripts[name], facts.renamed_scripts.get(name))
    elif anchor.kind == "key":
        word = name.rsplit(".", 1)[-1]
        if word in facts.removed_keys:
            new = facts.renamed_keys.get(word)
            renamed_to = (name[: len(name) - len(word)] + new.rsplit(".", 1)[-1]) if new else None
            return Stale(rid, summary, anchor, RENAMED if new else REMOVED, facts.removed_keys[word], renamed_to)
    return None


def find(start: Path, base: str, head: str, spec: str) -> list[Stale]:
    """The entries of HEAD's index that ``base..head`` makes false, with the commit of each. What
    the range removed is read first: a range that removes nothing reads no record."""
    from chord_git.git import libgit2

    deltas = libgit2.tree_diff_renames(start, base, head)
    if not any(status in ("D", "R", "M") for status, _old, _new in deltas):
        return []
    folders = sorted({old.rsplit("/", i)[0] for _s, old, _n in deltas if old and "/" in old
                      for i in range(1, old.count("/") + 1)})
    wanted = sorted({p for _s, old, new in deltas for p in (old, new) if p and _watched(p)})
    before = libgit2.files_at(start, base, wanted)
    after = libgit2.files_at(start, head, wanted)
    texts = {path: (_text(before.get(path)), _text(after.get(path))) for path in wanted}
    config_words: set[str] = set()
    if any(_config(path) for path in wanted):  # a key may live on in a config file the range left alone
        for data in libgit2.files_at(start, head, libgit2.tree_files(start, head, _config, CONFIG_FILES)).values():
            config_words |= _words(_text(data))
    scripts: set[str] = set()
    if any(path.endswith("package.json") for path in wanted):  # and a script in another package
        packages = libgit2.tree_files(start, head, lambda p: p.rsplit("/", 1)[-1] == "package.json", CONFIG_FILES)
        for data in libgit2.files_at(start, head, packages).values():
            scripts |= set(_scripts(_text(data)))
    facts = range_facts(deltas, frozenset(libgit2.paths_present(start, base, folders)),
                        frozenset(libgit2.paths_present(start, head, folders)), texts, config_words,
                        frozenset(scripts))
    names = facts.names()
    if not names:
        return []
    found = stale(_entries_at(start, head, names), facts)
    # A folder's commit is the one that touched its first file the range changed.
    files = {hit.where: next((old for _s, old, _n in sorted(deltas, key=lambda d: d[1] or "")
                              if old and (old == hit.where or old.startswith(hit.where + "/"))), hit.where)
             for hit in found}
    touches = libgit2.last_touches(start, spec, sorted(set(files.values())))
    return [Stale(hit.rid, hit.summary, hit.anchor, hit.change, hit.where, hit.renamed_to,
                  touches[files[hit.where]].commit if files[hit.where] in touches else None) for hit in found]


def _entries_at(start: Path, head: str, names: frozenset[str]) -> list[tuple[str, str, tuple[Anchor, ...]]]:
    """HEAD's entries whose record (or index line, without one) holds one of ``names``, with their
    anchors: the others cannot name what the range removed, and their YAML is not parsed."""
    from chord_git.check import memory_diff
    from chord_git.git import libgit2

    # As a reader sees HEAD's memory: pending entries folded in, removals gone, so the fix this scan
    # offers (``git memory forget``, a removal file on a branch) clears the entry once committed.
    listed = [(entry.id, entry.summary) for entry in memory_diff.side(start, head, "").entries]
    blobs = libgit2.files_at(start, head, [f"{RECORDS_DIR}/{rid}.md" for rid, _s in listed])
    needles = [name.encode("utf-8") for name in names]
    out = []
    for rid, summary in listed:
        blob = blobs.get(f"{RECORDS_DIR}/{rid}.md")
        if not any(needle in (blob if blob is not None else summary.encode("utf-8")) for needle in needles):
            continue
        record = records.from_bytes(blob, rid)[0] if blob is not None else None
        found = records.anchors_of(record) if record is not None else anchor_rules.derive(summary)
        if found:
            out.append((rid, summary, tuple(found)))
    return out


def _text(data: bytes | None) -> str | None:
    return None if data is None else data[:256 * 1024].decode("utf-8", "replace")


def _config(path: str) -> bool:
    return anchor_rules.is_config(path.rsplit("/", 1)[-1])


def _watched(path: str) -> bool:
    return path == "Makefile" or path.endswith("package.json") or _config(path)


def markdown(found: Sequence[Stale]) -> str:
    """The job summary's section (pure): one row an entry, the anchor, the commit, the fix."""
    from chord_git.support.escape import markdown_text

    if not found:
        return ""
    lines = ["", f"### Memory this range makes stale ({len(found)})", "",
             "Entries that name what this range deletes, renames or removes; fix them in this pull request.", "",
             "| Entry | Names | Change | Commit | Fix |", "|---|---|---|---|---|"]
    for hit in found:
        fixes = "<br>".join(markdown_text(fix, 400) for fix in hit.fixes())
        lines.append(f"| {markdown_text(hit.rid, 80)} | {markdown_text(hit.anchor.shown(), 200)} | "
                     f"{markdown_text(hit.describe(), 300)} | {markdown_text((hit.commit or '')[:12], 20)} | {fixes} |")
    return "\n".join(lines) + "\n"


def lines(found: Sequence[Stale]) -> list[str]:
    """The text output (pure): one line an entry, then its fix."""
    out = []
    for hit in found:
        commit = f" in {hit.commit[:12]}" if hit.commit else ""
        out.append(f"stale memory: {hit.rid}: {hit.describe()}{commit}")
        out.extend(f"  fix: {fix}" for fix in hit.fixes())
    return out
