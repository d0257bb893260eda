"""The board with real physics: geometry, formation, placement, frames, pots, the shot command."""

import json

import numpy as np
import pytest

from sim.carrom.match import physics_resolver
from sim.carrom.players.aim import LOCAL_POCKETS, make_params
from sim.carrom.players.aim import pot_candidates as _pot_candidates
from sim.carrom.players.policies import CarromProfile
from sim.carrom.restrictions import pot_routes
from sim.carrom.rules.board import formation, geometry, physics_stroke, side_quarter
from sim.carrom.rules.flow import BoardState
from sim.carrom.show.shot import shot
from sim.cli import main
from sim.core import ConfigError
from sim.physics import FORMATION_GAP_M

from ..helpers import rules


def _noise_free(geo):
    """The aiming parameters of a player without execution noise."""
    return make_params(geo, CarromProfile(position_sigma_m=0.0, angle_sigma_deg=0.0, speed_sigma_rel=0.0))


def pot_candidates(coins, on, targets, pockets, xs, spans, rebounds, prm):
    """Every row searched (no ranking cut-off: keep 0, every target worth 1)."""
    return _pot_candidates(
        coins, on, targets, pockets, xs, spans, pot_routes((), rebounds), prm, np.ones(len(targets)), 0, 0.0
    )[0]


def test_icf_geometry():
    geo = geometry(rules())
    assert geo.striker_y == pytest.approx(-0.2526, abs=1e-4)  # 11.74 cm from the cushion
    assert np.allclose(np.abs(geo.pocket_xy), 0.37 - 0.02225)  # tangent to both cushions
    assert geo.capture == pytest.approx(0.02225)
    xc = rules().board.base_circle_x
    assert xc == pytest.approx(0.2208, abs=1e-4)
    spans = geo.legal
    assert spans[1][1] == pytest.approx(xc - 0.0159 - geo.rs)  # the line, clear of the circles
    assert spans[2][0] == pytest.approx(xc - (geo.rs - 0.0159))  # covering the circle
    assert len(geometry(rules("board.base_circles=false")).legal) == 1


def test_break_formation_icf_rule_41():
    r = rules()
    pos, col = formation(r)
    assert (col == 0).sum() == 9 and (col == 1).sum() == 9 and (col == 2).sum() == 1
    assert np.allclose(pos[0], 0.0) and col[0] == 2
    d = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert d.min() == pytest.approx(2 * r.coins.radius + FORMATION_GAP_M, abs=1e-12)
    assert np.hypot(*pos.T).max() + r.coins.radius < r.board.outer_circle_diameter / 2
    # the Y: three arms of two whites each, one pointing at the breaker
    whites = pos[col == 0]
    angles = sorted({round(float(np.degrees(np.arctan2(y, x))) % 360) for x, y in whites if np.hypot(x, y) > 0.05})
    assert 270 in angles
    pos2, _ = formation(rules("formation.white_y=arms_to_breaker_corners"))
    assert not np.allclose(pos, pos2)


def test_seat_frames_rotate_the_board():
    geo = geometry(rules())
    assert [side_quarter(2, s) for s in (0, 1)] == [0, 2]
    assert [side_quarter(4, s) for s in range(4)] == [0, 1, 2, 3]
    start = geo.to_board(2, 1, (0.1, geo.striker_y))
    assert np.allclose(start, (-0.1, -geo.striker_y))
    # seat 1 (right of seat 0 in doubles) shoots from x > 0 towards -x
    assert np.allclose(geo.to_board(4, 1, (0.0, geo.striker_y)), (-geo.striker_y, 0.0))
    for seat in range(4):
        assert np.allclose(geo.to_local(4, seat, geo.to_board(4, seat, (0.03, 0.2))), (0.03, 0.2))


def test_a_straight_shot_from_the_other_side_moves_towards_it():
    r = rules()
    s = BoardState(r, 2, 1)
    s.pos[:] = s.pos + np.array([0.3, 0.0])  # pack aside
    out = physics_resolver(s, 1, 0.0, 0.0, 1.0)
    assert out.striker_final[1] < -0.0 and not out.touched


def test_striker_placement_is_legal_and_free():
    geo = geometry(rules())
    coins = np.array([[0.0, geo.striker_y + 0.01], [0.1, 0.0]])
    x = geo.place_striker(0.0, coins)
    assert geo.striker_is_legal(x, coins) and abs(x) >= geo.rs + geo.rc - 0.011
    assert geo.place_striker(0.2, np.zeros((0, 2))) == pytest.approx(geo.legal[1][1])  # cut-the-moon zone
    assert geo.striker_is_legal(rules().board.base_circle_x, np.zeros((0, 2)))
    assert not geo.striker_is_legal(0.2, np.zeros((0, 2)))


def test_ghost_ball_cut_pots_the_coin_with_the_physics():
    r = rules()
    geo = geometry(r)
    pos = np.full((19, 2), 0.0)
    on = np.zeros(19, dtype=bool)
    pos[1], on[1] = (0.15, 0.12), True
    prm = _noise_free(geo)
    rows = pot_candidates(
        pos, on, np.array([1]), LOCAL_POCKETS(r.board.pocket_centre), np.linspace(-0.18, 0.18, 11), geo.legal, True, prm
    )
    direct = rows[(rows[:, 1] == 2) & (rows[:, 2] == 0) & (rows[:, 3] == 0)][0]  # far-right, cut
    _, _, _, _, x, angle, speed, prior = direct
    assert prior > 0.99
    out = physics_stroke(r, pos, on, (x, geo.striker_y), angle, speed)
    assert out.pocketed == (1,) and out.pockets == (2,)


@pytest.mark.parametrize("coin", [(0.15, 0.12), (-0.1, -0.3), (0.25, -0.28), (0.237, -0.352)])
def test_noise_free_cuts_rebounds_and_banks_pot_the_coin(coin):
    r = rules()
    geo = geometry(r)
    pos = np.zeros((19, 2))
    on = np.zeros(19, dtype=bool)
    pos[1], on[1] = coin, True
    rows = pot_candidates(
        pos,
        on,
        np.array([1]),
        LOCAL_POCKETS(r.board.pocket_centre),
        np.linspace(-0.18, 0.18, 11),
        geo.legal,
        True,
        _noise_free(geo),
    )
    feasible = rows[rows[:, 7] > 0]
    assert (feasible[:, 2] > 0).sum() >= 3  # striker rebounds off several cushions
    assert (feasible[:, 3] > 0).sum() >= 2  # coin banks
    potted = [
        physics_stroke(r, pos, on, (x, geo.striker_y), a, v).pocketed == (1,) for _, _, _, _, x, a, v, _ in feasible
    ]
    assert np.mean(potted) >= 0.9


def test_break_through_the_engine_pockets_nothing_illegal_and_keeps_19_coins():
    r = rules()
    s = BoardState(r, 2, 0)
    out = physics_resolver(s, 0, 0.0, 0.0, 4.5)
    assert out.touched
    rep = s.apply(out)
    assert s.on.sum() + len(rep.pocketed) - rep.returned == 19
    d = np.hypot(*(s.pos[s.on][:, None] - s.pos[s.on][None]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert d.min() >= 2 * r.coins.radius - 1e-6
    assert np.all(np.abs(s.pos[s.on]) <= 0.37 - r.coins.radius + 1e-9)


def test_shot_default_is_the_break_and_json_ready(tmp_path):
    outcome = shot(rules(), x=0.0, angle_deg=0.0, speed=4.0)
    data = json.loads(json.dumps(outcome.as_dict()))
    assert len(data["discs"]) == 20 and data["discs"][-1]["owner"] == "striker"
    assert {d["status"] for d in data["discs"]} <= {"rest", "out", "pocketed"}
    assert data["events"] and data["events"][0]["kind"] == "disc"
    assert "striker" in outcome.text()
    path = tmp_path / "break.png"
    outcome.plot(path)
    assert path.stat().st_size > 10_000


def test_shot_from_a_state_file_and_the_cli(tmp_path, capsys):
    state = tmp_path / "state.toml"
    state.write_text('[[coins]]\ncolour = "white"\nx = 0.15\ny = 0.12\n[[coins]]\ncolour = "queen"\nx = 0.0\ny = 0.0\n')
    code = main(
        ["shot", "carrom", "--x", "0.0", "--angle", "0", "--speed", "1.0", "--state", str(state), "--format", "json"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["owner"] for d in data["discs"]] == ["queen", "white", "striker"]
    bad = tmp_path / "bad.toml"
    bad.write_text('[[coins]]\ncolour = "red"\nx = 0.1\ny = 0.0\n')
    with pytest.raises(ConfigError) as exc:
        shot(rules(), 0.0, 0.0, 1.0, state=str(bad))
    assert "coins[0].colour" in exc.value.problems[0]


def _layout(r, coins):
    """The formation's ids and colours, with only ``coins`` {id: (x, y)} on the board."""
    pos, col = formation(r)
    pos = pos + 10.0  # placeholders, off the board
    for cid, xy in coins.items():
        pos[cid] = xy
    return pos, col


def test_real_pot_of_an_own_coin_continues_the_turn():
    r = rules()
    geo = geometry(r)
    white = 1
    pos, col = _layout(r, {white: (0.15, 0.12), 3: (-0.25, 0.25)})  # not the last white
    s = BoardState(r, 2, 0, layout=(pos, col), white_side=0)
    s.on[:] = False
    s.on[[white, 3]] = True
    rows = pot_candidates(
        s.pos,
        s.on,
        np.array([white]),
        LOCAL_POCKETS(r.board.pocket_centre),
        np.linspace(-0.18, 0.18, 11),
        geo.legal,
        True,
        _noise_free(geo),
    )
    _, _, _, _, x, angle, speed, _ = rows[(rows[:, 1] == 2) & (rows[:, 2] == 0) & (rows[:, 3] == 0)][0]
    rep = s.apply(physics_resolver(s, 0, x, angle, speed))
    assert rep.whites == 1 and rep.continues and s.turn == 0


def test_real_striker_in_a_pocket_is_a_due():
    r = rules()
    geo = geometry(r)
    pos, col = _layout(r, {1: (0.0, 0.1), 3: (-0.1, 0.2)})
    s = BoardState(r, 2, 0, layout=(pos, col), white_side=0)
    s.on[:] = False
    s.on[[1, 3]] = True
    s.on[5], s.credit[5] = False, 0  # a white already pocketed: it pays the due
    s.on[7], s.credit[7] = False, 0
    pocket = geo.pocket_xy[1]  # near right, seen from seat 0
    x = 0.15
    d = pocket - (x, geo.striker_y)
    angle = float(np.degrees(np.arctan2(-d[0], d[1])))
    rep = s.apply(physics_resolver(s, 0, x, angle, 2.0))
    assert rep.striker_pocketed and rep.foul == "striker" and rep.due_coins == 1
    assert not rep.continues and s.turn == 1 and s.on.sum() == 3
