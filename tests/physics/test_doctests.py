"""The examples in the physics docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["sim.physics", "sim.physics.api", "sim.physics.table", "sim.physics.shot"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
