"""Layer-1 scanner for passwords on command lines (R31): one declarative rule per tool.

``mysql -pSECRET`` (glued only: ``mysql -p db`` prompts and names a database), ``sshpass -p``,
``docker login -p``, ``redis-cli -a``, ``sqlcmd -P``, ``ldapsearch -w``, ``openssl … -passout
pass:…``, ``keytool -storepass``, ``smbclient -U user%…``, ``htpasswd -b file user …`` and
``echo … | docker login --password-stdin``, ``vault login <token>`` and a token piped or
here-stringed into ``gh auth login --with-token``. Generic ``--password=…``/``--token …`` flags and
``PGPASSWORD=… cmd`` prefixes are assignments (``assignments``); URLs are ``formats``'.

Linear time: the scan starts from each `` -`` flag (and a few literal anchors), looks back a
bounded distance for the start of the command and its tool, and reads a bounded number of
arguments; commands already parsed are cached by their start.
"""
from __future__ import annotations

import re

from ...support.dataclass_lazy import dataclass
from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences, trie_pattern
from ..text.spans import RANK_ASSIGNMENT, Span
from ..verdicts import values
from ..words import vocab

KIND = "password-in-command"
_MAX_COMMAND = 400
_MAX_ARGS = 40


@dataclass(frozen=True)
class ToolRule:
    """Where one tool takes a password on its command line."""

    tools: tuple[str, ...]
    glued: tuple[str, ...] = ()  # -pSECRET
    spaced: tuple[str, ...] = ()  # -p SECRET
    equals: tuple[str, ...] = ()  # --password=SECRET
    subcommand: str = ""  # must appear before the flag (docker *login*)
    prefix: str = ""  # the value starts with this, which is not part of it (openssl pass:)
    user_separator: str = ""  # the flag's value is user<sep>password (smbclient -U user%pw)
    positional: tuple[str, int] = ("", -1)  # (flag or subcommand that enables it, argument index)
    host_separator: str = ""  # the value ends before the last one (sqlplus user/password@db)
    source: str = ""


TOOL_RULES: tuple[ToolRule, ...] = (
    ToolRule(("mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlpump",
              "mariadb", "mariadb-dump", "mariadb-admin"), glued=("-p",), equals=("--password",),
             source="MySQL command options: -p[password] takes no space, --password[=password]"),
    ToolRule(("sshpass",), glued=("-p",), spaced=("-p",), source="sshpass(1): -p password"),
    ToolRule(("docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "crane", "regctl", "finch"),
             spaced=("-p", "--password"), equals=("--password",), subcommand="login",
             source="docker login: -p, --password"),
    ToolRule(("helm",), spaced=("--password",), equals=("--password",), source="helm repo add / registry login --password"),
    ToolRule(("az",), spaced=("-p", "--password"), equals=("--password",), subcommand="login",
             source="az login -u … -p …"),
    ToolRule(("redis-cli", "keydb-cli"), spaced=("-a", "--pass"), source="redis-cli -a password, --pass"),
    ToolRule(("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat",
              "mongotop", "mongofiles"), spaced=("-p", "--password"), equals=("--password",),
             source="MongoDB tools: -p, --password"),
    ToolRule(("sqlcmd", "bcp", "osql", "isql"), spaced=("-P",), source="sqlcmd -P password"),
    ToolRule(("ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare",
              "ldapmodrdn", "ldapexop"), spaced=("-w",), source="OpenLDAP clients: -w passwd"),
    ToolRule(("zip", "unzip", "zipcloak", "zipsplit"), spaced=("-P",), equals=("--password",), source="zip -P password"),
    ToolRule(("7z", "7za", "7zr", "7zz", "rar", "unrar"), glued=("-p",), source="7-Zip / RAR: -p{password}"),
    ToolRule(("ssh-keygen",), spaced=("-N", "-P"), source="ssh-keygen -N new_passphrase, -P passphrase"),
    ToolRule(("openssl",), spaced=("-passout", "-passin", "-pass", "-password"), prefix="pass:",
             source="openssl-passphrase-options(1): pass:password"),
    ToolRule(("openssl",), spaced=("-k",), source="openssl enc -k password"),
    ToolRule(("keytool",), spaced=("-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass",
                                   "-destkeypass", "-new"), source="keytool -storepass / -keypass"),
    ToolRule(("gpg", "gpg2"), spaced=("--passphrase",), equals=("--passphrase",), source="gpg --passphrase string"),
    ToolRule(("wget",), spaced=("--password", "--http-password", "--ftp-password", "--proxy-password"),
             equals=("--password", "--http-password", "--ftp-password", "--proxy-password"), source="wget --password"),
    ToolRule(("lftp",), spaced=("-u",), user_separator=",", source="lftp -u user[,pass]"),
    ToolRule(("smbclient", "rpcclient", "smbget", "smbmap", "smbcacls", "smbcquotas", "net"),
             spaced=("-U", "--user"), equals=("--user",), user_separator="%", source="Samba: -U user%password"),
    ToolRule(("plink", "pscp", "psftp", "putty"), spaced=("-pw",), source="PuTTY tools: -pw password"),
    ToolRule(("rdesktop",), spaced=("-p",), source="rdesktop -p password"),
    ToolRule(("htpasswd",), positional=("-b", 2), source="htpasswd -b passwdfile username password"),
    ToolRule(("rabbitmqctl",), positional=("add_user", 1), source="rabbitmqctl add_user username password"),
    ToolRule(("rabbitmqctl",), positional=("change_password", 1), source="rabbitmqctl change_password username password"),
    ToolRule(("net",), positional=("use", 2), source="net use [device] \\\\server\\share password /user:…"),
    ToolRule(("net",), positional=("user", 1), source="net user name password /add"),
    ToolRule(("mosquitto_pub", "mosquitto_sub", "mosquitto_rr"), spaced=("-P", "--pw"), source="mosquitto_pub -P password"),
    ToolRule(("xfreerdp", "xfreerdp3", "wlfreerdp", "sdl-freerdp", "sdl-freerdp3", "wfreerdp"), glued=("/p:", "-p:"),
             source="FreeRDP: /p:<password>"),
    ToolRule(("sqlplus", "rman", "expdp", "impdp", "exp", "imp", "sqlldr", "dgmgrl"), positional=("*", 0),
             user_separator="/", host_separator="@", source="Oracle tools: user/password@connect_identifier"),
    ToolRule(("convertto-securestring",), positional=("*", 0), subcommand="-AsPlainText",
             source="PowerShell ConvertTo-SecureString -String <string> -AsPlainText"),
    ToolRule(("ipmitool",), spaced=("-P",), source="ipmitool -P password"),
    ToolRule(("psexec", "psexec64", "psexec.exe", "psexec64.exe", "paexec"), spaced=("-p",), source="PsExec -p password"),
    ToolRule(("cmdkey",), glued=("/pass:",), source="cmdkey /pass:password"),
    ToolRule(("wmic",), glued=("/password:",), source="wmic /password:password"),
    ToolRule(("schtasks",), spaced=("/rp", "/RP"), source="schtasks /rp password"),
    ToolRule(("oc", "cf", "argocd", "jfrog", "heroku"), spaced=("-p", "--password"), equals=("--password",), subcommand="login",
             source="oc/cf/argocd login -p password"),
    ToolRule(("kubectl",), equals=("--password",), spaced=("--password",), source="kubectl config set-credentials --password"),
    ToolRule(("svn",), spaced=("--password",), equals=("--password",), source="svn --password"),
    ToolRule(("influx",), spaced=("-password", "--password"), equals=("--password",), source="influx -password"),
    ToolRule(("cqlsh", "cypher-shell", "rabbitmqadmin", "clickhouse-client", "mycli", "usql", "vertica", "vsql"),
             spaced=("-p", "--password", "-w"), equals=("--password",), source="database shells: -p / --password"),
    ToolRule(("nmcli",), positional=("password", 0), source="nmcli dev wifi connect <ssid> password <password>"),
    ToolRule(("snmpwalk", "snmpget", "snmpset", "snmpbulkwalk", "snmpbulkget", "snmptrap"), spaced=("-A", "-X"),
             source="Net-SNMP -A authpassphrase, -X privpassphrase"),
    ToolRule(("winrs",), glued=("-p:", "/p:", "-password:", "/password:"), source="winrs -p:password"),
    ToolRule(("vault", "bao"), positional=("login", 0), source="vault login [token] (token auth, the default method)"),
)
_RULES: dict[str, list[ToolRule]] = {}
for _rule in TOOL_RULES:
    for _tool in _rule.tools:
        _RULES.setdefault(_tool, []).append(_rule)
del _rule, _tool

_TOOL = lazy(r"(?<![\w.-])(?:" + trie_pattern(list(_RULES)) + r")(?![\w-])")
# Literal anchors besides " -": positional rules and pipes into --password-stdin / --with-token.
_ANCHORS = (" -", " /p:", " /pass", "rabbitmqctl", "net use", "sqlplus", "password-stdin", "with-token",
            "vault login", "bao login")  # "net use" finds "net user"
# Flags that make a tool read its credential from standard input: ``docker login
# --password-stdin``, ``gh auth login --with-token``, fed by a pipe or a here-string.
_STDIN_FLAGS = ("password-stdin", "with-token")
_HERE_STRING = lazy(r"""[ \t]*<<<[ \t]*(?P<value>'[^'\n]{1,200}'|"[^"\n]{1,200}"|[^\s|;&'"]{1,200})""")
_SEGMENT_SPLIT = lazy(r"[`|;()]|&&")
_ARG = lazy(r"""(?:[^\s'"`|;&<>]+|'[^'\n]*'|"[^"\n]*")+""")
_TOOL_TAIL = 32  # past the longest tool name (``convertto-securestring``) and the character after it
_TOOL_AHEAD = 256  # how far past an anchor the tool search reads (dense flags share one search)
_SEGMENT_AHEAD = 4096  # how far past a tool the separator search reads (dense commands share one)
_ECHO = lazy(r"""(?:echo|printf(?:[ \t]+'%s')?)[ \t]+(?:-n[ \t]+)?(?P<value>'[^'\n]{1,200}'|"[^"\n]{1,200}"|[^\s|'"]{1,200})[ \t]*\|\Z""")


def _tool_name(arg: str) -> str:
    """``/usr/bin/mysql`` and ``MySQL:mysql`` (prose glued to a command) name ``mysql``."""
    return arg.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower()


class _SegmentEnds:
    """Where the command of a tool ends: its line's end, ``2 * _MAX_COMMAND`` after the tool, or
    the first shell separator (a pipe, ``;``, ``&&``, a parenthesis or a backtick) after it.

    Tools come in order, so the separator search runs ahead in steps of ``_SEGMENT_AHEAD`` and
    its answer serves every tool before that separator (dense commands share one search).
    """

    def __init__(self, view: str) -> None:
        self._view = view
        self._from = self._known = 0  # no separator starts in [_from, _known) but at ``_at``
        self._at = -1  # the first separator starting at or after ``_from`` (-1: none before ``_known``)

    def end(self, tool: int) -> int:
        view = self._view
        end = view.find("\n", tool, tool + 2 * _MAX_COMMAND)
        end = end if end >= 0 else min(len(view), tool + 2 * _MAX_COMMAND)
        if not (self._from <= tool and (tool <= self._at or (self._at < 0 and end <= self._known))):
            stop = min(len(view), max(end, tool + _SEGMENT_AHEAD))
            found = _SEGMENT_SPLIT.search(view, tool, stop)
            # An ``&&`` starting at the last character searched was cut off: that one is unknown.
            self._from, self._known = tool, stop if stop == len(view) else stop - 1
            self._at = found.start() if found else -1
        return self._at if 0 <= self._at < end else end


def _command_at(text: str, view: str, tool: int, end: int) -> tuple[str, list[re.Match[str]]] | None:
    """The command whose tool starts at ``tool``, with its arguments: up to the next tool or
    ``end`` (``_SegmentEnds``), at most ``_MAX_ARGS`` + 1 (a flag is at most ``_MAX_COMMAND``
    after its tool, its value after it)."""
    args = _ARG.finditer(text, tool, end)
    first = next(args, None)
    name = _tool_name(first.group(0)) if first else ""
    if name not in _RULES:
        return None  # ``mysql:x`` names no tool
    given: list[re.Match[str]] = []
    for match in args:
        if _tool_name(match.group(0)) in _RULES and not match.group(0).startswith("-"):
            break  # the next tool's command
        if len(given) > _MAX_ARGS:
            break
        given.append(match)
    return name, given


class _LastTool:
    """The last tool name starting at or before a position, each character searched about once.

    Anchors come in order and the bound below which a tool is too far back (``_MAX_COMMAND``, or
    the line's start) only grows, so the search runs ahead of the anchors, up to ``_TOOL_AHEAD``
    characters or the line's end, and remembers what it found; it starts at the anchor's line,
    so that a text of short lines is searched line by line, not 400 characters back each time.
    A tool word starts after a character that is no word character (``_TOOL``'s look-behind) and
    ends before one, so where a search starts does not change which tools it finds; a search
    trusts only the tools starting ``_TOOL_TAIL`` before its end, which it has read whole.
    """

    def __init__(self, low: str) -> None:
        self._low = low
        self._tools: list[int] = []  # the starts of the tools found, in order
        self._resume = 0  # every tool starting before this (and at or after the bounds asked) is known
        self._next = 0  # the first of ``_tools`` after the last anchor asked about

    def last(self, anchor: int) -> int:
        """The start of the last tool at most ``_MAX_COMMAND`` before ``anchor`` (or at it), or -1;
        the caller checks that no line ends between them."""
        lowest = anchor - _MAX_COMMAND
        if anchor >= self._resume:
            low = self._low
            # Tools on an earlier line do not count: the search starts at the anchor's line.
            start = max(self._resume, lowest, low.rfind("\n", max(0, lowest), anchor) + 1)
            stop = low.find("\n", anchor, anchor + _TOOL_AHEAD)
            if stop >= 0:
                resume = stop  # no tool runs over a line end: every one before it is whole
            else:
                stop = min(len(low), anchor + _TOOL_AHEAD)
                resume = stop if stop == len(low) else stop - _TOOL_TAIL
            for match in _TOOL.finditer(low, start, stop):
                if match.start() >= resume:
                    break
                self._tools.append(match.start())
            self._resume = resume
        tools, index = self._tools, self._next
        while index < len(tools) and tools[index] <= anchor:
            index += 1
        self._next = index
        return tools[index - 1] if index and tools[index - 1] >= lowest else -1


def _value_span(text: str, match: re.Match[str], offset: int, rule: ToolRule) -> tuple[int, int] | None:
    """The password inside argument ``match`` starting ``offset`` characters in."""
    start, end = match.start() + offset, match.end()
    if start >= end:
        return None
    if text[start] in "'\"" and text[end - 1] == text[start] and end - start >= 2:
        start, end = start + 1, end - 1
    if rule.prefix:
        if not text.startswith(rule.prefix, start):
            return None
        start += len(rule.prefix)
    if rule.user_separator:
        cut = text.find(rule.user_separator, start, end)
        if cut < 0:
            return None
        start = cut + 1
        if start < end - 1 and text[start] in "'\"" and text[end - 1] == text[start]:
            start, end = start + 1, end - 1
    if rule.host_separator:
        cut = text.rfind(rule.host_separator, start, end)
        end = cut if cut >= 0 else end
    return (start, end) if end > start else None


def _flag_value(text: str, args: list[re.Match[str]], index: int, rule: ToolRule) -> tuple[int, int] | None:
    arg = args[index].group(0)
    for flag in rule.equals:
        if arg.startswith(flag + "="):
            return _value_span(text, args[index], len(flag) + 1, rule)
    if arg in rule.spaced and index + 1 < len(args):
        return _value_span(text, args[index + 1], 0, rule)
    for flag in rule.glued:
        if arg.startswith(flag) and len(arg) > len(flag) and not arg.startswith(flag + "-"):
            return _value_span(text, args[index], len(flag), rule)
    return None


def _positional(text: str, args: list[re.Match[str]], rule: ToolRule) -> tuple[int, int] | None:
    enabler, index = rule.positional
    words = [a.group(0) for a in args]
    if enabler == "*":  # the tool's own arguments: the first that is no flag
        plain = [a for a in args if not a.group(0).startswith(("-", "/"))]
        return _value_span(text, plain[index], 0, rule) if index < len(plain) else None
    if enabler.startswith("-"):
        flags = [w[1:] for w in words if w.startswith("-") and not w.startswith("--")]
        if not any(enabler[1] in f for f in flags):
            return None
        plain = [a for a in args if not a.group(0).startswith("-")]
        index -= any("n" in f for f in flags)  # htpasswd -n: no password file argument
    else:
        if enabler not in words:
            return None
        plain = [a for a in args[words.index(enabler) + 1:] if not a.group(0).startswith(("-", "/"))]
    if rule.tools == ("net",) and enabler == "use":
        shares = [i for i, a in enumerate(plain) if a.group(0).startswith("\\\\")]
        if not shares or shares[0] + 1 >= len(plain):
            return None
        return _value_span(text, plain[shares[0] + 1], 0, rule)
    return _value_span(text, plain[index], 0, rule) if index < len(plain) else None


def _rule_spans(text: str, tool: str, args: list[re.Match[str]]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    words = [a.group(0) for a in args]
    for rule in _RULES.get(tool, ()):
        if rule.subcommand and rule.subcommand.lower() not in (w.lower() for w in words):
            continue
        if rule.positional[1] >= 0:
            span = _positional(text, args, rule)
            if span:
                spans.append(span)
            continue
        for index in range(len(args)):
            span = _flag_value(text, args, index, rule)
            if span:
                spans.append(span)
    return spans


def _unquoted(view: str, vs: int, ve: int) -> tuple[int, int] | None:
    """A value's span without the quotes around it, None when nothing is left."""
    if view[vs] in "'\"":
        vs, ve = vs + 1, ve - 1
    return (vs, ve) if ve > vs else None


def _echo_into_stdin(view: str, anchor: int) -> tuple[int, int] | None:
    """``echo 's3cret' | docker login … --password-stdin``: the echoed value."""
    line_start = view.rfind("\n", max(0, anchor - _MAX_COMMAND), anchor) + 1
    pipe = view.rfind("|", max(line_start, anchor - _MAX_COMMAND), anchor)
    if pipe < 0:
        return None
    match = _ECHO.search(view, max(line_start, pipe - 250), pipe + 1)
    if match is None:
        return None
    return _unquoted(view, *match.span("value"))


def _here_string(view: str, anchor: int) -> tuple[int, int] | None:
    """``gh auth login --with-token <<< "…"``: the here-string after the flag."""
    flag_end = anchor + next(len(f) for f in _STDIN_FLAGS if view.startswith(f, anchor))
    match = _HERE_STRING.match(view, flag_end)
    if match is None:
        return None
    return _unquoted(view, *match.span("value"))


def scan(text: str, view: str, occurrences: Occurrences | None = None) -> list[Span]:
    """Passwords given on the command line of a known tool.

    What each anchor yields depends only on the characters around it: the last tool at most
    ``_MAX_COMMAND`` before it on its line, and that tool's command (``_command_at``). So a
    command in a long line is read whole wherever it sits, and the same text finds the same
    passwords wherever it stands (``text.periods`` relies on that).
    """
    occurrences = occurrences or Occurrences(view.lower(), text)
    found: list[Span] = []
    tools, ends = _LastTool(occurrences.low), _SegmentEnds(view)
    commands: dict[int, list[tuple[int, int]]] = {}  # candidate values by their tool's start
    judged: set[tuple[int, int]] = set()  # anchors of one command share its values: judge each once
    for anchor in occurrences.of_all(_ANCHORS):
        candidates: list[tuple[int, int]] = []
        if view.startswith((" -S", " --stdin"), anchor) and view.endswith("sudo", max(0, anchor - 4), anchor):
            echoed = _echo_into_stdin(view, anchor)  # ``echo … | sudo -S``: sudo reads the password from the pipe
            if echoed and values.credential_value(text[echoed[0]:echoed[1]], vocab.PASSWORD, quoted=True):
                found.append(Span(echoed[0], echoed[1], KIND, RANK_ASSIGNMENT))
        if view[anchor] == " " and not (view[anchor + 2:anchor + 3].isalnum() or view[anchor + 2:anchor + 3] == "-"):
            continue  # a dash in prose, not a flag
        if view.startswith(_STDIN_FLAGS, anchor):
            echoed = _echo_into_stdin(view, anchor) or _here_string(view, anchor)
            if echoed:
                candidates.append(echoed)
        else:
            tool = tools.last(anchor)
            if tool < 0 or view.find("\n", tool, anchor) >= 0:
                continue  # flags, but of no tool we know on their line
            known = commands.get(tool)
            if known is None:
                command = _command_at(text, view, tool, ends.end(tool))
                known = commands[tool] = _rule_spans(text, *command) if command else []
            candidates = known
        for vs, ve in candidates:
            if (vs, ve) in judged:
                continue
            judged.add((vs, ve))
            if values.credential_value(text[vs:ve], vocab.PASSWORD, quoted=True):
                found.append(Span(vs, ve, KIND, RANK_ASSIGNMENT))
    return found


__all__ = ["KIND", "TOOL_RULES", "ToolRule", "scan"]
