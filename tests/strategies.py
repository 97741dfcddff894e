"""Hypothesis strategies shared by the oracle tests: small random problems and values of λ.

Every solver's oracle test (``tests/gosdt/``, ``tests/frontier/``, ...) draws its data here, so
the same planted rules, weights and ties reach every solver.
"""

import numpy as np
from hypothesis import strategies as st

LAMBDAS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.3]
# Round values hit exact ties (a leaf loss equal to λ); arbitrary ones hit everything in between.
lambdas = st.sampled_from(LAMBDAS) | st.floats(0.002, 0.4)


@st.composite
def problems(draw, n_classes=2, weights=None, max_rows=40, max_features=6):
    """(X, y, sample_weight) with every class present; weights None, 'int' or 'float'.

    Sizes are drawn half the time from the upper half of the range (hypothesis
    favours tiny examples), and labels follow a planted rule (a conjunction or
    a parity of two features, with noise) half the time, so that the optimal
    trees have several levels and the bounds have something to cut.
    """
    n_features = draw(st.integers(1, max_features) | st.integers(max(1, max_features - 2), max_features))
    n_rows = draw(st.integers(n_classes, max_rows) | st.integers(max_rows // 2, max_rows))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features, max_size=n_features),
                               min_size=n_rows, max_size=n_rows)), dtype=int)
    noise = draw(st.lists(st.integers(0, n_classes - 1), min_size=n_rows, max_size=n_rows))
    rule = draw(st.sampled_from(["random", "and", "xor"]))
    if rule == "random":
        y = np.array(noise)
    else:
        a, b = draw(st.integers(0, n_features - 1)), draw(st.integers(0, n_features - 1))
        planted = (X[:, a] & X[:, b]) if rule == "and" else (X[:, a] ^ X[:, b])
        flip = np.ones(n_rows, dtype=bool)
        for _ in range(draw(st.integers(1, 3))):      # noise rate 1/2, 1/4 or 1/8
            flip &= np.array(draw(st.lists(st.booleans(), min_size=n_rows, max_size=n_rows)))
        y = np.where(flip, np.array(noise), planted % n_classes)
    y[:n_classes] = np.arange(n_classes)            # every class present
    if weights == "int":
        w = np.array(draw(st.lists(st.integers(0, 4), min_size=n_rows, max_size=n_rows)), dtype=float)
        w[:n_classes] += 1                          # every class keeps some weight
    elif weights == "float":
        w = np.array(draw(st.lists(st.floats(0.05, 3.0), min_size=n_rows, max_size=n_rows)))
    else:
        w = None
    return X, y, w


@st.composite
def threshold_problems(draw, n_classes=2, max_rows=40, max_features=7):
    """(X, y, None): numeric columns encoded by all their thresholds, as chains of nested features.

    One to three numeric columns with small integer values, each as its features
    ``x <= t`` for rising ``t`` (or ``x > t``, a falling chain), sometimes with a plain
    binary column after them; labels by a planted threshold rule (with noise) or at random.
    This is the data of ``treeopt/solvers/gosdt/sorted_depth_two.py`` (chains), kept within
    ``max_features`` so that the brute-force oracle stays fast. The values come from a
    drawn seed, so that the smallest example stays small.
    """
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_rows = draw(st.integers(n_classes, max_rows) | st.integers(max_rows // 2, max_rows))
    n_columns = draw(st.integers(1, 3))
    columns, blocks, used = [], [], 0
    for _ in range(n_columns):
        values = rng.integers(0, draw(st.integers(1, 4)) + 1, size=n_rows)
        thresholds = np.unique(values)[:-1][:max_features - used]
        if len(thresholds) == 0:
            continue
        block = values[:, None] <= thresholds[None, :]
        if draw(st.booleans()):
            block = ~block                                  # x > t: the chain falls
        columns.append(values)
        blocks.append(block)
        used += block.shape[1]
        if used < max_features and draw(st.booleans()):
            blocks.append(rng.random((n_rows, 1)) < 0.5)
            used += 1
    if not blocks:
        columns.append(np.arange(n_rows) % 2)
        blocks.append(columns[0][:, None] <= 0)
    X = np.concatenate(blocks, axis=1).astype(int)
    noise = rng.integers(0, n_classes, size=n_rows)
    if draw(st.booleans()):
        a, b = rng.integers(0, len(columns), size=2)
        planted = ((columns[a] >= 2).astype(int) ^ (columns[b] % 2)) % n_classes
        y = np.where(rng.random(n_rows) < 0.25, noise, planted)
    else:
        y = noise
    y[:n_classes] = np.arange(n_classes)
    return X, y, None
