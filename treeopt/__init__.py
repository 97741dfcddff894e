"""treeopt: provably optimal sparse decision trees you can pause, inspect and watch.

Examples
--------
>>> from treeopt import OptimalTreeClassifier
>>> from treeopt.datasets import load_monk
>>> X, y = load_monk(1)
>>> clf = OptimalTreeClassifier(regularization=0.05).fit(X, y)
>>> clf.optimal_
True
"""

from .binarize import Binarizer, BinaryFeature
from .bounds_lab import Subproblem, check_bound, lower_bound, queue_policy
from .building import make_solver
from .data import Dataset
from .estimator import OptimalTreeClassifier
from .estimator_cv import OptimalTreeClassifierCV
from .frontier.cross_validation import CVFrontier
from .frontier.result import Frontier
from .frontiers import cross_validate_frontier, frontier
from .greedy_estimators import GreedyTreeClassifier, GreedyTreeRegressor
from .guessing import ThresholdGuessBinarizer, depth_guess
from .objectives import Accuracy, BalancedAccuracy, WeightedAccuracy, get_objective
from .registry import SOLVERS
from .regularization import DEFAULT_REGULARIZATION
from .slow_certificate import SlowCertificateWarning
from .solvers import GOSDT, OSDT, Branches, DepthDeepening, Portfolio
from .ablations import ablation
from .rashomon import RashomonSet
from .rashomon_sets import rashomon_set
from .tree import Leaf, MultiwaySplit, Split, Tree

__version__ = "0.1.0"

__all__ = ["OptimalTreeClassifier", "OptimalTreeClassifierCV", "Dataset", "Binarizer", "BinaryFeature", "Tree", "Leaf", "Split", "MultiwaySplit",
           "GOSDT", "Branches", "SOLVERS", "make_solver", "Accuracy", "BalancedAccuracy", "WeightedAccuracy", "get_objective",
           "frontier", "Frontier", "cross_validate_frontier", "CVFrontier", "OSDT", "ablation",
           "GreedyTreeClassifier", "GreedyTreeRegressor", "ThresholdGuessBinarizer", "depth_guess", "rashomon_set",
           "RashomonSet", "DepthDeepening", "Portfolio", "SlowCertificateWarning", "DEFAULT_REGULARIZATION",
           "lower_bound", "queue_policy", "check_bound", "Subproblem"]
