"""Independent seeds for parallel simulations (permutations, Monte-Carlo trials, runs).

Task i always gets the i-th seed derived from ``random_state``, whichever worker runs it,
so a simulation gives the same numbers for every ``n_jobs`` and joblib backend.
"""

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils import check_random_state

__all__ = ["seed_chunks", "spawn_seeds"]


def spawn_seeds(random_state, count):
    """``count`` independent seed sequences fixed by ``random_state`` (int, RandomState or None).

    Parallel simulations give task i the i-th seed, so results do not depend on n_jobs.
    """
    entropy = check_random_state(random_state).randint(0, 2**32, size=4)
    return np.random.SeedSequence([int(e) for e in entropy]).spawn(count)


def seed_chunks(random_state, count, n_jobs):
    """:func:`spawn_seeds` split into a few chunks per joblib worker (less dispatch overhead)."""
    seeds = spawn_seeds(random_state, count)
    n_chunks = min(count, 4 * effective_n_jobs(n_jobs))
    return [seeds[c[0]:c[-1] + 1] for c in np.array_split(np.arange(count), n_chunks)]
