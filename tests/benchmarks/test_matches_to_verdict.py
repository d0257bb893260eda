"""The matches-to-verdict study: the before/after figures come from the report's own rule."""

from analysis.analyse import analyse
from analysis.results import load_results
from tests.analysis.toydata import make_experiment
from tests.benchmarks.scripts import load

study = load("matches_to_verdict")


def test_matches_needed_before_uses_the_clipped_design_effect_and_after_is_the_reports(tmp_path):
    folder = make_experiment(tmp_path, matches=60)
    rows = study.needed(folder)
    fairness = analyse(load_results(folder)).fairness
    assert len(rows) == fairness.groupby(["variant", "lineup"]).ngroups
    for row in rows:
        cell = fairness[(fairness["variant"] == row["variant"]) & (fairness["lineup"] == row["lineup"])]
        assert row["after"] == int(cell["matches_needed"].iloc[0])
        if row["deff"] < 1:  # a design effect below 1 now buys fewer matches; clipped at 1 it did not
            assert row["after"] < row["before"]
