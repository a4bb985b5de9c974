"""What the judge says of a candidate: every finding, and the decision they fold into."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from chord_git.support.dataclass_lazy import dataclass, field


class Candidate(Protocol):
    """A proposed record, as the model's output schema has it (``extraction.schema``), read only."""

    @property
    def type(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def statement(self) -> str: ...
    @property
    def why(self) -> str: ...
    @property
    def how_to_apply(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def evidence(self) -> str | None: ...
    @property
    def supersedes(self) -> str | None: ...


@dataclass(frozen=True)
class Finding:
    check: str  # shape | secrets | attribution | assertion | substance | authority | locality | novelty | value
    reason: str  # one of ``core.REASONS``
    field: str | None = None  # the field it was found in, when it is about one
    rule: str | None = None  # the rule that matched (``classes``), when one did


@dataclass(frozen=True)
class Judgement:
    reason: str | None  # the decision: None keeps the candidate (with ``updates``)
    findings: tuple[Finding, ...]
    updates: Mapping[str, object] = field(default_factory=dict)  # fields to change before storing
    adjusted: tuple[str, ...] = ()  # what the updates are, by name (``source-assistant`` …)

    @property
    def kept(self) -> bool:
        return self.reason is None

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.reason for f in self.findings))
