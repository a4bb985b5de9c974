"""Text a repository controls, made safe for the places a CI system parses or renders.

A file name or a line of a memory file comes from whoever wrote the commit, and a pull request
is anyone. Three readers take our output as more than text: a CI log (a line starting with
``::`` is a GitHub workflow command, ``::stop-commands::`` switches the rest off), the job summary
and GitLab's report (Markdown with HTML, links and images, so a ``<img>`` is a beacon), and the
annotation syntax itself. Every function here is pure and total: any string in, a string out
that cannot start a line or become markup.
"""
from __future__ import annotations

import unicodedata

# Characters that end or split a line somewhere (str.splitlines, terminals, log viewers), bidi
# and zero-width format characters that make shown text differ from the bytes (Trojan Source).
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _unsafe(char: str) -> bool:
    if char in _LINE_BREAKS:
        return True
    category = unicodedata.category(char)
    return category in ("Cc", "Cf", "Zl", "Zp") and char != "\t"


def has_unsafe(text: str) -> bool:
    """Whether ``text`` holds a control, line-separator or invisible format character."""
    return any(_unsafe(char) for char in text)


def printable(text: str) -> str:
    """``text`` on one line with every unsafe character shown as an escape (``\\n``, ``\\u202e``):
    what a log line may carry of a path or a message a repository controls."""
    if not has_unsafe(text):
        return text  # the common case, unchanged (a backslash alone forges nothing)
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")  # once escaping, an escape we print cannot be forged by the text
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif _unsafe(char):
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


def workflow_property(value: str) -> str:
    """A GitHub workflow command's property value (``file=``, ``title=``), escaped as the runner
    reads it back (``%``, CR, LF, ``:`` and ``,``), after the other unsafe characters are shown."""
    value = printable(value)
    return (value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            .replace(":", "%3A").replace(",", "%2C"))


def workflow_message(value: str) -> str:
    """A GitHub workflow command's message: one line, escaped as the runner reads it back."""
    return printable(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def markdown_text(text: str, limit: int | None = None) -> str:
    """``text`` as inert Markdown inside a table cell: a code span (no emphasis, link, autolink or
    HTML is parsed inside one), with ``<`` and ``>`` as entities so the file holds no raw tag
    either (a code span shows them as typed: ``&lt;img`` reads as what it is), ``|`` escaped for the table, on one line, cut to ``limit`` characters.

    An empty text is an em dash."""
    text = " ".join(printable(text).split())
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    if not text:
        return "—"
    text = text.replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")
    run = longest = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
