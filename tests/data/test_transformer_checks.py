"""The binarizers are scikit-learn transformers: every check of ``parametrize_with_checks`` passes."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from treeopt import Binarizer
from treeopt.guessing import ThresholdGuessBinarizer


@parametrize_with_checks([Binarizer(), Binarizer(missing="indicator", max_thresholds=3),
                          ThresholdGuessBinarizer(n_estimators=5, random_state=0)])
def test_binarizers_pass_scikit_learn_transformer_checks(estimator, check):
    check(estimator)
