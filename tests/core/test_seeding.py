"""Per-match, per-purpose random streams."""

import numpy as np

from sim.core.seeding import MatchSeeds


def test_same_key_same_stream():
    a = MatchSeeds(7, 3).rng("chance").integers(0, 1 << 30, 10)
    b = MatchSeeds(7, 3).rng("chance").integers(0, 1 << 30, 10)
    assert np.array_equal(a, b)


def test_streams_differ_by_purpose_match_and_root():
    draws = {
        key: MatchSeeds(*key[:2]).rng(key[2]).integers(0, 1 << 30, 4).tolist()
        for key in [(7, 3, "chance"), (7, 3, "seat0"), (7, 4, "chance"), (8, 3, "chance")]
    }
    assert len({tuple(v) for v in draws.values()}) == 4


def test_a_stream_does_not_depend_on_draws_from_another():
    seeds = MatchSeeds(1, 0)
    seat = seeds.seat(0)
    seeds.rng("chance").random(1000)  # another purpose drawing a lot changes nothing
    assert seat.random() == MatchSeeds(1, 0).seat(0).random()
