"""sfmlearn.utils.parallel: the workers' warnings reach the caller's filters."""

import re
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


def test_threads_keep_their_warnings_and_leave_the_warnings_state_as_it_was():
    """catch_warnings is process-wide: tasks in overlapping threads must not record."""
    import time

    from joblib import parallel_config

    def late(x, pause):
        time.sleep(pause)
        warnings.warn(f"task {x}", UserWarning)
        return x

    filters, show = list(warnings.filters), warnings.showwarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with parallel_config(backend="threading"):
            assert Parallel(n_jobs=2)(delayed(late)(x, p) for x, p in [(0, 0.1), (1, 0.3)]) == [0, 1]
    assert sorted(str(w.message) for w in caught) == ["task 0", "task 1"]
    assert warnings.filters == filters and warnings.showwarning is show


def _nested(x):
    warnings.warn(f"outer {x}", UserWarning)
    return sum(Parallel(n_jobs=2)(delayed(_warns)(10 * x + k) for k in range(3)))


def test_warnings_of_nested_calls_inside_workers_all_reach_the_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert Parallel(n_jobs=2)(delayed(_nested)(x) for x in range(3)) == [6, 66, 126]
    assert len(caught) == 3 + 9


class _CodedWarning(UserWarning):
    def __init__(self, text, code):
        super().__init__(text)
        self.code = code


def _coded(x):
    warnings.warn(_CodedWarning("needs a code", 7))
    return x


def test_a_warning_that_does_not_travel_arrives_as_text_with_its_class_named():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert Parallel(n_jobs=2)(delayed(_coded)(x) for x in range(2)) == [0, 1]
    assert [str(w.message) for w in caught] == ["_CodedWarning: needs a code"] * 2


def test_a_replayed_warning_keeps_its_source_line_and_module():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Parallel(n_jobs=2)(delayed(_warns)(x) for x in range(1))
    assert caught[0].filename == __file__ and caught[0].lineno == _warns.__code__.co_firstlineno + 1
    with warnings.catch_warnings(record=True) as caught:  # a filter on the raising module applies
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", module=re.escape(__name__) + "$")  # the name, not the file's path
        Parallel(n_jobs=2)(delayed(_warns)(x) for x in range(2))
    assert caught == []
