"""Text patterns memory must not carry (R3, R18, R23), shared by ``check`` and extraction guards.

Every pattern is linear (no nested quantifiers) because memory text is untrusted input.
"""
from __future__ import annotations

import ipaddress
import re

from chord_git.support.regex_lazy import lazy

# Lookbehinds are ASCII-only on purpose: Unicode \w would match CJK text written right before a
# path ("代码在/Users/li/src"). Roots that only ever name a machine's own layout; API routes such as /v1/chat stay legal.
_POSIX_ROOTS = (
    "home|Users|root|usr|etc|var|tmp|opt|mnt|media|srv|run|private|Volumes|Library|Applications|"
    "System|nix|snap|proc|dev|sys|bin|sbin|lib|lib64|workspace|workspaces|builds|cygdrive|data|mnt|"
    # container, CI and shared-machine roots: where a checkout lives on one machine, not in the project
    # (not src, build, docs or lib-like names that projects also write root-relative: /src/main.py)
    "app|apps|code|work|go|repo|repos|project|projects|ws|github|gitlab|runner|agent|scratch|"
    "shared|net|afs|nfs|export|exports|volume|volumes|storage|jenkins|teamcity|buildkite|azp|vsts|"
    "persist|efs|gpfs|lustre"
)
ABSOLUTE_PATH = lazy(
    r"(?:(?<![A-Za-z0-9_.~/\\:-])/(?:" + _POSIX_ROOTS + r")(?:/[^\s/`'\")\]>]+)+/?)"  # /home/ana/src
    r"|(?:(?<![A-Za-z0-9_])[A-Za-z]:[\\/][^\s`'\")\]>]*)"  # C:\Users\ana, D:/work
    r"|(?:(?<![A-Za-z0-9_\\])\\\\[\w.$-]+\\[^\s`'\")\]>]+)"  # \\server\share
    r"|(?:(?<![A-Za-z0-9_/])~[\w.-]*/[^\s`'\")\]>]*)"  # ~/src, ~ana/src
    # file: URLs in every spelling (file:/x, file://host/x, file:///x) and editors' links to a file
    r"|(?:\bfile:/[^\s`'\")\]>]+)"
    r"|(?:\b(?:vscode|vscode-insiders|cursor|windsurf|zed|idea|jetbrains|subl|txmt|mvim)://file/[^\s`'\")\]>]+)"
    # $HOME/x, ${HOME}/x, $USERPROFILE\x, %USERPROFILE%\x, %APPDATA%/x: a machine's directories by name
    r"|(?:(?<![A-Za-z0-9_$])\$\{?(?:HOME|USER|USERPROFILE|HOMEPATH|HOMEDRIVE|TMPDIR|TMP|TEMP|PWD|OLDPWD|"
    r"APPDATA|LOCALAPPDATA|PROGRAMDATA|XDG_[A-Z_]+|GOPATH|GOROOT|CARGO_HOME|RUSTUP_HOME|CONDA_PREFIX|"
    r"VIRTUAL_ENV|JAVA_HOME|ANDROID_HOME|ANDROID_SDK_ROOT|NVM_DIR|PYENV_ROOT|RUNNER_TEMP|RUNNER_WORKSPACE|"
    r"GITHUB_WORKSPACE|CI_PROJECT_DIR|WORKSPACE|BUILD_SOURCESDIRECTORY)\}?[\\/][^\s`'\")\]>]*)"
    r"|(?:(?<![A-Za-z0-9_%])%[A-Za-z_][A-Za-z0-9_]{1,30}%[\\/][^\s`'\")\]>]*)"
)


_ROOT_NAMES = frozenset(_POSIX_ROOTS.split("|"))
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_ASCII_WORD = _ASCII_LETTERS | frozenset("0123456789_")
_NOT_BEFORE_ROOT = _ASCII_WORD | frozenset(".~/\\:-")  # the pattern's look-behind


def may_hold_absolute_path(text: str) -> bool:
    """Whether ``ABSOLUTE_PATH`` could match ``text``, by plain string tests: the pattern is large
    to compile, and most texts (URLs and repository paths included) settle here without it."""
    if "\\" in text or "~" in text or "$" in text or "%" in text or "file:" in text or "://file/" in text:
        return True  # shares, backslash drives, ~/, $HOME/, %APPDATA%\, file:///
    if "/" not in text:
        return False
    parts = text.split("/")
    for index, part in enumerate(parts[:-1]):
        if index and part in _ROOT_NAMES and (parts[index - 1][-1:] or "/" * (index > 1)) not in _NOT_BEFORE_ROOT:
            return True  # /home/...: a machine root between two slashes, not inside a path (src/app/x)
        if (len(part) >= 2 and part[-1] == ":" and part[-2] in _ASCII_LETTERS
                and (len(part) == 2 or part[-3] not in _ASCII_WORD)):
            return True  # C:/...: a lone drive letter right before a slash
    return False


def absolute_paths(text: str) -> list[tuple[int, int]]:
    """Spans of absolute paths (POSIX machine roots, Windows drives and shares, ``~/``)."""
    if not may_hold_absolute_path(text):
        return []
    return [match.span() for match in ABSOLUTE_PATH.finditer(text)]


# ---------------------------------------------------------------------------- extraction guards
# R23: commit SHAs. Candidates are whole hex words (ASCII word boundaries, so CJK text right
# before or after still counts as a boundary); a word needs a digit and a letter to be a SHA, so
# "deadbeef", "2026011512" and record ids (whose hex part is four characters) are left alone.
_HEX_WORD = lazy(r"(?<![0-9A-Za-z_])[0-9A-Fa-f]{7,40}(?![0-9A-Za-z_])")


def commit_shas(text: str) -> list[tuple[int, int]]:
    """Spans of hex words of 7 to 40 characters holding at least one digit and one letter."""
    spans = []
    for match in _HEX_WORD.finditer(text):
        word = match.group()
        if any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word):
            spans.append(match.span())
    return spans


# R19: names of machines on a private network. A name starts where no dot, letter, digit or
# hyphen precedes it (so each dotted name is tried once: linear), and must not run on into a
# longer name (``app.local.example.com``), an identifier (``billing.internal_api``), a call
# (``Path.home()``) or a file name (``settings.local.json``). Dotfiles such as ``.env.local`` never
# match because a name cannot start with a dot. The suffixes are the names reserved for private use
# (``.internal``, ``.home.arpa``) and those that networks use as if they were (``nas.home``,
# ``printer.corp``).
_PRIVATE_SUFFIXES = r"local|lan|internal|intranet|intra|localdomain|home\.arpa|home|corp|onprem|mgmt"
_NAME_END = r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9]|\()"
_HOST = lazy(
    r"(?<![A-Za-z0-9.-])(?:[A-Za-z0-9][A-Za-z0-9-]{0,62}\.)+(?:" + _PRIVATE_SUFFIXES + r")" + _NAME_END,
    re.IGNORECASE,
)
# Environment names used as a last label (``db.prod``, ``redis.staging:6379``) are machines only in
# a machine's position: after a scheme or ``user@``, before a port, or after a role word (``db``,
# ``nas``, ``redis``): ``config.prod`` or ``pipeline.stage`` in code stay legal.
# (Not ``dev``, ``int``, ``qa`` or ``test``: public or reserved-for-examples suffixes, as in ``vitest.dev``.)
_ENV_SUFFIXES = r"prod|production|staging|stage|stg|preprod|uat|priv|private|office|vpn|infra"
_ROLES = (r"db|database|nas|printer|git|gitlab|gitea|jenkins|ci|build|builder|runner|registry|artifactory|nexus|"
          r"redis|postgres|pg|mysql|mariadb|mongo|mongodb|kafka|rabbit|rabbitmq|mq|elastic|es|search|cache|"
          r"memcached|vault|consul|ldap|ad|dc|dns|ns|mail|smtp|imap|proxy|gateway|gw|lb|router|fw|firewall|"
          r"files|fileserver|fs|nfs|smb|backup|storage|s3|minio|wiki|jira|confluence|grafana|prometheus|kibana|"
          r"sentry|k8s|kube|api|web|app|www|bastion|jump|jumpbox|vpn|sftp|ftp|ssh|gpu|worker|scheduler|airflow")
_ENV_HOST = lazy(
    r"(?:(?<=://)|(?<=@))(?:[A-Za-z0-9][A-Za-z0-9-]{0,62}\.)+(?:" + _ENV_SUFFIXES + r")" + _NAME_END
    + r"|(?<![A-Za-z0-9.-])(?:[A-Za-z0-9][A-Za-z0-9-]{0,62}\.)+(?:" + _ENV_SUFFIXES + r"):\d{2,5}\b"
    + r"|(?<![A-Za-z0-9.-])(?:" + _ROLES + r")(?:[-_]?\d+)?(?:\.[A-Za-z0-9][A-Za-z0-9-]{0,62})*\.(?:"
    + _ENV_SUFFIXES + r"|int|qa)" + _NAME_END,
    re.IGNORECASE,
)
# One machine without a domain: any ``user@name`` given to ssh, scp, rsync and friends, or a role
# word with a number (``deploy@build01``, ``nas01``, ``db-02``). Versions and tags such as
# ``node18``, ``pg15``, ``vue@alpha`` or ``image@sha256`` are not roles here, so they stay legal.
_MACHINE_ROLES = (r"nas|db|srv|server|host|vm|box|build|builder|web|gpu|printer|jenkins|runner|worker|bastion|jump|"
                  r"dc|ns|mx|proxy|lb|rack|san|backup|fileserver|ci|deploy|prod|staging|dev|app")
_BARE_HOST = lazy(
    r"(?<![\w-])(?:ssh|scp|sftp|rsync|mosh|ssh-copy-id|sshfs)(?=\s)[^\n@]{0,80}?(?<![A-Za-z0-9_.-])"
    r"(?P<target>[A-Za-z_][A-Za-z0-9_.-]{0,31}@[A-Za-z][A-Za-z0-9-]{0,62})(?![A-Za-z0-9.@-]|\.[A-Za-z0-9])"
    r"|(?<![A-Za-z0-9_.-])(?:[A-Za-z_][A-Za-z0-9_.-]{0,31}@)?(?:" + _MACHINE_ROLES + r")[-_]?\d{2,}"
    r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9])",
    re.IGNORECASE,
)
# Reverse-DNS package names (``com.acme.billing.internal``) are code, not machines.
_PACKAGE_ROOTS = frozenset({"com", "org", "net", "io", "dev", "edu", "gov", "java", "javax", "android", "kotlin"})


# Any dotted name of three or more labels, to look at label by label: machines inside a company
# network live under its public domain (``db01.corp.acme.com``, ``ci.internal.acme.com``).
_DOTTED = lazy(r"(?<![A-Za-z0-9.@/-])(?:[A-Za-z0-9][A-Za-z0-9-]{0,62}\.){2,}[A-Za-z][A-Za-z0-9-]{1,62}"
                     r"(?![A-Za-z0-9-]|\.[A-Za-z0-9])")
_INTERNAL_LABELS = frozenset({"corp", "internal", "intra", "intranet", "lan", "local", "localdomain", "priv",
                              "private", "office", "vpn", "mgmt", "infra", "int", "ad", "onprem", "on-prem"})
# A first label that names one machine: db01, web-03, gpu-node-7, ip-10-0-0-1, build42.
_MACHINE_LABEL = lazy(r"^(?:[a-z]+[-_]?\d{2,}|[a-z]+(?:-[a-z]+)*-\d+|ip(?:-\d{1,3}){4})$", re.IGNORECASE)
# File names with dotted extensions are not hosts (``app.config.json``, ``docker.compose.yml``).
_FILE_SUFFIXES = frozenset({"json", "yml", "yaml", "toml", "md", "txt", "py", "js", "ts", "tsx", "jsx", "go",
                            "rs", "java", "kt", "rb", "sh", "cfg", "ini", "conf", "lock", "xml", "html", "css",
                            "log", "sql", "proto", "tf", "env", "example", "sample", "tmpl", "j2", "mjs", "cjs"})


def host_names(text: str) -> list[tuple[int, int]]:
    """Spans of private machine names: names under a private-use suffix (``*.local``, ``*.lan``,
    ``*.internal``, ``*.home.arpa``, ``nas.home``, ``printer.corp``), environment-named machines
    (``db.prod``, ``redis.staging:6379``, ``postgres://db.prod``), names with an internal label under
    a public domain (``db01.corp.acme.com``), names whose first label is one machine's
    (``web-03.acme.io``), and single-label machines (``deploy@build01``, ``nas01``)."""
    spans = [
        match.span() for match in _HOST.finditer(text)
        if match.group().split(".", 1)[0].lower() not in _PACKAGE_ROOTS
    ]
    spans.extend(match.span() for match in _ENV_HOST.finditer(text)
                 if match.group().split(".", 1)[0].lower() not in _PACKAGE_ROOTS)
    if "@" in text or any(ch.isdigit() for ch in text):
        spans.extend(match.span("target") if match.group("target") else match.span()
                     for match in _BARE_HOST.finditer(text))
    for match in _DOTTED.finditer(text):
        labels = match.group().lower().split(".")
        if labels[0] in _PACKAGE_ROOTS or labels[-1] in _FILE_SUFFIXES:
            continue
        if any(label in _INTERNAL_LABELS for label in labels[:-1]) or _MACHINE_LABEL.match(labels[0]):
            spans.append(match.span())
    return sorted(set(spans))


_IPV4 = lazy(r"(?<![0-9A-Za-z.])(?:\d{1,3}\.){3}\d{1,3}(?![0-9]|\.[0-9])")
# Bounded repetition only; ipaddress decides what is really an address.
_IPV6 = lazy(r"(?<![0-9A-Za-z:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%[A-Za-z0-9]{1,15})?(?![0-9A-Za-z:])")
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(net) for net in (
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8",
        "169.254.0.0/16", "100.64.0.0/10",  # link-local, carrier-grade NAT (Tailscale and friends)
        "fc00::/7", "fe80::/10", "::1/128",
    )
)


def _is_private(candidate: str) -> bool:
    try:
        address = ipaddress.ip_address(candidate.split("%", 1)[0])
    except ValueError:
        return False
    return any(address.version == net.version and address in net for net in PRIVATE_NETWORKS)


def private_ips(text: str) -> list[tuple[int, int]]:
    """Spans of loopback, private, link-local and CGNAT addresses (IPv4 and IPv6)."""
    spans = [m.span() for m in _IPV4.finditer(text) if _is_private(m.group())]
    if ":" in text:
        spans.extend(m.span() for m in _IPV6.finditer(text) if _is_private(m.group()))
    return sorted(spans)


# R18: transient git state. Mentions of git as a workflow ("rebase feature branches on main")
# are fine; phrases that describe the state of one checkout at one moment are not. Worktrees
# are named by the product page itself as never-memory, so any mention counts.
TRANSIENT_GIT_STATE = lazy(
    r"\bcurrent(?:ly)?\s+(?:checked[- ]out\s+|active\s+|git\s+|working\s+)?branch\b"
    r"|\b(?:currently|now|still)\s+on\s+(?:the\s+)?(?:branch\s+[\w./-]+|[\w./-]+\s+branch)\b"
    r"|\b(?:we|i|you)(?:'re|'m|\s+are|\s+am)\s+on\s+(?:the\s+)?(?:branch\s+[\w./-]+|[\w./-]+\s+branch)\b"
    r"|\bchecked[- ]out\s+(?:on\s+)?(?:branch\s+)?[\w./-]+\s+branch\b"
    r"|\bHEAD\s+is\s+(?:at|detached|now)\b|\bdetached\s+HEAD\b"
    r"|\b(?:rebase|merge|cherry-pick|revert|bisect)\s+(?:is\s+|was\s+)?(?:still\s+)?in\s+progress\b"
    r"|\bin\s+the\s+middle\s+of\s+(?:a|an|the)\s+(?:rebase|merge|cherry-pick|bisect)\b"
    r"|\bmid-(?:rebase|merge)\b|\b(?:unfinished|ongoing|pending)\s+(?:rebase|merge)\b"
    r"|\b(?:is|am|are|was|were|currently|still)\s+rebasing\b"
    r"|\brebase\s+(?:is\s+)?(?:not\s+(?:yet\s+)?finished|unfinished|not\s+done)\b"
    r"|\bworktrees?\b"
    r"|\b(?:i|we|you|the\s+user)\s+(?:just\s+|already\s+|have\s+|has\s+|then\s+)?(?:force-)?pushed\b"
    r"|\b(?:not\s+(?:yet\s+)?pushed|unpushed)\b|\b(?:ahead\s+of|behind)\s+(?:origin|upstream)\b"
    r"|\buncommitted\s+changes\s+(?:in|on)\s+(?:the\s+)?(?:working\s+tree|checkout)\b"
    r"|当前(?:所在)?(?:的)?分支|(?:现在|目前|正)在\s?[\w./-]*\s?分支上?"
    r"|正在\s?(?:rebase|变基|合并|merge|cherry-pick)|变基(?:中|还没|尚未|未完成)"
    r"|rebase\s?(?:还没|尚未|没有|未)(?:有)?完成|工作树里|(?:刚|刚刚|已经|我)\s?(?:push|推送|推)(?:了|到)"
    # The same class, more spellings: what one checkout is doing, or what someone just did to it.
    r"|\b(?:the\s+|my\s+|our\s+)?(?:working|current|active|local)\s+branch\s+(?:is|was|=|:)"
    r"|\b(?:my|our)\s+(?:local\s+|feature\s+|current\s+)?branch\b|\b(?:on|in)\s+this\s+branch\b"
    r"|\b(?:we|i|you)(?:'re|'m|\s+are|\s+am)\s+(?:still\s+|now\s+|currently\s+|just\s+)?"
    r"(?:rebasing|merging|bisecting|cherry-picking|reverting)\b"
    r"|\b(?:i|we)\s+(?:just\s+|already\s+|have\s+|'ve\s+)?(?:checked\s+out|switched\s+to)\b"
    r"|\b(?:i|we)\s+(?:just\s+|already\s+|have\s+just\s+|'ve\s+just\s+)(?:committed|merged|rebased|stashed|amended)\b"
    r"|\b(?:my|our)\s+(?:last|latest|previous)\s+(?:local\s+)?commit\b"
    r"|\b(?:has|have)(?:n't|\s+not)\s+(?:been\s+)?pushed\b|\bpushed\s+(?:it\s+)?(?:just\s+now|a\s+minute\s+ago)\b"
    r"|(?:工作|当前|现在的?|目前的?|我的|我们的)\s?分支\s?(?:是|为|叫|:|：)"
    r"|(?:刚|刚刚|刚才|已经|才)\s?(?:push|推送|推|提交|commit|合并|merge|rebase|变基)\s?(?:了|到|完|过)"
    r"|我(?:们)?\s?(?:刚|刚刚|刚才)?\s?(?:push|推送|提交|commit|rebase|变基)\s?了"
    r"|(?:正在|还在)\s?(?:rebase|变基|合并|merge|cherry-pick|bisect|解决冲突)"
    r"|切(?:换)?到(?:了)?\s?[\w./-]+\s?分支|还没(?:有)?\s?(?:push|推送|推|提交|合并)"
    r"|本地(?:还)?有(?:未提交|没提交|未推送|没推)"
    # Where one person is right now: "I'm working on feature/login", "right now we're on develop",
    # "the PR branch is fix/x", "HEAD points at ...", changes sitting in one checkout.
    r"|\b(?:we|i|you)(?:'re|'m|\s+are|\s+am)\s+(?:still\s+|now\s+|currently\s+)?(?:working\s+)?on\s+"
    r"(?:[\w.-]+/[\w./-]+|[\w./-]+\s+(?:right\s+now|at\s+the\s+moment|currently|for\s+now|today))"
    r"|\b(?:right\s+now|at\s+the\s+moment|currently|for\s+now),?\s+(?:we|i|you)(?:'re|'m|\s+are|\s+am)\s+"
    r"(?:working\s+)?on\s+[\w./-]+"
    r"|\b(?:the\s+|this\s+|my\s+|our\s+)?(?:PR|MR|pull\s+request|merge\s+request|topic|feature)(?:'s)?\s+branch\s+"
    r"(?:is|was|=|:|name\s+is|is\s+called|is\s+named)\s"
    r"|\bHEAD\s+(?:now\s+)?(?:points?|pointing|is\s+pointing)\s+(?:at|to)\b"
    r"|\b(?:i|we|you)(?:'ve|\s+have|\s+still\s+have)?\s+(?:got\s+)?(?:some\s+|a\s+few\s+)?"
    r"(?:uncommitted|unstaged|unpushed|staged|local)\s+(?:changes|edits|commits|work|files)\b"
    r"|\bthere\s+(?:are|is)\s+(?:still\s+)?(?:some\s+|a\s+few\s+)?(?:uncommitted|unstaged|unpushed|staged)\s+"
    r"(?:changes|edits|commits|files)\b"
    r"|\b(?:i|we)\s+(?:just\s+|already\s+|have\s+|'ve\s+)?stashed\b"
    r"|(?:PR|MR|合并请求|拉取请求)\s?(?:的)?\s?分支\s?(?:是|为|叫)"
    r"|(?:我|我们)\s?(?:现在|目前|正)?\s?在\s?[\w./-]+/[\w./-]+\s?(?:上|分支)"
    r"|(?:有|还有)\s?(?:未提交|没提交|未暂存|未推送)的?(?:改动|修改|更改|变更)",
    re.ASCII | re.IGNORECASE,
)


def transient_git_state(text: str) -> list[tuple[int, int]]:
    """Spans of phrases that describe one checkout's git state at one moment (R18)."""
    return [match.span() for match in TRANSIENT_GIT_STATE.finditer(text)]
