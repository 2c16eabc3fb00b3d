"""The answer must not depend on the units of the features.

Every estimator that scales its input (the default ``scale=True``, the standardising
ones) must select the same features and predict the same labels for X, X * 1e-13,
X * 1e160 and any positive per-column rescaling. The data have no ties (continuous
random values), so "the same" is exact.
"""

import warnings

import numpy as np
import pytest

from sfmlearn import (
    FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier, KernelTargetAlignment, PotentialSVM,
    QuadraticFSV, RepetitiveSFM, SupportFeatureMachine, WestonZeroNormSVM,
)


def _data(seed=0, n=40, d=30):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    X[:, 0] += 0.3 * np.where(y == 1, 1.0, -1.0)  # a margin: linearly separable
    return X, y


_COLUMN_UNITS = 10.0 ** np.random.default_rng(1).uniform(-12, 12, 30)
TRANSFORMS = {
    "1e-13": lambda X: X * 1e-13,
    "1e160": lambda X: X * 1e160,
    "per-column 1e-12..1e12": lambda X: X * _COLUMN_UNITS[: X.shape[1]],
}
ESTIMATORS = {
    "SFM hard": lambda: SupportFeatureMachine(),
    "SFM soft": lambda: SupportFeatureMachine(C=1.0),
    "Weston hard": lambda: WestonZeroNormSVM(),
    "Weston soft": lambda: WestonZeroNormSVM(C=1.0),
    "RLP": lambda: RLP(),
    "L1SVM": lambda: L1SVM(),
    "FSV": lambda: FSV(),
    "L2L1SVM": lambda: L2L1SVM(),
    "L2L0SVM": lambda: L2L0SVM(),
    "KernelTargetAlignment": lambda: KernelTargetAlignment(),
    "PotentialSVM": lambda: PotentialSVM(),
    "GolubClassifier": lambda: GolubClassifier(n_features_to_select=3),
    "RepetitiveSFM": lambda: RepetitiveSFM(max_repetitions=3),
}


def _fit(make, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make().fit(X, y)


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_selection_and_predictions_do_not_depend_on_units(name, transform):
    X, y = _data()
    reference = _fit(ESTIMATORS[name], X, y)
    assert reference.get_support().any()
    Xt = TRANSFORMS[transform](X)
    model = _fit(ESTIMATORS[name], Xt, y)
    np.testing.assert_array_equal(model.get_support(), reference.get_support())
    # Golub's vote sum_j P_j (x_j - m_j) adds the features in their own units (thesis eq.
    # 2.6, P_j is unit-free): its predictions depend on per-column units by definition.
    unit_dependent = name == "GolubClassifier" and transform.startswith("per-column")
    if hasattr(reference, "predict") and not unit_dependent:
        np.testing.assert_array_equal(model.predict(Xt), reference.predict(X))


@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_quadratic_fsv_does_not_depend_on_units(transform):
    X, y = _data(n=30, d=4)
    reference = _fit(QuadraticFSV, X, y)
    model = _fit(QuadraticFSV, TRANSFORMS[transform](X), y)
    np.testing.assert_array_equal(model.support_, reference.support_)
    np.testing.assert_array_equal(model.predict(TRANSFORMS[transform](X)), reference.predict(X))


def test_a_separating_concentration_in_mol_per_litre_is_selected():
    """A feature of ~1e-11 mol/L that separates the classes used to be dropped as constant."""
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 20)
    X = rng.standard_normal((40, 50))
    X[:, 7] = 1e-11 * (1.0 + 0.2 * y + 0.02 * rng.standard_normal(40))
    for model in (SupportFeatureMachine(), SupportFeatureMachine(C=1.0), WestonZeroNormSVM()):
        assert np.flatnonzero(model.fit(X, y).support_).tolist() == [7]


@pytest.mark.parametrize("factor", [1e-13, 1e300])
def test_extreme_units_keep_a_separable_problem_separable(factor):
    """Neither X * 1e-13 ("not separable") nor X * 1e300 (overflow) may change the answer."""
    X, y = _data()
    for make in (SupportFeatureMachine, lambda: SupportFeatureMachine(C=1.0)):
        model = make().fit(X * factor, y)
        assert model.score(X * factor, y) == 1.0
