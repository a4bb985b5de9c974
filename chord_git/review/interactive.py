"""The interactive ``review`` loop (rich): promotions, imports, then index entries, then orphans.

Only reached when stdin and stdout are terminals (see ``commands.review``). Every piece of text
that comes from memory files is shown as plain ``Text``, never as rich markup: a summary holding
``[bold]`` or ``[/]`` must print as written and cannot break the screen.
"""
from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from typing import TYPE_CHECKING

from chord_git import config as config_mod
from chord_git.errors import ChordError
from chord_git.memory.project import Project
from chord_git.review import actions, audit, items
from chord_git.review.move import move
from chord_git.ui import Output

if TYPE_CHECKING:
    from rich.console import Console


MOVED = {"up": "up one line", "down": "down one line", "top": "to the top of the index"}


class _Quit(Exception):
    """The user chose to stop reviewing."""


class _Session:
    def __init__(self, project: Project, cfg: config_mod.Config, console: Console,
                 memo: audit.Memo | None = None) -> None:
        self.project = project
        self.cfg = cfg
        self.console = console
        self.memo = memo  # where the audit keeps its judgements
        self.changes = 0

    # ------------------------------------------------------------------ prompting
    def ask(self, question: str, options: dict[str, str], default: str) -> str:
        from rich.prompt import Prompt
        from rich.text import Text

        legend = "  ".join(f"[{key}] {label}" for key, label in options.items())
        self.console.print(Text(legend, style="dim"))
        answer = Prompt.ask(question, choices=list(options), default=default, console=self.console,
                            show_choices=False)
        if answer == "q":
            raise _Quit
        return answer

    def show(self, text: str, style: str = "") -> None:
        from rich.text import Text

        self.console.print(Text(text, style=style))

    def attempt(self, what: str, action: Callable[[], object]) -> bool:
        """Run one action; a refusal is shown and the review goes on."""
        try:
            action()
        except ChordError as exc:
            self.show(f"{what} refused: {exc}", "bold red")
            return False
        self.changes += 1
        return True

    def open_record(self, rid: str) -> None:
        try:
            path, text = actions.record_text(self.project, rid)
        except ChordError as exc:
            self.show(str(exc), "red")
            return
        pager = os.environ.get("PAGER")
        if pager:
            subprocess.run([*shlex.split(pager), str(path)], check=False)
        else:
            self.show(text)

    # ------------------------------------------------------------------ the three passes
    def promotions(self) -> None:
        from rich.panel import Panel
        from rich.syntax import Syntax
        from rich.text import Text

        pending = items.promotion_items(self.project)
        for number, item in enumerate(pending, start=1):
            head = f"promotion {number}/{len(pending)}: {item.id}"
            if item.problems:
                self.console.print(Panel(Text("\n".join(item.problems)), title=Text(head), border_style="red"))
                if self.ask("Action", {"r": "reject (delete file)", "s": "skip", "q": "quit"}, "s") == "r":
                    self.attempt("reject", lambda: actions.reject(self.project, item.id))
                continue
            about = f"entry {item.entry} (source: {item.source or 'unknown'})" if item.entry else "new conclusion"
            body = Text(f"{item.target} -> {item.path}\n{about}\nreason: {item.reason}\n\n{item.text}")
            self.console.print(Panel(body, title=Text(head)))
            choice = self.ask("Action", {"a": "accept", "r": "reject", "s": "skip", "q": "quit"}, "s")
            if choice == "a":
                result: list[actions.Accepted] = []
                if self.attempt("accept", lambda: result.append(actions.accept(self.project, item.id))):
                    done = result[0]
                    if done.diff:
                        self.console.print(Syntax(done.diff, "diff", theme="ansi_dark", word_wrap=True))
                    self.show(f"{'created' if done.created else 'updated'} {done.target}; nothing was staged", "green")
            elif choice == "r":
                if self.attempt("reject", lambda: actions.reject(self.project, item.id)):
                    self.show(f"deleted {item.id}", "yellow")

    def imports(self) -> None:
        from rich.panel import Panel
        from rich.prompt import Prompt
        from rich.text import Text

        from chord_git.imports import decide

        pending = items.import_items(self.project)
        for number, item in enumerate(pending, start=1):
            head = f"import {number}/{len(pending)}: {item.id}"
            self.console.print(Panel(Text(f"{item.text}\n\nfrom {item.path}"), title=Text(head)))
            choice = self.ask("Action", {"a": "accept", "e": "edit", "r": "reject", "s": "skip", "q": "quit"}, "s")
            if choice == "e":
                text = Prompt.ask("New text", default=item.text or "", console=self.console)
                if not self.attempt("edit", lambda: decide.edit(self.project, item.id, text)):
                    continue
                self.show("edited; accept it to queue it for extraction", "green")
                choice = self.ask("Action", {"a": "accept", "s": "skip", "q": "quit"}, "a")
            if choice == "a":
                if self.attempt("accept", lambda: decide.accept(self.project, self.cfg, item.id)):
                    self.show("queued for extraction as your statement; nothing was staged", "green")
            elif choice == "r":
                if self.attempt("reject", lambda: decide.reject(self.project, item.id)):
                    self.show("rejected; it is not proposed again", "yellow")

    def entries(self) -> None:
        from chord_git.memory import view

        state = view.read_index(self.project)
        listing = items.entry_items(self.project, self.cfg, state, memo=self.memo)
        options = {"k": "keep", "f": "forget", "u": "up", "d": "down", "t": "top", "o": "open record", "q": "quit"}
        for item in listing:
            self.show(f"\nentry {item.position}/{len(listing)}: {item.id}", "bold")
            self.show(item.summary or "")
            details = [f"source: {item.source or 'unknown (record unreadable)'}", f"status: {item.status or '-'}"]
            if item.age_days is not None:
                details.append(f"age: {item.age_days} days")
            self.show("  ".join(details), "dim")
            if item.evidence:
                self.show(f"evidence: {item.evidence}", "dim")
            for reason in item.stale_reasons:
                self.show(f"stale? {reason}", "yellow")
            for kind, message, _action in item.audit:
                self.show(f"audit: {kind}: {message}", "yellow")
            if item.suggested == "forget":
                self.show("the audit suggests forgetting this entry (f)", "yellow")
            while True:
                choice = self.ask("Action", options, "k")
                if choice == "o":
                    self.open_record(item.id)
                    continue
                break
            if choice == "f":
                if self.attempt("forget", lambda: actions.forget(self.project, item.id)):
                    self.show("forgotten; the record file stays as an orphan", "yellow")
            elif choice in ("u", "d", "t"):
                where = {"u": "up", "d": "down", "t": "top"}[choice]
                try:
                    moved = move(self.project, item.id, where)
                except ChordError as exc:
                    self.show(f"move refused: {exc}", "bold red")
                    continue
                if moved:
                    self.changes += 1
                    self.show(f"moved {MOVED[where]}; nothing was staged", "green")
                else:
                    self.show(f"not moved: already at the {'bottom' if where == 'down' else 'top'}", "dim")

    def orphans(self) -> None:
        from chord_git.memory import view

        listing = items.orphan_items(self.project, view.read_index(self.project))
        for number, item in enumerate(listing, start=1):
            self.show(f"\norphan {number}/{len(listing)}: {item.id}", "bold")
            self.show(f"{item.summary or '(record unreadable)'}  (source: {item.source or 'unknown'})", "dim")
            if item.reason:
                self.show(item.reason, "yellow")
            while True:
                choice = self.ask("Action", {"k": "keep", "x": "delete file", "o": "open record", "q": "quit"}, "k")
                if choice == "o":
                    self.open_record(item.id)
                    continue
                break
            if choice == "x":
                if self.attempt("delete", lambda: _delete_orphan(self.project, item.id)):
                    self.show(f"deleted orphan record {item.id}; nothing was staged", "yellow")


def _delete_orphan(project: Project, rid: str) -> None:
    deleted, skipped = actions.prune_orphans(project, [rid])
    if skipped:
        raise ChordError(skipped[0][1])


def run(project: Project, cfg: config_mod.Config, out: Output, memo: audit.Memo | None = None) -> int:
    from rich.console import Console

    console = Console(file=out.stdout, highlight=False)
    session = _Session(project, cfg, console, memo)
    try:
        session.promotions()
        session.imports()
        session.entries()
        session.orphans()
    except (_Quit, EOFError):
        pass
    session.show(f"\nreview done: {session.changes} change(s) in the working tree; nothing was staged", "bold")
    return 0
