"""Layer 1 of secret scrubbing (R31): find and redact credentials in free text.

``find(text)`` reports where secrets are (kind, line, character span) and never their values;
``redact(text)`` replaces each span with ``[REDACTED:<kind>]``. Assignments keep their key name
(``DB_PASSWORD=[REDACTED:password-assignment]``), URLs keep user and host, sentences keep their
words (``the password is [REDACTED:password-in-text]``).

The text is first normalised (``normalize``: invisible characters removed, homoglyphs and
full-width forms folded), then scanned by the token table (``formats``), assignments, prose
labels, command lines and links, then encoded runs and values split over two lines are decoded
and scanned again (``decode``, depth-bounded). Spans land back on the caller's characters;
documentation examples (``examples``) are dropped.

All scanning is linear in the input: every pattern in ``patterns`` starts with a literal or is
applied at a token start found by one pass over a byte mask (``formats.candidate_runs``),
lookups around a hit are bounded, and hits inside a region already handled are skipped.
"""
from __future__ import annotations

from bisect import bisect_right

from ..dataclass_lazy import dataclass
from . import assignments, commands, decode, examples, formats, links, pairs, prose
from .anchors import Occurrences
from .normalize import ascii_view, normalize
from .reading import ValueReader

_MAX_DEPTH = 1  # decoded (or joined) text is scanned again, once


@dataclass(frozen=True)
class SecretSpan:
    """Where one secret sits in a text and what kind it is; the value stays in the text."""

    kind: str
    line: int  # 1-based line of ``start``
    start: int  # character offsets into the scanned text
    end: int
    layer: str = "sanitizer"


def _raw_spans(text: str, view: str, depth: int) -> list[formats.Span]:
    runs = list(formats.candidate_runs(view))
    spans: list[formats.Span] = []
    spans.extend(formats.private_keys(view, text))
    spans.extend(formats.tokens(view, text, runs))
    spans.extend(assignments.service_values(view, text, runs))
    spans.extend(formats.text_formats(view, text))
    spans.extend(formats.url_credentials(view, text))
    spans.extend(formats.curl_users(view, text))
    occurrences = Occurrences(view.lower(), text)
    reader = ValueReader(text)
    spans.extend(assignments.assignments(view, text, occurrences))
    spans.extend(prose.scan(text, view, occurrences, reader))
    spans.extend(pairs.scan(text, view, occurrences, reader))
    spans.extend(commands.scan(text, view, occurrences))
    spans.extend(links.scan(text, view, occurrences.low))
    if depth < _MAX_DEPTH:
        def rescan(decoded: list[str]) -> list[list[formats.Span]]:
            return _rescan_together(decoded, depth + 1)

        spans.extend(decode.encoded(view, runs, rescan))
        spans.extend(decode.split_values(view, text, rescan))
    # Dense text repeats its values: each is hashed against the examples once.
    example: dict[str, bool] = {}
    kept = []
    for span in spans:
        value = text[span.start:span.end]
        listed = example.get(value)
        if listed is None:
            listed = example[value] = examples.is_documentation_example(value)
        if not listed:
            kept.append(span)
    return kept


# Between the texts rescanned together: blank lines end every rule's line, row or block.
_RESCAN_GAP = "\n\n\n\n"


def _rescan_together(texts: list[str], depth: int) -> list[list[formats.Span]]:
    """The spans in each of ``texts`` (decoded runs, joined lines), from one scan of them all.

    One scan instead of one per text: its fixed cost (a pass per rule over the text) is paid
    once, so a text packed with encoded runs costs what its length costs. A span that reaches
    across the gap between two texts belongs to neither and is dropped before merging.
    """
    if not texts:
        return []
    starts: list[int] = []
    offset = 0
    for decoded in texts:
        starts.append(offset)
        offset += len(decoded) + len(_RESCAN_GAP)
    joined = _RESCAN_GAP.join(texts)
    per_text: list[list[formats.Span]] = [[] for _ in texts]
    for span in _raw_spans(joined, ascii_view(joined), depth):
        index = bisect_right(starts, span.start) - 1
        base = starts[index]
        if span.end <= base + len(texts[index]):
            per_text[index].append(formats.Span(span.start - base, span.end - base, span.kind, span.rank))
    return [_merge(spans) for spans in per_text]


def _spans(text: str) -> list[formats.Span]:
    norm = normalize(text)
    spans = _raw_spans(norm.text, norm.view, 0)
    if norm.removed:
        spans = [formats.Span(norm.original(s.start), norm.original_end(s.end), s.kind, s.rank) for s in spans]
    return spans


def _merge(spans: list[formats.Span]) -> list[formats.Span]:
    """Overlapping spans become one, named after the most specific detector among them."""
    if len(spans) < 2:
        return list(spans)  # a rescanned text holds none or one: nothing to sort or join
    merged: list[formats.Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.rank)):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            best = last if last.rank <= span.rank else span
            merged[-1] = formats.Span(last.start, max(last.end, span.end), best.kind, best.rank)
        else:
            merged.append(span)
    return merged


def find(text: str) -> list[SecretSpan]:
    """Every secret in ``text``, in order, as (kind, 1-based line, start, end)."""
    found: list[SecretSpan] = []
    line, counted = 1, 0
    for span in _merge(_spans(text)):
        line += text.count("\n", counted, span.start)
        counted = span.start
        found.append(SecretSpan(span.kind, line, span.start, span.end))
    return found


def redact(text: str) -> str:
    """``text`` with each secret replaced by ``[REDACTED:<kind>]``."""
    pieces: list[str] = []
    last = 0
    for span in _merge(_spans(text)):
        pieces.append(text[last:span.start])
        pieces.append(f"[REDACTED:{span.kind}]")
        last = span.end
    pieces.append(text[last:])
    return "".join(pieces)


__all__ = ["SecretSpan", "ascii_view", "find", "redact"]
