"""How pytest-xdist shares the tests among its workers (``make test`` runs two).

A worker is given a whole test file at a time, so that what a file's tests share (its fixtures of
``scope="module"``) is made once, as in a run in one process. Beyond that:

* the cells of one notebook (nbval) run in order in one kernel, which the notebook's item starts;
* the documentation site's tests (``tests/project/test_docs.py``) build the site after nbval has
  run the notebooks in ``notebooks/``, and read what that process wrote
  (``tests/notebook_outputs.py``: the executed notebooks in the docs build's cache, and the set of
  notebooks it cached). So these notebooks and the site's tests are one group, kept in their order;
* the real-browser tests (files named ``*browser.py``) run alone, once every other test is done: the
  page under test gives its widgets a fixed time to start (anywidget rejects a model that is not
  ready in time, a page error these tests fail on), which a second worker busy on the same cores
  can take away.

xdist's own ``--dist loadgroup`` reads its groups from ``xdist_group`` marks by rewriting the items'
node ids, which newer pytest releases no longer let a plugin do (the marks are then ignored without
a word). :class:`GroupScheduling` names the groups from the node ids instead; ``tests/conftest.py``
installs it for ``--dist load`` (what ``-n`` does by default) and ``--dist loadgroup``.
"""

from __future__ import annotations

from notebook_outputs import DOCS_TESTS
from xdist.scheduler import LoadScopeScheduling

#: The group of the notebooks the site renders and of the site's tests.
SITE = "notebooks/ and the site"


def group_of(nodeid: str) -> str:
    """The group of the item ``nodeid``: :data:`SITE`, or its file.

    >>> group_of("notebooks/06_frontier.ipynb::Cell 3") == group_of("tests/project/test_docs.py::test_a") == SITE
    True
    >>> group_of("tests/notebooks/player.ipynb::Cell 0")
    'tests/notebooks/player.ipynb'
    >>> group_of("tests/cli/test_cli.py::test_fit[1]")
    'tests/cli/test_cli.py'
    """
    path = nodeid.split("::", 1)[0]
    if nodeid.startswith(DOCS_TESTS) or (path.startswith("notebooks/") and path.endswith(".ipynb")):
        return SITE
    return path


def runs_alone(group: str) -> bool:
    """Whether the items of ``group`` (a group of :func:`group_of`) run with no other worker busy.

    >>> runs_alone("tests/jupyter/test_browser.py"), runs_alone("tests/jupyter/test_replay.py")
    (True, False)
    """
    return group.endswith("browser.py")


class GroupScheduling(LoadScopeScheduling):
    """xdist's scheduling by scopes, with the groups of :func:`group_of` as the scopes.

    A worker is given a whole group at a time. :data:`SITE`, the longest, goes first, so that it runs
    on one worker while the other takes the test files, those with the most items first (xdist's
    ``--loadscope-reorder``, on by default). The groups that :func:`runs_alone` come last: when
    nothing else is left, one worker (the first to ask) keeps them and the others are shut down; it
    starts on them once they have left. (A worker starts an item only when it holds the next one or
    has been told to stop, so waiting for the others to be idle would wait for ever: they must stop.)
    """

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self.keeper = None

    def _split_scope(self, nodeid: str) -> str:
        return group_of(nodeid)

    def _assign_work_unit(self, node) -> None:
        alone = [scope for scope in self.workqueue if runs_alone(scope)]
        if len(alone) < len(self.workqueue):
            for scope in alone:
                self.workqueue.move_to_end(scope)
            if SITE in self.workqueue:
                self.workqueue.move_to_end(SITE, last=False)
            super()._assign_work_unit(node)
            return
        if self.keeper not in self.assigned_work:
            self.keeper = node
        if node is not self.keeper:
            if not node.shutting_down:
                node.shutdown()
            return
        others = [other for other in self.nodes if other is not node]
        for other in others:
            if not other.shutting_down:
                other.shutdown()
        if not others:
            super()._assign_work_unit(node)

    def remove_node(self, node):
        crashitem = super().remove_node(node)
        if crashitem is None:                     # a worker that finished: the keeper may start now
            for other in self.nodes:
                self._reschedule(other)
        return crashitem
