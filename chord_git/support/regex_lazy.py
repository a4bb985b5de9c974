"""Regular expressions compiled when first used, not when their module is imported.

The secret layers and the record rules hold a few hundred patterns; compiling them all costs
more than anything else a pre-commit hook does for a small commit, and a typical record reaches
a tenth of them (the rest wait behind a literal hint that never occurs). ``lazy`` returns an
object that compiles on the first method call and then holds the compiled pattern's bound
methods, so later calls cost what calls on a compiled pattern cost.
"""
from __future__ import annotations

import re
from typing import Any, cast

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")


class _LazyPattern:
    __slots__ = ("pattern", "_flags", *_METHODS)

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for what is not set yet: the first use
        compiled = re.compile(self.pattern, self._flags)
        for method in _METHODS:
            object.__setattr__(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, deferred to the first use."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))


__all__ = ["lazy"]
