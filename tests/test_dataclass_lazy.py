"""Lazily written data classes behave as standard ones: init, defaults, repr, equality, hashing,
frozenness, replace, pickling; and nothing is compiled before the first call."""
from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable
from functools import cached_property
from typing import Any

import pytest

from chord_git import dataclass_lazy
from chord_git.dataclass_lazy import FrozenInstanceError, dataclass, field, fields, replace


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)
    seen: int | None = field(default=None, compare=False)
    hidden: str = field(default="h", repr=False)


@dataclasses.dataclass(frozen=True)
class StdPoint:
    x: int
    y: int = 0
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    seen: int | None = dataclasses.field(default=None, compare=False)
    hidden: str = dataclasses.field(default="h", repr=False)


@dataclass
class Box:
    items: list[int] = field(default_factory=list)
    label: str = "box"


@dataclass(frozen=True)
class Doc:
    lines: tuple[str, ...]

    @cached_property
    def count(self) -> int:
        return len(self.lines)


def test_init_defaults_and_repr_match_dataclasses() -> None:
    for ours, std in ((Point(1), StdPoint(1)), (Point(1, 2, ("a",), seen=3), StdPoint(1, 2, ("a",), seen=3)),
                      (Point(x=5, hidden="z"), StdPoint(x=5, hidden="z"))):
        assert repr(ours).replace("Point", "StdPoint", 1) == repr(std)
        assert [getattr(ours, f.name) for f in fields(Point)] == [getattr(std, f.name) for f in dataclasses.fields(std)]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, z=2)  # type: ignore[call-arg]


def test_equality_and_hashing_follow_compare_and_frozen() -> None:
    assert Point(1, 2, seen=1) == Point(1, 2, seen=9)
    assert hash(Point(1, 2, seen=1)) == hash(Point(1, 2, seen=9)) == hash((1, 2, (), "h"))
    assert Point(1) != Point(2) and Point(1).__eq__(StdPoint(1)) is NotImplemented
    assert len({Point(1), Point(1), Point(2)}) == 2
    assert Box([1]) == Box([1]) and Box() != Box(label="other")
    with pytest.raises(TypeError):
        hash(Box())


def test_frozen_refuses_assignment_and_deletion_but_not_cached_properties() -> None:
    point = Point(1)
    with pytest.raises(FrozenInstanceError):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del point.y
    doc = Doc(("a", "b"))
    assert doc.count == 2 and doc.count == 2
    box = Box()
    box.label = "changed"
    assert box.label == "changed"


def test_default_factories_make_fresh_values() -> None:
    first, second = Box(), Box()
    first.items.append(1)
    assert second.items == []
    with pytest.raises(ValueError, match="mutable default"):
        @dataclass
        class Bad:
            items: list[int] = []  # noqa: RUF012 - the mistake under test


def test_replace_copies_with_changes_on_lazy_and_standard_classes() -> None:
    point = Point(1, 2, ("t",), seen=4)
    moved = replace(point, y=3)
    assert (moved.x, moved.y, moved.tags, moved.seen) == (1, 3, ("t",), 4) and point.y == 2
    assert replace(StdPoint(1), y=7) == StdPoint(1, 7)
    with pytest.raises(TypeError):
        replace(point, nope=1)


def test_pickling_round_trips() -> None:
    point = Point(1, 2, ("a",), seen=3)
    again = pickle.loads(pickle.dumps(point))
    assert again == point and again.seen == 3
    box = pickle.loads(pickle.dumps(Box([1, 2])))
    assert box == Box([1, 2])


def test_nothing_is_compiled_before_the_first_call(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    real: Callable[..., None] = dataclass_lazy._write_method

    def counting(cls: type, *args: Any) -> None:
        written.append(cls.__name__)
        real(cls, *args)

    monkeypatch.setattr(dataclass_lazy, "_write_method", counting)

    @dataclass(frozen=True)
    class Late:
        a: int
        b: str = "b"

    assert written == []
    late, again = Late(1), Late(1)
    assert written == ["Late"]  # __init__ alone, once
    assert late == again and repr(late).endswith(".<locals>.Late(a=1, b='b')") and hash(late) == hash((1, "b"))
    assert written == ["Late"] * 4
    assert late == again and hash(again) == hash(late) and Late(2) != late
    assert written == ["Late"] * 4
