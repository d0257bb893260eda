"""The compiled calls of a table of tacticians (sim/gasterospeed/players/tactician_phases.py: the speed
phase, the action cards chosen) play what the Python phases play: every table of whole
championships and every tactician's evaluation after each turn the same, under the rule
variants that reach them, with ties broken by the same dice draws, whether a turn makes one
call (Race.play_turn) or its phases are called one by one."""

from __future__ import annotations

import dataclasses

import pytest

from sim.core.game import Player
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds
from sim.gasterospeed import GAME
from sim.gasterospeed.match import play_match
from sim.gasterospeed.players import tactician_phases
from sim.gasterospeed.rules.cards import Dice
from sim.gasterospeed.rules.race import Race

VARIANTS = {
    "basic": [],
    "sacrifice": ["variants.sacrifice=true", "variants.sacrifice_gain=2"],
    "no_discard_in_speed_phase": ["race.discard_in_speed_phase=false"],
    "separate_decks": ["variants.separate_decks=true"],
    "expert_shell_championship": ["variants.expert=true", "variants.shell_championship=true"],
    "stable_reserve_free_draws": ["variants.stable_reserve=true", "variants.free_draws=true"],
}


class _Count:
    """Counts the compiled speed phases played and the dice uniforms the compiled calls read."""

    def __init__(self, monkeypatch):
        self.phases = self.draws = 0
        phase, skip = tactician_phases.speed_phase, Dice.skip

        def counted_phase(race, **kwargs):
            self.phases += 1
            return phase(race, **kwargs)

        def counted_skip(dice, n):
            self.draws += n
            skip(dice, n)

        monkeypatch.setattr(tactician_phases, "speed_phase", counted_phase)
        monkeypatch.setattr(Dice, "skip", counted_skip)


def _both_ways(monkeypatch, rules, lineup, seeds):
    """The match with the compiled calls, then with the Python phases: each time its tables
    and, after every turn, what each tactician's evaluation holds (its context array: the
    inferences of its last decision, and its inference keys), so that an inference that went
    astray is seen even when no decision changed."""
    end_turn = Race.end_turn

    def snapshot(race: Race) -> None:
        end_turn(race)
        states.append(
            [
                (policy.eval.x.tolist(), policy.eval._push_key, policy.eval._counter_key)
                for policy in race.policies
                if hasattr(policy, "eval")
            ]
        )

    monkeypatch.setattr(Race, "end_turn", snapshot)
    states: list = []
    compiled = play_match(rules, lineup, seeds).tables(), states
    monkeypatch.setattr(tactician_phases, "ENABLED", False)
    states = []
    python = play_match(rules, lineup, seeds).tables(), states
    monkeypatch.setattr(tactician_phases, "ENABLED", True)
    monkeypatch.setattr(Race, "end_turn", end_turn)
    assert compiled[1] and len(compiled[1]) == len(python[1])
    return compiled, python


def _phase_by_phase(race: Race) -> None:
    """A turn as a test plays it: each phase called on its own (the compiled path then chooses
    the action cards in a call of their own)."""
    race.turn += 1
    race.speed_phase()
    race.action_phase()
    race.end_turn()


@pytest.mark.parametrize("turns", ["one_call", "phase_by_phase"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_phases_play_the_python_ones(monkeypatch, variant, turns):
    if turns == "phase_by_phase":
        monkeypatch.setattr(Race, "play_turn", _phase_by_phase)
    rules = load_rules(GAME, None, VARIANTS[variant])
    lineup = load_lineup(GAME, ["tactician"] * 4, rules)
    count = _Count(monkeypatch)
    for match in range(3):
        compiled, python = _both_ways(monkeypatch, rules, lineup, MatchSeeds(11, match))
        assert compiled == python
    assert count.phases > 100  # the compiled phase did play them


def test_ties_are_broken_with_the_same_draws_and_profiles_may_differ(monkeypatch):
    """Seats with their own numbers (one without tailwind inference, one that plans fewer
    ends), two players: the tie-breaking draws are read by the compiled phase too."""
    rules = load_rules(GAME)
    base = load_lineup(GAME, ["tactician"] * 2, rules)[0]
    calm = Player("calm", dataclasses.replace(base.profile, value_tailwind=0.0, plan_ends=1))
    count = _Count(monkeypatch)
    for lineup in ((base, calm, base, calm), (calm, base)):
        for match in range(4):
            compiled, python = _both_ways(monkeypatch, rules, lineup, MatchSeeds(12, match))
            assert compiled == python
    assert count.phases > 100 and count.draws > 0


@pytest.mark.parametrize(
    "players, overrides",
    [
        (["tactician", "greedy", "tactician"], []),  # not every seat a tactician
        (["tactician", "casual"], []),  # a temperature above 0
        (["tactician", "tactician"], ["variants.two_snails=true"]),  # two snails a seat
    ],
)
def test_other_tables_play_the_python_speed_phase(players, overrides):
    rules = load_rules(GAME, None, overrides)
    lineup = load_lineup(GAME, players, rules)
    seen: list[bool] = []

    def spy(race: Race) -> None:
        seen.append(tactician_phases.applies(race))

    from sim.gasterospeed import match as match_module

    match_module._run(rules, lineup, MatchSeeds(3, 0), events=[], trace=None, max_races=1, on_turn=spy)
    assert seen and not any(seen)
    rules = load_rules(GAME)
    tacticians = load_lineup(GAME, ["tactician"] * 3, rules)
    seen.clear()
    match_module._run(rules, tacticians, MatchSeeds(3, 0), events=[], trace=None, max_races=1, on_turn=spy)
    assert seen and all(seen)
    seen.clear()
    match_module._run(rules, tacticians, MatchSeeds(3, 0), events=None, trace=[], max_races=1, on_turn=spy)
    assert seen and not any(seen)  # a narrated race


def test_the_option_tables_of_two_decks_never_mix():
    """Championships on different decks may play at once in threads (the threading backend):
    each caller keeps the option table of its own deck."""
    from sim.gasterospeed.rules import phases
    from sim.gasterospeed.rules.cards import Deck

    printed = Deck(load_rules(GAME).deck)
    more = Deck(load_rules(GAME, None, ["deck.tir.count=10"]).deck)
    first, second = phases._Options.of(printed), phases._Options.of(more)
    assert len(printed) != len(more)
    assert len(first.play) == len(first.discard) == len(printed)
    assert len(second.play) == len(second.discard) == len(more)
    assert phases._Options.of(more) is second
