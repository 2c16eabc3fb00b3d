"""Seeds for parallel simulations: fixed by random_state, the same however the work is chunked."""

import numpy as np

from sfmlearn.utils import seed_chunks, spawn_seeds


def _draws(seeds):
    return [np.random.default_rng(s).integers(1 << 30) for s in seeds]


def test_same_random_state_same_seeds_and_different_tasks_differ():
    first, again = _draws(spawn_seeds(3, 20)), _draws(spawn_seeds(3, 20))
    assert first == again
    assert len(set(first)) == 20
    assert _draws(spawn_seeds(4, 20)) != first


def test_chunks_hold_the_seeds_in_order_for_every_n_jobs():
    reference = _draws(spawn_seeds(7, 23))
    for n_jobs in (1, 2, 5, -1):
        chunks = seed_chunks(7, 23, n_jobs)
        assert 1 <= len(chunks) <= 23
        assert _draws([s for chunk in chunks for s in chunk]) == reference


def test_a_numpy_generator_seeds_as_reproducibly_as_an_int():
    first = _draws(spawn_seeds(np.random.default_rng(5), 10))
    assert first == _draws(spawn_seeds(np.random.default_rng(5), 10))
    assert len(set(first)) == 10 and first != _draws(spawn_seeds(np.random.default_rng(6), 10))
    chunks = seed_chunks(np.random.default_rng(5), 10, 2)
    assert _draws([s for chunk in chunks for s in chunk]) == first


def test_int_seeds_give_the_seeds_they_always_gave():
    assert [int(np.random.default_rng(s).integers(1000)) for s in spawn_seeds(0, 3)] == [770, 743, 360]
