"""Action cards: their effect primitives (move, shell, shoot, domino) run in order.

A card made impossible (:data:`IMPOSSIBLE`: a move that cannot be made, a condition not met, no
target, a move countered by a reaction) is lost: its later effects do not apply and the shells
its earlier ``shell`` effects gave or took from its own snail are taken back (a move, shot or
domino already made stays).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import FINISHED, KO, RUNNING
from .narration import name, say
from .reactions import inflict, jostle_guard, snail_done
from .view import MoveOption

if TYPE_CHECKING:
    from .schema import Effect
    from .state import RaceState

__all__ = ["play_card", "IMPOSSIBLE"]

#: Outcomes of an effect that make the rest of its card impossible (the card is lost).
IMPOSSIBLE = frozenset(("lost", "not_behind", "no_target", "countered"))
#: a domino's wave turns back and forth at most this many times (a safety bound)
_WAVE_STEPS = 500


def play_card(race: RaceState, s: int, uid: int) -> str:
    """Run the effects of action card ``uid`` for snail ``s``; returns the outcome (the effects'
    outcomes joined by ``+``, or the reason the card was lost, e.g. ``lost``)."""
    board = race.board
    parts = []
    own_change = 0
    for eff in race.deck.cards[uid].effects:
        if board.status[s] != RUNNING:
            break
        if eff.condition != "none" and not board.behind_another(s, eff.condition == "behind_any"):
            return _card_lost(race, s, own_change, "not_behind")
        arrivals = board.n_arrived
        if eff.op == "move":
            outcome = _effect_move(race, s, uid, eff)
        elif eff.op == "shell":
            shells = int(board.shells[s])
            outcome = _effect_shell(race, s, eff)
            own_change += int(board.shells[s]) - shells
        elif eff.op == "shoot":
            outcome = _effect_shoot(race, s, uid, eff)
        else:
            outcome = _effect_domino(race, s)
        _settle(race, arrivals)
        if outcome in IMPOSSIBLE:
            return _card_lost(race, s, own_change, outcome)
        parts.append(outcome)
    return "+".join(parts) if parts else "lost"


def _card_lost(race: RaceState, s: int, own_change: int, reason: str) -> str:
    """The card of ``s`` became impossible: take back its shell effects on ``s``."""
    board = race.board
    if own_change and board.status[s] == RUNNING:
        board.shells[s] = max(1, min(board.max_shells[s], board.shells[s] - own_change))
        if race.trace is not None:
            say(race, f"  the card is lost: {name(race, s)} is back to {board.shells[s]} shells")
    return reason


def _settle(race: RaceState, arrivals_before: int) -> None:
    """After an effect: snails pushed over the line are done; the board's losses are applied."""
    board = race.board
    for s in board.arrivals[arrivals_before:] if board.n_arrived > arrivals_before else ():
        if race.trace is not None:
            say(race, f"  {name(race, s)} crosses the finish line!")
        snail_done(race, s)
    while True:
        losses = board.take_pending()
        if not losses:
            break
        for loss in losses:
            for _ in range(loss.amount):
                inflict(race, loss.snail, None, loss.cause)
    if KO in board.status.tolist():
        for s in board.clear_blocking_ko():
            if race.trace is not None:
                say(race, f"  KO snail {name(race, s)} blocked the only passage: removed")


def _move_options(race: RaceState, s: int, eff: Effect, dirs: list[int]) -> list[MoveOption]:
    """The ways the move can be made: end squares of a free move, or the directions in which a
    straight move or a leap moves at all (each with the board once it is made, no counter)."""
    board = race.board
    options = []
    if eff.path == "free":
        for end in board.speed_ends(s, eff.squares, frozenset(dirs)):
            after = board.copy()
            after.enter(s, end)
            options.append(MoveOption(end, after))
        return options
    leap = eff.path != "straight"
    for d in dirs:
        after = board.moved_copy(s, d, eff.squares, eff.jostle, leap)
        if after is not None:
            options.append(MoveOption(d, after))
    return options


def _effect_move(race: RaceState, s: int, uid: int, eff: Effect) -> str:
    board = race.board
    before = board.distance(s)
    if eff.roll:
        table = race.deck.cards[uid].direction_table
        dash = table[race.chance.roll(len(table)) - 1]
        dirs = [board.abs_dir(s, dash)]
        if race.trace is not None:
            say(race, f"  {name(race, s)} rolls direction: dashboard {dash}")
    else:
        dirs = list(dict.fromkeys(board.abs_dir(s, k) for k in eff.directions))
    options = _move_options(race, s, eff, dirs)
    if not options:
        return "lost"
    seat = board.owner[s]
    i = race.policies[seat].move_choice(race.view(seat), s, uid, options) if len(options) > 1 else 0
    choice = options[i].choice
    if eff.path == "free":
        board.enter(s, choice)
    else:
        race.countered = None
        board.guard = jostle_guard(race, s, choice) if eff.jostle else None
        try:
            if eff.path == "straight":
                board.straight(s, choice, eff.squares, eff.jostle)
            else:
                board.leap(s, choice, eff.squares, eff.jostle)
        finally:
            board.guard = None
        if race.countered is not None:
            if race.countered.effect == "reverse":
                board.push(s, (choice + 4) % 8, {s})
                if race.trace is not None:
                    say(
                        race,
                        f"  {name(race, s)} is pushed back one square by {name(race, race.countered.snail)}'s counter",
                    )
            return "countered"
    if board.status[s] == FINISHED:
        return "finished"
    return f"moved{before - board.distance(s):+d}"


def _effect_shell(race: RaceState, s: int, eff: Effect) -> str:
    board = race.board
    if eff.faces:
        face = race.chance.roll(board.c.die)
        if face not in eff.faces:
            return f"spared{face}"
    if eff.amount > 0:
        gain = min(eff.amount, board.max_shells[s] - board.shells[s])
        board.shells[s] += gain
        return f"gained{gain}"
    result = "hit"
    for _ in range(-eff.amount):
        result = inflict(race, s, None, "burn")
    return "burn_" + result


def _effect_shoot(race: RaceState, s: int, uid: int, eff: Effect) -> str:
    board = race.board
    targets = board.shot_targets(s, eff.range)
    if not targets:
        return "no_target"
    seat = board.owner[s]
    t = targets[race.policies[seat].target(race.view(seat), s, uid, targets) if len(targets) > 1 else 0]
    face = race.chance.roll(board.c.die)
    if face not in board.c.shot_hits:
        if race.trace is not None:
            say(race, f"  {name(race, s)} shoots {name(race, t)}: rolls {face}, missed")
        return "miss"
    if race.trace is not None:
        say(race, f"  {name(race, s)} shoots {name(race, t)}: rolls {face}, hit")
    return inflict(race, t, s, "shot")


def _effect_domino(race: RaceState, s: int) -> str:
    left, right = race.board.domino_sides(s)
    if not left and not right:
        return "no_target"
    losses = 0
    for line in (left, right):
        if line:
            losses += _domino_wave(race, s, line)
    return f"domino{losses}"


def _domino_wave(race: RaceState, causer: int, line: list[int]) -> int:
    """One side of a domino: outward from the causer; a Renfort stops it, a Retour de bâton
    sends it back towards the causer (who may send it out again: ping-pong)."""
    status = race.board.status
    losses = 0
    i, j, outward, reflector = 0, -1, True, causer
    for _ in range(_WAVE_STEPS):
        if outward:
            if i >= len(line):
                break
            t = line[i]
            if status[t] != RUNNING:
                i += 1
                continue
            r = inflict(race, t, causer, "domino", domino=True)
            if r == "cancelled":
                if race.trace is not None:
                    say(race, f"  the domino stops at {name(race, t)}")
                break
            if r == "reflected":
                if race.trace is not None:
                    say(race, f"  {name(race, t)} sends the domino back!")
                outward, j, reflector = False, i - 1, t
                continue
            losses += 1
            i += 1
        else:
            if j < 0:
                if status[causer] != RUNNING:
                    break
                r = inflict(race, causer, reflector, "domino", domino=True)
                if r == "reflected":
                    if race.trace is not None:
                        say(race, f"  {name(race, causer)} sends the domino out again: ping-pong!")
                    outward, i = True, 0
                    continue
                if r != "cancelled":
                    losses += 1
                break
            t = line[j]
            if status[t] != RUNNING:
                j -= 1
                continue
            r = inflict(race, t, causer, "domino", domino=True)
            if r == "cancelled":
                break
            if r == "reflected":
                outward, i, reflector = True, j + 1, t
                continue
            losses += 1
            j -= 1
    return losses
