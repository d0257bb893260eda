"""Reports fit each game — its declared length, no plot or headline of a constant, its own
metrics with intervals and paired effects — and cite what a user has."""

import dataclasses
import re

import pytest

from analysis.report import build_report
from sim.core import ResultStore
from sim.core.experiment import experiment_manifest, load_experiment, run_experiment
from sim.core.game import GameLength, get_game, register

PIG = get_game("pig")


def _rolls_match(rules, players, seeds):
    log = PIG.play_match(rules, players, seeds)
    log.matches["rolls"] = len(log.events)
    return log


# Pig whose length is its number of rolls (a game declaring a length other than rounds); it
# ships no examples (Pig's own would then be listed twice by `tablesim examples`)
register(
    dataclasses.replace(
        PIG,
        name="pig-rolls",
        play_match=_rolls_match,
        examples=None,
        length=GameLength(column="rolls", unit="rolls", label="number of rolls"),
    )
)

EXPERIMENT = """
game = "{game}"
matches = 40
seed = 3
rotate_seats = true
{baseline}
[[variants]]
name = "eight-sided"
set = {{ "die.faces" = 8 }}
[[lineups]]
name = "std-bold"
players = ["standard", "bold"]
"""


def _report(tmp_path, game="pig", baseline=""):
    path = tmp_path / "e.toml"
    path.write_text(EXPERIMENT.format(game=game, baseline=baseline))
    experiment = load_experiment(path)
    out = tmp_path / "res"
    run_experiment(
        experiment,
        ResultStore(out),
        progress=False,
        manifest={**experiment_manifest(experiment), "command": "tablesim experiment e.toml"},
    )
    return build_report(out, n_resamples=300).read_text(encoding="utf-8")


def _section(html, name):
    start = html.index(f'id="{name}"')
    return html[start : html.index("</section>", start)]


def test_a_declared_length_is_what_the_report_measures(tmp_path):
    html = _report(tmp_path, game="pig-rolls")
    summary = _section(html, "summary")
    assert re.search(r"The number of rolls is [0-9.]+ rolls on average \[", summary)
    distributions = _section(html, "distributions")
    assert (
        "Number of rolls (rolls)" in distributions and "Number of rolls distribution, line-up std-bold" in distributions
    )
    assert "column rolls" in distributions


def test_a_constant_length_is_one_sentence_without_interval_or_plot(tmp_path):
    html = _report(tmp_path, baseline='[baseline]\nset = { "game.max_rounds" = 2, "game.target_score" = 10000 }')
    summary = _section(html, "summary")
    assert "Every match lasts exactly 2 rounds (the game length never varies here" in summary
    assert "Matches last 2.00 rounds" not in html and "[2.00, 2.00]" not in html
    distributions = _section(html, "distributions")
    assert "Game length distribution" not in distributions and "Game length (rounds)" not in distributions
    assert "Line-up std-bold: Every match lasts exactly 2 rounds" in distributions
    assert "Survival of the game length" not in _section(html, "survival")


def test_game_metrics_have_intervals_and_paired_effects(tmp_path):
    game = _section(_report(tmp_path), "game")
    assert "grouped jackknife over seeds" in game
    rows = re.findall(r"<td[^>]*>bust_rate</td>\s*<td[^>]*>([^<]*)</td>\s*<td[^>]*>([^<]*)</td>", game)
    assert rows and all(re.fullmatch(r"[0-9.]+ \[[0-9.]+, [0-9.]+\]", cell) for cell in rows[0])
    assert (
        "Effect of each variant on the game&#39;s metrics" in game
        or "Effect of each variant on the game's metrics" in game
    )
    effect = re.search(
        r"<td[^>]*>eight-sided</td>\s*<td[^>]*>bust_rate</td>\s*<td[^>]*>([^<]*)</td>\s*"
        r"<td[^>]*>([^<]*)</td>",
        game,
    )
    base, value = map(float, effect[1].split(" → "))
    assert value < base  # an eight-sided die busts less often (1 face in 8, not 1 in 6)
    assert re.match(r"-[0-9.]+ \[-[0-9.]+, -[0-9.]+\]", effect[2])  # its interval excludes 0


@pytest.mark.parametrize("game", ["pig"])
def test_the_report_cites_only_what_a_user_has(tmp_path, game):
    html = _report(tmp_path, game=game)
    for unshipped in ("research/", "seeds/", "games/", "stats.md"):
        assert unshipped not in html, unshipped


def test_a_variants_effect_on_the_games_own_length_is_said_first_and_shortens_or_lengthens(tmp_path):
    summary = re.sub(r"<[^>]+>", "", _section(_report(tmp_path, game="pig-rolls"), "summary"))
    rolls = summary.index("Variant eight-sided shortens the number of rolls by")
    assert rolls < summary.index("Variant eight-sided shortens the game length by")


def test_the_mirror_of_a_two_seat_or_two_profile_effect_is_not_a_second_sentence():
    import pandas as pd

    from analysis.narrative import _without_mirrors

    two = pd.DataFrame({"outcome": ["seat0_won", "seat1_won", "profile_won:bold", "profile_won:std", "rounds"]})
    assert list(_without_mirrors(two, two)["outcome"]) == ["seat0_won", "profile_won:bold", "rounds"]
    three = pd.DataFrame({"outcome": ["seat0_won", "seat1_won", "seat2_won"]})
    assert list(_without_mirrors(three.iloc[:2], three)["outcome"]) == ["seat0_won", "seat1_won"]
    only_second = two[two["outcome"] == "seat1_won"]  # kept when its first is not significant
    assert list(_without_mirrors(only_second, two)["outcome"]) == ["seat1_won"]
