"""The layout's rules, read off the source: no import cycles (imports for type checking
included), the floors (physics → core → games → analysis → command line) respected, every game
laid out by role (rules never import players or drawings), no over-long functions, every
docstring example run.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "analysis")
#: The composition root: the one place in ``sim`` allowed to import ``analysis``.
COMPOSITION_ROOT = ("sim.cli",)
#: The floors, lowest first: a module may import its own floor and those below it.
FLOORS = {"sim.physics": 0, "sim.core": 1, "sim.testing": 1, "sim.games": 2, "analysis": 3, "sim.cli": 4}
GAME_NAMES = ("curlastique", "carrom", "gasterospeed")
MAX_LINES, MAX_KERNEL_LINES = 100, 120


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Project modules ``name`` imports, at module level, inside functions or for type checking
    only (``if TYPE_CHECKING:``): a cycle hidden from the interpreter is still a cycle of the
    layout."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {target for target in found if target in MODULES and target != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _floor(module: str) -> tuple[str, int] | None:
    best = None
    for prefix, level in FLOORS.items():
        if module == prefix or module.startswith(prefix + "."):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, level)
    if best is None and module.startswith("sim.") and module.split(".")[1] in GAME_NAMES:
        return ("sim.games", FLOORS["sim.games"])
    return best


def test_no_import_cycles():
    """Tarjan's strongly connected components of the import graph: every one a single module.

    A package's ``__init__`` re-exporting its own modules is not a cycle of the layout, so edges
    from a package into itself are kept only between sibling modules."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []
    counter = [0]

    def edges(module: str) -> set[str]:
        return {t for t in GRAPH[module] if not (MODULES[module].name == "__init__.py" and t.startswith(module + "."))}

    def strongconnect(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges(v):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in GRAPH:
        if module not in index:
            strongconnect(module)
    assert not cycles, f"import cycles: {cycles}"


def test_floors_only_import_downwards():
    """physics → core → games → analysis → command line: no module imports a higher floor
    (``sim`` imports ``analysis`` only in the composition root)."""
    wrong = []
    for module, targets in GRAPH.items():
        floor = _floor(module)
        if floor is None:
            continue
        for target in targets:
            other = _floor(target)
            if other is not None and other[1] > floor[1]:
                wrong.append(f"{module} ({floor[0]}) imports {target} ({other[0]})")
    assert not wrong, "\n".join(wrong)


#: The sub-packages of every game, by role: what a referee knows, what a player knows, what is
#: drawn or told. The spec, the match (where rules and players meet), metrics, score sheets and
#: conformance hints sit at the game's top.
ROLES = ("rules", "players", "show")
#: role → the roles and top-level modules of the same game it must not import
FORBIDDEN = {
    "rules": ("players", "show", "match", "conformance"),
    "players": ("show", "match", "conformance"),
    "show": ("conformance",),
}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_is_laid_out_by_role(game):
    package = ROOT / "sim" / game
    assert all((package / role / "__init__.py").is_file() for role in ROLES), (
        f"sim/{game} lacks one of the role packages {ROLES}"
    )
    for role in ROLES:
        for module in (package / role).rglob("*.py"):
            assert module.stem != "__init__" or module.parent.name in (role, "kernels"), module


def _role(module: str) -> tuple[str, str] | None:
    """(game, role or top-level module name) of a module of a shipped game."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[0] == "sim" and parts[1] in GAME_NAMES:
        return parts[1], parts[2]
    return None


def test_rules_never_import_players_or_show():
    """A game's rules know nothing of its players or drawings; its players nothing of its
    drawings, its match or its conformance hints."""
    wrong = []
    for module, targets in GRAPH.items():
        here = _role(module)
        if here is None or here[1] not in FORBIDDEN:
            continue
        for target in targets:
            there = _role(target)
            if there is not None and there[0] == here[0] and there[1] in FORBIDDEN[here[1]]:
                wrong.append(f"{module} ({here[1]}) imports {target}")
    assert not wrong, "\n".join(wrong)


def _documentation(tree: ast.AST) -> set[int]:
    """ids of the string constants that are documentation: docstrings, ``help=`` /
    ``epilog=`` / ``description=`` texts and ``*EXAMPLES*`` constants of the command line."""
    docs: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
        elif isinstance(node, ast.keyword) and node.arg in ("help", "epilog", "description"):
            docs.update(id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant))
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and "EXAMPLE" in t.id for t in node.targets):
            docs.update(id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant))
    return docs


def test_core_analysis_and_cli_name_no_game():
    """A game is known only through its entry point: sim/core, sim/testing, analysis and the
    command line name none of the shipped games outside documentation."""
    pattern = re.compile(r"\b(" + "|".join(GAME_NAMES) + r")\b", re.IGNORECASE)
    found = []
    for module, path in MODULES.items():
        if not (
            module.startswith(("sim.core", "sim.testing", "analysis"))
            or module in COMPOSITION_ROOT
            or module.startswith("sim.cli")
        ):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _documentation(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if pattern.search(node.value):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}")
            elif isinstance(node, ast.Name | ast.alias | ast.Attribute):
                text = getattr(node, "id", None) or getattr(node, "name", None) or getattr(node, "attr", "")
                if pattern.search(text):
                    found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}: {text}")
    assert not found, "\n".join(found)


def _decorated_by_njit(node: ast.AST) -> bool:
    for decorator in getattr(node, "decorator_list", []):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit"):
            return True
    return False


def test_no_function_longer_than_100_lines():
    """Outside the compiled kernel (numba), no function exceeds 100 lines; the kernel 120."""
    long = []
    paths = list(MODULES.values()) + sorted((ROOT / "benchmarks").glob("*.py"))
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                limit = MAX_KERNEL_LINES if _decorated_by_njit(node) else MAX_LINES
                if lines > limit:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines} lines (limit {limit})")
    assert not long, "\n".join(long)


def _doctest_modules() -> list[str]:
    names = []
    for module, path in MODULES.items():
        if ">>>" in path.read_text(encoding="utf-8"):
            names.append(module)
    return names


@pytest.mark.parametrize("module", _doctest_modules())
def test_docstring_examples_run(module):
    """Every ``>>>`` example in the packages runs and prints what it says."""
    mod = importlib.import_module(module)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(mod, module) if t.examples]
    assert tests, f"{module} mentions >>> but has no runnable example"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{module}: {result.failed} of {result.attempted} examples failed"


def test_every_module_imports():
    """Every module of the packages imports on its own (no module only works after another)."""
    for module in MODULES:
        importlib.import_module(module)
    assert {m.name for m in pkgutil.iter_modules([str(ROOT / "sim")])} >= {"core", "physics", "cli"}
