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
