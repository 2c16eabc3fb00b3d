"""A column constant in the data is reported once per call, not once per fold, and a
column constant only inside some folds is not reported at all."""

import warnings

import numpy as np
import pytest

from sfmlearn import RepetitiveSFM, SupportFeatureMachineCV, WestonZeroNormSVMCV, compare_budgets
from sfmlearn.datasets import make_weston
from sfmlearn.diagnostics.budget_paths import SFMPath
from sfmlearn.exceptions import ConstantFeatureWarning

CALLS = {
    "SupportFeatureMachineCV": lambda X, y: SupportFeatureMachineCV(Cs=6, random_state=0).fit(X, y),
    "SupportFeatureMachineCV by C": lambda X, y: SupportFeatureMachineCV(Cs=6, align="C", n_repeats=1,
                                                                         random_state=0).fit(X, y),
    "WestonZeroNormSVMCV": lambda X, y: WestonZeroNormSVMCV(Cs=6, n_repeats=1, random_state=0).fit(X, y),
    "RepetitiveSFM auto": lambda X, y: RepetitiveSFM(n_subsets="auto", max_repetitions=4).fit(X, y),
    "compare_budgets": lambda X, y: compare_budgets(X, y, budgets=(1, 2), methods={"SFM path": SFMPath(n_Cs=5)},
                                                    automatic=SupportFeatureMachineCV(Cs=4, n_repeats=1,
                                                                                      max_repetitions=2),
                                                    cv=3, inner_cv=None),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_constant_features_are_reported_once_not_by_every_fold(call):
    X, y = make_weston(n_samples=60, n_noise=30, random_state=3)
    X[:, 3] = 1.0          # constant in the data: one warning
    X[:, 4] = 0.0
    X[0, 4] = 1.0          # constant only in the folds without sample 0: none
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(X, y)
    constant = [str(w.message) for w in caught if issubclass(w.category, ConstantFeatureWarning)]
    assert len(constant) == 1
    assert constant[0].startswith(f"1 of {X.shape[1]} features are constant")
    assert "indices 3)" in constant[0]
