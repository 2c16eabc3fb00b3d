"""Independent seeds for parallel simulations (permutations, Monte-Carlo trials, runs).

Task i always gets the i-th seed derived from ``random_state``, whichever worker runs it,
so a simulation gives the same numbers for every ``n_jobs`` and joblib backend.
"""

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils import check_random_state

__all__ = ["seed_chunks", "spawn_seeds"]


def spawn_seeds(random_state, count):
    """``count`` independent seed sequences fixed by ``random_state`` (int, RandomState,
    Generator or None).

    Parallel simulations give task i the i-th seed, so results do not depend on n_jobs.
    The root is 128 bits drawn from ``random_state``: a Generator (``np.random.default_rng``)
    is drawn from as a RandomState is, and advances as it does.

    Parameters
    ----------
    random_state : int, RandomState, Generator or None
        The root of the seeds.
    count : int
        How many.

    Returns
    -------
    list of numpy.random.SeedSequence
        One per task.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.utils import spawn_seeds
    >>> [int(np.random.default_rng(seed).integers(1000)) for seed in spawn_seeds(0, 3)]
    [770, 743, 360]
    """
    if isinstance(random_state, np.random.Generator):
        entropy = random_state.integers(0, 2**32, size=4)
    else:
        entropy = check_random_state(random_state).randint(0, 2**32, size=4)
    return np.random.SeedSequence([int(e) for e in entropy]).spawn(count)


def seed_chunks(random_state, count, n_jobs):
    """:func:`spawn_seeds` split into a few chunks per joblib worker (less dispatch overhead).

    Parameters
    ----------
    random_state : int, RandomState, Generator or None
        The root of the seeds.
    count : int
        Number of tasks.
    n_jobs : int or None
        Number of joblib workers.

    Returns
    -------
    list of list of numpy.random.SeedSequence
        The seeds of :func:`spawn_seeds`, in order, split into chunks.

    Examples
    --------
    >>> from sfmlearn.utils import seed_chunks
    >>> chunks = seed_chunks(0, 5, 2)
    >>> sum(len(chunk) for chunk in chunks)
    5
    """
    seeds = spawn_seeds(random_state, count)
    n_chunks = min(count, 4 * effective_n_jobs(n_jobs))
    return [seeds[c[0]:c[-1] + 1] for c in np.array_split(np.arange(count), n_chunks)]
