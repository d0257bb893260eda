"""Load a script of ``benchmarks/`` as a module (the folder is not a package), for the tests
that check a benchmark or a study script."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str) -> ModuleType:
    """The module of ``benchmarks/<name>.py``, freshly executed."""
    key = f"benchmarks_{name}"
    spec = importlib.util.spec_from_file_location(key, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module
