"""Restricted play (``forbid``): a forbidden shot kind is never tried, the rest of play is kept
(the break variants: test_forbid_break.py)."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from sim.carrom.conformance import CONFORMANCE
from sim.carrom.match import physics_resolver, plan_view
from sim.carrom.players.planner import Planner
from sim.carrom.restrictions import CHOICES, pot_routes, used
from sim.carrom.rules.board import StrokeOutcome, geometry
from sim.carrom.rules.flow import BoardState
from sim.carrom.rules.view import striker_spans
from sim.core import load_lineup
from sim.core.config import ConfigError
from sim.core.game import Player
from sim.core.restrict import USED_COLUMNS, check_forbid
from sim.core.runner import Cell, run_cells
from sim.dexterity import play_turn

from ..helpers import SPEC, rules

QUICK = rules(*CONFORMANCE.quick)  # the conformance suite's short matches (9 points, 2 boards)
EVERY = tuple(c.name for c in CHOICES if c.kind == "shot")  # the shot kinds


def _made(kind: str, target: int) -> set[str]:
    """The choices a stroke makes, read from its kind here independently of the hook."""
    pot = kind not in ("push", "break", "random", "none", "")
    return {
        name
        for name, yes in (
            ("shot.cut", kind == "cut"),
            ("shot.rebound", kind.startswith("rebound")),
            ("shot.bank", "bank" in kind),
            ("shot.queen", pot and target == 0),
            ("shot.push", kind == "push"),
        )
        if yes
    }


def _casual(**changes) -> Player:
    player = load_lineup(SPEC, ["casual", "casual"], QUICK)[0]
    return Player(player.name, dataclasses.replace(player.profile, **changes))


def _play(*players: Player, matches: int = 2, rules=QUICK) -> dict[str, pd.DataFrame]:
    cell = Cell("baseline", "forbid", rules, tuple(players))
    return run_cells(SPEC, [cell], matches, 11, progress=False)


def _seat_made(events: pd.DataFrame, seat: int) -> set[str]:
    rows = events[events["seat"] == seat]
    return set().union(*(_made(k, int(t)) for k, t in zip(rows["kind"], rows["target"], strict=True)))


@pytest.mark.parametrize(
    "mine, theirs", [(("shot.bank", "shot.queen"), ("shot.cut", "shot.push")), (("shot.rebound",), ("shot.bank",))]
)
def test_each_seat_never_plays_what_it_forbids_and_the_other_still_does(mine, theirs):
    tables = _play(_casual(forbid=mine), _casual(forbid=theirs))
    events = tables["events"]
    assert set(mine).isdisjoint(_seat_made(events, 0))
    assert set(theirs).isdisjoint(_seat_made(events, 1))
    assert set(theirs) <= _seat_made(events, 0) and set(mine) <= _seat_made(events, 1)


def test_an_empty_forbid_leaves_every_table_as_the_presets_play():
    """The presets forbid nothing, and ``forbid = ()`` is their play (that play is bit-identical
    to the planner's before ``forbid`` existed: checked once against stored tables)."""
    base = load_lineup(SPEC, ["casual", "casual"], QUICK)
    assert all(p.profile.forbid == () for p in base)
    explicit = [Player(p.name, dataclasses.replace(p.profile, forbid=())) for p in base]
    before, after = _play(*base), _play(*explicit)
    assert all(before[t].equals(after[t]) for t in before)


def test_forbidding_rebounds_plays_exactly_as_the_rebounds_key_switched_off():
    """Both only narrow the (striker route, coin route) pairs searched: the same matches."""
    forbidden = _play(_casual(forbid=("shot.rebound",)), _casual())
    switched_off = _play(_casual(rebounds=False), _casual())
    assert all(forbidden[t].equals(switched_off[t]) for t in forbidden)
    unrestricted = _play(_casual(), _casual())
    assert not unrestricted["events"].equals(forbidden["events"])


def test_pot_routes_without_forbid_are_the_rebounds_key():
    for rebounds in (True, False):
        routes = pot_routes((), rebounds)
        assert all(routes[w, b] == (w == 0 or rebounds) for w in range(5) for b in range(5))
    assert pot_routes(EVERY[:3]).sum() == 0  # no cut, rebound or bank: no pot at all


def _positions(n: int = 8):
    """Views of real boards after the break: a casual player plays a few strokes."""
    planner = Planner(_casual().profile, geometry(QUICK))
    state = BoardState(QUICK, 2, breaker=0, rng=np.random.default_rng(3))
    rng = np.random.default_rng(4)
    for _ in range(n):
        seat = state.turn
        view = plan_view(state, seat)
        if not view.is_break:
            yield view
        turn = play_turn(
            planner,
            view,
            rng,
            view.place,
            lambda s, seat=seat: physics_resolver(state, seat, s.x, s.angle_deg, s.speed),
            lambda: StrokeOutcome(touched=False),
        )
        state.apply(turn.outcome)
        if state.over:
            return


def test_forbidden_kinds_are_filtered_before_any_simulation_and_the_rest_kept():
    """With a budget above every pot found, the candidates forbidding some kinds are exactly
    those of the unrestricted planner less the forbidden ones, in the same order."""
    big = {"candidates": 200, "pot_min_prior": 1e-3}
    free = Planner(_casual(**big).profile, geometry(QUICK))
    seen = 0
    for view in _positions():
        spans = striker_spans(view)
        everything = free.candidates(view, spans)
        allowed_all = [everything.stroke(i) for i in range(len(everything))]
        for forbid in (("shot.bank",), ("shot.cut", "shot.queen"), ("shot.rebound", "shot.push")):
            restricted = Planner(_casual(forbid=forbid, **big).profile, geometry(QUICK)).candidates(view, spans)
            got = [restricted.stroke(i) for i in range(len(restricted))]
            assert not any(set(forbid) & _made(s.kind, s.target) for s in got)
            pots = [s for s in allowed_all if s.kind != "push" and not set(forbid) & _made(s.kind, s.target)]
            assert [s for s in got if s.kind != "push"] == pots
            seen += len(pots)
    assert seen > 0


def test_forbidding_every_shot_kind_still_strikes_through_the_middle_and_ends_the_match():
    tables = _play(_casual(forbid=EVERY), _casual(), matches=1)
    events = tables["events"]
    mine = events[events["seat"] == 0]
    assert len(mine) and set(mine["kind"]) == {"break"}  # the break, then the firm stroke through the middle
    assert (~mine["is_break"]).any()
    assert len(tables["matches"]) == 1 and tables["matches"]["finished"].all()
    counts = used(tables)
    shots = counts[counts["choice"].isin(EVERY)]
    assert shots.loc[shots["seat"] == 0, "uses"].sum() == 0 and shots.loc[shots["seat"] == 1, "uses"].sum() > 0
    # the breaks are counted as break variants, one of break.centre / break.cut each; the last
    # resort through the middle (kind break too) as nothing
    aims = counts[(counts["seat"] == 0) & counts["choice"].isin(["break.centre", "break.cut"])]
    assert aims["uses"].sum() == mine["is_break"].sum()


def test_used_counts_each_seats_strokes_of_each_kind():
    events = pd.DataFrame(
        {
            "variant": "v",
            "lineup": "l",
            "match": [0, 0, 0, 0, 0, 0, 1],
            "seat": [0, 0, 0, 1, 1, 1, 0],
            "kind": ["cut", "rebound_left+bank_far", "break", "push", "cut", "random", "bank_near"],
            "target": [3, 0, -1, 5, 0, -1, 7],
            "is_break": False,
        }
    )  # the break kind off the break: the last resort through the middle, no choice
    players = pd.DataFrame({"variant": "v", "lineup": "l", "match": [0, 0, 1, 1], "seat": [0, 1, 0, 1]})
    counts = used({"events": events, "players": players})
    assert tuple(counts.columns) == USED_COLUMNS
    assert len(counts) == 4 * len(CHOICES)  # every seat and choice, zeros included
    got = {(m, s, c): u for m, s, c, u in counts[["match", "seat", "choice", "uses"]].itertuples(index=False) if u}
    assert got == {
        (0, 0, "shot.cut"): 1,
        (0, 0, "shot.rebound"): 1,
        (0, 0, "shot.bank"): 1,
        (0, 0, "shot.queen"): 1,
        (0, 1, "shot.push"): 1,
        (0, 1, "shot.cut"): 1,
        (0, 1, "shot.queen"): 1,
        (1, 0, "shot.bank"): 1,
    }


def test_used_matches_the_events_of_played_matches():
    tables = _play(_casual(), _casual(forbid=("shot.push",)))
    counts = used(tables).set_index(["match", "seat", "choice"])["uses"]
    events = tables["events"]
    for (match, seat), rows in events.groupby(["match", "seat"]):
        for name in EVERY:  # the break variants: test_forbid_break.py
            made = sum(name in _made(k, int(t)) for k, t in zip(rows["kind"], rows["target"], strict=True))
            assert counts[(match, seat, name)] == made


def test_an_unknown_kind_is_refused_naming_the_allowed_ones():
    with pytest.raises(ConfigError) as exc:
        check_forbid(SPEC.restrictions, QUICK, [_casual(forbid=("shot.massé",))], "carrom")
    assert "shot.massé" in str(exc.value) and "shot.rebound" in str(exc.value)
