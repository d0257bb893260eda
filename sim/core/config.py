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
of tables) and ``dict[str, T]`` (a table of named entries, e.g. a deck's cards by id). Use
``types.MappingProxyType`` or leave dicts unmutated: frozen dataclasses do not freeze a dict.

Named entries: a user file or ``--set`` may change any key of an entry the defaults define;
a *new* entry must be valid on its own. A new entry that is not valid on its own and whose
name is close to an existing one is reported as a likely typo (``deck.tirr: unknown entry;
did you mean 'tir'?``) instead of with its own problems; a valid new entry with such a name
gets a note.

A dataclass may define ``problems(self) -> list[tuple[str, str]]`` for checks that involve
several fields (run only when its fields are valid); each ``(key, message)`` becomes one error
line. A cross-field problem on a key the user did not set is not blamed on the defaults: it is
dropped when the key the user set that causes it (found by reverting each user key to its
default) already has its own line, and otherwise reported once under that key.

A dataclass may also define ``notes(self) -> list[tuple[str, str]]`` for legal but suspicious
settings; each note goes, as ``<source>: <key>: <message>``, to the handler installed with
:func:`note_handler` (the CLI prints them as ``tablesim: note: ...``).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import difflib
import json
import math
import os
import re
import stat
import tomllib
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
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
    "note_handler",
    "notes_prefixed",
    "commented_toml",
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
    meta = {"min": min, "max": max, "min_exclusive": min_exclusive, "length": length, "unit": unit, "doc": doc}
    return dataclasses.field(default=default, metadata=meta)


# --------------------------------------------------------------------------------------------
# Reading TOML and applying overrides (with provenance, so errors name the right source)
# --------------------------------------------------------------------------------------------

#: Larger "TOML files" are refused (a rules, experiment or profile file is a few kB).
MAX_TOML_BYTES = 16 * 2**20


def read_toml(path: str | Path) -> dict:
    """Read a TOML file; a missing, unreadable or malformed file raises :class:`ConfigError` (one line)."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError
        if not stat.S_ISREG(mode):  # a FIFO or device would block or never end
            raw = None
        else:
            with path.open("rb") as handle:
                raw = _read_at_most(handle, MAX_TOML_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError([f"{path}: file not found"]) from None
    except IsADirectoryError:
        raise ConfigError([f"{path}: is a directory, expected a TOML file"]) from None
    except NotADirectoryError:
        raise ConfigError([f"{path}: file not found (a part of the path is a file)"]) from None
    except PermissionError:
        raise ConfigError([f"{path}: permission denied"]) from None
    except OSError as exc:
        raise ConfigError([f"{path}: cannot be read ({exc.strerror or exc})"]) from None
    except ValueError as exc:  # e.g. an embedded NUL byte
        raise ConfigError([f"{path!r}: not a usable path ({exc})"]) from None
    if raw is None:
        raise ConfigError([f"{path}: not a regular file, expected a TOML file"])
    if len(raw) > MAX_TOML_BYTES:
        raise ConfigError([f"{path}: too large for a TOML file (over {MAX_TOML_BYTES // 2**20} MiB)"])
    try:
        return tomllib.loads(raw.decode("utf-8-sig"))  # a byte-order mark (some Windows editors) is not TOML
    except UnicodeDecodeError:
        raise ConfigError([f"{path}: not a UTF-8 text file"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{path}: malformed TOML: {exc}"]) from None
    except RecursionError:
        raise ConfigError([f"{path}: malformed TOML: nested too deeply"]) from None


def _read_at_most(handle, limit: int) -> bytes:
    """Up to ``limit`` bytes, read in blocks (``read(limit)`` would allocate ``limit`` at once)."""
    blocks, size = [], 0
    while size < limit:
        block = handle.read(min(1 << 16, limit - size))
        if not block:
            break
        blocks.append(block)
        size += len(block)
    return b"".join(blocks)


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


def apply_overrides(
    data: dict, overrides: Iterable[str | tuple[str, Any]], sources: dict[str, str] | None = None, label: str = "--set"
) -> dict:
    """Set dotted keys in a nested dict (in place) from ``KEY=VALUE`` strings or pairs.

    ``label`` is the source named in error messages for these keys ("" for none).
    """
    sources = {} if sources is None else sources
    for item in overrides:
        key, value = parse_override(item) if isinstance(item, str) else item
        parts = key.split(".")
        node = data
        for depth, part in enumerate(parts[:-1]):
            child = node.get(part)
            if not isinstance(child, dict):
                child = {}
                node[part] = child
                sources[".".join(parts[: depth + 1])] = label  # a table the user introduced
            node = child
        node[parts[-1]] = value
        sources[key] = label
    return data


def _source_of(key: str, sources: Mapping[str, str], default: str) -> str:
    found = _user_source(key, sources)
    return default if found is None else found


def _user_source(key: str, sources: Mapping[str, str]) -> str | None:
    """The source of ``key`` if the user set it, a table holding it or a key inside it; else None."""
    probe = key
    while probe:
        if probe in sources:
            return sources[probe]
        probe = probe.rpartition(".")[0]
    inside = key + "."
    for other, source in sources.items():
        if other.startswith(inside):
            return source
    return None


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
        tp, getattr(tp, "__name__", str(tp))
    )


class _Found:
    """What building a dataclass tree met: problems ``(key, message, cross_field)`` and notes."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str, bool]] = []
        self.notes: list[tuple[str, str]] = []

    def add(self, key: str, message: str, cross: bool = False) -> None:
        self.items.append((key, message, cross))


def _check_bounds(key: str, value: Any, meta: Mapping, found: _Found) -> None:
    lo, hi = meta.get("min"), meta.get("max")
    unit = f" {meta['unit']}" if meta.get("unit") else ""
    if isinstance(value, float) and not math.isfinite(value):
        found.add(key, f"expected a finite number, got {value!r}")
        return
    if lo is not None:
        if meta.get("min_exclusive") and not value > lo:
            found.add(key, f"got {value!r}; allowed: > {lo}{unit}")
            return
        if not meta.get("min_exclusive") and value < lo:
            found.add(key, f"got {value!r}; allowed: >= {lo}{unit}")
            return
    if hi is not None and value > hi:
        found.add(key, f"got {value!r}; allowed: <= {hi}{unit}")


def _convert(key: str, tp: Any, value: Any, meta: Mapping, found: _Found, base: Any = None) -> Any:
    """Convert one TOML value to ``tp``; record problems (without source) and return a value.

    ``base`` is the defaults' value at this key (its entries are the known names of a table).
    """
    origin = get_origin(tp)
    if tp is Any:
        return value
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            found.add(key, f"expected a table, got {_describe(value)}")
            return None
        return _build(tp, value, key + ".", found, base)
    if origin is Literal:
        allowed = get_args(tp)
        if value not in allowed or type(value) is not type(allowed[0]):
            found.add(key, f"got {value!r}; allowed: " + ", ".join(repr(a) for a in allowed))
        return value
    if origin is dict:
        return _convert_table(key, get_args(tp)[1], value, meta, found, base)
    if origin is tuple:
        item_tp = get_args(tp)[0]
        if not isinstance(value, list | tuple):
            found.add(key, f"expected {_type_name(tp)}, got {_describe(value)}")
            return ()
        if meta.get("length") is not None and len(value) != meta["length"]:
            found.add(key, f"expected {meta['length']} values, got {len(value)}")
        before = len(found.items)
        items = tuple(_convert(f"{key}[{index}]", item_tp, item, meta, found) for index, item in enumerate(value))
        refused = found.items[before:]
        if len(refused) > 1:  # one line for the list, naming the values refused
            del found.items[before:]
            where = ", ".join(k[len(key) :] for k, _, _ in refused)
            found.add(key, f"{len(refused)} of {len(value)} values refused ({where}); first: {refused[0][1]}")
        return items
    if tp is bool:
        if not isinstance(value, bool):
            found.add(key, f"expected true or false, got {_describe(value)}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                found.add(key, f"expected an integer, got {_describe(value)}")
                return value
        _check_bounds(key, value, meta, found)
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            found.add(key, f"expected a number, got {_describe(value)}")
            return value
        try:
            value = float(value)
        except OverflowError:
            found.add(key, f"expected a finite number, got {value!r}")
            return value
        _check_bounds(key, value, meta, found)
        return value
    if tp is str:
        if not isinstance(value, str):
            found.add(key, f"expected a string, got {_describe(value)}")
        return value
    raise TypeError(f"unsupported config field type {tp!r} for {key}")


def _convert_table(key: str, item_tp: Any, value: Any, meta: Mapping, found: _Found, base: Any) -> dict:
    """A ``dict[str, T]`` table: known entries are changed, new ones must be valid on their own."""
    if not isinstance(value, Mapping):
        found.add(key, f"expected a table, got {_describe(value)}")
        return {}
    known = [str(name) for name in base] if isinstance(base, Mapping) else []
    out = {}
    for name, item in value.items():
        entry_key = f"{key}.{name}"
        if not known or name in base:
            out[name] = _convert(entry_key, item_tp, item, meta, found, base.get(name) if known else None)
            continue
        own = _Found()
        out[name] = _convert(entry_key, item_tp, item, meta, own)
        close = difflib.get_close_matches(str(name), known, n=3, cutoff=0.75)
        if own.items and close:
            found.add(entry_key, f"unknown entry; did you mean {_either(close)}?")
            continue
        found.items += own.items
        found.notes += own.notes
        if close:
            found.notes.append((entry_key, f"a new entry (not in the defaults); did you mean {_either(close)}?"))
    return out


def _either(names: list[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _build(cls: type, data: Mapping, prefix: str, found: _Found, base: Any = None) -> Any:
    """Build ``cls`` from ``data``; None if a field is invalid (cross-field checks then skip)."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    for key in data:
        if key not in fields:
            found.add(f"{prefix}{key}", "unknown key; allowed: " + ", ".join(sorted(fields)))
    start = len(found.items)
    values: dict[str, Any] = {}
    for name, fld in fields.items():
        key = prefix + name
        sub_base = base.get(name) if isinstance(base, Mapping) else None
        if name in data:
            values[name] = _convert(key, hints[name], data[name], fld.metadata, found, sub_base)
        elif fld.default is not dataclasses.MISSING:
            values[name] = fld.default
        elif fld.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            values[name] = fld.default_factory()  # type: ignore[misc]
        elif dataclasses.is_dataclass(hints[name]):
            values[name] = _build(hints[name], {}, key + ".", found, sub_base)
        else:
            found.add(key, f"missing; expected {_type_name(hints[name])}")
            values[name] = None
    if len(found.items) > start:
        return None
    try:
        instance = cls(**values)
    except (TypeError, ValueError) as exc:  # a __post_init__ that refuses the values
        found.add(prefix.rstrip(".") or cls.__name__, str(exc), cross=True)
        return None
    for sub_key, message in instance.problems() if hasattr(instance, "problems") else ():
        found.add(prefix + sub_key, message, cross=True)
    if len(found.items) == start and hasattr(instance, "notes"):
        found.notes += [(prefix + sub_key, message) for sub_key, message in instance.notes()]
    return instance


def build(
    cls: type,
    data: Mapping,
    sources: Mapping[str, str] | None = None,
    default_source: str = "defaults",
    baseline: Mapping | None = None,
) -> Any:
    """Build dataclass ``cls`` from a nested dict, or raise :class:`ConfigError`.

    Each problem line is prefixed with the source of its key (a file name or ``--set``); keys
    absent from ``sources`` come from ``default_source``. ``baseline`` is the data the user's
    keys were applied to (the defaults): its table entries are the known ones, and a
    cross-field problem is traced back to the user's key by reverting keys to it.
    """
    sources = sources or {}
    found = _Found()
    instance = _build(cls, data, "", found, baseline)
    if found.items:
        raise ConfigError(_problem_lines(cls, data, found.items, sources, default_source, baseline))
    _emit_notes(found.notes, sources, default_source)
    return instance


def _line(source: str, key: str, message: str) -> str:
    return f"{source}: {key}: {message}" if source else f"{key}: {message}"


def _problem_lines(
    cls: type,
    data: Mapping,
    items: list[tuple[str, str, bool]],
    sources: Mapping[str, str],
    default_source: str,
    baseline: Mapping | None,
) -> list[str]:
    """One line per problem; a cross-field problem on a key the user did not set is traced."""
    lines: list[str] = []
    reported: list[str] = []
    derived: list[tuple[str, str]] = []
    for key, message, cross in items:
        bare = key.split("[", 1)[0]
        if cross and sources and _user_source(bare, sources) is None:
            derived.append((key, message))
            continue
        lines.append(_line(_source_of(bare, sources, default_source), key, message))
        reported.append(bare)
    user_keys = [k for k in sources if not any(other.startswith(k + ".") for other in sources)]
    for key, message in derived:
        culprits = _culprits(cls, data, baseline, user_keys, key)
        if any(_related(c, r) for c in culprits for r in reported):
            continue  # the key the user set already has its own line
        if culprits:
            lines.append(
                _line(sources[culprits[0]], ", ".join(culprits), f"makes {key} (unchanged) invalid: {message}")
            )
            reported += culprits
        else:
            lines.append(_line(default_source, key, message))
    return list(dict.fromkeys(lines))


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def _culprits(cls: type, data: Mapping, baseline: Mapping | None, user_keys: list[str], key: str) -> list[str]:
    """The user keys whose return to the defaults makes the cross-field problem on ``key`` go."""

    def clears(keys: list[str]) -> bool:
        trial = _Found()
        _build(cls, _reverted(data, baseline, keys), "", trial, baseline)
        return not any(k == key and cross for k, _, cross in trial.items)

    single = [u for u in user_keys if clears([u])]
    if single:
        return single
    return user_keys if user_keys and clears(user_keys) else []


def _reverted(data: Mapping, baseline: Mapping | None, keys: list[str]) -> dict:
    """A copy of ``data`` with each dotted key set back to ``baseline``'s value (or removed)."""
    copy = _deep_copy(data)
    for dotted in keys:
        parts = dotted.split(".")
        node: Any = copy
        base: Any = baseline
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
            base = base.get(part) if isinstance(base, Mapping) else None
        if not isinstance(node, dict):
            continue
        if isinstance(base, Mapping) and parts[-1] in base:
            value = base[parts[-1]]
            node[parts[-1]] = _deep_copy(value) if isinstance(value, Mapping) else value
        else:
            node.pop(parts[-1], None)
    return copy


# Notes ---------------------------------------------------------------------------------------
_NOTES: contextvars.ContextVar[Callable[[str], None] | None] = contextvars.ContextVar(
    "tablesim_config_notes", default=None
)


@contextlib.contextmanager
def note_handler(handler: Callable[[str], None] | None) -> Iterator[None]:
    """Send the notes of every successful :func:`build` meanwhile to ``handler(line)``."""
    token = _NOTES.set(handler)
    try:
        yield
    finally:
        _NOTES.reset(token)


@contextlib.contextmanager
def notes_prefixed(prefix: str) -> Iterator[None]:
    """Prefix the notes met meanwhile (e.g. with the experiment file and variant)."""
    outer = _NOTES.get()
    if outer is None:
        yield
        return
    with note_handler(lambda line: outer(prefix + line)):
        yield


def _emit_notes(notes: list[tuple[str, str]], sources: Mapping[str, str], default_source: str) -> None:
    handler = _NOTES.get()
    if handler is None:
        return
    for key, message in notes:
        handler(_line(_source_of(key.split("[", 1)[0], sources, default_source), key, message))


def load_config(
    cls: type,
    defaults: str | Path | Mapping | None = None,
    user_file: str | Path | None = None,
    overrides: Iterable[str | tuple[str, Any]] = (),
    override_label: str = "--set",
) -> Any:
    """Defaults (a TOML path or dict) ← user TOML file ← ``--set`` overrides → a ``cls``."""
    sources: dict[str, str] = {}
    if defaults is None:
        data: dict = {}
    elif isinstance(defaults, Mapping):
        data = _deep_copy(defaults)
    else:
        data = read_toml(defaults)
    baseline = _deep_copy(data)
    if user_file is not None:
        _merge(data, read_toml(user_file), sources, str(user_file))
    apply_overrides(data, overrides, sources, override_label)
    default_source = "defaults" if defaults is None or isinstance(defaults, Mapping) else str(defaults)
    return build(cls, data, sources, default_source=default_source, baseline=baseline)


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


# --------------------------------------------------------------------------------------------
# Writing back into the commented default file (``tablesim rules GAME --set ...``)
# --------------------------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]#]+?)\s*(\]\]?)\s*(#.*)?$")
_KEY = re.compile(r"^(\s*)([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)(\s*=\s*)")


def _value_end(text: str, start: int) -> int:
    """Index just past the TOML value that starts at ``text[start]`` (arrays may span lines)."""
    depth, i, quote = 0, start, ""
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
        elif text.startswith(('"""', "'''"), i):
            quote = text[i : i + 3]
            i += 3
            continue
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "#":
            if depth == 0:
                return i
            i = text.find("\n", i)  # a comment inside a multi-line array
            i = len(text) if i < 0 else i
            continue
        elif char == "\n" and depth == 0:
            return i
        i += 1
    return i


def _inline(value: Any) -> str:
    """One TOML value on one line (tables as inline tables)."""
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_bare(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return tomli_w.dumps({"v": value}).split("=", 1)[1].strip()


def _bare(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_\-]+", key) else json.dumps(key)


def _leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted key → value (lists, including lists of tables, are values)."""
    out: dict[str, Any] = {}
    if isinstance(data, Mapping) and data:
        for key, value in data.items():
            out.update(_leaves(value, f"{prefix}{key}."))
        return out
    return {prefix[:-1]: data}


_MISSING = object()


def _get(tree: Any, key: str) -> Any:
    """The value at a dotted key whose parts may index a list (``cards[1].name``)."""
    node = tree
    for part in key.split("."):
        name, _, index = part.partition("[")
        if not isinstance(node, Mapping) or name not in node:
            return _MISSING
        node = node[name]
        if index:
            position = int(index.rstrip("]"))
            if not isinstance(node, list) or position >= len(node):
                return _MISSING
            node = node[position]
    return node


def _reads_back(result: str, values: Any) -> bool:
    """Whether the TOML ``result`` builds into exactly ``values``."""
    try:
        data = tomllib.loads(result)
    except tomllib.TOMLDecodeError:
        return False
    if dataclasses.is_dataclass(values):
        found = _Found()
        built = _build(type(values), data, "", found)
        return not found.items and to_dict(built) == to_dict(values)
    return _leaves(data) == _leaves(to_dict(values))


def _comment_for(key: str, old: Any, new: Any, resolved: Mapping[str, Any], changed: bool) -> str:
    parts = []
    if changed:
        parts.append(f"changed; default {_inline(old)}")
    if key in resolved and resolved[key] != new:
        parts.append(f"resolves to {_inline(resolved[key])}")
    return "; ".join(parts)


def commented_toml(text: str, values: Any, defaults: Any, resolved: Mapping[str, Any] | None = None) -> str:
    """The commented default file ``text`` with ``values`` written in place, comments kept.

    Args:
        text: the default TOML file as shipped (its comments are the keys' documentation).
        values: the effective rules (a dataclass tree or nested dict).
        defaults: the rules ``text`` holds (the same type), to find what changed.
        resolved: ``{dotted key: value}`` of derived values (a rules object's ``resolved()``),
            shown as a comment beside the key (e.g. ``dues = "auto"  # resolves to true``).

    Every changed key gets ``# changed; default <old value>`` before its own comment; keys the
    file does not list are added at the end of their table. If the result would not read back
    as ``values`` (a layout this writer does not handle), the plain TOML of ``values`` is
    returned under a one-line note instead.
    """
    tree, base = to_dict(values), to_dict(defaults)
    new, old = _leaves(tree), _leaves(base)
    resolved = dict(resolved or {})
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    table, counters, seen = "", {}, set()
    last_line_of: dict[str, int] = {"": -1}
    body = "".join(lines)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    index = 0
    while index < len(lines):
        line = lines[index]
        header = _HEADER.match(line)
        key_match = None if header else _KEY.match(line)
        if header:
            name = re.sub(r"\s*\.\s*", ".", header[2])
            if header[1] == "[[":
                seen.add(name)
                counters[name] = counters.get(name, -1) + 1
                name = f"{name}[{counters[name]}]"
            table = name
            out.append(line)
            last_line_of[table] = len(out) - 1
            index += 1
            continue
        if key_match is None:
            out.append(line)
            index += 1
            continue
        key = (f"{table}." if table else "") + re.sub(r"\s*\.\s*", ".", key_match[2])
        start = offsets[index] + key_match.end()
        end = _value_end(body, start)
        stop = index
        while stop + 1 < len(lines) and offsets[stop + 1] < end:
            stop += 1
        seen.add(key)
        value, default = _get(tree, key), _get(base, key)
        changed = value is not _MISSING and default is not _MISSING and value != default
        note = _comment_for(key, default, value, resolved, changed) if value is not _MISSING else ""
        if not changed and not note:
            out.extend(lines[index : stop + 1])
        else:
            value_text = _inline(value) if changed else body[start:end].rstrip()
            comment = body[end : offsets[stop + 1]].strip()
            start_text = f"{key_match[1]}{key_match[2]}{key_match[3]}{value_text}"
            column = end - offsets[index] if stop == index and body[end : end + 1] == "#" else 0
            pad = max(2, column - len(start_text))
            suffix = f"# {note}" + (f"; {comment.lstrip('#').strip()}" if comment else "")
            out.append(f"{start_text}{' ' * pad}{suffix}\n")
        last_line_of[table] = len(out) - 1
        index = stop + 1
    _add_missing(out, new, seen, last_line_of, old)
    result = "".join(out)
    if _reads_back(result, values):
        return result
    return "# (the comments of the default file could not be kept for these values)\n" + to_toml(values)


def _add_missing(
    out: list[str], new: Mapping[str, Any], seen: set[str], last_line_of: dict[str, int], old: Mapping[str, Any]
) -> None:
    """Insert the keys of ``new`` the file does not list, at the end of their table."""
    inserts: dict[int, list[str]] = {}
    for key, value in new.items():
        if (
            key in seen
            or value is None
            or any(key.startswith(s + ".") for s in seen)
            or (key in old and old[key] == value)
        ):
            continue
        tables = [t for t in last_line_of if t and key.startswith(t + ".")]
        table = max(tables, key=len) if tables else ""
        rest = key[len(table) + 1 :] if table else key
        note = "added" if key not in old else "changed; not in the default file"
        line = f"{'.'.join(_bare(p) for p in rest.split('.'))} = {_inline(value)}  # {note}\n"
        inserts.setdefault(last_line_of.get(table, -1), []).append(line)
    for position in sorted(inserts, reverse=True):
        out[position + 1 : position + 1] = inserts[position]
