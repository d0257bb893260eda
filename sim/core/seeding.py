"""Per-match random streams derived from (root seed, match index, purpose).

Every random draw of a match comes from a :class:`numpy.random.Generator` obtained here. The
stream of a purpose ("setup", "chance", "seat0", ...) depends only on the root seed, the match
index and the purpose's name, never on the worker, the chunk or how many draws another stream
made. So a rule change that consumes extra draws in one stream leaves the others untouched and
common random numbers stay paired across variants: synchronised streams are what make common
random numbers work (Glasserman & Yao 1992, "Some guidelines and guarantees for common random
numbers", Management Science 38(6)).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

__all__ = ["MatchSeeds", "purpose_key"]


def purpose_key(purpose: str) -> int:
    """A stable 32-bit integer for a purpose name (CRC-32 of its UTF-8 bytes)."""
    return zlib.crc32(purpose.encode("utf-8"))


@dataclass(frozen=True)
class MatchSeeds:
    """The seeds of one match.

    Args:
        root: the run's root seed (a non-negative integer).
        match: the seed index (the same index plays the same seeds in every variant).
        seat_streams: the stream of each seat (its player's line-up slot); empty = the seat.

    Examples:
        >>> seeds = MatchSeeds(root=7, match=3)
        >>> a = seeds.rng("chance").random()
        >>> b = MatchSeeds(root=7, match=3).rng("chance").random()
        >>> a == b
        True
    """

    root: int
    match: int
    seat_streams: tuple[int, ...] = ()

    def sequence(self, purpose: str) -> np.random.SeedSequence:
        """The SeedSequence of one purpose: entropy = root, spawn key = (match, purpose)."""
        return np.random.SeedSequence(entropy=self.root, spawn_key=(self.match, purpose_key(purpose)))

    def rng(self, purpose: str) -> np.random.Generator:
        """A fresh generator for one purpose (PCG64). Call once per purpose and keep it."""
        return np.random.Generator(np.random.PCG64(self.sequence(purpose)))

    def seat(self, seat: int) -> np.random.Generator:
        """The generator of a seat's own draws (its execution noise and planning samples).

        The stream belongs to the *player* sitting there: with seat rotation the runner sets
        ``seat_streams`` (seat → line-up slot), so a player keeps its own draws whichever seat
        it takes, and rotating identical players plays different matches.
        """
        return self.rng(f"seat{self.seat_streams[seat] if self.seat_streams else seat}")
