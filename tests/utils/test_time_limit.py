"""The time limit that loops of unknown length check between steps, in every process."""

import time

import pytest
from joblib import delayed

from sfmlearn.utils.parallel import Parallel
from sfmlearn.utils.time_limit import TimeLimitError, check_time_limit, deadline, time_limit


def step(seconds):
    time.sleep(seconds)
    check_time_limit("one step")
    return seconds


def test_no_limit_checks_nothing():
    assert deadline() is None
    check_time_limit("anything")  # no limit: nothing raised


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_the_callers_limit_reaches_the_tasks_of_every_process(n_jobs):
    with time_limit(60):
        assert Parallel(n_jobs=n_jobs)(delayed(step)(0.0) for _ in range(2)) == [0.0, 0.0]
    with time_limit(0), pytest.raises(TimeLimitError, match="time limit of 0 s after one step$"):
        Parallel(n_jobs=n_jobs)(delayed(step)(0.0) for _ in range(1))  # the first task runs: its own check raises


def test_an_inner_limit_cannot_extend_an_outer_one():
    with time_limit(0):
        with time_limit(3600), pytest.raises(TimeLimitError) as raised:
            check_time_limit("one step")
    assert raised.value.seconds == 0 and raised.value.done == "one step"
    assert deadline() is None  # every limit ends with its block


def sleeping(seconds):
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_every_task_after_the_first_checks_the_limit_before_it_starts(n_jobs):
    with time_limit(0):
        assert Parallel(n_jobs=n_jobs, what="naps")(delayed(sleeping)(0.0) for _ in range(1)) == [0.0]
        with pytest.raises(TimeLimitError, match="after 1 of the naps$"):
            Parallel(n_jobs=n_jobs, what="naps")(delayed(sleeping)(0.0) for _ in range(2))
