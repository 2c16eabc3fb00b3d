"""chance_report: the incidental-separability bound and the label-permutation test (thesis 2.5.4, 6.4)."""

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.base import BaseEstimator, clone
from sklearn.linear_model import LogisticRegression

from sfmlearn import SupportFeatureMachine, chance_report

from sfmlearn.diagnostics import format_verdict
from sfmlearn.diagnostics import ChanceReport, permute_labels
from sfmlearn.exceptions import DataValidationError
from sfmlearn.theory import prob_separable_subspace_bounds


def _planted(n=30, d=200, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.standard_normal((n, d))
    X[:, 0] += 6 * (y - 0.5)  # one feature separates the classes with a wide gap
    return X, y


def test_a_planted_feature_beats_every_permutation():
    X, y = _planted()
    report = chance_report(X, y, SupportFeatureMachine(), n_permutations=19, random_state=0)
    assert report.subset_size == 1 and report.separates_training_data
    lower, upper = prob_separable_subspace_bounds(30, 200, 1, fit_intercept=True)
    assert (report.probability_lower, report.probability_upper) == (lower, upper)
    assert np.all(report.permutation_sizes > 1)
    assert report.p_value == pytest.approx(1 / 20)
    assert "unlikely by chance" in format_verdict(report)
    assert "1 of 200 features" in format_verdict(report)


def test_p_value_counts_permutations_at_most_as_small_as_observed():
    rng = np.random.default_rng(1)
    X, y = rng.standard_normal((16, 60)), np.repeat([0, 1], 8)
    report = chance_report(X, y, SupportFeatureMachine(), n_permutations=12, random_state=2)
    assert report.training_errors == 0 and np.all(report.permutation_errors == 0)  # hard fits separate
    expected = (1 + np.sum(report.permutation_sizes <= report.subset_size)) / 13
    assert report.p_value == pytest.approx(expected)
    assert report.to_dict()["permutation_sizes"] == [int(s) for s in report.permutation_sizes]


def test_soft_permutations_with_more_training_errors_do_not_count_as_good():
    # A soft selector buys small subsets with training errors; only fits that are at
    # least as small and at least as accurate may count against the real labels.
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((30, 100)), np.repeat([0, 1], 15)
    X[:, 0] += 1.5 * (y - 0.5)  # a weak, overlapping signal
    report = chance_report(X, y, SupportFeatureMachine(C=0.05), n_permutations=15, random_state=0)
    assert report.training_errors is not None
    as_good = (report.permutation_sizes <= report.subset_size) & (report.permutation_errors <= report.training_errors)
    assert report.p_value == pytest.approx((1 + as_good.sum()) / 16)
    assert np.any((report.permutation_sizes <= report.subset_size) & ~as_good)


def test_permutations_that_a_hard_selector_cannot_fit_count_as_larger():
    # 3 features, 40 samples: the real classes separate, permuted ones almost never do
    X, y = _planted(n=40, d=3, seed=3)
    report = chance_report(X, y, SupportFeatureMachine(), n_permutations=6, random_state=0)
    assert report.n_failed_permutations == 6
    assert report.p_value == pytest.approx(1 / 7)
    assert "gave no solution, p = 0.143 (the smallest possible with 6)" in format_verdict(report)


def test_report_is_deterministic_across_n_jobs_and_leaves_the_estimator_untouched():
    X, y = _planted(n=20, d=40, seed=4)
    estimator = SupportFeatureMachine()
    params = clone(estimator).get_params()
    a = chance_report(X, y, estimator, n_permutations=5, random_state=11)
    with parallel_config(backend="threading"):
        b = chance_report(X, y, estimator, n_permutations=5, random_state=11, n_jobs=2)
    np.testing.assert_array_equal(a.permutation_sizes, b.permutation_sizes)
    assert not hasattr(estimator, "support_")
    assert estimator.get_params() == params


def test_permute_labels_within_groups_keeps_each_groups_labels():
    rng = np.random.default_rng(5)
    y = np.array([0, 0, 1, 1, 0, 1, 1, 1])
    groups = np.array([1, 1, 1, 1, 2, 2, 2, 2])
    changed = False
    for _ in range(20):
        permuted = permute_labels(y, groups, rng)
        for g in (1, 2):
            assert sorted(permuted[groups == g]) == sorted(y[groups == g])
        changed |= not np.array_equal(permuted, y)
    assert changed


def test_grouped_report_and_input_checks():
    X, y = _planted(n=20, d=30, seed=6)
    groups = np.tile([0, 1], 10)
    report = chance_report(X, y, SupportFeatureMachine(), groups=groups, n_permutations=3, random_state=0)
    assert report.grouped and "within groups" in format_verdict(report)
    with pytest.raises(DataValidationError, match="one id per sample"):
        chance_report(X, y, SupportFeatureMachine(), groups=groups[:5], n_permutations=1)
    with pytest.raises(DataValidationError, match="selects no features"):
        chance_report(X, y, LogisticRegression(), n_permutations=1)
    with pytest.raises(DataValidationError, match="n_permutations"):
        chance_report(X, y, SupportFeatureMachine(), n_permutations=-1)


def _report(**changes):
    fields = dict(estimator="SupportFeatureMachine", n_samples=38, n_features=7129, subset_size=2,
                  training_errors=0, separates_training_data=True, fit_intercept=True, probability_lower=2.8e-10,
                  probability_upper=0.13, n_permutations=20,
                  permutation_sizes=np.array([2.0, 3, 4, 5] * 5), permutation_errors=np.zeros(20),
                  p_value=0.19, grouped=False)
    fields.update(changes)
    return ChanceReport(**fields)


def test_verdict_text_follows_the_numbers():
    plausible = format_verdict(_report())
    assert "2 of 7129 features on 38 samples" in plausible
    assert "probability <= 0.13" in plausible
    assert "2-5 features (median 3.5)" in plausible and "p = 0.19" in plausible
    assert plausible.endswith("plausible by chance.")
    assert format_verdict(_report(p_value=0.01)).endswith("unlikely by chance.")
    # without permutations, the bound decides
    assert format_verdict(_report(n_permutations=0, permutation_sizes=np.array([]), permutation_errors=np.array([]),
                                  p_value=np.nan, probability_upper=0.001)).endswith("unlikely by chance.")
    soft = format_verdict(_report(training_errors=3))
    assert "with 3 training errors" in soft and "subsets <= 2 with <= 3 errors" in soft
    assert "does not apply" in format_verdict(_report(separates_training_data=False))


def test_the_data_come_first_and_the_estimator_defaults_to_the_sfm():
    X, y = _planted()
    default = chance_report(X, y, n_permutations=3, random_state=0)
    explicit = chance_report(X, y, SupportFeatureMachine(), n_permutations=3, random_state=0)
    assert default.estimator == "SupportFeatureMachine"
    assert default.to_dict() == explicit.to_dict()


def test_the_estimator_first_order_still_works_for_one_release_and_warns():
    X, y = _planted()
    new = chance_report(X, y, SupportFeatureMachine(C=1.0), groups=None, n_permutations=3, random_state=0)
    with pytest.warns(FutureWarning, match=r"chance_report\(<data>, estimator=\.\.\.\).*stops working in sfmlearn"):
        old = chance_report(SupportFeatureMachine(C=1.0), X, y, groups=None, n_permutations=3, random_state=0)
    assert old.to_dict() == new.to_dict()


class _FirstFeatureIfItTracksTheLabels(BaseEstimator):
    """A selector without predict (so judged by its size alone) that keeps feature 0 when it
    tracks the labels, else nothing."""

    def fit(self, X, y):
        X, y = np.asarray(X), np.asarray(y)
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[0] = abs(np.corrcoef(X[:, 0], y)[0, 1]) > 0.9
        return self

    def get_support(self):
        return self.support_


def test_a_permutation_that_selects_nothing_counts_as_worse_than_a_subset():
    X, y = _planted()
    report = chance_report(X, y, _FirstFeatureIfItTracksTheLabels(), n_permutations=9, random_state=0)
    assert report.subset_size == 1 and report.permutation_sizes.tolist() == [0.0] * 9
    assert report.n_failed_permutations == 0  # the fits ran; they selected nothing
    assert report.p_value == pytest.approx(1 / 10)
    # nothing selected on noise, as on its permutations: plausible by chance, not p = 1/10
    noise = np.random.default_rng(1).standard_normal(X.shape)
    empty = chance_report(noise, y, _FirstFeatureIfItTracksTheLabels(), n_permutations=9, random_state=0)
    assert empty.subset_size == 0 and empty.p_value == 1.0
    assert "plausible by chance" in format_verdict(empty)


def test_the_repetitive_sfm_and_groups_of_one_class_are_refused_before_any_fit():
    from sfmlearn import RepetitiveSFM
    X, y = _planted()
    with pytest.raises(DataValidationError, match="base estimator"):
        chance_report(X, y, RepetitiveSFM(SupportFeatureMachine(C=1.0)), n_permutations=3)
    one_class_groups = np.where(y == 1, 10, 20) + np.arange(y.size) % 3
    with pytest.raises(DataValidationError, match="one class only"):
        chance_report(X, y, SupportFeatureMachine(), groups=one_class_groups, n_permutations=3)
    # no permutations: nothing to refuse
    assert chance_report(X, y, SupportFeatureMachine(), groups=one_class_groups, n_permutations=0).subset_size == 1


def test_a_fit_the_caller_has_is_read_not_repeated(monkeypatch):
    X, y = _planted()
    model = SupportFeatureMachine(C=1.0).fit(X, y)
    expected = chance_report(X, y, SupportFeatureMachine(C=1.0), n_permutations=4, random_state=0).to_dict()
    fits = []
    original = SupportFeatureMachine.fit
    monkeypatch.setattr(SupportFeatureMachine, "fit", lambda self, *a, **k: fits.append(1) or original(self, *a, **k))
    given = chance_report(X, y, SupportFeatureMachine(C=1.0), n_permutations=4, random_state=0, fitted=model)
    assert given.to_dict() == expected
    assert len(fits) == 4  # the permutations only
    alone = chance_report(X, y, n_permutations=4, random_state=0, fitted=model)  # its parameters, not the default's
    assert alone.to_dict() == expected


def test_a_fit_to_other_data_is_refused():
    X, y = _planted()
    model = SupportFeatureMachine().fit(X[:, :50], y)
    with pytest.raises(DataValidationError, match="fitted was fitted to 50 features"):
        chance_report(X, y, SupportFeatureMachine(), n_permutations=0, fitted=model)
    with pytest.raises(DataValidationError, match="fitted is a SupportFeatureMachine, estimator a LogisticRegression"):
        chance_report(X, y, LogisticRegression(), n_permutations=0, fitted=SupportFeatureMachine().fit(X, y))
    with pytest.raises(DataValidationError, match="classes"):
        chance_report(X, np.where(y == 1, "b", "a"), SupportFeatureMachine(), n_permutations=0,
                      fitted=SupportFeatureMachine().fit(X, y))
