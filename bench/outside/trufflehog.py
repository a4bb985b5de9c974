"""The cases of TruffleHog's detector pattern tests (``pkg/detectors/*/*_test.go``).

A ``Test…_Pattern`` function lists cases ``{name: …, input: …, want: …}``: ``want`` holds the
values the detector must report, empty or nil for an input it must not match. Inputs are Go
string expressions: literals, package constants (``validPattern``), ``+`` and ``fmt.Sprintf``.
A small reader of Go tokens evaluates those; a case whose input uses anything else is skipped
(and counted), never guessed.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .kingfisher import Example

DETECTORS_DIR = "pkg/detectors"
SUFFIXES = ("_test.go",)

_TOKEN = re.compile(r"""
    (?P<space>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<rune>'(?:[^'\\\n]|\\.)+')
  | (?P<num>\d+)
  | (?P<ident>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)
  | (?P<op>:=|\.\.\.|[{}()\[\],:;=+*&.<>!|-]|\S)
""", re.X | re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "a": "\a", "b": "\b", "f": "\f",
            "v": "\v"}
_VERB = re.compile(r"%[-+# 0]*\d*(?:\.\d+)?[a-zA-Z%]")
_OPEN, _CLOSE = "({[", ")}]"


@dataclass(frozen=True)
class Tok:
    kind: str
    text: str


@dataclass(frozen=True)
class Case:
    detector: str
    name: str
    input: str
    want: tuple[str, ...]


def tokens(source: str) -> list[Tok]:
    return [Tok(m.lastgroup or "op", m.group(0)) for m in _TOKEN.finditer(source) if m.lastgroup != "space"]


def unquote(tok: Tok) -> str:
    if tok.kind == "raw":
        return tok.text[1:-1]
    body = tok.text[1:-1]
    return re.sub(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", _escape, body)


def _escape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] in "ux" and len(code) > 1:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, code)


def split_top(toks: Sequence[Tok], sep: str) -> list[list[Tok]]:
    """``toks`` cut at ``sep`` where no bracket is open."""
    parts: list[list[Tok]] = [[]]
    depth = 0
    for tok in toks:
        if tok.kind == "op" and tok.text in _OPEN:
            depth += 1
        elif tok.kind == "op" and tok.text in _CLOSE:
            depth -= 1
        if depth == 0 and tok.kind == "op" and tok.text == sep:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts if parts != [[]] else []


def sprintf(fmt: str, args: Sequence[str]) -> str | None:
    """Go's ``fmt.Sprintf`` for the string verbs the tests use (%s, %v, %q, %d)."""
    out: list[str] = []
    pos, arg = 0, 0
    for match in _VERB.finditer(fmt):
        out.append(fmt[pos:match.start()])
        pos = match.end()
        if match.group(0) == "%%":
            out.append("%")
            continue
        if arg >= len(args):
            return None
        value = args[arg]
        arg += 1
        out.append(f'"{value}"' if match.group(0).endswith("q") else value)
    out.append(fmt[pos:])
    return "".join(out)


def evaluate(toks: Sequence[Tok], env: Mapping[str, str]) -> str | None:
    """The value of a Go string expression, or None when it uses anything this reader does not know."""
    terms = split_top(toks, "+")
    if not terms:
        return None
    values = [_term(term, env) for term in terms]
    return None if any(v is None for v in values) else "".join(v for v in values if v is not None)


def _term(toks: Sequence[Tok], env: Mapping[str, str]) -> str | None:
    if len(toks) == 1:
        tok = toks[0]
        if tok.kind in ("raw", "str"):
            return unquote(tok)
        if tok.kind == "num":
            return tok.text
        if tok.kind == "ident":
            return env.get(tok.text)
        return None
    if len(toks) >= 3 and toks[0].kind == "op" and toks[0].text == "(" and toks[-1].text == ")":
        return evaluate(toks[1:-1], env)
    if len(toks) >= 3 and toks[0].kind == "ident" and toks[1].text == "(" and toks[-1].text == ")":
        args = [evaluate(part, env) for part in split_top(toks[2:-1], ",")]
        if any(a is None for a in args):
            return None
        strings = [a for a in args if a is not None]
        if toks[0].text == "fmt.Sprintf" and strings:
            return sprintf(strings[0], strings[1:])
        if toks[0].text == "strings.Repeat" and len(strings) == 2 and strings[1].isdigit():
            return strings[0] * min(int(strings[1]), 10_000)
        if toks[0].text == "string" and len(strings) == 1:
            return strings[0]
    return None


def bindings(toks: Sequence[Tok]) -> dict[str, str]:
    """Every ``name = expr`` / ``name := expr`` whose expression evaluates, in file order (later
    ones may use earlier ones; the test files use each name once)."""
    env: dict[str, str] = {}
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "ident" and i + 1 < len(toks) and toks[i + 1].text in ("=", ":=") and "." not in tok.text:
            end = _expression_end(toks, i + 2)
            value = evaluate(toks[i + 2:end], env)
            if value is not None and tok.text not in env:
                env[tok.text] = value
            i = end
        else:
            i += 1
    return env


def _expression_end(toks: Sequence[Tok], start: int) -> int:
    """Where an expression starting at ``start`` ends: a newline is lost in the tokens, so the end
    is the first token at depth 0 that cannot continue an expression after a complete operand."""
    depth, i = 0, start
    expect_operand = True
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "op" and tok.text in _OPEN:
            depth += 1
        elif tok.kind == "op" and tok.text in _CLOSE:
            if depth == 0:
                return i
            depth -= 1
            expect_operand = False
        elif depth == 0:
            if tok.kind == "op" and tok.text == "+":
                expect_operand = True
            elif tok.kind == "op" and tok.text in (",", ";"):
                return i
            elif not expect_operand:
                return i
            else:
                expect_operand = tok.kind == "ident" and i + 1 < len(toks) and toks[i + 1].text == "("
        i += 1
    return i


def _matching(toks: Sequence[Tok], start: int) -> int:
    depth = 0
    for i in range(start, len(toks)):
        if toks[i].kind == "op" and toks[i].text in _OPEN:
            depth += 1
        elif toks[i].kind == "op" and toks[i].text in _CLOSE:
            depth -= 1
            if depth == 0:
                return i
    return len(toks) - 1


def _pattern_bodies(toks: Sequence[Tok]) -> list[tuple[int, int]]:
    """Token ranges of the bodies of ``func Test…_Pattern…(`` functions."""
    found: list[tuple[int, int]] = []
    for i, tok in enumerate(toks[:-1]):
        if tok.text == "func" and toks[i + 1].kind == "ident" and re.match(r"Test\w*_Pattern", toks[i + 1].text):
            j = i + 2
            while j < len(toks) and toks[j].text != "{":
                j += 1
            end = _matching(toks, j)
            found.append((j, end))
    return found


def cases(detector: str, source: str) -> tuple[list[Case], int]:
    """The pattern-test cases of one Go test file, and how many could not be evaluated."""
    toks = tokens(source)
    env = bindings(toks)
    found: list[Case] = []
    skipped = 0
    for start, end in _pattern_bodies(toks):
        i = start
        while i < end:
            # A case is a composite element whose fields include ``input:``.
            if toks[i].text == "{":
                close = _matching(toks, i)
                fields = _fields(toks[i + 1:close])
                if "input" in fields:
                    case = _case(detector, fields, env)
                    if case is None:
                        skipped += 1
                    else:
                        found.append(case)
                    i = close + 1
                    continue
            i += 1
    return found, skipped


def _fields(toks: Sequence[Tok]) -> dict[str, list[Tok]]:
    fields: dict[str, list[Tok]] = {}
    for part in split_top(toks, ","):
        if len(part) >= 2 and part[0].kind == "ident" and part[1].text == ":":
            fields[part[0].text] = list(part[2:])
    return fields


def _case(detector: str, fields: Mapping[str, list[Tok]], env: Mapping[str, str]) -> Case | None:
    text = evaluate(fields["input"], env)
    want = _want(fields.get("want", []), env)
    if text is None or want is None:
        return None
    name = evaluate(fields.get("name", []), env) or ""
    return Case(detector, name, text, want)


def _want(toks: Sequence[Tok], env: Mapping[str, str]) -> tuple[str, ...] | None:
    if not toks or (len(toks) == 1 and toks[0].text == "nil"):
        return ()
    # []string{ a, b }
    if len(toks) >= 4 and toks[0].text == "[" and toks[1].text == "]" and toks[2].text == "string" \
            and toks[3].text == "{" and toks[-1].text == "}":
        items = [evaluate(part, env) for part in split_top(toks[4:-1], ",") if part]
        return None if any(v is None for v in items) else tuple(v for v in items if v is not None)
    return None


def examples(files: Mapping[str, str]) -> tuple[list[Example], int]:
    """All pattern-test cases (path -> Go source) as examples keyed by detector, and the count
    of cases skipped because an expression could not be evaluated."""
    found: list[Example] = []
    counters: dict[str, int] = {}
    skipped = 0
    for path in sorted(files):
        if path.endswith("_integration_test.go"):
            continue
        parts = path.split("/")
        detector = "/".join(parts[2:-1]) if len(parts) > 3 else parts[-1]
        got, missed = cases(detector, files[path])
        skipped += missed
        for case in got:
            if not case.input.strip():
                continue
            rule = f"trufflehog.{detector}"
            index = counters.get(rule, 0)
            counters[rule] = index + 1
            found.append(Example(rule, index, case.input, bool(case.want), detector, case.want))
    return found, skipped
