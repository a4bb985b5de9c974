"""One digest of everything layer 1 reports, to prove a speed change leaves findings unchanged.

Hashes ``find`` spans and ``redact`` output over the secret corpora (rows one by one and joined),
the generated credential forms, every adversarial unit (repeated and in lines), the dense inputs
(two seeds each), ``tests/data/secrets`` and ordinary bench text, then ``scan_added_lines`` over a
set of units as added lines of files. Run it before and after a change: the digest must match.

    python bench/findings_digest.py [--corpus DIR] [-v]   # DIR: $CHORD_CORPUS, else ../shared/corpus/secrets
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.secrets import scan  # noqa: E402
from testing import adversarial, credential_forms  # noqa: E402


def _corpus_texts(corpus: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(corpus.glob("*.jsonl")):
        rows = [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for index, text in enumerate(rows):
            yield f"{path.name}:{index}", text
        for start in range(0, len(rows), 200):  # rows joined: rules that span lines see neighbours
            yield f"{path.name}:joined:{start}", "\n".join(rows[start:start + 200])


def texts(corpus: Path) -> Iterator[tuple[str, str]]:
    yield from _corpus_texts(corpus)
    for index, form in enumerate(credential_forms.all_forms()):
        yield f"form:{index}", form.text
    for index, unit in enumerate(adversarial.UNITS):
        yield f"unit:{index}:x50", unit * 50
        yield f"unit:{index}:lines", "\n".join([unit] * 30)
        yield f"unit:{index}:words", " ".join(f"{unit}{n}" for n in range(20))
    for name, build in adversarial.DENSE.items():
        for seed in (1, 20261207):
            dense: str = build(seed)  # type: ignore[no-untyped-call]  # the table's builders are lambdas
            yield f"dense:{name}:{seed}", dense
    for path in sorted((REPO / "tests" / "data" / "secrets").glob("*.txt")):
        yield f"data:{path.name}", path.read_text(encoding="utf-8")
    sys.path.insert(0, str(REPO / "bench"))
    from secrets_throughput import build_text  # noqa: PLC0415
    yield "bench-text", build_text(corpus, 1_500_000)


def digest(corpus: Path, verbose: bool = False) -> str:
    total = hashlib.sha256()
    for name, text in texts(corpus):
        part = hashlib.sha256()
        for found in scan.find(text):
            part.update(repr(found).encode())
        part.update(b"\0")
        part.update(scan.redact(text).encode("utf-8", "surrogatepass"))
        total.update(name.encode() + b"\0" + part.digest())
        if verbose:
            print(name[:60], part.hexdigest()[:12])
    added: dict[str, list[tuple[int, str]]] = {}
    for index, unit in enumerate(adversarial.UNITS):
        added[f"notes/u{index}.md"] = [(n + 1, f"{unit}{n}") for n in range(12)]
    for index, form in enumerate(credential_forms.all_forms()[:400]):
        added.setdefault(f"forms/f{index // 40}.md", []).append((index % 40 + 1, form.text.replace("\n", " ")))
    for finding in scan.scan_added_lines(added):
        total.update(repr(finding).encode())
    return total.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_corpus = os.environ.get("CHORD_CORPUS") or str(REPO.parent / "shared" / "corpus" / "secrets")
    parser.add_argument("--corpus", type=Path, default=Path(default_corpus))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    print(digest(args.corpus, args.verbose))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
