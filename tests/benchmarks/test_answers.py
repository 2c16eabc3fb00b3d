"""The answers comparison of ``bench_answers.py`` (``_answers.py``)."""

import os
import sys

import numpy as np
import scipy.sparse as sp

from sfmlearn import SupportFeatureMachine
from sfmlearn.datasets import make_basic

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from _answers import compare, fitted_arrays, record  # noqa: E402


def _arrays(**named):
    return {key.replace("__", "/"): np.asarray(value) for key, value in named.items()}


def test_the_same_bits_are_identical_and_rounding_is_equal():
    this = _arrays(cv__coef_=[1.0, 2.0], cv__support_=[True, False])
    assert compare(this, dict(this)) == {"cv": ("identical", "2 arrays")}
    rounded = _arrays(cv__coef_=[1.0, 2.0 + 1e-14], cv__support_=[True, False])
    verdict, details = compare(rounded, this)["cv"]
    assert verdict == "equal" and details.startswith("1 of 2 arrays within rounding: coef_")


def test_a_real_difference_is_named_with_its_size():
    this = _arrays(soft__coef_=[1.0, 2.5], soft__support_=[True, True], cv__coef_=[1.0])
    reference = _arrays(soft__coef_=[1.0, 2.0], soft__support_=[True, False], cv__coef_=[1.0])
    verdicts = compare(this, reference)
    assert verdicts["cv"][0] == "identical"
    verdict, details = verdicts["soft"]
    assert verdict == "differs" and "coef_ (max |difference| 0.5" in details and "support_" in details


def test_other_shapes_nans_in_other_places_and_errors_are_told_apart():
    verdict, details = compare(_arrays(a__x=[1.0, 2.0]), _arrays(a__x=[1.0]))["a"]
    assert verdict == "differs" and "shape (2,) against (1,)" in details
    verdict, details = compare(_arrays(a__x=[np.nan, 2.0]), _arrays(a__x=[1.0, np.nan]))["a"]
    assert verdict == "differs" and "NaN or infinity in other places" in details
    same_infinity = compare(_arrays(a__x=[np.inf, 2.0]), _arrays(a__x=[np.inf, 2.0 + 1e-14]))["a"]
    assert same_infinity[0] == "equal"
    failed = {"a/error": np.array("SolverError: status Unknown")}
    verdict, details = compare(failed, _arrays(a__x=[1.0]))["a"]
    assert verdict == "failed" and details == "this tree: SolverError: status Unknown"


def test_arrays_only_one_side_has_do_not_count_but_none_in_common_differs():
    this = _arrays(cv__coef_=[1.0], cv__new_attribute_=[3.0])
    assert compare(this, _arrays(cv__coef_=[1.0]))["cv"] == ("identical", "1 array")
    assert compare(_arrays(cv__renamed_=[1.0]), _arrays(cv__coef_=[1.0]))["cv"][0] == "differs"


def test_a_fit_gives_its_arrays_without_timings():
    X, y = make_basic(30, 20, 3, random_state=0)
    fitted = SupportFeatureMachine(C=1.0).fit(X, y)
    arrays = fitted_arrays(fitted, X)
    np.testing.assert_array_equal(arrays["coef_"], fitted.coef_)
    np.testing.assert_array_equal(arrays["decision_function(X)"], fitted.decision_function(X))
    assert "history_[n_features]" in arrays
    assert not any("seconds" in key for key in arrays)


def test_recorded_answers_of_one_tree_are_identical(tmp_path):
    X, y = make_basic(30, 20, 3, random_state=0)
    X = sp.csr_matrix(X)
    paths = [tmp_path / "first.npz", tmp_path / "second.npz"]
    for path in paths:
        record(X, y, ["soft", "repetitive"], path)
    first, second = (dict(np.load(path)) for path in paths)
    assert "repetitive/subsets_ (lengths)" in first
    assert {fit: verdict for fit, (verdict, _) in compare(first, second).items()} == \
        {"soft": "identical", "repetitive": "identical"}


def test_a_long_list_of_differences_is_cut_with_a_count():
    this = {f"cv/a{k}": np.array([float(k)]) for k in range(7)}
    reference = {f"cv/a{k}": np.array([k + 1.0]) for k in range(7)}
    verdict, details = compare(this, reference)["cv"]
    assert verdict == "differs" and details.count("max |difference|") == 4 and details.endswith("and 3 more arrays")
