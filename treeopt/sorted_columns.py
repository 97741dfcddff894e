"""Numeric columns as sorted values, not a binary table: the data layer of the continuous solver.

A numeric column with ``q`` distinct values gives ``q - 1`` thresholds. Binarizing it makes one
binary feature, a column of ``n`` booleans, per threshold. Here the column is sorted once instead
(Brița, van der Linden and Demirović, *Optimal Classification Trees for Continuous Feature Data
Using Dynamic Programming with Branch-and-Bound*, AAAI 2025, section 3). For each column we keep
the order of the rows by value, each row's rank among the distinct values, and the distinct values.
That is O(n × columns) memory for any number of thresholds. A threshold is a rank ``r``: the rows
of rank at most ``r`` go to one side.

Integers stay integers. Ranks are computed from the exact values (int64 past 2**53 included),
and an integer column's threshold is its lower value, compared exactly. A float column's threshold
is the binarizer's (:func:`treeopt.binarize.split_points`: the float64 midpoint, moved onto the
float32 grid when that routes every row the same), so a split predicts as the binarized threshold would.

Categorical columns are one-hot encoded by :class:`~treeopt.binarize.Binarizer`, as elsewhere
in treeopt. Each category becomes a 0/1 column with one threshold, and its split tests the
binarizer's own feature (``color = red``).

Examples
--------
>>> import numpy as np
>>> import pandas as pd
>>> columns = SortedColumns.from_table(pd.DataFrame({"x0": [3.0, 1.0, 2.0, 1.0], "x1": [10, 30, 20, 10]}))
>>> columns.n_rows, columns.n_columns, columns.order[0].tolist(), columns.rank[0].tolist()
(4, 2, [1, 3, 2, 0], [2, 0, 1, 0])
>>> f = columns.threshold_feature(0, 0)        # between 1.0 and 2.0
>>> f.name, f.evaluate(np.array([1.0, 1.6])).tolist()
('x0 <= 1.5', [True, False])
>>> columns.threshold_feature(1, 1).name        # an integer column: its lower value, exactly
'x1 <= 20'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .binarize import Binarizer, BinaryFeature, as_frame, format_threshold, split_points
from .data import Dataset

__all__ = ["SortedColumns", "SortedDataset", "search_bytes"]


def search_bytes(n_rows: int, n_columns: int, n_classes: int, depth: int) -> int:
    """Bytes the continuous solver holds at most on a table of this size, beyond the table itself.

    What it keeps does not depend on the number of thresholds: each column's ranks and order
    (two int32 per row), each row's class weights (float64 per class, raw and cost-weighted), the
    supports on the path from the root (each level's support and its two children, int32 per row
    and column), and the depth-two solver's view of one support (``SupportColumns`` of
    ``treeopt/solvers/continuous/terminal.py``: per column the class weights in its order with their cumulative sums, and every column's ranks
    in that order; with more than two classes, those ranks again with the rows grouped by class, once
    per column and once for all columns together, and each class's index at every threshold). The memo holds a digest and a small tuple per subproblem, and the depth-two
    batches a fixed number of entries, so neither grows with the rows.

    Parameters
    ----------
    n_rows, n_columns, n_classes : int
        The table's rows, splittable columns (a one-hot categorical column counts once per category)
        and classes.
    depth : int
        The depth budget.

    Returns
    -------
    int

    Examples
    --------
    >>> search_bytes(100_000, 10, 4, 3) < search_bytes(100_000, 10, 4, 4) < 10 ** 9
    True
    """
    cells = n_rows * n_columns
    table = 2 * 4 * cells + 2 * 8 * n_rows * n_classes
    path = max(depth, 1) * 2 * 4 * cells
    support = cells * (4 * 8 * n_classes + 3 * 4 * n_columns + 6 * 8)
    return int(table + path + support)


@dataclass
class SortedColumns:
    """A table's splittable columns, each sorted once.

    Attributes
    ----------
    names : list of str
        Display name of each column (a one-hot column: its feature's name).
    rank : ndarray of int32, shape (n_columns, n_rows)
        ``rank[j, i]``: the index of row ``i``'s value among column ``j``'s distinct values.
    order : ndarray of int32, shape (n_columns, n_rows)
        ``order[j]``: the rows by increasing value of column ``j`` (stable: ties by row index).
    values : list of ndarray
        Each column's distinct values, increasing (int64 for an integer column, float64 else).
    source_index : list of int
        The position of each column's original column in the table.
    one_hot : list of BinaryFeature or None
        For a one-hot column, the binarizer's feature that is true where the column is 1.
    columns_in : list of str
        The names of the original columns.
    """

    names: list
    rank: np.ndarray
    order: np.ndarray
    values: list
    source_index: list
    one_hot: list
    columns_in: list = field(default_factory=list)

    @property
    def n_rows(self) -> int:
        """Number of rows."""
        return self.rank.shape[1]

    @property
    def n_columns(self) -> int:
        """Number of splittable columns."""
        return self.rank.shape[0]

    @property
    def n_thresholds(self) -> int:
        """Thresholds over all columns (binary features a binarization with every threshold would make)."""
        return int(sum(len(v) - 1 for v in self.values))

    @classmethod
    def from_table(cls, X) -> "SortedColumns":
        """Sort the columns of a table (array or DataFrame) once.

        Numeric columns (integers, floats, booleans) are kept as values; other columns are
        one-hot encoded. Missing values are refused, with the fix.

        Raises
        ------
        ValueError
            On an empty or non-2-D table, or a missing value in a numeric column.
        """
        frame = as_frame(X)
        if frame.shape[0] == 0 or frame.shape[1] == 0:
            raise ValueError(f"X must have at least one row and one column, got shape {frame.shape}.")
        names, ranks, orders, values, sources, one_hot = [], [], [], [], [], []

        def add(name: str, column: np.ndarray, source: int, feature: BinaryFeature | None) -> None:
            distinct, rank = np.unique(column, return_inverse=True)
            rank = rank.ravel().astype(np.int32)
            names.append(name)
            ranks.append(rank)
            orders.append(np.argsort(rank, kind="stable").astype(np.int32))
            values.append(distinct)
            sources.append(source)
            one_hot.append(feature)

        categorical = []
        for index, column in enumerate(frame.columns):
            series = frame[column]
            if pd.api.types.is_bool_dtype(series.dtype) or (pd.api.types.is_numeric_dtype(series.dtype)
                                                            and not isinstance(series.dtype, pd.CategoricalDtype)):
                if series.isna().any():
                    raise ValueError(f"column {column!r} has missing values; the continuous solver needs every "
                                     "value. Impute them first, or use solver='gosdt' with missing='indicator'.")
                array = series.to_numpy()
                if array.dtype.kind in "iub":
                    array = array.astype(np.int64)       # exact: no float cast, even past 2**53
                elif array.dtype.kind != "f":
                    array = series.to_numpy(dtype=np.float64)
                else:
                    array = array.astype(np.float64)
                add(str(column), array, index, None)
            else:
                categorical.append(index)
        if categorical:
            sub = frame.iloc[:, categorical]
            binarizer = Binarizer(categorical_features=[str(c) for c in sub.columns], missing="indicator").fit(sub)
            table = binarizer.transform(sub)
            for j, feature in enumerate(binarizer.features_):
                source = categorical[feature.column_index]
                moved = BinaryFeature(feature.column, source, feature.kind, feature.value, feature.name,
                                      feature.has_missing)
                add(moved.name, table[:, j].astype(np.int64), source, moved)
        rank = np.vstack(ranks) if ranks else np.zeros((0, len(frame)), dtype=np.int32)
        order = np.vstack(orders) if orders else np.zeros((0, len(frame)), dtype=np.int32)
        return cls(names, rank, order, values, sources, one_hot, [str(c) for c in frame.columns])

    def is_integer(self, column: int) -> bool:
        """Whether column ``column`` holds integers (compared exactly)."""
        return self.values[column].dtype.kind in "iu"

    def threshold_feature(self, column: int, rank: int) -> BinaryFeature:
        """The binary feature true on the rows of column ``column`` with rank at most ``rank``.

        Float columns: ``x <= t`` with ``t`` the binarizer's threshold between the two values
        (:func:`~treeopt.binarize.split_points`). Integer columns: ``x <= lower value``, an exact
        integer. A one-hot column: the binarizer's feature (true on rank 1: the caller swaps sides).
        """
        feature = self.one_hot[column]
        if feature is not None:
            return feature
        lower, upper = self.values[column][rank], self.values[column][rank + 1]
        name = self.names[column]
        if self.is_integer(column):
            value = int(lower)
            return BinaryFeature(name, self.source_index[column], "threshold", value, f"{name} <= {value}")
        value = float(split_points([lower], [upper])[0])
        midpoint = (float(lower) + float(upper)) / 2.0
        return BinaryFeature(name, self.source_index[column], "threshold", value,
                             f"{name} <= {format_threshold(midpoint)}")


@dataclass
class SortedDataset(Dataset):
    """A :class:`~treeopt.data.Dataset` whose columns are kept as sorted values.

    Its binary view has no features (every row is one point, so the class totals and the
    objective's costs read as on any dataset); the continuous solver reads :attr:`columns`,
    :attr:`y_index` and :attr:`weights`.

    Attributes
    ----------
    columns : SortedColumns
    y_index : ndarray of int
        Each row's class index.
    weights : ndarray of float
        Each row's weight.

    Examples
    --------
    >>> ds = SortedDataset.from_arrays([[1.5], [0.5], [2.5]], ["a", "b", "a"])
    >>> ds.n_rows, ds.n_features, ds.columns.n_thresholds, ds.class_counts(ds.all_points)
    (3, 0, 2, (2, 1))
    """

    columns: SortedColumns | None = None
    y_index: np.ndarray | None = None
    weights: np.ndarray | None = None

    @classmethod
    def from_dataset(cls, dataset: Dataset) -> "SortedDataset":
        """The sorted view of a binary :class:`~treeopt.data.Dataset`: each binary feature a 0/1 column
        split on the feature itself, each (point, class) with weight one row of that weight.

        Examples
        --------
        >>> binary = Dataset.from_binary([[0, 1], [1, 1], [1, 0], [1, 0]], [0, 1, 1, 0])
        >>> view = SortedDataset.from_dataset(binary)
        >>> view.n_rows, view.columns.n_thresholds, view.columns.one_hot[0].name
        (4, 2, 'x0')
        """
        point, label = np.nonzero(dataset.counts)
        weights = dataset.counts[point, label]
        table = dataset.points[point].astype(np.int64)
        names, ranks, orders, values, sources = [], [], [], [], []
        for j, feature in enumerate(dataset.features):
            distinct, rank = np.unique(table[:, j], return_inverse=True)
            rank = rank.ravel().astype(np.int32)
            names.append(feature.name)
            ranks.append(rank)
            orders.append(np.argsort(rank, kind="stable").astype(np.int32))
            values.append(distinct)
            sources.append(j)
        n = len(point)
        columns = SortedColumns(names, np.vstack(ranks) if ranks else np.zeros((0, n), dtype=np.int32),
                                np.vstack(orders) if orders else np.zeros((0, n), dtype=np.int32), values, sources,
                                list(dataset.features))
        return cls(points=dataset.points, counts=dataset.counts, row_point=dataset.row_point,
                   features=list(dataset.features), classes=dataset.classes, binarizer=dataset.binarizer,
                   columns=columns, y_index=label.astype(np.int64), weights=weights)

    @classmethod
    def from_arrays(cls, X, y, sample_weight=None, binarizer=None, classes=None) -> "SortedDataset":
        """Sort the columns of ``X`` and read labels and weights as :meth:`Dataset.from_arrays` does."""
        if binarizer is not None:
            raise ValueError("a SortedDataset keeps numeric columns as values; it takes no binarizer.")
        columns = SortedColumns.from_table(X)
        base = Dataset._build(np.zeros((columns.n_rows, 0), dtype=bool), y, sample_weight, [], classes, None)
        y = np.asarray(y).ravel()
        classes = base.classes
        lookup = {c: k for k, c in enumerate(classes.tolist())}
        y_index = np.fromiter((lookup[v] for v in y.tolist()), dtype=np.int64, count=len(y))
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        return cls(points=base.points, counts=base.counts, row_point=base.row_point, features=[],
                   classes=classes, binarizer=None, columns=columns, y_index=y_index, weights=weights)

    def describe(self) -> str:
        """One line summary for logs and the CLI."""
        return (f"{self.n_rows} rows, {self.columns.n_columns} sorted columns ({self.columns.n_thresholds} "
                f"thresholds), {self.n_classes} classes {list(self.classes)}")
