"""The real agent CLIs for end-to-end tests: pinned, installed once, run offline.

The two npm packages are installed into a cache outside the work tree and reused across runs:
``$CHORD_AGENT_HOSTS_CACHE``, else ``${XDG_CACHE_HOME:-$HOME/.cache}/chord-git/agent-hosts/<versions>``.
The path is resolved when this module is imported, i.e. before tests switch HOME to a private
folder. Every install goes through ``_install``: it takes a lock, builds in a temporary folder and
renames it into place, so parallel runs and an interrupted install never leave a half-installed
cache behind.

    python -m testing.agent_hosts      # install (if needed) and print the versions

The hosts added later (``MORE``: Gemini CLI, Qwen Code, Copilot CLI) each have their own folder
next to that one, ``<package>-<version>``, installed the same way (``ensure_package``).

Both CLIs are then pointed at loopback model servers (``fake_anthropic``, ``fake_responses``) with
HOME and CODEX_HOME in temporary folders: nothing leaves the machine.

pi and OpenCode, the hosts that load a plugin file, have a cache of their own next to it
(``ensure_plugin_hosts``), the same way; it also holds a copy of the package OpenCode would
otherwise fetch from the registry on its first start. Both talk to ``fake_chat``.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

CLAUDE_CODE_VERSION = "2.1.197"
CODEX_VERSION = "0.169.0"
PACKAGES = (f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}", f"@openai/codex@{CODEX_VERSION}")
CACHE_ENV = "CHORD_AGENT_HOSTS_CACHE"
INSTALL_TIMEOUT = 900


class Unavailable(RuntimeError):
    """The CLIs cannot be installed here (no npm, or the install failed); the message says why."""


def default_cache(env: Mapping[str, str] = os.environ) -> Path:
    if env.get(CACHE_ENV):
        return Path(env[CACHE_ENV])
    base = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else Path(env.get("HOME") or "~").expanduser() / ".cache"
    return base / "chord-git" / "agent-hosts" / f"claude-code-{CLAUDE_CODE_VERSION}_codex-{CODEX_VERSION}"


# Resolved at import, with the real HOME: the tests' private HOME must not hold a 600 MB cache.
CACHE = default_cache()
_INSTALL_ENV = dict(os.environ)


@dataclass(frozen=True)
class _Step:
    """One ``npm install`` of a build: into ``folder`` (relative to the build), these packages."""

    packages: tuple[str, ...]
    folder: str = "."
    save: bool = False  # keep package.json and package-lock.json (a folder copied for a CLI to use)


def _install(target: Path, steps: Sequence[_Step], ready: Callable[[Path], bool], log: Callable[[str], None],
             *, needed_by: str = "the real-CLI tests", finish: Callable[[Path], None] = lambda _p: None,
             then: Callable[[Path], object] = lambda _p: None) -> None:
    """Install ``steps`` into ``target`` unless ``ready(target)``, the one way every CLI is installed:
    under a lock beside it (parallel test workers share the cache), built in a temporary folder
    (``finish`` completes it) and renamed into place, so that an interrupted or failed install
    leaves nothing behind. ``then`` runs on the installed folder, still under the lock."""
    npm = shutil.which("npm", path=_INSTALL_ENV.get("PATH"))
    if npm is None:
        raise Unavailable(f"npm is not installed: {needed_by} need Node.js and npm")
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another run may be installing the same versions
        if not ready(target):
            building = target.with_name(f"{target.name}.partial-{os.getpid()}")
            shutil.rmtree(building, ignore_errors=True)
            try:
                for step in steps:
                    prefix = building / step.folder
                    prefix.mkdir(parents=True, exist_ok=True)
                    log(f"installing {' '.join(step.packages)} into {target / step.folder}")
                    done = subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                                           *(() if step.save else ("--no-save",)), "--loglevel=error", *step.packages],
                                          env=_INSTALL_ENV, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
                    if done.returncode != 0:
                        raise Unavailable(f"npm install {' '.join(step.packages)} failed ({done.returncode}): "
                                          f"{done.stderr.strip()[-2000:]}")
                finish(building)
            except BaseException:
                shutil.rmtree(building, ignore_errors=True)
                raise
            shutil.rmtree(target, ignore_errors=True)
            os.rename(building, target)
        then(target)


@dataclass(frozen=True)
class HostBins:
    claude: Path
    codex: Path


def bins(cache: Path = CACHE) -> HostBins:
    return HostBins(claude=cache / "node_modules" / ".bin" / "claude", codex=cache / "node_modules" / ".bin" / "codex")


def _version(binary: Path) -> str:
    """What ``--version`` printed, on either stream (pi writes it to stderr)."""
    try:
        done = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (done.stdout + done.stderr).strip() if done.returncode == 0 else ""


def works(found: HostBins) -> bool:
    return CLAUDE_CODE_VERSION in _version(found.claude) and CODEX_VERSION in _version(found.codex)


def ensure(cache: Path = CACHE, log: Callable[[str], None] = lambda _t: None) -> HostBins:
    """The pinned CLIs, installed into ``cache`` first if they are not there yet."""
    found = bins(cache)
    if not works(found):
        _install(cache, [_Step(PACKAGES)], lambda _c: works(found), log, finish=_finish_claude)
    if not works(found):
        raise Unavailable(f"installed, but `claude --version` / `codex --version` do not report "
                          f"{CLAUDE_CODE_VERSION} / {CODEX_VERSION} (cache: {cache})")
    return found


def _finish_claude(prefix: Path) -> None:
    """npm may skip install scripts; Claude Code's copies the native binary over a placeholder."""
    if CLAUDE_CODE_VERSION in _version(bins(prefix).claude):
        return
    package = prefix / "node_modules" / "@anthropic-ai" / "claude-code"
    node = shutil.which("node", path=_INSTALL_ENV.get("PATH")) or "node"
    subprocess.run([node, "install.cjs"], cwd=package, env=_INSTALL_ENV, capture_output=True, timeout=300)


# ---------------------------------------------------------------------------- running them
def claude_env(base: Mapping[str, str], model_url: str) -> dict[str, str]:
    """Claude Code against a loopback Messages API, with nothing else leaving the machine."""
    env = dict(base)
    env.update(ANTHROPIC_BASE_URL=model_url, ANTHROPIC_API_KEY="sk-ant-loopback", DISABLE_TELEMETRY="1",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", DISABLE_ERROR_REPORTING="1")
    env.pop("CLAUDE_CONFIG_DIR", None)
    return env


def codex_env(base: Mapping[str, str], codex_home: Path, model_url: str, trusted: Path) -> dict[str, str]:
    """Codex with a loopback Responses API provider in a private CODEX_HOME; ``trusted`` is the project."""
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        'model = "loopback-model"\nmodel_provider = "loopback"\n\n'
        "[model_providers.loopback]\n"
        'name = "loopback"\n'
        f'base_url = "{model_url}/v1"\n'
        'wire_api = "responses"\n'
        'env_key = "LOOPBACK_API_KEY"\n\n'
        f'[projects."{trusted}"]\n'
        'trust_level = "trusted"\n', encoding="utf-8")
    env = dict(base)
    env.update(CODEX_HOME=str(codex_home), LOOPBACK_API_KEY="loopback")
    env.pop("OPENAI_API_KEY", None)
    return env





# ---------------------------------------------------------------------------- pi and OpenCode
# Hosts that load a plugin file rather than run command hooks; one cache of their own, so that
# either set of pins can change without reinstalling the other.
PI_VERSION = "0.73.1"
OPENCODE_VERSION = "1.18.33"
PLUGIN_HOST_PACKAGES = (f"@mariozechner/pi-coding-agent@{PI_VERSION}", f"opencode-ai@{OPENCODE_VERSION}")
# OpenCode installs this into every config folder (``~/.config/opencode``, ``<project>/.opencode``)
# before its first turn, from the registry; a copy of it made here lets the tests run offline.
OPENCODE_PLUGIN_PACKAGE = f"@opencode-ai/plugin@{OPENCODE_VERSION}"


def plugin_hosts_cache(env: Mapping[str, str] = os.environ) -> Path:
    """Next to the Claude Code and Codex cache, named after these two versions."""
    return default_cache(env).with_name(f"pi-{PI_VERSION}_opencode-{OPENCODE_VERSION}")


PLUGIN_HOSTS_CACHE = plugin_hosts_cache()


@dataclass(frozen=True)
class PluginHostBins:
    pi: Path
    opencode: Path
    opencode_deps: Path   # package.json, package-lock.json and node_modules of OpenCode's plugin package


def plugin_host_bins(cache: Path = PLUGIN_HOSTS_CACHE) -> PluginHostBins:
    bin_dir = cache / "node_modules" / ".bin"
    return PluginHostBins(pi=bin_dir / "pi", opencode=bin_dir / "opencode", opencode_deps=cache / "opencode-deps")


def plugin_hosts_work(found: PluginHostBins) -> bool:
    return (PI_VERSION in _version(found.pi) and OPENCODE_VERSION in _version(found.opencode)
            and (found.opencode_deps / "node_modules" / "@opencode-ai" / "plugin" / "package.json").is_file())


def ensure_plugin_hosts(cache: Path = PLUGIN_HOSTS_CACHE, log: Callable[[str], None] = lambda _t: None) -> PluginHostBins:
    """pi and OpenCode, pinned, installed into ``cache`` first if they are not there yet."""
    found = plugin_host_bins(cache)
    if not plugin_hosts_work(found):
        _install(cache, [_Step(PLUGIN_HOST_PACKAGES, save=True), _Step((OPENCODE_PLUGIN_PACKAGE,), "opencode-deps", save=True)],
                 lambda _c: plugin_hosts_work(found), log)
    if not plugin_hosts_work(found):
        raise Unavailable(f"installed, but `pi --version` / `opencode --version` do not report "
                          f"{PI_VERSION} / {OPENCODE_VERSION} (cache: {cache})")
    return found


def pi_env(base: Mapping[str, str], agent_dir: Path, model_url: str) -> dict[str, str]:
    """pi against a loopback Chat Completions provider, with its config and sessions in ``agent_dir``."""
    agent_dir.mkdir(parents=True, exist_ok=True)
    provider = {"baseUrl": f"{model_url}/v1", "api": "openai-completions", "apiKey": "LOOPBACK_API_KEY",
                "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
                "models": [{"id": "fake-model"}]}
    (agent_dir / "models.json").write_text(json.dumps({"providers": {"loopback": provider}}), encoding="utf-8")
    (agent_dir / "settings.json").write_text(
        json.dumps({"defaultProvider": "loopback", "defaultModel": "fake-model"}), encoding="utf-8")
    env = dict(base)
    env.update(PI_CODING_AGENT_DIR=str(agent_dir), LOOPBACK_API_KEY="loopback", PI_OFFLINE="1",
               PI_SKIP_VERSION_CHECK="1", PI_TELEMETRY="0")
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    return env


# ---------------------------------------------------------------------------- more hosts
@dataclass(frozen=True)
class Package:
    """One more host's CLI, pinned, in its own cache folder next to the two above."""

    npm: str      # the package name
    version: str
    bin: str      # the command it installs
    slug: str     # the cache folder's name, before the version

    @property
    def spec(self) -> str:
        return f"{self.npm}@{self.version}"


GEMINI = Package("@google/gemini-cli", "0.61.0", "gemini", "gemini-cli")
QWEN = Package("@qwen-code/qwen-code", "0.24.4", "qwen", "qwen-code")
COPILOT = Package("@github/copilot", "1.0.102", "copilot", "copilot")
MORE = (GEMINI, QWEN, COPILOT)


def package_cache(package: Package, cache: Path = CACHE) -> Path:
    return cache.parent / f"{package.slug}-{package.version}"


def installed_version(package: Package, prefix: Path) -> str:
    """The version npm installed under ``prefix`` (read from its package.json: some of these CLIs
    take seconds to start, and only to print it)."""
    import json

    try:
        data = json.loads((prefix / "node_modules" / package.npm / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    found = data.get("version") if isinstance(data, dict) else None
    return found if isinstance(found, str) and (prefix / "node_modules" / ".bin" / package.bin).exists() else ""


def ensure_package(package: Package, cache: Path = CACHE, log: Callable[[str], None] = lambda _t: None) -> Path:
    """The pinned CLI's command, installed into its cache folder first if it is not there yet."""
    target = package_cache(package, cache)
    binary = target / "node_modules" / ".bin" / package.bin
    if installed_version(package, target) == package.version and _warm(package, target):
        return binary
    _install(target, [_Step((package.spec,))], lambda t: installed_version(package, t) == package.version, log,
             needed_by=f"the real-CLI tests of {package.bin}", then=lambda t: _warm(package, t, start=True))
    if installed_version(package, target) != package.version:
        raise Unavailable(f"installed, but {package.spec} is not in {target}")
    return binary


def _warm(package: Package, target: Path, *, start: bool = False) -> bool:
    """Whether the CLI is ready to run; with ``start``, make it so (called under the install lock).

    Copilot CLI unpacks a 235 MB package on its first start: done once here, so that parallel
    tests do not unpack it into the shared cache at the same time.
    """
    if package is not COPILOT:
        return True
    unpacked = target / "xdg-cache" / "copilot" / "pkg"
    if unpacked.is_dir() or not start:
        return unpacked.is_dir()
    env = dict(_INSTALL_ENV, XDG_CACHE_HOME=str(target / "xdg-cache"), COPILOT_OFFLINE="true",
               COPILOT_AUTO_UPDATE="false")
    subprocess.run([str(target / "node_modules" / ".bin" / package.bin), "--version"], env=env,
                   capture_output=True, timeout=INSTALL_TIMEOUT, stdin=subprocess.DEVNULL)
    return unpacked.is_dir()


def gemini_env(base: Mapping[str, str], home: Path, model_url: str) -> dict[str, str]:
    """Gemini CLI with API-key auth against a loopback Gemini API, in a private home.

    Folder trust is given by the environment variable, as in CI (``--skip-trust`` would load no
    project hooks); usage statistics, telemetry, update checks and the IDE link are off.
    """
    import json

    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        "telemetry": {"enabled": False}, "ide": {"enabled": False}}), encoding="utf-8")
    env = dict(base)
    env.update(GEMINI_CLI_HOME=str(home), GEMINI_API_KEY="loopback", GOOGLE_GEMINI_BASE_URL=model_url,
               GEMINI_CLI_TRUST_WORKSPACE="true", TERM="dumb")
    for key in ("GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_GENAI_USE_VERTEXAI"):
        env.pop(key, None)
    return env


def qwen_env(base: Mapping[str, str], home: Path, model_url: str) -> dict[str, str]:
    """Qwen Code against a loopback Chat Completions API; ``home`` is the HOME it runs with.

    Its own memory features (a second model request after every turn that writes a memory of its
    own) are off, as are usage statistics, telemetry and update checks.
    """
    import json

    (home / ".qwen").mkdir(parents=True, exist_ok=True)
    (home / ".qwen" / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "openai"}}, "model": {"name": "loopback-model"},
        "privacy": {"usageStatisticsEnabled": False}, "general": {"enableAutoUpdate": False},
        "telemetry": {"enabled": False},
        "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False, "enableAutoSkill": False}}),
        encoding="utf-8")
    env = dict(base)
    env.update(HOME=str(home), OPENAI_API_KEY="loopback", OPENAI_BASE_URL=f"{model_url}/v1",
               OPENAI_MODEL="loopback-model", TERM="dumb")
    return env


def copilot_env(base: Mapping[str, str], copilot_home: Path, model_url: str) -> dict[str, str]:
    """Copilot CLI with a custom provider (no GitHub login) against a loopback Chat Completions API.

    ``COPILOT_OFFLINE`` keeps it from looking up GitHub; ``COPILOT_ALLOW_ALL`` stands in for the
    person who trusts the folder (and its hooks) once. The 235 MB package the CLI unpacks on its
    first start goes to a cache next to the install, not into each test's home.
    """
    env = dict(base)
    env.update(COPILOT_HOME=str(copilot_home), XDG_CACHE_HOME=str(package_cache(COPILOT) / "xdg-cache"),
               COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=f"{model_url}/v1",
               COPILOT_PROVIDER_API_KEY="loopback", COPILOT_MODEL="loopback-model", COPILOT_AUTO_UPDATE="false",
               COPILOT_ALLOW_ALL="true")
    for key in ("GH_TOKEN", "GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN"):
        env.pop(key, None)
    return env


def main() -> int:
    try:
        found = ensure(log=lambda text: print(text, file=sys.stderr))
        more = ensure_plugin_hosts(log=lambda text: print(text, file=sys.stderr))
    except Unavailable as exc:
        print(f"agent hosts unavailable: {exc}", file=sys.stderr)
        return 1
    for binary in (found.claude, found.codex, more.pi, more.opencode):
        print(_version(binary))
    for package in MORE:
        try:
            ensure_package(package, log=lambda text: print(text, file=sys.stderr))
        except Unavailable as exc:
            print(f"agent hosts unavailable: {exc}", file=sys.stderr)
            return 1
        print(f"{package.bin} {package.version}")
    return 0



def opencode_env(base: Mapping[str, str], project: Path, data_home: Path, model_url: str) -> dict[str, str]:
    """OpenCode in ``project`` against a loopback Chat Completions provider
    (``$XDG_CONFIG_HOME/opencode/opencode.json``), with its database under ``data_home`` and no
    registry, model list, update or share traffic."""
    env = dict(base)
    env["PWD"] = str(project)  # OpenCode takes its directory from PWD, not from the process's cwd
    config = Path(env["XDG_CONFIG_HOME"]) / "opencode"
    config.mkdir(parents=True, exist_ok=True)
    provider = {"npm": "@ai-sdk/openai-compatible", "name": "Loopback",
                "options": {"baseURL": f"{model_url}/v1", "apiKey": "loopback"},
                "models": {"fake-model": {"name": "Fake model", "limit": {"context": 128000, "output": 4096}}}}
    (config / "opencode.json").write_text(json.dumps(
        {"model": "loopback/fake-model", "small_model": "loopback/fake-model", "autoupdate": False,
         "share": "disabled", "provider": {"loopback": provider}}), encoding="utf-8")
    env.update(XDG_DATA_HOME=str(data_home / "data"), XDG_CACHE_HOME=str(data_home / "cache"),
               OPENCODE_DISABLE_MODELS_FETCH="1", OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_SHARE="1",
               OPENCODE_DISABLE_LSP_DOWNLOAD="1", npm_config_registry="http://127.0.0.1:9/")
    return env


def seed_opencode_deps(config_dir: Path, found: PluginHostBins) -> None:
    """What OpenCode would npm-install into a config folder on its first start, from the cache:
    the manifest, the lock file and a link to the installed packages."""
    config_dir.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(found.opencode_deps / name, config_dir / name)
    if not (config_dir / "node_modules").exists():
        (config_dir / "node_modules").symlink_to(found.opencode_deps / "node_modules")


if __name__ == "__main__":
    raise SystemExit(main())
