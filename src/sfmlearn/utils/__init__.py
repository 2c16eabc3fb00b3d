"""Helpers every layer of sfmlearn may use; they import nothing else from sfmlearn.

* :mod:`.seeds`: independent random seeds for parallel simulations, so results do not
  depend on ``n_jobs`` (:func:`spawn_seeds`, :func:`seed_chunks`).
"""

from .seeds import seed_chunks, spawn_seeds

__all__ = ["seed_chunks", "spawn_seeds"]
