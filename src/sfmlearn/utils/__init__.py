"""Helpers every layer of sfmlearn may use; they import nothing else from sfmlearn.

* :mod:`.seeds`: independent random seeds for parallel simulations, so results do not
  depend on ``n_jobs`` (:func:`spawn_seeds`, :func:`seed_chunks`).
* :mod:`.parallel`: joblib's ``Parallel`` whose workers' warnings are raised again in
  the caller, so that ``n_jobs`` does not change what a user is warned about.
* :mod:`.time_limit`: a limit that loops of unknown length check between their steps
  (:func:`~.time_limit.time_limit`, :class:`~.time_limit.TimeLimitError`).
* :mod:`.grids`: whether two images lie on one voxel grid (the imaging and datasets
  layers share the rule).
"""

from .seeds import seed_chunks, spawn_seeds

__all__ = ["seed_chunks", "spawn_seeds"]
