"""Curlastique shown: the replay told move by move, the animated replay's frames and the drawings of
one shot or the board. Read-only: nothing here changes how a match is played."""
