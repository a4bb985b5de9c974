"""Hostile YAML in config, record and promotion files: bounded, plain, one clean error (M1, M2)."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git import config
from chord_git.support import safe_yaml
from chord_git.errors import ConfigError
from chord_git.memory import frontmatter, promotions, records
from testing.hostile import billion_laughs


@pytest.mark.parametrize(
    "text, message",
    [
        (billion_laughs(6), "aliases"),
        (billion_laughs(9), "aliases"),
        ("a: &a [*a]\n", "recursive alias"),
        ("x: !!python/name:os.system\n", "not allowed"),
        ("x: !!python/object/apply:os.system [true]\n", "not allowed"),
        ("x: !!binary aGk=\n", "not allowed"),
        ("x: !!set {a: null}\n", "not allowed"),
        ("x: !!timestamp not-a-date\n", ""),
        ("x: 1" + "0" * 5000 + "\n", "digits"),
        ("<<: {a: 1}\n", "merge keys"),
        ("a: 1\na: 2\n", "duplicate key"),
        ("[" * 100 + "]" * 100 + "\n", ""),
        ("x: [1, 2\n", "invalid YAML"),
    ],
)
def test_refused_with_a_line(text: str, message: str) -> None:
    started = time.process_time()  # this process's CPU: other jobs on the machine don't count
    try:
        value = safe_yaml.load(text)
    except safe_yaml.YamlRefused as exc:
        assert message in exc.message
        assert "\n" not in str(exc)
    else:
        # A bad !!timestamp is kept as the text it was written as: nothing to crash on later.
        assert message == "" and value == {"x": "not-a-date"}
    assert time.process_time() - started < 5  # a refusal, not a slow success


def test_dates_stay_text_and_plain_scalars_are_typed() -> None:
    data = safe_yaml.load("created: 2026-02-30\nwhen: 2026-11-29T10:00:00Z\nn: 12\nf: 1.5\nb: true\nz: null\n")
    assert data == {"created": "2026-02-30", "when": "2026-11-29T10:00:00Z", "n": 12, "f": 1.5, "b": True, "z": None}


def test_a_few_aliases_are_fine() -> None:
    assert safe_yaml.load("a: &x [1]\nb: *x\nc: *x\n") == {"a": [1], "b": [1], "c": [1]}


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_give_a_value_or_a_clean_refusal(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    try:
        safe_yaml.load(text)
    except safe_yaml.YamlRefused as exc:
        assert "\n" not in str(exc)


_YAMLISH = st.text(alphabet=st.sampled_from(list("ab:- &*![]{}\n\"'#|>0123456789.!<")), max_size=120)


@settings(max_examples=400, deadline=None)
@given(_YAMLISH)
def test_yaml_shaped_text_never_escapes(text: str) -> None:
    try:
        safe_yaml.load(text)
    except safe_yaml.YamlRefused:
        pass


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_config_parser_on_arbitrary_bytes(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("cfg") / "config.yaml"
    path.write_bytes(data)
    try:
        loaded = config.load_file(path)
        config.build(loaded)
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=600))
def test_record_and_promotion_parsers_on_arbitrary_text(text: str) -> None:
    for candidate in (text, "---\n" + text, "---\n" + text + "\n---\n## Conclusion\n"):
        records.parse(candidate)
        promotions.parse(candidate)
        frontmatter.split(candidate, "record")
