"""Secret scanning judged on corpora written by others (issue 33): public rule sets' examples.

    python bench/outside_corpora.py --kingfisher <git dir or checkout of mongodb/kingfisher>
                                    --trufflehog <git dir or checkout of trufflesecurity/trufflehog>
                                    [--show-misses [N]] [--show-flags [N]] [--no-gitleaks] [--gitleaks BIN]
    python bench/outside_corpora.py ... --write-labels    # label a new snapshot and freeze the split

- Kingfisher: the ``examples`` (and ``negative_examples``) of ``data/rules/*.yml``.
- TruffleHog: the ``input``/``want`` cases of ``pkg/detectors/*/*_test.go`` pattern tests; a case
  is positive when ``want`` is non-empty.
- Leaky Repo is scored by ``bench/leaky_repo.py``, not here.

Each example is labelled once, from its shape (``bench/outside/labeller.py``): credential,
placeholder, identifier, or near-miss (an upstream negative that is no placeholder). The labels,
the class of each example and the dev / held-out split by rule are stored in ``bench/outside/``
(no example text), with their sha256 in ``MANIFEST.sha256``; the bench refuses to score when
the manifest does not match, and skips examples whose text no longer matches its stored hash.

Each example is one memory file (its text as the Markdown body of a record), scanned in one run
by chord-git (both layers, ``scan_added_lines``), by detect-secrets alone (the anchor) and by
gitleaks (``gitleaks dir`` over a directory of all examples, findings mapped back by file name).
Reported: recall on credentials, flag rate on placeholders and on identifiers, per corpus and
split; recall per class and per form around the value; flag rate per reason a placeholder is
one. ``--show-misses`` lists the credential rules chord-git misses, by class; ``--show-flags``
the placeholder and identifier rules it flags.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from chord_git.findings import Finding  # noqa: E402
from bench.outside import classes, kingfisher, labeller, snapshot, split, trufflehog  # noqa: E402
from bench.outside.kingfisher import Example  # noqa: E402

CORPORA = ("kingfisher", "trufflehog")
TOOLS = ("chord-git", "detect-secrets", "gitleaks")
BENIGN = (labeller.PLACEHOLDER, labeller.IDENTIFIER)


@dataclass(frozen=True)
class Item:
    """One example ready to score: where it came from, its frozen label and its file name."""

    corpus: str
    example: Example
    label: split.Label
    file: str


def _value(example: Example) -> str:
    """The value the rule reports: its longest capture, else the example's longest token."""
    return max(example.values, key=len) if example.values else labeller.longest_token(example.text)


def fresh_label(corpus: str, example: Example) -> split.Label:
    """The labeller's verdict on one example (what ``--write-labels`` stores)."""
    value = _value(example)
    name = example.rule_name if corpus == "kingfisher" else ""
    verdict = labeller.label(example.values, example.text, rule_name=name, positive=example.positive,
                             all_secrets=corpus == "trufflehog")
    cls = classes.classify(example.rule, example.rule_name, example.text, value)
    return split.Label(example.rule, example.index, split.text_hash(example.text), verdict, cls,
                       split.split_of(example.rule))


def read_corpus(corpus: str, path: Path) -> tuple[str, list[Example], int]:
    """(snapshot commit, examples, cases skipped) of one fetched repository."""
    if corpus == "kingfisher":
        files = snapshot.read_files(path, kingfisher.RULES_DIR, kingfisher.SUFFIXES)
        return snapshot.commit(path), kingfisher.examples(files), 0
    files = snapshot.read_files(path, trufflehog.DETECTORS_DIR, trufflehog.SUFFIXES)
    found, skipped = trufflehog.examples(files)
    return snapshot.commit(path), found, skipped


def frozen_items(corpus: str, examples: Sequence[Example], stored: Mapping[tuple[str, int], split.Label]
                 ) -> tuple[list[Item], int]:
    """The examples that carry a stored label with the same text hash; and how many do not."""
    items: list[Item] = []
    stale = 0
    for example in examples:
        label = stored.get((example.rule, example.index))
        if label is None or label.sha256 != split.text_hash(example.text):
            stale += 1
            continue
        items.append(Item(corpus, example, label, f"{corpus}-{len(items)}.md"))
    return items, stale


# ------------------------------------------------------------------------------- scanners
Added = Mapping[str, Sequence[tuple[int, str]]]


def flagged_by(scanner: Callable[[Added], Sequence[Finding]], added: Added) -> set[str]:
    return {hit.path for hit in scanner(added)}


def gitleaks_flags(binary: str, items: Sequence[Item]) -> set[str]:
    """Files ``gitleaks dir`` reports over a directory holding every example as its own file."""
    with tempfile.TemporaryDirectory(prefix="outside-corpora-") as tmp:
        root = Path(tmp) / "examples"
        root.mkdir()
        for item in items:
            (root / item.file).write_text(item.example.text, encoding="utf-8")
        report = Path(tmp) / "report.json"
        subprocess.run([binary, "dir", str(root), "--no-banner", "--report-format", "json", "--report-path",
                        str(report), "--exit-code", "0", "--log-level", "error"], check=True, capture_output=True)
        findings = json.loads(report.read_text(encoding="utf-8") or "[]")
    return {Path(str(f.get("File", ""))).name for f in findings}


def scan_all(items: Sequence[Item], gitleaks_binary: str | None) -> dict[str, set[str]]:
    from chord_git.secrets import scan_added_lines
    from chord_git.secrets.layer2.detect import detect_secrets_only

    added = {item.file: list(enumerate(item.example.text.split("\n"), start=1)) for item in items}
    flags = {"chord-git": flagged_by(scan_added_lines, added), "detect-secrets": flagged_by(detect_secrets_only, added)}
    if gitleaks_binary:
        flags["gitleaks"] = gitleaks_flags(gitleaks_binary, items)
    return flags


# ------------------------------------------------------------------------------- scoring
@dataclass
class Tally:
    total: int = 0
    flagged: int = 0

    def add(self, hit: bool) -> None:
        self.total += 1
        self.flagged += hit

    def rate(self) -> str:
        return f"{self.flagged / self.total:.3f}" if self.total else "-"

    def cell(self) -> str:
        return f"{self.rate()} ({self.flagged}/{self.total})" if self.total else "-"


Key = tuple[str, ...]


def tally(items: Sequence[Item], flags: Mapping[str, set[str]], key: Callable[[Item], Key]) -> dict[Key, Tally]:
    """Per (tool, label, *key(item)): how many examples and how many the tool flagged."""
    out: dict[Key, Tally] = defaultdict(Tally)
    for item in items:
        for tool, flagged in flags.items():
            hit = item.file in flagged
            out[(tool, item.label.label, *key(item))].add(hit)
            if item.label.label in BENIGN:
                out[(tool, "benign", *key(item))].add(hit)
    return out


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def report(items: Sequence[Item], flags: Mapping[str, set[str]], show_misses: int | None,
           show_flags: int | None) -> str:
    tools = [t for t in TOOLS if t in flags]
    corpora = [c for c in CORPORA if any(i.corpus == c for i in items)]
    by_split = tally(items, flags, lambda i: (i.corpus, i.label.split))
    by_corpus = tally(items, flags, lambda i: (i.corpus,))
    out: list[str] = []

    counts = Counter((i.corpus, i.label.split, i.label.label) for i in items)
    out.append("Examples per corpus and split: " + "; ".join(
        f"{c} {s}: " + ", ".join(f"{counts[(c, s, lab)]} {lab}" for lab in labeller.LABELS)
        for c in corpora for s in (split.DEV, split.HELD_OUT)))

    columns = [(c, s) for c in corpora for s in (split.DEV, split.HELD_OUT)]
    header = ["tool", "measure"] + [f"{c} {s}" for c, s in columns] + [f"{c} all" for c in corpora]
    rows: list[list[str]] = []
    for tool in tools:
        for label, measure in ((labeller.CREDENTIAL, "recall (credentials)"),
                               ("benign", "flag rate, placeholders+identifiers"),
                               (labeller.PLACEHOLDER, "flag rate, placeholders"),
                               (labeller.IDENTIFIER, "flag rate, identifiers"),
                               (labeller.NEAR_MISS, "flag rate, upstream near-misses")):
            cells = [by_split[(tool, label, c, s)].cell() for c, s in columns]
            cells += [by_corpus[(tool, label, c)].cell() for c in corpora]
            rows.append([tool, measure] + cells)
    out.append("\n### Overall\n\n" + table(header, rows))

    by_class = tally(items, flags, lambda i: (i.corpus, i.label.cls))
    for corpus in corpora:
        header = ["class", "credentials"] + [f"{t} recall" for t in tools] + ["benign"] + \
                 [f"{t} flags" for t in tools]
        rows = []
        for cls in classes.CLASSES:
            cred = [by_class[(t, labeller.CREDENTIAL, corpus, cls)] for t in tools]
            benign = [by_class[(t, "benign", corpus, cls)] for t in tools]
            if not cred[0].total and not benign[0].total:
                continue
            rows.append([cls, str(cred[0].total)] + [c.rate() for c in cred] + [str(benign[0].total)]
                        + [b.rate() for b in benign])
        out.append(f"\n### Per class, {corpus} (dev and held-out together)\n\n" + table(header, rows))

    by_form = tally(items, flags, lambda i: (i.corpus, classes.form(i.example.text, _value(i.example))))
    header = ["form"] + [f"{c} credentials" for c in corpora] + [f"{c} {t} recall" for c in corpora for t in tools]
    rows = []
    for name in classes.FORMS:
        totals = [by_form[(tools[0], labeller.CREDENTIAL, c, name)].total for c in corpora]
        if any(totals):
            rows.append([name] + [str(t) for t in totals]
                        + [by_form[(t, labeller.CREDENTIAL, c, name)].rate() for c in corpora for t in tools])
    out.append("\n### Credentials per form around the value (dev and held-out together)\n\n" + table(header, rows))

    placeholders = [i for i in items if i.label.label == labeller.PLACEHOLDER]
    by_reason = tally(placeholders, flags, lambda i: (labeller.placeholder_reason(_value(i.example)) or
                                                      "whole value not judged (longest capture is ordinary)",))
    reasons = sorted({key[2] for key in by_reason}, key=lambda r: -by_reason[(tools[0], labeller.PLACEHOLDER, r)].total)
    rows = [[reason, str(by_reason[(tools[0], labeller.PLACEHOLDER, reason)].total)]
            + [by_reason[(t, labeller.PLACEHOLDER, reason)].rate() for t in tools] for reason in reasons]
    out.append("\n### Placeholders per reason of the label (both corpora, both splits)\n\n"
               + table(["why a placeholder", "examples"] + [f"{t} flags" for t in tools], rows))

    if show_misses is not None:
        out.append(_listing(items, flags["chord-git"], labeller.CREDENTIAL, False, show_misses,
                            "credential rules chord-git misses"))
    if show_flags is not None:
        out.append(_listing(items, flags["chord-git"], None, True, show_flags,
                            "placeholder / identifier rules chord-git flags"))
    if (REPO / "bench" / "leaky_repo.py").is_file():
        out.append("\nLeaky Repo: scored by `bench/leaky_repo.py`.")
    return "\n".join(out)


def _listing(items: Sequence[Item], flagged: set[str], label: str | None, hit: bool, limit: int, title: str) -> str:
    """Rule ids per class whose examples of ``label`` (None: the benign ones) are flagged == ``hit``."""
    per_class: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        wanted = item.label.label == label if label else item.label.label in BENIGN
        if wanted and (item.file in flagged) == hit:
            tag = f"{item.example.rule} [{item.label.split}]"
            per_class[item.label.cls][tag] += 1
    lines = [f"\n### {title}, by class (rule [split] examples)"]
    for cls, rules in sorted(per_class.items(), key=lambda kv: -sum(kv[1].values())):
        shown = rules.most_common(limit or None)
        more = len(rules) - len(shown)
        listed = ", ".join(f"{rule} {n}" for rule, n in shown) + (f", … {more} more rules" if more else "")
        lines.append(f"- **{cls}** ({sum(rules.values())} examples, {len(rules)} rules): {listed}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kingfisher", type=Path, help="git dir or checkout of mongodb/kingfisher")
    parser.add_argument("--trufflehog", type=Path, help="git dir or checkout of trufflesecurity/trufflehog")
    parser.add_argument("--labels", type=Path, default=split.HERE, help="where the frozen labels live")
    parser.add_argument("--write-labels", action="store_true",
                        help="label the given snapshots and write the labels, split and manifest")
    parser.add_argument("--show-misses", type=int, nargs="?", const=3, default=None, metavar="N",
                        help="missed credential rules per class (N per class, 0: all)")
    parser.add_argument("--show-flags", type=int, nargs="?", const=3, default=None, metavar="N",
                        help="flagged placeholder / identifier rules per class")
    parser.add_argument("--no-gitleaks", action="store_true")
    parser.add_argument("--gitleaks", help="gitleaks binary (default: the bench cache, installed when absent)")
    args = parser.parse_args(argv)

    paths = {c: p for c, p in (("kingfisher", args.kingfisher), ("trufflehog", args.trufflehog)) if p}
    if not paths:
        parser.error("give --kingfisher and/or --trufflehog")
    read = {corpus: read_corpus(corpus, path) for corpus, path in paths.items()}

    if args.write_labels:
        for corpus, (commit, examples, _) in read.items():
            split.write_labels(args.labels, corpus, commit, [fresh_label(corpus, e) for e in examples])
        # The manifest covers every stored corpus, also one not relabelled this time.
        rules = {c: {rule for rule, _ in split.read_labels(args.labels, c)[1]}
                 for c in CORPORA if split.labels_path(args.labels, c).is_file()}
        split.write_manifest(args.labels, rules)
        print(f"labels, split and manifest written to {args.labels}")
    bad = split.check_manifest(args.labels)
    if bad:
        print(f"refusing to score: {', '.join(bad)} differ from {split.MANIFEST} (relabel with --write-labels)")
        return 2

    items: list[Item] = []
    for corpus, (commit, examples, skipped) in read.items():
        stored_commit, stored = split.read_labels(args.labels, corpus)
        chosen, stale = frozen_items(corpus, examples, stored)
        items += chosen
        note = "" if commit == stored_commit else f" (labels are of {stored_commit[:12]})"
        print(f"{corpus}: snapshot {commit[:12] or '?'}{note}: {len(examples)} examples, {len(chosen)} scored, "
              f"{stale} without a matching label" + (f", {skipped} cases not evaluable" if skipped else ""))

    from bench.speed_support import gitleaks
    binary, note = (None, "gitleaks skipped") if args.no_gitleaks else gitleaks(args.gitleaks)
    print(note)
    flags = scan_all(items, binary)
    print(report(items, flags, args.show_misses, args.show_flags))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
