"""Embedded and generated datasets against the public files in ../shared/datasets/categorical."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest

import treeopt.datasets as datasets
from conftest import DATASETS, require_datasets
from treeopt.datasets import (MONK_ATTRIBUTES, fetch_compas, fetch_fico, load_balance_scale, load_breast_cancer,
                              load_iris, load_monk, load_restaurant, load_restaurant_pruning, load_tic_tac_toe,
                              load_wine, make_four_class, make_spiral)

CATEGORICAL = DATASETS / "categorical"


def rows(frame: pd.DataFrame) -> Counter:
    """The rows of a frame as a multiset of tuples of strings."""
    return Counter(tuple(str(v) for v in row) for row in frame.itertuples(index=False))


def test_tic_tac_toe_equals_the_uci_file():
    require_datasets()
    X, y = load_tic_tac_toe()
    generated = pd.concat([X, y], axis=1)
    uci = pd.read_csv(CATEGORICAL / "tic-tac-toe.data", header=None)
    assert len(generated) == 958
    assert rows(generated) == rows(uci)


def test_balance_scale_equals_the_uci_file():
    require_datasets()
    X, y = load_balance_scale()
    generated = pd.concat([y, X], axis=1)          # the UCI file has the class first
    uci = pd.read_csv(CATEGORICAL / "balance-scale.data", header=None)
    assert rows(generated) == rows(uci) and len(generated) == 625


@pytest.mark.parametrize("problem", [1, 2, 3])
def test_monk_generator_equals_the_test_file(problem):
    require_datasets()
    X, y = load_monk(problem, codes=True)
    generated = pd.concat([y, X], axis=1)
    uci = pd.read_csv(CATEGORICAL / f"monks-{problem}.test", sep=r"\s+", header=None).iloc[:, :7]
    assert rows(generated) == rows(uci) and len(generated) == 432
    names, _ = load_monk(problem)
    assert list(names.columns) == list(MONK_ATTRIBUTES)


def test_restaurant_tables_are_the_slides():
    X, y = load_restaurant()
    assert X.loc[1].tolist() == ["Yes", "No", "No", "Yes", "$$$", "No", "Mateo", "0-5", "some"]
    assert X.loc[12, "Restaur"] == "Pizza" and y.loc[12] == "Yes"
    # each restaurant has as many stays as leaves: Gain(S, Restaur) = 0 in the slides
    assert (pd.crosstab(X["Restaur"], y).eval("No - Yes") == 0).all()
    Xp, yp = load_restaurant_pruning()
    assert Xp.shape == (16, 2) and yp.loc[12] == "No" and Xp.loc[12, "Crowded"] == "Full"
    assert (Xp["Price"] == "$$").sum() == 9


def test_synthetic_data_is_reproducible_and_validated():
    a, b = make_spiral(60, noise=0.01, random_state=3), make_spiral(60, noise=0.01, random_state=3)
    assert a[0].equals(b[0]) and a[1].equals(b[1])
    X, y = make_spiral(101)
    assert len(X) == 101 and sorted(Counter(y).values()) == [50, 51]
    X4, y4 = make_four_class()
    assert X4.shape == (862, 2) and 0.2 < y4.mean() < 0.6
    with pytest.raises(ValueError, match="n_samples"):
        make_spiral(1)
    with pytest.raises(ValueError, match="noise"):
        make_spiral(10, noise=-1)
    with pytest.raises(ValueError, match="n_samples"):
        make_four_class(0)


def test_sklearn_bundled_datasets_as_frames():
    for loader, shape in [(load_breast_cancer, (569, 30)), (load_iris, (150, 4)), (load_wine, (178, 13))]:
        X, y = loader()
        assert isinstance(X, pd.DataFrame) and X.shape == shape and len(y) == shape[0]


def test_fetch_reads_a_local_copy(tmp_path):
    path = tmp_path / "mine.csv"
    pd.DataFrame({"a": [1, 2], "b": [0, 1], "label": [0, 1]}).to_csv(path, index=False)
    X, y = fetch_compas(path)
    assert list(X.columns) == ["a", "b"] and y.tolist() == [0, 1]
    with pytest.raises(FileNotFoundError, match="local copy"):
        fetch_fico(tmp_path / "absent.csv")


def test_fetch_offline_gives_a_clear_error_and_caches_a_download(tmp_path, monkeypatch):
    def offline(url, target):
        raise OSError("network is unreachable")

    monkeypatch.setattr(datasets, "_download", offline)
    with pytest.raises(ConnectionError, match="path="):
        fetch_compas(cache_dir=tmp_path)
    assert not (tmp_path / "compas.csv").exists()

    calls = []

    def fake(url, target):
        calls.append(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("x;y;label\n0;1;1\n1;0;0\n")

    monkeypatch.setattr(datasets, "_download", fake)
    X, y = fetch_fico(cache_dir=tmp_path / "cache")
    X2, _ = fetch_fico(cache_dir=tmp_path / "cache")          # second call: read from the cache
    assert calls == [datasets.SOURCES["fico"]] and X.equals(X2) and y.tolist() == [1, 0]
    assert np.array_equal(X.columns, ["x", "y"])


def test_one_feature_mask_is_the_same_before_and_after_all_are_made():
    """Dataset.feature_mask(j) reads one bitset without making the others; feature_masks makes them all."""
    import numpy as np

    from treeopt.data import Dataset

    rng = np.random.default_rng(0)
    ds = Dataset.from_binary(rng.random((200, 7)) < 0.5, rng.integers(0, 2, 200))
    before = [ds.feature_mask(j) for j in range(7)]
    assert "feature_masks" not in ds.__dict__
    assert before == ds.feature_masks == [ds.feature_mask(j) for j in range(7)]
    for j, mask in enumerate(before):
        assert [(mask >> u) & 1 for u in range(ds.n_points)] == ds.points[:, j].astype(int).tolist()


def test_labels_outside_the_classes_are_refused_by_name():
    """A label that is not among the given classes is named, numeric (binary search) or not (lookup)."""
    import numpy as np
    import pytest

    from treeopt.data import Dataset

    X = np.array([[0, 1], [1, 0], [1, 1]])
    with pytest.raises(ValueError, match=r"label 7 is not among the classes \[0, 1\]"):
        Dataset.from_binary(X, np.array([0, 7, 1]), classes=[0, 1])
    with pytest.raises(ValueError, match=r"label 'c' is not among the classes \['a', 'b'\]"):
        Dataset.from_binary(X, np.array(["a", "c", "b"]), classes=["a", "b"])
    ds = Dataset.from_binary(X, np.array([2.0, 0.0, 2.0]), classes=[0, 1, 2])
    assert ds.counts.tolist() == [[0, 0, 1], [1, 0, 0], [0, 0, 1]]


#: Every generated or bundled loader, called with keyword arguments (``shuffle=``).
ORDERED_LOADERS = {
    "monk1": lambda **kw: load_monk(1, **kw), "monk2": lambda **kw: load_monk(2, **kw),
    "monk3": lambda **kw: load_monk(3, **kw), "balance_scale": load_balance_scale,
    "tic_tac_toe": load_tic_tac_toe, "spiral": make_spiral, "breast_cancer": load_breast_cancer,
    "iris": load_iris, "wine": load_wine,
}


def _depth_four_tree():
    """A fast tree learner for any mix of string and numeric columns (the loaders' order is under test)."""
    from sklearn.compose import make_column_selector, make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeClassifier

    encode = make_column_transformer((OneHotEncoder(handle_unknown="ignore"), make_column_selector(dtype_exclude="number")),
                                     remainder="passthrough")
    return make_pipeline(encode, DecisionTreeClassifier(max_depth=4, random_state=0))


@pytest.mark.parametrize("name", list(ORDERED_LOADERS))
def test_default_cv_scores_like_shuffled_folds(name):
    """scikit-learn's default cv (unshuffled StratifiedKFold) on a loader's rows estimates what shuffled folds do.

    Generated in order (sorted by attribute or class), the folds of the default
    cv trained on a corner of the data: MONK-1, balance scale, tic-tac-toe and
    the spiral were off by 0.1 to 0.45.
    """
    from sklearn.model_selection import KFold, cross_val_score

    X, y = ORDERED_LOADERS[name]()
    default = cross_val_score(_depth_four_tree(), X, y).mean()
    shuffled = np.mean([cross_val_score(_depth_four_tree(), X, y, cv=KFold(5, shuffle=True, random_state=seed)).mean()
                        for seed in range(5)])
    assert abs(default - shuffled) <= 0.05, (default, shuffled)


@pytest.mark.parametrize("name", list(ORDERED_LOADERS))
def test_loaders_shuffle_in_a_fixed_order_and_keep_the_rows(name):
    loader = ORDERED_LOADERS[name]
    X, y = loader()
    X2, y2 = loader()
    assert X.equals(X2) and y.equals(y2)                       # the same order on every call
    assert X.index.equals(pd.RangeIndex(len(X))) and y.index.equals(X.index)
    X0, y0 = loader(shuffle=False)
    assert not X.equals(X0)
    assert rows(pd.concat([X, y], axis=1)) == rows(pd.concat([X0, y0], axis=1))
    with pytest.raises(ValueError, match="shuffle must be True or False"):
        loader(shuffle="yes")


def test_optimal_tree_cross_validates_monk1_perfectly_with_default_folds():
    """The classroom example: unshuffled MONK-1 gave [0.5, 0.5, 0.5] with cv=3; the rule is learnable (1.0)."""
    from sklearn.model_selection import cross_val_score

    from treeopt import OptimalTreeClassifier

    X, y = load_monk(1)
    assert cross_val_score(OptimalTreeClassifier(regularization=0.02), X, y, cv=3).tolist() == [1.0, 1.0, 1.0]
