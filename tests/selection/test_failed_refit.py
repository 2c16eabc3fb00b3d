"""A fit replaces the whole fitted state: a refit that raises leaves the estimator unfitted
(never the last fit's model beside the new data's classes and shape), and a refit that
succeeds keeps no attribute of the last one that it does not set itself."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from sfmlearn import (FSV, GolubClassifier, HardMarginSVM, KernelTargetAlignment, NonlinearPSVM,
                      PotentialSVM, PotentialSVR, QuadraticFSV, SoftDoubleMinOver, SupportFeatureMachine)
from sfmlearn.exceptions import DataValidationError, NotSeparableError
from sfmlearn.selection.multiclass import OneVsOneSelector, OneVsRestSelector

RNG = np.random.default_rng(0)
#: Separable two-class data with three columns ("cat" where column 0 is positive).
X_FIRST = RNG.standard_normal((20, 3))
Y_FIRST = np.where(X_FIRST[:, 0] > 0, "cat", "dog")
#: Five columns, alternating labels: not linearly separable.
X_MIXED = RNG.standard_normal((20, 5))
Y_MIXED = np.where(np.arange(20) % 2, "sick", "well")
#: Three separable classes (class c has column c shifted).
Y_THREE = np.repeat(["a", "b", "c"], 10)
X_THREE = RNG.standard_normal((30, 3)) + 6.0 * (Y_THREE[:, None] == np.array(["a", "b", "c"]))


def _fitted_attributes(model):
    return sorted(k for k in vars(model) if k.endswith("_") and not k.startswith("_"))


ONE_CLASS = (X_MIXED, np.repeat("sick", 20), DataValidationError)
NOT_SEPARABLE = (X_MIXED, Y_MIXED, NotSeparableError)
CASES = [
    (HardMarginSVM(), (X_FIRST, Y_FIRST), NOT_SEPARABLE),
    (SoftDoubleMinOver(), (X_FIRST, Y_FIRST), NOT_SEPARABLE),
    (SoftDoubleMinOver(C=1.0), (X_FIRST, Y_FIRST), ONE_CLASS),
    (KernelTargetAlignment(max_iter=5), (X_FIRST, Y_FIRST), ONE_CLASS),
    (GolubClassifier(2), (X_FIRST, Y_FIRST), ONE_CLASS),
    (PotentialSVM(n_features_to_select=1), (X_FIRST, Y_FIRST), ONE_CLASS),
    (PotentialSVR(), (X_FIRST, X_FIRST[:, 0]), (np.ones((20, 5)), X_MIXED[:, 0], DataValidationError)),
    (NonlinearPSVM(random_state=0, max_iter=50), (X_FIRST, Y_FIRST), ONE_CLASS),
    (FSV(), (X_FIRST, Y_FIRST), ONE_CLASS),
    (QuadraticFSV(), (X_FIRST, Y_FIRST), ONE_CLASS),
    (SupportFeatureMachine(), (X_FIRST, Y_FIRST), NOT_SEPARABLE),
    (OneVsRestSelector(SupportFeatureMachine()), (X_THREE, Y_THREE),
     (RNG.standard_normal((30, 5)), Y_THREE, NotSeparableError)),
    (OneVsOneSelector(SupportFeatureMachine()), (X_THREE, Y_THREE),
     (RNG.standard_normal((30, 5)), Y_THREE, NotSeparableError)),
]


@pytest.mark.filterwarnings("ignore::UserWarning")  # constant columns, early stops: not the point
@pytest.mark.parametrize("model, first, failing", CASES, ids=[repr(case[0]) for case in CASES])
def test_a_failed_refit_leaves_the_estimator_unfitted(model, first, failing):
    model.fit(*first)
    assert model.n_features_in_ == first[0].shape[1]
    X, y, error = failing
    with pytest.raises(error):
        model.fit(X, y)
    assert _fitted_attributes(model) == []
    with pytest.raises(NotFittedError):
        check_is_fitted(model)
    with pytest.raises(NotFittedError):
        (model.predict if hasattr(model, "predict") else model.transform)(first[0])


def test_a_refit_keeps_no_attribute_that_only_the_last_settings_set():
    model = SoftDoubleMinOver(C=1.0).fit(X_FIRST, Y_FIRST)
    assert hasattr(model, "coef_")  # the linear kernel's weight vector
    model.set_params(kernel="rbf").fit(X_FIRST, Y_FIRST)
    assert not hasattr(model, "coef_")
