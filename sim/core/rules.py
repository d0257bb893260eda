"""Loading a game's rules: its default TOML ← a user rules file ← ``--set`` overrides."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .config import load_config
from .game import GameSpec

__all__ = ["load_rules", "default_rules_text"]


def load_rules(
    spec: GameSpec,
    rules_file: str | Path | None = None,
    overrides: Iterable[str | tuple[str, Any]] = (),
    override_label: str = "--set",
) -> Any:
    """The validated rules of ``spec``; raises :class:`~sim.core.config.ConfigError`.

    ``override_label`` is the source named in error lines for the overrides.
    """
    return load_config(spec.rules_type, spec.default_rules, rules_file, overrides, override_label)


def default_rules_text(spec: GameSpec) -> str:
    """The commented default rules file, as a designer copies and edits it."""
    return Path(spec.default_rules).read_text(encoding="utf-8")
