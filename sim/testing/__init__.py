"""The conformance suite every tablesim game passes, importable like scikit-learn's ``check_estimator``.

>>> from sim.testing import check_game, conformance_cases
>>> [str(case) for case in conformance_cases(["pig"], ["spec", "schema"])]
['pig-spec', 'pig-schema-2p', 'pig-schema-3p', 'pig-schema-4p']
>>> check_game("pig", ["spec", "schema"])      # raises AssertionError listing every failure

(``pig`` is the test suite's own game, installed from tests/testgame), or, inside a game's own test file (one pytest test per check, game and player count)::

    import pytest
    from sim.testing import conformance_cases, run_case

    @pytest.mark.parametrize("case", conformance_cases(["my-game"]), ids=str)
    def test_conformance(case, tmp_path):
        run_case(case, tmp_path)
"""

from .conformance import CHECKS, Case, check_game, conformance_cases, run_case
from .keys import KeyCase, bad_values, changed_value, rule_keys

__all__ = [
    "CHECKS",
    "Case",
    "check_game",
    "conformance_cases",
    "run_case",
    "KeyCase",
    "bad_values",
    "changed_value",
    "rule_keys",
]
