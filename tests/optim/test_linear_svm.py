"""The exact linear SVM used to refit SFM hyperplanes, and its LIBSVM fallback."""

import numpy as np
import pytest

from sfmlearn.exceptions import NotSeparableError
from sfmlearn.optim.qp import _libsvm, linear_svm


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
