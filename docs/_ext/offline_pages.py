"""Sphinx extension: the generated pages and the local assets of treeopt's offline site.

* ``notebooks/*.ipynb`` are copied to ``docs/notebooks/`` (Sphinx reads sources only below
  ``docs/``); myst-nb executes the copies, and the notebooks in the repository keep no outputs.
* Every ``benchmarks/results*.md`` gets a page ``docs/benchmarks/<same name>.md`` that includes
  it, so the links between results files resolve to the site's pages.
* The kernels that execute the notebooks start with ``plotly_site_renderer.py``, and plotly.js
  (from the installed plotly package) is copied into ``_static`` and loaded by the pages that
  draw a figure.
* The saved widget state of an executed notebook is left out of its page: only a widget manager
  reads it, and the site loads none (ipywidgets' manager would come from a CDN); widgets show
  their static HTML/SVG fallback instead. The state of a plotly ``FigureWidget`` holds the whole
  plotly.js bundle, once per figure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

PLOTLY_JS = "plotly.min.js"
HERE = Path(__file__).resolve().parent


def _write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless ``path`` already holds it (an unchanged file is not read again by Sphinx)."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def copy_notebooks(source: Path, target: Path) -> list[Path]:
    """Copy the notebooks of ``source`` into ``target`` and remove copies whose notebook is gone."""
    target.mkdir(parents=True, exist_ok=True)
    notebooks = sorted(source.glob("*.ipynb"))
    for notebook in notebooks:
        _write_if_changed(target / notebook.name, notebook.read_text(encoding="utf-8"))
    for stale in set(target.glob("*.ipynb")) - {target / n.name for n in notebooks}:
        stale.unlink()
    return notebooks


def write_benchmark_pages(results: Path, target: Path) -> list[Path]:
    """One page in ``target`` per ``results*.md`` in ``results``, including it (never copying it)."""
    target.mkdir(parents=True, exist_ok=True)
    files = sorted(results.glob("results*.md"))
    for result in files:
        relative = os.path.relpath(result, target)
        _write_if_changed(target / result.name, f"```{{include}} {relative}\n```\n")
    for stale in set(target.glob("results*.md")) - {target / f.name for f in files}:
        stale.unlink()
    return files


def install_kernel_startup(ipython_dir: Path) -> None:
    """An IPython profile whose kernels start with :mod:`plotly_site_renderer`."""
    startup = ipython_dir / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    _write_if_changed(startup / "00-plotly-site-renderer.py",
                      (HERE / "plotly_site_renderer.py").read_text(encoding="utf-8"))
    os.environ["IPYTHONDIR"] = str(ipython_dir)


def _on_config_inited(app, config) -> None:
    docs = Path(app.srcdir)
    root = docs.parent
    copy_notebooks(root / "notebooks", docs / "notebooks")
    write_benchmark_pages(root / "benchmarks", docs / "benchmarks")
    install_kernel_startup(Path(app.outdir).parent / ".ipython")


#: The key under which myst-nb registers a notebook's widget state as an inline script.
WIDGET_STATE_KEY = "ipywidgets_state"


def drop_widget_state(nb_metadata: dict) -> int:
    """Remove the widget-state scripts myst-nb registered for each page; return how many.

    Examples
    --------
    >>> metadata = {"nb": {"js_files": {"ipywidgets_state": (None, {}), "other": ("x.js", {})}}, "page": {}}
    >>> drop_widget_state(metadata), metadata["nb"]["js_files"]
    (1, {'other': ('x.js', {})})
    """
    dropped = 0
    for data in nb_metadata.values():
        if data.get("js_files", {}).pop(WIDGET_STATE_KEY, None) is not None:
            dropped += 1
    return dropped


def _on_env_updated(app, env) -> list:
    drop_widget_state(getattr(env, "nb_metadata", {}))
    return []


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    if "plotly-graph-div" in context.get("body", ""):
        app.add_js_file(PLOTLY_JS)


def _on_build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from plotly.offline import get_plotlyjs
    _write_if_changed(Path(app.outdir) / "_static" / PLOTLY_JS, get_plotlyjs())


def setup(app):
    app.connect("config-inited", _on_config_inited)
    app.connect("env-updated", _on_env_updated)
    app.connect("html-page-context", _on_page_context)
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
