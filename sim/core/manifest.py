"""What every results directory's manifest records about the software that wrote it."""

from __future__ import annotations

import platform
from importlib.metadata import PackageNotFoundError, version

__all__ = ["package_versions", "PACKAGES"]

#: The packages whose versions decide the tables (besides tablesim and Python).
PACKAGES = ("numpy", "numba", "pandas", "pyarrow", "joblib", "scipy")


def package_versions() -> dict[str, str]:
    """tablesim's, Python's and the key packages' versions (those installed)."""
    from sim import __version__

    out = {"tablesim": __version__, "python": platform.python_version()}
    for package in PACKAGES:
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            pass
    return out
