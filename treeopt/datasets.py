"""Small datasets that treeopt embeds or generates (no downloads needed).

Every dataset here is typed in or generated from its defining rule, so the
notebooks and the demo run anywhere, offline:

* :func:`load_restaurant` and :func:`load_restaurant_pruning`: the two tables
  of the decision-tree lecture slides ("Decision trees" lecture slides), typed in;
* :func:`load_monk`: the MONK problems from their defining rules;
* :func:`load_balance_scale`: the balance-scale data from its rule (625 rows);
* :func:`load_tic_tac_toe`: the tic-tac-toe endgames, by enumerating every
  game (958 rows);
* :func:`make_spiral` and :func:`make_four_class`: synthetic 2-D data;
* :func:`load_breast_cancer`, :func:`load_iris`, :func:`load_wine`:
  scikit-learn's bundled datasets as frames.

Every loader returns ``(X, y)``: a DataFrame of features and a Series target.
The generated and bundled datasets come out in a shuffled, fixed order
(``shuffle=True``, the default: the same permutation on every call, with a
fresh index 0, 1, ...; ``shuffle=False`` gives the generation order). Generated in
order they would be sorted by attribute or by class, and scikit-learn's
default ``cv`` (``StratifiedKFold`` without shuffling) would then train each
fold on a corner of the data: ``cross_val_score`` on MONK-1 in generation
order scores 0.5 on every fold. The two lecture tables keep the slides' order
(customer 1, 2, ...), which mixes the classes already.
:func:`fetch_compas` and :func:`fetch_fico` read a local copy, or download
the public file once into a cache (optional; nothing else needs a network).
"""

from __future__ import annotations

import os
import urllib.request
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["load_monk", "MONK_ATTRIBUTES", "load_restaurant", "load_restaurant_pruning", "load_balance_scale",
           "load_tic_tac_toe", "make_spiral", "make_four_class", "load_breast_cancer", "load_iris", "load_wine",
           "fetch_compas", "fetch_fico", "TIC_TAC_TOE_SQUARES"]

#: The six MONK attributes and their values, in the order of the UCI files (value k is coded k+1 there).
MONK_ATTRIBUTES = {
    "head_shape": ["round", "square", "octagon"],
    "body_shape": ["round", "square", "octagon"],
    "is_smiling": ["yes", "no"],
    "holding": ["sword", "balloon", "flag"],
    "jacket_color": ["red", "yellow", "green", "blue"],
    "has_tie": ["yes", "no"],
}

#: Seed of the fixed permutation the loaders apply with ``shuffle=True``.
SHUFFLE_SEED = 0


def _in_fixed_order(X: pd.DataFrame, y: pd.Series, shuffle: bool,
                    seed: int | None = SHUFFLE_SEED) -> tuple[pd.DataFrame, pd.Series]:
    """``(X, y)`` with rows permuted by ``seed`` when ``shuffle``, indexed 0, 1, ... again."""
    if not isinstance(shuffle, (bool, np.bool_)):
        raise ValueError(f"shuffle must be True or False, got {shuffle!r}.")
    if not shuffle:
        return X, y
    order = np.random.default_rng(seed).permutation(len(X))
    return X.iloc[order].reset_index(drop=True), y.iloc[order].reset_index(drop=True)


def _monk_label(problem: int, row: dict) -> int:
    if problem == 1:
        return int(row["head_shape"] == row["body_shape"] or row["jacket_color"] == "red")
    if problem == 2:
        firsts = sum(row[a] == values[0] for a, values in MONK_ATTRIBUTES.items())
        return int(firsts == 2)
    if problem == 3:
        return int((row["jacket_color"] == "green" and row["holding"] == "sword")
                   or (row["jacket_color"] != "blue" and row["body_shape"] != "octagon"))
    raise ValueError(f"MONK problem must be 1, 2 or 3, got {problem!r}.")


def load_monk(problem: int = 1, *, codes: bool = False, shuffle: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """All 432 robots of a MONK problem, labelled by the problem's defining rule.

    The MONK's problems (Thrun et al., 1991) describe robots by six
    categorical attributes. The class is:

    1. ``head_shape == body_shape or jacket_color == red``;
    2. exactly two attributes take their first value;
    3. ``(jacket_color == green and holding == sword) or
       (jacket_color != blue and body_shape != octagon)`` (the UCI training
       set adds 5% label noise; this generated set has none).

    The 432 rows are the UCI ``monks-N.test`` files.

    Parameters
    ----------
    problem : {1, 2, 3}
    codes : bool, default=False
        Return the UCI integer codes (1, 2, ...) instead of value names.
    shuffle : bool, default=True
        Rows in a fixed shuffled order (the same on every call). ``False``: the
        generation order, which is sorted by attribute, so unshuffled folds
        (scikit-learn's default ``cv``) see a corner of the data.

    Returns
    -------
    X : DataFrame of shape (432, 6)
        Categorical (string) columns, or integer codes.
    y : Series of int
        The class (0/1), named ``class``.

    Examples
    --------
    >>> X, y = load_monk(1)
    >>> X.shape, int(y.sum())
    ((432, 6), 216)
    """
    rows = []
    for values in product(*MONK_ATTRIBUTES.values()):
        rows.append(dict(zip(MONK_ATTRIBUTES, values)))
    y = pd.Series([_monk_label(problem, r) for r in rows], name="class")
    X = pd.DataFrame(rows)
    if codes:
        X = pd.DataFrame({a: X[a].map({v: i + 1 for i, v in enumerate(vals)})
                          for a, vals in MONK_ATTRIBUTES.items()})
    return _in_fixed_order(X, y, shuffle)


# -- the lecture slides' tables ---------------------------------------------------------

_RESTAURANT_COLUMNS = ["OthOptions", "Weekend", "WaitArea", "Plans", "Price", "Precip", "Restaur", "Wait",
                       "Crowded"]
_RESTAURANT_ROWS = [
    ("Yes", "No", "No", "Yes", "$$$", "No", "Mateo", "0-5", "some", "Yes"),
    ("Yes", "No", "No", "Yes", "$", "No", "Juju", "16-30", "full", "No"),
    ("No", "No", "Yes", "No", "$", "No", "Pizza", "0-5", "some", "Yes"),
    ("Yes", "Yes", "No", "Yes", "$", "No", "Juju", "6-15", "full", "Yes"),
    ("Yes", "Yes", "No", "No", "$$$", "No", "Mateo", "30+", "full", "No"),
    ("No", "No", "Yes", "Yes", "$$", "Yes", "BlueCorn", "0-5", "some", "Yes"),
    ("No", "No", "Yes", "No", "$", "Yes", "Pizza", "0-5", "none", "No"),
    ("No", "No", "No", "Yes", "$$", "Yes", "Juju", "0-5", "some", "Yes"),
    ("No", "Yes", "Yes", "No", "$", "Yes", "Pizza", "30+", "full", "No"),
    ("Yes", "Yes", "Yes", "Yes", "$$$", "No", "BlueCorn", "6-15", "full", "No"),
    ("No", "No", "No", "No", "$", "No", "Juju", "0-5", "none", "No"),
    ("Yes", "Yes", "Yes", "Yes", "$", "No", "Pizza", "16-30", "full", "Yes"),
]


def load_restaurant() -> tuple[pd.DataFrame, pd.Series]:
    """The restaurant table of the lecture slides (12 customers; adapted from Russell & Norvig).

    Will the customer wait for a table? Nine categorical attributes
    (``OthOptions``, ``Weekend``, ``WaitArea``, ``Plans``, ``Price``,
    ``Precip``, ``Restaur``, ``Wait``, ``Crowded``); target ``Stay?``
    (``Yes``/``No``, 6 each). Typed in from the slides ("Decision trees" lecture slides, part 1).

    Returns
    -------
    X : DataFrame of shape (12, 9)
        String columns.
    y : Series
        ``Yes``/``No``, named ``Stay?``.

    Examples
    --------
    >>> X, y = load_restaurant()
    >>> X.shape, y.value_counts().to_dict()
    ((12, 9), {'Yes': 6, 'No': 6})
    >>> pd.crosstab(X["Crowded"], y).loc[["none", "some", "full"]].values.tolist()
    [[2, 0], [0, 4], [4, 2]]
    """
    frame = pd.DataFrame(_RESTAURANT_ROWS, columns=_RESTAURANT_COLUMNS + ["Stay?"],
                         index=pd.RangeIndex(1, 13, name="customer"))
    return frame[_RESTAURANT_COLUMNS], frame["Stay?"]


_PRUNING_ROWS = [("Some", "$$"), ("Some", "$$$"), ("None", "$$"), ("Some", "$$"), ("None", "$$"),
                 ("None", "$$$$"), ("None", "$$"), ("None", "$"), ("Some", "$$"), ("None", "$$"),
                 ("Some", "$"), ("Full", "$$"), ("None", "$$"), ("None", "$"), ("Some", "$$$"), ("None", "$")]


def load_restaurant_pruning() -> tuple[pd.DataFrame, pd.Series]:
    """The 16-row "Crowded/Price" table of the slides' C4.5 pruning example (part 3).

    Every customer stays except the one who finds the restaurant full, so a
    split on ``Crowded`` fits the data perfectly and pessimistic pruning
    collapses it anyway (upper bound .204 for the split, about .157 for the leaf).

    Returns
    -------
    X : DataFrame of shape (16, 2)
        ``Crowded`` (None/Some/Full) and ``Price`` ($ to $$$$).
    y : Series
        ``Yes``/``No``, named ``Stay?``.

    Examples
    --------
    >>> X, y = load_restaurant_pruning()
    >>> X["Crowded"].value_counts().to_dict(), int((y == "No").sum())
    ({'None': 9, 'Some': 6, 'Full': 1}, 1)
    """
    frame = pd.DataFrame(_PRUNING_ROWS, columns=["Crowded", "Price"], index=pd.RangeIndex(1, 17, name="customer"))
    y = pd.Series(np.where(frame["Crowded"] == "Full", "No", "Yes"), index=frame.index, name="Stay?")
    return frame, y


# -- generated from their defining rules -------------------------------------------------

def load_balance_scale(*, shuffle: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """The balance-scale data (UCI #12), generated from its rule: 625 rows.

    A scale with a weight (1-5) at a distance (1-5) on each side tips to
    the side with the larger torque ``weight × distance``, or balances.
    Every combination appears once.

    Parameters
    ----------
    shuffle : bool, default=True
        Rows in a fixed shuffled order (the same on every call). ``False``: the
        generation order, which is sorted by attribute, so unshuffled folds
        (scikit-learn's default ``cv``) see a corner of the data.

    Returns
    -------
    X : DataFrame of shape (625, 4)
        ``left_weight``, ``left_distance``, ``right_weight``, ``right_distance`` (integers 1-5).
    y : Series
        ``L``, ``B`` or ``R``, named ``class``.

    Examples
    --------
    >>> X, y = load_balance_scale()
    >>> X.shape, dict(sorted(y.value_counts().items()))
    ((625, 4), {'B': 49, 'L': 288, 'R': 288})
    """
    rows = list(product(range(1, 6), repeat=4))
    X = pd.DataFrame(rows, columns=["left_weight", "left_distance", "right_weight", "right_distance"])
    left = X["left_weight"] * X["left_distance"]
    right = X["right_weight"] * X["right_distance"]
    y = pd.Series(np.select([left > right, left < right], ["L", "R"], "B"), name="class")
    return _in_fixed_order(X, y, shuffle)


#: The nine squares of the board in the UCI order (row by row, from the top left).
TIC_TAC_TOE_SQUARES = ["top_left", "top_middle", "top_right", "middle_left", "middle_middle", "middle_right",
                       "bottom_left", "bottom_middle", "bottom_right"]
_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _wins(board: tuple, player: str) -> bool:
    return any(board[a] == board[b] == board[c] == player for a, b, c in _LINES)


def load_tic_tac_toe(*, shuffle: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """The tic-tac-toe endgame data (UCI #101), generated by playing every game: 958 rows.

    ``x`` moves first; a game ends when a player completes a line or the
    board is full. Each distinct final board is one row; the class is
    ``positive`` when ``x`` has three in a row.

    Parameters
    ----------
    shuffle : bool, default=True
        Rows in a fixed shuffled order (the same on every call). ``False``: the
        generation order, which is sorted by attribute, so unshuffled folds
        (scikit-learn's default ``cv``) see a corner of the data.

    Returns
    -------
    X : DataFrame of shape (958, 9)
        One column per square (:data:`TIC_TAC_TOE_SQUARES`), values ``x``, ``o`` or ``b`` (blank).
    y : Series
        ``positive`` or ``negative``, named ``class``.

    Examples
    --------
    >>> X, y = load_tic_tac_toe()
    >>> X.shape, y.value_counts().to_dict()
    ((958, 9), {'positive': 626, 'negative': 332})
    """
    finals: set = set()
    seen: set = set()
    stack = [(("b",) * 9, "x")]
    while stack:
        board, player = stack.pop()
        if (board, player) in seen:
            continue
        seen.add((board, player))
        if _wins(board, "x") or _wins(board, "o") or "b" not in board:
            finals.add(board)
            continue
        following = "o" if player == "x" else "x"
        for square in range(9):
            if board[square] == "b":
                stack.append((board[:square] + (player,) + board[square + 1:], following))
    boards = sorted(finals)
    X = pd.DataFrame(boards, columns=TIC_TAC_TOE_SQUARES)
    y = pd.Series(["positive" if _wins(b, "x") else "negative" for b in boards], name="class")
    return _in_fixed_order(X, y, shuffle)


def make_spiral(n_samples: int = 100, *, turns: float = 1.5, noise: float = 0.0,
                random_state: int | None = 0, shuffle: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """Two interleaved spirals in the plane: a classic that greedy axis-aligned splits find hard.

    Point ``i`` of class ``c`` lies at angle ``θ = 2π · turns · t`` and radius
    ``0.5 · (1 - t)`` (``t`` evenly spaced in ``[0, 1)``), rotated by π for
    class 1, plus Gaussian noise of standard deviation ``noise``.

    Parameters
    ----------
    n_samples : int, default=100
        Total number of points (split evenly between the classes).
    turns : float, default=1.5
    noise : float, default=0.0
    random_state : int or None, default=0
        Seed for the noise and the order of the rows.
    shuffle : bool, default=True
        Rows in an order shuffled by ``random_state``. ``False``: class 0's
        points, then class 1's.

    Returns
    -------
    X : DataFrame with columns ``feat1``, ``feat2``
    y : Series of int (0/1), named ``target``

    Examples
    --------
    >>> X, y = make_spiral(100)
    >>> X.shape, y.value_counts().sort_index().to_dict()
    ((100, 2), {0: 50, 1: 50})
    """
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}.")
    if noise < 0:
        raise ValueError(f"noise must be non-negative, got {noise!r}.")
    rng = np.random.default_rng(random_state)
    sizes = [n_samples // 2, n_samples - n_samples // 2]
    xs, labels = [], []
    for label, size in enumerate(sizes):
        t = np.arange(size) / size
        theta = 2 * np.pi * turns * t + np.pi * label
        radius = 0.5 * (1 - t)
        xs.append(np.column_stack([radius * np.cos(theta), radius * np.sin(theta)]))
        labels.append(np.full(size, label))
    points = np.vstack(xs) + rng.normal(0.0, noise, size=(n_samples, 2)) if noise else np.vstack(xs)
    X = pd.DataFrame(np.round(points, 6), columns=["feat1", "feat2"])
    return _in_fixed_order(X, pd.Series(np.concatenate(labels), name="target"), shuffle, random_state)


def make_four_class(n_samples: int = 862, *, random_state: int | None = 0) -> tuple[pd.DataFrame, pd.Series]:
    """Irregular two-class regions in the square, in the spirit of the "fourclass" benchmark (Ho & Kleinberg).

    Points are uniform in ``[0, 200] × [0, 200]`` (rounded to integers, as in
    fourclass); class 1 is the union of four shapes (two discs, a bar and an
    L), class 0 the rest. Axis-aligned trees need many leaves for the discs
    but few for the bar and the L, which makes the accuracy–sparsity trade-off
    visible.

    Returns
    -------
    X : DataFrame with columns ``x1``, ``x2`` (integers)
    y : Series of int (0/1), named ``target``

    Examples
    --------
    >>> X, y = make_four_class(500)
    >>> X.shape, sorted(y.unique().tolist())
    ((500, 2), [0, 1])
    """
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}.")
    rng = np.random.default_rng(random_state)
    a, b = rng.integers(0, 201, size=(2, n_samples))
    inside = ((a - 50) ** 2 + (b - 150) ** 2 <= 30 ** 2) | ((a - 150) ** 2 + (b - 60) ** 2 <= 35 ** 2)
    inside |= (a >= 20) & (a <= 110) & (b >= 30) & (b <= 55)
    inside |= ((a >= 120) & (a <= 190) & (b >= 150) & (b <= 170)) | ((a >= 170) & (a <= 190) & (b >= 110) & (b <= 170))
    return pd.DataFrame({"x1": a, "x2": b}), pd.Series(inside.astype(int), name="target")


# -- scikit-learn's bundled datasets -------------------------------------------------------

def _sklearn_frame(loader, shuffle: bool) -> tuple[pd.DataFrame, pd.Series]:
    bunch = loader(as_frame=True)
    names = [str(name) for name in bunch.target_names]
    return _in_fixed_order(bunch.data, pd.Series([names[k] for k in bunch.target], name="target"), shuffle)


def load_breast_cancer(*, shuffle: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """scikit-learn's breast cancer data (569 rows, 30 numeric columns; ``malignant``/``benign``).

    Parameters
    ----------
    shuffle : bool, default=True
        Rows in a fixed shuffled order (the same on every call).
        ``False``: scikit-learn's order.

    Examples
    --------
    >>> X, y = load_breast_cancer()
    >>> X.shape, sorted(y.unique())
    ((569, 30), ['benign', 'malignant'])
    """
    from sklearn.datasets import load_breast_cancer as loader

    return _sklearn_frame(loader, shuffle)


def load_iris(*, shuffle: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """scikit-learn's iris data (150 rows, 4 numeric columns, 3 species).

    Parameters
    ----------
    shuffle : bool, default=True
        Rows in a fixed shuffled order (the same on every call).
        ``False``: scikit-learn's order, sorted by species.

    Examples
    --------
    >>> X, y = load_iris()
    >>> X.shape, y.nunique()
    ((150, 4), 3)
    """
    from sklearn.datasets import load_iris as loader

    return _sklearn_frame(loader, shuffle)


def load_wine(*, shuffle: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """scikit-learn's wine data (178 rows, 13 numeric columns, 3 cultivars).

    Parameters
    ----------
    shuffle : bool, default=True
        Rows in a fixed shuffled order (the same on every call).
        ``False``: scikit-learn's order, sorted by cultivar.

    Examples
    --------
    >>> X, y = load_wine()
    >>> X.shape, y.nunique()
    ((178, 13), 3)
    """
    from sklearn.datasets import load_wine as loader

    return _sklearn_frame(loader, shuffle)


# -- optional downloads --------------------------------------------------------------------

#: Public sources of the optional downloads (the files the papers' experiments use).
SOURCES = {
    "compas": "https://raw.githubusercontent.com/ubc-systopia/gosdt-guesses/main/datasets/compas.csv",
    "fico": "https://raw.githubusercontent.com/xiyanghu/OSDT/master/data/preprocessed/fico_binary.csv",
}


def _cache_dir(cache_dir) -> Path:
    if cache_dir is not None:
        return Path(cache_dir)
    return Path(os.environ.get("TREEOPT_DATA", Path.home() / ".cache" / "treeopt"))


def _download(url: str, target: Path) -> None:
    """Fetch ``url`` to ``target`` (a separate function so tests can replace it)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    with urllib.request.urlopen(url, timeout=30) as response, open(partial, "wb") as out:
        out.write(response.read())
    partial.replace(target)


def _fetch(name: str, path, cache_dir, url, sep: str) -> tuple[pd.DataFrame, pd.Series]:
    if path is not None:
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"{path} does not exist; give the path of your local copy of the {name} "
                                    f"file, or path=None to download it from {url or SOURCES[name]}.")
    else:
        url = url or SOURCES[name]
        path = _cache_dir(cache_dir) / f"{name}.csv"
        if not path.exists():
            try:
                _download(url, path)
            except OSError as error:
                raise ConnectionError(
                    f"could not download the {name} data from {url} ({error}). Without a network, download "
                    f"it elsewhere and pass path='.../{name}.csv', or put it at {path}.") from None
    frame = pd.read_csv(path, sep=sep)
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def fetch_compas(path=None, *, cache_dir=None, url: str | None = None) -> tuple[pd.DataFrame, pd.Series]:
    """The COMPAS two-year recidivism data as used by GOSDT (6907 rows, 7 numeric columns).

    Reads ``path`` when given; otherwise downloads the public file once into
    ``cache_dir`` (default ``$TREEOPT_DATA`` or ``~/.cache/treeopt``) and
    reads the cached copy afterwards.

    Parameters
    ----------
    path : str or Path, optional
        A local copy (comma-separated, header, last column = label).
    cache_dir : str or Path, optional
    url : str, optional
        Another source than :data:`SOURCES` ``["compas"]``.

    Raises
    ------
    ConnectionError
        When the download fails (offline), with what to do instead.
    """
    return _fetch("compas", path, cache_dir, url, ",")


def fetch_fico(path=None, *, cache_dir=None, url: str | None = None) -> tuple[pd.DataFrame, pd.Series]:
    """The FICO HELOC data binarized as in OSDT (10459 rows, 17 binary columns; ``;``-separated).

    Same behaviour as :func:`fetch_compas`. The data comes under the FICO
    Explainable Machine Learning Challenge terms.
    """
    return _fetch("fico", path, cache_dir, url, ";")
