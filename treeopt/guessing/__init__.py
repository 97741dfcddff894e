"""Guessing (McTavish et al., *Fast sparse decision tree optimization via reference ensembles*, AAAI 2022).

Three guesses trade a proof of optimality for speed, each with a guarantee:

* thresholds (section 4.1): :class:`ThresholdGuessBinarizer` keeps the
  thresholds a boosted reference model needs (Theorem 4.1:
  :func:`threshold_guarantee`);
* depth (section 4.2): :func:`depth_guess` (Theorem 4.2), used as ``depth_budget``;
* lower bounds (section 4.3): :func:`reference_errors` feeds
  ``GOSDT(reference_errors=...)`` (Theorem 4.3: :func:`lower_bound_guarantee`).

Examples
--------
>>> from treeopt.guessing import depth_guess
>>> depth_guess(20, 8)
12
"""

from .depth import depth_guess
from .guarantees import guess_bound, lower_bound_guarantee, threshold_guarantee
from .lower_bounds import reference_errors
from .reference import ReferenceInput, fit_reference_model, make_reference_model
from .thresholds import ThresholdGuessBinarizer

__all__ = ["ThresholdGuessBinarizer", "depth_guess", "reference_errors", "threshold_guarantee",
           "lower_bound_guarantee", "guess_bound", "make_reference_model", "fit_reference_model",
           "ReferenceInput"]
