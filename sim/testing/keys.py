"""Every key of a game's rules or profiles, with a changed value and invalid values derived from
its ``param`` metadata (bounds, exact length, type), as scikit-learn derives invalid values
from each declared parameter constraint.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from ..core.hints import AUTO, KeyCase

__all__ = ["AUTO", "Key", "KeyCase", "rule_keys", "changed_value", "bad_values"]


@dataclass(frozen=True)
class Key:
    """One leaf key: its dotted name, type, ``param`` metadata and default value."""

    name: str
    type: Any
    meta: Mapping[str, Any]
    default: Any


def rule_keys(instance: Any, prefix: str = "") -> Iterator[Key]:
    """The leaf keys of a dataclass tree, walking its *values* so that the entries of a
    ``dict[str, T]`` table (a deck's cards, a game's circuits) are listed by name."""
    hints = typing.get_type_hints(type(instance))
    for fld in dataclasses.fields(instance):
        if not fld.init:
            continue
        tp, value, name = hints[fld.name], getattr(instance, fld.name), prefix + fld.name
        if dataclasses.is_dataclass(tp):
            yield from rule_keys(value, name + ".")
        elif get_origin(tp) is dict and dataclasses.is_dataclass(get_args(tp)[1]):
            for entry, item in value.items():
                yield from rule_keys(item, f"{name}.{entry}.")
        else:
            yield Key(name, tp, dict(fld.metadata), value)


def _allowed(value: float, meta: Mapping[str, Any]) -> bool:
    lo, hi = meta.get("min"), meta.get("max")
    if lo is not None and (value <= lo if meta.get("min_exclusive") else value < lo):
        return False
    return hi is None or value <= hi


def _number(tp: Any, default: float, meta: Mapping[str, Any]) -> float | None:
    if tp is int:
        candidates = [default * 2, default // 2, default + 1, default - 1]
    else:
        lo, hi = meta.get("min"), meta.get("max")
        span = [0.25 * (hi - lo)] if lo is not None and hi is not None else []
        candidates = [
            default * 1.25,
            default * 0.8,
            *(default + s for s in span),
            *(default - s for s in span),
            default + 1.0,
            default + 0.1,
            default - 0.1,
        ]
    for value in candidates:
        value = tp(value)
        if value != default and _allowed(value, meta):
            return value
    return None


def changed_value(key: Key) -> Any:
    """A valid value other than the default, or ``None`` when none can be derived (a string,
    a table, an empty list: the game must then give one in its ``KeyCase``)."""
    tp, default, origin = key.type, key.default, get_origin(key.type)
    if tp is bool:
        return not default
    if origin is Literal:
        options = list(get_args(tp))
        return options[(options.index(default) + 1) % len(options)] if len(options) > 1 else None
    if tp in (int, float):
        return _number(tp, default, key.meta)
    if origin is tuple and default:
        item = get_args(tp)[0]
        if item in (int, float):
            first = _number(item, default[0], key.meta)
            return None if first is None else [first, *default[1:]]
        if len(set(default)) > 1:
            return list(reversed(default))
    return None


def bad_values(key: Key) -> list[tuple[str, Any]]:
    """``(what is wrong, value)`` pairs every game must refuse for this key."""
    tp, meta, default, origin = key.type, key.meta, key.default, get_origin(key.type)
    out: list[tuple[str, Any]] = []
    number = (
        tp if tp in (int, float) else get_args(tp)[0] if origin is tuple and get_args(tp)[0] in (int, float) else None
    )
    if number is not None:
        lo, hi = meta.get("min"), meta.get("max")
        wrap = (lambda v: [v] * max(1, len(default))) if origin is tuple else (lambda v: v)
        if lo is not None:
            below = lo if meta.get("min_exclusive") else (lo - 1 if number is int else lo - max(1.0, abs(lo)))
            out.append(("below its minimum", wrap(number(below))))
        if hi is not None:
            out.append(("above its maximum", wrap(number(hi + 1 if number is int else hi + max(1.0, abs(hi))))))
        if number is float:
            out.append(("not finite", wrap(math.inf)))
    if tp is bool:
        out.append(("not true/false", 2))
    elif tp in (int, float):
        out.append(("not a number", "not-a-number"))
    elif tp is str:
        out.append(("not a string", 3))
    elif origin is Literal:
        out.append(("not one of the choices", "no-such-choice"))
    elif origin is tuple:
        out.append(("not a list", "not-a-list"))
        if meta.get("length") is not None and default:
            out.append(("of the wrong length", [*default, default[-1]]))
    return out
