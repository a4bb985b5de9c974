"""Speed devices of the secret layers, proved by counts (never by the clock).

Each test counts the work a device saves (characters read by a search, calls made, modules
imported) on a hostile shape, and checks that the device leaves the results as they were.
"""
from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from chord_git.secrets.layer2 import detect, prefilter
from chord_git.secrets.scanners import formats
from chord_git.secrets.text.spans import RANK_KEY_BLOCK, Span
from chord_git.secrets.words import patterns

from tests.conftest import shared_corpus

from . import fakes as f


class _CountingPattern:
    """A compiled pattern that counts the characters its searches read (from ``pos`` to the end
    of the match, or to ``endpos`` when there is none)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.searches = 0
        self.read = 0

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        stop = len(text) if endpos is None else min(endpos, len(text))
        match = self.pattern.search(text, pos, stop)
        self.searches += 1
        self.read += (match.end() if match else stop) - pos
        return match


@pytest.fixture()
def end_counter(monkeypatch: pytest.MonkeyPatch) -> Iterator[_CountingPattern]:
    counter = _CountingPattern(re.compile(patterns.PRIVATE_KEY_END.pattern))
    monkeypatch.setattr(patterns, "PRIVATE_KEY_END", counter)
    yield counter


def _marker(word: str, label: str = "RSA ", tail: str = "") -> str:
    """A PEM marker line, assembled here so the source holds none."""
    return f.join("-----", word, " ", label, "PRIVATE", " KEY", tail, "-----")


def _begin_lines(count: int, label: str = "RSA ") -> str:
    return (_marker("BEGIN", label) + "\n") * count


@pytest.mark.parametrize("blank", ["", "\n"])
def test_end_searches_read_unclosed_begin_lines_once(end_counter: _CountingPattern, blank: str) -> None:
    # 2,500 and 5,000 BEGIN lines with no END: each used to search the next 64 KiB for one.
    reads = []
    for count in (2_500, 5_000):
        end_counter.read = end_counter.searches = 0
        text = _begin_lines(count).replace("\n", "\n" + blank)
        formats.private_keys(text, text)
        assert end_counter.read <= len(text), (count, end_counter.read, len(text))
        reads.append(end_counter.read)
    assert reads[1] <= 2 * reads[0] + 64


def test_end_searches_stay_linear_with_ends_far_behind(end_counter: _CountingPattern) -> None:
    # BEGIN lines separated by blank lines, then one END far away: every BEGIN finds the same END.
    text = _begin_lines(3_000).replace("\n", "\n\n") + "x\n" * 40_000 + _marker("END") + "\n"
    formats.private_keys(text, text)
    assert end_counter.read <= len(text)


def _reference_private_keys(view: str, reach: int) -> list[Span]:
    """The rule as written before the device: a bounded search for END after every BEGIN."""
    found: list[Span] = []
    pos = 0
    while (begin := patterns.PRIVATE_KEY_BEGIN.search(view, pos)) is not None:
        end = re.compile(patterns.PRIVATE_KEY_END.pattern).search(view, begin.end(), begin.end() + reach)
        if end is not None:
            body, stop = view[begin.end():end.start()], end.end()
        else:
            blank = re.compile(r"\n[ \t]*\n").search(view, begin.end(), begin.end() + reach)
            stop = blank.start() if blank else min(len(view), begin.end() + reach)
            body = view[begin.end():stop]
        if not formats._key_body_is_placeholder(body):
            found.append(Span(begin.start(), stop, "private-key", RANK_KEY_BLOCK))
        pos = stop
    return found


def _key_text(rng: random.Random) -> str:
    pieces = [_marker("BEGIN"), _marker("BEGIN", "OPENSSH "), _marker("END"), _marker("END", ""),
              _marker("END", "", " BLOCK"), _marker("BEGIN", "PGP ", " BLOCK"), _marker("END", "") + _marker("END", "")[5:],
              "", "", "key body", f.body(64), f.body(48) + "==", "<key>", "notes about the deploy"]
    return "\n".join(rng.choice(pieces) for _ in range(rng.randint(1, 60)))


@pytest.mark.parametrize("reach", [40, 120, 400, formats._KEY_BLOCK_REACH])
def test_private_keys_match_the_bounded_search(monkeypatch: pytest.MonkeyPatch, reach: int) -> None:
    monkeypatch.setattr(formats, "_KEY_BLOCK_REACH", reach)
    rng = random.Random(reach)
    for _ in range(400):
        text = _key_text(rng)
        assert formats.private_keys(text, text) == _reference_private_keys(text, reach), text


def test_layer2_reads_each_context_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = formats.private_keys

    def counted(view: str, text: str) -> list[Span]:
        calls.append(len(view))
        return real(view, text)

    monkeypatch.setattr(formats, "private_keys", counted)
    lines = [_marker("BEGIN", "") + (str(i) if i % 3 else "") for i in range(2_500)]
    context = "\n".join(lines)
    blocks = detect.KeyBlocks(context)
    answers = [blocks.is_placeholder(line) for line in lines]
    assert len(calls) == 1
    # The same answers as asking each block in turn.
    spans = real(context, context)
    for line, answer in zip(lines, answers):
        start = context.find(line)
        assert answer == (not any(s.start <= max(start, 0) + len(line) and s.end >= start for s in spans))


def test_layer2_placeholder_answers_follow_the_context() -> None:
    key = f.pem_private_key()
    placeholder = "\n".join([_marker("BEGIN"), "<your key here>", _marker("END")])
    begin = key.split("\n")[0]
    assert detect.KeyBlocks(placeholder).is_placeholder(placeholder.split("\n")[0])
    assert not detect.KeyBlocks(key).is_placeholder(begin)
    assert detect.KeyBlocks(placeholder).is_placeholder(placeholder.split("\n")[0])


# --- Layer 2 loads only the plugins that can report on the lines it reads ----------------------

def _corpus_lines() -> list[str]:
    from tests.secrets.test_prefilter import corpus_lines, random_lines

    corpus = shared_corpus("secrets", "CHORD_CORPUS", holds=("gitleaks.jsonl", "detect_secrets.jsonl"))
    if corpus is None:
        pytest.skip("the shared secrets corpus is absent")
    return corpus_lines(corpus) + list(random_lines(11, 1500))


def _units(lines: list[str], files: int, per_file: int, seed: int) -> list[tuple[str, list[tuple[int, str]]]]:
    rng = random.Random(seed)
    names = ["notes.md", "config.yaml", "main.go", "settings.ini", "MEMORY.md"]
    return [(f"d{n}/{rng.choice(names)}", list(enumerate((rng.choice(lines) for _ in range(per_file)), start=1)))
            for n in range(files)]


def _all_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the scan did before the device: every plugin (``firing`` says it cannot choose)."""
    monkeypatch.setattr(prefilter, "firing", lambda *args, **kwargs: None)


def test_chosen_plugins_find_what_all_plugins_find(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _corpus_lines()
    # One unit per file (as a commit of a few files has), several files per scan, and single lines.
    cases = [_units(lines, 40, 30, seed) for seed in range(4)] + [[("MEMORY.md", [(1, line)])] for line in lines[::211]]
    chosen = [detect.scan_units(units, None) for units in cases]
    with monkeypatch.context() as patch:
        _all_plugins(patch)
        every = [detect.scan_units(units, None) for units in cases]
    assert sum(len(found) for result in every for found in result[0]) > 40  # the comparison has teeth
    assert chosen == every


def test_chosen_plugins_follow_a_baseline(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _corpus_lines()
    baseline = {"plugins_used": [{"name": "AWSKeyDetector"}, {"name": "HexHighEntropyString", "limit": 2.5},
                                 {"name": "KeywordDetector"}, {"name": "PrivateKeyDetector"}],
                "filters_used": [], "results": {}}
    cases = [_units(lines, 30, 30, seed) for seed in range(2)]
    chosen = [detect.scan_units(units, baseline) for units in cases]
    with monkeypatch.context() as patch:
        _all_plugins(patch)
        every = [detect.scan_units(units, baseline) for units in cases]
    assert chosen == every


def test_plugin_table_is_the_release_s() -> None:
    detect._import_detect_secrets(all_plugins=True)
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    mapping: dict[str, type] = get_mapping_from_secret_type_to_class()
    assert [cls.__name__ for cls in mapping.values()] == list(detect.PLUGIN_MODULES)
    assert [cls.__module__.rsplit(".", 1)[1] for cls in mapping.values()] == list(detect.PLUGIN_MODULES.values())
    assert set(detect.PLUGIN_MODULES) == prefilter.KNOWN_PLUGINS


def test_firing_names_only_plugins_whose_condition_holds() -> None:
    names = list(detect.PLUGIN_MODULES)
    assert prefilter.firing(names, [("MEMORY.md", ["plain words only"])]) == []
    aws = prefilter.firing(names, [("MEMORY.md", ["plain", "id " + f.AWS_KEY_ID])])
    assert aws is not None and "AWSKeyDetector" in aws and "KeywordDetector" not in aws
    assert prefilter.firing(["SomeCustomDetector"], [("x.md", ["x"])]) is None


_CHILD = """
import sys
from chord_git.secrets import scan
from tests.secrets import fakes as f
lines = list(enumerate(["# notes", "the deploy id is " + f.AWS_KEY_ID, "nothing else here"], start=1))
found = scan.scan_added_lines({"MEMORY.md": lines})
assert found, found
print(sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("detect_secrets.plugins.")))
print("requests" in sys.modules, "multiprocessing" in sys.modules)
from detect_secrets import SecretsCollection  # still reachable, loaded when asked for
"""


def test_a_commit_holding_one_token_imports_only_its_plugins() -> None:
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _CHILD], cwd=root, capture_output=True, text=True, check=True).stdout
    plugins, rest = out.strip().split("\n")
    loaded = ast.literal_eval(plugins)
    # Only the AWS plugin's condition holds; detect-secrets' filters import the base module
    # and the private-key plugin's themselves.
    assert "aws" in loaded and set(loaded) <= {"aws", "base", "private_key"}, loaded
    # requests stays out, and so does multiprocessing (detect-secrets' package __init__ is skipped).
    assert rest.split() == ["False", "False"]


@pytest.mark.parametrize("filename", ["notes.md", "config.yaml"])
def test_each_plugin_s_condition_holds_where_it_reports(filename: str) -> None:
    """Choosing plugins needs each plugin's condition sound on its own (a line passing for
    another plugin no longer covers it): every line a plugin reports meets that plugin's."""
    from detect_secrets.settings import default_settings, get_plugins

    lines = _corpus_lines()
    missed: dict[str, list[str]] = {}
    with default_settings():
        for plugin in get_plugins():
            name = type(plugin).__name__
            gate = prefilter.build({name: {}}, public_ip=True)
            assert gate is not None
            for line in lines:
                if list(plugin.analyze_line(filename=filename, line=line, line_number=1)) \
                        and not gate.passing(filename, [line]):
                    missed.setdefault(name, []).append(line)
    assert missed == {}
