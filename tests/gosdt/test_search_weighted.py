"""Weighted GOSDT searches end with the root solved (the queue never runs dry before).

Sample weights make the objective's values non-integer multiples of λ, so orders of events
that integer counts rarely produce happen at once. Two bookkeeping rules of the search must
then hold exactly:

- a completion (a child's best depth-one subtree, ``completions``) lowers the child's upper
  bound, and every other parent of that child hears of it, also when the split that created
  the completion was dropped at once by the hierarchical bound (Theorem B.3);
- a problem's splits count as explored only up to the target its children were last judged
  against: a child dropped as unneeded (``scope``) is queued again when a parent's scope rises.

Each dataset below is a list of rows ``"f0 f1 f2 f3 f4 f5 y w"`` written as one string of digits.
"""

import numpy as np
import pytest

from treeopt import OptimalTreeClassifier
from treeopt.data import Dataset
from treeopt.solvers import GOSDT

from test_search_propagation import equation_seven

#: Six binary features, a label and an integer weight from 1 to 5 per row; at λ = 0.01 its
#: search dropped a child under a parent whose scope later rose again.
DROPPED_CHILD_ROWS = (
    "11010111 10100105 00000112 11010013 00000014 01100013 10000101 10110015 01000013 01011112 "
    "10110103 11011104 11000105 10011113 11101101 11100003 11100102 00110002 10101115 11010005 "
    "10000004 01000011 10110111 10001114 10100101 01010112 00000114 10001014 11101101 00100103 "
    "01111015 10011112 10101015 10101012 10110102 01000112 10000004 10001102 10100112 01000112 "
    "10010004 00101111 00100013 10100101 11110113 00000101 11010112 00100001 10110104 00111114 "
    "10110001 10000005 11011001")

#: At λ = 0.005 a dive's completion lowered the upper bound of a child whose split the
#: hierarchical bound dropped, and the child's other parent kept its old upper bound.
DROPPED_SPLIT_ROWS = (
    "11101115 11101103 01100002 10100113 00010101 01110103 11000004 10011003 00111114 10101115 "
    "00000003 01000102 10011004 11010105 10101003 11011101 10111002 10100104 01011004 00101014 "
    "11010015 00110013 00011013 00100002 11111014 10011014 10010012 00011012 00111002 10001011 "
    "11010015 11001004 11100102 01011003 01001005 01010002 10001111 01111014 01111003 10001102 "
    "01100011 10110103 01101112 00000102 00101014 10110101 10000002 10111102 10100113 01001112 "
    "00111105 01101013 10101111 01100104 00110015 10110115 11110114")


def rows(text: str):
    """Features, labels and weights of rows written as digit strings."""
    table = np.array([[int(c) for c in row] for row in text.split()])
    return table[:, :6], table[:, 6], table[:, 7].astype(float)


def test_estimator_fits_the_weighted_case_to_optimality():
    X, y, w = rows(DROPPED_CHILD_ROWS)
    model = OptimalTreeClassifier(regularization=0.01, solver="gosdt").fit(X, y, sample_weight=w)
    without_scope = OptimalTreeClassifier(regularization=0.01, solver="gosdt",
                                          bounds={"scope": False}).fit(X, y, sample_weight=w)
    assert model.status_ == "optimal"
    assert model.upper_bound_ == pytest.approx(without_scope.upper_bound_)


@pytest.mark.parametrize("text,regularization", [(DROPPED_CHILD_ROWS, 0.01), (DROPPED_SPLIT_ROWS, 0.005)],
                         ids=["dropped child", "dropped split"])
def test_weighted_search_keeps_every_problem_as_tight_as_its_splits(text, regularization):
    X, y, w = rows(text)
    data = Dataset.from_binary(X, y, sample_weight=w)
    solver = GOSDT(data, regularization=regularization)
    while solver.step(1):
        for problem in solver.problems.values():
            if problem.splits is None or problem.solved:
                continue
            assert problem.ub <= equation_seven(problem)[1] + solver.eps
    result = solver.result()
    reference = GOSDT(data, regularization=regularization, bounds={"scope": False, "completions": False}).run()
    assert result.optimal and result.objective == pytest.approx(reference.objective)
