"""Patterns compiled on first use behave as compiled ones, and only the used ones compile."""
from __future__ import annotations

import re

import pytest

from chord_git.support.regex_lazy import lazy


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    pattern = lazy(r"(?P<word>[a-z]+)=(\d+)", re.I)
    compiled = re.compile(r"(?P<word>[a-z]+)=(\d+)", re.I)
    text = "A=1 bb=22 c=x"
    assert pattern.pattern == compiled.pattern
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    found = pattern.search(text, 2)
    assert found is not None and found.group("word") == "bb"
    assert pattern.sub("-", text) == compiled.sub("-", text)
    assert pattern.groupindex == compiled.groupindex and pattern.flags == compiled.flags


def test_nothing_compiles_before_the_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    pattern = lazy("ab+")
    assert compiled == [] and pattern.pattern == "ab+"
    assert pattern.match("abb") is not None and pattern.match("b") is None
    assert compiled == ["ab+"]  # once, then the bound methods are kept


def test_a_bad_pattern_fails_at_its_first_use() -> None:
    pattern = lazy("(")
    with pytest.raises(re.error):
        pattern.search("x")
