"""Lossless JSON codec for game states built from dataclasses, enums and containers."""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")

JSON = Any
"""A value made of dict, list, str, int, float, bool and None."""

_Decoder = Callable[[Any], Any]


def to_json(value: Any) -> JSON:
    """Turn a dataclass tree into plain JSON data (dict keys become strings)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in _fields(type(value))}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {_key_to_json(k): to_json(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(to_json(item) for item in value)
    return value


def from_json(cls: type[T], data: JSON) -> T:
    """Rebuild an instance of `cls` (a dataclass or any supported type) from JSON data."""
    decoded: T = _decoder(cls)(data)  # type: ignore[arg-type]
    return decoded


def dumps(value: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces, so equal states give equal bytes."""
    return json.dumps(to_json(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(cls: type[T], text: str) -> T:
    """Inverse of `dumps` for a known type."""
    return from_json(cls, json.loads(text))


def _key_to_json(key: Any) -> str:
    if isinstance(key, enum.Enum):
        return str(key.value)
    return str(key)


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _decoder(tp: Any) -> _Decoder:
    """Build (once per type) a function that decodes JSON data into `tp`."""
    if tp is Any:
        return _identity
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    if tp is float:
        return float
    if tp in (int, str, bool, type(None)):
        return _identity
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(args)
    if origin is list:
        item = _decoder(args[0])
        return lambda data: [item(x) for x in data]
    if origin in (set, frozenset):
        item = _decoder(args[0])
        return lambda data: origin(item(x) for x in data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda data: tuple(item(x) for x in data)
        parts = [_decoder(a) for a in args]
        return lambda data: tuple(p(x) for p, x in zip(parts, data, strict=True))
    if origin is dict:
        key = _key_decoder(args[0])
        value = _decoder(args[1])
        return lambda data: {key(k): value(v) for k, v in data.items()}
    if origin is typing.Literal:
        return _identity
    raise TypeError(f"codec cannot decode {tp!r}")


def _identity(data: Any) -> Any:
    return data


def _key_decoder(tp: Any) -> _Decoder:
    if tp is int:
        return int
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        member_type = type(next(iter(tp)).value)
        return lambda k: tp(member_type(k))
    return _identity


def _union_decoder(args: tuple[Any, ...]) -> _Decoder:
    non_none = [a for a in args if a is not type(None)]
    if len(non_none) != 1:
        raise TypeError(f"codec supports only `X | None` unions, not {args!r}")
    inner = _decoder(non_none[0])
    return lambda data: None if data is None else inner(data)


def _dataclass_decoder(cls: type) -> _Decoder:
    hints = typing.get_type_hints(cls)
    fields = [(f.name, _decoder(hints[f.name])) for f in _fields(cls)]

    def decode(data: Any) -> Any:
        return cls(**{name: dec(data[name]) for name, dec in fields if name in data})

    return decode
