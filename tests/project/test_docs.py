"""The documentation site: ``make docs`` builds it offline, and its pages hold what they promise.

One build per test session (``sphinx-build -W --keep-going -n``, as ``make docs`` runs it) into a
temporary folder, after the notebooks' own tests. It executes the notebooks through myst-nb's
jupyter-cache in ``docs/_build/.jupyter_cache``, the cache ``make docs`` fills, so a notebook
unchanged since the last build is not run again, and a notebook nbval has just run whole is read
from the outputs nbval wrote there (``tests/notebook_outputs.py``). Every warning, broken cross-reference or failing cell fails the build.

The checks: every page exists (guide, glossary terms, notebooks with their outputs, one page per
``benchmarks/results*.md``, every public name in the API reference), no page refers to the
network, the notebooks in the repository keep no outputs, and (``@pytest.mark.browser``) pages
opened from disk in Debian's Chromium log no console error and make no http(s) request.

Skipped, not failed, when the ``docs`` extra is not installed (``make test`` installs it).
"""

from __future__ import annotations

import doctest
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import notebook_outputs
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
NOTEBOOKS = ROOT / "notebooks"
BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(DOCS / "_ext"))

#: The words the notebooks link to (``glossary.html#term-<word>``).
GLOSSARY_TERMS = ["support", "incumbent", "lower bound", "upper bound", "gap", "certificate", "queue",
                  "queue entry priority", "subproblem", "regularization", "leaf", "split", "threshold",
                  "equivalent points", "similar support", "depth budget"]

GUIDE_PAGES = ["index", "glossary", "notebooks", "benchmarks", "api/index", "guide/index", "guide/install",
               "guide/first_tree", "guide/stepwise", "guide/solvers_and_objectives", "guide/frontier_and_export"]

#: An address on the network in an attribute that makes the browser fetch it.
FETCHED_URL = re.compile(r"""<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["']((?:https?:)?//[^"']+)""",
                         re.IGNORECASE)


def _digest(folder: Path) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.glob("*.ipynb"))}


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The built site's folder; the build's log is in the failure message when it fails."""
    pytest.importorskip("sphinx", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("myst_nb", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("numpydoc", reason="the docs extra is not installed: pip install -e '.[docs]'")
    html = tmp_path_factory.mktemp("docs") / "html"
    before = _digest(NOTEBOOKS)
    process = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-b", "html",
                              str(DOCS), str(html)], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    (html.parent / "build.log").write_text(process.stdout + process.stderr, encoding="utf-8")
    assert process.returncode == 0, (
        f"sphinx-build failed:\n{process.stdout[-4000:]}\n{process.stderr[-8000:]}\n"
        "A 'reference target not found' names an object no page documents: add its module to the "
        "'Modules' list of docs/api/index.rst, or write the name as ``literal`` text if it is private.")
    assert _digest(NOTEBOOKS) == before, "building the site changed the notebooks in notebooks/"
    return html


def _page(site: Path, name: str) -> str:
    path = site / f"{name}.html"
    assert path.is_file(), f"{path.relative_to(site)} was not built"
    return path.read_text(encoding="utf-8")


def test_the_guide_pages_exist_and_the_guide_examples_ran(site):
    for name in GUIDE_PAGES:
        _page(site, name)
    # The guide's examples are executed: their printed output is on the page.
    assert "predict 1" in _page(site, "guide/first_tree")
    assert "Started(step=0" in _page(site, "guide/stepwise")


def test_every_glossary_word_has_its_anchor(site):
    page = _page(site, "glossary")
    for term in GLOSSARY_TERMS:
        anchor = "term-" + term.replace(" ", "-")
        assert f'id="{anchor}"' in page, f"glossary.html#{anchor} is missing"


def test_every_notebook_is_rendered_with_its_outputs(site):
    notebooks = sorted(NOTEBOOKS.glob("*.ipynb"))
    assert notebooks
    for notebook in notebooks:
        page = _page(site, f"notebooks/{notebook.stem}")
        n_code = sum(cell["cell_type"] == "code" for cell in json.loads(notebook.read_text())["cells"])
        assert page.count('class="cell_output') >= n_code // 2, f"{notebook.name} rendered without its outputs"
        assert "Traceback (most recent call last)" not in page, f"{notebook.name} shows an error"


def test_the_build_reads_the_notebooks_nbval_ran_instead_of_executing_them(site):
    """A notebook nbval ran whole in this session is taken from the cache (``tests/notebook_outputs.py``)."""
    ran = {path.name for path in notebook_outputs.CACHED}
    if not ran:
        pytest.skip("nbval ran no whole notebook in this session")
    log = (site.parent / "build.log").read_text(encoding="utf-8")
    executed = {Path(path).name for path in re.findall(r"(\S+\.ipynb): Executing notebook", log)}
    assert not ran & executed, f"the docs build executed again what nbval ran: {sorted(ran & executed)}"


def test_notebook_pages_embed_no_widget_state_and_no_plotly_bundle(site):
    """Widgets show their static fallback; plotly.js is loaded once from ``_static``, never inlined."""
    for page in sorted((site / "notebooks").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert "application/vnd.jupyter.widget-state+json" not in text, f"{page.name} embeds widget state"
        # A URL inside plotly.js's own code (its map fonts): present wherever the bundle is inlined.
        assert "fonts.openmaptiles.org" not in text, f"{page.name} inlines plotly.js"
        if "plotly-graph-div" in text:
            assert '_static/plotly.min.js' in text, f"{page.name} draws a figure without loading plotly.js"


def test_the_notebooks_in_the_repository_keep_no_outputs():
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        assert not any(cell.get("outputs") for cell in cells if cell["cell_type"] == "code"), notebook.name


def test_every_notebook_cell_has_an_id():
    """nbformat 4.5 cells carry ids (nbformat warns on a missing one, and will refuse it)."""
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        missing = [number for number, cell in enumerate(cells) if "id" not in cell]
        assert not missing, f"{notebook.name}: cells {missing} have no id (nbformat.validator.normalize adds them)"


def test_every_benchmark_results_file_has_its_page(site):
    results = sorted(BENCHMARKS.glob("results*.md"))
    assert results
    index = _page(site, "benchmarks")
    for result in results:
        page = _page(site, f"benchmarks/{result.stem}")
        heading = next(line[2:].strip() for line in result.read_text().splitlines() if line.startswith("# "))
        words = re.findall(r"\w+", heading)[:4]
        assert all(word in page for word in words), f"{result.name}'s heading is not on its page"
        assert f'href="benchmarks/{result.stem}.html"' in index, f"{result.name} is not listed in benchmarks.html"


def test_every_public_name_is_in_the_api_reference(site):
    from sphinx.util.inventory import InventoryFile

    import treeopt
    with open(site / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", os.path.join)
    entries = inventory.data if hasattr(inventory, "data") else inventory   # its type changed in Sphinx 8.2
    documented = {name for kind, objects in entries.items() if kind.startswith("py:") for name in objects}
    missing = []
    for name in treeopt.__all__:
        obj = getattr(treeopt, name)
        defined = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"
        if f"treeopt.{name}" not in documented and defined not in documented and \
                not any(entry.endswith(f".{name}") for entry in documented):
            missing.append(name)
    assert not missing, f"not in the API reference: {missing}"


def test_no_page_loads_anything_from_the_network(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        fetched = FETCHED_URL.findall(page.read_text(encoding="utf-8"))
        assert not fetched, f"{page.relative_to(site)} loads {fetched[:3]}"
    # What the pages load instead is in the site: MathJax and plotly.js.
    assert (site / "_static" / "mathjax" / "tex-chtml.js").is_file()
    assert (site / "_static" / "plotly.min.js").is_file()


def test_a_failing_notebook_cell_fails_the_build(tmp_path):
    """The site's configuration on a one-notebook project whose cell raises: the build stops with the error."""
    pytest.importorskip("myst_nb", reason="the docs extra is not installed: pip install -e '.[docs]'")
    import nbformat

    docs = tmp_path / "docs"
    shutil.copytree(DOCS / "_ext", docs / "_ext")
    shutil.copy(DOCS / "conf.py", docs / "conf.py")
    (docs / "index.md").write_text("# Site\n\n```{toctree}\n:glob:\n\nnotebooks/*\n```\n")
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "notebooks").mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Broken"),
                                               nbformat.v4.new_code_cell("raise ValueError('a failing cell')")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, tmp_path / "notebooks" / "broken.ipynb")
    process = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
                              str(docs), str(docs / "_build" / "html")], cwd=tmp_path, capture_output=True,
                             text=True, timeout=600)
    assert process.returncode != 0
    assert "a failing cell" in process.stdout + process.stderr


def test_the_generated_sources_follow_the_repository(tmp_path):
    from offline_pages import copy_notebooks, write_benchmark_pages

    source, docs = tmp_path / "notebooks", tmp_path / "docs"
    source.mkdir()
    (source / "a.ipynb").write_text("{}")
    (docs / "notebooks").mkdir(parents=True)
    (docs / "notebooks" / "gone.ipynb").write_text("{}")
    copy_notebooks(source, docs / "notebooks")
    assert sorted(p.name for p in (docs / "notebooks").iterdir()) == ["a.ipynb"]

    results = tmp_path / "benchmarks"
    results.mkdir()
    (results / "results_x.md").write_text("# X\n")
    (results / "notes.md").write_text("# not a results file\n")
    write_benchmark_pages(results, docs / "benchmarks")
    assert sorted(p.name for p in (docs / "benchmarks").iterdir()) == ["results_x.md"]
    assert (docs / "benchmarks" / "results_x.md").read_text() == "```{include} ../../benchmarks/results_x.md\n```\n"


def test_the_reference_resolver_examples_hold():
    pytest.importorskip("sphinx", reason="the docs extra is not installed: pip install -e '.[docs]'")
    import offline_pages
    import short_references

    for module in (short_references, offline_pages):
        failed, attempted = doctest.testmod(module)
        assert failed == 0, f"{module.__name__}: {failed} of {attempted} examples failed"
    assert doctest.testmod(short_references).attempted >= 5


@pytest.mark.browser
def test_pages_open_from_disk_with_no_error_and_no_request(site):
    """Chromium opens pages by ``file://``: no console error, no http(s) request; plots and math are drawn."""
    playwright = pytest.importorskip("playwright.sync_api")
    from voila_server import CHROMIUM, CHROMIUM_ARGS

    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (make system-deps)")
    frontier = next(iter(sorted(NOTEBOOKS.glob("*frontier*.ipynb"))), None)
    widgets_notebook = next(iter(sorted(NOTEBOOKS.glob("*watching*.ipynb"))), None)
    pages = ["index", "glossary", "guide/first_tree", "api/generated/treeopt.OptimalTreeClassifier",
             "benchmarks/results"]
    pages += [f"notebooks/{nb.stem}" for nb in (frontier, widgets_notebook) if nb is not None]

    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors, requests = [], []
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: requests.append(request.url)
                    if request.url.startswith(("http:", "https:")) else None)
            page.on("requestfailed", lambda request: errors.append(f"failed to load {request.url}"))
            for name in pages:
                page.goto((site / f"{name}.html").as_uri(), wait_until="load")
                if name == "glossary":          # MathJax, from the site's own copy, typeset the formula
                    page.wait_for_selector("mjx-container", timeout=30_000)
                if frontier is not None and name == f"notebooks/{frontier.stem}":
                    page.wait_for_selector(".js-plotly-plot .scatterlayer .trace", state="attached",
                                           timeout=30_000)
            assert errors == [], errors
            assert requests == [], requests
        finally:
            browser.close()
