"""The README and docs/ are a guide that resolves inside the repository and speaks of the project.

Every relative link and every file path named in README.md and docs/ exists; none of them, nor
the packaged TOML files a user copies, carries development history (dates of work, "stop N",
"issue #N", "this round", commit hashes); the site builds with warnings as errors.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").rglob("*.md"))
GUIDE = [README, *PAGES]
#: The files a user reads or copies that ship with the package.
PACKAGED_TOML = sorted(p for p in (ROOT / "sim").rglob("*.toml"))

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
#: A path in backticks that names a file or folder of the repository.
PATH = re.compile(r"`((?:sim|analysis|tests|benchmarks|reports|notebooks|docs)/[\w./-]+)`")
HISTORY = {
    "a date of work": re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b"),
    "a stop number": re.compile(r"\bstop \d+\b", re.IGNORECASE),
    "an issue number": re.compile(r"\bissues? #?\d+\b", re.IGNORECASE),
    "'this round'": re.compile(r"\bthis round\b", re.IGNORECASE),
    "a commit hash": re.compile(r"(?<![#\w])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"),
}


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _targets(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    found = [a or b for a, b in LINK.findall(text)]
    return [t for t in found if not re.match(r"^[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def test_the_readme_is_a_door_of_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, len(lines)


@pytest.mark.parametrize("path", GUIDE, ids=_relative)
def test_every_relative_link_and_named_file_resolves_inside_the_repository(path):
    dangling = []
    for target in _targets(path):
        resolved = (path.parent / target.split("#")[0]).resolve()
        if not resolved.exists() or ROOT not in (resolved, *resolved.parents):
            dangling.append(target)
    text = path.read_text(encoding="utf-8")
    for named in PATH.findall(text):
        if not (ROOT / named.rstrip("/")).exists():
            dangling.append(f"`{named}`")
    assert not dangling, f"{_relative(path)}: {dangling}"


@pytest.mark.parametrize("path", GUIDE + PACKAGED_TOML, ids=_relative)
def test_the_guide_and_the_packaged_files_speak_of_the_project_not_its_history(path):
    text = path.read_text(encoding="utf-8")
    found = [f"{what}: {m.group(0)!r}" for what, pattern in HISTORY.items() for m in pattern.finditer(text)]
    assert not found, f"{_relative(path)}: {found}"


def test_every_page_is_reachable_from_the_readme():
    """Each docs page is linked from the README or from a page the README links to."""
    seen, todo = set(), [README]
    while todo:
        page = todo.pop()
        for target in _targets(page):
            resolved = (page.parent / target.split("#")[0]).resolve()
            if resolved.suffix == ".md" and resolved.exists() and resolved not in seen:
                seen.add(resolved)
                todo.append(resolved)
    unreached = [_relative(p) for p in PAGES if p.resolve() not in seen and p.name != "changelog.md"]
    assert not unreached, unreached


@pytest.mark.skipif(
    shutil.which("mkdocs", path=str(Path(sys.executable).parent)) is None,
    reason="mkdocs is a dev extra (make test installs it)",
)
def test_the_documentation_site_builds_with_warnings_as_errors(tmp_path):
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "runner" / "index.html").exists()


#: A citation of a document that is not in the repository (the project's working notes).
OUTSIDE = re.compile(
    r"\.\./shared|\bshared/(seeds|research|games)\b|\bDESIGN\.md\b|\bSTYLE\.md\b|"
    r"\bresearch/\w+\.md\b|(?<![\w/])(stats|physics)\.md\s*§"
)
CODE = sorted(
    p
    for folder in ("sim", "analysis", "benchmarks", "notebooks")
    for p in (ROOT / folder).rglob("*")
    if p.suffix in (".py", ".toml", ".j2", ".ipynb", ".md") and "__pycache__" not in p.parts
)


@pytest.mark.parametrize("path", CODE, ids=_relative)
def test_code_rules_examples_and_notebooks_cite_only_what_the_repository_holds(path):
    text = path.read_text(encoding="utf-8")
    found = [m.group(0) for m in OUTSIDE.finditer(text)]
    assert not found, f"{_relative(path)}: {found}"
