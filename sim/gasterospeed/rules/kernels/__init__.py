"""The movement rules on a compact board, compiled (numba): where the state, the circuit
("world") and the cards live in their int64 arrays (:mod:`.layout`), and speed moves,
straight moves, leaps, jostles, rails and lines (:mod:`.moves`: the one copy of the movement
rules, which the race and every look-ahead use)."""
