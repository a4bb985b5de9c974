"""The driver of secret scrubbing in two layers (R31): our sanitizer (layer 1), detect-secrets (layer 2).

Layer 1 over one text: ``find(text)`` reports where secrets are (kind, line, character span)
and never their values; ``redact(text)`` replaces each span with ``[REDACTED:<kind>]``.
Assignments keep their key name (``DB_PASSWORD=[REDACTED:password-assignment]``), URLs keep user
and host, sentences keep their words (``the password is [REDACTED:password-in-text]``). The text
is first normalised (``text.normalize``: invisible characters removed, homoglyphs and full-width
forms folded), then read by each scanner of ``scanners`` (the token table, assignments, prose
labels, labels in any script, login pairs, command lines, setters, links, markup, credential
files and hashes, Jenkins credential XML, a service word beside a credential word), then encoded runs and values split over two lines
are decoded and scanned again (``scanners.decode``, depth-bounded). Spans land back on the
caller's characters; documentation examples (``verdicts.examples``) are dropped. All scanning is
linear in the input: every pattern in ``words.patterns`` starts with a literal or is applied at
a token start found by one pass over a byte mask (``scanners.formats.candidate_runs``), lookups
around a hit are bounded, and hits inside a region already handled are skipped. That bound is
also why a long stretch repeating one unit can be read with whole periods cut out of its middle
(``text.periods``): the shorter text holds every neighbourhood of the longer one.

Both layers over the added lines of files: ``scan_added_lines`` is what the hooks and the CI
scan call. Layer 2 runs first, on the part of each file it can afford (see ``LAYER2_MAX_LINE``),
because a baseline match there tells layer 1 which values the team has accepted; then layer 1
reads every added line of each file joined together (so a private-key block spanning lines is
seen whole). Both layers honour the same allowances (``verdicts.allow``: pragmas, the baseline's
values and patterns) and the ignore file (``verdicts.ignore``). Each secret is reported once per
line and kind family, layer 1's more specific kind first. Importing this module does not import
detect-secrets; ``layer2.detect`` does that only when there are lines to scan.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..support.dataclass_lazy import replace
from ..findings import Finding
from .layer2 import prefilter
from .layer2.floor import Removal
from .layer2.kinds import kind_family, secret_finding
from .scanners import (
    adjacent,
    anylabel,
    assignments,
    commands,
    credential_files,
    decode,
    formats,
    jenkins,
    languages,
    links,
    markup,
    pairs,
    prose,
    sayings,
    setters,
)
from .text import periods
from .text.anchors import Occurrences
from .text.normalize import ascii_view, normalize
from .text.reader import ValueReader
from .text.spans import SecretSpan, Span
from .verdicts import examples
from .verdicts.allow import Allowances, allowances, value_hash
from .verdicts.allow_patterns import compile_filters
from .verdicts.ignore import IgnoreList

_MAX_DEPTH = 1  # decoded (or joined) text is scanned again, once


def _raw_spans(text: str, view: str, depth: int) -> list[Span]:
    runs = list(formats.candidate_runs(view))
    spans: list[Span] = []
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
    spans.extend(languages.scan(text, view, occurrences, reader))
    spans.extend(pairs.scan(text, view, occurrences, reader))
    spans.extend(commands.scan(text, view, occurrences))
    spans.extend(links.scan(text, view, occurrences.low))
    spans.extend(markup.scan(text, occurrences.low, reader))
    spans.extend(setters.scan(text, view))
    spans.extend(sayings.scan(text, view, occurrences))
    spans.extend(anylabel.scan(text, view, occurrences))
    spans.extend(credential_files.scan(text, view))
    spans.extend(jenkins.scan(text, view))
    spans.extend(adjacent.scan(text, view, occurrences))
    if depth < _MAX_DEPTH:
        def rescan(decoded: list[str]) -> list[list[Span]]:
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


def _rescan_together(texts: list[str], depth: int) -> list[list[Span]]:
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
    per_text: list[list[Span]] = [[] for _ in texts]
    for span in _raw_spans(joined, ascii_view(joined), depth):
        index = bisect_right(starts, span.start) - 1
        base = starts[index]
        if span.end <= base + len(texts[index]):
            per_text[index].append(Span(span.start - base, span.end - base, span.kind, span.rank))
    return [_merge(spans) for spans in per_text]


def _periodic_spans(text: str, view: str, min_cut: int = periods.MIN_CUT) -> list[Span] | None:
    """The spans of ``text`` read with its long periodic stretch cut short (``text.periods``), or
    None when it has none or the check of what was read fails."""
    cut = periods.find_cut(text, min_cut)
    if cut is None:
        return None
    short = cut.apply(text)
    return periods.expand(_raw_spans(short, cut.apply(view), 0), cut)


def _spans(text: str) -> list[Span]:
    norm = normalize(text)
    spans = _periodic_spans(norm.text, norm.view)
    if spans is None:
        spans = _raw_spans(norm.text, norm.view, 0)
    if norm.removed:
        spans = [Span(norm.original(s.start), norm.original_end(s.end), s.kind, s.rank) for s in spans]
    return spans


def _merge(spans: list[Span]) -> list[Span]:
    """Overlapping spans become one, named after the most specific detector among them."""
    if len(spans) < 2:
        return list(spans)  # a rescanned text holds none or one: nothing to sort or join
    merged: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.rank)):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            best = last if last.rank <= span.rank else span
            merged[-1] = Span(last.start, max(last.end, span.end), best.kind, best.rank)
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



# detect-secrets is slow on long text: its ``is_indirect_reference`` filter runs a regex that is
# quadratic in the line length on every line up to 1,000 characters (12 ms for a 560-character
# prose line here), and its plugins cost more per line as lines grow (a 10 MB line takes ~20 s).
# A hook cannot wait for that. Layer 1 is linear and reads everything; layer 2 reads lines up to
# LAYER2_MAX_LINE characters, and the first LAYER2_MAX_CHARS of each file (a record's size cap).
LAYER2_MAX_LINE = 4096
LAYER2_MAX_CHARS = 64 * 1024
Lines = Sequence[tuple[int, str]]


def layer2_part(lines: Lines) -> list[tuple[int, str]]:
    """The lines layer 2 reads: each up to ``LAYER2_MAX_LINE``, ``LAYER2_MAX_CHARS`` in all."""
    if len(lines) <= LAYER2_MAX_LINE and sum(len(text) for _, text in lines) + len(lines) <= LAYER2_MAX_LINE:
        return list(lines)  # a record: every line fits, and so does the whole
    budget = LAYER2_MAX_CHARS
    part = []
    for number, text in lines:
        if budget <= 0:
            break  # nothing more is taken: a 23 MB file's other 380,000 lines need no look
        if len(text) <= LAYER2_MAX_LINE:
            part.append((number, text))
            budget -= len(text) + 1
    return part


def _layer1(path: str, lines: Lines, allow: Allowances, ignored_hashes: frozenset[str]) -> list[Finding]:
    """Scan the added lines as one text and map each span back to its original line.

    A finding is dropped when the project allows it (``allow``: pragmas, the baseline's values
    and patterns) or its value's hash is in the ignore file; other findings on the same line stay.
    """
    starts: list[int] = []
    offset = 0
    for _, text in lines:
        starts.append(offset)
        offset += len(text) + 1
    joined = "\n".join(text for _, text in lines)
    found: list[Finding] = []
    for span in find(joined):
        index = bisect_right(starts, span.start) - 1
        number = lines[index][0]
        value = joined[span.start:span.end]
        start = span.start - starts[index]
        if allow.allows(number, start, start + len(value), value):
            continue
        digest = value_hash(value)
        if digest in ignored_hashes:
            continue
        found.append(secret_finding(path, number, span.kind, span.layer, value_hashes=(digest,)))
    return found


def _combine(findings: list[Finding], removed: list[Removal]) -> list[Finding]:
    """One finding per path, line and kind family, layer 1's more specific kind first.

    A layer-2 finding goes to ``removed`` (verdict ``reported-by-layer-1``) when layer 1 reports
    the same family on its line, or when it is generic (an entropy string, a keyword's value) and
    layer 1 reports anything on its line: detect-secrets' generic plugins read the line's quoted
    string or assigned value, which is the value layer 1 names more exactly.
    """
    seen: dict[tuple[str, int | None, str], Finding] = {}
    layer1_lines: dict[tuple[str, int | None], str] = {}
    for finding in findings:  # layer 1 first, so its more specific kind wins
        family = kind_family(finding.kind)
        place = (finding.path, finding.line)
        key = (*place, family)
        first = seen.get(key)
        if finding.layer == "sanitizer":
            layer1_lines.setdefault(place, finding.kind)
        elif first is None and family == "generic" and place in layer1_lines:
            key = (*place, kind_family(layer1_lines[place]))
            first = seen[key]
        if first is None:
            seen[key] = finding
            continue
        if finding.layer != "sanitizer" and first.layer == "sanitizer":
            removed.append(Removal(finding.path, finding.line or 0, finding.kind, "reported-by-layer-1",
                                   f"as {first.kind}"))
        # The finding reported stands for the values it absorbed: accepting it by their hashes
        # (``git memory ignore``) must not bring one of them back as a finding of its own.
        extra = tuple(h for h in finding.value_hashes if h not in first.value_hashes)
        if extra:
            seen[key] = replace(first, value_hashes=first.value_hashes + extra)
    return sorted(seen.values(), key=lambda f: (f.path, f.line or 0))


Unit = tuple[str, Lines]  # a path and its added lines


def load_baseline(baseline: Path | None) -> dict[str, Any] | None:
    """The parsed ``.secrets.baseline`` (None without one); an unreadable one, or one with a
    pattern that could hang a scan or allow nearly everything, is an InputError naming its line."""
    if baseline is None:
        return None
    from .layer2 import detect

    data = detect.load_baseline(baseline)
    if data.get("filters_used"):
        try:
            text: str | None = Path(baseline).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = None  # read a moment ago; the refusal then names the file alone
        compile_filters(data, str(baseline), text)
    return data


def needs_layer2(units: Sequence[Unit], baseline: dict[str, Any] | None) -> bool:
    """Whether any line of ``units`` goes to detect-secrets (so it must be imported)."""
    gate = prefilter.default() if baseline is None else prefilter.for_baseline(baseline)
    parts = prefilter.layer2_parts(gate, [(path, layer2_part(lines)) for path, lines in units])
    return any(parts)


def scan_units(units: Sequence[Unit], *, baseline: dict[str, Any] | None = None,
               ignored_hashes: frozenset[str] = frozenset()) -> list[list[Finding]]:
    """Secrets on each unit's added lines, both layers, one list per unit (paths may repeat: the
    units of a history scan are the files of many commits).

    Both layers honour the project's allowances (pragmas, the baseline's values and patterns) and
    drop values whose hash is in ``ignored_hashes`` (the ignore file's value entries; its
    positional fingerprints are the caller's, since they name a commit). Layer 2 reads only the
    lines its plugins could report (``prefilter``), all units in one detect-secrets session; when
    there are none, detect-secrets is not imported. Its findings are a floor: each is reported
    unless a named verdict (``layer2.floor``) removes it.
    """
    return _scan_units(units, baseline, ignored_hashes)[0]


def explain_units(units: Sequence[Unit], *, baseline: dict[str, Any] | None = None,
                  ignored_hashes: frozenset[str] = frozenset()) -> list[list[Removal]]:
    """Per unit, each detect-secrets finding ``scan_units`` leaves out of its report, with the
    verdict that removed it (``git memory check --explain``)."""
    return _scan_units(units, baseline, ignored_hashes)[1]


def _scan_units(units: Sequence[Unit], baseline: dict[str, Any] | None,
                ignored_hashes: frozenset[str]) -> tuple[list[list[Finding]], list[list[Removal]]]:
    gate = prefilter.default() if baseline is None else prefilter.for_baseline(baseline)
    bounded = [(path, layer2_part(lines)) for path, lines in units]
    parts = prefilter.layer2_parts(gate, bounded)
    wanted = [number for number, part in enumerate(parts) if part]
    layer2: list[list[Finding]] = [[] for _ in units]
    spans: list[dict[int, list[tuple[int, int]]]] = [{} for _ in units]
    removals: list[list[Removal]] = [[] for _ in units]
    filters = compile_filters(baseline)  # once for all units: a history scan has thousands
    allowed = [allowances(path, lines, baseline, filters=filters) for path, lines in units]
    if wanted:
        from .layer2 import detect

        # The empty lines ``layer2_parts`` puts between passing lines that are not neighbours
        # are left out: they can hold no finding, and what they kept apart (a line and the
        # previous line's "allowlist nextline" pragma) is no longer read by detect-secrets, whose
        # allowlist filter is off (``allow`` applies pragmas by the real line numbers). Each
        # still cost every plugin and filter call.
        picked = [(bounded[n][0], [(bounded[n][1][i][0], text) for i, text in parts[n] if i is not None])
                  for n in wanted]
        contexts: list[str | None] = ["\n".join(text for _, text in bounded[n][1]) for n in wanted]
        found, baselined, removed = detect.scan_units(picked, baseline, contexts, [allowed[n] for n in wanted],
                                                      ignored_hashes)
        for n, unit_found, unit_spans, unit_removed in zip(wanted, found, baselined, removed):
            layer2[n], spans[n], removals[n] = unit_found, unit_spans, unit_removed
    results = []
    for (path, lines), unit_layer2, unit_spans, allow, unit_removals in zip(units, layer2, spans, allowed, removals):
        allow = replace(allow, spans=unit_spans) if unit_spans else allow
        layer1 = _layer1(path, lines, allow, ignored_hashes) if lines else []
        results.append(_combine(layer1 + unit_layer2, unit_removals))
    return results, removals


def scan_added_lines(added: Mapping[str, Lines], *, baseline: Path | None = None,
                     ignore: IgnoreList | None = None, commit: str | None = None) -> list[Finding]:
    """Secrets on the added lines of each file, both layers, sorted by path and line.

    ``added`` maps a repository-relative path to ``(line_number, text)`` pairs; ``baseline`` is
    a ``.secrets.baseline`` whose values both layers accept; ``ignore`` holds the entries of
    ``.chord/secrets-ignore`` (positional fingerprints match in ``commit`` when given).
    Findings never hold a value.
    """
    units = [(path, lines) for path, lines in added.items() if lines]
    if not units:
        return []
    ignore = ignore or IgnoreList()
    found = scan_units(units, baseline=load_baseline(baseline), ignored_hashes=ignore.hashes)
    combined = sorted((f for per_unit in found for f in per_unit), key=lambda f: (f.path, f.line or 0))
    if ignore.fingerprints:
        combined = [f for f in combined if not ignore.ignores(f.path, f.kind, f.line or 0, commit)]
    return combined


__all__ = ["LAYER2_MAX_CHARS", "LAYER2_MAX_LINE", "IgnoreList", "Removal", "SecretSpan", "Unit", "ascii_view",
           "explain_units", "find",
           "layer2_part", "load_baseline", "needs_layer2", "redact", "scan_added_lines", "scan_units"]
