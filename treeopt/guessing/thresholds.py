"""Threshold guessing by column elimination (McTavish et al., AAAI 2022, section 4.1).

Binarizing every midpoint of every numeric column preserves optimality but
makes the search space explode (GOSDT Theorem H.1). Section 4.1 instead keeps
only thresholds a boosted reference model needs:

1. fit the booster on the original columns and collect every threshold its
   trees use;
2. refit the booster on those thresholds (as 0/1 columns), drop the one of
   least Gini importance;
3. refit on the rest;
4. repeat while the training accuracy does not fall below the starting
   accuracy by more than ``tolerance`` (the paper stops at any drop, i.e.
   ``tolerance=0``).

The booster's split values live between float32 copies of the data;
each is moved to the midpoint of the two adjacent distinct training values
it separates, so every guessed threshold is one of the all-threshold
binarization's midpoints (``age <= 20.5``) and splits the training rows
exactly as the booster did.

Theorem 4.1 (the guarantee): with ``T`` the booster on the original data,
``T'`` the booster refitted on the kept thresholds and ``t'`` any tree that
reproduces ``T'``'s training predictions, an optimal tree ``t*`` on the kept
thresholds has ``R(t*) <= L(T') + λ H(t') <= L(T) + λ H(t')`` when the
elimination kept the accuracy (see :func:`treeopt.guessing.threshold_guarantee`).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from ..binarize import Binarizer, BinaryFeature, as_frame, check_deadline, split_points
from ..table_columns import FittedColumns
from .reference import ReferenceInput, make_reference_model

__all__ = ["ThresholdGuessBinarizer"]


class ThresholdGuessBinarizer(Binarizer):
    """Binarize with the thresholds a boosted reference model needs (column elimination).

    A scikit-learn transformer: ``fit(X, y)`` learns the features, ``transform``
    returns the boolean matrix, ``get_feature_names_out`` names the columns,
    and ``features_`` maps each column back to the original table (so a
    tree fitted on it predicts on the original frame). Usable in a
    :class:`~sklearn.pipeline.Pipeline` and as
    ``OptimalTreeClassifier(thresholds="guess")``.

    Parameters
    ----------
    n_estimators : int, default=40
        Boosting stages of the reference model.
    max_depth : int, default=1
        Depth of its weak classifiers.
    learning_rate : float, default=0.1
    tolerance : float, default=0.0
        Stop eliminating when the booster's training accuracy would fall more
        than this below its accuracy on all extracted thresholds (0 = stop at
        any drop, as in the paper).
    random_state : int, RandomState or None, default=None
        Seed of the booster; fix it for reproducible thresholds.
    categorical_features : "auto" or list of str, default="auto"
        Columns treated as categories (one-hot, as in :class:`~treeopt.Binarizer`).

    Attributes
    ----------
    features_ : list of BinaryFeature
        The kept binary features (threshold, category or binary), in output order.
    initial_model_ : GradientBoostingClassifier
        ``T``: the booster fitted on the original columns.
    initial_encoding_ : ReferenceInput
        How ``T`` sees the table (numeric raw, categorical one-hot).
    reference_model_ : GradientBoostingClassifier
        ``T'``: the booster refitted on the kept features (columns of ``transform``).
    initial_accuracy_, reference_accuracy_ : float
        Weighted training accuracy of ``T`` and ``T'``.
    n_thresholds_extracted_ : int
        Distinct binary features ``T`` uses (before elimination).
    n_features_all_ : int
        Binary features of the all-threshold binarization, for comparison.
    elimination_path_ : list of (int, float)
        ``(number of features, training accuracy)`` after each accepted refit.
    feature_names_in_ : ndarray of str
    n_features_in_ : int

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6, 7, 8], "noise": [5, 3, 8, 1, 7, 2, 6, 4]})
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> guess = ThresholdGuessBinarizer(n_estimators=10, random_state=0).fit(X, y)
    >>> list(guess.get_feature_names_out())
    ['x <= 4.5']
    >>> guess.n_features_all_, guess.reference_accuracy_
    (14, 1.0)
    >>> guess.transform(X)[:, 0].astype(int).tolist()
    [1, 1, 1, 1, 0, 0, 0, 0]
    """

    def __init__(self, *, n_estimators: int = 40, max_depth: int = 1, learning_rate: float = 0.1,
                 tolerance: float = 0.0, random_state=None, categorical_features="auto"):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.tolerance = tolerance
        self.random_state = random_state
        self.categorical_features = categorical_features

    def _validate(self) -> None:
        for name in ("n_estimators", "max_depth"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}.")
        if isinstance(self.learning_rate, bool) or not isinstance(self.learning_rate, Real) \
                or not 0 < self.learning_rate:
            raise ValueError(f"learning_rate must be a positive number, got {self.learning_rate!r}.")
        if isinstance(self.tolerance, bool) or not isinstance(self.tolerance, Real) \
                or not 0 <= self.tolerance <= 1:
            raise ValueError(f"tolerance must be an accuracy drop in [0, 1] (0 = stop at any drop), "
                             f"got {self.tolerance!r}.")

    def _booster(self):
        return make_reference_model(n_estimators=self.n_estimators, max_depth=self.max_depth,
                                    learning_rate=self.learning_rate, random_state=self.random_state)

    def fit(self, X, y=None, sample_weight=None):
        """Fit the reference booster, extract its thresholds and eliminate columns.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_samples, n_columns)
        y : array_like of shape (n_samples,)
            Labels (required: the thresholds come from a supervised model).
        sample_weight : array_like of shape (n_samples,), optional

        Returns
        -------
        self

        Raises
        ------
        ValueError
            Without ``y``, with a single class, or on bad parameters.
        """
        self._validate()
        if y is None:
            raise ValueError("ThresholdGuessBinarizer requires y to be passed, but the target y is None: call "
                             "fit(X, y); thresholds are guessed from a boosted model trained on y.")
        frame = as_frame(X)
        y = np.asarray(y)
        if y.ndim == 2 and 1 in y.shape:
            y = y.ravel()
        if y.shape != (len(frame),):
            raise ValueError(f"X has {len(frame)} rows but y has shape {y.shape}; give one label per row.")
        if len(np.unique(y)) < 2:
            raise ValueError(f"y has one class only ({np.unique(y).tolist()}); threshold guessing needs "
                             "at least two classes to fit the reference model.")
        weights = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
        self.feature_names_in_ = np.asarray([str(c) for c in frame.columns], dtype=object)
        self.n_features_in_ = frame.shape[1]
        self.fitted_columns_ = FittedColumns.of_table(frame, named=isinstance(X, pd.DataFrame))
        if weights is not None and weights.shape == (len(frame),) and (weights == 0).any():
            # A row of weight zero is a row left out: the booster would still place thresholds
            # between its value and its neighbours' (they count as rows in its splitter).
            kept_rows = weights > 0
            if not kept_rows.any():
                raise ValueError("every sample weight is zero; give at least one row a positive weight.")
            frame, y, weights = frame[kept_rows], y[kept_rows], weights[kept_rows]
        self.n_features_all_ = len(Binarizer(categorical_features=self.categorical_features).fit(frame).features_)

        # Step 1: T on the original columns, and every binary feature its trees use. The setup's
        # deadline (time_limit, treeopt.binarize.binarization_deadline) is checked between steps.
        check_deadline("guessing thresholds: before fitting the reference model")
        encoding = self.initial_encoding_ = ReferenceInput.fit(frame, self.categorical_features)
        matrix = encoding.transform(frame)
        self.initial_model_ = self._booster().fit(matrix, y, sample_weight=weights)
        self.initial_accuracy_ = _accuracy(self.initial_model_.predict(matrix), y, weights)
        candidates = _extract(self.initial_model_, encoding, matrix)
        self.n_thresholds_extracted_ = len(candidates)
        Z = np.column_stack([f.evaluate(frame.iloc[:, f.column_index].to_numpy()) for f in candidates]) \
            if candidates else np.zeros((len(frame), 0), dtype=bool)

        # Steps 2-4: drop the least important feature and refit while accuracy holds.
        kept = list(range(len(candidates)))
        model, accuracy = self._refit(Z, kept, y, weights)
        start = accuracy
        self.elimination_path_ = [(len(kept), accuracy)]
        while len(kept) > 1:
            check_deadline(f"guessing thresholds: eliminating features, {len(kept)} of {len(candidates)} kept")
            drop = int(np.argmin(model.feature_importances_))
            trial = kept[:drop] + kept[drop + 1:]
            trial_model, trial_accuracy = self._refit(Z, trial, y, weights)
            if trial_accuracy < start - self.tolerance - 1e-12:
                break
            kept, model, accuracy = trial, trial_model, trial_accuracy
            self.elimination_path_.append((len(kept), accuracy))
        self.features_ = [candidates[k] for k in kept]
        self.majority_class_ = _majority(y, weights)      # T' when no feature is left (a constant)
        self.reference_model_ = model
        self.reference_accuracy_ = accuracy
        return self

    def _refit(self, Z, kept, y, weights):
        if not kept:
            return None, _accuracy(np.full(len(y), _majority(y, weights), dtype=y.dtype), y, weights)
        columns = Z[:, kept].astype(float)
        model = self._booster().fit(columns, y, sample_weight=weights)
        return model, _accuracy(model.predict(columns), y, weights)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def predict_initial(self, X) -> np.ndarray:
        """Labels of ``T`` (the booster on the original columns) for the rows of ``X``."""
        check_is_fitted(self, "initial_model_")
        return self.initial_model_.predict(self.initial_encoding_.transform(X))

    def predict_reference(self, X) -> np.ndarray:
        """Labels of ``T'`` (the booster on the kept features) for the rows of ``X``.

        These are the reference predictions of lower-bound guessing in
        Corollary 4.3.1 (``OptimalTreeClassifier(thresholds="guess", reference="gbdt")``).
        """
        Z = self.transform(X)
        if self.reference_model_ is None:
            return np.full(len(Z), self.majority_class_)
        return self.reference_model_.predict(Z.astype(float))


def _extract(model, encoding: ReferenceInput, matrix: np.ndarray) -> list[BinaryFeature]:
    """The distinct binary features of the booster's splits, each threshold snapped to a midpoint."""
    found = {}
    for tree in np.ravel(model.estimators_):
        structure = tree.tree_
        for node in np.flatnonzero(structure.feature >= 0):
            k = int(structure.feature[node])
            found.setdefault((k, float(structure.threshold[node])), None)
    features = {}
    for (k, split) in found:
        name, index, kind, value = encoding.columns[k]
        if kind == "category":
            feature = BinaryFeature(name, index, "category", value, f"{name} = {value}")
        elif kind == "binary":
            feature = BinaryFeature(name, index, "binary", 1, name)
        else:
            midpoint = _snap(matrix[:, k], split)
            if midpoint is None:
                continue
            feature = BinaryFeature(name, index, "threshold", midpoint, None)
        features[(index, feature.kind, str(feature.value))] = feature
    return [features[key] for key in sorted(features, key=lambda t: (t[0], t[1], _sort_value(t[2])))]


def _sort_value(text: str):
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def _snap(values: np.ndarray, split: float):
    """Midpoint of the adjacent distinct training values on either side of a booster split.

    scikit-learn trees compare ``float32(x) <= split``; the midpoint of the
    largest value going left and the smallest going right splits the training
    rows the same way and reads like an all-threshold midpoint (the same float64
    threshold as :func:`treeopt.binarize.split_points`, printed as it is compared).
    """
    goes_left = values.astype(np.float32) <= split
    if goes_left.all() or not goes_left.any():
        return None
    return float(split_points([values[goes_left].max()], [values[~goes_left].min()])[0])


def _accuracy(pred, y, weights) -> float:
    right = np.asarray(pred) == np.asarray(y)
    if weights is None:
        return float(right.mean())
    return float(weights[right].sum() / weights.sum())


def _majority(y, weights):
    labels, index = np.unique(y, return_inverse=True)
    totals = np.bincount(index, weights=weights)
    return labels[int(np.argmax(totals))]
