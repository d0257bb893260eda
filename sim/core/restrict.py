"""Restricted play: the choices a game lets a profile forbid, and how often each was made.

A game that has choices worth measuring (Gastérospeed's action cards, Curlastique's target
zones and shot families, Carrom's shot kinds and break variants) declares them through
:attr:`GameSpec.restrictions <sim.core.game.GameSpec.restrictions>`. Every profile of such a
game has the key ``forbid`` (a list of choice names, default empty): a player with
``forbid = ["choc"]`` plays as its profile says but never makes those choices. ``tablesim
worth`` plays a seat restricted in each choice against the same line-up unrestricted, on the
same seeds, and reports what each choice is worth in win rate (restricted play: Jaffe et al.,
"Evaluating competitive game balance with restricted play", AIIDE 2012).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from .config import ConfigError
from .records import Player

__all__ = [
    "FORBID_KEY",
    "USED_COLUMNS",
    "Choice",
    "Restrictions",
    "check_forbid",
    "choices_named",
    "forbid_problems",
    "forbidden",
    "restricted_lineups",
    "restricted_player",
    "worth_manifest",
]

#: The profile key that lists a player's forbidden choices.
FORBID_KEY = "forbid"

#: The columns of :attr:`Restrictions.used`'s table: one row per match × seat × choice made.
USED_COLUMNS = ("variant", "lineup", "match", "seat", "choice", "uses")


@dataclass(frozen=True)
class Choice:
    """One choice a profile may forbid.

    Attributes:
        name: what ``forbid`` lists and the tables call it (``choc``, ``zone.1``,
            ``shot.rebound``): lower case, no spaces.
        kind: the family it belongs to, for headings (``card``, ``zone``, ``shot``).
        label: how a sentence names it (``Choc``, ``the 100-point zone (ring 1)``, ``striker rebounds``).
    """

    name: str
    kind: str
    label: str


@dataclass(frozen=True)
class Restrictions:
    """What a game lets a profile forbid.

    Attributes:
        choices: ``(rules) -> tuple[Choice, ...]``: the restrictable choices under these rules
            (a deck's cards depend on the deck), in the order reports list them.
        used: ``(tables) -> DataFrame`` with :data:`USED_COLUMNS`: how many times each seat
            made each choice in each match (rows with ``uses`` 0 may be left out). The
            conformance suite checks with it that a forbidden choice is never made.
        observed: optional ``(tables) -> {choice name: rate}``: the game's own observational
            measure of a choice (Gastérospeed's card win rate per seat-race), which reports set
            beside the worth. None: the share of the seat-matches in which the choice was made
            that the seat won.
    """

    choices: Callable[[Any], tuple[Choice, ...]]
    used: Callable[[Mapping[str, pd.DataFrame]], pd.DataFrame]
    observed: Callable[[Mapping[str, pd.DataFrame]], Mapping[str, float]] | None = None


def forbidden(player_or_profile: Any) -> tuple[str, ...]:
    """The choices a player (or profile) forbids; () for a profile without the key."""
    profile = getattr(player_or_profile, "profile", player_or_profile)
    return tuple(getattr(profile, FORBID_KEY, ()) or ())


def forbid_problems(restrictions: Restrictions | None, rules: Any, players: Sequence[Player], game: str) -> list[str]:
    """One line per player whose ``forbid`` names a choice the game does not have under these
    rules (or that forbids anything in a game without restrictable choices)."""
    problems = []
    known = {c.name for c in restrictions.choices(rules)} if restrictions is not None else set()
    for player in players:
        unknown = [name for name in forbidden(player) if name not in known]
        if not unknown:
            continue
        if restrictions is None:
            problems.append(
                f"{player.name}: {FORBID_KEY} = {list(forbidden(player))!r}: {game} declares no "
                "choices a profile may forbid"
            )
        else:
            allowed = ", ".join(c.name for c in restrictions.choices(rules))
            problems.append(
                f"{player.name}: {FORBID_KEY}: unknown choice {', '.join(map(repr, unknown))}; allowed: {allowed}"
            )
    return problems


def check_forbid(restrictions: Restrictions | None, rules: Any, players: Sequence[Player], game: str) -> None:
    """Raise :class:`ConfigError` with :func:`forbid_problems`' lines, if any."""
    problems = forbid_problems(restrictions, rules, players, game)
    if problems:
        raise ConfigError(problems)


def choices_named(
    restrictions: Restrictions | None, rules: Any, names: Sequence[str] | str, game: str, label: str = "choices"
) -> tuple[Choice, ...]:
    """The game's choices under ``rules`` that ``names`` lists (``"all"`` or empty: every one),
    in the game's order; :class:`ConfigError` naming an unknown one and the choices allowed."""
    if restrictions is None:
        raise ConfigError([f"{label}: {game} declares no choices a profile may forbid"])
    every = restrictions.choices(rules)
    if names == "all" or not names:
        return tuple(every)
    wanted = [names] if isinstance(names, str) else list(names)
    known = {c.name for c in every}
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise ConfigError(
            [f"{label}: unknown choice {', '.join(map(repr, unknown))}; allowed: {', '.join(c.name for c in every)}"]
        )
    return tuple(c for c in every if c.name in set(wanted))


def restricted_player(player: Player, choice: Choice) -> Player:
    """``player`` forbidding ``choice`` too, named ``<name> without <choice>``; a
    :class:`ConfigError` naming the player when its profile refuses that (a Carrom profile
    left with no break to play)."""
    profile = replace(player.profile, **{FORBID_KEY: (*forbidden(player), choice.name)})
    name = f"{player.name} without {choice.name}"
    problems = getattr(profile, "problems", None)
    refused = [f"{name}: {key}: {why}" for key, why in problems()] if problems is not None else []
    if refused:
        raise ConfigError(refused)
    return Player(name, profile)


def restricted_lineups(name: str, players: Sequence[Player], slot: int, choices: Sequence[Choice]):
    """``(line-up name, choice or None, players)``: the line-up as given, then one line-up per
    choice in which the player of ``slot`` forbids it (named ``<line-up> without <choice>``);
    the other seats are unchanged, so with common seeds each pairs with the first."""
    yield name, None, tuple(players)
    for choice in choices:
        seated = list(players)
        seated[slot] = restricted_player(players[slot], choice)
        yield f"{name} without {choice.name}", choice, tuple(seated)


def worth_manifest(slot: int, choices: Sequence[Choice], lineups: Mapping[str, tuple[str, Choice | None]]) -> dict:
    """The manifest's ``worth``: the restricted slot, the choices (name, kind, label) and, per
    line-up played, the line-up it restricts and the choice (None: unrestricted)."""
    return {
        "slot": slot,
        "choices": [{"name": c.name, "kind": c.kind, "label": c.label} for c in choices],
        "lineups": {
            played: {"lineup": base, "choice": choice.name if choice else None}
            for played, (base, choice) in lineups.items()
        },
    }
