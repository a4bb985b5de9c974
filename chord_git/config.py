"""Layered YAML config (R6): the project's ``.chord/config.yaml`` over the user's file, key by key.

Every value keeps the file and line it came from (``_Located``) and is type-checked by the reader
of its key (``build``, ``_memory``, ``_model_entry``), so every refusal can name the file and the
line. Lists (model pools) are replaced whole, mappings are merged.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from chord_git.support import safe_yaml
from chord_git.support.dataclass_lazy import dataclass, field, replace
from chord_git.errors import ConfigError
from chord_git.support.regex_lazy import lazy

ENV_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")  # model entries only: not on the hook's start-up
# Field names that can only hold a credential; a config file must name a variable instead.
LITERAL_KEY_FIELDS = frozenset({"api_key", "apikey", "key", "token", "secret", "password", "bearer"})
RESPONSE_FORMATS = ("json_schema", "json_object", "none")
EXTRACTION_OFF = "memory extraction is off (memory.enabled is false)"  # R6, R7: what each command says
OFF_MESSAGE = f"{EXTRACTION_OFF}: nothing sent, nothing written"
MAX_CONFIG_BYTES = 64 * 1024
# Upper bounds keep a typo (or a hostile file) from asking for gigabytes of summary or input.
# Fields that decide where session text and credentials go: honoured from a project file only
# once the user trusts it (``git memory trust``).
TRUSTED_ONLY = ("model_pool",)
BUDGET_LIMITS = {"summary_budget": 200_000, "agents_md_budget": 200_000, "transcript_budget": 2_000_000}
# ``memory.inject``: what a session start recalls. ``all``: every entry of the working tree's
# index. ``reviewed``: only what the base branch holds, plus this machine's own uncommitted
# extraction output (``memory/recall_gate.py``). Unset: ``reviewed`` where CI is detected.
INJECT_ALL = "all"
INJECT_REVIEWED = "reviewed"
INJECT_MODES = (INJECT_ALL, INJECT_REVIEWED)
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI")
# ``memory.reviewed_base`` is handed to git as a revision: a ref name, nothing an option or a
# ``<rev>:<path>`` could be read into.
BASE_NAME = lazy(r"^(?!-)(?!.*\.\.)(?!.*//)[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")


@dataclass(frozen=True)
class ModelEntry:
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    timeout: float = 120.0
    response_format: str = "json_schema"
    reasoning_effort: str | None = None


@dataclass(frozen=True)
class MemoryConfig:
    enabled: bool = False
    model_pool: tuple[ModelEntry, ...] = ()
    summary_budget: int = 4000
    agents_md_budget: int = 6000
    transcript_budget: int = 60000
    stale_after_days: int = 180
    # A hook-driven session without an end event (Codex) counts as frozen after this long unchanged.
    freeze_after_seconds: int = 900
    # ``memory.inject`` as a file set it (None: not set, so ``inject_mode`` decides by CI).
    inject: str | None = None
    # The revision ``reviewed`` compares with (None: the remote's default branch, else main/master).
    reviewed_base: str | None = None
    # ``memory.extraction``: tokens the model calls may spend a day and on one session (None: no limit).
    max_tokens_per_day: int | None = None
    max_tokens_per_session: int | None = None


@dataclass(frozen=True)
class Config:
    model_pool: tuple[ModelEntry, ...] = ()
    reasoning_effort: str | None = None
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    sources: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    project_file: str | None = None  # the project's config file, when there is one
    project_trusted: bool = False  # ``git memory trust`` recorded its exact content
    ignored: tuple[str, ...] = ()  # project fields not honoured because the file is not trusted

    @property
    def dedicated_pool(self) -> bool:
        """R16: a dedicated memory pool runs while the agent works and is never preempted."""
        return bool(self.memory.model_pool)

    @property
    def extraction_pool(self) -> tuple[ModelEntry, ...]:
        return self.memory.model_pool or self.model_pool

    def no_pool_reason(self) -> str:
        """R36's one-line reason when no pool is configured, naming an untrusted project pool."""
        if any(name in ("model_pool", "memory.model_pool") for name in self.ignored):
            return "no model pool configured: the project config's pool is not trusted (git memory trust)"
        return "no model pool configured (set model_pool or memory.model_pool)"


def user_config_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    return Path(base) / "chord" / "config.yaml"


def project_config_path(root: Path) -> Path:
    return root / ".chord" / "config.yaml"


# ---------------------------------------------------------------------------- reading YAML
@dataclass(frozen=True)
class _Located:
    """A plain value with the file and line it came from."""

    value: Any
    path: str
    line: int


def _locate(path: str) -> Callable[[Any, int], _Located]:
    def wrap(value: Any, line: int) -> _Located:
        if isinstance(value, dict):
            value = {str(key): item for key, item in value.items()}
        return _Located(value, path, line)

    return wrap


# ---------------------------------------------------------------------------- secrets
SECRET_HINT = "keep keys in the environment and name the variable with api_key_env"


def refuse_secrets(path: Path | str, text: str) -> None:
    """Refuse a config file holding anything secret-shaped, anywhere (values, URLs, comments).

    The message names the file, the line and the kind of secret, never the value.
    """
    from chord_git.secrets import find  # the sanitizer alone: no detect-secrets on this path

    findings = find(text)
    if findings:
        first = findings[0]
        raise ConfigError(path, first.line, f"a secret ({first.kind}) is not allowed in a config file; {SECRET_HINT}")


def _holds_literal_secret(name: str, loc: _Located) -> bool:
    """A key that can only hold a credential (``api_key``, ``token``, ``Authorization``) with a value."""
    from chord_git.secrets.words.keys import classify_key

    if loc.value is None or isinstance(loc.value, (dict, list, bool)) or str(loc.value).strip() == "":
        return False
    return name.lower() in LITERAL_KEY_FIELDS or classify_key(name) is not None


def _refuse_literal_keys(loc: _Located, where: str) -> None:
    """Walk every mapping: a credential-named key must not hold a literal anywhere in the file."""
    if isinstance(loc.value, dict):
        for name, value in loc.value.items():
            here = f"{where}.{name}" if where else name
            if _holds_literal_secret(name, value):
                raise _fail(value, f"{here}: a literal credential is not allowed in a config file; {SECRET_HINT}")
            _refuse_literal_keys(value, here)
    elif isinstance(loc.value, list):
        for i, item in enumerate(loc.value):
            _refuse_literal_keys(item, f"{where}[{i}]")


def _env_name(loc: _Located, where: str) -> str | None:
    """``api_key_env``: the name of an environment variable, and nothing that looks like a key."""
    from chord_git.secrets import find
    from chord_git.secrets.verdicts.values import token_like

    if loc.value is None:
        return None
    if not isinstance(loc.value, str) or not ENV_NAME.match(loc.value) or find(loc.value) or token_like(loc.value):
        raise _fail(loc, f"{where} must be the NAME of an environment variable (such as OPENAI_API_KEY); "
                         "a key is not allowed in a config file")
    return loc.value


def load_file(path: Path) -> _Located | None:
    """Parse one config file into located values; a missing file is simply absent."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read config: {exc.strerror}") from None
    return parse_bytes(path, raw)


def parse_bytes(path: Path | str, raw: bytes) -> _Located | None:
    """Located values of a config file's bytes (None for an empty document)."""
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(path, None, f"config is larger than {MAX_CONFIG_BYTES} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(path, line, "config is not valid UTF-8") from None
    refuse_secrets(path, text)
    try:
        located = safe_yaml.load(text, wrap=_locate(str(path)))
    except safe_yaml.YamlRefused as exc:
        raise ConfigError(path, exc.line, exc.message) from None
    if located is None:
        return None
    assert isinstance(located, _Located)
    if not isinstance(located.value, dict):
        raise ConfigError(path, located.line, "config must be a mapping of keys")
    _refuse_literal_keys(located, "")
    return located


def merge(base: _Located | None, over: _Located | None) -> _Located | None:
    """Overlay ``over`` on ``base`` key by key; non-mapping values (lists too) replace whole."""
    if base is None:
        return over
    if over is None:
        return base
    if isinstance(base.value, dict) and isinstance(over.value, dict):
        out = dict(base.value)
        for key, value in over.value.items():
            out[key] = merge(out.get(key), value)
        return _Located(out, over.path, over.line)
    return over


# ---------------------------------------------------------------------------- typing
def _fail(loc: _Located, message: str) -> ConfigError:
    return ConfigError(loc.path, loc.line, message)


def _type_name(value: Any) -> str:
    """What a value is, for messages that must never echo the value itself."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "text", list: "a list", dict: "a mapping", type(None): "empty"}.get(type(value), "another type")


def _expect_str(loc: _Located, name: str, *, optional: bool = False) -> str | None:
    if loc.value is None and optional:
        return None
    if not isinstance(loc.value, str) or not loc.value.strip():
        raise _fail(loc, f"{name} must be a non-empty string")
    return loc.value


def _expect_bool(loc: _Located, name: str) -> bool:
    if not isinstance(loc.value, bool):
        raise _fail(loc, f"{name} must be true or false, not {_type_name(loc.value)}")
    return loc.value


def _expect_int(loc: _Located, name: str, minimum: int, maximum: int) -> int:
    if isinstance(loc.value, bool) or not isinstance(loc.value, int):
        raise _fail(loc, f"{name} must be an integer, not {_type_name(loc.value)}")
    if loc.value < minimum:
        raise _fail(loc, f"{name} must be at least {minimum}")
    if loc.value > maximum:
        raise _fail(loc, f"{name} must be at most {maximum}")
    return loc.value


def _expect_number(loc: _Located, name: str) -> float:
    if isinstance(loc.value, bool) or not isinstance(loc.value, (int, float)):
        raise _fail(loc, f"{name} must be a positive number of seconds up to 3600, not {_type_name(loc.value)}")
    if not 0 < loc.value <= 3600:
        raise _fail(loc, f"{name} must be a positive number of seconds up to 3600")
    return float(loc.value)


def _model_entry(loc: _Located, where: str, warnings: list[str]) -> ModelEntry:
    if isinstance(loc.value, str):
        return ModelEntry(model=loc.value)
    if not isinstance(loc.value, dict):
        raise _fail(loc, f"{where} entries must be mappings with a 'model' key")
    fields: dict[str, _Located] = loc.value
    for name, value in fields.items():
        if name.lower() in LITERAL_KEY_FIELDS:
            raise _fail(value, f"{where}.{name}: a literal API key is not allowed in a config file; "
                               "set api_key_env to the NAME of an environment variable")
    if "model" not in fields:
        raise _fail(loc, f"{where} entry has no 'model'")
    kwargs: dict[str, Any] = {"model": _expect_str(fields["model"], f"{where}.model")}
    for name, value in fields.items():
        if name == "model":
            continue
        if name == "base_url":
            kwargs["base_url"] = _expect_str(value, f"{where}.base_url", optional=True)
        elif name == "api_key_env":
            kwargs["api_key_env"] = _env_name(value, f"{where}.api_key_env")
        elif name == "timeout":
            kwargs["timeout"] = _expect_number(value, f"{where}.timeout")
        elif name == "response_format":
            fmt = _expect_str(value, f"{where}.response_format")
            if fmt not in RESPONSE_FORMATS:
                raise _fail(value, f"{where}.response_format must be one of {', '.join(RESPONSE_FORMATS)}")
            kwargs["response_format"] = fmt
        elif name == "reasoning_effort":
            kwargs["reasoning_effort"] = _expect_str(value, f"{where}.reasoning_effort", optional=True)
        else:
            warnings.append(f"{value.path}:{value.line}: unknown key {where}.{name} (ignored)")
    return ModelEntry(**kwargs)


def _pool(loc: _Located, where: str, warnings: list[str]) -> tuple[ModelEntry, ...]:
    if loc.value is None:
        return ()
    if not isinstance(loc.value, list):
        raise _fail(loc, f"{where} must be a list of model entries")
    return tuple(_model_entry(item, f"{where}[{i}]", warnings) for i, item in enumerate(loc.value))


def _memory(loc: _Located, warnings: list[str]) -> MemoryConfig:
    if loc.value is None:
        return MemoryConfig()
    if not isinstance(loc.value, dict):
        raise _fail(loc, "memory must be a mapping")
    kwargs: dict[str, Any] = {}
    for name, value in loc.value.items():
        if name == "enabled":
            kwargs["enabled"] = _expect_bool(value, "memory.enabled")
        elif name == "model_pool":
            kwargs["model_pool"] = _pool(value, "memory.model_pool", warnings)
        elif name in BUDGET_LIMITS:
            kwargs[name] = _expect_int(value, f"memory.{name}", 200, BUDGET_LIMITS[name])
        elif name == "stale_after_days":
            kwargs[name] = _expect_int(value, "memory.stale_after_days", 1, 36500)
        elif name == "freeze_after_seconds":
            kwargs[name] = _expect_int(value, "memory.freeze_after_seconds", 1, 7 * 24 * 3600)
        elif name == "inject":
            mode = _expect_str(value, "memory.inject")
            if mode not in INJECT_MODES:
                raise _fail(value, f"memory.inject must be one of {', '.join(INJECT_MODES)}")
            kwargs[name] = mode
        elif name == "reviewed_base":
            base = _expect_str(value, "memory.reviewed_base", optional=True)
            if base is not None and (not BASE_NAME.match(base) or base.endswith((".lock", "/", "."))):
                raise _fail(value, "memory.reviewed_base must be a branch or ref name, such as origin/main")
            kwargs[name] = base
        elif name == "extraction":
            if not isinstance(value.value, dict):
                raise _fail(value, "memory.extraction must be a mapping (max_tokens_per_day, max_tokens_per_session)")
            for key, limit in value.value.items():
                if key in ("max_tokens_per_day", "max_tokens_per_session"):
                    kwargs[key] = None if limit.value is None else _expect_int(limit, f"memory.extraction.{key}",
                                                                                1, 10**12)
                else:
                    warnings.append(f"{limit.path}:{limit.line}: unknown key memory.extraction.{key} (ignored)")
        else:
            warnings.append(f"{value.path}:{value.line}: unknown key memory.{name} (ignored)")
    return MemoryConfig(**kwargs)


def build(located: _Located | None, sources: tuple[str, ...] = ()) -> Config:
    """Turn merged, located YAML into a typed Config (pure)."""
    if located is None:
        return Config(sources=sources)
    warnings: list[str] = []
    kwargs: dict[str, Any] = {}
    for name, value in located.value.items():
        if name == "model_pool":
            kwargs["model_pool"] = _pool(value, "model_pool", warnings)
        elif name == "reasoning_effort":
            kwargs["reasoning_effort"] = _expect_str(value, "reasoning_effort", optional=True)
        elif name == "memory":
            kwargs["memory"] = _memory(value, warnings)
        elif name.lower() in LITERAL_KEY_FIELDS:
            raise _fail(value, f"{name}: a literal API key is not allowed in a config file; "
                               "use api_key_env in a model_pool entry")
        else:
            warnings.append(f"{value.path}:{value.line}: unknown key {name} (ignored)")
    return Config(**kwargs, sources=sources, warnings=tuple(warnings))


def ci_detected(env: Mapping[str, str]) -> bool:
    """``CI``, ``GITHUB_ACTIONS`` or ``GITLAB_CI`` set to anything but empty, ``false`` or ``0``."""
    return any(env.get(name, "").strip().lower() not in ("", "false", "0") for name in CI_VARIABLES)


def inject_mode(cfg: Config, env: Mapping[str, str] | None = None) -> str:
    """``memory.inject`` in effect: as configured, else ``reviewed`` under CI and ``all`` elsewhere.

    CI is where an agent most often works on a branch nobody reviewed yet (a pull request from a
    fork), so there the session start recalls only what the base branch holds.
    """
    env = os.environ if env is None else env
    if cfg.memory.inject is not None:
        return cfg.memory.inject
    return INJECT_REVIEWED if ci_detected(env) else INJECT_ALL


def user_only(env: Mapping[str, str] | None = None) -> Config:
    """The user's own file alone (else the defaults): what a session start falls back to when the
    project file is refused. A project must not turn the user's ``memory.inject: reviewed`` off by
    shipping a config file the loader refuses."""
    try:
        return load(None, env)
    except ConfigError:
        return Config()


def _untrusted_view(project: _Located, base: Config,
                    env: Mapping[str, str] | None = None) -> tuple[_Located, list[str]]:
    """What an untrusted project file may still say: switch extraction on or off, narrow budgets,
    ask for ``memory.inject: reviewed``.

    Pools, endpoints and key variable names decide where session text and credentials go, and a
    larger budget sends more: those wait for ``git memory trust``. So does recall of memory nobody
    reviewed: ``memory.inject: all`` where the user's own setting (or CI) says ``reviewed``, and
    any ``memory.reviewed_base`` (a branch's file could name the branch itself as its base).
    """
    ignored: list[str] = []
    top: dict[str, _Located] = dict(project.value)
    for name in TRUSTED_ONLY:
        if top.pop(name, None) is not None:
            ignored.append(name)
    memory = top.get("memory")
    if memory is not None and isinstance(memory.value, dict):
        fields: dict[str, _Located] = dict(memory.value)
        if fields.pop("model_pool", None) is not None:
            ignored.append("memory.model_pool")
        for name in BUDGET_LIMITS:
            value = fields.get(name)
            if value is not None and isinstance(value.value, int) and value.value > getattr(base.memory, name):
                del fields[name]
                ignored.append(f"memory.{name} (larger than yours)")
        limits = fields.get("extraction")
        if limits is not None and isinstance(limits.value, dict):  # a token limit may only be lowered
            kept = {}
            for key, value in limits.value.items():
                mine = getattr(base.memory, key, None)
                if mine is not None and not (isinstance(value.value, int) and value.value <= mine):
                    ignored.append(f"memory.extraction.{key} (larger than yours)")
                    continue
                kept[key] = value
            fields["extraction"] = _Located(kept, limits.path, limits.line)
        inject = fields.get("inject")
        if (inject is not None and inject.value == INJECT_ALL
                and inject_mode(base, os.environ if env is None else env) != INJECT_ALL):
            del fields["inject"]
            ignored.append("memory.inject: all (looser than yours)")
        if fields.pop("reviewed_base", None) is not None:
            ignored.append("memory.reviewed_base")
        top["memory"] = _Located(fields, memory.path, memory.line)
    return _Located(top, project.path, project.line), ignored


def problem(path: Path | str, raw: bytes) -> ConfigError | None:
    """What loading this config file on its own would refuse, or None (``check`` reports it)."""
    try:
        build(parse_bytes(path, raw))
    except ConfigError as exc:
        return exc
    return None


def load(root: Path | None, env: Mapping[str, str] | None = None) -> Config:
    """Read the user file, overlay the project file (as far as it is trusted), type-check the result."""
    from chord_git.memory import paths

    user_path = user_config_path(env)
    user = load_file(user_path)
    sources = [str(user_path)] if user is not None else []
    if root is None:
        return build(user, tuple(sources))
    path = project_config_path(root)
    try:
        raw = paths.read_inside(root, path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return build(user, tuple(sources))
    except paths.UnsafePath as exc:
        cfg = build(user, tuple(sources))
        return replace(cfg, warnings=(*cfg.warnings, f"{exc} (project config ignored)"))
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read config: {exc.strerror}") from None
    project = parse_bytes(path, raw)
    if project is None:
        return replace(build(user, tuple(sources)), project_file=str(path))
    build(project)  # the file on its own: types and literal keys are refused even where ignored
    from chord_git import config_trust  # hashes and JSON: only for a project that has a config file

    trusted = config_trust.is_trusted(path, raw, env)
    ignored: list[str] = []
    if not trusted:
        project, ignored = _untrusted_view(project, build(user), env)
    cfg = build(merge(user, project), (*sources, str(path)))
    warnings = cfg.warnings
    if ignored:
        warnings += (f"{path}: not trusted, so ignored: {', '.join(ignored)}; "
                     "run `git memory trust` to allow this file",)
    return replace(cfg, warnings=warnings, project_file=str(path), project_trusted=trusted,
                   ignored=tuple(ignored))
