"""Bad arguments to the diagnostics fail at once with a message naming the argument and its allowed values;
the chance verdict's wording."""

import numpy as np
import pytest

from sfmlearn.datasets import make_basic
from sfmlearn.diagnostics import (ChanceReport, chance_report, check_permutable_groups, concentration_curves,
                                  critical_sample_size, format_verdict, permute_labels, relative_variance,
                                  sample_embedded_classes)
from sfmlearn.exceptions import DataValidationError
from sfmlearn.mvpa import permuted_decoding


@pytest.mark.parametrize("call, words", [
    (lambda: sample_embedded_classes(2, 2, 100, mu2=-1), "mu2 must be a finite non-negative number; got -1"),
    (lambda: sample_embedded_classes(2, 2, 3, sigma2=-1), "sigma2 must be a finite positive number"),
    (lambda: sample_embedded_classes(2, 2, 0), "d must be an integer >= 1; got 0"),
    (lambda: sample_embedded_classes(2, 2, 100.5), "d must be an integer"),
    (lambda: sample_embedded_classes(0, 0, 10), "both 0"),
    (lambda: critical_sample_size(1 / 30, sigma2=-1, tau2=-1), "sigma2 must be a finite positive number"),
    (lambda: critical_sample_size(1 / 30, sigma2=np.nan), "sigma2 must be a finite positive number; got nan"),
    (lambda: concentration_curves([5], n_runs=0), "n_runs must be an integer >= 1; got 0"),
    (lambda: concentration_curves([5], n_runs=-1), "n_runs must be an integer >= 1"),
    (lambda: concentration_curves([]), "d_values is empty"),
    (lambda: concentration_curves([5.9]), "every d must be an integer >= 1; got 5.9"),
    (lambda: relative_variance([-1, 5]), "non-negative quantities.*negative value -1"),
])
def test_arguments_are_checked_before_any_work(call, words):
    with pytest.raises(DataValidationError, match=words):
        call()


def test_messages_show_numpy_numbers_plainly():
    with pytest.raises(DataValidationError, match=r"got 0\.$"):
        concentration_curves([5], n_runs=np.int64(0))


@pytest.fixture(scope="module")
def planted():
    return make_basic(30, 60, 5, class_distance=1.0, random_state=0)


def test_chance_report_checks_groups_and_counts(planted):
    X, y = planted
    with pytest.raises(DataValidationError, match="groups has 15 missing"):
        chance_report(X, y, groups=np.r_[np.full(15, np.nan), np.ones(15)], n_permutations=2, random_state=0)
    with pytest.raises(DataValidationError, match="n_permutations must be an integer >= 0; got True"):
        chance_report(X, y, n_permutations=True)
    with pytest.raises(DataValidationError, match="groups has 5 missing"):
        permute_labels(np.arange(10), np.r_[np.full(5, np.nan), np.ones(5)], np.random.default_rng(0))


def test_one_check_refuses_groups_of_one_class_for_both_permutation_tests(planted):
    X, y = planted
    by_class = np.where(y > 0, 1, 2)
    with pytest.raises(DataValidationError, match="changes no label.*groups=None"):
        chance_report(X, y, groups=by_class, n_permutations=2)
    with pytest.raises(DataValidationError, match="changes no label.*participants"):
        permuted_decoding(X, y, np.where(y > 0, np.arange(30) % 3, 3 + np.arange(30) % 3), n_permutations=2)
    check_permutable_groups(y, np.arange(30) % 3, "unused")  # groups with both classes pass


def _report(p_value, n_permutations=9):
    sizes = np.full(n_permutations, 2.0)
    return ChanceReport(estimator="SupportFeatureMachine", n_samples=30, n_features=60, subset_size=1,
                        training_errors=0, separates_training_data=True, fit_intercept=True,
                        probability_lower=0.0, probability_upper=0.5, n_permutations=n_permutations,
                        permutation_sizes=sizes, permutation_errors=np.zeros(n_permutations), p_value=p_value,
                        grouped=False)


def test_verdict_names_the_smallest_p_only_when_p_is_it():
    assert "p = 0.1 (the smallest possible with 9)" in format_verdict(_report(0.1))
    assert "smallest possible" not in format_verdict(_report(0.2))
    assert "smallest possible" not in format_verdict(_report(0.01, n_permutations=99))  # below alpha anyway
