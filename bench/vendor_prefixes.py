"""Which literal token prefixes of gitleaks', TruffleHog's and Kingfisher's rule sets layer 1 does not know.

    python bench/vendor_prefixes.py --gitleaks PATH --trufflehog PATH --kingfisher PATH [--list]

``--gitleaks`` is gitleaks' ``config/gitleaks.toml``, or a clone (or bare mirror) of the gitleaks
repository; ``--trufflehog`` is TruffleHog's ``pkg/detectors`` directory, or a clone (or bare
mirror) of its repository; ``--kingfisher`` is Kingfisher's ``data/rules`` directory, or a clone
(or bare mirror) of its repository. None is copied into this repository: the script reads them
where they are. It prints the number of prefixes each rule set knows, how many of them layer 1's token
table (``TOKEN_FORMATS``, ``TEXT_FORMATS``) knows, and with ``--list`` each missing one and the
rule it comes from. Exit status 0 always: it measures, it does not judge.

A prefix is the literal a rule's pattern starts with (``ghp_``, ``sk-or-v1-``, ``xoxb-``), read
at the start of the pattern or of a ``\\b(`` group, with a leading ``(?:a|b)`` alternation
expanded. Patterns that start from a vendor's name in context (``(?i)…(?:adafruit)…``) have no
prefix: the token itself carries no mark, and layer 1 finds those values through their label.
A literal counts as a prefix only if it marks a token: at least three characters, and ending in
a separator (``_ - . ~``) or holding a digit or a capital (``AKIA``, ``4b1d``).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the layer 1 of this tree, not an installed one

_LITERAL_CHAR = re.compile(r"\\[.\-_~:/]|[A-Za-z0-9_\-~:]|\\b")
_ALTERNATION = re.compile(r"\(\?:((?:[A-Za-z0-9_\-]+\|)+[A-Za-z0-9_\-]+)\)")
_INLINE_FLAGS = re.compile(r"\(\?-?[imsx]+\)")
_GO_PATTERN = re.compile(r"regexp\.MustCompile\(\s*`([^`]*)`\s*\)")


def _literal(pattern: str, pos: int) -> tuple[str, int]:
    """The literal text of ``pattern`` from ``pos`` and where it ends."""
    out: list[str] = []
    while pos < len(pattern):
        flags = _INLINE_FLAGS.match(pattern, pos)
        if flags:
            break  # ``p8e-(?i)``: what follows is the body
        match = _LITERAL_CHAR.match(pattern, pos)
        if match is None:
            break
        token = match.group(0)
        if token == "\\b":
            break
        out.append(token[-1])
        pos = match.end()
    # A quantifier binds to the last character: that character is not literal.
    if pos < len(pattern) and pattern[pos] in "{?*+" and out:
        out.pop()
    return "".join(out), pos


def _starts(pattern: str) -> Iterator[int]:
    """Where a rule's token may start: the pattern's start and each ``\\b(`` group."""
    yield 0
    for match in re.finditer(r"\\b\(?(?:\?:)?", pattern):
        yield match.end()
    for match in re.finditer(r"(?:^|\|)\(", pattern):
        yield match.end()


def _is_prefix(literal: str) -> bool:
    if len(literal) < 3 or not literal[0].isalnum():
        return False  # ``-----BEGIN``: key armour, not a token
    if literal[-1] in "_-.~" or any(c.isdigit() for c in literal):
        return True
    return len(literal) <= 5 and any(c.isupper() for c in literal)  # ``AKCp``, not ``Endpoint``


def prefixes_of(pattern: str) -> set[str]:
    """The token prefixes a regular expression starts with (see the module's docstring)."""
    pattern = pattern.strip()
    found: set[str] = set()
    for start in _starts(pattern):
        pos = start
        while pattern.startswith("(?i)", pos) or pattern.startswith("(", pos) and not pattern.startswith("(?", pos):
            pos += 4 if pattern.startswith("(?i)", pos) else 1
        alternation = _ALTERNATION.match(pattern, pos)
        if alternation is not None:
            tail, _ = _literal(pattern, alternation.end())
            heads = alternation.group(1).split("|")
            found.update(h + tail for h in heads if _is_prefix(h + tail))
            continue
        literal, _ = _literal(pattern, pos)
        if _is_prefix(literal):
            found.add(literal)
    return found


def _git_files(git_dir: Path, path: str) -> Iterator[tuple[str, str]]:
    """(path, text) of files under ``path`` at HEAD of a repository (bare or not)."""
    names = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", "HEAD", "--", path],
                           check=True, capture_output=True, text=True).stdout.split()
    for name in names:
        blob = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"HEAD:{name}"],
                              check=True, capture_output=True).stdout
        yield name, blob.decode("utf-8", "replace")


def _git_dir(path: Path) -> Path | None:
    if (path / ".git").exists():
        return path / ".git"
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return path
    return None


def gitleaks_prefixes(path: Path) -> dict[str, str]:
    """prefix -> rule id, from a gitleaks config file or repository."""
    git_dir = _git_dir(path) if path.is_dir() else None
    if git_dir is not None:
        text = dict(_git_files(git_dir, "config/gitleaks.toml"))["config/gitleaks.toml"]
    else:
        text = (path / "config" / "gitleaks.toml" if path.is_dir() else path).read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for rule in tomllib.loads(text).get("rules", []):
        patterns = [rule.get("regex", "")] + list(rule.get("regexes", []) or [])
        for pattern in patterns:
            for prefix in prefixes_of(pattern):
                found.setdefault(prefix, str(rule.get("id", "?")))
    return found


def _go_sources(path: Path) -> Iterator[tuple[str, str]]:
    git_dir = _git_dir(path)
    if git_dir is not None:
        yield from ((n, t) for n, t in _git_files(git_dir, "pkg/detectors")
                    if n.endswith(".go") and not n.endswith("_test.go"))
        return
    for file in sorted(path.rglob("*.go")):
        if not file.name.endswith("_test.go"):
            yield str(file.relative_to(path)), file.read_text(encoding="utf-8", errors="replace")


def trufflehog_prefixes(path: Path) -> dict[str, str]:
    """prefix -> detector, from TruffleHog's detectors directory or repository."""
    found: dict[str, str] = {}
    for name, source in _go_sources(path):
        detector = name.split("/")[-2] if "/" in name else name
        for match in _GO_PATTERN.finditer(source):
            for prefix in prefixes_of(match.group(1)):
                found.setdefault(prefix, detector)
    return found


_VERBOSE_COMMENT = re.compile(r"(?<!\\)#.*$", re.M)
_LEADING_FLAGS = re.compile(r"^\(\?[a-z]+\)")
_CAPTURE = re.compile(r"(?<!\\)\((?!\?)")


def _plain_pattern(pattern: str) -> str:
    """A Kingfisher pattern (Rust syntax, mostly ``(?x)`` verbose) without its leading flags, and
    without comments and layout when verbose."""
    pattern = pattern.strip()
    flags = _LEADING_FLAGS.match(pattern)
    if flags is not None:
        if "x" in flags.group(0):
            pattern = re.sub(r"\s+", "", _VERBOSE_COMMENT.sub("", pattern))
        pattern = pattern[flags.end():] if not pattern.startswith(flags.group(0)) else pattern[len(flags.group(0)):]
    return pattern


def kingfisher_prefixes(path: Path) -> dict[str, str]:
    """prefix -> rule id, from Kingfisher's rules directory or repository. A rule's token is its
    first capture group (the pattern before it is the context: ``notion … (secret_…)``)."""
    import yaml

    git_dir = _git_dir(path)
    if git_dir is not None:
        files = [(n, t) for n, t in _git_files(git_dir, "data/rules") if n.endswith((".yml", ".yaml"))]
    else:
        files = [(str(f), f.read_text(encoding="utf-8", errors="replace")) for f in sorted(path.rglob("*.y*ml"))]
    found: dict[str, str] = {}
    for _, text in files:
        try:
            rules = (yaml.safe_load(text) or {}).get("rules", [])
        except yaml.YAMLError:
            continue
        for rule in rules if isinstance(rules, list) else []:
            pattern = _plain_pattern(str(rule.get("pattern", "")))
            group = _CAPTURE.search(pattern)
            for prefix in prefixes_of(pattern[group.end():] if group else pattern):
                found.setdefault(prefix, str(rule.get("id", "?")))
    return found


def known_prefixes() -> set[str]:
    """Every literal prefix layer 1's token table matches, in lower case."""
    from chord_git.secrets.words import patterns

    known = {p.lower() for fmt in patterns.TOKEN_FORMATS for p in fmt.prefixes}
    return known


def _known_by_text_formats(prefix: str) -> bool:
    from chord_git.secrets.words import patterns

    return any(prefix.lower() in fmt.pattern.pattern.lower().replace("\\", "") for fmt in patterns.TEXT_FORMATS)


def is_known(prefix: str, known: set[str]) -> bool:
    """Layer 1 knows ``prefix`` itself, a longer form of it (``sk_`` by ``sk_live_``), or a
    shorter one of at least four characters that reads the rest as the body (``sntrys_`` for
    ``sntrys_eyJ``); three characters are too few for that (``sk-`` says nothing of ``sk-or-v1-``)."""
    low = prefix.lower()
    return low in known or any(k.startswith(low) or (len(k) >= 4 and low.startswith(k)) for k in known) \
        or _known_by_text_formats(prefix)


def missing(prefixes: Iterable[str], known: set[str] | None = None) -> list[str]:
    """The prefixes layer 1 (or ``known``, lower case) does not know, sorted."""
    known = known_prefixes() if known is None else known
    return sorted(p for p in set(prefixes) if not is_known(p, known))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--gitleaks", type=Path)
    parser.add_argument("--trufflehog", type=Path)
    parser.add_argument("--kingfisher", type=Path)
    parser.add_argument("--list", action="store_true", help="print each missing prefix and its rule")
    args = parser.parse_args(argv)
    total_missing: set[str] = set()
    for name, path, reader in (("gitleaks", args.gitleaks, gitleaks_prefixes),
                               ("trufflehog", args.trufflehog, trufflehog_prefixes),
                               ("kingfisher", args.kingfisher, kingfisher_prefixes)):
        if path is None:
            continue
        found = reader(path)
        gone = missing(found)
        total_missing.update(gone)
        print(f"{name}: {len(found)} prefixes, {len(found) - len(gone)} known to layer 1, {len(gone)} missing")
        if args.list:
            for prefix in gone:
                print(f"  {prefix}\t{found[prefix]}")
    print(f"missing in all: {len(total_missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
