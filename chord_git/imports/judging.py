"""Whether an imported item may be proposed: the judge's refusals and both secret layers.

An imported item has no transcript, so grounding is not judged (the user decides that in review,
and extraction judges the accepted text again as the user's statement). What memory never
carries is judged here, as for every way in without a transcript (``judge.core.refusal``): grants,
disabled safeguards, exfiltration, destructive commands, absolute paths, hosts, private addresses.
A credential drops its item whole: the item is counted, never shown, logged or kept redacted.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chord_git.imports.reading import REPLACEMENT
from chord_git.memory import records

if TYPE_CHECKING:
    from chord_git.judge.claims import Conclusion

CREDENTIAL = "credential"
# Layer 2 reads a batch of items as one file; a batch stays well under its size limit.
_BATCH_CHARS = 48 * 1024


def text_reason(text: str) -> str | None:
    """Why ``text`` is not proposed (a refusal class, a cap, encoding damage), or None."""
    from chord_git.judge import core

    if REPLACEMENT in text:
        return "encoding-damage"
    if len(text) > records.STATEMENT_CAP:
        return "too-long"
    refused = core.refusal(text)
    return refused[0] if refused is not None else None


def credentials(texts: Sequence[str]) -> list[bool]:
    """Which of ``texts`` hold a credential by either layer. Each text is its own file, so a
    label ending one item never pairs with the value starting the next."""
    from chord_git.secrets import scan_added_lines

    flags = [False] * len(texts)
    batch: dict[str, list[tuple[int, str]]] = {}
    size = 0

    def flush() -> None:
        nonlocal size
        for finding in scan_added_lines(batch):
            flags[int(finding.path)] = True
        batch.clear()
        size = 0

    for number, text in enumerate(texts):
        batch[str(number)] = [(1, text)]
        size += len(text)
        if size >= _BATCH_CHARS:
            flush()
    if batch:
        flush()
    return flags


Verdict = tuple[str | None, "Conclusion | None"]


def verdicts(texts: Sequence[str]) -> list[Verdict]:
    """For each text, why it is not proposed (a refusal, a cap, damage, a credential) or None, and
    for a text that is kept its conclusion as duplicates are compared (``claims.conclusion``): one
    chunk, as a worker process judges it, so the comparing process only looks the conclusions up."""
    from chord_git.judge.claims import conclusion

    reasons = [text_reason(text) for text in texts]
    clean = [number for number, reason in enumerate(reasons) if reason is None]
    for number, secret in zip(clean, credentials([texts[n] for n in clean])):
        if secret:
            reasons[number] = CREDENTIAL
    return [(reason, conclusion(text) if reason is None else None) for text, reason in zip(texts, reasons)]


def warm() -> None:
    """Load and compile what judging reads (the refusal rules, both secret layers), before worker
    processes are forked: each would otherwise compile the same patterns again."""
    from chord_git.judge import classes

    classes.compile_all()
    verdicts(["Run make check before review; the password is in the vault."])


def description(reason: str) -> str:
    """What a drop reason means, in the words the judge's refusals use."""
    from chord_git.judge import core

    own = {CREDENTIAL: "holds a credential (counted, never shown)",
           "encoding-damage": "was damaged in its file (bytes that are not UTF-8)",
           "too-long": f"is longer than {records.STATEMENT_CAP} characters (a note, not a document)"}
    return own.get(reason) or core.DESCRIPTIONS.get(reason, reason)
