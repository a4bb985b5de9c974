"""Recall and false positives of secret scanning (issues 3 and 10).

Each corpus example is scanned as one markdown file, (a) with detect-secrets alone (default
plugins: the anchor) and (b) with both of our layers (``chord_git.secrets.scan_added_lines``).
An example counts as flagged when any finding falls inside it.

    python bench/secrets_quality.py [--corpus DIR] [--show-misses N] [--show-fps N]
                                    [--layer1] [--no-prose] [--no-forms] [--catalogs [DIR]]
                                    [--docs PATH ...]

- The public corpus directory defaults to ``$CHORD_CORPUS`` or ``<repo>/../shared/corpus/secrets``.
  gitleaks rows with a ``path`` field only fire for that file name upstream (``*.yaml``,
  ``nuget.config``...); they are excepted from recall and counted separately.
- The project's own prose corpora (``tests/data/secrets``: credentials written in sentences,
  markdown, tables, command lines and links, and lines that only talk about credentials) are
  scored per split: ``dev`` (rules were written against it) and ``test`` (held out).
- The generated credential forms (``testing/credential_forms.py``: password labels in 45
  languages, values on the next line, English sentences, markup, command lines, links, hidden
  characters, vendor tokens without a label, each class with its hard negatives) are scored per
  class and together (``--no-forms`` skips them).
- ``--catalogs [DIR]`` scans the translated messages of the gettext catalogs under DIR
  (``/usr/share/locale``) that mention a password, token or key: ordinary text in every language
  the system ships, none of it holding a credential (false positives of layer 1).
- ``--docs`` scans real documentation (markdown and text files under the given paths, which hold
  no credential) with both layers and reports how many files and lines raise a finding: an
  estimate of false positives on prose that talks about keys, tokens and passwords.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.findings import Finding  # noqa: E402
from chord_git.secrets import find, scan_added_lines  # noqa: E402
from chord_git.secrets.layer2.detect import detect_secrets_only  # noqa: E402
from chord_git.secrets.layer2.kinds import secret_finding  # noqa: E402
from testing.credential_forms import all_forms  # noqa: E402
from testing.secret_corpus import load_all  # noqa: E402

Scanner = Callable[[Mapping[str, Sequence[tuple[int, str]]]], list[Finding]]
FILES = ("gitleaks.jsonl", "detect_secrets.jsonl", "benign_memory.jsonl")


@dataclass
class Score:
    secret: int = 0
    caught: int = 0
    benign: int = 0
    flagged_benign: int = 0
    path_bound: int = 0
    misses: Counter[str] = field(default_factory=Counter)
    fps: Counter[str] = field(default_factory=Counter)
    missed_rows: list[dict[str, str]] = field(default_factory=list)
    fp_rows: list[dict[str, str]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.caught / self.secret if self.secret else float("nan")

    @property
    def fp_rate(self) -> float:
        return self.flagged_benign / self.benign if self.benign else float("nan")


def default_corpus() -> Path:
    env = os.environ.get("CHORD_CORPUS")
    return Path(env) if env else REPO.parent / "shared" / "corpus" / "secrets"


def load(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def layer1_only(added: Mapping[str, Sequence[tuple[int, str]]]) -> list[Finding]:
    """Our sanitizer alone, for comparison (the hooks always run both layers)."""
    return [secret_finding(path, f.line, f.kind, f.layer) for path, lines in added.items()
            for f in find("\n".join(text for _, text in lines))]


def score(rows: list[dict[str, str]], scanner: Scanner) -> Score:
    added = {f"example-{i}.md": list(enumerate(row["text"].split("\n"), start=1))
             for i, row in enumerate(rows)}
    flagged = {hit.path for hit in scanner(added)}
    result = Score()
    for i, row in enumerate(rows):
        hit = f"example-{i}.md" in flagged
        if row["label"] == "secret":
            if "path" in row:
                result.path_bound += 1  # fires upstream only for that file name: excepted
                continue
            result.secret += 1
            result.caught += hit
            if not hit:
                result.misses[row["rule"]] += 1
                result.missed_rows.append(row)
        else:
            result.benign += 1
            result.flagged_benign += hit
            if hit:
                result.fps[row["rule"]] += 1
                result.fp_rows.append(row)
    return result


def report(name: str, scores: dict[str, Score], show_misses: int, show_fps: int) -> None:
    print(f"\n== {name}")
    print(f"{'file':24} {'secret':>7} {'recall':>8} {'benign':>7} {'FP rate':>8} {'excepted':>9}")
    for file, s in scores.items():
        recall = f"{s.recall:8.3f}" if s.secret else f"{'-':>8}"
        print(f"{file:24} {s.secret:7d} {recall} {s.benign:7d} {s.fp_rate:8.3f} {s.path_bound:9d}")
    bound = scores.get("gitleaks.jsonl")
    if bound is not None and bound.path_bound:
        print(f"excepted: {bound.path_bound} path-bound gitleaks secret rows (rules that only fire for a file "
              "name such as *.yaml or nuget.config); path-bound benign rows still count as benign")
    upstream = [scores[f] for f in ("gitleaks.jsonl", "detect_secrets.jsonl") if f in scores]
    benign_rows = sum(s.benign for s in upstream)
    if benign_rows:
        flagged = sum(s.flagged_benign for s in upstream)
        print(f"upstream benign rows together: {flagged}/{benign_rows} flagged = {flagged / benign_rows:.3f}")
    for file, s in scores.items():
        if s.misses:
            top = ", ".join(f"{rule} {n}" for rule, n in s.misses.most_common())
            print(f"  misses in {file} ({sum(s.misses.values())}): {top}")
        if s.fps:
            top = ", ".join(f"{rule} {n}" for rule, n in s.fps.most_common())
            print(f"  false positives in {file} ({sum(s.fps.values())}): {top}")
        for row in s.missed_rows[:show_misses]:
            print(f"    MISS {row['rule']}: {row['text'][:160]!r}")
        for row in s.fp_rows[:show_fps]:
            print(f"    FP   {row['rule']}: {row['text'][:160]!r}")


def prose_rows() -> dict[str, list[dict[str, str]]]:
    """The own corpora as rows of the public corpus' shape, one list per split."""
    rows: dict[str, list[dict[str, str]]] = {"prose dev": [], "prose held-out": []}
    for example in load_all():
        name = "prose dev" if example.split == "dev" else "prose held-out"
        rows[name].append({"rule": f"{example.lang}:{example.section}", "text": example.text,
                           "label": example.label, "line": f"{example.file}:{example.lineno}"})
    return rows


def form_rows() -> dict[str, list[dict[str, str]]]:
    """The generated credential forms (``testing/credential_forms.py``), one list per class."""
    rows: dict[str, list[dict[str, str]]] = {}
    for form in all_forms():
        rows.setdefault(f"forms {form.cls}", []).append(
            {"rule": f"{form.cls}:{form.case}", "text": form.text, "label": "secret" if form.positive else "benign"})
    everything = [row for group in rows.values() for row in group]
    rows["forms (all)"] = everything
    return rows


# Words that make a translated message talk about credentials (any language of the catalogs).
CATALOG_WORDS = ("pass", "пароль", "密码", "パスワード", "비밀번호", "contrase", "senha", "mot de passe", "passwort",
                 "kennwort", "şifre", "sifre", "hasło", "heslo", "jelsz", "salasana", "lösenord", "wachtwoord",
                 "sandi", "mật khẩu", "รหัสผ่าน", "पासवर्ड", "পাসওয়ার্ড", "كلمة", "رمز", "סיסמ", "κωδικ", "parol",
                 "lozink", "лозинк", "token", "clave", "chave", "passord", "adgangskode", "kodeord", "nenosiri",
                 "گذرواژه", "کلید", "key", "ключ")


def report_catalogs(root: Path, show: int) -> None:
    """Layer 1 over the translated messages of the system's gettext catalogs that mention a
    credential: ordinary text in every language the system ships, none of it holding one."""
    import gettext

    messages: set[str] = set()
    for path in sorted(root.glob("*/LC_MESSAGES/*.mo")):
        try:
            with path.open("rb") as handle:
                catalog = gettext.GNUTranslations(handle)
        except (OSError, UnicodeDecodeError, ValueError, IndexError):  # unreadable catalog: skipped
            continue
        entries: dict[object, object] = getattr(catalog, "_catalog", {})  # gettext reads no other way
        for text in entries.values():
            if isinstance(text, str) and any(word in text.lower() for word in CATALOG_WORDS):
                messages.add(text)
    flagged = sorted(m for m in messages if find(m))
    print(f"\n== translated messages that mention credentials ({root}), layer 1")
    print(f"messages {len(messages)}: {len(flagged)} flagged = {len(flagged) / max(len(messages), 1):.4f}")
    for text in flagged[:show]:
        print(f"    FP   {text[:160]!r}")


DOC_SUFFIXES = (".md", ".markdown", ".rst", ".txt")


def doc_files(paths: Sequence[Path]) -> list[Path]:
    found: set[Path] = set()
    for path in paths:
        if path.is_file():
            found.add(path)
        elif path.is_dir():
            found.update(p for p in path.rglob("*") if p.is_file() and (p.suffix.lower() in DOC_SUFFIXES
                                                                         or p.name.startswith("README")))
    return sorted(found)


def report_docs(paths: Sequence[Path], scanner: Scanner, name: str, show: int) -> None:
    files = doc_files(paths)
    added: dict[str, list[tuple[int, str]]] = {}
    for path in files:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        added[str(path)] = list(enumerate(text.split("\n"), start=1))
    hits = scanner(added)
    lines = sum(len(v) for v in added.values())
    flagged_lines = {(h.path, h.line) for h in hits}
    flagged_files = {h.path for h in hits}
    print(f"\n== documentation that talks about credentials, {name}")
    print(f"files {len(added)}: {len(flagged_files)} with a finding = {len(flagged_files) / max(len(added), 1):.4f}; "
          f"lines {lines}: {len(flagged_lines)} flagged = {len(flagged_lines) / max(lines, 1):.5f}")
    kinds = Counter(h.kind for h in hits)
    if kinds:
        print("  kinds: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    for hit in sorted(hits, key=lambda h: (h.path, h.line))[:show]:
        print(f"    {hit.path}:{hit.line}: {hit.kind} ({hit.layer})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--show-misses", type=int, default=0, metavar="N")
    parser.add_argument("--show-fps", type=int, default=0, metavar="N")
    parser.add_argument("--ours-only", action="store_true", help="skip the detect-secrets anchor")
    parser.add_argument("--layer1", action="store_true", help="also score our sanitizer alone")
    parser.add_argument("--no-prose", action="store_true", help="skip the project's own prose corpora")
    parser.add_argument("--no-forms", action="store_true", help="skip the generated credential forms by class")
    parser.add_argument("--catalogs", type=Path, nargs="?", const=Path("/usr/share/locale"), default=None,
                        metavar="DIR", help="also scan the translated messages of gettext catalogs (.mo) under DIR")
    parser.add_argument("--docs", type=Path, nargs="*", default=[], metavar="PATH",
                        help="documentation files or folders to estimate false positives on")
    args = parser.parse_args(argv)
    corpora = {f: load(args.corpus / f) for f in FILES if (args.corpus / f).exists()}
    if not args.no_prose:
        corpora.update(prose_rows())
    if not args.no_forms:
        corpora.update(form_rows())
    if not corpora:
        print(f"no corpus files in {args.corpus}", file=sys.stderr)
        return 2
    scanners: list[tuple[str, Scanner]] = []
    if not args.ours_only:
        scanners.append(("(a) detect-secrets 1.5 alone, default plugins", detect_secrets_only))
    scanners.append(("(b) chord_git: sanitizer + detect-secrets (a floor: named verdicts only)", scan_added_lines))
    if args.layer1:
        scanners.append(("(c) chord_git sanitizer alone (layer 1)", layer1_only))
    for name, scanner in scanners:
        started = time.perf_counter()
        scores = {file: score(rows, scanner) for file, rows in corpora.items()}
        report(name, scores, args.show_misses, args.show_fps)
        print(f"  ({time.perf_counter() - started:.1f} s)")
    if args.catalogs is not None:
        report_catalogs(args.catalogs, args.show_fps)
    if args.docs:
        report_docs(args.docs, scan_added_lines, "both layers", args.show_fps)
        if not args.ours_only:
            report_docs(args.docs, detect_secrets_only, "detect-secrets alone", 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
