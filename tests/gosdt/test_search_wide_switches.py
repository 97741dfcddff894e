"""The search with the wide-data switches keeps every optimum: each switched off in turn, against the oracle.

The switch ``depth_two`` closes unbudgeted problems only on data with at least
``GOSDT.wide_features`` columns, so ``WideGOSDT`` lowers that threshold to reach the same code on
oracle-sized data.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import lambdas, problems, threshold_problems

from engine_checks import WideGOSDT, check


WIDE = ["depth_two", "depth_three", "depth_four", "depth_five_six", "sorted_depth_two", "similar_support", "completions", "dives", "bound_dives",
        "completion_dives", "child_slack", "depth_two_start", "depth_three_start"]


@pytest.mark.parametrize("switch", [None] + WIDE)
@settings(max_examples=25, deadline=None)
@given(data=problems() | problems(weights="int") | problems(weights="float") | threshold_problems(), lam=lambdas,
       depth=st.sampled_from([None, None, 1, 2, 3, 4, 5]))
def test_gosdt_with_the_wide_switches_matches_the_oracle(switch, data, lam, depth):
    X, y, w = data
    solver = check(WideGOSDT, X, y, w, lam, bounds=None if switch is None else {switch: False}, depth=depth)
    if switch is not None:
        assert solver.prune_counts[switch] == 0


@settings(max_examples=25, deadline=None)
@given(data=problems(n_classes=3), lam=lambdas)
def test_gosdt_wide_switches_multiclass(data, lam):
    X, y, w = data
    check(WideGOSDT, X, y, w, lam, objective="balanced_accuracy")
