"""Layered YAML config (R6): the project's ``.chord/config.yaml`` over the user's file, key by key.

Every value keeps the file and line it came from (``_Located``) and is type-checked by the reader
of its key (``build``, ``_memory``, ``_model_entry``), so every refusal can name the file and the
line. Lists (model pools) are replaced whole, mappings are merged.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chord_git.errors import ConfigError

ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Field names that can only hold a credential; a config file must name a variable instead.
LITERAL_KEY_FIELDS = frozenset({"api_key", "apikey", "key", "token", "secret", "password", "bearer"})
RESPONSE_FORMATS = ("json_schema", "json_object", "none")
EXTRACTION_OFF = "memory extraction is off (memory.enabled is false)"  # R6, R7: what each command says
OFF_MESSAGE = f"{EXTRACTION_OFF}: nothing sent, nothing written"


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


@dataclass(frozen=True)
class Config:
    model_pool: tuple[ModelEntry, ...] = ()
    reasoning_effort: str | None = None
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    sources: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def dedicated_pool(self) -> bool:
        """R16: a dedicated memory pool runs while the agent works and is never preempted."""
        return bool(self.memory.model_pool)

    @property
    def extraction_pool(self) -> tuple[ModelEntry, ...]:
        return self.memory.model_pool or self.model_pool


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


def _to_located(node: Any, path: str) -> Any:
    import yaml

    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, _Located] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise ConfigError(path, key_node.start_mark.line + 1, "mapping keys must be plain names")
            key = str(key_node.value)
            if key in out:
                raise ConfigError(path, key_node.start_mark.line + 1, f"duplicate key {key!r}")
            out[key] = _to_located(value_node, path)
        return _Located(out, path, line)
    if isinstance(node, yaml.SequenceNode):
        return _Located([_to_located(item, path) for item in node.value], path, line)
    return _Located(_resolve_scalar(node), path, line)


def _resolve_scalar(node: Any) -> Any:
    import yaml

    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def load_file(path: Path) -> _Located | None:
    """Parse one config file into located values; a missing file is simply absent."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read config: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(path, line, "config is not valid UTF-8") from None
    import yaml  # deferred: most sessions have no config file at all

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ConfigError(path, mark.line + 1 if mark else None, f"invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(path, None, f"invalid YAML: {exc}") from None
    if node is None:
        return None
    located: _Located = _to_located(node, str(path))
    if not isinstance(located.value, dict):
        raise ConfigError(path, located.line, "config must be a mapping of keys")
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


def _expect_str(loc: _Located, name: str, *, optional: bool = False) -> str | None:
    if loc.value is None and optional:
        return None
    if not isinstance(loc.value, str) or not loc.value.strip():
        raise _fail(loc, f"{name} must be a non-empty string")
    return loc.value


def _expect_bool(loc: _Located, name: str) -> bool:
    if not isinstance(loc.value, bool):
        raise _fail(loc, f"{name} must be true or false, not {loc.value!r}")
    return loc.value


def _expect_int(loc: _Located, name: str, minimum: int) -> int:
    if isinstance(loc.value, bool) or not isinstance(loc.value, int):
        raise _fail(loc, f"{name} must be an integer, not {loc.value!r}")
    if loc.value < minimum:
        raise _fail(loc, f"{name} must be at least {minimum}")
    return loc.value


def _expect_number(loc: _Located, name: str) -> float:
    if isinstance(loc.value, bool) or not isinstance(loc.value, (int, float)) or loc.value <= 0:
        raise _fail(loc, f"{name} must be a positive number, not {loc.value!r}")
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
            env_name = _expect_str(value, f"{where}.api_key_env", optional=True)
            if env_name is not None and not ENV_NAME.match(env_name):
                raise _fail(value, f"{where}.api_key_env must be the NAME of an environment variable "
                                   "(a literal API key is not allowed in a config file)")
            kwargs["api_key_env"] = env_name
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
        elif name in ("summary_budget", "agents_md_budget", "transcript_budget"):
            kwargs[name] = _expect_int(value, f"memory.{name}", 200)
        elif name == "stale_after_days":
            kwargs[name] = _expect_int(value, "memory.stale_after_days", 1)
        elif name == "freeze_after_seconds":
            kwargs[name] = _expect_int(value, "memory.freeze_after_seconds", 1)
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


def load(root: Path | None, env: Mapping[str, str] | None = None) -> Config:
    """Read the user file, overlay the project file, and type-check the result."""
    paths = [user_config_path(env)]
    if root is not None:
        paths.append(project_config_path(root))
    merged: _Located | None = None
    sources: list[str] = []
    for path in paths:
        located = load_file(path)
        if located is not None:
            sources.append(str(path))
            merged = merge(merged, located)
    return build(merged, tuple(sources))
