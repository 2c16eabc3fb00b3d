"""The exact linear SVM used to refit SFM hyperplanes, checked against LIBSVM."""

from pathlib import Path

import numpy as np
import pytest

from sfmlearn.exceptions import NotSeparableError
from sklearn.svm import SVC

from sfmlearn.optim import linear_svm


def _libsvm(X, y, slack_cost):
    """LIBSVM's (w, b) for uniform slack costs (a hard margin as C = 1e8)."""
    C = 1e8 if slack_cost is None else float(slack_cost[0])
    model = SVC(kernel="linear", C=C, tol=1e-6).fit(X, y)
    return model.coef_.ravel(), float(model.intercept_[0])


@pytest.fixture
def separable():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 3))
    return X, np.sign(X[:, 0] + 0.5 * X[:, 1] + 0.1)


def test_hard_margin_has_margin_one_and_matches_libsvm(separable):
    X, y = separable
    w, b = linear_svm(X, y)
    margins = y * (X @ w + b)
    assert margins.min() == pytest.approx(1.0, abs=1e-7)
    w_ref, b_ref = _libsvm(X, y, None)
    np.testing.assert_allclose(w, w_ref, rtol=1e-3)


def test_soft_margin_matches_libsvm_objective(separable):
    X, y = separable
    cost = np.full(40, 0.1)
    objective = lambda w, b: 0.5 * w @ w + cost @ np.maximum(0, 1 - y * (X @ w + b))  # noqa: E731
    assert objective(*linear_svm(X, y, cost)) == pytest.approx(objective(*_libsvm(X, y, cost)), rel=1e-4)


def test_hard_margin_on_overlapping_classes_is_not_separable():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    with pytest.raises(NotSeparableError):
        linear_svm(X, np.array([1.0, -1.0, 1.0, -1.0]))


DEGENERATE = Path(__file__).parent / "data" / "degenerate_hard_margin.npz"


def test_nearly_degenerate_hard_margin_is_certified_and_feasible():
    # 80 x 51, hard margin ~4e-5: HiGHS' QP cycled for 1e5 iterations, LIBSVM returned a
    # hyperplane with margins of -15. (Thinner margins: test_hard_margin_svm.py.)
    data = np.load(DEGENERATE)
    X, y = data["X"], data["y"]
    w, b = linear_svm(X, y)
    assert (y * (X @ w + b)).min() >= 1 - 1e-7
