"""GOSDT certifies the optimum of every public binary dataset and matches reference_optima.csv.

The objective is recomputed from the returned tree's predictions (Tree.objective), not taken
from the solver's bookkeeping. CI checks λ ∈ {0.02, 0.05}; ``make bench`` checks all four.
"""

import numpy as np
import pytest

from treeopt.data import Dataset
from treeopt.solvers import GOSDT

from conftest import read_binary, require_datasets

DATASETS = ["monk1", "monk2", "monk3", "tic-tac-toe", "car-evaluation", "balance-scale",
            "compas-binary", "fico-binary"]


@pytest.mark.parametrize("lam", [0.05, 0.02])
@pytest.mark.parametrize("name", DATASETS)
def test_matches_reference(name, lam, reference_optima):
    require_datasets()
    X, y = read_binary(name)
    row = reference_optima[(reference_optima.dataset == name) & np.isclose(reference_optima["lambda"], lam)
                           & (reference_optima.problem == "R")]
    assert len(row) == 1, "reference row missing"
    result = GOSDT(Dataset.from_binary(X, y), regularization=lam).run(time_limit=300)
    assert result.optimal, f"not certified within 300 s ({result.status})"
    recomputed = result.tree.objective(X, y, lam, binarized=True)
    assert recomputed == pytest.approx(row.reference_objective.iloc[0], abs=1e-9)
    assert result.objective == pytest.approx(recomputed, abs=1e-9)
    assert result.lower_bound == pytest.approx(recomputed, abs=1e-9)
