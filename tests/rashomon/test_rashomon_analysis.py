"""Filters, agreement, importance and prediction-distinct counts of a Rashomon set against brute force."""
import numpy as np
import pytest

from rashomon_oracle import all_trees, as_tuple
from treeopt.data import Dataset
from treeopt import rashomon_set


def _setup(seed, regularization=0.03, epsilon=0.6, weights=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(11, 3))
    y = rng.integers(0, 2, size=11)
    w = rng.integers(1, 3, size=11).astype(float) if weights else None
    rs = rashomon_set(Dataset.from_binary(X, y, sample_weight=w), regularization=regularization, epsilon=epsilon)
    expected = [t for t in all_trees(X, y, regularization, sample_weight=w) if t.objective <= rs.bound + 1e-9]
    assert len(rs) == len(expected)
    return X, y, w, rs, expected


FILTERS = [
    ({"must_use": 0}, lambda t: 0 in t.features),
    ({"avoid": 1}, lambda t: 1 not in t.features),
    ({"must_use": [0, 2]}, lambda t: {0, 2} <= t.features),
    ({"must_use": 2, "avoid": [0]}, lambda t: 2 in t.features and 0 not in t.features),
    ({"max_depth": 1}, lambda t: t.depth <= 1),
    ({"max_depth": 2, "must_use": 1}, lambda t: t.depth <= 2 and 1 in t.features),
    ({"max_leaves": 3}, lambda t: t.leaves <= 3),
    ({"max_leaves": 4, "avoid": 2, "max_depth": 2}, lambda t: t.leaves <= 4 and 2 not in t.features and t.depth <= 2),
]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("filters,keep", FILTERS)
def test_filters_count_and_index_exactly(seed, filters, keep):
    X, y, w, rs, expected = _setup(seed)
    kept = [t for t in expected if keep(t)]
    sub = rs.filter(**filters)
    assert len(sub) == len(kept)
    trees = [as_tuple(t) for t in sub]
    assert sorted(trees) == sorted(t.tree for t in kept)
    assert [as_tuple(sub[i]) for i in range(len(sub))] == trees
    assert sub.objectives() == pytest.approx([t.objective for t in kept])


@pytest.mark.parametrize("seed", range(3))
def test_filters_compose_and_tighten_the_bound(seed):
    X, y, w, rs, expected = _setup(seed)
    tight = (1 + 0.2) * rs.optimum
    both = rs.filter(avoid=1).filter(max_depth=2, epsilon=0.2)
    kept = [t for t in expected if 1 not in t.features and t.depth <= 2 and t.objective <= tight + 1e-9]
    assert len(both) == len(kept)
    assert both.filters["avoid"] == ["x1"] and both.filters["max_depth"] == 2
    with pytest.raises(ValueError, match="unknown feature"):
        rs.filter(avoid="nope")
    with pytest.raises(ValueError, match="required but all avoided"):
        rs.filter(must_use=0, avoid=0)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [False, True])
def test_predict_agreement_is_the_share_of_trees_voting_each_class(seed, weights):
    X, y, w, rs, expected = _setup(seed, weights=weights)
    rng = np.random.default_rng(100 + seed)
    rows = np.vstack([X, rng.integers(0, 2, size=(6, 3)), [[0, 0, 0], [1, 1, 1]]])
    votes = np.array([t.predict(rows) for t in expected])             # trees × rows
    share = np.stack([(votes == k).mean(axis=0) for k in range(2)], axis=1)
    assert rs.predict_agreement(rows, binarized=True) == pytest.approx(share)
    sub = rs.filter(max_depth=2, must_use=0)
    kept = [t for t in expected if t.depth <= 2 and 0 in t.features]
    if kept:
        votes = np.array([t.predict(rows) for t in kept])
        assert sub.predict_agreement(rows, binarized=True)[:, 1] == pytest.approx((votes == 1).mean(axis=0))


@pytest.mark.parametrize("seed", range(4))
def test_importance_share_and_reach_range(seed):
    X, y, w, rs, expected = _setup(seed, weights=seed % 2 == 1)
    frame = rs.variable_importance()
    for j, name in enumerate(rs.feature_names):
        reach = [t.reach.get(j, 0.0) for t in expected]
        row = frame.loc[name]
        assert row["share"] == pytest.approx(np.mean([j in t.features for t in expected]))
        assert row["reach_mean"] == pytest.approx(np.mean(reach))
        assert row["reach_min"] == pytest.approx(min(reach))
        assert row["reach_max"] == pytest.approx(max(reach))


@pytest.mark.parametrize("seed", range(4))
def test_prediction_distinct_count_and_frame(seed):
    X, y, w, rs, expected = _setup(seed)
    points = np.unique(X, axis=0)
    assert rs.n_prediction_distinct() == len({tuple(t.predict(points)) for t in expected})
    assert rs.n_prediction_distinct(limit=0) in (None, len(rs))
    frame = rs.to_frame()
    assert frame["objective"].tolist() == pytest.approx([t.objective for t in expected])
    shapes = [(t.depth, tuple(sorted(t.features[n.feature].name for n in t._nodes(t.root) if hasattr(n, "feature"))))
              for t in rs]                                          # row i describes rs[i]
    assert [(d, tuple(sorted(set(f)))) for d, f in shapes] == list(zip(frame["depth"], frame["features"]))
    assert frame["leaves"].tolist() == [t.n_leaves for t in rs]
    assert sorted(zip(frame["depth"], frame["features"])) == \
        sorted((t.depth, tuple(f"x{j}" for j in sorted(t.features))) for t in expected)
    counts = rs.objective_counts()
    assert counts["count"].sum() == len(rs)
    for k in {1, max(1, len(rs) // 2)}:                              # a larger set shows its first (best) trees
        assert rs.to_frame(max_trees=k).equals(frame.head(k))
    assert len(rs.to_frame(max_trees=0)) == 0
    with pytest.raises(ValueError, match="max_trees"):
        rs.to_frame(max_trees=-1)


@pytest.mark.parametrize("seed", range(4))
def test_split_groups_and_representatives(seed):
    X, y, w, rs, expected = _setup(seed, epsilon=0.8)
    sub = rs.filter(max_depth=3) if seed % 2 else rs
    kept = [t for t in expected if seed % 2 == 0 or t.depth <= 3]

    def first(node):
        return -1 if node[0] == "leaf" else node[1]

    groups = {}
    for t in kept:
        key = (-1, -1, -1) if t.tree[0] == "leaf" else (t.tree[1], first(t.tree[2]), first(t.tree[3]))
        groups.setdefault(key, []).append(t)
    frame = sub.split_groups()
    name = {-1: "leaf", **{j: f"x{j}" for j in range(3)}}
    got = {(r, l, rr): c for r, l, rr, c in zip(frame["root"], frame["left"], frame["right"], frame["count"])}
    assert got == {tuple(name[k] for k in key): len(v) for key, v in groups.items()}
    assert frame["count"].tolist() == sorted(frame["count"], reverse=True)
    for key, members in groups.items():
        best = min(t.objective for t in members)
        tree = sub.representative(*[name[k] for k in key]) if key[0] != -1 else sub.representative("leaf")
        assert tree.objective(X, y, 0.03, binarized=True) == pytest.approx(best)
        assert as_tuple(tree) in {t.tree for t in members}
    root = next(iter(groups))[0]
    if root != -1:
        assert sub.representative(name[root]).objective(X, y, 0.03, binarized=True) == pytest.approx(
            min(t.objective for k, v in groups.items() if k[0] == root for t in v))
