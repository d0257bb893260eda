"""numba's disk cache kept in step with every source its compiled code was built from.

numba's cache (``cache=True``) checks only the file that defines a function, not the modules
it calls: after an edit of ``detect.py`` the cached engine, or a game's kernel that calls the
engine, would silently keep the old code. :func:`clear_stale` stamps a cache folder with a
digest of the sources its kernels depend on and clears the cached machine code when they
change (the engine does it for itself on first use). A game clears its whole package with
:func:`clear_stale_package` when it is imported: its kernels live in several folders
(rules, players) and call one another and the engine.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["KERNEL_MODULES", "kernel_sources", "clear_stale", "clear_stale_package"]

#: The physics modules whose code is compiled into the engine or into the games' kernels.
KERNEL_MODULES = ("constants", "motion", "state", "detect", "resolve", "engine", "clock", "shot", "noise")


def kernel_sources() -> tuple[Path, ...]:
    """The files of the physics kernel modules."""
    here = Path(__file__).parent
    return tuple(here / f"{name}.py" for name in KERNEL_MODULES)


def _refresh(sources: Iterable[Path], stamp_file: Path, folders: Iterable[Path], patterns: Iterable[str]) -> None:
    """Clear the files ``patterns`` in ``folders`` when the digest of ``sources`` differs from
    the one in ``stamp_file``, then record the new digest (nothing on a read-only install)."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(Path(path).read_bytes())
    try:
        if stamp_file.exists() and stamp_file.read_text() == digest.hexdigest():
            return
        for folder in folders:
            for pattern in patterns:
                for f in folder.glob(pattern):
                    f.unlink(missing_ok=True)
        os.makedirs(stamp_file.parent, exist_ok=True)
        stamp_file.write_text(digest.hexdigest())
    except OSError:  # read-only install: nothing to clear, nothing we can stamp
        pass


def clear_stale(dispatcher, sources: Iterable[Path], stamp: str, patterns: Iterable[str]) -> None:
    """Clear the cached machine code (file ``patterns``) in the cache folder of the compiled
    function ``dispatcher`` when the digest of ``sources`` differs from the one in its
    ``stamp`` file, then record the new digest."""
    try:
        cache_dir = Path(dispatcher._cache.cache_path)
    except AttributeError:  # numba internals moved: keep going without the guard
        return
    _refresh(sources, cache_dir / stamp, [cache_dir], patterns)


def clear_stale_package(package: Path, stamp: str) -> None:
    """Clear the cached machine code (``*.nbi``, ``*.nbc``) in every ``__pycache__`` folder
    under ``package`` when the digest of its modules and of the physics kernel sources differs
    from the one in ``package/__pycache__/stamp``, then record the new digest. Any edit of the
    package recompiles its kernels once: a kernel's cache would otherwise miss an edit of a
    module it calls or a constant it reads."""
    package = Path(package)
    _refresh(
        (*kernel_sources(), *sorted(package.rglob("*.py"))),
        package / "__pycache__" / stamp,
        package.rglob("__pycache__"),
        ("*.nbi", "*.nbc"),
    )
