"""The simulated players' compiled code (numba) on the compact board of
:mod:`sim.gasterospeed.rules.kernels`: the tactician's value of a board and the greedy
player's distance (:mod:`.value`), the look-ahead (:mod:`.lookahead`: move outcomes, card
play values, action and speed-move plans) and a table of tacticians' phases
(:mod:`.tactician_phases`)."""
