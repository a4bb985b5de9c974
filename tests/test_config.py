from __future__ import annotations

from pathlib import Path

import pytest

from chord_git import config, config_trust
from chord_git.errors import ConfigError
from tests.secrets import fakes as f


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def user_file(home: Path) -> Path:
    return home / ".config" / "chord" / "config.yaml"


def test_defaults_when_no_file(tmp_path: Path) -> None:
    cfg = config.load(tmp_path)
    assert cfg.memory.enabled is False
    assert cfg.memory.summary_budget == 4000
    assert cfg.model_pool == () and cfg.sources == ()


def test_project_overrides_user_key_by_key(tmp_path: Path, isolated_home: Path) -> None:
    write(user_file(isolated_home), """
model_pool:
  - model: main-a
    api_key_env: OPENAI_API_KEY
  - model: main-b
    base_url: http://127.0.0.1:9/v1
reasoning_effort: high
memory:
  enabled: true
  summary_budget: 3000
""")
    write(tmp_path / ".chord" / "config.yaml", "memory:\n  enabled: false\n")
    cfg = config.load(tmp_path)
    assert cfg.memory.enabled is False  # the project forces extraction off
    assert cfg.memory.summary_budget == 3000  # untouched keys still come from the user file
    assert [m.model for m in cfg.model_pool] == ["main-a", "main-b"]
    assert cfg.reasoning_effort == "high"
    assert cfg.extraction_pool == cfg.model_pool and not cfg.dedicated_pool


def test_project_can_force_on_and_lists_replace_whole(tmp_path: Path, isolated_home: Path) -> None:
    write(user_file(isolated_home), "model_pool: [{model: a}, {model: b}]\n")
    path = write(tmp_path / ".chord" / "config.yaml", "memory:\n  enabled: true\n  model_pool:\n    - model: small\n")
    config_trust.allow(path, path.read_bytes())  # a pool from a project file needs the user's trust
    cfg = config.load(tmp_path)
    assert cfg.memory.enabled
    assert [m.model for m in cfg.extraction_pool] == ["small"] and cfg.dedicated_pool


def test_xdg_config_home_is_honoured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    write(tmp_path / "xdg" / "chord" / "config.yaml", "memory: {enabled: true}\n")
    assert config.load(None).memory.enabled


def test_unknown_keys_warn_with_place(tmp_path: Path) -> None:
    path = write(tmp_path / ".chord" / "config.yaml", "memory:\n  enabled: true\n  colour: blue\nfoo: 1\n")
    cfg = config.load(tmp_path)
    assert cfg.memory.enabled
    assert cfg.warnings == (f"{path}:3: unknown key memory.colour (ignored)", f"{path}:4: unknown key foo (ignored)")


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("memory:\n  enabled: maybe\n", 2, "memory.enabled must be true or false"),
        ("memory:\n  summary_budget: lots\n", 2, "memory.summary_budget must be an integer"),
        ("memory:\n  summary_budget: 10\n", 2, "at least"),
        ("model_pool: gpt\n", 1, "model_pool must be a list"),
        ("model_pool:\n  - base_url: http://x\n", 2, "has no 'model'"),
        ("model_pool:\n  - model: m\n    timeout: -1\n", 3, "timeout must be a positive number"),
        ("model_pool:\n  - model: m\n    response_format: xml\n", 3, "response_format must be one of"),
        ("- a\n- b\n", 1, "must be a mapping"),
        ("memory: [\n", 2, "invalid YAML"),
        ("memory:\n  enabled: true\n  enabled: false\n", 3, "duplicate key"),
    ],
)
def test_wrong_types_refused_with_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = write(tmp_path / ".chord" / "config.yaml", text)
    with pytest.raises(ConfigError) as info:
        config.load(tmp_path)
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert message in str(info.value)


GH = f.GITHUB_CLASSIC
SK = f.join("sk", "-proj-", f.body(38, seed=61))
QUERY_KEY = f.body(20, seed=62)  # a random API key in a URL
BARE_KEY = f.body(24, seed=63)  # a random key where a variable name belongs


@pytest.mark.parametrize(
    "text, line",
    [
        ("model_pool:\n  - model: m\n    api_key: " + "sk-" + "live" + "abcdefghijklmnop1234\n", 3),
        ("model_pool:\n  - model: m\n    api_key_env: " + "sk-" + "proj-abcdefghijklmnopqrstuvwx\n", 3),
        ("memory:\n  model_pool:\n    - model: m\n      token: abcdef123456\n", 4),
        ("api_key: abcdef\n", 1),
        ("model_pool:\n  - model: m\n    api-key: " + SK + "\n", 3),
        ("model_pool:\n  - model: m\n    openai_api_key: x\n", 3),
        ("model_pool:\n  - model: m\n    headers:\n      Authorization: Bearer " + SK + "\n", 4),
        ("model_pool:\n  - model: m\n    headers:\n      X-Api-Key: anything\n", 4),
        ("model_pool:\n  - model: m\n    base_url: https://bot:Tr0ub4dor-3x@llm.example.com/v1\n", 3),
        ("model_pool:\n  - model: m\n    base_url: https://llm.example.com/v1?api_key=" + QUERY_KEY + "\n", 3),
        ("memory:\n  enabled: true\n# old key: " + GH + "\n", 3),
        ("reasoning_effort: medium\nnotes: the staging password is Tr0ub4dor-3x\n", 2),
        ("model_pool:\n  - model: m\n    api_key_env: " + GH + "\n", 3),
        ("model_pool:\n  - model: m\n    api_key_env: " + BARE_KEY + "\n", 3),
        ("model_pool:\n  - model: m\n    api_key_env: not a name\n", 3),
    ],
)
def test_literal_keys_and_secret_shaped_values_anywhere_are_refused_and_never_echoed(
        tmp_path: Path, text: str, line: int) -> None:
    path = write(tmp_path / ".chord" / "config.yaml", text)
    with pytest.raises(ConfigError) as info:
        config.load(tmp_path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: ") and "\n" not in message
    assert "not allowed in a config file" in message
    for secret in (GH, SK, QUERY_KEY[:8], BARE_KEY[:8], "Tr0ub4dor", "anything", "not a name", "abcdef"):
        assert secret not in message


def test_environment_variable_names_are_fine(tmp_path: Path) -> None:
    path = write(tmp_path / "config.yaml",
                 "model_pool:\n  - model: m\n    base_url: http://127.0.0.1:8080/v1\n    api_key_env: OPENAI_API_KEY\n"
                 "  - model: n\n    api_key_env: local_llm_key\n")
    pool = config.build(config.load_file(path)).model_pool  # a pool is honoured from a trusted file only
    assert [e.api_key_env for e in pool] == ["OPENAI_API_KEY", "local_llm_key"]


@pytest.mark.parametrize("text", [
    "memory:\n  enabled: " + GH + "\n",
    "memory:\n  summary_budget: Tr0ub4dor-3x\n",
    "model_pool:\n  - model: m\n    timeout: Tr0ub4dor-3x\n",
])
def test_type_errors_do_not_echo_the_value(tmp_path: Path, text: str) -> None:
    write(tmp_path / ".chord" / "config.yaml", text)
    with pytest.raises(ConfigError) as info:
        config.load(tmp_path)
    assert GH not in str(info.value) and "Tr0ub4dor" not in str(info.value)


def test_non_utf8_config(tmp_path: Path) -> None:
    path = tmp_path / ".chord" / "config.yaml"
    path.parent.mkdir()
    path.write_bytes(b"memory:\n  enabled: true\n# caf\xe9\n")
    with pytest.raises(ConfigError, match=r":3: config is not valid UTF-8"):
        config.load(tmp_path)


def test_empty_config_file_is_fine(tmp_path: Path) -> None:
    write(tmp_path / ".chord" / "config.yaml", "")
    assert config.load(tmp_path).memory.enabled is False


# ---------------------------------------------------------------------------- memory.inject
@pytest.mark.parametrize("env, mode", [
    ({}, "all"), ({"CI": "true"}, "reviewed"), ({"CI": "1"}, "reviewed"), ({"GITHUB_ACTIONS": "true"}, "reviewed"),
    ({"GITLAB_CI": "true"}, "reviewed"), ({"CI": "false"}, "all"), ({"CI": "FALSE"}, "all"), ({"CI": "0"}, "all"),
    ({"CI": ""}, "all"), ({"CI": "  "}, "all"), ({"CI": "false", "GITHUB_ACTIONS": "true"}, "reviewed"),
])
def test_reviewed_is_the_default_under_ci(env: dict[str, str], mode: str) -> None:
    assert config.inject_mode(config.Config(), env) == mode


@pytest.mark.parametrize("setting", ["all", "reviewed"])
def test_a_setting_beats_the_ci_default(tmp_path: Path, isolated_home: Path, setting: str) -> None:
    write(user_file(isolated_home), f"memory:\n  inject: {setting}\n  reviewed_base: origin/main\n")
    cfg = config.load(tmp_path)
    assert cfg.memory.inject == setting and cfg.memory.reviewed_base == "origin/main"
    assert config.inject_mode(cfg, {"CI": "true"}) == config.inject_mode(cfg, {}) == setting


@pytest.mark.parametrize("text, message", [
    ("memory:\n  inject: some\n", "memory.inject must be one of all, reviewed"),
    ("memory:\n  inject: true\n", "memory.inject must be a non-empty string"),
    ("memory:\n  reviewed_base: -c core.pager=x\n", "memory.reviewed_base must be a branch or ref name"),
    ("memory:\n  reviewed_base: main:MEMORY.md\n", "memory.reviewed_base must be a branch or ref name"),
    ("memory:\n  reviewed_base: main..pr\n", "memory.reviewed_base must be a branch or ref name"),
    ("memory:\n  reviewed_base: main.lock\n", "memory.reviewed_base must be a branch or ref name"),
])
def test_bad_inject_settings_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / ".chord" / "config.yaml", text)
    with pytest.raises(ConfigError) as info:
        config.load(tmp_path)
    assert str(info.value).startswith(f"{path}:") and message in str(info.value)


def test_an_untrusted_project_may_ask_for_reviewed_but_not_loosen_it(tmp_path: Path, isolated_home: Path) -> None:
    path = write(tmp_path / ".chord" / "config.yaml", "memory:\n  inject: all\n  reviewed_base: pr\n")
    ci = {"CI": "true", "XDG_CONFIG_HOME": str(isolated_home / ".config"),
          "XDG_STATE_HOME": str(isolated_home / ".local" / "state")}
    cfg = config.load(tmp_path, ci)
    assert config.inject_mode(cfg, ci) == "reviewed" and cfg.memory.reviewed_base is None
    assert cfg.ignored == ("memory.inject: all (looser than yours)", "memory.reviewed_base")
    # Outside CI the user's own default is ``all`` already: the file changes nothing, and is not
    # reported for it.
    plain = {key: value for key, value in ci.items() if key != "CI"}
    assert config.load(tmp_path, plain).ignored == ("memory.reviewed_base",)
    # The user's own ``reviewed`` is not loosened either.
    write(user_file(isolated_home), "memory:\n  inject: reviewed\n")
    assert config.inject_mode(config.load(tmp_path, plain), plain) == "reviewed"
    # Trusted, the file decides.
    config_trust.allow(path, path.read_bytes())
    trusted = config.load(tmp_path, ci)
    assert config.inject_mode(trusted, ci) == "all" and trusted.memory.reviewed_base == "pr"
    # Stricter is always fine.
    path.write_text("memory:\n  inject: reviewed\n")
    write(user_file(isolated_home), "memory:\n  inject: all\n")
    assert config.inject_mode(config.load(tmp_path, plain), plain) == "reviewed"


def test_user_only_falls_back_to_the_users_file(tmp_path: Path, isolated_home: Path) -> None:
    assert config.user_only().memory.inject is None
    write(user_file(isolated_home), "memory:\n  inject: reviewed\n")
    assert config.user_only().memory.inject == "reviewed"
    write(user_file(isolated_home), "memory: [\n")
    assert config.user_only() == config.Config()
