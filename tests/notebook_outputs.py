"""The notebooks run once per test session: nbval's executed outputs go into the docs build's cache.

nbval executes every notebook in ``notebooks/`` (one pytest item per code cell, in one kernel). The
documentation site (``tests/project/test_docs.py``, ``make docs``) renders the same notebooks with
their outputs through myst-nb, which executes a notebook only when its jupyter-cache
(``docs/_build/.jupyter_cache``) holds no executed copy with the same code cells. So, once every
code cell of a notebook has passed under nbval, this module writes that notebook, with the outputs
nbval received from the kernel, into the cache; the docs build then reads them instead of
executing the notebook a second time. A notebook with a failed or skipped cell is not cached (the
docs build executes it and reports its own error), and the site's tests run after the notebooks.
nbval's kernels start with the docs build's IPython start-up (``docs/_ext/plotly_site_renderer.py``,
plotly figures as the site draws them), so that the cached outputs are the ones the site would make.

``install(items)`` is called from ``tests/conftest.py``'s ``pytest_collection_modifyitems``.
"""

from __future__ import annotations

import copy
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "docs" / "_build" / ".jupyter_cache"
IPYTHON_DIR = ROOT / "docs" / "_build" / ".ipython"
DOCS_TESTS = "tests/project/test_docs.py"

#: The notebooks whose nbval outputs were written to the cache in this session.
CACHED: set[Path] = set()


def install(items: list) -> None:
    """Record the outputs of nbval's cells, and run the docs site's tests after every notebook.

    ``items`` is the session's list of collected test items, reordered in place.
    """
    cells_by_notebook: dict = {}
    for item in items:
        if _is_notebook_cell(item):
            cells_by_notebook.setdefault(item.parent, []).append(item)
    for notebook, cells in cells_by_notebook.items():
        n_code_cells = sum(cell.cell_type == "code" for cell in notebook.nb.cells)
        run = _NotebookRun(notebook, n_code_cells)   # a notebook partly selected (-k) is never complete
        notebook.setup = _with_site_start_up(notebook.setup)
        for cell in cells:
            cell.runtest = _recorded(cell, run)
    docs = [item for item in items if item.nodeid.startswith(DOCS_TESTS)]
    if docs and cells_by_notebook:
        items[:] = [item for item in items if not item.nodeid.startswith(DOCS_TESTS)] + docs


def _is_notebook_cell(item) -> bool:
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "cell_num")


class _NotebookRun:
    """The outputs of one notebook's cells as nbval runs them, cached once all have passed."""

    def __init__(self, notebook_item, n_cells: int):
        self.item = notebook_item
        self.n_cells = n_cells
        self.outputs: dict[int, list] = {}

    def passed(self, cell_num: int, outputs: list) -> None:
        self.outputs[cell_num] = outputs
        if len(self.outputs) == self.n_cells:
            _write_to_cache(Path(str(self.item.fspath)), self.outputs)


def _with_site_start_up(setup):
    """``setup`` (which starts the notebook's kernel) with the docs build's IPython profile."""

    def setup_with_profile():
        sys.path.insert(0, str(ROOT / "docs" / "_ext"))
        try:
            from offline_pages import install_kernel_startup
        finally:
            sys.path.pop(0)
        before = os.environ.get("IPYTHONDIR")
        install_kernel_startup(IPYTHON_DIR)          # sets IPYTHONDIR for the kernel about to start
        try:
            setup()
        finally:
            if before is None:
                os.environ.pop("IPYTHONDIR", None)
            else:
                os.environ["IPYTHONDIR"] = before

    return setup_with_profile


def _recorded(cell, run: _NotebookRun):
    original = cell.runtest

    def runtest():
        original()                       # raises (and so records nothing) on a failed or skipped cell
        run.passed(cell.cell_num, list(cell.test_outputs or []))

    return runtest


def _write_to_cache(path: Path, outputs: dict[int, list]) -> None:
    """The notebook at ``path`` with these outputs (by code-cell number), as an executed copy in the cache."""
    try:
        import nbformat
        from jupyter_cache import get_cache
        from jupyter_cache.base import CacheBundleIn
    except ImportError:                  # the docs extra is not installed: there is no site to feed
        return
    notebook = nbformat.read(str(path), as_version=4)
    number = 0
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        number += 1
        cell.execution_count = number
        cell.outputs = [_with_count(output, number) for output in outputs[number - 1]]
    cache = get_cache(str(CACHE))
    cache.cache_notebook_bundle(CacheBundleIn(notebook, str(path), data={"source": "nbval"}), overwrite=True)
    CACHED.add(path)


def _with_count(output, number: int):
    output = copy.deepcopy(output)
    if output.get("output_type") == "execute_result":
        output["execution_count"] = number
    return output
