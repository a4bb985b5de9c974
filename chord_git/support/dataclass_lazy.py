"""Data classes whose methods are written on first use, not when their class is defined.

``dataclasses.dataclass`` compiles five or six methods for every class as its module is imported,
and pulls in ``inspect`` (with ``ast``, ``dis`` and ``tokenize``): for the thirty classes that the
pre-commit hook's modules define, that costs more than a one-record commit's whole check, and
most of those methods are never called there. ``dataclass`` here is the part of the standard
decorator this package uses (``frozen``, defaults, ``field(default=, default_factory=, init=,
repr=, compare=)``, an argument-less ``__post_init__``) with the standard semantics; each of
``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` is written the first time it is called
(most classes a hook reaches only ever need their ``__init__``), and then costs what the standard
one costs. ``fields``, ``asdict`` and ``replace`` behave as the standard ones; ``replace`` also
takes standard data classes. It is the package's only data class decorator (``tests/test_layout.py``
keeps it so): what it lacks (``order``, ``slots``, ``kw_only``, ``InitVar``...) is added here, with
a test against the standard one, when a class needs it.
Type checkers read the decorated classes as data classes (``typing.dataclass_transform``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
_FIELDS = "__lazy_fields__"


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen data class (as ``dataclasses.FrozenInstanceError``)."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()


class Field:
    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool,  # noqa: A002
                 compare: bool) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare


@overload
def field(*, default: _T, init: bool = True, repr: bool = True, compare: bool = True) -> _T: ...
@overload
def field(*, default_factory: Callable[[], _T], init: bool = True, repr: bool = True, compare: bool = True) -> _T: ...
@overload
def field(*, init: bool = True, repr: bool = True, compare: bool = True) -> Any: ...
def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
          repr: bool = True, compare: bool = True) -> Any:  # noqa: A002
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare)


def fields(cls_or_instance: Any) -> tuple[Field, ...]:
    found: tuple[Field, ...] | None = getattr(cls_or_instance, _FIELDS, None)
    if found is None:
        raise TypeError("must be called with a dataclass type or instance")
    return found


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _collect(cls: type) -> tuple[Field, ...]:
    """The fields in definition order, inherited ones first, as ``dataclasses`` orders them."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for inherited in base.__dict__.get(_FIELDS, ()):
            found[inherited.name] = inherited
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, _MISSING)
        spec = value if isinstance(value, Field) else Field(value, _MISSING, True, True, True)
        spec.name = name
        if spec.default is not _MISSING and type(spec.default).__hash__ is None:  # list, dict, set...
            raise ValueError(f"mutable default {type(spec.default)} for field {name} is not allowed: "
                             "use default_factory")
        if isinstance(value, Field):
            if spec.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        found[name] = spec
    seen_default = False
    for spec in (spec for spec in found.values() if spec.init):
        has_default = spec.default is not _MISSING or spec.default_factory is not _MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {spec.name!r} follows default argument")
        seen_default = seen_default or has_default
    return tuple(found.values())


def _write_method(cls: type, specs: tuple[Field, ...], frozen: bool, name: str) -> None:
    """Compile the method ``name`` of ``cls`` and put it in place of its stub."""
    scope: dict[str, Any] = {"__object_setattr": object.__setattr__, "__missing": _MISSING}
    params, body = [], []
    for spec in specs:
        if not spec.init:
            if spec.default_factory is _MISSING:
                continue  # read from the class attribute holding its default, if any, as dataclasses does
            scope[f"__factory_{spec.name}"] = spec.default_factory
            value = f"__factory_{spec.name}()"
        elif spec.default_factory is not _MISSING:
            scope[f"__factory_{spec.name}"] = spec.default_factory
            params.append(f"{spec.name}=__missing")
            value = f"__factory_{spec.name}() if {spec.name} is __missing else {spec.name}"
        else:
            if spec.default is not _MISSING:
                scope[f"__default_{spec.name}"] = spec.default
            params.append(spec.name if spec.default is _MISSING else f"{spec.name}=__default_{spec.name}")
            value = spec.name
        body.append(f"  __object_setattr(self, {spec.name!r}, {value})" if frozen
                    else f"  self.{spec.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    shown = ", ".join(f"{spec.name}={{self.{spec.name}!r}}" for spec in specs if spec.repr)
    compared = "".join(f"self.{spec.name}," for spec in specs if spec.compare)
    other = "".join(f"other.{spec.name}," for spec in specs if spec.compare)
    sources = {
        "__init__": f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["  pass"]),
        "__repr__": f"def __repr__(self):\n  return f'{{self.__class__.__qualname__}}({shown})'",
        "__eq__": ("def __eq__(self, other):\n  if other.__class__ is self.__class__:\n"
                   f"    return ({compared}) == ({other})\n  return NotImplemented"),
        "__hash__": f"def __hash__(self):\n  return hash(({compared}))",
    }
    exec(sources[name], scope)  # noqa: S102 - our own generated source
    method = scope[name]
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, method)


def _stub(cls: type, name: str, specs: tuple[Field, ...], frozen: bool) -> Any:
    def first_call(self: Any, *args: Any, **kwargs: Any) -> Any:
        if cls.__dict__.get(name) is first_call:  # not written meanwhile (a nested first call)
            _write_method(cls, specs, frozen, name)
        return getattr(cls, name)(self, *args, **kwargs)

    first_call.__qualname__ = f"{cls.__qualname__}.{name}"
    return first_call


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _process(cls: type[_T], frozen: bool) -> type[_T]:
    specs = _collect(cls)
    setattr(cls, _FIELDS, specs)
    own = cls.__dict__
    class_hash = own.get("__hash__", _MISSING)
    explicit_hash = not (class_hash is _MISSING or (class_hash is None and "__eq__" in own))
    wanted = tuple(name for name in ("__init__", "__repr__", "__eq__") if name not in own)
    if frozen and not explicit_hash:
        wanted += ("__hash__",)
    for name in wanted:
        setattr(cls, name, _stub(cls, name, specs, frozen))
    if not frozen and not explicit_hash:
        setattr(cls, "__hash__", None)  # eq without frozen: unhashable, as with dataclasses
    if frozen:
        setattr(cls, "__setattr__", _frozen_setattr)
        setattr(cls, "__delattr__", _frozen_delattr)
    if "__match_args__" not in own:
        setattr(cls, "__match_args__", tuple(spec.name for spec in specs if spec.init))
    return cls


@overload
def dataclass(cls: type[_T], /) -> type[_T]: ...
@overload
def dataclass(*, frozen: bool = False) -> Callable[[type[_T]], type[_T]]: ...
@dataclass_transform(field_specifiers=(field,))
def dataclass(cls: type[_T] | None = None, /, *, frozen: bool = False) -> Any:
    if cls is None:
        return lambda later: _process(later, frozen)
    return _process(cls, frozen)


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of ``obj`` with ``changes``, as ``dataclasses.replace``."""
    specs: tuple[Field, ...] | None = getattr(type(obj), _FIELDS, None)
    if specs is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    for spec in specs:
        if not spec.init:
            if spec.name in changes:
                raise ValueError(f"field {spec.name} is declared with init=False, it cannot be specified with "
                                 "replace()")
        elif spec.name not in changes:
            changes[spec.name] = getattr(obj, spec.name)
    return type(obj)(**changes)


def asdict(obj: Any) -> dict[str, Any]:
    """The fields of a data class instance as a dict, recursively, as ``dataclasses.asdict``: data
    classes (of this module) inside become dicts, lists, tuples and dicts are rebuilt, all else is
    deep-copied."""
    if not hasattr(type(obj), _FIELDS):
        raise TypeError("asdict() should be called on dataclass instances")
    found: dict[str, Any] = _asdict_inner(obj)
    return found


def _asdict_inner(obj: Any) -> Any:
    if hasattr(type(obj), _FIELDS):
        return {spec.name: _asdict_inner(getattr(obj, spec.name)) for spec in fields(obj)}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a named tuple takes its items one by one
        return type(obj)(*[_asdict_inner(value) for value in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_asdict_inner(value) for value in obj)
    if isinstance(obj, dict):
        return type(obj)((_asdict_inner(key), _asdict_inner(value)) for key, value in obj.items())
    import copy  # off the hook's start-up: only commands that serialize get here

    return copy.deepcopy(obj)


__all__ = ["FrozenInstanceError", "asdict", "dataclass", "field", "fields", "replace"]
