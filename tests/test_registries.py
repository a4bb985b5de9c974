"""The two extension points, transcript formats and agent hosts, are each declared once.

* Everything that names them derives from their registry (``transcripts/registry.py``,
  ``agents/hosts.py``): the parser's choices, help and completion, the error texts, and the
  tables and lists in the docs, which are compared here so they cannot drift.
* No other module lists the names (an ``ast`` scan of the package).
* A new format and a new host, each written here as its own module and added to a registry
  value built for the test, work end to end through the real command line: the format is
  detected and read by ``extract --session``, the host is offered by ``agent install`` (choices,
  completion, help) and gets its settings file.
"""
from __future__ import annotations

import ast
import importlib
import io
import json
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path

import pytest

from chord_git import main as main_mod
from chord_git.agents import hosts as hosts_mod
from chord_git.agents.host import Host, plain_context
from chord_git.commands import completion
from chord_git.commands import help as help_mod
from chord_git.errors import UsageError
from chord_git.transcripts import registry
from chord_git.transcripts.registry import Format
from chord_git.ui import Output, either
from testing.fake_openai import FakeOpenAI, Reply
from tests.conftest import REPO_ROOT
from tests.extraction.extract_support import KEY_VAR, configure, record, reply

PACKAGE = REPO_ROOT / "chord_git"
FORMATS = registry.BUILTIN
HOSTS = hosts_mod.BUILTIN


# ---------------------------------------------------------------------------- docs
def test_the_docs_tables_are_the_registries() -> None:
    text = (REPO_ROOT / "docs" / "agent-hosts.md").read_text(encoding="utf-8")
    assert HOSTS.doc_table() in text
    assert FORMATS.doc_table() in text


STATIC_DOCS = ("README.md", "man/git-memory.1", "hooks/post-session", "docs/agent-hosts.md", "action.yml")


def _mentions(line: str, names: tuple[str, ...]) -> int:
    return sum(1 for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line))


@pytest.mark.parametrize("doc", STATIC_DOCS)
def test_no_static_doc_lists_the_names_by_hand(doc: str) -> None:
    """Outside the tables above, a doc names a host or a format as an example, never all of them
    in a row: such a list would go stale with the next host or format."""
    text = (REPO_ROOT / doc).read_text(encoding="utf-8")
    for table in (HOSTS.doc_table(), FORMATS.doc_table()):
        text = text.replace(table, "")
    lists = [line for line in text.splitlines()
             if _mentions(line, HOSTS.names()) == len(HOSTS.names())
             or _mentions(line, FORMATS.names()) == len(FORMATS.names())]
    assert lists == []


def test_the_hand_list_check_sees_a_list() -> None:
    """Control: the line the README had before the registry is caught."""
    names = "\\|".join(HOSTS.names())
    line = f"| `agent install\\|uninstall {names} [--scope project\\|local\\|user]` | merges |"
    assert _mentions(line, HOSTS.names()) == len(HOSTS.names())


# ---------------------------------------------------------------------------- derived texts
def test_the_parser_offers_exactly_the_registered_names() -> None:
    root = completion.tree(main_mod.build_parser())
    nodes = {node.path: node for node in root.walk()}
    for action in ("install", "uninstall"):
        [host] = nodes[("agent", action)].positionals
        assert host.values == HOSTS.names()
    [fmt] = [o for o in nodes[("extract",)].options if "--format" in o.flags]
    assert fmt.values == ("auto", *FORMATS.names())


def test_unknown_names_are_refused_with_the_registered_ones() -> None:
    with pytest.raises(UsageError, match=re.escape(f"unknown agent host 'nope' (expected {', '.join(HOSTS.names())})")):
        HOSTS.get("nope")
    assert HOSTS.names()[:2] == ("claude-code", "codex")
    with pytest.raises(UsageError, match=re.escape(f"expected auto, {', '.join(FORMATS.names())})")):
        FORMATS.check("nope")
    assert FORMATS.names()[:4] == ("native", "openai", "claude-code", "codex")
    titles = either([f.title for f in FORMATS.formats])
    assert FORMATS.undetected_message().startswith(f"cannot tell the transcript format (expected {titles} JSON Lines)")
    assert titles.startswith("native, OpenAI chat, Claude Code, Codex")


def test_each_format_module_names_itself_as_its_registry_entry() -> None:
    for fmt in FORMATS.formats:
        module = importlib.import_module(fmt.reader.partition(":")[0])
        assert module.FORMAT == fmt.name
        assert fmt.detector.partition(":")[0] == module.__name__


def test_each_host_reads_a_registered_transcript_format() -> None:
    for host in HOSTS.hosts:
        FORMATS.get(host.transcript_format)


def test_registries_refuse_a_name_twice() -> None:
    with pytest.raises(ValueError):
        FORMATS.with_format(FORMATS.formats[0])
    with pytest.raises(ValueError):
        HOSTS.with_host(HOSTS.hosts[0])


# ---------------------------------------------------------------------------- nobody else lists them
# Strings equal to a registered name that are not about the extension points.
UNRELATED = {
    ("secrets/layer2/kinds.py", "openai"): "a vendor whose tokens the secret scanner labels",
    ("secrets/words/keys.py", "openai"): "a vendor in the key-name vocabulary",
    ("secrets/layer2/detect.py", "openai"): "a detect-secrets plugin module's name",
    ("secrets/scanners/anylabel.py", "pi"): "the Raspberry Pi's stock account name",
}


def _own_modules() -> dict[str, set[str]]:
    """For each registered name, the files allowed to spell it: the registries and its own module."""
    allowed: dict[str, set[str]] = {}
    for fmt in FORMATS.formats:
        module = fmt.reader.partition(":")[0]
        allowed.setdefault(fmt.name, set()).add(module.removeprefix("chord_git.").replace(".", "/") + ".py")
    for host in HOSTS.hosts:
        own = host.settings.__module__.removeprefix("chord_git.").replace(".", "/") + ".py"
        allowed.setdefault(host.name, set()).add(own)
        allowed.setdefault(host.transcript_format, set()).add(own)  # the format of its session files
    for names in allowed.values():
        names.update({"transcripts/registry.py", "agents/hosts.py", "imports/registry.py"})
    return allowed


def test_no_module_but_the_registries_and_their_own_lists_the_names() -> None:
    allowed = _own_modules()
    strays = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in allowed:
                if rel not in allowed[node.value] and (rel, node.value) not in UNRELATED:
                    strays.append(f"{rel}:{node.lineno}: {node.value!r}")
    assert strays == []


def test_the_scan_sees_a_stray_name() -> None:
    """Control: the scan above notices a name where it does not belong."""
    tree = ast.parse('CHOICES = ("auto", "codex")')
    seen = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in _own_modules()]
    assert seen == ["codex"]


# ---------------------------------------------------------------------------- a new format
PLAINLOG = '''
"""A made-up agent's log: one JSON object per line, {"plainlog": 1, "who": "me"|"bot", "said": "..."}."""
from __future__ import annotations

from chord_git.transcripts.model import Message, Transcript

FORMAT = "plainlog"


def detect(obj):
    return isinstance(obj, dict) and "plainlog" in obj


def read(records, path):
    items = []
    for _line, obj in records:
        role = "user" if obj["who"] == "me" else "assistant"
        items.append(Message(role, obj["said"], True, len(items)))
    return Transcript(session_id="plain-1", frozen=True, items=tuple(items), source_format=FORMAT)
'''


def _with_plainlog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> registry.Formats:
    (tmp_path / "plainlog_format.py").write_text(textwrap.dedent(PLAINLOG), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return FORMATS.with_format(Format("plainlog", "Plain log", "plainlog_format:read", "plainlog_format:detect",
                                      rank=50, notes="a test's own format"))


def test_a_new_format_is_detected_and_read_by_extract(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    formats = _with_plainlog(tmp_path, monkeypatch)
    said = "this repo only uses pnpm, please never run npm install"
    session = tmp_path / "session.log"
    session.write_text("\n".join(json.dumps(line) for line in (
        {"plainlog": 1, "who": "me", "said": said}, {"plainlog": 1, "who": "bot", "said": "Noted."})) + "\n")
    monkeypatch.setenv(KEY_VAR, "test-placeholder")
    monkeypatch.chdir(repo)
    with FakeOpenAI() as server:
        configure(repo, server)
        server.script("m1", Reply(reply(record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", said))))
        code = main_mod.main(["extract", "--session", str(session), "--json"], formats=formats)
    out = capsys.readouterr()
    assert code == 0, out.err
    report = json.loads(out.out)
    assert report["outcome"] == "ok" and report["session"] == "plain-1" and len(report["written"]) == 1
    assert "Use pnpm, never npm." in (repo / "MEMORY.md").read_text(encoding="utf-8")
    # The built-in registry does not know it: the same file is refused there, and by name too.
    assert main_mod.main(["extract", "--session", str(session), "--format", "plainlog"]) == 2
    assert "invalid choice: 'plainlog'" in capsys.readouterr().err


def test_a_new_format_is_one_of_the_choices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    formats = _with_plainlog(tmp_path, monkeypatch)
    script = io.StringIO()
    completion.script(main_mod.build_parser(formats), "bash", Output(stdout=script))
    assert f"auto {' '.join(FORMATS.names())} plainlog" in script.getvalue()
    assert "plainlog" not in FORMATS.names()  # the built-in value is untouched


# ---------------------------------------------------------------------------- a new host
def _pi_settings(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    return root / ".pi" / "hooks.json" if scope != "user" else Path(env["HOME"]) / ".pi" / "hooks.json"


PI = Host(name="pi-agent", title="Pi", transcript_format="native", settings=_pi_settings,
          render_context=plain_context, freezes_when_quiet=True, has_statusline=False,
          install_note="Pi reads its hooks at start: restart it.")


def test_a_new_host_is_offered_by_agent_install(capsys: pytest.CaptureFixture[str]) -> None:
    hosts = HOSTS.with_host(PI)
    parser = main_mod.build_parser(hosts=hosts)
    nodes = {node.path: node for node in completion.tree(parser).walk()}
    assert nodes[("agent", "install")].positionals[0].values == (*HOSTS.names(), "pi-agent")
    script = io.StringIO()
    completion.script(parser, "bash", Output(stdout=script))
    assert f"{' '.join(HOSTS.names())} pi-agent" in script.getvalue()
    shown = io.StringIO()
    help_mod.show(parser, ["agent", "install"], Output(stdout=shown))
    assert "pi-agent" in shown.getvalue()
    shown = io.StringIO()
    help_mod.show(parser, ["agent"], Output(stdout=shown))
    assert f"{HOSTS.titles()}, Pi" in " ".join(shown.getvalue().split())  # help text wraps


def test_a_new_host_installs_its_settings_file(repo: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(repo)
    assert main_mod.main(["agent", "install", "pi-agent"], hosts=HOSTS.with_host(PI)) == 0
    out = capsys.readouterr().out
    assert out.startswith(".pi/hooks.json: added SessionStart, UserPromptSubmit, Stop, SessionEnd\n")
    assert "Pi reads its hooks at start: restart it.\n" in out
    hooks = json.loads((repo / ".pi" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    assert hooks["SessionStart"][0]["hooks"][0]["command"] == "git-memory agent hook --host pi-agent"
    assert main_mod.main(["agent", "install", "pi-agent"]) == 2  # the built-in registry has no such host
    assert "invalid choice: 'pi-agent'" in capsys.readouterr().err


def test_a_hook_payload_finds_its_host_without_host_flag(tmp_path: Path) -> None:
    from chord_git.agents import payload

    def host_of(**fields: object) -> str:
        data = {"hook_event_name": "Stop", "session_id": "s1", "cwd": str(tmp_path), **fields}
        return HOSTS.for_event(payload.parse(json.dumps(data).encode(), tmp_path)).name

    assert host_of() == "claude-code"  # the default: no host recognises the payload
    assert host_of(transcript_path=str(tmp_path / "s1.jsonl")) == "claude-code"
    assert host_of(transcript_path=str(tmp_path / "rollout-2026-s1.jsonl")) == "codex"
    assert host_of(turn_id="t1") == "codex" and host_of(model="m") == "codex"
