import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine
from sfmlearn.exceptions import DataValidationError
from sfmlearn.mvpa import decode, reference_svm
from sfmlearn.mvpa._checks import check_grouped_problem, leave_one_group_out


def _toy(rng, n_groups=4, per_class=3, d=30, shift=3.0):
    """Feature 0 carries the class; the rest is noise."""
    labels = np.tile(np.repeat(["a", "b"], per_class), n_groups)
    groups = np.repeat(np.arange(n_groups), 2 * per_class)
    X = rng.standard_normal((labels.size, d))
    X[:, 0] += np.where(labels == "b", shift, -shift)
    return X, labels, groups


def test_groups_are_required_and_must_match():
    X, y, g = _toy(np.random.default_rng(0))
    with pytest.raises(DataValidationError, match="groups"):
        check_grouped_problem(X, y, None)
    with pytest.raises(DataValidationError, match="one id per sample"):
        check_grouped_problem(X, y, g[:-1])
    with pytest.raises(DataValidationError, match="at least 2"):
        check_grouped_problem(X, y, np.zeros_like(g))
    # the same group check as RepetitiveSFM and the estimate: a missing id is no participant
    with pytest.raises(DataValidationError, match="groups"):
        check_grouped_problem(X, y, np.where(g == 0, np.nan, g))


def test_fold_whose_training_set_lacks_a_class_is_refused():
    labels = np.array(["a", "a", "b", "b"])
    groups = np.array([1, 1, 2, 3])  # group 1 holds every "a"
    with pytest.raises(DataValidationError, match="one class only"):
        leave_one_group_out(labels, groups)


def test_folds_leave_each_group_out_once():
    X, y, g = _toy(np.random.default_rng(1))
    folds = leave_one_group_out(y, g)
    assert [f[0] for f in folds] == [0, 1, 2, 3]
    for group, train, test in folds:
        assert set(g[test]) == {group} and group not in set(g[train])
        assert train.size + test.size == y.size


def test_sfm_decoding_keeps_supports_and_pools_accuracy():
    X, y, g = _toy(np.random.default_rng(2))
    result = decode(X, y, g, SupportFeatureMachine())
    assert result.supports.shape == (4, X.shape[1])
    # the informative feature is selected in every fold and the held-out maps are decoded
    assert result.supports[:, 0].all()
    assert result.accuracy == 1.0
    assert list(result.folds["n_selected"]) == list(result.supports.sum(axis=1))
    assert result.selection_frequency[0] == 1.0


def test_accuracy_is_weighted_by_fold_size():
    rng = np.random.default_rng(3)
    X, y, g = _toy(rng, n_groups=3)
    g = g.copy()
    g[(g == 2) & (y == "a")] = 1  # uneven folds: group 1 larger than group 2
    with pytest.warns(UserWarning, match=r"groups \[2\] hold one class only.*mean over the other 2 groups"):
        result = decode(X, y, g, reference_svm())
    expected = np.average(result.folds["accuracy"], weights=result.folds["n_test"])
    assert result.accuracy == pytest.approx(expected)
    assert result.supports is None and result.selection_frequency is None
    # the one-class fold (group 2, class "b" only) has no balanced accuracy
    assert np.isnan(result.folds.set_index("group").loc[2, "balanced_accuracy"])


def test_noise_only_decoding_is_near_chance():
    rng = np.random.default_rng(4)
    X, y, g = _toy(rng, n_groups=6, per_class=4, shift=0.0)
    assert decode(X, y, g, reference_svm()).accuracy < 0.8


def test_the_data_come_first_and_the_estimator_first_order_warns_for_one_release():
    from sfmlearn.datasets import make_toy_fmri

    X, y, g = make_toy_fmri(random_state=0)
    new = decode(X, y, g, SupportFeatureMachine())
    assert decode(X, y, g).summary() == new.summary()  # the SFM is the default
    with pytest.warns(FutureWarning, match=r"decode\(<data>, estimator=\.\.\.\).*stops working in sfmlearn"):
        old = decode(SupportFeatureMachine(), X, y, g)
    assert old.summary() == new.summary()
