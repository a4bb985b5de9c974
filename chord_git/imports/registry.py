"""The stores ``git memory import`` reads, each declared once.

A source is its own module with ``stores(where) -> list[Path]`` (where its host keeps the store
of this project, most likely first: a path rule, a registered id, or a folder of the project) and
``read(root, where, problems) -> Iterator[Read]`` (the store's items for this project, bounded by
``reading``), plus one
``Source`` entry in ``BUILTIN`` below. ``import``'s choices, its completion, the errors and the
table in ``docs/import.md`` derive from this value.

The functions are named, not imported: the parser lists the sources on every start, and only
``import`` reads a store.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from chord_git.errors import UsageError
from chord_git.support.dataclass_lazy import dataclass

if TYPE_CHECKING:
    from chord_git.imports.markdown import Item
    from chord_git.imports.reading import Problem


@dataclass(frozen=True)
class Where:
    """What a source's path rule reads: the project root, the home folder, the environment."""

    project: Path
    home: Path
    env: Mapping[str, str]


@dataclass(frozen=True)
class Read:
    """One item of a store: its file (store-relative) and the item."""

    file: str
    item: Item


@dataclass(frozen=True)
class Export:
    name: str  # as on the command line
    title: str  # what it writes, for help and docs
    function: str  # "module:function", (project, out, write) -> exit code

    def run(self, project: Any, out: Any, write: str | None) -> int:
        return cast(int, _resolve(self.function)(project, out, write))


def _resolve(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    return cast("Callable[..., Any]", getattr(importlib.import_module(module), name))


@dataclass(frozen=True)
class Source:
    name: str  # as on the command line and in a pending import's ``store``
    title: str  # as users know it
    module: str  # the module holding ``stores`` and ``read``
    where: str  # one line for the docs table: where the store is
    notes: str  # one line for the docs table: what an item is

    def stores(self, where: Where) -> list[Path]:
        return cast("list[Path]", _resolve(f"{self.module}:stores")(where))

    def read(self, root: Path, where: Where, problems: list[Problem]) -> Iterator[Read]:
        return cast("Iterator[Read]", _resolve(f"{self.module}:read")(root, where, problems))


@dataclass(frozen=True)
class Sources:
    sources: tuple[Source, ...]

    def __post_init__(self) -> None:
        names = [s.name for s in self.sources]
        if len(set(names)) != len(names):
            raise ValueError(f"import source names must be unique: {names}")

    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sources)

    def get(self, name: str) -> Source:
        for source in self.sources:
            if source.name == name:
                return source
        raise UsageError(f"unknown import source {name!r} (expected {', '.join(self.names())})")

    def doc_table(self) -> str:
        """The Markdown table of ``docs/import.md``."""
        rows = ["| source | reads | where | an item is |", "| --- | --- | --- | --- |"]
        rows += [f"| `{s.name}` | {s.title} | {s.where} | {s.notes} |" for s in self.sources]
        return "\n".join(rows) + "\n"


_HERE = "chord_git.imports.sources"

BUILTIN = Sources((
    Source("claude-code", "Claude Code auto memory", f"{_HERE}.claude_code",
           where="`~/.claude/projects/<git root, non-alphanumerics as ->/memory/` (`CLAUDE_CONFIG_DIR` moves `~/.claude`)",
           notes="a topic file's rule (its body without the why/how lines), else its description"),
    Source("codex", "Codex memories", f"{_HERE}.codex",
           where="`$CODEX_HOME/memories_v2/` and `memories/` (default `~/.codex`): one store for every project",
           notes="a bullet or paragraph of a rollout summary whose `cwd` is this project, of the memory "
                 "summary, of a note; what names another project is skipped"),
    Source("gemini", "Gemini CLI memory", f"{_HERE}.gemini",
           where="`~/.gemini/tmp/<id>/memory/` (`<id>` from `~/.gemini/projects.json`; `GEMINI_CLI_HOME` moves `~`), "
                 "and the added-memories section of `~/.gemini/GEMINI.md`",
           notes="a bullet or paragraph of `MEMORY.md` or a note beside it"),
    Source("qwen", "Qwen Code memory", f"{_HERE}.qwen",
           where="`~/.qwen/projects/<git root, non-alphanumerics as ->/memory/`, the project's `.qwen/team-memory/`, "
                 "the user tier `~/.qwen/memories/`, and the added-memories section of `~/.qwen/QWEN.md`",
           notes="a topic file's rule, or a saved memory (one bullet)"),
    Source("serena", "Serena memories", f"{_HERE}.serena",
           where="the project's `.serena/memories/*.md`", notes="a bullet or paragraph"),
    Source("cursor-rules", "Cursor rules", f"{_HERE}.cursor_rules",
           where="the project's `.cursor/rules/**/*.mdc` and `.cursorrules`", notes="a bullet or paragraph of a rule's body"),
    Source("windsurf", "Windsurf rules and memories", f"{_HERE}.windsurf",
           where="the project's `.windsurf/rules/*.md`, `.windsurfrules`, and the global rules `~/.codeium/windsurf/memories/global_rules.md`",
           notes="a bullet or paragraph"),
    Source("memory-bank", "Cline-style memory bank", f"{_HERE}.memory_bank",
           where="the project's `memory-bank/*.md`", notes="a bullet or paragraph"),
    Source("agents-md", "instruction files", f"{_HERE}.agents_md",
           where="the project's `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `QWEN.md`, `.github/copilot-instructions.md`",
           notes="a bullet point (suggestions only: these files are instructions already)"),
))

EXPORTS = (
    Export("agents-md", "a marked block of the entries for AGENTS.md, CLAUDE.md, GEMINI.md… (--write [FILE])",
           "chord_git.imports.targets:agents_md"),
    Export("claude-code", "Claude Code's auto-memory files for this project (--write)", "chord_git.imports.targets:claude"),
    Export("json", "the entries with their records and provenance", "chord_git.imports.targets:as_json"),
)


def export_target(name: str) -> Export:
    for target in EXPORTS:
        if target.name == name:
            return target
    raise UsageError(f"unknown export target {name!r} (expected {', '.join(t.name for t in EXPORTS)})")
