"""Promotion suggestion files ``.chord/memory/promotions/<id>.md`` (R19, R29, R30).

A promotion file proposes text for project instructions or docs. The tool writes these files
and only a user's ``review accept`` moves their text into the target; nothing here edits
AGENTS.md or docs. Parsing and the target-path rule are pure so ``check`` can validate staged
blobs with them; resolving a target against the file system (symlinks) is ``resolve_target``.
"""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Literal, get_args

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import InputError
from chord_git.findings import Problem
from chord_git.memory import chars, frontmatter
from chord_git.memory.records import new_id, valid_id
from chord_git.memory.textrules import absolute_paths

Target = Literal["instructions", "docs"]  # binding project instructions, or project docs (R29)
TARGETS: tuple[str, ...] = get_args(Target)
FIELDS = ("id", "entry", "target", "path", "reason", "created", "session")
REQUIRED = ("id", "target", "path", "reason", "created")
TEXT_CAP = 4000  # characters of proposed text: a suggestion, not a document
REASON_CAP = 300
PATH_CAP = 200  # characters of a target path; file systems refuse far less than they allow in total
MAX_FILE_BYTES = 64 * 1024
# Where accepted text may go: binding instructions, project docs (the top-level README and
# CONTRIBUTING count as docs), or skills (R5, R29).
INSTRUCTIONS_FILE = "AGENTS.md"
DOC_FILES = ("README.md", "CONTRIBUTING.md")
ALLOWED_DIRS = ("docs", ".chord/skills")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class PromotionFile:
    id: str
    entry: str | None  # the index entry it promotes, or None for a new conclusion
    target: str  # instructions | docs
    path: str  # project-relative target file
    reason: str
    created: str
    session: str | None
    text: str  # the proposed text (the file's body)


def target_problem(path: str) -> str | None:
    """Why ``path`` may not be a promotion target, or None if its spelling is allowed (pure).

    Allowed: ``AGENTS.md``, ``README.md``, ``CONTRIBUTING.md``, or a file under ``docs/`` or
    ``.chord/skills/``, written project-relative with forward slashes and no ``..``.
    """
    if not path or path != path.strip():
        return "target path is empty or has surrounding spaces"
    if len(path) > PATH_CAP:
        return f"target path is longer than {PATH_CAP} characters"
    # Controls, and characters no file name shows (zero-width, bidi controls, odd spaces): the
    # name the user reviews must be the name of the file the text goes to.
    hidden = next((ch for ch in path if not ch.isprintable()), None)
    if hidden is not None:
        return f"target path holds {chars.name(hidden)}, which no file name should hold"
    if "\\" in path:
        return "target path must use forward slashes"
    if path.startswith(("/", "~")) or _WINDOWS_DRIVE.match(path) or absolute_paths(path):
        return "target path is absolute (project-relative only)"
    parts = path.split("/")
    if any(len(part.encode("utf-8", "surrogateescape")) > 255 for part in parts):
        return "a target path component is longer than 255 bytes"
    if ".." in parts:
        return "target path contains '..'"
    if any(part == "" or part == "." for part in parts):
        return "target path has empty or '.' components"
    if any(part.lower() == ".git" for part in parts):
        return "target path points into .git"
    if path == INSTRUCTIONS_FILE or path in DOC_FILES:
        return None
    for folder in ALLOWED_DIRS:
        if path.startswith(folder + "/") and len(path) > len(folder) + 1:
            return None
    return "target path must be AGENTS.md, README.md, CONTRIBUTING.md or a file under docs/ or .chord/skills/"


def normalize_target(path: str) -> str:
    """Drop a leading ``./`` the model may write; everything else is judged as given."""
    while path.startswith("./"):
        path = path[2:]
    return path


def resolve_target(root: Path, rel: str) -> Path:
    """The target file in the working tree, refusing anything that leaves its allowed area.

    The lexical rule is checked first; then the path is resolved (symlinks followed) and must
    still be AGENTS.md, README.md, CONTRIBUTING.md or lie under docs/ or .chord/skills/ of this
    project, and must not be a directory. A symlinked ``docs`` pointing elsewhere is refused, even
    inside the project.
    """
    problem = target_problem(rel)
    if problem:
        raise InputError(rel, None, problem)
    real_root = root.resolve()
    resolved = (root / rel).resolve()
    try:
        inside = resolved.relative_to(real_root).as_posix()
    except ValueError:
        raise InputError(rel, None, "target path resolves outside the project (symlink); refused") from None
    if inside != rel or target_problem(inside):
        raise InputError(rel, None, "target path resolves elsewhere through a symlink; refused")
    if resolved.is_dir():
        raise InputError(rel, None, "target path is a directory")
    return root / rel


def new_promotion_id(text: str, seed: str, today: dt.date | None = None) -> str:
    """A record-style id (``YYYYMMDD-slug-hex``): deterministic, so a rerun finds its own file."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return new_id(first, "promotion", seed, today)


def one_line(text: str, cap: int = REASON_CAP) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= cap else flat[: cap - 1] + "…"


def render(promotion: PromotionFile) -> str:
    """The suggestion file's text; ValueError for a text holding a character ``chars`` refuses
    (``extraction.maintenance`` refuses such suggestions first)."""
    chars.require(promotion.text, f"promotion {promotion.id}: proposed text")
    chars.require(promotion.reason, f"promotion {promotion.id}: reason", one_line=True)
    front = {
        "id": promotion.id, "entry": promotion.entry, "target": promotion.target,
        "path": promotion.path, "reason": promotion.reason, "created": promotion.created,
        "session": promotion.session,
    }
    yaml_text = frontmatter.dump_yaml(front, quoted=("reason",))
    body = promotion.text.strip("\n")
    return f"---\n{yaml_text}---\n\n{body}\n"


def parse(text: str, expected_id: str | None = None) -> tuple[PromotionFile | None, list[Problem]]:
    """Parse and validate a promotion file; a PromotionFile comes back only without problems."""
    front, problems = frontmatter.split(text, "promotion")
    if front is None:
        return None, problems
    values, problems = frontmatter.check_fields(front, FIELDS, REQUIRED)
    at = front.line_of
    lines, close = front.file_lines, front.close
    pid, entry, target, path = values["id"], values["entry"], values["target"], values["path"]
    if pid is not None and not valid_id(pid):
        problems.append(Problem(at("id"), "id", f"invalid promotion id {pid!r}"))
    if pid is not None and expected_id is not None and pid != expected_id:
        problems.append(Problem(at("id"), "id", f"id {pid!r} does not match the file name {expected_id}.md"))
    if entry is not None and not valid_id(entry):
        problems.append(Problem(at("entry"), "id", f"entry {entry!r} is not a record id"))
    if target is not None and target not in TARGETS:
        problems.append(Problem(at("target"), "target", f"unknown target {target!r} (expected instructions or docs)"))
    if path is not None:
        why = target_problem(path)
        if why:
            problems.append(Problem(at("path"), "target-path", why))
    body = "\n".join(line.rstrip("\r") for line in lines[close + 1:]).strip("\n")
    if not body.strip():
        problems.append(Problem(close + 2, "text", "the proposed text (the body) is empty"))
    elif len(body) > TEXT_CAP:
        problems.append(Problem(close + 2, "cap", f"proposed text has {len(body)} characters (cap {TEXT_CAP})"))
    for offset, raw in enumerate(lines):
        if absolute_paths(raw):
            problems.append(Problem(offset + 1, "absolute-path",
                                    "absolute path in a memory file (use project-relative paths)"))
    problems.extend(frontmatter.character_problems(front, values))
    if problems:
        return None, problems
    assert pid and target and path and values["reason"] and values["created"]
    return PromotionFile(id=pid, entry=entry, target=target, path=path, reason=values["reason"],
                         created=values["created"], session=values["session"], text=body), []


def from_bytes(data: bytes, expected_id: str | None = None) -> tuple[PromotionFile | None, list[Problem]]:
    """Validate a promotion file's bytes (working tree, staged blob): size, UTF-8, rules."""
    text = frontmatter.decode(data, MAX_FILE_BYTES, "promotion")
    if isinstance(text, Problem):
        return None, [text]
    return parse(text, expected_id)


def read(path: Path) -> tuple[PromotionFile | None, list[Problem]]:
    """Read one promotion file, refusing symlinks, oversized files and non-UTF-8 bytes."""
    data = frontmatter.read_file(path, MAX_FILE_BYTES, "promotion")
    if isinstance(data, Problem):
        return None, [data]
    return from_bytes(data, expected_id=path.stem)


def safe_promotion_path(promotions_dir: Path, pid: str) -> Path:
    """The file of a promotion id, refusing ids and paths that leave the promotions directory."""
    if not valid_id(pid):
        raise InputError(promotions_dir, None, f"invalid promotion id {pid!r}")
    from chord_git.memory.paths import memory_file

    return memory_file(promotions_dir, pid, "promotion")
