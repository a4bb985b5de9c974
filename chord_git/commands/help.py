"""``git memory help [COMMAND…]`` and the "did you mean" hints of usage errors.

Everything is read from the argument parser, so a command added there has help, suggestions
and completion without further work.

``git memory --help`` never reaches us: git opens the man page, as for its own commands.
``git-memory --help`` (and ``chord-git --help``) shows the same manual: through ``man`` on a
terminal, else as plain text, formatted by ``man`` when it is there and by ``roff_text`` when it
is not (a container without man, an agent's tool call).
"""
from __future__ import annotations

import argparse
import difflib
import re
import sys
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path

from chord_git.errors import UsageError
from chord_git.ui import Output


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The commands directly under ``parser``, by name, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def closest(word: str, candidates: Iterable[str]) -> str | None:
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def unknown_choice(value: object, choices: Iterable[object], *, command: bool) -> str:
    names = [str(choice) for choice in choices]
    guess = closest(str(value), names)
    if command:
        text = f"unknown command {str(value)!r}"
        return f"{text}; did you mean {guess!r}?" if guess else f"{text} (commands: {', '.join(names)})"
    text = f"invalid choice: {str(value)!r} (choose from {', '.join(repr(n) for n in names)})"
    return f"{text}; did you mean {guess!r}?" if guess else text


def _chosen(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[list[str], list[argparse.ArgumentParser]]:
    """The command words the user gave and the parsers they lead through, outermost first."""
    words: list[str] = []
    chain = [parser]
    while True:
        action = next((a for a in chain[-1]._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, action.dest, None) if action is not None else None
        if action is None or name is None:
            return words, chain
        words.append(name)
        chain.append(action.choices[name])


def unrecognized(parser: argparse.ArgumentParser, args: argparse.Namespace, extras: Sequence[str]) -> str:
    """One line for arguments no parser took, naming the closest option of that command."""
    words, chain = _chosen(parser, args)
    options = [flag for p in chain for action in p._actions for flag in action.option_strings]
    first = extras[0]
    where = " ".join(words)
    prefix = f"{where}: " if where else ""
    hint = f"see 'git memory help{' ' + where if where else ''}'"
    flag = first.split("=", 1)[0]
    guess = closest(flag, options) if flag.startswith("-") else None
    what = f"unrecognized argument{'s' if len(extras) > 1 else ''}: {' '.join(extras)}"
    if guess:
        return f"{prefix}{what}; did you mean {guess!r}? ({hint})"
    return f"{prefix}{what} ({hint})"


def show(parser: argparse.ArgumentParser, topic: Sequence[str], out: Output) -> int:
    """Print the help of ``git memory`` or of the command path ``topic`` (``review move``)."""
    target = parser
    walked: list[str] = []
    for word in topic:
        commands = subcommands(target)
        if word not in commands:
            where = " ".join(["git memory", *walked])
            guess = closest(word, commands)
            if not commands:
                raise UsageError(f"help: '{where}' has no subcommands")
            hint = f"; did you mean {guess!r}?" if guess else f" (commands: {', '.join(commands)})"
            raise UsageError(f"help: {word!r} is not a '{where}' command{hint}")
        walked.append(word)
        target = commands[word]
    target.print_help(out.stdout)
    return 0


# ----------------------------------------------------------------------------- the manual
PAGE = "git-memory.1"
WIDTH = 78


def manual_pages() -> list[Path]:
    """Where the manual may be, best first: beside the interpreter's environment (pip and pipx
    install it under ``share/man/man1``), in the user's base (``pip install --user``), and in the
    checkout an editable install runs from."""
    import site

    import chord_git

    places = [Path(sys.prefix) / "share/man/man1", Path(site.getuserbase()) / "share/man/man1",
              Path(chord_git.__file__).resolve().parent.parent / "man"]
    return [place / PAGE for place in places]


def manual(out: Output) -> int:
    """Show the manual: ``man`` on a terminal, else the page as text; exit 2 when no copy is found."""
    import os
    import shutil
    import subprocess

    page = next((path for path in manual_pages() if path.is_file()), None)
    if page is None:
        raise UsageError("the manual (git-memory.1) is not installed with this copy of chord-git; "
                         "'git memory help' lists the commands")
    man = shutil.which("man")
    if man is not None and out.stdout.isatty():
        out.stdout.flush()
        return subprocess.run([man, str(page)], check=False).returncode
    if man is not None:
        env = {**os.environ, "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": str(WIDTH + 2)}
        env.pop("MAN_KEEP_FORMATTING", None)
        try:
            done = subprocess.run([man, str(page)], capture_output=True, env=env, check=False,
                                  stdin=subprocess.DEVNULL)
        except OSError:
            done = None
        if done is not None and done.returncode == 0 and done.stdout.strip():
            # Without a terminal man formats plain text; drop any overstrike bold a man left in.
            out.write(re.sub(r".\x08", "", done.stdout.decode("utf-8", "replace")))
            return 0
    out.write(roff_text(page.read_text(encoding="utf-8")))
    return 0


_ESCAPES = {"-": "-", "e": "\\", "&": "", "%": "", "|": "", "^": "", " ": " ", "c": "", "(em": "--", "(en": "-",
            "(lq": '"', "(rq": '"', "(aq": "'", "(bu": "*", "(co": "(c)"}
_ESCAPE = re.compile(r"\\(f\(..|f\[[^]]*\]|f.|\(..|.)")
_ARGS = re.compile(r'"((?:[^"]|"")*)"|(\S+)')


def _inline(text: str) -> str:
    """``text`` without font changes and with the usual escapes spelled out."""
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        return "" if code.startswith("f") else _ESCAPES.get(code, code[-1])

    return _ESCAPE.sub(one, text)


def _macro_args(rest: str) -> list[str]:
    return [quoted.replace('""', '"') if quoted is not None and plain == "" else plain
            for quoted, plain in _ARGS.findall(rest)]


def roff_text(source: str) -> str:
    """The man page as plain text: the man macros the page uses (sections, tagged paragraphs,
    indents, no-fill blocks, font macros), filled to ``WIDTH`` columns. Enough to read the
    manual where no formatter is installed; ``man`` does it better where it is."""
    lines: list[str] = []
    words: list[str] = []
    indent, base, fill, tag = 7, 7, True, False
    headed = -1  # the number of lines when the last heading was written: no gap right below one

    def flush() -> None:
        nonlocal words
        if words:
            text = " ".join(words)
            lines.extend(textwrap.wrap(text, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * indent,
                                       break_on_hyphens=False, break_long_words=False) or [""])
        words = []

    def gap() -> None:
        flush()
        if lines and lines[-1] != "" and len(lines) != headed:
            lines.append("")

    for raw in source.splitlines():
        if raw.startswith((".\\\"", "'\\\"")):
            continue
        if raw.startswith(".") and not raw.startswith(".."):
            name, _, rest = raw[1:].partition(" ")
            args = [_inline(arg) for arg in _macro_args(rest)]
            if name == "TH":
                lines.append(f"{args[0]}({args[1]})" if len(args) > 1 else "")
            elif name in ("SH", "SS"):
                gap()
                indent = base = 7
                lines.append(("" if name == "SH" else "   ") + " ".join(args))
                headed = len(lines)
            elif name in ("PP", "LP", "P", "sp"):
                gap()
                indent = base
            elif name == "TP":
                gap()
                indent, tag = base, True
                continue
            elif name == "RS":
                flush()
                base += 4
                indent = base
            elif name == "RE":
                flush()
                base = max(7, base - 4)
                indent = base
            elif name == "br":
                flush()
            elif name in ("nf", "EX"):
                flush()
                fill = False
            elif name in ("fi", "EE"):
                fill = True
            elif name in ("B", "I", "SM", "SB"):
                words.append(" ".join(args))
            elif name in ("BR", "RB", "BI", "IB", "RI", "IR"):
                words.append("".join(args))
        elif not fill:
            lines.append(" " * indent + _inline(raw))
        else:
            text = _inline(raw).strip()
            if text:
                words.append(text)
            elif words:
                gap()
        if tag and words:
            # The line after .TP is the tag: on its own line, the paragraph indented below it.
            flush()
            indent, tag = base + 4, False
    flush()
    return "\n".join(lines).rstrip() + "\n"
