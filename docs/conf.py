"""Sphinx configuration of treeopt's documentation site (``make docs``).

The site is read from disk (``docs/_build/html/index.html``) with no network: Sphinx's own
alabaster theme, a local MathJax (``sphinx-mathjax-offline``), no intersphinx, no widget
manager from a CDN (widgets show their static HTML/SVG fallback), and plotly figures drawn by
the plotly.js that the installed plotly package ships, copied into the site.

The notebooks in ``notebooks/`` (committed without outputs) are executed by myst-nb through
jupyter-cache: a notebook runs again only when its code changes.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
BUILD = DOCS / "_build"
sys.path.insert(0, str(DOCS / "_ext"))

import treeopt  # noqa: E402  (after the path set-up above)

project = "treeopt"
author = "the treeopt developers"
copyright = "the treeopt developers"
version = release = treeopt.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "sphinx-mathjax-offline",   # MathJax copied into _static: math renders offline
    "offline_pages",            # docs/_ext: notebook and benchmark pages, local plotly.js
    "short_references",         # docs/_ext: `Tree.apply` finds treeopt.tree.Tree.apply
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
templates_path = ["_templates"]
exclude_patterns = ["_build", "_ext", "_templates", "**/.ipynb_checkpoints"]
root_doc = "index"

# Every reference must resolve (make docs runs with -n -W). Objects of other libraries have no
# inventory offline (no intersphinx), so names from them are not references.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|pandas|pd|sklearn|scipy|ipywidgets|widgets|traitlets|plotly|go|graphviz"
               r"|joblib|dask|collections|typing|pathlib|os|io|enum|dataclasses|abc|concurrent|threading"
               r"|signal|types|datetime|json|re|random|contextlib|functools|itertools|resource)(\..*)?"),
]

# API reference: one page per object, from the docstrings (numpydoc sections).
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "undoc-members": True}
autodoc_typehints = "none"          # numpydoc's Parameters sections already give the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False



def _choose_members(app, what, name, obj, skip, options):
    """Which members autodoc shows, beyond its defaults.

    scikit-learn's generated ``set_*_request`` methods (metadata routing) are skipped: they are
    documented there. The private methods of :class:`treeopt.solvers.base.Solver` with a docstring
    are shown: they are the hooks a new solver implements (``_search``, ``_incumbent``, ...).
    """
    if name.startswith("set_") and name.endswith("_request"):
        return True
    qualname = getattr(obj, "__qualname__", "")
    if (name.startswith("_") and not name.startswith("__") and qualname == f"Solver.{name}"
            and getattr(obj, "__module__", "") == "treeopt.solvers.base" and getattr(obj, "__doc__", None)):
        return False
    return None


def setup(app):
    app.connect("autodoc-skip-member", _choose_members)


# MyST and notebooks.
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "cache"
nb_execution_cache_path = str(BUILD / ".jupyter_cache")
nb_execution_timeout = 600
nb_execution_raise_on_error = True   # a failing cell fails the build
nb_execution_show_tb = True
nb_merge_streams = True
# Widgets are shown by their static fallback (text/html with SVG), never by a widget manager
# loaded from a CDN.
nb_ipywidgets_js = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

# HTML: alabaster ships with Sphinx and loads no web fonts.
html_theme = "alabaster"
html_title = "treeopt"
html_theme_options = {
    "description": "Provably optimal sparse decision trees you can pause, inspect and watch.",
    "fixed_sidebar": False,
    "show_relbars": True,
}
html_static_path = []
html_copy_source = False
html_show_sourcelink = False
