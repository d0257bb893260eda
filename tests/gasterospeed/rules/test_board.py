"""Special squares and the dashboard: arrows, mud, leaps, orientation."""

from __future__ import annotations

from sim.gasterospeed.rules.board import Board

from ..helpers import CONFIG, at, circuit

GATE = """
#FFFF#
#....#
##^###
#....#
#SSSS#
#====#
"""


def test_arrow_squares_are_entered_and_left_straight_in_their_direction():
    c = circuit(GATE)
    b = Board(c, [0, 1], [3, 3], CONFIG)
    b.place(0, at(c, 3, 1))
    ends = b.speed_ends(0, 2)
    assert at(c, 2, 2) not in b.speed_ends(0, 1)  # no diagonal into the arrow square
    assert at(c, 1, 1) not in ends  # nor through it diagonally
    b.place(0, at(c, 3, 2))
    assert at(c, 2, 2) in b.speed_ends(0, 1)
    ends = b.speed_ends(0, 2)
    assert at(c, 1, 2) in ends and at(c, 1, 1) not in ends and at(c, 1, 3) not in ends


def test_mud_stops_a_move_and_leaps_pass_obstacles_but_not_rails():
    c = circuit("""
    #FFFF#
    #....#
    #.~o.#
    #....#
    #SSSS#
    #====#
    """)
    b = Board(c, [0], [3], CONFIG)
    b.place(0, at(c, 3, 2))
    assert at(c, 2, 2) in b.speed_ends(0, 2)  # stepping onto mud ends the move there
    assert b.straight(0, 0, 3, False) == 1 and b.pos[0] == at(c, 2, 2)
    b.place(0, at(c, 3, 3))
    assert b.leap(0, 0, 2, False) and b.pos[0] == at(c, 1, 3)  # over the mushroom
    b.place(0, at(c, 3, 4))
    assert not b.leap(0, 2, 2, False)  # not over the rail


def test_dashboard_is_oriented_towards_the_finish_and_behind_means_squares_5_6_7():
    c = circuit()
    b = Board(c, [0, 1], [3, 3], CONFIG)
    b.place(0, at(c, 3, 2))
    assert [b.abs_dir(0, k) for k in range(1, 9)] == [7, 0, 1, 2, 3, 4, 5, 6]
    b.place(1, at(c, 2, 3))
    assert b.behind_another(0)  # back-left of snail 1 = its square 7
    b.place(1, at(c, 3, 3))
    assert not b.behind_another(0)


def test_domino_line_runs_across_the_track_to_the_rails():
    c = circuit()
    b = Board(c, [0, 1, 2, 3], [3] * 4, CONFIG)
    b.place(0, at(c, 2, 2))
    b.place(1, at(c, 2, 4))
    b.place(2, at(c, 2, 1))
    b.place(3, at(c, 3, 2))
    assert b.domino_sides(0) == ([2], [1])
