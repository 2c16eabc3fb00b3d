"""sfmlearn.utils.parallel: the workers' warnings reach the caller's filters."""

import warnings

import pytest
from joblib import delayed

from sfmlearn.exceptions import ConstantFeatureWarning
from sfmlearn.utils.parallel import Parallel


def _warns(x):
    warnings.warn(f"column {x} is constant", ConstantFeatureWarning)
    return 2 * x


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("return_as", ["list", "generator"])
def test_every_tasks_warning_is_raised_again_in_the_caller(n_jobs, return_as):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = Parallel(n_jobs=n_jobs, return_as=return_as)(delayed(_warns)(x) for x in range(4))
        assert list(results) == [0, 2, 4, 6]
    assert sorted(str(w.message) for w in caught) == [f"column {x} is constant" for x in range(4)]
    assert {w.category for w in caught} == {ConstantFeatureWarning}


def test_the_callers_filters_decide_what_is_shown():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ConstantFeatureWarning)
        assert Parallel(n_jobs=2)(delayed(_warns)(x) for x in range(3)) == [0, 2, 4]
    assert caught == []
