"""Text patterns memory must not carry (R3, R18, R23), shared by ``check`` and extraction guards.

Every pattern is linear (no nested quantifiers) because memory text is untrusted input.
"""
from __future__ import annotations

import ipaddress
import re

# Lookbehinds are ASCII-only on purpose: Unicode \w would match CJK text written right before a
# path ("代码在/Users/li/src"). Roots that only ever name a machine's own layout; API routes such as /v1/chat stay legal.
_POSIX_ROOTS = (
    "home|Users|root|usr|etc|var|tmp|opt|mnt|media|srv|run|private|Volumes|Library|Applications|"
    "System|nix|snap|proc|dev|sys|bin|sbin|lib|lib64|workspace|workspaces|builds|cygdrive|data|mnt"
)
ABSOLUTE_PATH = re.compile(
    r"(?:(?<![A-Za-z0-9_.~/\\:-])/(?:" + _POSIX_ROOTS + r")(?:/[^\s/`'\")\]>]+)+/?)"  # /home/ana/src
    r"|(?:(?<![A-Za-z0-9_])[A-Za-z]:[\\/][^\s`'\")\]>]*)"  # C:\Users\ana, D:/work
    r"|(?:(?<![A-Za-z0-9_\\])\\\\[\w.$-]+\\[^\s`'\")\]>]+)"  # \\server\share
    r"|(?:(?<![A-Za-z0-9_/])~[\w.-]*/[^\s`'\")\]>]*)"  # ~/src, ~ana/src
    r"|(?:\bfile:///[^\s`'\")\]>]+)"
)


def absolute_paths(text: str) -> list[tuple[int, int]]:
    """Spans of absolute paths (POSIX machine roots, Windows drives and shares, ``~/``)."""
    return [match.span() for match in ABSOLUTE_PATH.finditer(text)]


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# ---------------------------------------------------------------------------- extraction guards
# R23: commit SHAs. Candidates are whole hex words (ASCII word boundaries, so CJK text right
# before or after still counts as a boundary); a word needs a digit and a letter to be a SHA, so
# "deadbeef", "2026011512" and record ids (whose hex part is four characters) are left alone.
_HEX_WORD = re.compile(r"(?<![0-9A-Za-z_])[0-9A-Fa-f]{7,40}(?![0-9A-Za-z_])")


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
# longer name (``app.local.example.com``) or a file name (``settings.local.json``). Dotfiles such
# as ``.env.local`` never match because a name cannot start with a dot.
_HOST = re.compile(
    r"(?<![A-Za-z0-9.-])(?:[A-Za-z0-9][A-Za-z0-9-]{0,62}\.)+"
    r"(?:local|lan|internal|localdomain|home\.arpa)(?![A-Za-z0-9-]|\.[A-Za-z0-9])",
    re.IGNORECASE,
)
# Reverse-DNS package names (``com.acme.billing.internal``) are code, not machines.
_PACKAGE_ROOTS = frozenset({"com", "org", "net", "io", "dev", "edu", "gov", "java", "javax", "android", "kotlin"})


def host_names(text: str) -> list[tuple[int, int]]:
    """Spans of ``*.local``, ``*.lan``, ``*.internal``, ``*.localdomain``, ``*.home.arpa`` names."""
    return [
        match.span() for match in _HOST.finditer(text)
        if match.group().split(".", 1)[0].lower() not in _PACKAGE_ROOTS
    ]


_IPV4 = re.compile(r"(?<![0-9A-Za-z.])(?:\d{1,3}\.){3}\d{1,3}(?![0-9]|\.[0-9])")
# Bounded repetition only; ipaddress decides what is really an address.
_IPV6 = re.compile(r"(?<![0-9A-Za-z:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%[A-Za-z0-9]{1,15})?(?![0-9A-Za-z:])")
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
TRANSIENT_GIT_STATE = re.compile(
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
    r"|rebase\s?(?:还没|尚未|没有|未)(?:有)?完成|工作树里|(?:刚|刚刚|已经|我)\s?(?:push|推送|推)(?:了|到)",
    re.ASCII | re.IGNORECASE,
)


def transient_git_state(text: str) -> list[tuple[int, int]]:
    """Spans of phrases that describe one checkout's git state at one moment (R18)."""
    return [match.span() for match in TRANSIENT_GIT_STATE.finditer(text)]
