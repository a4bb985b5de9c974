"""The one YAML adapter: the reader for config, record and promotion files (plain data only,
bounded) and the writer of front matter.

A cloned repository's YAML is hostile input. PyYAML's safe loader still expands aliases without
limit (a 237-byte "billion laughs" file takes minutes and gigabytes), builds dates that crash on
``2026-02-30``, parses integers of any length, and accepts ``!!binary`` or ``!!set``. This module
composes the document (libyaml when present: its composer keeps aliases as shared nodes, so the
node graph stays as small as the text) and then builds plain Python values itself:

* only mappings, sequences and the scalars str, int, float, bool and null; a timestamp becomes the
  string it was written as; every other tag is refused;
* at most ``MAX_ALIASES`` alias uses, ``MAX_NODES`` nodes after expansion, ``MAX_DEPTH`` levels,
  and no recursive alias;
* integers of at most ``MAX_INT_DIGITS`` digits, documents of at most ``MAX_CHARS`` characters;
* mapping keys are scalars and appear once.

Every refusal is a ``YamlRefused`` with the 1-based line of the node at fault.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

MAX_CHARS = 256 * 1024
MAX_ALIASES = 40
MAX_NODES = 20_000
MAX_DEPTH = 64
MAX_INT_DIGITS = 30

_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(_TAG + name for name in ("str", "int", "float", "bool", "null", "timestamp"))

Wrap = Callable[[Any, int], Any]


class YamlRefused(ValueError):
    """The document is not plain, bounded YAML; ``line`` is 1-based where known."""

    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(message if line is None else f"line {line}: {message}")


def _compose(text: str) -> Any:
    import yaml  # deferred: most runs read no YAML at all

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return yaml.compose(text, Loader=fast)
        except yaml.YAMLError:
            # The pure composer below reports the same error with better marks, but costs time
            # that grows with the square of the flow nesting (~1 s for 1 KB of brackets): a
            # document nested past MAX_DEPTH would be refused anyway, so it is refused here.
            depth, line = flow_depth(text)
            if depth > MAX_DEPTH:
                raise YamlRefused(line, f"nested deeper than {MAX_DEPTH} levels") from None
        except RecursionError:
            raise YamlRefused(None, "nested too deeply") from None
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise YamlRefused(mark.line + 1 if mark else None, f"invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlRefused(None, f"invalid YAML: {' '.join(str(exc).split())[:200]}") from None
    except RecursionError:
        raise YamlRefused(None, "nested too deeply") from None


def flow_depth(text: str) -> tuple[int, int | None]:
    """How deep ``[`` and ``{`` nest in ``text`` outside quotes and comments, and the 1-based line
    where the nesting first went past ``MAX_DEPTH`` (None if it never did). One linear pass; an
    approximation of YAML (brackets inside plain scalars count), used only on text libyaml refused."""
    depth = deepest = 0
    line, past = 1, None
    quote = ""
    before = ""  # the last character on this line that is not a space: a quote opens after these
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            before = ""
            i += 1
            continue
        if quote:
            if (ch == "\\" and quote == '"') or (ch == "'" == quote and text[i + 1:i + 2] == "'"):
                i += 1  # an escaped character, or '' inside single quotes
            elif ch == quote:
                quote = ""
        elif ch in "'\"" and before in ("", ":", "-", "[", "{", ",", "?"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n"):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if past is None and depth > MAX_DEPTH:
                    past = line
        elif ch in "]}":
            depth = max(depth - 1, 0)
        if ch not in " \t":
            before = ch
        i += 1
    return deepest, past


class _Builder:
    def __init__(self, wrap: Wrap | None) -> None:
        import yaml

        self.wrap = wrap
        self.constructor = yaml.constructor.SafeConstructor()
        self.nodes = 0
        self.aliases = 0
        self.seen: set[int] = set()
        self.active: set[int] = set()

    def build(self, node: Any, depth: int) -> Any:
        import yaml

        line = node.start_mark.line + 1
        key = id(node)
        if key in self.active:
            raise YamlRefused(line, "recursive alias")
        if key in self.seen:
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise YamlRefused(line, f"more than {MAX_ALIASES} aliases")
        self.seen.add(key)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise YamlRefused(line, f"document expands past {MAX_NODES} values (aliases)")
        if depth > MAX_DEPTH:
            raise YamlRefused(line, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, yaml.ScalarNode):
            value = _scalar(node, line, self.constructor)
        else:
            self.active.add(key)
            try:
                value = self._collection(node, depth, line)
            finally:
                self.active.discard(key)
        return self.wrap(value, line) if self.wrap is not None else value

    def _collection(self, node: Any, depth: int, line: int) -> Any:
        import yaml

        if isinstance(node, yaml.SequenceNode):
            if node.tag != _TAG + "seq":
                raise YamlRefused(line, f"tag {_short(node.tag)} is not allowed")
            return [self.build(item, depth + 1) for item in node.value]
        if not isinstance(node, yaml.MappingNode) or node.tag != _TAG + "map":
            raise YamlRefused(line, f"tag {_short(node.tag)} is not allowed")
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlRefused(key_line, "mapping keys must be plain scalars")
            if key_node.tag == _TAG + "merge":
                raise YamlRefused(key_line, "merge keys ('<<') are not allowed")
            name = _scalar(key_node, key_line, self.constructor)
            if isinstance(name, (list, dict)):
                raise YamlRefused(key_line, "mapping keys must be plain scalars")
            if name in out:
                raise YamlRefused(key_line, f"duplicate key {str(name)[:40]!r}")
            out[name] = self.build(value_node, depth + 1)
        return out


def _short(tag: str) -> str:
    text = tag[len(_TAG):] if tag.startswith(_TAG) else tag
    return repr(text[:60])


def _scalar(node: Any, line: int, constructor: Any) -> Any:
    import yaml

    tag, text = node.tag, node.value
    if tag not in _PLAIN_TAGS:
        raise YamlRefused(line, f"tag {_short(tag)} is not allowed")
    if tag == _TAG + "str" or tag == _TAG + "timestamp":
        return text  # a date stays the text it was written as: no calendar check can crash
    if tag == _TAG + "int" and sum(ch.isdigit() for ch in text) > MAX_INT_DIGITS:
        raise YamlRefused(line, f"integer longer than {MAX_INT_DIGITS} digits")
    if tag == _TAG + "float" and len(text) > 64:
        raise YamlRefused(line, "number too long")
    try:
        return constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError):
        raise YamlRefused(line, f"invalid {tag[len(_TAG):]} value") from None


def load(text: str, *, wrap: Wrap | None = None) -> Any:
    """Plain values of the single document in ``text`` (None for an empty one).

    ``wrap(value, line)``, when given, is applied to every value built, innermost first, so a
    caller can keep where each value came from (config error messages name the line).
    """
    if len(text) > MAX_CHARS:
        raise YamlRefused(None, f"document longer than {MAX_CHARS} characters")
    node = _compose(text)
    if node is None:
        return None
    return _Builder(wrap).build(node, 0)


class _Quoted(str):
    """Free text written double-quoted."""


def dump(data: dict[str, Any], quoted: Sequence[str] = ()) -> str:
    """Front matter as the tool writes it: block style, keys in the given order, the string values
    of ``quoted`` fields double-quoted."""
    import yaml

    base = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class Dumper(base):  # type: ignore[valid-type,misc]
        pass

    def quote(dumper: Any, value: _Quoted) -> Any:
        return dumper.represent_scalar("tag:yaml.org,2002:str", str(value), style='"')

    Dumper.add_representer(_Quoted, quote)
    marked = {key: _Quoted(value) if key in quoted and isinstance(value, str) else value
              for key, value in data.items()}
    text: str = yaml.dump(marked, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100000,
                          default_flow_style=False)
    return text
