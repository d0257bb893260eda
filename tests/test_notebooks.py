"""Every notebook under ``notebooks/`` runs from top to bottom without an error.

One test per notebook (parametrised by file name, so a failure names the notebook). Each is
executed with nbclient in a fresh kernel whose working directory is the notebook's folder,
with a timeout of ``CELL_TIMEOUT`` seconds per cell; any cell that raises fails the test with
the cell's traceback. Nothing is written back: the committed notebooks keep no outputs.

Which Python runs the notebooks: the kernel named ``python3`` is resolved to *this* Python
(``sys.executable``, i.e. ``.venv/bin/python`` under ``make test``), not to whatever
``python3`` kernel spec happens to be installed for the user or the system. The kernel spec
is built from ``ipykernel.kernelspec.get_kernel_dict()`` (``[sys.executable, "-m",
"ipykernel_launcher", ...]``), so the project's venv, where ``pip install -e .[dev]``
installed tablesim and ipykernel (through the ``jupyter`` dependency), is the kernel's
environment. No manual step (no ``ipykernel install``) is needed on a fresh clone.

Each notebook is edited as a jupytext percent-format script (``notebooks/NAME.py``) paired with
``NAME.ipynb`` (``notebooks/jupytext.toml``); a test checks that every pair holds the same cells
and that no notebook stores outputs. They keep every experiment small (under a minute each on
one core) and write files only under the folder ``notebooks/_notebook.py`` makes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is installed with the jupyter dependency")
nbclient = pytest.importorskip("nbclient", reason="nbclient is installed with the jupyter dependency")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CELL_TIMEOUT = 300  # seconds per cell
KERNEL = "python3"


def _kernel_manager_class():
    """An AsyncKernelManager whose ``python3`` kernel is this interpreter (see the docstring)."""
    from ipykernel.kernelspec import RESOURCES, get_kernel_dict
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class ThisPythonKernelSpecs(KernelSpecManager):
        def get_kernel_spec(self, kernel_name: str, *args, **kwargs) -> KernelSpec:
            if kernel_name == KERNEL:
                return KernelSpec(resource_dir=RESOURCES, **get_kernel_dict())
            return super().get_kernel_spec(kernel_name, *args, **kwargs)

    class ThisPythonKernelManager(AsyncKernelManager):
        @default("kernel_spec_manager")
        def _kernel_spec_manager_default(self) -> KernelSpecManager:
            return ThisPythonKernelSpecs(data_dir=self.data_dir)

    return ThisPythonKernelManager


def _notebooks() -> list[str]:
    return sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def test_notebooks_exist():
    assert _notebooks(), f"no notebook found in {NOTEBOOKS}"


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("name", _notebooks())
def test_notebook_runs(name: str):
    path = NOTEBOOKS / name
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name=KERNEL,
        kernel_manager_class=_kernel_manager_class(),
        resources={"metadata": {"path": str(path.parent)}},  # the kernel's working directory
        allow_errors=False,
        interrupt_on_timeout=False,
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as exc:  # the cell's source and traceback
        pytest.fail(f"{name}: a cell raised\n{exc}", pytrace=False)
    except nbclient.exceptions.CellTimeoutError as exc:
        pytest.fail(f"{name}: a cell ran longer than {CELL_TIMEOUT} s\n{exc}", pytrace=False)


jupytext = pytest.importorskip("jupytext", reason="jupytext is a tablesim dependency")


def _cells(path: Path) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source.strip()) for cell in jupytext.read(path).cells]


@pytest.mark.parametrize("name", _notebooks())
def test_notebook_is_paired_and_stripped(name: str):
    """Every notebook has its percent-format script, both hold the same cells, no outputs."""
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    stored = [
        i
        for i, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]
    assert not stored, f"{name}: cells {stored} hold outputs; clear them (Jupyter: Clear All Outputs)"
    script = NOTEBOOKS / name.replace(".ipynb", ".py")
    assert script.is_file(), f"{name} has no paired script {script.name}"
    assert _cells(script) == _cells(NOTEBOOKS / name), (
        f"{name} and {script.name} differ; run `jupytext --sync notebooks/{script.name}`"
    )


def test_every_script_has_its_notebook():
    scripts = {p.stem for p in NOTEBOOKS.glob("*.py") if not p.name.startswith("_")}
    assert scripts == {n.removesuffix(".ipynb") for n in _notebooks()}


def test_kernel_is_this_python():
    """The kernel spec used above starts this interpreter (the project's venv under make test)."""
    manager = _kernel_manager_class()(kernel_name=KERNEL)
    assert manager.kernel_spec.argv[0] == sys.executable
