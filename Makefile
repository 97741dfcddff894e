# treeopt: every target does its own set-up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: demo test docs bench bench-narrow bench-wide bench-contree bench-continuous lab install install-test system-deps clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# Core only (numpy, pandas, scikit-learn).
$(VENV)/.core: pyproject.toml | $(PY)
	$(PIP) install -q -e .
	touch $@

# Everything the tests use: widgets, notebooks, the browser test.
$(VENV)/.test: pyproject.toml | $(PY)
	$(PIP) install -q -e '.[widgets,test]'
	touch $@

demo: $(VENV)/.core
	$(VENV)/bin/treeopt demo

# System packages some tests need: graphviz's `dot` and Debian's chromium (never a browser download).
system-deps:
	@command -v dot >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 || \
	  { (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz chromium >/dev/null) \
	    || echo "warning: could not install graphviz/chromium; tests that need them will be skipped"; }

# The documentation site's tools (Sphinx, numpydoc, myst-nb, a local MathJax).
$(VENV)/.docs: pyproject.toml | $(PY)
	$(PIP) install -q -e '.[widgets,docs]'
	touch $@

# Two pytest-xdist workers (CI has two cores); tests/worker_groups.py keeps each notebook, and the
# site's tests with the notebooks they render, in one worker. TEST_WORKERS=0 runs them in one process.
TEST_WORKERS ?= 2

test: $(VENV)/.test $(VENV)/.docs system-deps
	$(PY) -m pytest -q -n $(TEST_WORKERS)

# The site in docs/_build/html, opened from disk (index.html). Every notebook is executed (and cached
# in docs/_build/.jupyter_cache, which tests/project/test_docs.py reuses); a warning, a broken
# cross-reference or a failing cell fails the build.
docs: $(VENV)/.docs
	$(VENV)/bin/sphinx-build -W --keep-going -n -b html docs docs/_build/html

# The side-by-side suites, one after the other (never two at once: each times whole processes).
bench: bench-narrow bench-wide bench-contree bench-continuous

$(VENV)/.bench: pyproject.toml $(VENV)/.test
	$(PIP) install -q -e '.[bench]'
	touch $@

bench-narrow: $(VENV)/.bench
	$(PY) benchmarks/run.py

bench-wide: $(VENV)/.bench
	$(PY) benchmarks/wide_bench.py

bench-contree: $(VENV)/.bench
	$(PY) benchmarks/contree_bench.py

bench-continuous: $(VENV)/.bench
	$(PY) benchmarks/continuous_bench.py

lab: $(VENV)/.test
	$(PIP) install -q jupyterlab
	$(VENV)/bin/jupyter lab notebooks/

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis docs/_build docs/api/generated docs/notebooks docs/benchmarks
