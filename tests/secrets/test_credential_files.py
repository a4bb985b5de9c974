"""Credential files pasted into memory and crackable password hashes (layer 1).

Every value is generated here from a seeded hash (no value of a public corpus): passwords,
crypt-style salts and hashes of each format's alphabet and length, keys of each file's shape.
Each positive form stands beside its hard negatives (the same file with a stand-in, the line of
a neighbouring format that holds no credential, prose naming the format).
"""
from __future__ import annotations

import base64
import hashlib

import pytest

from chord_git.secrets import find, redact
from chord_git.secrets.scanners.credential_files import stand_in
from tests.secrets.fakes import seeded

_CRYPT = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_B64 = _ALNUM + "+/"
_HEX = "0123456789abcdef"
_OWN_KINDS = {"credential-file", "password-hash", "private-key"}




def _password(seed: str) -> str:
    """A password a person typed: a short word and digits (weak, as real ones are)."""
    words = ("pass", "summer", "dragon", "monkey", "letmein", "admin", "qwerty", "hunter")
    digest = hashlib.sha256(seed.encode()).digest()
    return words[digest[0] % len(words)] + str(100 + digest[1] % 900)


def _b64(data: str) -> str:
    return base64.b64encode(data.encode()).decode()


BCRYPT = "$2y$12$" + seeded("bcrypt", 53, _CRYPT)
SHA512_CRYPT = "$6$" + seeded("salt6", 16, _CRYPT) + "$" + seeded("hash6", 86, _CRYPT)
SHA256_CRYPT = "$5$" + seeded("salt5", 16, _CRYPT) + "$" + seeded("hash5", 43, _CRYPT)
MD5_CRYPT = "$1$" + seeded("salt1", 8, _CRYPT) + "$" + seeded("hash1", 22, _CRYPT)
APR1 = "$apr1$" + seeded("apr", 8, _CRYPT) + "$" + seeded("apr-h", 22, _CRYPT)
YESCRYPT = "$y$j9T$" + seeded("ysalt", 22, _CRYPT) + "$" + seeded("yhash", 43, _CRYPT)
LDAP_SHA = "{SHA}" + _b64(seeded("ldap", 20, _ALNUM))[:27] + "="
MYSQL = "*" + seeded("mysql", 40, "0123456789ABCDEF")
DJANGO = "pbkdf2_sha256$600000$" + seeded("dj-salt", 22, _ALNUM) + "$" + seeded("dj-hash", 43, _B64) + "="
KRB_ASREP = "$krb5asrep$23$alice@CORP.TEST:" + seeded("asrep-c", 32, _HEX) + "$" + seeded("asrep-e", 464, _HEX)
KRB_TGS = ("$krb5tgs$23$*svc_sql$CORP.TEST$MSSQLSvc/db01.corp.test*$" + seeded("tgs-c", 32, _HEX) + "$"
           + seeded("tgs-e", 600, _HEX))

# (form, text, the value that must be covered by a finding)
POSITIVES: list[tuple[str, str, str]] = [
    ("netrc-one-line", "machine mail.corp.test login ops@corp.test password {p}", "{p}"),
    ("netrc-lines", "machine api.corp.test\n  login deploy\n  password {p}\n", "{p}"),
    ("netrc-default", "default login anonymous password {p}", "{p}"),
    ("netrc-fenced", "## ~/.netrc\n\n```\nmachine h.corp.test login u password {p}\n```\n", "{p}"),
    ("pgpass", "db.corp.test:5432:app:app_user:{p}", "{p}"),
    ("pgpass-wildcards", "*:*:*:replicator:{p}", "{p}"),
    ("pgpass-escaped", "localhost:5432:app:app\\:ro:{p}\\:x", "{p}\\:x"),
    ("git-credentials", "https://user@corp.test:{p}!#@498@git.corp.test", "{p}!#@498"),
    ("git-credentials-plain", "https://deploy:{p}@git.corp.test", "{p}"),
    ("esmtprc", 'identity "ops@corp.test"\nhostname smtp.corp.test:587\nusername "ops@corp.test"\npassword "{p}"\n',
     "{p}"),
    ("esmtprc-equals", "hostname = smtp.corp.test\nusername = ops\npassword = {p}\n", "{p}"),
    ("msmtprc", "account work\nhost smtp.corp.test\nuser ops\npassword {p}\n", "{p}"),
    ("filezilla-base64", '<Server><Host>ftp.corp.test</Host><User>root</User>\n<Pass encoding="base64">{b}</Pass>',
     "{b}"),
    ("filezilla-plain", "<User>root</User>\n<Pass>{p}</Pass>", "{p}"),
    ("master-key-heading", "## config/master.key\n\n```\n{k}\n```\n", "{k}"),
    ("master-key-label", "config/credentials/production.key:\n{k}\n", "{k}"),
    ("shadow", "root:" + SHA512_CRYPT + ":19700:0:99999:7:::", SHA512_CRYPT),
    ("shadow-locked-hash", "svc:!" + SHA256_CRYPT + ":19700:0:99999:7:::", SHA256_CRYPT),
    ("shadow-yescrypt", "alice:" + YESCRYPT + ":19700:0:99999:7:::", YESCRYPT),
    ("proftpd", "ftp:" + MD5_CRYPT + ":3044:3045::/home/ftp:/bin/ftpsh", MD5_CRYPT),
    ("htpasswd-apr1", "admin:" + APR1, APR1),
    ("htpasswd-sha", "admin:" + LDAP_SHA, LDAP_SHA),
    ("htpasswd-bcrypt", "admin:" + BCRYPT, BCRYPT),
    ("sql-bcrypt", "INSERT INTO `users` VALUES (1, 'rogers', '" + BCRYPT + "', 1);", BCRYPT),
    ("sql-mysql", "CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password AS '" + MYSQL + "';", MYSQL),
    ("django", "INSERT INTO auth_user (password) VALUES ('" + DJANGO + "');", DJANGO),
    ("kerberos-asrep", KRB_ASREP, KRB_ASREP),
    ("kerberos-tgs", KRB_TGS, KRB_TGS),
]

NEGATIVES: list[tuple[str, str]] = [
    ("passwd-line", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin"),
    ("shadow-locked", "daemon:*:17431:0:99999:7:::\nlp:!:17431:0:99999:7:::\nsync:!!:17431::::::\nroot::17431:0:99999:7:::"),
    ("pgpass-star-password", "localhost:5432:*:postgres:*"),
    ("pgpass-header", "#hostname:port:database:username:password"),
    ("netrc-stand-in", "machine api.corp.test login deploy password <your-password>"),
    ("netrc-masked", "machine api.corp.test login deploy password ********"),
    ("netrc-changeme", "machine api.corp.test login deploy password changeme"),
    ("netrc-template", "machine api.corp.test login deploy password ${NETRC_PASSWORD}"),
    ("prose-pairs", "log in with user bob and password in the vault, then"),
    ("prose-password-word", "enter your user name and password to continue"),
    ("git-credentials-slot-name", "https://user:password@git.corp.test"),
    ("git-credentials-example-host", "https://deploy:Kq8x2mZ7vB4@git.example.com"),
    ("netrc-example-host", "Below is an example .netrc:\n\n```\nmachine example.com\nlogin daniel\npassword qwerty\n```\n"),
    ("pgpass-example-host", "db.example.org:5432:app:app_user:qwerty123"),
    ("format-letters", "| FileZilla | `<Pass>p</Pass>` |\n| .netrc | `machine h login u password p` |"),
    ("hash-prose", "The $6$ prefix marks SHA-512 crypt: $6$salt$hash, and $2y$ marks bcrypt."),
    ("hash-mask", "root:$6$xxxxxxxx$" + "x" * 86 + ":19700:0:99999:7:::"),
    ("git-sha", "commit " + seeded("sha", 40, _HEX) + "\nMerge: " + seeded("sha2", 7, _HEX)),
    ("master-key-prose", "The master.key file decrypts credentials.yml.enc; commit " + seeded("k2", 32, _HEX)),
    ("master-key-other-heading", "## build id\n\n```\n" + seeded("k3", 32, _HEX) + "\n```\n"),
    ("putty-prose", "A .ppk starts with PuTTY-User-Key-File-3: and holds Private-Lines: after the public ones."),
    ("filezilla-stand-in", '<Pass encoding="base64">' + _b64("changeme") + "</Pass>"),
    ("times", "12:30:45 build 3:4:5:6:7 finished\n2026-01-01T12:30:45:123 ok"),
    ("mysql-star-word", "*" + "ABCDEF" * 6 + "ABCD" + " is no hash"),
]


def _fill(template: str, seed: str) -> tuple[str, dict[str, str]]:
    fields = {"p": _password(seed), "k": seeded(seed + "/key", 32, _HEX)}
    fields["b"] = _b64(fields["p"] + "\n")
    return template.replace("{p}", fields["p"]).replace("{k}", fields["k"]).replace("{b}", fields["b"]), fields


@pytest.mark.parametrize("form,template,value", POSITIVES, ids=[p[0] for p in POSITIVES])
def test_a_credential_file_value_is_found(form: str, template: str, value: str) -> None:
    text, fields = _fill(template, form)
    secret, _ = _fill(value, form)
    start = text.index(secret)
    spans = [s for s in find(text) if s.start <= start and start + len(secret) <= s.end]
    assert spans, (form, text)
    assert secret not in redact(text)


@pytest.mark.parametrize("form,text", NEGATIVES, ids=[n[0] for n in NEGATIVES])
def test_a_line_without_a_credential_raises_no_credential_file_finding(form: str, text: str) -> None:
    assert [s for s in find(text) if s.kind in _OWN_KINDS] == [], form


def test_a_weak_password_counts_in_a_credential_slot() -> None:
    """The file says the slot holds a password: ``pass123`` and ``password`` are passwords there."""
    for weak in ("pass123", "password", "test"):
        text = f"db.corp.test:5432:app:app_user:{weak}"
        assert [s.kind for s in find(text)] == ["credential-file"], weak


@pytest.mark.parametrize("value", ["<your-password>", "***", "xxxxxxxx", "changeme", "change_me", "your_password",
                                   "PASSWORD", "YOUR_DB_PASSWORD", "${PGPASSWORD}", "{{ db_password }}", "$PGPASS",
                                   "password_here", "\u2026", "REDACTED", "*"])
def test_stand_ins(value: str) -> None:
    assert stand_in(value)


@pytest.mark.parametrize("value", ["pass123", "password", "hunter22", "swordfish!23", "Tr0ub4dor&3", "admin"])
def test_weak_passwords_are_no_stand_ins(value: str) -> None:
    assert not stand_in(value)


def test_the_kinds_name_what_was_found() -> None:
    text = (f"machine h.corp.test login u password {_password('k1')}\n\n"
            f"root:{SHA512_CRYPT}:19700:0:99999:7:::\n\n")
    ppk_private = "\n".join(seeded(f"ppk{n}", 64, _B64) for n in range(3))
    text += ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: test\nPublic-Lines: 2\n"
             + seeded("pub1", 64, _B64) + "\n" + seeded("pub2", 20, _B64) + "\nPrivate-Lines: 3\n"
             + ppk_private + "\nPrivate-MAC: " + seeded("mac", 64, _HEX) + "\n")
    kinds = [s.kind for s in find(text)]
    assert kinds == ["credential-file", "password-hash", "private-key"]
    private = [s for s in find(text) if s.kind == "private-key"][0]
    assert text[private.start:private.end] == ppk_private  # the private lines, not the public ones


def test_a_file_pasted_whole_is_redacted_line_by_line() -> None:
    """Every password of a pasted .netrc goes, each line's machine and login stay."""
    lines = [f"machine m{n}.corp.test login user{n} password {_password(f'n{n}')}" for n in range(4)]
    redacted = redact("## .netrc\n\n```\n" + "\n".join(lines) + "\n```\n")
    assert redacted.count("[REDACTED:credential-file]") == 4
    assert all(f"login user{n} password [REDACTED" in redacted for n in range(4))
