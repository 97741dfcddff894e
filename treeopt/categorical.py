"""Data with native categorical columns, for solvers with multiway splits (Branches).

A :class:`CategoricalDataset` keeps every categorical column of the
original table as one *column* with one category per distinct value
(an ordinal encoding: category ``k`` of a column is its ``k``-th value in
sorted order, Branches section 3 and appendix B), so a split on it has one
child per category present in the node's data. Numeric columns are still
binarized by thresholds (as :class:`~treeopt.binarize.Binarizer` does, all
midpoints by default): each threshold feature becomes a two-category
column (false, true) whose split is an ordinary binary :class:`~treeopt.tree.Split`.

It *is* a :class:`~treeopt.data.Dataset`: its binary features are the
one-hot encoding of the categorical columns (one feature ``col = value``
per category) followed by the threshold features, so GOSDT runs on the
same object and sees the one-hot encoding of the same data. Support sets
are bitsets over the distinct rows, as everywhere in treeopt; each
(column, category) has its bitset in :attr:`CategoricalDataset.column_masks`.

:func:`read_uci_categorical` reads the raw UCI files of Branches' experiments
(``monks-*.train``, ``car.data``, ``balance-scale.data``, ``tic-tac-toe.data``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from .binarize import Binarizer, BinaryFeature, as_frame, check_missing_policy, missing_mask
from .data import Dataset
from .table_columns import FittedColumns, read_columns

__all__ = ["CategoricalColumn", "CategoricalDataset", "OriginalColumns", "read_uci_categorical"]


@dataclass(frozen=True)
class CategoricalColumn:
    """One splittable column of a :class:`CategoricalDataset`.

    Attributes
    ----------
    name : str
        Original column name (for a threshold feature: the feature's name).
    column_index : int
        Position of the original column in the table.
    kind : {"categorical", "binary"}
        ``categorical``: a multiway split, one child per category.
        ``binary``: a binary feature (threshold or 0/1 column); its split
        is a binary :class:`~treeopt.tree.Split` on ``feature``.
    values : tuple
        The categories in child order (``(False, True)`` for a binary column).
    features : tuple
        For each category, the index of the one-hot binary feature that is
        true exactly on it; ``None`` for the false side of a binary column.
    """

    name: str
    column_index: int
    kind: str
    values: tuple
    features: tuple

    @property
    def feature(self) -> int:
        """The binary feature a ``binary`` column splits on."""
        return self.features[-1]


class OriginalColumns:
    """Evaluate binary features on the original table (what :class:`~treeopt.tree.Tree` needs to predict).

    Parameters
    ----------
    features : list of BinaryFeature
    n_columns : int
        Number of columns of the original table.
    missing : {"error", "indicator"}, default="error"
        Whether the table may hold missing values (see :class:`~treeopt.binarize.Binarizer`).
    columns : FittedColumns, optional
        The fitted table's columns: a later table is read through
        :func:`~treeopt.table_columns.read_columns` (by name when fitted on a DataFrame).
        Default: ``n_columns`` columns ``x0, x1, ...`` read by position.

    Examples
    --------
    >>> f = [BinaryFeature("color", 0, "category", "red", "color = red")]
    >>> OriginalColumns(f, 1).transform([["red"], ["blue"]]).tolist()
    [[True], [False]]
    """

    def __init__(self, features: list, n_columns: int, missing: str = "error", columns: FittedColumns | None = None):
        self.features_ = list(features)
        self.n_features_in_ = int(n_columns)
        self.missing = missing
        self.fitted_columns_ = columns if columns is not None else FittedColumns(
            tuple(f"x{i}" for i in range(self.n_features_in_)), (None,) * self.n_features_in_, named=False)
        if columns is not None and columns.named:
            self.feature_names_in_ = np.asarray(columns.names, dtype=object)

    def transform(self, X) -> np.ndarray:
        """Boolean matrix (rows × binary features) of an original table."""
        frame = as_frame(read_columns(X, self.fitted_columns_, reader="the tree"),
                         missing=getattr(self, "missing", "error"))
        columns = [frame.iloc[:, i].to_numpy(dtype=object) for i in range(frame.shape[1])]
        out = np.zeros((len(frame), len(self.features_)), dtype=bool)
        for j, feature in enumerate(self.features_):
            out[:, j] = feature.evaluate(columns[feature.column_index])
        return out


@dataclass
class CategoricalDataset(Dataset):
    """A :class:`~treeopt.data.Dataset` that also knows its categorical columns.

    Build one with :meth:`from_arrays`.

    Attributes
    ----------
    columns : list of CategoricalColumn
        The splittable columns, in table order (threshold features of a
        numeric column each count as one binary column).
    column_masks : list of tuple of int
        ``column_masks[c][k]``: bitset of the points whose column ``c`` has
        category ``k``.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"color": ["red", "blue", "green", "red"], "size": [1.0, 2.0, 3.0, 1.0]})
    >>> ds = CategoricalDataset.from_arrays(X, [1, 0, 0, 1])
    >>> [(c.name, c.kind, c.values) for c in ds.columns]
    [('color', 'categorical', ('blue', 'green', 'red')), ('size <= 1.5', 'binary', (False, True)), ('size <= 2.5', 'binary', (False, True))]
    >>> ds.n_features                      # GOSDT's view: one-hot of color + 2 thresholds
    5
    >>> [ds.class_counts(m) for m in ds.column_masks[0]]
    [(1, 0), (1, 0), (0, 2)]
    """

    columns: list = field(default_factory=list)
    column_masks: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        super().__post_init__()
        self._index_columns()

    def _index_columns(self) -> None:
        masks = []
        for column in self.columns:
            if column.kind == "binary":
                true_mask = self.feature_masks[column.feature]
                masks.append((self.all_points ^ true_mask, true_mask))
            else:
                masks.append(tuple(self.feature_masks[j] for j in column.features))
        self.column_masks = masks

    @property
    def n_columns(self) -> int:
        """Number of splittable columns."""
        return len(self.columns)

    @classmethod
    def from_arrays(cls, X, y, sample_weight=None, classes=None,
                    categorical_features: str | Sequence[str] = "auto", thresholds: str = "all",
                    max_thresholds: int | None = None, missing: str = "error") -> "CategoricalDataset":
        """Build from any table: categorical columns kept whole, numeric columns thresholded.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_rows, n_columns)
        y : array_like of shape (n_rows,)
            Any labels, two or more classes.
        sample_weight : array_like, optional
        classes : array_like, optional
            The full sorted list of label values.
        categorical_features : "auto" or list of str, default="auto"
            Columns to keep as categorical. ``"auto"``: object, string,
            ``category`` and boolean-like string columns (pass the names of
            integer-coded categorical columns explicitly).
        thresholds, max_thresholds
            How numeric columns are binarized (see :class:`~treeopt.binarize.Binarizer`).
        missing : {"error", "indicator"}, default="error"
            ``"indicator"``: in a categorical column, missing values (NaN,
            None, ``pd.NA``) form one more category, stored as ``None``
            and placed first, whose one-hot feature is ``x is missing``
            (the multiway rules print ``if x is missing:``); a numeric
            column gets the binary column ``x is missing`` before its
            thresholds, as in :class:`~treeopt.binarize.Binarizer`. A
            missing value at predict time in a categorical column that had
            none in training is an unseen category (it goes to the heaviest
            child, see :class:`~treeopt.tree.MultiwaySplit`).

        Examples
        --------
        >>> X = pd.DataFrame({"color": ["red", None, "blue", "red"]})
        >>> ds = CategoricalDataset.from_arrays(X, [0, 1, 1, 0], missing="indicator")
        >>> ds.columns[0].values, [f.name for f in ds.features]
        ((None, 'blue', 'red'), ['color is missing', 'color = blue', 'color = red'])
        """
        check_missing_policy(missing)
        frame = as_frame(X, missing=missing)
        names = [str(c) for c in frame.columns]
        chooser = Binarizer(categorical_features=categorical_features)
        categorical = chooser._categorical_columns(frame)
        numeric = [i for i, name in enumerate(names) if name not in categorical]
        features: list[BinaryFeature] = []
        columns: list[CategoricalColumn] = []
        blocks: list[np.ndarray] = []
        numeric_features = []
        if numeric:
            binarizer = Binarizer(thresholds=thresholds, max_thresholds=max_thresholds,
                                  categorical_features=[], missing=missing).fit(frame.iloc[:, numeric])
            numeric_features = [dataclasses.replace(f, column_index=numeric[f.column_index])
                                for f in binarizer.features_]
        by_column = {}
        for f in numeric_features:
            by_column.setdefault(f.column_index, []).append(f)
        for index, name in enumerate(names):
            values = frame.iloc[:, index].to_numpy(dtype=object)
            if name in categorical:
                absent = missing_mask(values)
                categories = sorted(set(values[~absent].tolist()), key=lambda v: (str(type(v)), str(v)))
                start = len(features)
                if absent.any():
                    features.append(BinaryFeature(name, index, "missing", None, f"{name} is missing"))
                    blocks.append(absent)
                    categories = [None] + categories
                for value in categories[1 if absent.any() else 0:]:
                    features.append(BinaryFeature(name, index, "category", value, f"{name} = {value}"))
                    blocks.append(values == value)
                columns.append(CategoricalColumn(name, index, "categorical", tuple(categories),
                                                 tuple(range(start, len(features)))))
            else:
                for f in by_column.get(index, []):
                    columns.append(CategoricalColumn(f.name, index, "binary", (False, True), (None, len(features))))
                    features.append(f)
                    blocks.append(np.asarray(f.evaluate(values), dtype=bool))
        Z = np.column_stack(blocks) if blocks else np.zeros((len(frame), 0), dtype=bool)
        evaluator = OriginalColumns(features, len(names), missing,
                                    FittedColumns.of_table(frame, named=isinstance(X, pd.DataFrame)))
        dataset = cls._build(Z, y, sample_weight, features, classes, evaluator)
        dataset.columns = columns
        dataset._index_columns()
        return dataset

    @classmethod
    def from_dataset(cls, dataset: Dataset) -> "CategoricalDataset":
        """View a binary :class:`~treeopt.data.Dataset` as binary columns (one per feature).

        Examples
        --------
        >>> import numpy as np
        >>> ds = CategoricalDataset.from_dataset(Dataset.from_binary(np.array([[0, 1], [1, 1]]), [0, 1]))
        >>> [c.kind for c in ds.columns], ds.n_points
        (['binary', 'binary'], 2)
        """
        if isinstance(dataset, CategoricalDataset):
            return dataset
        columns = [CategoricalColumn(f.name, f.column_index, "binary", (False, True), (None, j))
                   for j, f in enumerate(dataset.features)]
        return cls(points=dataset.points, counts=dataset.counts, row_point=dataset.row_point,
                   features=dataset.features, classes=dataset.classes, binarizer=dataset.binarizer,
                   columns=columns)

    def describe(self) -> str:
        """One line summary for logs and the CLI."""
        kinds = [c.kind for c in self.columns]
        return (f"{self.n_rows} rows ({self.n_points} distinct), {kinds.count('categorical')} categorical and "
                f"{kinds.count('binary')} binary columns ({self.n_features} one-hot features), "
                f"{self.n_classes} classes {list(self.classes)}")


#: Layout of the raw UCI files of Branches' experiments: (separator, label column, attribute names).
_UCI_LAYOUTS = {
    "monks": (r"\s+", 0, ["a1", "a2", "a3", "a4", "a5", "a6"]),
    "car": (",", 6, ["buying", "maint", "doors", "persons", "lug_boot", "safety"]),
    "balance-scale": (",", 0, ["left_weight", "left_distance", "right_weight", "right_distance"]),
    "tic-tac-toe": (",", 9, ["top_left", "top_middle", "top_right", "middle_left", "middle_middle",
                             "middle_right", "bottom_left", "bottom_middle", "bottom_right"]),
}


def read_uci_categorical(path) -> tuple[pd.DataFrame, pd.Series]:
    """Read a raw UCI categorical file as (string columns, labels).

    Knows ``monks-*.train``/``.test`` (label in column 0, id column dropped),
    ``car.data`` (label last, 4 classes), ``balance-scale.data`` (label
    first, 3 classes) and ``tic-tac-toe.data`` (label last). Every attribute
    is read as a string, so it is categorical (a multiway split).

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    X : DataFrame of str
    y : Series

    Examples
    --------
    >>> import io, tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "car.data")
    ...     _ = open(p, "w").write("vhigh,vhigh,2,2,small,low,unacc\\nlow,low,4,4,big,high,vgood\\n")
    ...     X, y = read_uci_categorical(p)
    >>> X.shape, y.tolist()
    ((2, 6), ['unacc', 'vgood'])
    """
    path = Path(path)
    stem = path.name.split(".")[0]
    key = "monks" if stem.startswith("monks") else stem
    if key not in _UCI_LAYOUTS:
        raise ValueError(f"unknown raw file {path.name!r}; known: monks-*.train/test, car.data, "
                         "balance-scale.data, tic-tac-toe.data. Read other files with pandas and pass "
                         "string columns to CategoricalDataset.from_arrays.")
    if not path.exists():
        raise ValueError(f"{path} does not exist; the raw files are in shared/datasets/categorical/.")
    sep, label, names = _UCI_LAYOUTS[key]
    raw = pd.read_csv(path, sep=sep, header=None, dtype=str, skipinitialspace=True).dropna(how="all")
    if key == "monks":
        raw = raw.iloc[:, :8]
    y = raw.iloc[:, label].str.strip().rename("class")
    X = raw.drop(columns=raw.columns[label]).iloc[:, :len(names)]
    X.columns = names
    X = X.apply(lambda s: s.str.strip())
    return X.reset_index(drop=True), y.reset_index(drop=True)
