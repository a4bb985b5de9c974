"""``git memory`` / ``chord-git``: parse arguments and dispatch to ``commands/``. Nothing else.

The transcript formats and agent hosts the commands know come from their registries
(``transcripts/registry.py``, ``agents/hosts.py``); ``main`` and ``build_parser`` take them as
arguments (None: the built-in ones, imported only once a parser or a command needs them).

What the hooks may import, and the speed devices kept here (command modules imported when
dispatched, the agent hooks' parser-free path), are listed with their measured savings in
``docs/startup.md``.
"""
from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from chord_git import errors
from chord_git.agents import SCOPES
from chord_git.errors import ChordError, UsageError
from chord_git.ui import Output

if TYPE_CHECKING:
    import argparse

    from chord_git.agents.hosts import Hosts
    from chord_git.transcripts.registry import Formats

REPORT_FORMATS = ("text", "json", "sarif")  # check and scan


def _argparse_classes() -> tuple[type[argparse.ArgumentParser], type[argparse.Action], type[argparse.Action]]:
    """The parser, subcommand and version classes. argparse loads only where the full parser is
    built: the agent hooks' own command lines (``_host_hook_fast_path``) never need it."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        """argparse with one-line errors (main adds the single ``git memory:`` prefix) and
        "did you mean" for mistyped commands and choices."""

        def error(self, message: str) -> None:  # type: ignore[override]
            where = self.prog.removeprefix("git memory").strip()
            hint = f"see 'git memory help{' ' + where if where else ''}'"
            raise UsageError(f"{where + ': ' if where else ''}{message} ({hint})")

        def _check_value(self, action: argparse.Action, value: Any) -> None:
            if action.choices is not None and value not in action.choices:
                from chord_git.commands.help import unknown_choice

                raise argparse.ArgumentError(
                    None if isinstance(action, argparse._SubParsersAction) else action,
                    unknown_choice(value, action.choices, command=isinstance(action, argparse._SubParsersAction)))
            super()._check_value(action, value)

    class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
        """Subcommands whose ``help`` line doubles as the description ``git memory help CMD`` shows."""

        def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
            if kwargs.get("help") and "description" not in kwargs:
                text = str(kwargs["help"]).replace("%%", "%")  # help is %-formatted, a description is not
                kwargs["description"] = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
            parser: argparse.ArgumentParser = super().add_parser(name, **kwargs)
            return parser

    class _Version(argparse.Action):
        def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
            super().__init__(option_strings, dest, nargs=0, **kwargs)

        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: Any, option_string: str | None = None) -> None:
            from chord_git.commands.version import version_text

            sys.stdout.write(version_text() + "\n")
            parser.exit(0)

    return _Parser, _Commands, _Version


def _positive(value: str) -> int:
    import argparse

    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an integer") from None
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def _report_file_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", type=Path, metavar="FILE",
                   help="write the report to FILE; print the findings and a one-line summary")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar (shown only on a terminal)")


def _ids(action: argparse.Action, kinds: str) -> None:
    """Mark a positional as taking ids of ``kinds`` (``promotion,entry``): completion lists them
    with ``git-memory __ids KINDS``, and any unique prefix is taken (``commands.ids``)."""
    action.id_kinds = kinds  # type: ignore[attr-defined]


def _registries(formats: Formats | None, hosts: Hosts | None) -> tuple[Formats, Hosts]:
    if formats is None:
        from chord_git.transcripts import registry

        formats = registry.BUILTIN
    if hosts is None:
        from chord_git.agents import hosts as hosts_mod

        hosts = hosts_mod.BUILTIN
    return formats, hosts


def build_parser(formats: Formats | None = None, hosts: Hosts | None = None) -> argparse.ArgumentParser:
    formats, hosts = _registries(formats, hosts)
    _Parser, _Commands, _Version = _argparse_classes()
    parser = _Parser(prog="git memory", description="Project memory for coding agents.",
                     epilog="'git memory help COMMAND' describes a command; 'git memory --help' opens the manual "
                            "('git-memory --help' prints it where man has no page).")
    parser.add_argument("-C", dest="chdir", metavar="DIR", action="append", default=[],
                        help="run as if started in DIR (like git -C)")
    parser.add_argument("--version", action=_Version, help="print the version and where chord-git is installed")
    sub = parser.add_subparsers(dest="command", metavar="<command>", parser_class=_Parser, action=_Commands)

    p = sub.add_parser("init", help="create MEMORY.md with markers and the .chord/memory/ folders")
    p.add_argument("--hooks", action="store_true",
                   help="also install the plain git pre-commit hook (an existing hook is kept and runs first)")
    p.add_argument("--remove-hooks", action="store_true",
                   help="only remove chord-git's pre-commit hook (the hook it kept goes back in its place)")
    p.add_argument("--private", action="store_true",
                   help="keep memory to this clone: list MEMORY.md and .chord/ in .git/info/exclude")

    p = sub.add_parser("status", help="MEMORY, MEMORY-FAIL: reason, or extraction: off, with counts")
    p.add_argument("--json", action="store_true", help="print the status and counts as JSON")
    p.add_argument("--clear-failure", action="store_true",
                   help="clear a recorded background extraction failure (MEMORY-FAIL) first")

    p = sub.add_parser("summary", help="print exactly what a new session gets injected")
    p.add_argument("--budget", type=_positive, help="characters of memory content (default: memory.summary_budget)")

    p = sub.add_parser("why", help="what the last session start injected, and what it left out and why")
    p.add_argument("--session", metavar="ID", help="that session's last start (an id or a unique prefix)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    p = sub.add_parser("cost", help="what memory costs in tokens: injected per session start, spent by extraction")
    p.add_argument("--since", default="7d", metavar="WHEN", help="7d (the last seven days, the default) or a date")
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    p = sub.add_parser("mcp", help="serve memory to MCP clients over stdio (search, read, status, propose)")

    p = sub.add_parser("check", help="index syntax, record schema and caps, secrets")
    p.add_argument("--format", choices=REPORT_FORMATS, default="text", help="report format (default: text)")
    p.add_argument("--staged", action="store_true",
                   help="check the staged blobs (schema) and their added lines (secrets): the git hook")
    p.add_argument("--explain", action="store_true",
                   help="also list each detect-secrets finding left out of the report, with the verdict "
                        "that removed it (in JSON: \"removed\")")
    p.add_argument("paths", nargs="*", metavar="PATH", help="memory files to check (default: all of the project's)")
    _report_file_options(p)

    p = sub.add_parser("scan", help="CI: secrets added to memory files over a commit range or all history")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--range", dest="range_spec", metavar="A..B",
                       help="commits reachable from B and not from A (A...B: since the merge base)")
    which.add_argument("--all", dest="all_history", action="store_true",
                       help="every commit reachable from HEAD or any ref (the default outside pre-push and CI)")
    p.add_argument("--format", choices=REPORT_FORMATS, default="text", help="report format (default: text)")
    _report_file_options(p)
    p.add_argument("--summary", type=Path, metavar="FILE",
                   help="append a Markdown review of every change the range makes to memory to FILE")
    p.add_argument("--summary-rows", type=int, metavar="N", default=None,
                   help="rows of the --summary table at most (default 300, what a job summary holds; 0: all)")
    p.add_argument("--annotate", action="store_true",
                   help="print a GitHub annotation for each memory change a person should approve")
    p.add_argument("--fail-on-assistant-entries", action="store_true",
                   help="exit 1 when the range adds entries the assistant concluded")
    p.add_argument("--fail-on-unreviewed-memory", action="store_true",
                   help="exit 1 when the range adds or changes memory a person should approve: hand-written or "
                        "edited entries, records and text, and what nobody confirmed")
    p.add_argument("--fail-on-stale-memory", action="store_true",
                   help="exit 1 when the range deletes, renames or removes what an entry names (a path, a make "
                        "target, a package script, a config key): fix the entry in the same pull request")

    p = sub.add_parser("ignore", help="accept secret findings as false positives, by their values' hashes "
                                      "(written to .chord/secrets-ignore, never staged)")
    p.add_argument("fingerprints", nargs="*", metavar="FINGERPRINT",
                   help="a finding's fingerprint as check or scan printed it (or a value hash from the block message)")
    p.add_argument("--last", action="store_true", help="the secrets the last blocked commit or push showed")
    p.add_argument("--reason", metavar="TEXT", help="why they are not secrets (required): each line's comment")
    p.add_argument("--json", action="store_true", help="print what was accepted as JSON")

    p = sub.add_parser("trust", help="trust this project's .chord/config.yaml as it is now (models, endpoints)")
    p.add_argument("--revoke", action="store_true", help="forget the trust given to this project's config")

    p = sub.add_parser("audit", help="can the memory be believed? evidence, duplicates, contradictions, staleness")
    p.add_argument("--format", dest="audit_format", choices=("text", "json", "markdown"), default="text",
                   help="report format (default: text; markdown for a pull request)")
    p.add_argument("--json", dest="audit_json", action="store_true", help="the same as --format json")
    p.add_argument("--model", dest="audit_model", action="store_true",
                   help="add a model-judged pass through the model pool (trusted config only), marked as such")

    p = sub.add_parser("forget", help="remove an entry's index line; its record becomes an orphan")
    _ids(p.add_argument("id", help="the record id of the index entry (or a unique prefix)"), "entry")

    p = sub.add_parser("fold", help="move pending entries (new memory made on other branches) into MEMORY.md")
    p.add_argument("--json", action="store_true", help="print what was folded as JSON")

    p = sub.add_parser("extract", help="one extraction run on a frozen session transcript (post-session hook)")
    p.add_argument("--session", required=True, type=Path, metavar="FILE", help="the session transcript")
    p.add_argument("--format", dest="transcript_format", default="auto",
                   choices=formats.choices(), help="transcript format")
    p.add_argument("--dry-run", action="store_true", help="call the model and show what would be written; write nothing")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument("--background", action="store_true",
                   help="queue the session for the project's background worker and return at once")

    p = sub.add_parser("add", help="remember this: your words go to extraction as a session of yours")
    p.add_argument("words", nargs="+", metavar="WORDS", help='what to remember, e.g. "We use pnpm, never npm."')
    p.add_argument("--wait", action="store_true", help="wait for the run; print what was written or why nothing was")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")

    from chord_git.imports.registry import BUILTIN as import_sources

    p = sub.add_parser("import", help="an agent's own memory store, judged and held for review (git memory review)")
    p.add_argument("source", choices=import_sources.names(), metavar="SOURCE",
                   help=f"where from: {', '.join(import_sources.names())}")
    p.add_argument("--path", type=Path, metavar="P", help="the store's folder or file (default: found the way its host finds it)")
    p.add_argument("--dry-run", action="store_true", help="show what would be proposed; write nothing")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")

    from chord_git.imports.registry import EXPORTS

    p = sub.add_parser("export", help=f"the index entries for another tool: {', '.join(t.name for t in EXPORTS)}")
    p.add_argument("target", choices=[t.name for t in EXPORTS], metavar="TARGET",
                   help="; ".join(f"{t.name}: {t.title}" for t in EXPORTS))
    p.add_argument("--write", nargs="?", const="", metavar="FILE",
                   help="write instead of printing (into FILE for an instruction-file target)")

    p = sub.add_parser("agent", help=f"agent hosts: install hooks ({hosts.titles()}), the hook, status line, busy/idle")
    acts = p.add_subparsers(dest="agent_action", metavar="<action>", parser_class=_Parser, required=True,
                           action=_Commands)
    for name, text in (("install", "merge chord-git's hooks into the host's settings (or write its plugin file)"),
                       ("uninstall", "remove chord-git's entries from the host's settings (or its plugin file)")):
        q = acts.add_parser(name, help=text)
        q.add_argument("host", choices=hosts.names(), help="the agent host")
        q.add_argument("--scope", choices=SCOPES, default="project",
                       help="project (shared), local (personal, in the project) or user (all projects)")
        q.add_argument("--dry-run", action="store_true", help="print the change as a diff; write nothing")
    q = acts.add_parser("hook", help="run by the installed hooks: one event payload on stdin; always exits 0")
    q.add_argument("--host", help=f"{hosts.spoken()} (default: guessed from the payload)")
    acts.add_parser("statusline", help="MEMORY, MEMORY-FAIL: reason, or nothing: for a status bar")
    q = acts.add_parser("busy", help="a user message arrived: main-pool extraction pauses")
    q.add_argument("--pid", type=_positive, help="the host's pid; the flag dies with it")
    q.add_argument("--session", metavar="ID", help="signal for one agent session (counts in every project)")
    q = acts.add_parser("idle", help="the agent's turn ended")
    q.add_argument("--session", metavar="ID", help="signal for one agent session")
    q = acts.add_parser("status", help="the signal, the queue and the worker")
    q.add_argument("--json", action="store_true", help="print the status as JSON")

    p = sub.add_parser("queue", help="background extraction jobs: list, retry [ID], drop ID")
    p.add_argument("queue_action", nargs="?", choices=("list", "retry", "drop"), default="list",
                   help="list (the default), retry or drop")
    _ids(p.add_argument("job", nargs="?", metavar="ID", help="the job to retry or drop (or a unique prefix)"), "job")
    p.add_argument("--json", action="store_true", help="print the queue as JSON")

    p = sub.add_parser("curate", help="the index-only curation round that brings the index back within budget")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument("--dry-run", action="store_true", help="call the model and show what would change; write nothing")

    p = sub.add_parser("review", help="review promotions, entries and orphans (interactive with a terminal)")
    p.add_argument("--json", dest="review_json", action="store_true", help="without a terminal: list as JSON")
    p.add_argument("--no-input", action="store_true", help="never prompt: list, exit 1 when promotions are pending")
    actions = p.add_subparsers(dest="review_action", metavar="<action>", parser_class=_Parser, action=_Commands)
    q = actions.add_parser("list", help="promotions, index entries and orphans")
    q.add_argument("--json", action="store_true", help="print the list as JSON")
    for name, text, kind in (("accept", "append a promotion's text to its target file (working tree only); "
                                        "queue a pending import's text for extraction", "promotion"),
                             ("reject", "delete a promotion file, or drop a pending import for good", "promotion"),
                             ("forget", "remove an entry's index line", "entry")):
        named = "promotion or import id" if kind == "promotion" else "record id of the index entry"
        _ids(actions.add_parser(name, help=text).add_argument(
            "id", help=f"the {named}, or a unique prefix (see review list)"), "promotion,import" if kind == "promotion" else kind)
    q = actions.add_parser("edit", help="replace a pending import's text before accepting it")
    _ids(q.add_argument("id", help="the pending import's id (or a unique prefix)"), "import")
    q.add_argument("--text", required=True, help="the new text")
    q = actions.add_parser("move", help="move an index entry up, down or to the top (line order is injection priority)")
    _ids(q.add_argument("id", help="the record id of the index entry (or a unique prefix)"), "entry")
    where = q.add_mutually_exclusive_group(required=True)
    for flag, text in (("top", "to the top of the index"), ("up", "one line up"), ("down", "one line down")):
        where.add_argument(f"--{flag}", dest="where", action="store_const", const=flag, help=text)
    q = actions.add_parser("prune-orphans", help="delete orphan record files (all, or the IDs given)")
    _ids(q.add_argument("ids", nargs="*", metavar="ID", help="orphan record ids or unique prefixes (default: all orphans)"),
         "orphan")

    p = sub.add_parser("setup", help="the MEMORY.md merge driver; hook and CI snippets pinned to this install's commit")
    what = p.add_subparsers(dest="setup_what", metavar="<what>", parser_class=_Parser, required=True,
                           action=_Commands)
    what.add_parser("merge", help="write the merge driver to this repository's git config; print the .gitattributes lines")
    for name, text in (("pre-commit", "print the .pre-commit-config.yaml entry for the pre-commit framework"),
                       ("github", "print a GitHub Actions workflow that runs the memory scan"),
                       ("gitlab", "print the .gitlab-ci.yml lines that include the memory scan job")):
        what.add_parser(name, help=f"{text}, pinned to the commit this chord-git was installed from")

    p = sub.add_parser("merge-driver", help="git's merge driver for MEMORY.md: git runs it with %%O %%A %%B %%P")
    p.add_argument("--marker-size", type=_positive, default=7, metavar="N", help="conflict marker size (git's %%L)")
    p.add_argument("--labels", nargs=3, metavar=("OURS", "BASE", "THEIRS"),
                   help="conflict labels (git's %%X %%S %%Y; left unexpanded by git before 2.44: ours, base, theirs)")
    p.add_argument("base", type=Path, metavar="BASE", help="the common ancestor's version (%%O)")
    p.add_argument("ours", type=Path, metavar="OURS", help="our version; the result is written here (%%A)")
    p.add_argument("theirs", type=Path, metavar="THEIRS", help="their version (%%B)")
    p.add_argument("path", nargs="?", default="MEMORY.md", metavar="PATH", help="the path being merged (%%P)")

    p = sub.add_parser("help", help="describe git memory or one of its commands")
    p.add_argument("topic", nargs="*", metavar="COMMAND", help="a command, or a command and its subcommand (review move)")
    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh or fish)")
    p.add_argument("shell", choices=("bash", "zsh", "fish"), help="the shell to complete for")
    return parser


def _dispatch(args: argparse.Namespace | SimpleNamespace, out: Output, formats: Formats | None = None,
              hosts: Hosts | None = None) -> int:
    if args.command == "agent" and args.agent_action in ("hook", "statusline"):
        # Before project discovery: the project comes from the payload, and these never fail.
        return _run_host_hook(args.agent_action, getattr(args, "host", None), out, hosts)
    from chord_git import config as config_mod
    from chord_git.memory import project as project_mod

    if args.command == "merge-driver":
        # Before project discovery and config: git calls this mid-merge, and a bad config must
        # not turn a mergeable MEMORY.md into a conflict.
        from chord_git.commands.merge_driver import merge_driver
        return merge_driver(args.base, args.ours, args.theirs, args.path, out, marker_size=args.marker_size,
                            labels=args.labels)
    if args.command == "setup":
        from chord_git.commands.setup import setup_merge, setup_snippet
        if args.setup_what == "merge":
            return setup_merge(Path.cwd(), out)
        return setup_snippet(args.setup_what, out)  # needs no repository: it prints configuration
    if args.command == "scan":
        # Before project discovery: CI scans bare mirrors, which have no project to discover.
        from chord_git.commands.scan import scan
        return scan(Path.cwd(), out, range_spec=args.range_spec, all_history=args.all_history, fmt=args.format,
                    output=args.output, quiet=args.quiet, summary=args.summary, annotate=args.annotate,
                    fail_on_assistant=args.fail_on_assistant_entries,
                    fail_on_unreviewed=args.fail_on_unreviewed_memory, summary_rows=args.summary_rows,
                    fail_on_stale=args.fail_on_stale_memory)

    project = project_mod.discover(Path.cwd())
    if args.command == "trust":
        # Before the config is loaded: its "not trusted" warning is what this command answers.
        from chord_git.commands.trust import trust
        return trust(project, out, revoke=args.revoke)
    try:
        cfg, refused = config_mod.load(project.root), None
    except errors.ConfigError as exc:
        if _sends_to_model(args):
            raise  # exit 2: nothing leaves with a config the loader refused
        # Everything else runs with the defaults: the memory still loads, `check` names the
        # problem as a finding, and no message ever holds a config value.
        cfg, refused = config_mod.Config(), str(exc)
        if args.command != "status":  # status shows it as its badge
            out.warn(f"{refused} (the config is not used)")
    for warning in cfg.warnings:
        out.warn(warning)

    if args.command == "init":
        from chord_git.commands.init import init
        return init(project, out, hooks=args.hooks, private=args.private, remove_hooks=args.remove_hooks)
    if args.command == "status":
        from chord_git.commands.status import status
        return status(project, cfg, out, as_json=args.json, refused=refused,
                      clear=getattr(args, "clear_failure", False))
    if args.command == "summary":
        from chord_git.commands.summary import summary
        return summary(project, cfg, out, budget=args.budget)
    if args.command == "why":
        from chord_git.commands.why import why
        return why(project, out, session=args.session, as_json=args.json)
    if args.command == "cost":
        from chord_git.commands.cost import cost
        return cost(project, out, since=args.since, as_json=args.json)
    if args.command == "mcp":
        from chord_git.mcp.server import serve
        return serve(project, cfg, out)
    if args.command == "check":
        from chord_git.commands.check import check
        if args.staged and args.paths:
            raise UsageError("git memory check: --staged reads the index; give no PATHs with it")
        return check(project, out, paths=args.paths or None, fmt=args.format, staged=args.staged,
                     output=args.output, quiet=args.quiet, explain=args.explain)
    if args.command == "ignore":
        from chord_git.commands.ignore import ignore
        return ignore(project, out, fingerprints=args.fingerprints, last=args.last, reason=args.reason,
                      as_json=args.json)
    if args.command == "audit":
        from chord_git.commands.audit import audit
        return audit(project, cfg, out, fmt="json" if args.audit_json else args.audit_format,
                     use_model=args.audit_model)
    if args.command == "forget":
        from chord_git.commands.forget import forget
        return forget(project, args.id, out)
    if args.command == "fold":
        from chord_git.commands.fold import fold
        return fold(project, out, as_json=args.json)
    if args.command == "extract" and args.background:
        from chord_git.commands.extract_background import extract_background
        return extract_background(project, cfg, out, args.session, fmt=args.transcript_format,
                                  dry_run=args.dry_run, as_json=args.json)
    if args.command == "extract":
        from chord_git.commands.extract import extract
        return extract(project, cfg, out, session=args.session, fmt=args.transcript_format,
                       dry_run=args.dry_run, as_json=args.json, formats=formats)
    if args.command == "import":
        from chord_git.commands.imports import import_cmd
        return import_cmd(project, out, args.source, path=args.path, dry_run=args.dry_run, as_json=args.json)
    if args.command == "export":
        from chord_git.commands.export import export_cmd
        return export_cmd(project, out, args.target, write=args.write)
    if args.command == "add":
        from chord_git.commands.add import add
        return add(project, cfg, out, " ".join(args.words), wait=args.wait, as_json=args.json, hosts=hosts)
    if args.command == "agent" and args.agent_action in ("install", "uninstall"):
        from chord_git.commands.agent import install
        return install(project, out, args.host, scope=args.scope, dry_run=args.dry_run,
                       remove=args.agent_action == "uninstall", hosts=hosts)
    if args.command == "agent":
        from chord_git.commands.agent import agent
        return agent(project, cfg, out, args.agent_action, owner_pid=getattr(args, "pid", None),
                     as_json=getattr(args, "json", False), session=getattr(args, "session", None))
    if args.command == "queue":
        from chord_git.commands.queue import queue_cmd
        return queue_cmd(project, cfg, out, args.queue_action, args.job, as_json=args.json)
    if args.command == "curate":
        from chord_git.commands.curate import curate
        return curate(project, cfg, out, as_json=args.json, dry_run=args.dry_run)
    if args.command == "review":
        from chord_git.commands.review import review
        return review(project, cfg, out, action=args.review_action, item_id=getattr(args, "id", None),
                      where=getattr(args, "where", None), ids=getattr(args, "ids", None) or [],
                      text=getattr(args, "text", None),
                      as_json=args.review_json or getattr(args, "json", False), no_input=args.no_input)
    raise UsageError(f"git memory: unknown command {args.command!r}")


def _sends_to_model(args: argparse.Namespace | SimpleNamespace) -> bool:
    """Commands that call the model pool with session text: they refuse to run on a refused config."""
    if args.command == "review" and getattr(args, "review_action", None) == "accept":
        from chord_git.imports.decide import is_import

        return is_import(str(getattr(args, "id", "")))  # an accepted import goes to extraction
    return args.command in ("extract", "curate", "add") or (args.command == "queue" and args.queue_action == "retry") \
        or (args.command == "audit" and bool(getattr(args, "audit_model", False)))


def _runs_host_hook(argv: Sequence[str]) -> bool:
    words = list(argv)
    return any(words[i:i + 2] in (["agent", "hook"], ["agent", "statusline"]) for i in range(len(words)))


def _host_hook_fast_path(words: list[str], out: Output, hosts: Hosts | None) -> int | None:
    """``agent hook [--host H]`` and ``agent statusline`` run on every turn of an agent, so they
    skip building the full parser (which costs more than the hook's own work). Anything else
    about them, a typo included, goes through the parser and still fails open."""
    host: str | None = None
    if words[:2] == ["agent", "hook"] and len(words) in (2, 4) and words[2:3] in ([], ["--host"]):
        host = words[3] if len(words) == 4 else None
    elif words != ["agent", "statusline"]:
        return None
    return _run_host_hook(words[1], host, out, hosts)


def _run_host_hook(action: str, host: str | None, out: Output, hosts: Hosts | None) -> int:
    from chord_git.commands import agent as agent_cmd

    stdin = b"" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
    if action == "hook":
        return agent_cmd.hook(out, stdin, host_name=host, hosts=hosts)
    return agent_cmd.statusline(out, stdin)


def _log_places() -> list[Path]:
    """Where an unexpected error's traceback goes: the project's state dir, else the user's."""
    from chord_git.memory import project as project_mod

    places = []
    try:
        places.append(project_mod.discover(Path.cwd()).state_dir)
    except Exception:  # noqa: BLE001 - discovery may be what failed; the user's state dir remains
        pass
    places.append(project_mod.state_home() / "chord")
    return places


def _complete_ids(words: list[str], out: Output) -> int | None:
    """``__ids KINDS``, what completion scripts run while the user types: no parser, no config,
    nothing written; any problem (no project, an unreadable index) just lists nothing."""
    if words[:1] != ["__ids"] or len(words) != 2:
        return None
    from chord_git.commands import ids
    from chord_git.memory import project as project_mod

    try:
        return ids.complete(project_mod.discover(Path.cwd()), words[1], out)
    except Exception:  # noqa: BLE001 - a completion must never print an error into the prompt
        return 0


def _check_fast_path(words: list[str]) -> SimpleNamespace | None:
    """What the parser makes of the git hooks' own command lines, ``check --staged`` (the git
    hook) and ``check PATH...`` (the pre-commit framework), without building it: the parser
    and the registries its choices come from cost the hook about 10 ms (``docs/startup.md``).
    Anything else, an option or a dash included, goes through the parser (``tests/test_main.py``
    pins both to the same result)."""
    if words[:1] != ["check"] or any(word.startswith("-") and word != "--staged" for word in words[1:]):
        return None
    return SimpleNamespace(chdir=[], version=None, command="check", format="text", staged="--staged" in words,
                           paths=[word for word in words[1:] if word != "--staged"], output=None, quiet=False,
                           explain=False)


def main(argv: Sequence[str] | None = None, *, formats: Formats | None = None, hosts: Hosts | None = None) -> int:
    """The command line; ``formats`` and ``hosts`` are the registries (None: the built-in ones)."""
    out = Output()
    words = list(sys.argv[1:] if argv is None else argv)
    fast = _host_hook_fast_path(words, out, hosts)
    if fast is None:
        fast = _complete_ids(words, out)
    if fast is not None:
        return fast
    try:
        checked = _check_fast_path(words)
        if checked is not None:
            return _dispatch(checked, out, formats, hosts)
        if words == ["--help"]:  # what `git memory --help` opens through git: the manual (-h: usage)
            from chord_git.commands.help import manual
            return manual(out)
        parser = build_parser(formats, hosts)
        args, extras = parser.parse_known_args(argv)
        if extras:
            from chord_git.commands.help import unrecognized

            raise UsageError(unrecognized(parser, args, extras))
        for directory in args.chdir:
            try:
                os.chdir(directory)
            except OSError as exc:
                raise UsageError(f"cannot change to '{directory}': {exc.strerror}") from None
        if args.command is None:
            parser.print_help(out.stdout)
            return 2
        if args.command in ("help", "completion"):
            # From the parser itself, so every command appears; no project needed.
            from chord_git.commands import completion, help
            if args.command == "help":
                return help.show(parser, args.topic, out)
            return completion.script(parser, args.shell, out)
        # The modules, the parser and the config live until the process ends: out of the
        # collector's passes, a command that builds many objects (status over 10,000 entries)
        # does not walk them again at every collection.
        gc.freeze()
        return _dispatch(args, out, formats, hosts)
    except ChordError as exc:
        out.stderr.write(f"git memory: {exc}\n")
        # Hosts read exit 2 from a hook as "block this prompt": a hook fails open, even on bad usage.
        return 0 if _runs_host_hook(sys.argv[1:] if argv is None else argv) else exc.exit_code
    except KeyboardInterrupt:
        out.stderr.write("git memory: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # the unexpected: one line, exit 3, the traceback in a log
        log = errors.log_unexpected(exc, _log_places(), sys.argv[1:] if argv is None else argv)
        out.stderr.write(f"git memory: {errors.unexpected_message(exc, log)}\n")
        return 0 if _runs_host_hook(sys.argv[1:] if argv is None else argv) else errors.UNEXPECTED_EXIT


if __name__ == "__main__":
    sys.exit(main())
