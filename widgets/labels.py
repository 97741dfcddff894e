"""How the views name a search's bounds: certified, or guessed from a reference model.

With lower-bound guessing (McTavish et al. 2022, section 4.3) the solver's
lower bound is a guess, not a proof (``Snapshot.lower_bound_guessed``), so
every view that shows it says so: "lower bound (guessed)", "gap vs guessed
bound", and a search that closed the guessed gap is not called optimal.
:func:`leaf_legend` says in words what a leaf box of a drawn tree shows
(shared by the tree view and the offline replay page).
"""

from __future__ import annotations

__all__ = ["is_guessed", "lower_bound_label", "gap_label", "status_text", "queue_text", "waiting_annotation",
           "WAITING", "leaf_legend"]

#: What a plot shows before the search has done any work.
WAITING = "press Play (or Step) to start the search"


def is_guessed(source) -> bool:
    """Whether ``source`` (a solver, a snapshot, or a player frame) reports a guessed lower bound.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> is_guessed(SimpleNamespace(lower_bound_guessed=True)), is_guessed(object())
    (True, False)
    >>> is_guessed(SimpleNamespace(snapshot=SimpleNamespace(lower_bound_guessed=True)))
    True
    """
    if source is None:
        return False
    snapshot = getattr(source, "snapshot", None)
    if snapshot is not None and not callable(snapshot):        # a recorded Frame
        source = snapshot
    return bool(getattr(source, "lower_bound_guessed", False))


def lower_bound_label(guessed: bool) -> str:
    """``"lower bound"``, or ``"lower bound (guessed)"``.

    Examples
    --------
    >>> lower_bound_label(True)
    'lower bound (guessed)'
    """
    return "lower bound (guessed)" if guessed else "lower bound"


def gap_label(guessed: bool) -> str:
    """``"gap"``, or ``"gap vs guessed bound"``.

    Examples
    --------
    >>> gap_label(False), gap_label(True)
    ('gap', 'gap vs guessed bound')
    """
    return "gap vs guessed bound" if guessed else "gap"


def status_text(status: str, guessed: bool) -> str:
    """The status as shown: a guessed search that closed its gap is not certified optimal.

    Examples
    --------
    >>> status_text("optimal", False), status_text("guessed", True), status_text("paused", True)
    ('optimal', 'guessed bound reached (not certified)', 'paused')
    """
    return "guessed bound reached (not certified)" if guessed and status == "guessed" else status


def queue_text(size: int, status: str, guessed: bool = False) -> str:
    """The queue's size, with why a finished search leaves entries in it.

    A search ends when its lower bound reaches the objective of its best
    tree: the entries still queued then cannot lead to a better tree, which
    is why they are left unexpanded.

    Examples
    --------
    >>> queue_text(27, "optimal")
    'queue 27 (left unexpanded: lower bound = objective, so none can give a better tree)'
    >>> queue_text(27, "paused"), queue_text(0, "optimal")
    ('queue 27', 'queue 0')
    >>> queue_text(3, "guessed", True)
    'queue 3 (left unexpanded: the guessed lower bound was reached)'
    """
    if size and status == "optimal" and not guessed:
        return f"queue {size} (left unexpanded: lower bound = objective, so none can give a better tree)"
    if size and status == "guessed":
        return f"queue {size} (left unexpanded: the guessed lower bound was reached)"
    return f"queue {size}"


def waiting_annotation(text: str = WAITING) -> dict:
    """A plotly annotation in the middle of an empty plot (e.g. "press Play ...").

    Examples
    --------
    >>> waiting_annotation()["text"]
    'press Play (or Step) to start the search'
    """
    return dict(text=text, xref="paper", yref="paper", x=0.5, y=0.5, showarrow=False,
                font=dict(size=14, color="#666666"), bgcolor="rgba(255,255,255,0.8)")


def leaf_legend(tree, ranking: bool = False) -> str:
    """What a leaf box shows, in words (the legend under the tree).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> leaf_legend(SimpleNamespace(classes=["no", "yes"]))
    'leaves: predicted class; [no / yes] = training rows of each class reaching the leaf'
    >>> leaf_legend(SimpleNamespace(classes=[0, 1]), ranking=True)
    'leaves: P(1) = share of class 1 in the leaf (the score that ranks rows); [0 / 1] = training rows of each class reaching the leaf'
    """
    counts = " / ".join(str(c) for c in tree.classes)
    first = (f"P({tree.classes[-1]}) = share of class {tree.classes[-1]} in the leaf (the score that ranks rows)"
             if ranking else "predicted class")
    return f"leaves: {first}; [{counts}] = training rows of each class reaching the leaf"
