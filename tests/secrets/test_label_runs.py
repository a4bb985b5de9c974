"""Runs of the same word (``key key …``, ``密码密码…``, ``&key=a1&key=a1…``) are settled by
comparing each occurrence's window with the one before: an occurrence whose surroundings differ
must still get its own verdict, wherever it sits in the run."""
from __future__ import annotations

import pytest

from chord_git.secrets import find, redact

_TOKEN = "".join(("Zq8Xv", "L2mK9", "pT4wR", "7nB3c"))  # built here: no literal token in the tree


def _found(text: str) -> list[tuple[str, str]]:
    return [(span.kind, text[span.start:span.end]) for span in find(text)]


@pytest.mark.parametrize(("run", "odd"), [
    ("key ", f"key: {_TOKEN} "),
    ("Key ", f"KEY = '{_TOKEN}' "),
    ("pass ", f"pass phrase: {_TOKEN} "),
    ("密码", f"密码是 {_TOKEN} "),
    ("密码：", f"密码：{_TOKEN} "),
    ("登录", f"登录 admin / {_TOKEN} "),
    ("&key=a1", f"&key={_TOKEN}"),
    ("?token=abc&", f"?token={_TOKEN}&"),
])
# Runs longer than a label's window (``text.reader.LINE``) are skipped whole when their text repeats.
@pytest.mark.parametrize(("before", "after"), [(0, 40), (40, 0), (40, 40), (3, 3), (300, 300), (0, 300), (300, 2)])
def test_an_odd_occurrence_in_a_run_gets_its_own_verdict(run: str, odd: str, before: int, after: int) -> None:
    alone = _found(odd)
    inside = _found(run * before + odd + run * after)
    assert [value for _, value in inside if _TOKEN in value] == [value for _, value in alone if _TOKEN in value]


def test_a_parameter_value_ends_at_the_next_parameter_as_before() -> None:
    # The value is cut at the next parameter without trimming its punctuation, unless an escape
    # ends it first: the same value as reading the whole bare run and cutting afterwards.
    token = _TOKEN
    assert _found(f"x?key={token};&b=1") == _found(f"x?key={token};&b=1 ")
    assert [v for _, v in _found(f"x?key={token}&b=1")] == [token]
    assert [v for _, v in _found(f"x?key={token}#frag")] == [token]


@pytest.mark.parametrize("run", ["key ", "Key ", "token ", "secret "])
@pytest.mark.parametrize("odd", [f"key\t:= {_TOKEN} ", f"key === '{_TOKEN}' "])
@pytest.mark.parametrize(("before", "after"), [(300, 300), (300, 2), (2, 300)])
def test_an_assignment_inside_a_long_run_of_trigger_words_is_read(run: str, odd: str, before: int, after: int) -> None:
    # Only the assignment rule reports these; a run of rejected trigger words is skipped whole
    # when its text repeats, and the odd one breaks the repetition.
    inside = _found(run * before + odd + run * after)
    assert [value for _, value in inside if _TOKEN in value] == [_TOKEN]


@pytest.mark.parametrize(("run", "value"), [("pwd: Tr0ub4dor&3 ", "Tr0ub4dor&3"), ("密码：Ab3dE5fG7 ", "Ab3dE5fG7")])
@pytest.mark.parametrize(("before", "after"), [(300, 300), (300, 2), (2, 300)])
def test_a_run_of_labels_with_values_reports_each_value_and_the_odd_one(run: str, value: str, before: int,
                                                                         after: int) -> None:
    # A long run whose first label reports a value is settled by shifting that value; the odd
    # occurrence breaks the repetition and is read on its own.
    inside = _found(run * before + f"password: {_TOKEN} " + run * after)
    assert [v for _, v in inside if _TOKEN in v] == [_TOKEN]
    assert sum(1 for _, v in inside if v == value) == before + after


@pytest.mark.parametrize(("run", "odd"), [("登录", f"登录 bob:{_TOKEN} "), ("登录", f"登录 bob/{_TOKEN} "),
                                          ("login ", f"login as bob with {_TOKEN} "), ("login ", f"login bob:{_TOKEN} ")])
@pytest.mark.parametrize(("before", "after"), [(300, 300), (300, 2), (2, 300)])
def test_a_login_pair_inside_a_long_run_of_account_words_is_read(run: str, odd: str, before: int, after: int) -> None:
    # An account word reads 80 characters on for a pair to start; one further back in the run
    # finds the pair near its window's edge, and must still report the whole value.
    text = run * before + odd + run * after
    at = text.index(_TOKEN)
    assert [(span.start, span.end) for span in find(text) if at <= span.start < at + len(_TOKEN)] == \
        [(at, at + len(_TOKEN))]
    assert _TOKEN[-6:] not in redact(text)
