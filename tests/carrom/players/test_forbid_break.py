"""Restricted play of the break (``forbid`` = break.centre, break.cut, break.off_centre): a
forbidden variant's breaks leave the grid on every break plan, the events tell which variant
was played, and a profile that leaves no break is refused."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from sim.carrom.conformance import CONFORMANCE
from sim.carrom.match import plan_view
from sim.carrom.players.planner import Planner
from sim.carrom.rehearse import rehearse
from sim.carrom.restrictions import CHOICES, allowed_breaks, break_aim_points, break_choices, used
from sim.carrom.rules.board import geometry
from sim.carrom.rules.flow import BoardState
from sim.carrom.rules.view import striker_spans
from sim.core import load_lineup
from sim.core.config import ConfigError
from sim.core.game import Player
from sim.core.restrict import USED_COLUMNS
from sim.core.runner import Cell, run_cells

from ..helpers import SPEC, rules

QUICK = rules(*CONFORMANCE.quick)
BREAKS = ("break.centre", "break.cut", "break.off_centre")
SHOTS = tuple(c.name for c in CHOICES if c.kind == "shot")
GEO = geometry(QUICK)


def _casual(**changes) -> Player:
    player = load_lineup(SPEC, ["casual", "casual"], QUICK)[0]
    return Player(player.name, dataclasses.replace(player.profile, **changes))


def _play(*players: Player, matches: int = 2, seed: int = 11, rules=QUICK) -> dict[str, pd.DataFrame]:
    return run_cells(SPEC, [Cell("baseline", "forbid", rules, tuple(players))], matches, seed, progress=False)


def _break_view():
    state = BoardState(QUICK, 2, breaker=0)
    view = plan_view(state, 0)
    return view, striker_spans(view)


def _variants(x: float, angle_deg: float) -> set[str]:
    """A break stroke's variants, worked out here from the rules' base line: aimed at the point
    where the stroke's line crosses the queen's row (local y 0)."""
    aim = x + GEO.striker_y * math.tan(math.radians(angle_deg))
    return {"break.centre" if abs(aim) < 1e-9 else "break.cut"} | ({"break.off_centre"} if x != 0 else set())


def _strokes(cands) -> list[tuple]:
    return [(s.x, s.angle_deg, s.speed, s.kind) for s in (cands.stroke(i) for i in range(len(cands)))]


def test_the_variants_are_declared_and_split_the_grid_by_aim_and_offset():
    assert [c.name for c in CHOICES if c.kind == "break"] == list(BREAKS)
    assert break_choices(0.0, 0.0) == ("break.centre",)
    assert break_choices(0.04, 0.0) == ("break.centre", "break.off_centre")
    assert break_choices(0.0, -1.0) == ("break.cut",)
    assert break_choices(-0.08, 1.0) == ("break.cut", "break.off_centre")
    offsets, aims = (0.0, 0.04, -0.04), (0.0, 1.0, -1.0)
    assert allowed_breaks((), offsets, aims) == (offsets, aims)
    assert allowed_breaks(("break.centre", "shot.cut"), offsets, aims) == (offsets, [1.0, -1.0])
    assert allowed_breaks(("break.cut",), offsets, aims) == (offsets, [0.0])
    assert allowed_breaks(("break.off_centre",), offsets, aims) == ([0.0], aims)


@pytest.mark.parametrize(
    "forbid",
    [
        ("break.centre",),
        ("break.cut",),
        ("break.off_centre",),
        ("break.centre", "break.off_centre"),
        ("break.cut", "break.off_centre"),
    ],
)
def test_the_break_candidates_are_the_grid_less_the_forbidden_variants_in_the_grids_order(forbid):
    view, spans = _break_view()
    every = _strokes(Planner(_casual(candidates=200).profile, GEO).candidates(view, spans))
    assert len(every) == 7 * 3 * 3  # the whole default grid
    assert {v for s in every for v in _variants(s[0], s[1])} == set(BREAKS)
    allowed = [s for s in every if not set(forbid) & _variants(s[0], s[1])]
    assert allowed and len(allowed) < len(every)
    assert _strokes(Planner(_casual(candidates=200, forbid=forbid).profile, GEO).candidates(view, spans)) == allowed
    # casual's budget: the first 8 allowed breaks, not the first 8 of the grid less the forbidden
    assert _strokes(Planner(_casual(forbid=forbid).profile, GEO).candidates(view, spans)) == allowed[:8]


@pytest.mark.parametrize("forbid, played", [("break.centre", "break.cut"), ("break.cut", "break.centre")])
def test_on_the_break_the_forbidden_variant_is_never_chosen_and_the_other_is(forbid, played):
    view, _ = _break_view()
    for seed in range(3):
        stroke = Planner(_casual(break_plan="each_board", forbid=(forbid,)).profile, GEO).decide(
            view, np.random.default_rng(seed)
        )
        assert stroke.kind == "break" and math.isfinite(stroke.value)  # planned: simulated
        assert played in _variants(stroke.x, stroke.angle_deg) and forbid not in _variants(stroke.x, stroke.angle_deg)


def test_the_last_resort_through_the_middle_is_no_break_and_never_forbidden():
    view, spans = _break_view()
    free = Planner(_casual().profile, GEO)
    no_centre = Planner(_casual(forbid=(*SHOTS, *BREAKS[::2])).profile, GEO)
    assert _strokes(no_centre.through_middle(spans)) == _strokes(free.breaks(spans, 1))  # at the queen's centre
    assert all(_variants(s[0], s[1]) == {"break.cut"} for s in _strokes(no_centre.candidates(view, spans)))
    tables = _play(_casual(forbid=(*SHOTS, "break.centre")), _casual(), matches=1)
    events = tables["events"]
    mine = events[events["seat"] == 0]
    last_resorts = mine[~mine["is_break"]]
    assert len(last_resorts) and set(mine["kind"]) == {"break"}
    # from the nearest free spot at the queen's centre, break.centre forbidden or not
    assert all(
        _variants(x, a) - {"break.off_centre"} == {"break.centre"}
        for x, a in zip(last_resorts["intended_x"], last_resorts["intended_angle_deg"], strict=True)
    )
    counts = used(tables).set_index(["seat", "choice"])["uses"].groupby(level=[0, 1]).sum()
    assert counts[(0, "break.centre")] == 0 and counts[(0, "break.cut")] == mine["is_break"].sum() > 0
    assert all(counts[(0, name)] == 0 for name in SHOTS)


def _break_row(n_seats: int, seat: int, x: float, aim: float, **row) -> dict:
    """An events row of a planner's break by ``seat``: from local ``x``, aimed ``aim`` coin radii
    across the queen, the striker placed where intended (board coordinates as the match writes)."""
    sy = GEO.striker_y
    angle = math.degrees(math.atan2(-(aim * GEO.rc - x), -sy))
    bx, by = GEO.to_board(n_seats, seat, (x, sy))
    return {
        "variant": "v",
        "lineup": "l",
        "match": 0,
        "seat": seat,
        "kind": "break",
        "target": -1,
        "is_break": True,
        "intended_x": x,
        "intended_angle_deg": angle,
        "placed_x": x,
        "striker_x": bx,
        "striker_y": by,
        **row,
    }


def test_used_reads_the_variant_of_each_break_back_from_its_stroke_in_every_seats_frame():
    rows = [
        _break_row(4, 0, 0.0, 0.0),
        _break_row(4, 1, 0.04, 1.0),
        _break_row(4, 2, -0.08, 0.0),
        _break_row(4, 3, 0.0, -1.0),
        _break_row(4, 3, 0.12, 0.001),
        _break_row(4, 0, 0.0, 0.0, is_break=False),  # the last resort through the middle
        _break_row(4, 1, 0.0, 0.0, kind="random"),  # the random player's break: no choice
        _break_row(4, 2, 0.0, 0.0, placed_x=math.nan, striker_x=math.nan, striker_y=math.nan),
    ]  # not placed
    events = pd.DataFrame(rows)
    aims = break_aim_points(events) / GEO.rc
    assert aims[:5] == pytest.approx([0.0, 1.0, 0.0, -1.0, 0.001], abs=1e-12) and np.isnan(aims[7])
    players = pd.DataFrame({"variant": "v", "lineup": "l", "match": 0, "seat": [0, 1, 2, 3]})
    counts = used({"events": events, "players": players})
    assert tuple(counts.columns) == USED_COLUMNS and len(counts) == 4 * len(CHOICES)
    got = {(s, c): u for s, c, u in counts[["seat", "choice", "uses"]].itertuples(index=False) if u}
    assert got == {
        (0, "break.centre"): 1,
        (1, "break.cut"): 1,
        (1, "break.off_centre"): 1,
        (2, "break.centre"): 1,
        (2, "break.off_centre"): 1,
        (3, "break.cut"): 2,
        (3, "break.off_centre"): 1,
    }


def test_used_counts_the_variant_of_every_break_played():
    """Four seats (every frame), champions among them (their grid reaches off-centre spots)."""
    four = rules("game.target_points=25", "game.max_boards=4")
    players = [
        Player(f"{p.name}{seat}", dataclasses.replace(p.profile, break_plan="each_board"))
        for seat, p in enumerate(load_lineup(SPEC, ["champion", "club", "champion", "club"], four))
    ]
    tables = _play(*players, matches=2, rules=four)
    events = tables["events"]
    breaks = events[events["is_break"] & (events["kind"] == "break")]
    assert len(breaks) >= 4 and breaks["seat"].nunique() >= 3
    counts = used(tables).set_index(["match", "seat", "choice"])["uses"]
    for (match, seat), rows in events.groupby(["match", "seat"]):
        mine = breaks[(breaks["match"] == match) & (breaks["seat"] == seat)]
        for name in BREAKS:
            assert counts[(match, seat, name)] == sum(
                name in _variants(x, a) for x, a in zip(mine["intended_x"], mine["intended_angle_deg"], strict=True)
            )
    total = used(tables).groupby("choice")["uses"].sum()
    assert total["break.centre"] + total["break.cut"] == len(breaks) and total["break.off_centre"] > 0


def test_forbidding_a_break_variant_changes_play_and_the_seat_never_plays_it():
    free = _play(_casual(break_plan="each_board"), _casual(), matches=3)
    before = used(free).set_index(["match", "seat", "choice"])["uses"]
    for name in ("break.centre", "break.cut"):
        assert before.xs((0, name), level=["seat", "choice"]).sum() > 0  # the unrestricted seat plays both
        restricted = _play(_casual(break_plan="each_board", forbid=(name,)), _casual(), matches=3)
        after = used(restricted)
        assert after.loc[(after["seat"] == 0) & (after["choice"] == name), "uses"].sum() == 0
        assert after.loc[after["seat"] == 1, "uses"].sum() > 0
        assert not free["events"].equals(restricted["events"])


def test_once_per_match_keeps_an_allowed_break():
    view, _ = _break_view()
    planner = Planner(_casual(break_plan="once_per_match", forbid=("break.centre",)).profile, GEO)
    rng = np.random.default_rng(5)
    first = planner.decide(view, rng)
    assert _variants(first.x, first.angle_deg) & set(BREAKS) == {"break.cut"}
    state = rng.bit_generator.state
    assert planner.decide(view, rng) is first and rng.bit_generator.state == state
    tables = _play(
        _casual(forbid=("break.centre",)),
        _casual(),
        matches=2,
        rules=rules("game.target_points=25", "game.max_boards=4"),
    )
    events = tables["events"]
    mine = events[events["is_break"] & (events["seat"] == 0)]
    assert mine.groupby("match").size().max() >= 2  # several breaks of seat 0 in a match
    for _, rows in mine.groupby("match"):
        assert len(set(zip(rows["intended_x"], rows["intended_angle_deg"], rows["intended_speed"], strict=True))) == 1
        assert all(
            _variants(x, a) == {"break.cut"}
            for x, a in zip(rows["intended_x"], rows["intended_angle_deg"], strict=True)
        )


def test_a_rehearsed_break_is_played_unless_forbidden_then_planned_once_from_the_allowed_grid():
    view, _ = _break_view()
    rehearsed = {
        "break_plan": "rehearsed",
        "rehearsed_break_offset_m": 0.0,
        "rehearsed_break_aim": 0.0,
        "rehearsed_break_speed": 4.5,
    }
    # its variant allowed: played as written, nothing simulated
    rng = np.random.default_rng(2)
    state = rng.bit_generator.state
    stroke = Planner(_casual(forbid=("break.off_centre", "break.cut"), **rehearsed).profile, GEO).decide(view, rng)
    assert rng.bit_generator.state == state and (stroke.x, stroke.angle_deg, stroke.speed) == (0.0, 0.0, 4.5)
    # forbidden: planned from the allowed grid (simulated), then kept for the match
    planner = Planner(_casual(forbid=("break.centre",), **rehearsed).profile, GEO)
    assert planner.break_plan == "once_per_match"
    first = planner.decide(view, rng)
    assert rng.bit_generator.state != state and math.isfinite(first.value)
    assert "break.centre" not in _variants(first.x, first.angle_deg)
    assert planner.decide(view, rng) is first


def _refused(tmp_path, text: str) -> list[str]:
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as exc:
        load_lineup(SPEC, [str(path), "casual"], QUICK)
    return exc.value.problems


@pytest.mark.parametrize(
    "text",
    [
        'forbid = ["break.centre", "break.cut"]\n',
        'break_aims = [1.0, -1.0]\nforbid = ["break.cut", "shot.push"]\n',
        'break_offsets_m = [0.04, -0.04]\nforbid = ["break.off_centre"]\n',
        'break_plan = "rehearsed"\nrehearsed_break_aim = 1.0\nbreak_aims = [1.0]\nforbid = ["break.cut"]\n',
    ],
)
def test_a_profile_that_leaves_no_break_is_refused_in_one_line_naming_forbid(tmp_path, text):
    lines = _refused(tmp_path, 'base = "casual"\n' + text)
    assert len(lines) == 1 and "forbid" in lines[0] and "the break must be played" in lines[0], lines


def test_a_rehearsed_break_that_is_allowed_is_a_break_to_play_even_with_the_grid_forbidden(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('base = "casual"\nbreak_plan = "rehearsed"\nbreak_aims = [1.0]\nforbid = ["break.cut"]\n')
    profile = load_lineup(SPEC, [str(path), "casual"], QUICK)[0].profile
    view, _ = _break_view()
    stroke = Planner(profile, GEO).decide(view, np.random.default_rng(0))
    assert _variants(stroke.x, stroke.angle_deg) == {"break.centre"}


def test_a_profile_changed_in_code_to_leave_no_break_is_refused_by_the_planner():
    with pytest.raises(ConfigError) as exc:
        Planner(_casual(forbid=("break.centre", "break.cut")).profile, GEO)
    assert len(exc.value.problems) == 1 and exc.value.problems[0].startswith("forbid: ")


def test_the_rehearsal_tries_only_the_allowed_breaks():
    profile = _casual(break_offsets_m=(0.0, 0.04), break_speeds=(4.5,), forbid=("break.centre", "break.off_centre"))
    table = rehearse(profile.profile, QUICK, samples=4, seed=1)
    assert sorted(zip(table["offset_m"], table["aim"], strict=True)) == [(0.0, -1.0), (0.0, 1.0)]


def test_the_random_player_makes_no_break_choice_and_is_not_refused(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('base = "random"\nforbid = ["break.centre", "break.cut"]\n')
    player = load_lineup(SPEC, [str(path), "random"], QUICK)[0]
    tables = _play(player, _casual(), matches=1)
    counts = used(tables)
    assert counts.loc[counts["seat"] == 0, "uses"].sum() == 0


def test_worth_refuses_up_front_a_restriction_that_leaves_a_player_no_break(tmp_path, capsys):
    """A player whose grid aims only at the queen's centre cannot be restricted in
    ``break.centre``: ``tablesim worth`` says so in one line before a match is played."""
    from sim.cli import main
    from sim.core.restrict import restricted_player

    player = _casual(break_aims=(0.0,))
    with pytest.raises(ConfigError) as exc:
        restricted_player(player, next(c for c in CHOICES if c.name == "break.centre"))
    assert exc.value.problems == [
        f"{player.name} without break.centre: forbid: forbidding break.centre leaves no "
        "break of the grid (break_offsets_m [0.0, 0.04, -0.04, 0.08, -0.08, 0.12, -0.12] × "
        "break_aims [0.0]); the break must be played: allow one of its variants"
    ]
    path = tmp_path / "centre.toml"
    path.write_text('base = "casual"\nbreak_aims = [0.0]\n')
    assert (
        main(
            [
                "worth",
                "carrom",
                "--players",
                f"{path},casual",
                "--choices",
                "break.centre",
                "--matches",
                "2",
                "--out",
                str(tmp_path / "out"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "without break.centre: forbid: forbidding break.centre leaves no break" in err[0], err
    assert not (tmp_path / "out").exists()
