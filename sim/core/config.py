"""Typed, validated configuration from TOML: the machinery behind rules and profiles.

A game declares its rules (and its player profiles) as nested frozen dataclasses whose fields
carry their constraints with :func:`param`. :func:`load_config` merges the game's default TOML,
an optional user TOML file and ``--set dotted.key=value`` overrides, then builds the dataclass
tree, collecting *every* problem as one line that names the source, the key, the value and what
is allowed::

    rules.toml: zones.values: expected 4 values (one per radius), got 3
    --set: game.target_score: expected an integer, got 'abc' (str)
    --set: zones.colour: unknown key; allowed: line_rule, radii, values

Supported field types: ``int``, ``float``, ``bool``, ``str``, ``typing.Literal[...]``,
``tuple[T, ...]`` of those, nested dataclasses, ``tuple[SomeDataclass, ...]`` (a TOML array
of tables) and ``dict[str, T]`` (a table of named entries, e.g. a deck's cards by id; new
names are allowed, each entry is validated as ``T``). Use ``types.MappingProxyType`` or leave
dicts unmutated: frozen dataclasses do not freeze a dict. A dataclass may define ``problems(self) -> list[tuple[str, str]]`` for checks that
involve several fields; each ``(key, message)`` becomes one error line.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
import typing
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import tomli_w

__all__ = [
    "ConfigError",
    "param",
    "load_config",
    "build",
    "parse_override",
    "apply_overrides",
    "read_toml",
    "to_dict",
    "to_toml",
    "field_docs",
]


class ConfigError(ValueError):
    """Bad configuration. ``problems`` holds one human-readable line per problem."""

    def __init__(self, problems: Iterable[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def param(
    default: Any,
    *,
    min: float | None = None,
    max: float | None = None,
    min_exclusive: bool = False,
    length: int | None = None,
    unit: str = "",
    doc: str = "",
) -> Any:
    """A dataclass field with validation metadata.

    Args:
        default: the default value (tuples for lists; immutable only).
        min, max: inclusive bounds, applied to the value or to every element of a tuple.
        min_exclusive: the lower bound is strict (``> min``).
        length: exact number of elements of a tuple.
        unit: unit shown in messages and docs (e.g. "m", "m/s", "points").
        doc: one line of documentation.
    """
    meta = {"min": min, "max": max, "min_exclusive": min_exclusive, "length": length,
            "unit": unit, "doc": doc}
    return dataclasses.field(default=default, metadata=meta)


# --------------------------------------------------------------------------------------------
# Reading TOML and applying overrides (with provenance, so errors name the right source)
# --------------------------------------------------------------------------------------------

def read_toml(path: str | Path) -> dict:
    """Read a TOML file; a missing or malformed file raises :class:`ConfigError` (one line)."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError([f"{path}: file not found"]) from None
    except IsADirectoryError:
        raise ConfigError([f"{path}: is a directory, expected a TOML file"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{path}: malformed TOML: {exc}"]) from None
    except UnicodeDecodeError:
        raise ConfigError([f"{path}: not a UTF-8 text file"]) from None


def parse_override(text: str) -> tuple[str, Any]:
    """Parse ``dotted.key=value``; the value is read as TOML, or as a bare string.

    >>> parse_override("zones.values=[150, 80, 40, 20]")
    ('zones.values', [150, 80, 40, 20])
    >>> parse_override("zones.line_rule=higher")
    ('zones.line_rule', 'higher')
    """
    if "=" not in text:
        raise ConfigError([f"--set {text}: expected KEY=VALUE (a dotted key of the rules TOML)"])
    key, raw = text.split("=", 1)
    key, raw = key.strip(), raw.strip()
    if not key or any(not part for part in key.split(".")):
        raise ConfigError([f"--set {text}: empty key; expected KEY=VALUE"])
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, value


def flatten(data: Mapping, prefix: str = "") -> dict[str, Any]:
    """Nested tables as ``{dotted.key: value}`` (empty tables count as values)."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            flat.update(flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def _merge(base: dict, extra: Mapping, sources: dict[str, str], source: str, prefix: str = "") -> None:
    for key, value in extra.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value, sources, source, dotted + ".")
        else:
            base[key] = value
            sources[dotted] = source
            for sub in flatten(value, dotted + ".") if isinstance(value, Mapping) else {}:
                sources[sub] = source


def apply_overrides(data: dict, overrides: Iterable[str | tuple[str, Any]],
                    sources: dict[str, str] | None = None, label: str = "--set") -> dict:
    """Set dotted keys in a nested dict (in place) from ``KEY=VALUE`` strings or pairs.

    ``label`` is the source named in error messages for these keys ("" for none).
    """
    sources = {} if sources is None else sources
    for item in overrides:
        key, value = parse_override(item) if isinstance(item, str) else item
        parts = key.split(".")
        node = data
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = {}
                node[part] = child
            node = child
        node[parts[-1]] = value
        sources[key] = label
    return data


def _source_of(key: str, sources: Mapping[str, str], default: str) -> str:
    probe = key
    while probe:
        if probe in sources:
            return sources[probe]
        probe = probe.rpartition(".")[0]
    return default


# --------------------------------------------------------------------------------------------
# Building dataclasses with type and bound checks
# --------------------------------------------------------------------------------------------

def _describe(value: Any) -> str:
    return f"{value!r} ({type(value).__name__})"


def _type_name(tp: Any) -> str:
    if get_origin(tp) is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if get_origin(tp) is tuple:
        return f"a list of {_type_name(get_args(tp)[0])}"
    if get_origin(tp) is dict:
        return f"a table of {_type_name(get_args(tp)[1])}"
    if dataclasses.is_dataclass(tp):
        return "a table"
    return {int: "an integer", float: "a number", bool: "true or false", str: "a string"}.get(
        tp, getattr(tp, "__name__", str(tp)))


def _check_bounds(key: str, value: Any, meta: Mapping, problems: list[str]) -> None:
    lo, hi = meta.get("min"), meta.get("max")
    unit = f" {meta['unit']}" if meta.get("unit") else ""
    if isinstance(value, float) and not math.isfinite(value):
        problems.append(f"{key}: expected a finite number, got {value!r}")
        return
    if lo is not None:
        if meta.get("min_exclusive") and not value > lo:
            problems.append(f"{key}: got {value!r}; allowed: > {lo}{unit}")
            return
        if not meta.get("min_exclusive") and value < lo:
            problems.append(f"{key}: got {value!r}; allowed: >= {lo}{unit}")
            return
    if hi is not None and value > hi:
        problems.append(f"{key}: got {value!r}; allowed: <= {hi}{unit}")


def _convert(key: str, tp: Any, value: Any, meta: Mapping, problems: list[str]) -> Any:
    """Convert one TOML value to ``tp``; append problems (without source) and return a value."""
    origin = get_origin(tp)
    if tp is Any:
        return value
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            problems.append(f"{key}: expected a table, got {_describe(value)}")
            return None
        return _build(tp, value, key + ".", problems)
    if origin is Literal:
        allowed = get_args(tp)
        if value not in allowed or type(value) is not type(allowed[0]):
            problems.append(f"{key}: got {value!r}; allowed: " + ", ".join(repr(a) for a in allowed))
        return value
    if origin is dict:
        key_tp, item_tp = get_args(tp)
        if not isinstance(value, Mapping):
            problems.append(f"{key}: expected a table, got {_describe(value)}")
            return {}
        return {name: _convert(f"{key}.{name}", item_tp, item, meta, problems)
                for name, item in value.items()}
    if origin is tuple:
        item_tp = get_args(tp)[0]
        if not isinstance(value, list | tuple):
            problems.append(f"{key}: expected {_type_name(tp)}, got {_describe(value)}")
            return ()
        if meta.get("length") is not None and len(value) != meta["length"]:
            problems.append(f"{key}: expected {meta['length']} values, got {len(value)}")
        items = []
        for index, item in enumerate(value):
            item_key = f"{key}[{index}]"
            items.append(_convert(item_key, item_tp, item, meta, problems))
        return tuple(items)
    if tp is bool:
        if not isinstance(value, bool):
            problems.append(f"{key}: expected true or false, got {_describe(value)}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                problems.append(f"{key}: expected an integer, got {_describe(value)}")
                return value
        _check_bounds(key, value, meta, problems)
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            problems.append(f"{key}: expected a number, got {_describe(value)}")
            return value
        value = float(value)
        _check_bounds(key, value, meta, problems)
        return value
    if tp is str:
        if not isinstance(value, str):
            problems.append(f"{key}: expected a string, got {_describe(value)}")
        return value
    raise TypeError(f"unsupported config field type {tp!r} for {key}")


def _build(cls: type, data: Mapping, prefix: str, problems: list[str]) -> Any:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    for key in data:
        if key not in fields:
            problems.append(f"{prefix}{key}: unknown key; allowed: " + ", ".join(sorted(fields)))
    values: dict[str, Any] = {}
    for name, fld in fields.items():
        key = prefix + name
        if name in data:
            values[name] = _convert(key, hints[name], data[name], fld.metadata, problems)
        elif fld.default is not dataclasses.MISSING:
            values[name] = fld.default
        elif fld.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            values[name] = fld.default_factory()  # type: ignore[misc]
        elif dataclasses.is_dataclass(hints[name]):
            values[name] = _build(hints[name], {}, key + ".", problems)
        else:
            problems.append(f"{key}: missing; expected {_type_name(hints[name])}")
            values[name] = None
    before = len(problems)
    try:
        instance = cls(**values)
    except (TypeError, ValueError) as exc:  # a __post_init__ that refuses the values
        problems.append(f"{prefix.rstrip('.') or cls.__name__}: {exc}")
        return None
    if len(problems) == before and hasattr(instance, "problems"):
        for sub_key, message in instance.problems():
            problems.append(f"{prefix}{sub_key}: {message}")
    return instance


def build(cls: type, data: Mapping, sources: Mapping[str, str] | None = None,
          default_source: str = "defaults") -> Any:
    """Build dataclass ``cls`` from a nested dict, or raise :class:`ConfigError`.

    Each problem line is prefixed with the source of its key (a file name or ``--set KEY``).
    """
    problems: list[str] = []
    instance = _build(cls, data, "", problems)
    if problems:
        sources = sources or {}
        lines = []
        for line in problems:
            key = line.split(":", 1)[0].split("[", 1)[0]
            source = _source_of(key, sources, default_source)
            lines.append(f"{source}: {line}" if source else line)
        raise ConfigError(lines)
    return instance


def load_config(cls: type, defaults: str | Path | Mapping | None = None,
                user_file: str | Path | None = None,
                overrides: Iterable[str | tuple[str, Any]] = (), override_label: str = "--set") -> Any:
    """Defaults (a TOML path or dict) ← user TOML file ← ``--set`` overrides → a ``cls``."""
    sources: dict[str, str] = {}
    if defaults is None:
        data: dict = {}
    elif isinstance(defaults, Mapping):
        data = _deep_copy(defaults)
    else:
        data = read_toml(defaults)
    if user_file is not None:
        _merge(data, read_toml(user_file), sources, str(user_file))
    apply_overrides(data, overrides, sources, override_label)
    return build(cls, data, sources, default_source=str(defaults) if defaults else "defaults")


def _deep_copy(data: Mapping) -> dict:
    return {k: _deep_copy(v) if isinstance(v, Mapping) else v for k, v in data.items()}


# --------------------------------------------------------------------------------------------
# Writing back
# --------------------------------------------------------------------------------------------

def to_dict(instance: Any) -> Any:
    """A dataclass tree as plain nested dicts and lists (TOML- and JSON-ready)."""
    if dataclasses.is_dataclass(instance):
        return {f.name: to_dict(getattr(instance, f.name)) for f in dataclasses.fields(instance)}
    if isinstance(instance, tuple | list):
        return [to_dict(v) for v in instance]
    if isinstance(instance, Mapping):
        return {k: to_dict(v) for k, v in instance.items()}
    return instance


def to_toml(instance: Any) -> str:
    """A dataclass tree as a TOML document (no comments)."""
    return tomli_w.dumps(to_dict(instance))


def field_docs(cls: type, prefix: str = "") -> dict[str, dict]:
    """Dotted key → {"type", "default", "unit", "doc", "min", "max"} for every leaf field."""
    hints = typing.get_type_hints(cls)
    out: dict[str, dict] = {}
    for fld in dataclasses.fields(cls):
        tp = hints[fld.name]
        key = prefix + fld.name
        if dataclasses.is_dataclass(tp):
            out.update(field_docs(tp, key + "."))
            continue
        meta = dict(fld.metadata)
        default = fld.default if fld.default is not dataclasses.MISSING else None
        out[key] = {"type": _type_name(tp), "default": to_dict(default), **meta}
    return out
