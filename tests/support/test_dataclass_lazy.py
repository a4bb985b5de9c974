"""Lazily written data classes behave as standard ones: init, defaults, fields left out of
``__init__``, repr, equality, hashing, frozenness, fields, asdict, replace, pickling and copying;
and nothing is compiled before the first call."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from functools import cached_property
from typing import Any, NamedTuple

import pytest

from chord_git.support import dataclass_lazy
from chord_git.support.dataclass_lazy import FrozenInstanceError, asdict, dataclass, field, fields, replace


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


@dataclasses.dataclass
class StdBox:
    items: list[int] = dataclasses.field(default_factory=list)
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


@dataclass
class Held:
    loader: Callable[[], int]
    current: int = field(init=False)
    count: int = field(init=False, default=0)
    seen: list[int] = field(init=False, default_factory=list)
    label: str = "held"

    def __post_init__(self) -> None:
        self.current = self.loader()


@dataclasses.dataclass
class StdHeld:
    loader: Callable[[], int]
    current: int = dataclasses.field(init=False)
    count: int = dataclasses.field(init=False, default=0)
    seen: list[int] = dataclasses.field(init=False, default_factory=list)
    label: str = "held"

    def __post_init__(self) -> None:
        self.current = self.loader()


def test_fields_left_out_of_init_match_dataclasses() -> None:
    def one() -> int:
        return 1

    for cls in (Held, StdHeld):
        held = cls(one, "x")  # type: ignore[arg-type]
        # A default stays on the class (read through it), a factory's value is set, as dataclasses does.
        assert (held.current, held.count, held.seen, held.label) == (1, 0, [], "x")
        assert sorted(vars(held)) == ["current", "label", "loader", "seen"]
        with pytest.raises(TypeError):
            cls(one, "x", 5)  # type: ignore[call-arg]
        with pytest.raises(ValueError, match="init=False"):
            (replace if cls is Held else dataclasses.replace)(held, count=3)  # type: ignore[operator]
        held.count, held.current = 4, 9
        again = (replace if cls is Held else dataclasses.replace)(held, label="y")  # type: ignore[operator]
        assert (again.current, again.count, again.label) == (1, 0, "y")  # init=False fields start afresh
    assert repr(Held(one)).replace("Held", "StdHeld", 1).split("loader=")[0] == repr(StdHeld(one)).split("loader=")[0]
    assert Held.__match_args__ == StdHeld.__match_args__ == ("loader", "label")  # type: ignore[attr-defined]
    assert [f.name for f in fields(Held)] == [f.name for f in dataclasses.fields(StdHeld)]

    @dataclass
    class Late:
        early: int = 0
        later: int = field(init=False)  # no default, yet not a parameter: no ordering error
        last: int = 1

    assert Late(2).early == 2
    with pytest.raises(TypeError, match="non-default argument"):
        @dataclass
        class Bad:
            early: int = 0
            later: int


class Pair(NamedTuple):
    left: Any
    right: Any


@dataclass(frozen=True)
class Tree:
    name: str
    children: tuple[Tree, ...] = ()
    points: list[Point] = field(default_factory=list)
    table: dict[str, Any] = field(default_factory=dict)
    pair: Pair | None = None


@dataclasses.dataclass(frozen=True)
class StdTree:
    name: str
    children: tuple[StdTree, ...] = ()
    points: list[StdPoint] = dataclasses.field(default_factory=list)
    table: dict[str, Any] = dataclasses.field(default_factory=dict)
    pair: Pair | None = None


def test_asdict_recurses_as_dataclasses_asdict() -> None:
    def build(tree: type[Any], point: type[Any]) -> Any:
        leaf = tree("leaf", points=[point(1, tags=("a",), hidden="secret")], pair=Pair(point(2), [point(3)]))
        return tree("root", (leaf, tree("bare")), table={"k": [point(4)], "n": None, "t": ("x", {"y": point(5)})})

    ours, std = asdict(build(Tree, Point)), dataclasses.asdict(build(StdTree, StdPoint))
    assert ours == std
    assert repr(ours) == repr(std)  # same types and key order all the way down
    assert isinstance(ours["children"][0]["pair"], Pair)
    shared = ["mutable"]
    copied = asdict(Tree("t", table={"l": {"m": shared}}))
    assert copied["table"]["l"]["m"] == shared and copied["table"]["l"]["m"] is not shared
    for wrong in (Tree, {"a": 1}, StdPoint(1)):
        with pytest.raises(TypeError):
            asdict(wrong)
    with pytest.raises(TypeError):
        fields(StdPoint(1))


def test_copy_and_deepcopy_match_dataclasses() -> None:
    for ours, std in ((Tree("r", (Tree("c"),), [Point(1)], {"k": [1]}), StdTree("r", (StdTree("c"),), [StdPoint(1)])),
                      (Box([1, 2]), StdBox([1, 2]))):
        for obj in (ours, std):
            shallow, deep = copy.copy(obj), copy.deepcopy(obj)
            assert shallow == obj == deep and shallow is not obj and deep is not obj
            shared = [name for name, value in vars(obj).items() if vars(shallow)[name] is value]
            fresh = [name for name, value in vars(obj).items() if vars(deep)[name] is not value]
            assert shared == list(vars(obj))
            assert fresh == (["children", "points", "table"] if "points" in vars(obj) else ["items"])
    with pytest.raises(FrozenInstanceError):
        copy.deepcopy(Tree("r")).name = "x"  # type: ignore[misc]


def test_unhashable_defaults_are_refused_as_dataclasses_refuses_them() -> None:
    for default in ([], {}, set(), bytearray(), Box()):
        with pytest.raises(ValueError, match="mutable default"):
            dataclass(type("Bad", (), {"__annotations__": {"a": "object"}, "a": default}))
        with pytest.raises(ValueError, match="mutable default"):
            dataclasses.dataclass(type("Bad", (), {"__annotations__": {"a": "object"}, "a": default}))
