"""Password labels in any language (issue 33): every table word, labels translators wrote, prose.

- Each label word the tables hold is found before a value (``<word>: <value>``), as written and
  capitalised.
- The labels of the languages a held-out test found missing come from the gettext catalogs of
  Debian's packages (``bench/label_languages.labels.json``, written by ``bench/label_languages.py``),
  not from the tables: each alone before a value, and in a list of login details in its language.
- A label no table holds is found in the company of a login: the line names a user or a host, or
  its list does (``scanners.anylabel``).
- Prose: "Secret phrase: …", "the password is the word '…'", "login is admin and …", "changed it
  to … (the DB password)", "see below" with the value lines down, "пароль от базы …".
- Hard negatives: sentences about passwords with no value, settings with no login, a word of the
  label's language or a placeholder after the label.
"""
from __future__ import annotations

import hashlib
import json
import string
from pathlib import Path

import pytest

from chord_git.secrets import find
from chord_git.secrets.scanners.languages import label_class
from chord_git.secrets.words import languages, vocab

CATALOG_LABELS = Path(__file__).resolve().parents[2] / "bench" / "label_languages.labels.json"
ISSUE_LANGUAGES = ("ca", "bg", "lt", "lv", "et", "sl", "ka", "hy", "mn", "eu", "cy", "af", "eo")
_ALNUM = string.ascii_letters + string.digits


def _value(seed: str, generated: bool = False) -> str:
    """A typed password (both cases, a digit, a symbol) or a generated token, from a hash of ``seed``."""
    digest = hashlib.sha256(seed.encode()).digest()
    if generated:
        body = [_ALNUM[b % len(_ALNUM)] for b in digest[:28]]
        body[3], body[9], body[15] = "7", "Q", "k"
        return "".join(body)
    chars = [_ALNUM[b % len(_ALNUM)] for b in digest[:12]]
    chars[0], chars[2], chars[4], chars[7] = "k", "ZXRW"[digest[20] % 4], "3579"[digest[21] % 4], "!%^*"[digest[22] % 4]
    return "".join(chars)


def _found(text: str, value: str) -> bool:
    start = text.rindex(value)
    return any(s.start < start + len(value) and start < s.end for s in find(text))


def _table_words() -> list[tuple[str, str]]:
    words = [(w, vocab.PASSWORD) for lang in languages.LANGUAGES for w in lang.passwords]
    words += [(w, vocab.SECRET) for lang in languages.LANGUAGES for w in lang.secrets]
    words += [(w, vocab.PASSWORD) for w in (*vocab.PASSWORD_LABELS, *sorted(vocab.ASCII_PASSWORD_WORDS))]
    words += [(w, vocab.SECRET) for w in vocab.SECRET_LABELS]
    return words


def test_every_table_word_is_found_before_a_value() -> None:
    missed = []
    for word, cls in _table_words():
        for written in dict.fromkeys((word, word[:1].upper() + word[1:])):
            value = _value(written, generated=cls != vocab.PASSWORD)
            line = f"{written}: {value}"
            if not _found(line, value):
                missed.append(line)
    assert missed == []


def _catalog() -> dict[str, dict[str, list[str]]]:
    languages_: dict[str, dict[str, list[str]]] = json.loads(CATALOG_LABELS.read_text(encoding="utf-8"))["languages"]
    return languages_


@pytest.mark.parametrize("code", ISSUE_LANGUAGES)
def test_catalog_labels_of_the_missed_languages_are_found(code: str) -> None:
    entry = _catalog()[code]
    assert entry["labels"]
    for label in entry["labels"]:
        for sep in (": ", " = ", "：", " — "):
            value = _value(f"{code}/{label}/{sep}")
            assert _found(f"{label}{sep}{value}", value), f"{label}{sep}{value}"
        value = _value(f"{code}/{label}/list", generated=True)
        user = (entry["users"] or ["User"])[0]
        server = (entry["servers"] or ["Server"])[0]
        listed = f"{server}: db1.internal\n{user}: deploy\n{label}: {value}"
        assert _found(listed, value), listed


@pytest.mark.parametrize("code", ISSUE_LANGUAGES)
def test_catalog_labels_before_a_word_of_their_language_or_a_placeholder_are_left_alone(code: str) -> None:
    entry = _catalog()[code]
    lines = [f"{label}: {word}" for label in entry["labels"] for word in entry["words"]]
    lines += [f"{label}: {stand_in}" for label in entry["labels"] for stand_in in ("<password>", "********", "${PASSWORD}")]
    lines += [f"{label} must be 12 characters" for label in entry["labels"]]
    lines += entry["sentences"]
    assert [line for line in lines if find(line)] == []


# Labels no table holds (Latin, Hawaiian): the rule that needs no language finds them in company.
UNLISTED = ("Tessera", "ʻŌlelo huna")


@pytest.mark.parametrize("label", UNLISTED)
def test_a_label_no_table_holds_is_found_in_a_list_of_login_details(label: str) -> None:
    assert label_class(label) is None
    value = _value(label)
    listed = f"Сервер: db1\nКористувач: admin\n{label}: {value}"
    assert _found(listed, value)
    assert _found(f"- **{label}:** {value}\n- Host: vpn.example.org\n- Login: deploy", value)


@pytest.mark.parametrize("label", UNLISTED)
def test_a_label_no_table_holds_is_found_on_a_line_naming_the_login(label: str) -> None:
    value = _value(label, generated=True)
    assert _found(f"staging db: user admin, {label}: {value}", value)
    assert _found(f"| db1.internal | admin | {value} |", value)


@pytest.mark.parametrize("label", UNLISTED)
def test_a_label_no_table_holds_alone_or_among_settings_is_left_alone(label: str) -> None:
    value = _value(label)
    assert find(f"{label}: {value}") == []  # nothing vouches for the label
    settings = f"Region: eu-west-1\nTier: standard\n{label}: {value}\nPort: 5432"
    assert find(settings) == []


@pytest.mark.parametrize("text, value", [
    ("Secret phrase: Zk3!pQ9wLm2x", "Zk3!pQ9wLm2x"),
    ("The password is the word 'Zk3!pQ9wLm2x'", "Zk3!pQ9wLm2x"),
    ("staging login is admin and Zk3!pQ9wLm2x", "Zk3!pQ9wLm2x"),
    ("we changed it to Zk3!pQ9wLm2x after the incident (the DB password)", "Zk3!pQ9wLm2x"),
    ("Password for staging: see below\n\nZk3!pQ9wLm2x", "Zk3!pQ9wLm2x"),
    ("Password for staging: see below\nIt works for the replica too.\n\n    `Zk3!pQ9wLm2x`", "Zk3!pQ9wLm2x"),
    ("Пароль: см. ниже\n\nZk3!pQ9wLm2x", "Zk3!pQ9wLm2x"),
    ("пароль от базы Zk3!pQ9wLm2x", "Zk3!pQ9wLm2x"),
    ("Пароль от базы данных Zk3!pQ9wLm2x, не теряй", "Zk3!pQ9wLm2x"),
])
def test_prose_forms(text: str, value: str) -> None:
    assert _found(text, value), text


@pytest.mark.parametrize("text", [
    "პაროლი უნდა შეიცავდეს მინიმუმ 12 სიმბოლოს და ერთ ციფრს.",  # Georgian: the password must hold 12 characters
    "Port: 5432",
    "Mode: readonly",
    "Port: 5432\nMode: readonly\nReplicas: 3\nBuild: 7f3c9a1e",
    "Name: web-1\nRegion: eu-west-1\nInstance: i-0a1b2c3d4e5f6789a\nUser: deploy",
    "Parool: puudub",  # Estonian: the password: missing
    "Contrasenya: obligatòria",
    "Slaptažodis: <password>",
    "The secret phrase is important to remember.",
    "the password is the word length",
    "we changed it to staging after the incident (the DB password)",
    "SSH login is disabled and Ed25519 keys are required",
    "login is required and enabled",
    "Password for staging: see below\n\n## Next steps",
    "пароль от базы лежит в сейфе",
    "- Version: v2.3.1-RC4\n- Host: db1.internal\n- User: admin",
    "Port: 5432\nMode: readonly\nRelease: Xk29!fQ@2m",  # an "@" inside a value names no login
])
def test_hard_negatives(text: str) -> None:
    assert find(text) == []


def _mo(entries: dict[str, str]) -> bytes:
    """A gettext catalog (GNU ``.mo``, UTF-8) holding ``entries``."""
    import struct

    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", **entries}
    keys = sorted(entries)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(entries[k].encode() + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    table_ids, table_strs, offset = [], [], start
    for k in keys:
        table_ids += [len(k.encode()), offset]
        offset += len(k.encode()) + 1
    for k in keys:
        table_strs += [len(entries[k].encode()), offset]
        offset += len(entries[k].encode()) + 1
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    return header + struct.pack(f"<{len(table_ids)}I", *table_ids) + struct.pack(f"<{len(table_strs)}I", *table_strs) \
        + ids + strs


def test_the_bench_reads_labels_out_of_gettext_catalogs(tmp_path: Path) -> None:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("label_languages", CATALOG_LABELS.with_name("label_languages.py"))
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    for locale, entries in (("ta", {"_Password:": "_P கடவுச்சொல்:", "Cancel": "ரத்துசெய்"}),
                            ("pt_BR", {"Password:": "Senha:", "Username:": "Usuário:", "Server": "Servidor",
                                       "Passwords do not match.": "As senhas não conferem."}),
                            ("si", {"_Password:": "රහස්පදය: (__P)"})):
        folder = tmp_path / "usr" / "share" / "locale" / locale / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "test.mo").write_bytes(_mo(entries))
    data = bench.extract([tmp_path])
    assert data["ta"].labels == ["கடவுச்சொல்"] and data["ta"].words == []
    assert data["pt"].labels == ["Senha"] and data["pt"].users == ["Usuário"] and data["pt"].servers == ["Servidor"]
    assert data["pt"].sentences == ["As senhas não conferem."]
    assert data["si"].labels == ["රහස්පදය"]
    lines = bench.lines_for("pt", data["pt"])
    assert any(line.value and line.text.startswith("Senha: ") for line in lines)
    assert any(not line.value and line.text == "Senha: <password>" for line in lines)
