"""Binder runs the notebooks: ``binder/`` installs everything they need, and a fresh venv built from it works.

repo2docker reads ``binder/`` and ignores ``pyproject.toml`` (repo2docker documentation), so the
static tests check that what ``binder/`` installs covers every runtime and widgets dependency of
``pyproject.toml`` and every module the notebooks import. The slow test builds a fresh virtual
environment from ``binder/requirements.txt`` alone (plus ``ipykernel`` and ``nbclient``, which
Binder's base image provides), in a copy of the repository, and executes notebook 1 in it.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
NOTEBOOKS = ROOT / "notebooks"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

#: pip's messages when the package index cannot be reached (then the slow test is skipped, not failed).
OFFLINE = re.compile(r"Failed to establish a new connection|Temporary failure in name resolution|"
                     r"Network is unreachable|Name or service not known|ProxyError|ConnectTimeout|"
                     r"Read timed out|Retrying \(Retry\(", re.IGNORECASE)


def binder_requirements() -> tuple[set[str], set[str]]:
    """(distribution names listed in binder/requirements.txt, extras of the repository itself installed there)."""
    names, extras = set(), set()
    for raw in (BINDER / "requirements.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith(("-e ", "--editable ")):
            line = line.split(None, 1)[1].strip()
        local = re.fullmatch(r"\.(?:\[([\w,\s-]*)\])?", line)
        if local:
            extras.add("")                      # the package itself, with its runtime dependencies
            extras.update(e.strip() for e in (local.group(1) or "").split(",") if e.strip())
            continue
        assert not line.startswith("-"), f"binder/requirements.txt: unexpected option line {raw!r}"
        names.add(canonicalize_name(Requirement(line).name))
    return names, extras


def installed_by_binder() -> set[str]:
    """Every distribution name binder/requirements.txt installs directly (not transitive dependencies)."""
    names, extras = binder_requirements()
    project = PYPROJECT["project"]
    covered = set(names)
    if "" in extras:
        covered.add(canonicalize_name(project["name"]))
        covered.update(canonicalize_name(Requirement(r).name) for r in project["dependencies"])
    for extra in extras - {""}:
        covered.update(canonicalize_name(Requirement(r).name) for r in project["optional-dependencies"][extra])
    return covered


def test_requirements_install_the_package_with_every_runtime_and_widgets_dependency():
    names, extras = binder_requirements()
    unknown = extras - {""} - set(PYPROJECT["project"]["optional-dependencies"])
    assert not unknown, f"binder/requirements.txt asks for extras {unknown} that pyproject.toml does not define"
    covered = installed_by_binder()
    project = PYPROJECT["project"]
    needed = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["widgets"]]
    missing = [str(r) for r in needed if canonicalize_name(r.name) not in covered]
    assert not missing, f"binder/ does not install {missing}; add '-e .[widgets]' to binder/requirements.txt"
    assert canonicalize_name(project["name"]) in covered, "binder/requirements.txt must install the package (-e .)"


def test_voila_is_installed_when_a_readme_links_the_dashboard_view():
    links = [p for p in (ROOT / "README.md", BINDER / "README.md") if "voila/render" in p.read_text()]
    if links:
        assert "voila" in installed_by_binder(), f"{links} link a Voila view but binder/ does not install voila"


def test_apt_installs_graphviz_and_runtime_is_a_supported_python():
    apt = [line.strip() for line in (BINDER / "apt.txt").read_text().splitlines()
           if line.strip() and not line.startswith("#")]
    assert "graphviz" in apt, "binder/apt.txt must install graphviz (the `dot` binary of the tree view)"
    runtime = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(\d+\.\d+)", runtime)
    assert match, f"binder/runtime.txt must read like 'python-3.11', got {runtime!r}"
    supported = SpecifierSet(PYPROJECT["project"]["requires-python"])
    assert Version(match.group(1)) in supported, f"{runtime} is outside requires-python {supported}"


def notebook_imports(path: Path) -> set[str]:
    """Top-level module names imported by the code cells of a notebook."""
    modules = set()
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules.add(node.module.split(".")[0])
    return modules


@pytest.mark.parametrize("notebook", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_every_module_a_notebook_imports_is_installed_by_binder(notebook):
    covered = installed_by_binder()
    distributions = packages_distributions()
    missing = {}
    for module in notebook_imports(notebook) - set(sys.stdlib_module_names) - {"treeopt"}:
        providers = {canonicalize_name(d) for d in distributions.get(module, [module])}
        if not providers & covered:
            missing[module] = sorted(providers)
    assert not missing, f"{notebook.name} imports {missing}, which binder/ does not install directly"


def test_notebooks_are_committed_without_outputs():
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        notebook = json.loads(path.read_text())
        assert "widgets" not in notebook.get("metadata", {}), f"{path.name}: strip metadata.widgets"
        for cell in notebook["cells"]:
            if cell["cell_type"] == "code":
                assert not cell.get("outputs") and cell.get("execution_count") is None, \
                    f"{path.name}: clear the outputs before committing"


def test_readme_lists_every_notebook_with_the_binder_links():
    readme = (ROOT / "README.md").read_text()
    binder_readme = (BINDER / "README.md").read_text()
    for link in re.findall(r"https://mybinder\.org/v2/\S+?(?=[)`\s])", binder_readme):
        assert link in readme, f"README.md lacks the Binder link {link} of binder/README.md"
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        assert path.name in readme, f"README.md's Notebooks section does not list {path.name}"
    assert "make lab" in readme


@pytest.mark.slow
def test_fresh_venv_from_binder_files_executes_notebook_1(tmp_path):
    """Binder's build, approximated: copy the tracked files, install binder/requirements.txt, run notebook 1."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the repository's files")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout: {listed.stderr.strip()}")
    repo = tmp_path / "repo"
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():                   # tracked files deleted in the working tree are skipped
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, repo / name)

    venv = tmp_path / "venv"
    created = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
    if created.returncode != 0:
        pytest.skip(f"python -m venv does not work here (Debian: apt-get install python3-venv): {created.stderr[-500:]}")
    try:
        _install_and_execute(tmp_path, repo, venv)
    finally:                                   # a full Jupyter stack: do not leave it in pytest's temp dirs
        shutil.rmtree(venv, ignore_errors=True)


def _install_and_execute(tmp_path: Path, repo: Path, venv: Path) -> None:
    """pip install what binder/ names into ``venv`` (from the copy ``repo``), then execute notebook 1 there."""
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    home = tmp_path / "jupyter"
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", PIP_DISABLE_PIP_VERSION_CHECK="1",
               JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_PATH=str(home / "path"),
               IPYTHONDIR=str(home / "ipython"))
    # --no-compile: the installed modules are not byte-compiled ahead of use (a Jupyter stack is thousands
    # of modules, notebook 1 imports a fraction of them, and Python compiles those as it imports them).
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-compile", "-r",
                              "binder/requirements.txt", "ipykernel", "nbclient"], cwd=repo, env=env,
                             capture_output=True, text=True, timeout=1200)
    if install.returncode != 0:
        tail = "\n".join((install.stdout + install.stderr).strip().splitlines()[-15:])
        if OFFLINE.search(install.stdout + install.stderr):
            pytest.skip(f"pip could not reach the package index:\n{tail}")
        pytest.fail(f"pip install -r binder/requirements.txt failed:\n{tail}")

    script = (
        "import sys, nbformat\n"
        "from nbclient import NotebookClient\n"
        "import treeopt\n"
        "assert treeopt.__file__.startswith(sys.argv[2]), treeopt.__file__\n"
        "nb = nbformat.read(sys.argv[1], as_version=4)\n"
        "NotebookClient(nb, timeout=300, kernel_name='python3',\n"
        "               resources={'metadata': {'path': sys.argv[3]}}).execute()\n"
        "print('executed', sum(c.cell_type == 'code' for c in nb.cells), 'code cells')\n"
    )
    notebook = repo / "notebooks" / "01_why_optimal_trees.ipynb"
    run = subprocess.run([str(python), "-c", script, str(notebook), str(repo), str(notebook.parent)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"notebook 1 failed in the Binder environment:\n{run.stdout}\n{run.stderr[-4000:]}"
    assert "executed" in run.stdout
