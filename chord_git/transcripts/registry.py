"""The transcript formats chord_git reads, each declared once.

A format is its own module (a reader and a line detector) plus one ``Format`` entry in
``BUILTIN`` below. Everything that names the formats derives from this value: ``extract
--format`` and its completion, the error texts, the table in ``docs/agent-hosts.md``, and the
format guessed from a file's first lines. ``tests/test_registries.py`` compares the table, pins
each module's ``FORMAT`` (its transcripts' ``source_format``) to its entry, and checks that no
other module lists the names.

Guessing: each line is judged on its own and the first line that settles it wins, so leading
lines every format may share cannot mislead. A line is offered to the detectors in ``rank``
order (lower first): the first that says True names the format; one that says None declares the
line undecidable (no later detector is asked). A first line that opens a JSON array belongs to
the one format read as a whole array (``array_document``), and a first line that is just ``{``
(a pretty-printed JSON object) to the one format read as a whole object (``object_document``).

To add a format: write ``transcripts/<name>.py`` with a reader ``(records, path) -> Transcript``
and a detector ``(obj) -> bool | None``, and append a ``Format`` here naming them as
``module:function``; pick a ``rank`` that lets the formats it could be mistaken for judge first.

The reader and detector are named, not imported: the command line's parser lists the formats on
every start, and only ``extract`` reads a transcript.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import UsageError
from chord_git.ui import either

if TYPE_CHECKING:
    from chord_git.transcripts.jsonl import Record
    from chord_git.transcripts.model import Transcript

AUTO = "auto"


def _resolve(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    return cast("Callable[..., Any]", getattr(importlib.import_module(module), name))


@dataclass(frozen=True)
class Format:
    name: str            # as on the command line and in source_format
    title: str           # as users know it (error texts, docs)
    reader: str          # "module:function", (records, path for errors) -> Transcript
    detector: str        # "module:function", one parsed line -> mine, not mine, or None: undecidable
    rank: int            # the order in which detectors judge a line (lower first)
    notes: str           # one line for the docs table
    array_document: bool = False   # a first line opening "[" makes the file one JSON array
    object_document: bool = False  # a first line that is just "{" makes the file one JSON object

    def read(self, records: Iterable[Record], path: str) -> Transcript:
        return cast("Transcript", _resolve(self.reader)(records, path))

    def detect(self, obj: Any) -> bool | None:
        return cast("bool | None", _resolve(self.detector)(obj))


@dataclass(frozen=True)
class Formats:
    """An immutable set of formats in the order they are listed (``--format`` choices, docs)."""

    formats: tuple[Format, ...]

    def __post_init__(self) -> None:
        names = [f.name for f in self.formats]
        if len(set(names)) != len(names) or AUTO in names:
            raise ValueError(f"transcript format names must be unique and not {AUTO!r}: {names}")
        if sum(f.array_document for f in self.formats) > 1:
            raise ValueError("at most one transcript format reads a JSON array document")
        if sum(f.object_document for f in self.formats) > 1:
            raise ValueError("at most one transcript format reads a pretty-printed JSON object document")

    def with_format(self, fmt: Format) -> Formats:
        """A new registry with ``fmt`` added last (this one is left as it is)."""
        return Formats((*self.formats, fmt))

    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.formats)

    def choices(self) -> tuple[str, ...]:
        return (AUTO, *self.names())

    def get(self, name: str) -> Format:
        for fmt in self.formats:
            if fmt.name == name:
                return fmt
        raise UsageError(f"unknown transcript format {name!r} (expected {', '.join(self.choices())})")

    def check(self, name: str) -> None:
        """UsageError unless ``name`` is ``auto`` or one of the formats."""
        if name != AUTO:
            self.get(name)

    def array_format(self) -> Format | None:
        return next((f for f in self.formats if f.array_document), None)

    def object_format(self) -> Format | None:
        return next((f for f in self.formats if f.object_document), None)

    def detect_object(self, obj: Any) -> str | None:
        """The format one parsed line belongs to, or None when the line alone cannot tell."""
        for fmt in sorted(self.formats, key=lambda f: f.rank):
            verdict = fmt.detect(obj)
            if verdict is None:
                return None
            if verdict:
                return fmt.name
        return None

    def undetected_message(self) -> str:
        titles = [f.title for f in self.formats]
        return (f"cannot tell the transcript format (expected {either(titles)} JSON Lines); "
                "pass the format explicitly")

    def doc_table(self) -> str:
        """The Markdown table of ``docs/agent-hosts.md``."""
        rows = ["| format | reads | notes |", "| --- | --- | --- |"]
        rows += [f"| `{f.name}` | {f.title} | {f.notes} |" for f in self.formats]
        return "\n".join(rows) + "\n"


_HERE = "chord_git.transcripts"

BUILTIN = Formats((
    Format("native", "native", f"{_HERE}.native:read_native", f"{_HERE}.native:detect", rank=30,
           notes="the JSON Lines of SPEC (`session`, `message`, `tool_call`, `tool_result`, `compaction`)"),
    Format("openai", "OpenAI chat", f"{_HERE}.openai_chat:read_openai", f"{_HERE}.openai_chat:detect", rank=20,
           notes="chat messages, as one JSON array or one message per line", array_document=True),
    Format("claude-code", "Claude Code", f"{_HERE}.claude_code:read_claude_code", f"{_HERE}.claude_code:detect",
           rank=40, notes="`~/.claude/projects/<project>/<session-id>.jsonl`"),
    Format("codex", "Codex", f"{_HERE}.codex:read_codex", f"{_HERE}.codex:detect", rank=10,
           notes="`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, envelope and legacy layouts"),
    Format("pi", "pi", f"{_HERE}.pi:read_pi", f"{_HERE}.pi:detect", rank=5,
           notes="`~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`, the branch the session ended on"),
    Format("opencode", "OpenCode", f"{_HERE}.opencode:read_opencode", f"{_HERE}.opencode:detect", rank=6,
           notes="`opencode export <session>` output, or one `{info, parts}` message per line", object_document=True),
    Format("gemini", "Gemini CLI", f"{_HERE}.gemini:read_gemini", f"{_HERE}.gemini:detect", rank=35,
           notes="`~/.gemini/tmp/<project>/chats/session-*.jsonl`, an event log; injected `<hook_context>` cut out"),
    Format("qwen", "Qwen Code", f"{_HERE}.qwen:read_qwen", f"{_HERE}.qwen:detect", rank=38,
           notes="`~/.qwen/projects/<project>/chats/<session-id>.jsonl`, the branch ending at the last record"),
    Format("copilot", "Copilot CLI", f"{_HERE}.copilot:read_copilot", f"{_HERE}.copilot:detect", rank=36,
           notes="`~/.copilot/session-state/<session-id>/events.jsonl`, typed events; hook output left out"),
))
