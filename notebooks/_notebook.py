"""What every tablesim notebook shares: a scratch folder and display settings.

Each notebook starts with ``WORK = workspace("tablesim-<name>-")`` and ends with
``cleanup(WORK)``; every file a notebook writes goes under ``WORK``, never into the repository.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pandas as pd

__all__ = ["workspace", "cleanup"]


def workspace(prefix: str) -> Path:
    """A new temporary folder for this notebook's files; also sets pandas' display options."""
    pd.set_option("display.width", 120)
    pd.set_option("display.max_columns", 20)
    pd.set_option("display.float_format", "{:.4g}".format)
    work = Path(tempfile.mkdtemp(prefix=prefix))
    print("temporary folder:", work)
    return work


def cleanup(work: Path, keep: bool = False) -> None:
    """Remove the notebook's folder (``keep=True`` keeps it and says where it is)."""
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    print("kept:" if keep else "removed:", work)
