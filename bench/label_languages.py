"""Recall of password labels in every language, measured on labels translators wrote (issue 33).

The labels come from another procedure than the rules: the translations of "Password",
"Password:" and "Passphrase" in gettext catalogs (``.mo``) that Debian packages ship (``passwd``,
``login``, ``sudo``, ``util-linux-locales``, ``gnome-keyring``, ``seahorse``, ``gdm3``...). Each
label makes ``<label> <separator> <random value>`` lines, and hard negatives beside them: the
label in a sentence with no value ("<label> must be 12 characters"), the label followed by a word
of its own language (taken from the same catalogs) or by a placeholder, and the catalog's own
messages that hold the label. Layer 1 (``chord_git.secrets.find``) reads each line alone.

    python bench/label_languages.py --root DIR ...        # trees holding usr/share/locale (or locale dirs)
    python bench/label_languages.py --debs FILE.deb ...   # extracted with dpkg-deb into a temporary folder
    python bench/label_languages.py --packages passwd sudo ...   # apt-get download, then as --debs
    python bench/label_languages.py --labels FILE.json    # labels saved before (``--write-labels``)
    [--freeze]            # write the manifest: the held-out languages and the sha256 of their labels
    [--show N]            # misses and flagged negatives, N per split

Languages are split by a hash of their code into a dev set (rules may be tuned on it) and a
held-out set, frozen in ``bench/label_languages.manifest.json`` (the held-out labels' sha256)
before the rules changed; a run whose held-out labels hash differently says so. The languages
named in issue 33 are dev languages (tests are written with them). "Covered" counts the 100 most
spoken languages whose catalog labels are found in at least 90% of their lines with no negative
flagged.
"""
from __future__ import annotations

import argparse
import gettext
import hashlib
import json
import random
import re
import string
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.secrets import find  # noqa: E402

MANIFEST = REPO / "bench" / "label_languages.manifest.json"
LABELS_FILE = REPO / "bench" / "label_languages.labels.json"

# The messages whose translation is a password label, most specific first.
LABEL_MSGIDS = ("Password:", "Password: ", "_Password:", "Password", "Passphrase", "_Passphrase:", "Passphrase:")
# The lines a list of login details holds beside the password, as the same catalogs translate them.
USER_MSGIDS = ("Username:", "_Username:", "User name:", "_User name:", "Username", "User name", "User")
SERVER_MSGIDS = ("Server:", "_Server:", "Server", "Host:", "_Host:", "Host")
USER_VALUES = ("admin", "deploy", "mkowalski", "ops@example.org")
SERVER_VALUES = ("db1.internal", "10.0.4.12", "vpn.example.org")
# Messages of the same catalogs: their words are words of the language (negatives after a label).
_WORD_OF_LANGUAGE = re.compile(r"[^\W\d_]{5,}")
# Locales folded into one language; English ones are left out (the labels are the msgids).
FOLD = {"nb": "no", "nn": "no", "sr": "sh", "hr": "sh", "bs": "sh", "ckb": "ku", "ca@valencia": "ca"}
ENGLISH = ("en",)
# Named in issue 33 (labels the tables lacked, a held-out test before this bench): dev languages.
DEV_ALWAYS = frozenset({"ca", "bg", "lt", "lv", "et", "sl", "ka", "hy", "mn", "eu", "cy", "af", "eo"})

# The 100 most spoken languages (first and second language), after Ethnologue's 2023 ranking;
# varieties of Arabic and Chinese are folded into their macrolanguage, Serbo-Croatian is "sh",
# Norwegian "no". Codes are ISO 639-1 where one exists, else ISO 639-3.
TOP_100 = (
    "en", "zh", "hi", "es", "fr", "ar", "bn", "pt", "ru", "ur", "id", "de", "ja", "pcm", "mr", "te", "tr", "ta",
    "vi", "tl", "ko", "fa", "ha", "sw", "jv", "it", "pa", "gu", "th", "kn", "am", "bho", "yo", "my", "or", "ml",
    "pl", "uk", "uz", "ig", "ms", "su", "ps", "ro", "nl", "ln", "sd", "ne", "si", "ctg", "za", "km", "tk", "as",
    "mad", "so", "mwr", "mag", "bgc", "hu", "hne", "el", "ny", "dcc", "ak", "kk", "syl", "zu", "cs", "rw", "dhd",
    "ht", "ilo", "qu", "rn", "sv", "hmn", "sn", "ug", "hil", "mos", "xh", "be", "bal", "kok", "sh", "az", "ceb",
    "ku", "skr", "mg", "ti", "om", "tg", "ky", "bg", "he", "ff", "ca", "sq",
)

_ALNUM = string.ascii_letters + string.digits
SEPARATORS = (": ", " = ", "：", " — ", ":\t")
PLACEHOLDERS = ("<password>", "********", "${PASSWORD}", "YOUR_PASSWORD_HERE", "changeme", "xxxxxxxx")


def language_of(locale: str) -> str | None:
    """The language a locale folder names (``pt_BR`` -> ``pt``, ``sr@latin`` -> ``sh``), or None for English."""
    if locale in FOLD:
        return FOLD[locale]
    base = re.split(r"[_@]", locale)[0]
    if base in ENGLISH:
        return None
    return FOLD.get(base, base)


def clean_label(translation: str) -> str:
    """A translated label without its accelerator ("_Contraseña:", "密码(_P):") and final colon."""
    text = re.sub(r"\s*\(\s*[_&]+[^\s()]\s*\)", "", translation)  # "密码(_P):", "රහස්පදය: (__P)"
    text = re.sub(r"^_[A-Za-z]\s+(?=[^\x00-\x7f])", "", text)  # "_P கடவுச்சொல்:"
    text = text.replace("_", "").replace("&", "").replace("\xa0", " ")
    return re.sub(r"[\s:：៖׃]+$", "", text).strip()


def catalog_entries(path: Path) -> dict[str, str]:
    """msgid -> translation of one ``.mo`` file (the first form of a plural), {} when unreadable."""
    try:
        with path.open("rb") as handle:
            catalog = gettext.GNUTranslations(handle)
    except (OSError, UnicodeDecodeError, ValueError, IndexError):
        return {}
    entries: dict[object, object] = getattr(catalog, "_catalog", {})  # gettext reads no other way
    found: dict[str, str] = {}
    for key, value in entries.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if isinstance(msgid, str) and isinstance(value, str) and msgid and msgid not in found:
            found[msgid] = value
    return found


@dataclass
class LanguageData:
    labels: list[str] = field(default_factory=list)  # distinct, in the order found
    words: list[str] = field(default_factory=list)  # words of the language, not labels
    sentences: list[str] = field(default_factory=list)  # catalog messages holding a label, no value
    sources: set[str] = field(default_factory=set)  # catalog domains the labels came from
    users: list[str] = field(default_factory=list)  # the language's "Username" (a list's other line)
    servers: list[str] = field(default_factory=list)  # its "Server" or "Host"


def locale_dirs(roots: Iterable[Path]) -> Iterator[Path]:
    for root in roots:
        for candidate in (root / "usr" / "share" / "locale", root):
            if candidate.is_dir() and any(candidate.glob("*/LC_MESSAGES/*.mo")):
                yield candidate
                break


def extract(roots: Sequence[Path], max_labels: int = 4) -> dict[str, LanguageData]:
    """Per language, the catalogs' password labels, words and sentences holding a label."""
    data: dict[str, LanguageData] = {}
    catalogs: list[tuple[str, str, dict[str, str]]] = []
    for locale_dir in locale_dirs(roots):
        for path in sorted(locale_dir.glob("*/LC_MESSAGES/*.mo")):
            language = language_of(path.parent.parent.name)
            if language is not None:
                catalogs.append((language, path.stem, catalog_entries(path)))
    for language, domain, entries in catalogs:
        lang = data.setdefault(language, LanguageData())
        for msgid in LABEL_MSGIDS:
            translation = entries.get(msgid)
            if not translation:
                continue
            label = clean_label(translation)
            if label and len(label) <= 40 and label not in lang.labels and len(lang.labels) < max_labels:
                lang.labels.append(label)
                lang.sources.add(domain)
    for language, domain, entries in catalogs:
        lang = data[language]
        for msgids, names in ((USER_MSGIDS, lang.users), (SERVER_MSGIDS, lang.servers)):
            for msgid in msgids:
                name = clean_label(entries.get(msgid, ""))
                if name and len(name) <= 40 and name not in names and len(names) < 2:
                    names.append(name)
        if not lang.labels:
            continue
        lowered = [label.lower() for label in lang.labels]
        for msgid, translation in sorted(entries.items()):
            if msgid in LABEL_MSGIDS or "%" in translation or "\n" in translation:
                continue
            low = translation.lower()
            holds = any(label in low for label in lowered)
            if holds and len(lang.sentences) < 3 and len(translation.split()) >= 3 and len(translation) < 120:
                lang.sentences.append(clean_label(translation))
            elif not holds and len(lang.words) < 2 and msgid in ("Cancel", "Close", "Unknown", "Continue", "Remove",
                                                                   "Delete", "Settings", "Change", "Unlock"):
                word = _WORD_OF_LANGUAGE.search(translation.replace("_", ""))
                if word is not None and word.group() not in lang.words:
                    lang.words.append(word.group())
    return {code: lang for code, lang in sorted(data.items()) if lang.labels}


def split_of(code: str) -> str:
    if code in DEV_ALWAYS:
        return "dev"
    return "dev" if hashlib.sha256(code.encode()).digest()[0] % 2 == 0 else "held-out"


def _value(rng: random.Random, kind: int) -> str:
    """A typed password (both cases, a digit, a symbol) or a generated token."""
    if kind == 0:
        chars = [rng.choice(_ALNUM) for _ in range(rng.randint(10, 14))]
        chars[0], chars[2], chars[4], chars[7] = (rng.choice(string.ascii_lowercase), rng.choice(string.ascii_uppercase),
                                                  rng.choice("23456789"), rng.choice("!@%^*+?~#"))
        return "".join(chars)
    if kind == 1:
        chars = [rng.choice(_ALNUM) for _ in range(24)]
        chars[3], chars[9], chars[15] = rng.choice(string.digits), rng.choice(string.ascii_uppercase), \
            rng.choice(string.ascii_lowercase)
        return "".join(chars)
    chars = [rng.choice(string.ascii_lowercase + string.digits) for _ in range(10)]
    chars[1], chars[6] = rng.choice("23456789"), rng.choice(string.ascii_uppercase)
    return "".join(chars)


@dataclass(frozen=True)
class Line:
    language: str
    text: str
    value: str  # '' for a negative
    why: str


def lines_for(language: str, lang: LanguageData) -> list[Line]:
    out: list[Line] = []
    for label in lang.labels:
        rng = random.Random(hashlib.sha256(f"{language}/{label}".encode()).digest())
        for number, sep in enumerate(SEPARATORS):
            value = _value(rng, number % 3)
            out.append(Line(language, f"{label}{sep}{value}", value, f"sep {sep!r}"))
        out.append(Line(language, f"{label} must be 12 characters", "", "sentence"))
        for word in lang.words[:2]:
            out.append(Line(language, f"{label}: {word}", "", "word"))
        for placeholder in PLACEHOLDERS[:3]:
            out.append(Line(language, f"{label}: {placeholder}", "", "placeholder"))
    for sentence in lang.sentences[:3]:
        out.append(Line(language, sentence, "", "catalog sentence"))
    return out


def list_lines_for(language: str, lang: LanguageData) -> list[Line]:
    """The label as one line of a list of login details, in its language: server, user, password."""
    if not lang.users or not lang.servers:
        return []
    out: list[Line] = []
    for number, label in enumerate(lang.labels):
        rng = random.Random(hashlib.sha256(f"list/{language}/{label}".encode()).digest())
        head = (f"{lang.servers[0]}: {SERVER_VALUES[number % len(SERVER_VALUES)]}\n"
                f"{lang.users[0]}: {USER_VALUES[number % len(USER_VALUES)]}\n")
        for kind in range(3):
            value = _value(rng, kind)
            out.append(Line(language, f"{head}{label}: {value}", value, "list"))
        for word in lang.words[:2]:
            out.append(Line(language, f"{head}{label}: {word}", "", "list, word"))
        out.append(Line(language, f"{head}{label}: {PLACEHOLDERS[0]}", "", "list, placeholder"))
    return out


def labels_hash(data: Mapping[str, Sequence[str]]) -> str:
    return hashlib.sha256(json.dumps({k: list(v) for k, v in sorted(data.items())}, ensure_ascii=False,
                                     sort_keys=True).encode()).hexdigest()


@dataclass
class Tally:
    positives: int = 0
    found: int = 0
    negatives: int = 0
    flagged: int = 0

    def add(self, other: Tally) -> None:
        self.positives += other.positives
        self.found += other.found
        self.negatives += other.negatives
        self.flagged += other.flagged

    @property
    def recall(self) -> float:
        return self.found / self.positives if self.positives else 0.0


def hit(line: Line) -> bool:
    spans = find(line.text)
    if not line.value:
        return bool(spans)
    start = line.text.rindex(line.value)
    return any(s.start < start + len(line.value) and start < s.end for s in spans)


def run(data: Mapping[str, LanguageData], show: int, form: str = "alone") -> dict[str, object]:
    """Scores one form of the lines: ``alone`` (a label line by itself) or ``list`` (in a list)."""
    per_language: dict[str, Tally] = {}
    misses: dict[str, list[Line]] = {"dev": [], "held-out": []}
    make = lines_for if form == "alone" else list_lines_for
    print(f"\n=== labels {form}")
    for code, lang in data.items():
        lines = make(code, lang)
        if not lines:
            continue
        tally = per_language[code] = Tally()
        for line in lines:
            got = hit(line)
            if line.value:
                tally.positives += 1
                tally.found += got
                if not got:
                    misses[split_of(code)].append(line)
            else:
                tally.negatives += 1
                tally.flagged += got
                if got:
                    misses[split_of(code)].append(line)
    print(f"{'lang':<5} {'split':<9} {'labels':<44} recall   negatives flagged")
    for code, tally in per_language.items():
        shown = " | ".join(data[code].labels)[:44]
        print(f"{code:<5} {split_of(code):<9} {shown:<44} {tally.found:>2}/{tally.positives:<3} "
              f"{tally.flagged:>2}/{tally.negatives}")
    summary: dict[str, object] = {}
    for split in ("dev", "held-out"):
        total = Tally()
        for code, tally in per_language.items():
            if split_of(code) == split:
                total.add(tally)
        languages = sum(1 for code in per_language if split_of(code) == split)
        print(f"\n{split}: {languages} languages, recall {total.found}/{total.positives} = {total.recall:.3f}, "
              f"negatives flagged {total.flagged}/{total.negatives}")
        summary[split] = {"languages": languages, "recall": round(total.recall, 4), "flagged": total.flagged,
                          "negatives": total.negatives}
        for line in misses[split][:show]:
            print(f"    {'MISS' if line.value else 'FP  '} {line.language} [{line.why}] {line.text!r}")
    present = [code for code in TOP_100 if code in per_language]
    covered = [code for code in present
               if per_language[code].recall >= 0.9 and per_language[code].flagged == 0]
    print(f"\n100 most spoken languages: {len(present)} with catalog labels, {len(covered)} covered "
          f"(recall >= 0.9, no negative flagged); English is the msgids' own language and not counted as present")
    print("  not covered: " + " ".join(code for code in present if code not in covered))
    summary["top100_present"], summary["top100_covered"] = len(present), len(covered)
    return summary


def from_debs(debs: Sequence[Path], into: Path) -> Path:
    for deb in debs:
        subprocess.run(["dpkg-deb", "-x", str(deb), str(into)], check=True)
    return into


def deb_versions(debs: Sequence[Path]) -> list[str]:
    out = []
    for deb in debs:
        got = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Version"], check=True, capture_output=True,
                             text=True).stdout.split()
        out.append(f"{got[1]} {got[3]}" if len(got) >= 4 else deb.name)
    return sorted(out)


def load_labels(path: Path) -> dict[str, LanguageData]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {code: LanguageData(labels=entry["labels"], words=entry.get("words", []),
                               sentences=entry.get("sentences", []), sources=set(entry.get("sources", [])),
                               users=entry.get("users", []), servers=entry.get("servers", []))
            for code, entry in raw["languages"].items()}


def save_labels(path: Path, data: Mapping[str, LanguageData], packages: Sequence[str]) -> None:
    payload = {"source": "translations of " + ", ".join(repr(m) for m in LABEL_MSGIDS) + " in the gettext catalogs "
                         "of these Debian 12 packages",
               "packages": list(packages),
               "languages": {code: {"labels": lang.labels, "words": lang.words, "sentences": lang.sentences,
                                    "sources": sorted(lang.sources), "users": lang.users,
                                    "servers": lang.servers} for code, lang in data.items()}}
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def check_manifest(data: Mapping[str, LanguageData]) -> None:
    if not MANIFEST.exists():
        print("(no manifest: run with --freeze before tuning)")
        return
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    held = {code: data[code].labels for code in manifest["held_out"] if code in data}
    same = labels_hash(held) == manifest["held_out_sha256"] and len(held) == len(manifest["held_out"])
    print(f"held-out labels {'match' if same else 'DIFFER FROM'} the frozen manifest "
          f"({len(manifest['held_out'])} languages, sha256 {manifest['held_out_sha256'][:12]}…)")


def freeze(data: Mapping[str, LanguageData], packages: Sequence[str]) -> None:
    held = {code: lang.labels for code, lang in data.items() if split_of(code) == "held-out"}
    dev = {code: lang.labels for code, lang in data.items() if split_of(code) == "dev"}
    MANIFEST.write_text(json.dumps({
        "note": "frozen before the rules were tuned; the held-out languages are never tuned on",
        "packages": list(packages), "dev": sorted(dev), "held_out": sorted(held),
        "held_out_sha256": labels_hash(held), "dev_sha256": labels_hash(dev),
    }, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"froze {len(held)} held-out and {len(dev)} dev languages in {MANIFEST}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, nargs="*", default=[], help="trees holding usr/share/locale")
    parser.add_argument("--debs", type=Path, nargs="*", default=[], help=".deb files to read the catalogs of")
    parser.add_argument("--packages", nargs="*", default=[], help="Debian packages to download (apt-get download)")
    parser.add_argument("--labels", type=Path, default=None, help="labels saved by --write-labels")
    parser.add_argument("--write-labels", type=Path, default=None, metavar="FILE")
    parser.add_argument("--freeze", action="store_true", help="write the manifest of the held-out languages")
    parser.add_argument("--show", type=int, default=0, metavar="N")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON last")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        debs = list(args.debs)
        if args.packages:
            subprocess.run(["apt-get", "download", *args.packages], cwd=tmp, check=True, capture_output=True)
            debs.extend(sorted(Path(tmp).glob("*.deb")))
        roots = list(args.root)
        if debs:
            roots.append(from_debs(debs, Path(tmp) / "root"))
        if roots:
            data = extract(roots)
            packages = deb_versions(debs)
        else:
            labels = args.labels or LABELS_FILE
            data = load_labels(labels)
            packages = json.loads(labels.read_text(encoding="utf-8")).get("packages", [])
    if not data:
        print("no labels found", file=sys.stderr)
        return 2
    if args.write_labels:
        save_labels(args.write_labels, data, packages)
    if args.freeze:
        freeze(data, packages)
    check_manifest(data)
    summary = {form: run(data, args.show, form) for form in ("alone", "list")}
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
