"""Properties of every game: turn order, pucks per round, scores, starters, determinism, schema."""

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core import MatchSeeds, Player, load_lineup, run_cells
from sim.core.rules import load_rules
from sim.core.runner import Cell
from sim.curlastique import GAME
from sim.curlastique.match import play_match
from sim.curlastique.players.policies import CurlastiqueProfile
from sim.curlastique.rules.board import physics_resolver
from sim.curlastique.rules.scoring import scorer

from ..scripted import scripted_players, teleport

POINTS = st.integers(0, 25).map(lambda k: 20 * k)


def tables(log):
    return {t: pd.DataFrame(rows) for t, rows in log.tables().items()}


def check_invariants(rules, t, n):
    pucks = rules.game.pucks_per_player
    ev, rounds = t["events"], t["rounds"]
    side = np.arange(n) % 2 if rules.game.teams else np.arange(n)
    cumulative = np.zeros(n, dtype=int)
    for number, r_ev in ev.groupby("round"):
        r_ev = r_ev.sort_values("turn")
        seats = r_ev["seat"].tolist()
        participants = sorted(set(seats))
        # every participant throws exactly `pucks`, one per turn, never twice in a row
        assert all(seats.count(s) == pucks for s in participants)
        assert len(participants) == 1 or all(a != b for a, b in zip(seats, seats[1:], strict=False))
        assert seats == seats[: len(participants)] * pucks  # the same lap each time
        r_rows = rounds[rounds["round"] == number].set_index("seat")
        starter = seats[0]
        assert (r_rows["starter"] == starter).all()
        if number == 1:
            assert starter == 0  # the oldest starts
        else:  # lowest cumulative, ties broken by seat order
            assert starter == min(participants, key=lambda s: (cumulative[s], s))
        decisive = bool(r_rows["decisive"].iloc[0])
        for s in participants:
            if not decisive:
                cumulative[s] += r_rows.loc[s, "points"]
            assert r_rows.loc[s, "cumulative"] == cumulative[s]
    totals = np.bincount(side, weights=cumulative)
    m = t["matches"].iloc[0]
    regular = m["rounds"] - m["decisive_rounds"]
    assert (t["players"]["score"].to_numpy() == cumulative).all()
    if m["finished"]:
        assert totals.max() >= rules.game.target_score
        assert t["players"]["won"].sum() == (2 if rules.game.teams else 1)
    else:
        assert m["winner"] == -1 and not t["players"]["won"].any() and m["rounds"] == rules.game.max_rounds
    # the game stopped at the first regular round that reached the target
    by_round = rounds[~rounds["decisive"]].pivot(index="round", columns="seat", values="cumulative")
    team_totals = by_round.T.groupby(side).sum().T.max(axis=1)
    assert (team_totals.iloc[:-1] < rules.game.target_score).all()
    assert len(by_round) == regular


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([2, 3, 4]),
    teams=st.booleans(),
    target=st.sampled_from([100, 500, 1000]),
    plan=st.dictionaries(st.tuples(st.integers(1, 12), st.integers(0, 3)), POINTS, max_size=40),
    default=st.sampled_from([0, 20, 100]),
)
def test_scripted_games_keep_every_invariant(n, teams, target, plan, default):
    teams = teams and n == 4
    rules = load_rules(
        GAME, None, [f"game.teams={str(teams).lower()}", f"game.target_score={target}", "game.max_rounds=12"]
    )
    log = play_match(rules, scripted_players(rules, plan, n, default), MatchSeeds(1, 2), resolver=teleport)
    t = tables(log)
    check_invariants(rules, t, n)
    # scores are the sums of the zone values planned for each seat
    regular = t["rounds"][~t["rounds"]["decisive"]]
    for row in regular.itertuples():
        assert row.points == plan.get((row.round, row.seat), default)


class Recorder:
    """Wraps the physics resolver and keeps the board after every throw."""

    def __init__(self):
        self.boards = []

    def __call__(self, rules, pos, owner, seat, x, angle, speed):
        final, on = physics_resolver(rules, pos, owner, seat, x, angle, speed)
        self.boards.append((final[on], np.append(owner, seat)[on]))
        return final, on


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([2, 3, 4]))
def test_real_physics_scores_are_the_zone_values_of_the_pucks_left(seed, n):
    rules = load_rules(GAME, None, ["game.target_score=150"])
    players = load_lineup(GAME, ["random", "novice", "random", "casual"][:n], rules)
    rec = Recorder()
    log = play_match(rules, players, MatchSeeds(seed, 0), resolver=rec)
    t = tables(log)
    check_invariants(rules, t, n)
    score = scorer(rules.zones, rules.puck.radius)
    ends = np.cumsum(t["events"].groupby("round").size().to_numpy()) - 1
    for (number, rows), end in zip(t["rounds"].groupby("round"), ends, strict=True):
        pos, owner = rec.boards[end]
        pts = score.points(pos)
        for row in rows.itertuples():
            assert row.points == int(pts[owner == row.seat].sum())
            assert row.points % 20 == 0


def small(name, **fields):
    return Player(name, CurlastiqueProfile(candidates=4, samples=2, **fields))


def test_same_seed_same_log_and_other_seed_other_log():
    rules = load_rules(GAME, None, ["game.target_score=200"])
    players = (small("a"), Player("r", CurlastiqueProfile(policy="random")), small("b", angle_sigma_deg=2.0))
    one = tables(play_match(rules, players, MatchSeeds(3, 4)))
    two = tables(play_match(rules, players, MatchSeeds(3, 4)))
    for name in one:
        pd.testing.assert_frame_equal(one[name], two[name])
    other = tables(play_match(rules, players, MatchSeeds(3, 5)))
    assert not one["events"][["executed_x", "final_x"]].equals(other["events"][["executed_x", "final_x"]])


def test_a_seat_draws_only_from_its_own_stream():
    # a random player's shots come from its seat's generator alone: the same whatever its
    # opponent draws for planning and noise, and whatever the global numpy state
    rules = load_rules(GAME, None, ["game.target_score=100", "game.max_rounds=1"])
    r = Player("r", CurlastiqueProfile(policy="random"))
    cols = ["intended_x", "intended_angle_deg", "intended_speed"]
    runs = []
    for opponent, global_seed in ((small("a"), 1), (Player("b", CurlastiqueProfile(candidates=9, samples=5)), 2)):
        np.random.seed(global_seed)
        ev = tables(play_match(rules, (r, opponent), MatchSeeds(9, 0)))["events"]
        runs.append(ev[ev["seat"] == 0][cols].reset_index(drop=True))
    pd.testing.assert_frame_equal(runs[0], runs[1])


def test_tables_have_stable_columns_and_types():
    rules = load_rules(GAME, None, ["game.target_score=200"])
    cell = Cell("baseline", "mix", rules, load_lineup(GAME, ["novice", "random", "casual"], rules))
    t = run_cells(GAME, [cell], 4, 5, progress=False)
    required = {
        "matches": {"winner", "winning_team", "rounds", "throws", "decisive_rounds", "finished"},
        "players": {"seat", "profile", "team", "score", "rank", "won"},
        "rounds": {"round", "seat", "points", "cumulative", "decisive", "starter"},
        "events": {
            "index",
            "round",
            "turn",
            "seat",
            "intended_x",
            "intended_angle_deg",
            "intended_speed",
            "executed_x",
            "executed_angle_deg",
            "executed_speed",
            "final_x",
            "final_y",
            "zone",
            "out",
            "knocked_out",
            "opponents_knocked_out",
        },
    }
    for name, cols in required.items():
        assert cols <= set(t[name].columns), name
    kinds = {
        "matches": {"winner": "i", "rounds": "i", "finished": "b"},
        "players": {"score": "i", "rank": "i", "won": "b", "profile": "O"},
        "rounds": {"points": "i", "cumulative": "i", "decisive": "b"},
        "events": {"zone": "i", "out": "b", "final_x": "f", "planned_margin": "f", "knocked_out": "i", "family": "O"},
    }
    for name, cols in kinds.items():
        for col, kind in cols.items():
            assert t[name][col].dtype.kind == kind, (name, col, t[name][col].dtype)
    # every row of a log carries the same keys with the same Python types
    log = play_match(rules, cell.players, MatchSeeds(5, 0))
    for rows in (log.players, log.rounds, log.events):
        shapes = {tuple((k, type(v).__name__) for k, v in row.items()) for row in rows}
        assert len(shapes) == 1
