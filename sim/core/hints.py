"""What a game tells the conformance suite (``sim.testing``) about itself.

The suite checks every rule and profile key generically: it changes the key (to a value
derived from the key's ``param`` bounds, or the one given here), plays a few short matches and
asserts that the tables changed. Most keys need nothing; a key that acts only in some
situations gets the overrides under which it does (a restitution only matters when its rim
bounces), and a key that changes only what is shown (a card's display name) says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["AUTO", "KeyCase", "Conformance"]

#: "derive the changed value from the key's ``param`` metadata".
AUTO: Any = "<auto>"


@dataclass(frozen=True)
class KeyCase:
    """How to see that one key changes play.

    Attributes:
        value: the changed value (``AUTO``: derived from the key's bounds and type).
        given: rule overrides (``KEY=VALUE``) under which the key acts.
        with_value: overrides applied with the changed value only (another key that must
            change with it for the rules to stay valid, e.g. a card's effects with its kind).
        matches: matches to compare (default: the game's ``Conformance.matches``).
        players: the line-up (presets) to play (default: the game's ``Conformance.lineup``).
        observe: what must differ: "default" (the game's ``Conformance.fingerprint`` if it
            has one, else the tables of short matches), "tables", or "replay" (only the
            replay's text: display names and other keys that change what is shown).
        inert: for a key that cannot change play (drawn only, or meaningful only for other
            entries of its table), why; the suite then checks only that the defaults load.
        profile_given: (profile key, value) pairs set in the first seat's profile before and
            after the change, for a profile key that acts only with another (e.g. a mode).
    """

    value: Any = AUTO
    given: tuple[str, ...] = ()
    with_value: tuple[str, ...] = ()
    matches: int | None = None
    players: tuple[str, ...] | None = None
    observe: Literal["default", "tables", "replay"] = "default"
    inert: str = ""
    profile_given: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Conformance:
    """A game's hints for the conformance suite.

    Attributes:
        lineup: presets for the short matches, cycled to fill any player count.
        quick: rule overrides that keep the matches short (e.g. a low target score).
        matches: matches per comparison.
        keys: rule key → :class:`KeyCase`, for keys that need a scenario or a given value.
        profile_keys: profile key → :class:`KeyCase` (``given`` are rule overrides; the key is
            changed in the first seat's profile).
        fingerprint: optional ``(rules) -> comparable``: a cheap, deterministic view of what the
            rules do (scripted positions, one physics shot...), compared for rule keys instead of
            short matches — for games whose matches are too slow to play per key.
        choices: restrictable choice name → :class:`KeyCase` (``given``, ``matches``,
            ``players``, ``profile_given``), for a choice the conformance line-up makes too
            rarely in its short matches: the scenario in which the first seat makes it.
    """

    lineup: tuple[str, ...] = ()
    quick: tuple[str, ...] = ()
    matches: int = 3
    keys: Mapping[str, KeyCase] = field(default_factory=dict)
    profile_keys: Mapping[str, KeyCase] = field(default_factory=dict)
    fingerprint: Callable[[Any], Any] | None = None
    choices: Mapping[str, KeyCase] = field(default_factory=dict)
