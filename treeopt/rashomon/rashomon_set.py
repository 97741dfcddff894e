"""The Rashomon set as a lazy sequence of trees: exact size, i-th tree, samples, filters, analyses."""
from __future__ import annotations

import random
import sys
from itertools import islice
from numbers import Integral

import numpy as np
import pandas as pd

from treeopt.data import distinct_rows
from treeopt.rashomon.agreement import vote_counts
from treeopt.rashomon.distinct import count_prediction_distinct
from treeopt.rashomon.grouping import group_representative, split_groups
from treeopt.rashomon.importance import importance_table
from treeopt.rashomon.search import RashomonGraph
from treeopt.rashomon.views import SetView
from treeopt.tree import Tree

__all__ = ["RashomonSet"]


class RashomonSet:
    """Every tree with objective ≤ ``bound``, indexed in objective order; nothing is listed until asked for.

    Build one with :func:`rashomon_set`. Trees are :class:`~treeopt.tree.Tree` objects that predict
    on the original table (through the set's binarizer). A tree is a distinct structure whose
    leaves predict their best class; a split whose two leaves predict the same class is excluded
    (TreeFARMS's definition).

    Attributes
    ----------
    count : int
        Exact number of trees (a Python int: ``len()`` cannot exceed ``sys.maxsize``, ``count`` can).
    optimum : float
        ``R*``, the best objective over all trees.
    bound : float
        The largest objective in the set.
    regularization : float
    dataset : Dataset
    feature_names : list of str
        Names of the binary features the trees split on.
    classes : list
        Label values; column ``k`` of :meth:`predict_agreement` is ``classes[k]``.
    status : str
        ``"optimal"``: the whole set. Otherwise why the search stopped (``"time_limit"``,
        ``"interrupted"``, ...): the set holds only the trees proved so far (:attr:`complete`).
    complete : bool
        Every tree within the bound is in the set.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 0, 1]})
    >>> from treeopt import rashomon_set
    >>> rs = rashomon_set(X, [0, 0, 1, 1], regularization=0.1, bound=0.45)
    >>> len(rs), rs.optimum
    (2, 0.2)
    >>> print(rs[0].rules(show_counts=False))
    if a:
        predict 1
    else:  # not (a)
        predict 0
    >>> rs[0].predict(X).tolist()
    [0, 0, 1, 1]
    >>> rs.to_frame()[["objective", "leaves", "depth", "features"]]
       objective  leaves  depth features
    0        0.2       2      1     (a,)
    1        0.4       4      2   (a, b)
    >>> len(rs.filter(avoid="b")), rs.predict_agreement(X)[:, 1].tolist()
    (1, [0.0, 0.0, 1.0, 1.0])
    """

    def __init__(self, graph: RashomonGraph, view: SetView, optimum: float, epsilon: float | None = None,
                 status: str = "optimal"):
        self.graph, self.view = graph, view
        self.status, self.complete = status, status == "optimal"
        self.optimum, self.bound, self.epsilon = float(optimum), view.bound, epsilon
        self.regularization = graph.regularization
        self.dataset = graph.dataset
        self.count = view.count()

    # -- the sequence ----------------------------------------------------------
    def __len__(self) -> int:
        if self.count > sys.maxsize:
            raise OverflowError(f"this Rashomon set holds {self.count} trees, more than len() can return "
                                f"(Python caps it at sys.maxsize); read its count attribute instead.")
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __repr__(self) -> str:
        filters = self.filters
        shown = "".join(f", {name}={value!r}" for name, value in filters.items() if value)
        part = "" if self.complete else f", partial: {self.status}"
        return (f"RashomonSet({self.count} trees, optimum={self.optimum:.6g}, bound={self.bound:.6g}, "
                f"regularization={self.regularization:g}{shown}{part})")

    @property
    def filters(self) -> dict:
        """The filters of this set (feature names), as :meth:`filter` takes them."""
        names = self.feature_names
        view = self.view
        return {"must_use": [[names[j] for j in sorted(group)] for group in view.require],
                "avoid": [names[j] for j in sorted(view.avoid)], "max_depth": view.max_depth,
                "max_leaves": view.max_leaves}

    @property
    def feature_names(self) -> list:
        """Display names of the binary features."""
        return self.dataset.feature_names

    @property
    def classes(self) -> list:
        """The label values, in class-index order."""
        return self.dataset.classes.tolist()

    def _tree(self, root) -> Tree:
        return Tree(root, list(self.dataset.features), self.dataset.classes, binarizer=self.dataset.binarizer)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        if not isinstance(index, Integral):
            raise TypeError(f"Rashomon set indices must be integers or slices, not {type(index).__name__}")
        index = int(index)
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(f"index out of range for a Rashomon set of {self.count} trees")
        return self._tree(self.view.tree_root(index))

    def __iter__(self):
        for root in self.view.iter_roots():
            yield self._tree(root)

    def objective_at(self, index: int) -> float:
        """Objective of the index-th tree, without building it."""
        if index < 0:
            index += self.count
        cell, _ = self.view.locate(index)
        return self.view.objective(cell)

    def objectives(self, n: int | None = None) -> np.ndarray:
        """Objectives of the first ``n`` trees (default all), in order, without building them."""
        n = self.count if n is None else min(int(n), self.count)
        out = []
        for cell in self.view.root_cells():
            take = min(cell[4], n - len(out))
            out.extend([self.view.objective(cell)] * take)
            if len(out) >= n:
                break
        return np.asarray(out, dtype=float)

    def sample(self, k: int, random_state=None) -> list:
        """``k`` distinct trees drawn uniformly without replacement (all of them if the set is smaller).

        Parameters
        ----------
        k : int
        random_state : int or None
            Seed of Python's :class:`random.Random` (exact on counts beyond 2**63).
        """
        rng = random.Random(random_state)
        k = min(int(k), self.count)
        if self.count <= sys.maxsize:
            return [self[i] for i in rng.sample(range(self.count), k)]
        # random.sample cannot take a range this long; k is then tiny beside the count, so drawing
        # indices until k distinct ones came up ends after about k draws.
        chosen: dict[int, None] = {}
        while len(chosen) < k:
            chosen.setdefault(rng.randrange(self.count))
        return [self[i] for i in chosen]

    # -- summaries -------------------------------------------------------------
    def objective_counts(self) -> pd.DataFrame:
        """Number of trees at each (loss, leaves): the histogram of objectives, exact.

        Returns
        -------
        DataFrame
            Columns ``objective``, ``loss``, ``leaves``, ``count`` (object dtype: Python ints), in objective order.
        """
        scale = self.graph.scale
        rows = {}
        for cell in self.view.root_cells():
            key = (cell[1], cell[2])
            rows[key] = rows.get(key, 0) + cell[4]
        frame = pd.DataFrame([(self.graph.objective_of(m, k), float(m * scale), k, c) for (m, k), c in rows.items()],
                             columns=["objective", "loss", "leaves", "count"])
        frame["count"] = frame["count"].astype(object)
        return frame.sort_values(["objective", "loss"], kind="stable").reset_index(drop=True)

    def to_frame(self, max_trees: int = 100_000) -> pd.DataFrame:
        """One row per tree, in objective order: ``objective``, ``loss``, ``leaves``, ``depth``, ``features``.

        ``features`` is the sorted tuple of the binary features the tree splits on. A larger set
        shows its first ``max_trees`` trees (the best; ``count`` says how many there are);
        :meth:`objective_counts`, :meth:`variable_importance` and :meth:`filter` answer about all of
        them without listing.

        Examples
        --------
        >>> from treeopt import rashomon_set
        >>> rs = rashomon_set([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 1, 1], regularization=0.1, bound=0.45)
        >>> len(rs), rs.to_frame(max_trees=1)[["objective", "leaves"]].to_dict("records")
        (2, [{'objective': 0.2, 'leaves': 2}])
        """
        if isinstance(max_trees, bool) or not isinstance(max_trees, Integral) or max_trees < 0:
            raise ValueError(f"max_trees must be a non-negative integer, got {max_trees!r}.")
        names = self.feature_names
        scale, view = self.graph.scale, self.view
        rows, named = [], {}
        for cell, depth, used in islice(view.iter_shapes(), int(max_trees)):
            if used not in named:
                named[used] = tuple(names[j] for j in sorted(used))
            rows.append((view.objective(cell), float(cell[1] * scale), cell[2], depth, named[used]))
        return pd.DataFrame(rows, columns=["objective", "loss", "leaves", "depth", "features"])

    def variable_importance(self) -> pd.DataFrame:
        """Per binary feature, over every tree of the set (exact, by dynamic programming).

        Returns
        -------
        DataFrame
            Index: feature names. Columns: ``share`` (share of trees splitting on the feature),
            ``reach_mean``, ``reach_min``, ``reach_max`` (share of the training weight whose path
            tests the feature, averaged over the set / its least and its greatest value over the set:
            the importance range in the spirit of model class reliance). Sorted by ``share``.

        Examples
        --------
        >>> from treeopt import rashomon_set
        >>> rs = rashomon_set([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 1, 1], regularization=0.1, bound=0.45)
        >>> rs.variable_importance()["share"].tolist()        # x0 in both trees, x1 in one
        [1.0, 0.5]
        """
        table = importance_table(self.view)
        frame = pd.DataFrame({name: table[name] for name in ("share", "reach_mean", "reach_min", "reach_max")},
                             index=pd.Index(self.feature_names, name="feature"))
        return frame.sort_values(["share", "reach_mean"], ascending=False, kind="stable")

    def split_groups(self) -> pd.DataFrame:
        """Number of trees by root split, then by the first split of each side (exact, no listing).

        Returns
        -------
        DataFrame
            Columns ``root``, ``left``, ``right`` (feature names; ``"leaf"`` for a leaf), ``count``
            and ``best`` (the group's smallest objective), largest group first. See
            :meth:`representative` for a group's best tree.

        Examples
        --------
        >>> from treeopt import rashomon_set
        >>> rs = rashomon_set([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 1, 1], regularization=0.1, bound=0.45)
        >>> rs.split_groups()[["root", "left", "right", "count"]].values.tolist()
        [['x0', 'leaf', 'leaf', 1], ['x1', 'x0', 'x0', 1]]
        >>> rs.representative("x1").n_leaves
        4
        """
        frame = split_groups(self.view)
        names = self.feature_names
        for column in ("root", "left", "right"):
            frame[column] = ["leaf" if j == -1 else names[j] for j in frame[column]]
        return frame

    def representative(self, root, left=None, right=None) -> Tree:
        """The best tree whose root split is ``root`` (and whose sides start with ``left`` / ``right``).

        Parameters
        ----------
        root, left, right : str or int
            Binary feature names or indices; ``"leaf"`` for a leaf (``root="leaf"``: the single-leaf tree);
            ``None`` (sides only): any.
        """
        def index(item):
            if item is None:
                return None
            if isinstance(item, str) and item == "leaf":
                return -1
            found = self._features(item)
            if len(found) != 1:
                raise ValueError(f"{item!r} is a column with several binary features; name one of them.")
            return found[0]
        return self._tree(group_representative(self.view, index(root), index(left), index(right)))

    def n_prediction_distinct(self, limit: int = 1_000_000) -> int | None:
        """Number of trees that differ in their predictions on the training data.

        Trees making the same prediction on every distinct training feature vector count once.
        ``None`` when computing it needs more than ``limit`` set operations (large sets).
        """
        return count_prediction_distinct(self.view, limit=limit)

    def predict_agreement(self, X, binarized: bool | None = None) -> np.ndarray:
        """For each row, the fraction of the trees of the set predicting each class (exact DP, no sampling).

        Parameters
        ----------
        X : array_like or DataFrame
            The original table (binarized like the training data) or, with ``binarized=True``,
            the binary feature matrix.
        binarized : bool, optional
            Default: the original table when the set has a binarizer.

        Returns
        -------
        ndarray of shape (n_rows, n_classes)
            Column ``k`` is the share of trees predicting ``classes[k]``; rows sum to 1.
        """
        if self.count == 0:
            raise ValueError("the Rashomon set is empty (a filter removed every tree).")
        Z = self._binary(X, binarized)
        rows, inverse = distinct_rows(Z)
        votes = vote_counts(self.view, rows)
        return (votes / float(self.count))[inverse]

    def _binary(self, X, binarized: bool | None) -> np.ndarray:
        binarizer = self.dataset.binarizer
        if binarized is None:
            binarized = binarizer is None
        if not binarized:
            if binarizer is None:
                raise ValueError("this set was built from a Dataset without a binarizer: pass the binary feature "
                                 "matrix with binarized=True.")
            return np.asarray(binarizer.transform(X), dtype=bool)
        Z = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X)
        if Z.ndim != 2 or Z.shape[1] != self.dataset.n_features:
            raise ValueError(f"binarized X must have {self.dataset.n_features} columns, got shape {Z.shape}.")
        return Z.astype(bool)

    # -- filters ---------------------------------------------------------------
    def filter(self, *, must_use=None, avoid=None, max_depth: int | None = None, max_leaves: int | None = None,
               bound: float | None = None, epsilon: float | None = None) -> "RashomonSet":
        """The trees of this set that satisfy more conditions: again a :class:`RashomonSet`, counted exactly.

        Parameters
        ----------
        must_use : str, int or list of them
            Features every tree must split on. A binary feature (its name or index), or an original
            column name: then any of the column's binary features will do.
        avoid : str, int or list of them
            Features no tree may split on (a column name avoids all its binary features).
        max_depth, max_leaves : int, optional
        bound, epsilon : float, optional
            A tighter objective bound (absolute, or relative to the optimum).

        Examples
        --------
        >>> from treeopt import rashomon_set
        >>> rs = rashomon_set([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 1, 1], regularization=0.1, bound=0.45)
        >>> len(rs.filter(must_use="x1")), len(rs.filter(max_depth=1)), len(rs.filter(epsilon=0.5))
        (1, 1, 1)
        """
        view = self.view
        limit = view.bound
        if bound is not None and epsilon is not None:
            raise ValueError("give at most one of bound= and epsilon=.")
        if epsilon is not None:
            bound = (1 + epsilon) * self.optimum
        if bound is not None:
            limit = min(limit, float(bound))
        require = list(view.require) + [frozenset(self._features(item)) for item in _as_list(must_use)]
        avoided = set(view.avoid)
        for item in _as_list(avoid):
            avoided.update(self._features(item))
        depth = _tighter(view.max_depth, max_depth, "max_depth")
        leaves = _tighter(view.max_leaves, max_leaves, "max_leaves")
        new = SetView(self.graph, limit, max_depth=depth, max_leaves=leaves, avoid=avoided, require=require)
        return RashomonSet(self.graph, new, self.optimum, epsilon if epsilon is not None else self.epsilon,
                           status=self.status)

    def _features(self, item) -> list:
        names = self.feature_names
        if isinstance(item, Integral) and not isinstance(item, bool):
            if not 0 <= int(item) < len(names):
                raise ValueError(f"feature index {item} out of range: there are {len(names)} binary features.")
            return [int(item)]
        if item in names:
            return [names.index(item)]
        columns = [j for j, feature in enumerate(self.dataset.features) if feature.column == item]
        if columns:
            return columns
        raise ValueError(f"unknown feature {item!r}; the binary features are {names[:10]}"
                         f"{' ...' if len(names) > 10 else ''} (or give an original column name).")


def _as_list(value) -> list:
    if value is None:
        return []
    if isinstance(value, (str, Integral)):
        return [value]
    return list(value)


def _tighter(current, new, name):
    if new is None:
        return current
    if int(new) < 0:
        raise ValueError(f"{name} must be >= 0, got {new}.")
    return int(new) if current is None else min(current, int(new))
