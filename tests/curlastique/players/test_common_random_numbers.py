"""Common random numbers: a point-value-only change leaves the throws identical, only scores change.

With `random` players (whose shots do not depend on the zone values) each seat's k-th throw
of a match is the same intended and executed shot in both variants, and every throw stops at
the same place until the scores make a different seat start a round (the lowest cumulative
score starts): from then on pucks meet other pucks in another order (and a launch spot blocked
by a resting puck moves the start aside). Only the points differ.
(A planner aims by the zone values, so its throws may change: that is the variant's effect,
not noise.)
"""

import pandas as pd

from sim.core import load_lineup, load_rules
from sim.core.runner import Cell, run_cells
from sim.curlastique import GAME


def test_point_values_change_scores_not_throws():
    base = load_rules(GAME)
    variant = load_rules(GAME, None, ["zones.values=[150, 80, 40, 20]"])
    players = load_lineup(GAME, ["random", "random"], base)
    tables = run_cells(
        GAME,
        [Cell("baseline", "rr", base, players, True), Cell("bullseye", "rr", variant, players, True)],
        8,
        21,
        progress=False,
    )
    events = tables["events"].copy()
    events["kth"] = events.groupby(["variant", "match", "seat"]).cumcount()
    a = events[events.variant == "baseline"].set_index(["match", "seat", "kth"])
    b = events[events.variant == "bullseye"].set_index(["match", "seat", "kth"])
    common = a.index.intersection(b.index)
    assert len(common) >= 200
    # (executed_x can move off a resting puck blocking the launch spot: it belongs with the board)
    shot = [c for c in a.columns if c.startswith("intended_")] + ["executed_angle_deg", "executed_speed"]
    assert len(shot) == 5
    pd.testing.assert_frame_equal(a.loc[common, shot], b.loc[common, shot])

    # where the pucks stop: identical in every round played in the same order
    rounds = tables["rounds"]
    starters = rounds.drop_duplicates(["variant", "match", "round"]).pivot(
        index=["match", "round"], columns="variant", values="starter"
    )
    same_order = starters[starters["baseline"] == starters["bullseye"]].index
    first_diff = starters[starters["baseline"] != starters["bullseye"]].reset_index().groupby("match")["round"].min()
    keep = [(m, r) for m, r in same_order if r < first_diff.get(m, 10**9)]
    a2 = a.reset_index().set_index(["match", "round", "index"])
    b2 = b.reset_index().set_index(["match", "round", "index"])
    rows = [i for i in a2.index.intersection(b2.index) if (i[0], i[1]) in set(keep)]
    assert len(rows) >= 100
    final = ["executed_x", "final_x", "final_y"]
    pd.testing.assert_frame_equal(a2.loc[rows, final], b2.loc[rows, final])
    scores = rounds.groupby("variant")["points"].sum()
    assert scores["bullseye"] != scores["baseline"]
