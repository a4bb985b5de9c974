"""``git memory help [COMMAND…]`` and the "did you mean" hints of usage errors.

Everything is read from the argument parser, so a command added there has help, suggestions
and completion without further work. (``git memory --help`` never reaches us: git opens the
man page, as for its own commands.)
"""
from __future__ import annotations

import argparse
import difflib
from collections.abc import Iterable, Sequence

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
